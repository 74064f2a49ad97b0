"""A check's violation reaches a person as the check's code and data, worded once in the
client's catalog (``cli/words/i18n.py``, keys ``vi_`` + the code) in English and French: the
library's table (:data:`chkobba_p2p.errors.VIOLATIONS`) and the catalog agree, and the
French replay of a cheat says it in French (issue 41: the library speaks codes and data,
not sentences)."""

from __future__ import annotations

import dataclasses
import html
import re
import string
from pathlib import Path

import pytest
from support.audit import play

import chkobba_p2p
from chkobba_cli.outputs.replay_html import render_html
from chkobba_cli.words.event_words import violation_words, words
from chkobba_cli.words.i18n import MESSAGES, Translator
from chkobba_p2p import errors
from chkobba_p2p.game.cards import Card
from chkobba_p2p.observe.audit import INVALID, audit_log
from chkobba_p2p.observe.verdict import FINDINGS, WARNINGS, Verdict
from chkobba_p2p.transcript.bodies import PlayAction
from chkobba_p2p.transcript.session import Session

_LIB = Path(chkobba_p2p.__file__).parent


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("code", sorted(errors.VIOLATIONS))
def test_every_violation_has_words_in_both_languages_with_its_facts(code):
    en, fr = MESSAGES["vi_" + code]
    assert en and fr and en != fr
    facts = set(errors.VIOLATIONS[code])
    # Each language says every fact the check gives, and no other (a placeholder
    # the facts lack would fail to format).
    assert _fields(en) == facts and _fields(fr) == facts, (code, en, fr)


@pytest.mark.parametrize("finding", sorted(FINDINGS))
def test_every_finding_has_words_in_both_languages(finding):
    en, fr = MESSAGES["of_" + finding]
    assert en and fr and en != fr
    assert _fields(en) <= set(FINDINGS[finding]) and _fields(fr) <= set(FINDINGS[finding])


def test_every_code_a_check_raises_is_in_the_table():
    """The codes written at the raises (and the rules' names, and the deal's codes) are
    the table's: a code outside it would reach a person as nothing but English."""
    raised: set[str] = set()
    for path in _LIB.rglob("*.py"):
        raised |= set(re.findall(r'violation="([a-z0-9_]+)"', path.read_text("utf-8")))
        raised |= set(re.findall(r'violation, facts = "([a-z0-9_]+)"', path.read_text("utf-8")))
    assert len(raised) >= 60, sorted(raised)  # the scan found the raises
    assert raised <= set(errors.VIOLATIONS), sorted(raised - set(errors.VIOLATIONS))
    rules = {c.rule for c in vars(errors).values()
             if isinstance(c, type) and issubclass(c, errors.IllegalMove)}
    assert rules <= set(errors.VIOLATIONS), sorted(rules - set(errors.VIOLATIONS))
    deal_doc = (_LIB.parent / "docs" / "deal.md").read_text("utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)`", deal_doc, re.M)) | {
        c for line in deal_doc.splitlines() if "shuffle proof refused" in line
        for c in re.findall(r"`([a-z_]+)`", line)}
    deal = {c.removeprefix("deal_") for c in errors.VIOLATIONS if c.startswith("deal_")}
    assert deal <= documented, sorted(deal - documented)


def test_a_code_outside_the_table_is_refused_where_it_is_raised():
    with pytest.raises(AssertionError):
        errors.RemoteError("x", violation="no_such_code")
    with pytest.raises(AssertionError):
        errors.RemoteError("x", violation="not_a_card", facts={"card": 3})


def test_facts_are_worded_for_the_reader():
    """A seat by its player's name, a card in the reader's letters (R/D/V in French),
    the other side's text made safe."""
    t_fr = Translator("fr")
    said = violation_words("card_not_shown", (("seat", 1), ("card", 9), ("shown", 0)),
                           t_fr, ["amel", "bob"])
    card = Card(9).label()
    assert said is not None and said.startswith("bob a joué ")
    assert card not in said or card[0] not in "KQJ", said  # French letters for a figure
    assert violation_words("duplicate_key", (("field", "\x1b[2Jk"),), t_fr) is not None
    assert "\x1b" not in (violation_words("duplicate_key", (("field", "\x1b[2Jk"),), t_fr)
                          or "")
    # A code this client has no words for (a newer library's): no words, the caller
    # falls back to the verdict's own sentence.
    assert violation_words("from_the_future", (), t_fr) is None
    v = Verdict(INVALID, "illegal_move", "the English sentence", blamed=1, entry=9,
                violation="from_the_future")
    assert words(v, t_fr, names=["amel", "bob"]) == "the English sentence"


def _forge_take(s: Session) -> bool:
    """The cheat: a card that can capture laid down, or a capture of a card that does not
    sum (signed by the cheater's own key, as a dishonest peer would)."""
    a = s._decided
    if not isinstance(a, PlayAction):
        return False
    table = s.game.hand.table
    s._decided = dataclasses.replace(a, take=()) if a.take else \
        dataclasses.replace(a, take=(table[0],) if table else (Card(0),))
    return True


@pytest.fixture(scope="module")
def cheat_log(tmp_path_factory):
    played = play(2, cheater=1, hook=_forge_take, seed=9, key=b"forged")
    assert played.cheated_at is not None
    return played.write_log(tmp_path_factory.mktemp("cheat") / "cheat.chklog", seat=0)


def test_the_french_replay_of_a_cheat_says_the_violation_in_french(cheat_log, capsys):
    from chkobba_cli.main import main
    report = audit_log(cheat_log)
    v = report.outcome
    assert report.verdict == INVALID and v is not None and v.violation is not None
    assert v.violation in errors.VIOLATIONS and v.violation != "illegal_move"
    fr, en = MESSAGES["vi_" + v.violation][1], MESSAGES["vi_" + v.violation][0]
    main(["replay", str(cheat_log), "--jobs", "1", "--lang", "fr"])
    out = capsys.readouterr().out
    assert fr in out, out[-2000:]
    assert report.reason not in out and en not in out  # the check's English is gone
    main(["replay", str(cheat_log), "--jobs", "1", "--lang", "en"])
    assert en in capsys.readouterr().out
    page = render_html(report, lang="fr")
    assert html.escape(fr) in page and html.escape(report.reason) not in page


def test_a_host_s_garbled_greeting_is_said_in_the_reader_s_language():
    """A link check (here: a host's greeting without its versions) reaches a spectator's
    refusal as the check's code and facts, worded by the client; its English stays the
    ``detail`` for logs."""
    from chkobba_cli.words.event_words import error_sentence, stop_words
    from chkobba_p2p.link.spectator import SpectatorCore
    from chkobba_p2p.wire.codec import ProtocolError, get_field
    with pytest.raises(ProtocolError) as caught:
        get_field({"t": "host"}, "versions", "list")
    exc = caught.value
    assert (exc.violation, exc.facts) == ("field_missing", (("field", "versions"),))
    assert "missing 'versions'" in str(exc)  # the developer's English is kept
    no = SpectatorCore.handshake_failed(exc)
    assert no.reason == "handshake_failed" and no.data["violation"] == "field_missing"
    fr = error_sentence(no.reason, no.code, no.data, Translator("fr"))
    assert "le champ versions manque" in fr and "missing" not in fr, fr
    en = error_sentence(no.reason, no.code, no.data, Translator("en"))
    assert "the field versions is missing" in en, en
    # A watching stopped by a message its state refuses, in French.
    said = stop_words("out_of_state", {"code": "unknown_type", "detail": "'x' in WATCHING",
                                       "violation": "out_of_state",
                                       "facts": (("got", "'x'"), ("state", "WATCHING"))},
                      Translator("fr"))
    assert "que la connexion n'accepte pas dans l'état WATCHING" in said, said
    # Data of an older library (no code): its detail, made safe, as before.
    old = stop_words("out_of_state", {"code": "unknown_type", "detail": "'x' in WATCHING"},
                     Translator("fr"))
    assert "'x' in WATCHING" in old


@pytest.mark.parametrize("code", sorted(WARNINGS))
def test_every_auditor_warning_has_words_in_both_languages(code):
    en, fr = MESSAGES["wa_" + code]
    assert en and fr and en != fr
    assert _fields(en) == set(WARNINGS[code]) == _fields(fr)


def test_an_auditor_s_warning_is_said_in_the_reader_s_language(cheat_log, tmp_path, capsys):
    """A log whose (unsigned) header names another game: the warning in French in the
    replay text and the page; its English sentence stays the warning itself (JSON)."""
    from chkobba_cli.main import main
    from chkobba_p2p.wire import codec as wire
    from chkobba_p2p.wire.logfile import MAGIC, read_log
    path = tmp_path / "header.chklog"
    header = wire.encode({"t": "log", "v": 1, "game": bytes(16), "seat": 1, "key": bytes(32)})
    path.write_bytes(MAGIC + b"".join(wire.frame(b) for b in [header,
                                                                *read_log(cheat_log).bodies]))
    report = audit_log(path)
    assert "the log header names another game than the genesis (the header is not " \
        "signed)" in report.warnings  # a str, as before
    fr = MESSAGES["wa_header_other_game"][1]
    main(["replay", str(path), "--jobs", "1", "--lang", "fr"])
    out = capsys.readouterr().out
    assert fr in out and "the log header" not in out, out[-1500:]
    assert html.escape(fr) in render_html(report, lang="fr")


def test_a_deal_cheat_is_said_by_its_deal_code(tmp_path):
    """A card shown with a share that does not match the seat's key: the deal's code
    (``bad_share_proof``) is the violation, worded by the client in French."""
    from chkobba_p2p.deal import crypto as dc
    from chkobba_p2p.observe.audit import audit_bodies
    seen = [0]

    def hook(s: Session) -> bool:  # the first deal/play the cheater signs, altered
        for k, item in enumerate(s.game._out):
            if item.get("t") == "deal/play" and not seen[0]:
                seen[0] = 1
                s.game._out[k] = {**item, "d": dc.public_key(5)}
                return True
        return False
    played = play(2, cheater=0, hook=hook, seed=6, key=b"play-share")
    report = audit_bodies(played.sessions[1].bodies)
    v = report.outcome
    assert v is not None and (report.code, v.violation) == ("deal_failure",
                                                           "deal_bad_share_proof")
    fr = words(v, Translator("fr"), names=list(report.names))
    # The violation, then what it costs the seat it convicts (PROTOCOL.md 12.7).
    assert fr == MESSAGES["vi_deal_bad_share_proof"][1] + (
        " -- host est reconnu coupable d'avoir enfreint les règles par une entrée que host "
        "a signée : host perd la partie ; peer1 gagne"), fr


def test_a_finding_s_detail_is_the_check_s_code_in_the_reader_s_words():
    """Bytes that are not a signed entry: the observer's finding (``not_an_entry``) with
    the check's violation (a map without a string ``t``) in French, not its English."""
    from chkobba_p2p.observe.observer import Observer
    from chkobba_p2p.wire import codec as wire
    obs = Observer()
    [v] = obs.feed(wire.encode({"x": 1}))
    assert isinstance(v, Verdict) and v.finding == "not_an_entry"
    assert v.violation == "not_a_message"
    fr = words(v, Translator("fr"))
    assert fr == MESSAGES["of_not_an_entry"][1].format(
        detail=MESSAGES["vi_not_a_message"][1]), fr


def test_a_retried_handshake_says_the_failed_check_in_the_reader_s_language():
    """A joiner in a game whose handshake with the host fails a check: the notice says the
    check by its code, in French, not its English."""
    from chkobba_cli.words.i18n import notice_text
    from chkobba_p2p.link.events import Notice, NoticeKind
    notice = Notice(NoticeKind.HANDSHAKE_RETRY, "'key' must be 32 bytes", code="bad_field",
                    violation="field_size", facts=(("field", "key"), ("size", 32)))
    fr = notice_text(Translator("fr"), notice)
    assert "le champ key n'a pas la longueur 32" in fr and "must be" not in fr, fr
    # A notice of before (no code): the check's English, quoted, as before.
    old = notice_text(Translator("fr"), Notice(NoticeKind.HANDSHAKE_RETRY,
                                               "'key' must be 32 bytes", code="bad_field"))
    assert "'key' must be 32 bytes" in old


def test_a_host_s_unusable_lobby_is_said_by_its_check_in_the_reader_s_language():
    """A joiner welcomed but sent only a lobby that does not check out (here seat 0 is not
    the host's key): the outcome carries the lobby check's code, and the reason is said in
    French, not in the check's English (which stays the detail, for logs)."""
    from chkobba_cli.words.event_words import error_sentence
    from chkobba_p2p.link import messages as lm
    from chkobba_p2p.link.joiner import SeatLink
    from chkobba_p2p.transcript.clocks import Limits
    from chkobba_p2p.wire import codec as wire

    core = SeatLink(wire.Identity.generate(), "host:7777", None, Limits(move=30, allowance=10))
    core.state = "LOBBY"  # welcomed: the lobby is what the host sends now
    core.host_key, core.host_name = bytes(32), "hedi"
    someone = {"seat": 0, "key": bytes(range(32)), "name": "hedi"}
    core.message("host", lm.read_frame(wire.encode(
        lobby := {"t": "lobby", "seats": [someone, None]}), lobby), 0.0)
    assert not core.table_seen and core.no_table()
    out = core.outcome(Path("x.log"), 0, 0)
    assert out.error_reason == "no_table"
    assert (out.error_data["violation"], out.error_data["facts"]) == ("host_not_seat_0", ())
    assert out.error_data["detail"] == "seat 0 is not the host"  # the English, for logs
    fr = error_sentence(out.error_reason, out.error_code, out.error_data, Translator("fr"))
    assert MESSAGES["vi_host_not_seat_0"][1] in fr and "is not the host" not in fr, fr
    en = error_sentence(out.error_reason, out.error_code, out.error_data, Translator("en"))
    assert "seat 0 is not the host" in en, en
