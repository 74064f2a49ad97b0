"""An audit's result in words (issue 41, "words in one place"; issue 43's walk, findings 1
and 2): the library gives the result as data (:class:`AuditResult`), the client words it
(``words``), in the players' names (never "seat 0"), teams as "alice & carol", in English
and French, at 2, 3 and 4 players: ``chkobba replay``'s last line, the ``--view`` banner,
``history``'s reason."""

from __future__ import annotations

import json
import re

import pytest
from support.audit import play, played_once, said

from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import ErrorCode
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import (
    INCOMPLETE,
    INVALID,
    VALID,
    AbortClaim,
    AuditReport,
    AuditResult,
    audit_bodies,
)
from chkobba_p2p.observe.verdict import Verdict
from chkobba_p2p.timeline import build_timeline
from chkobba_p2p.transcript.events import Standing
from chkobba_p2p.transcript.table import SeatInfo, TableInfo

NAMES = ("alice", "bob", "carol", "dave")


def _table(n: int) -> TableInfo:
    return TableInfo(bytes(16), 1, n, Ruleset(),
                     tuple(SeatInfo(i, bytes([i + 1]) * 32, NAMES[i]) for i in range(n)))


def _report(n: int, verdict: str, code: str | None, outcome: Verdict,
            aborts: tuple[AbortClaim, ...] = (), reason: str = "") -> AuditReport:
    return AuditReport("x.chklog", verdict, code, outcome.blamed, reason or outcome.reason,
                       outcome.entry, 80, table=_table(n), aborts=list(aborts),
                       outcome=outcome, standing=outcome.standing)


@pytest.fixture(scope="module", params=[2, 3, 4])
def left(request):
    """A real match that seat 1 left after 60 entries (a signed leave against itself)."""
    n = request.param
    played = played_once(n, seed=3, key=b"left-words", stop_after=60, abort_by=1,
                         abort_code=ErrorCode.PEER_LEFT)
    return n, played.sessions[0].bodies


WON = {  # who wins when peer1 leaves: its side loses
    2: ("host wins the match", "host gagne la partie"),
    3: ("the two others are level, nobody wins",
        "les deux autres sont à égalité, personne ne gagne"),
    4: ("host & peer2 win the match", "host & peer2 gagnent la partie"),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_view_banner_names_who_left_in_the_screen_s_language(left, lang):
    """Was "VALID: seat 0 left the match (entry #75): seat 1 wins", English in French."""
    n, bodies = left
    viewer = ReplayViewer(build_timeline(bodies), lang=lang)
    banner = " ".join(line_text(x).strip() for x in viewer.banner(200))
    won = WON[n][lang == "fr"]
    want = (f"VALID: peer1 left the match (entry #61): {won}" if lang == "en" else
            f"VALIDE : peer1 a quitté la partie (entrée n° 61) : {won}")
    assert banner == want, banner
    assert "seat" not in banner and "siège" not in banner


def test_the_audit_line_names_who_left_in_both_languages(left):
    n, bodies = left
    r = audit_bodies(bodies, workers=0)
    assert (r.verdict, r.code) == (VALID, "left")
    en, fr = WON[n]
    assert said(r) == ("VALID: 62 entries; every check passes; the match ended when a "
                       f"player left: peer1 left the match (entry #61): {en}")
    assert said(r, "fr") == ("VALIDE : 62 entrées ; toutes les vérifications passent ; la "
                             "partie s'est terminée quand un joueur est parti : peer1 a "
                             f"quitté la partie (entrée n° 61) : {fr}")


@pytest.mark.parametrize("n, won_en, won_fr", [
    (2, "alice wins the match on time", "alice gagne la partie au temps"),
    (3, "the two others are level, nobody wins",
     "les deux autres sont à égalité, personne ne gagne"),
    (4, "alice & carol win the match on time", "alice & carol gagnent la partie au temps")])
def test_a_flagged_match_names_the_late_player_and_the_winners(n, won_en, won_fr):
    winner = None if n == 3 else 0
    v = Verdict(VALID, "on_time", "seat 1 lost on time", blamed=1, entry=70, by_seat=0,
                winner=winner, loser=1)
    r = _report(n, VALID, "on_time", v)
    assert said(r) == (
        "VALID: 80 entries; every check passes; the match ended on time: bob lost on time "
        f"(entry #70), as alice (the host) says: {won_en}; the log shows bob was to play, "
        "the time is the host's word (its signed clock reading, in the log, is its own)")
    fr = said(r, "fr")
    assert fr.startswith("VALIDE : 80 entrées ; toutes les vérifications passent ; la "
                         "partie s'est terminée au temps : bob a perdu au temps (entrée "
                         "n° 70), comme le dit alice (l'hôte)"), fr
    assert won_fr in fr and "seat" not in fr and "siège" not in fr


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_disputed_flag_names_both_players(n):
    v = Verdict(INCOMPLETE, "disputed", "seat 0 flagged seat 1", blamed=1, entry=70,
                by_seat=0, standing=Standing.DISPUTED)
    r = _report(n, INCOMPLETE, "disputed", v)
    assert said(r).startswith("INCOMPLETE (disputed): alice flagged bob (entry #70) and bob "
                              "disputes it with its own clock")
    assert said(r, "fr").startswith("INCOMPLÈTE (contestée) : alice a signalé")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_an_invalid_log_names_the_cheater_with_its_key(n):
    cheater = n - 1
    v = Verdict(INVALID, "illegal_move", f"seat {cheater} played a card it does not hold",
                blamed=cheater, entry=40)
    r = _report(n, INVALID, "illegal_move", v)
    fp = r.table.seats[cheater].fingerprint
    name = NAMES[cheater]
    # The check it fails is the auditor's own sentence (it names the entry's contents);
    # the player it blames is named by the client, by name and key.
    assert said(r) == (f"INVALID (illegal_move): entry #40: seat {cheater} played a card it "
                       f"does not hold -- blamed: {name} (key {fp})")
    assert said(r, "fr").startswith("INVALIDE (illegal_move) : entrée n° 40 : ")
    assert said(r, "fr").endswith(f" -- en faute : {name} (clé {fp})")
    nobody = _report(n, INVALID, "bad_chain",
                     Verdict(INVALID, "bad_chain", "the chain breaks", entry=20))
    assert said(nobody).endswith(" -- blamed: nobody (the file was altered; no signature "
                                 "pins it on a player)")
    assert said(nobody, "fr").endswith(" -- en faute : personne (le fichier a été modifié ; "
                                       "aucune signature ne l'attribue à un joueur)")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_an_unproven_abort_is_worded_as_its_signer_s_claim(n):
    claim = AbortClaim(50, 1, "timeout", 0, "too slow", Standing.CLAIMED)
    v = Verdict(INCOMPLETE, "aborted", "seat 1 ended the game", entry=50, by_seat=1,
                standing=Standing.CLAIMED)
    r = _report(n, INCOMPLETE, "aborted", v, (claim,))
    assert said(r) == ("INCOMPLETE (aborted): entry #50: bob ended the game; no violation "
                       "in the entries before it -- bob says alice is at fault (timeout: "
                       "too slow); nothing in the log shows it")
    assert said(r, "fr") == ("INCOMPLÈTE (aborted) : entrée n° 50 : bob a arrêté la partie ; "
                             "aucune violation dans les entrées qui précèdent -- bob dit "
                             "qu'alice est en faute (timeout : too slow) ; rien dans le "
                             "journal ne le montre")


def test_the_result_is_plain_json_and_reads_back():
    claim = AbortClaim(50, 1, "timeout", 0, "too slow", Standing.OWED, on_time=True)
    v = Verdict(VALID, "on_time", "r", blamed=1, entry=70, by_seat=0, winner=0,
                totals=(9, 4), loser=1)
    r = _report(4, VALID, "on_time", v, (claim,)).result()
    assert r.names == NAMES and r.abort == claim and r.outcome == v
    back = AuditResult.from_json(json.loads(json.dumps(r.to_json())))
    assert back == r
    assert words(back, Translator("fr")) == words(r, Translator("fr"))
    for bad in ({}, {**r.to_json(), "entries": "80"}, {**r.to_json(), "names": [1]}):
        with pytest.raises((KeyError, TypeError, ValueError)):
            AuditResult.from_json(bad)


def _replay(capsys, path, *argv):
    from chkobba_cli.main import main
    code = main(["replay", str(path), "--jobs", "1", *argv])
    out, err = capsys.readouterr()
    return code, out


def test_replay_s_text_follows_lang(left, tmp_path, capsys):
    """Issue 43's walk, finding 2: ``replay LOG --lang fr`` printed English."""
    n, _ = left
    path = tmp_path / "left.chklog"
    played = played_once(n, seed=3, key=b"left-words", stop_after=60, abort_by=1,
                         abort_code=ErrorCode.PEER_LEFT)  # the fixture's match
    played.write_log(path)
    code, fr = _replay(capsys, path, "--lang", "fr")
    assert code == 0
    lines = fr.splitlines()
    assert lines[0] == f"journal : {path}"
    assert lines[1].startswith("écrit par le pair de host (")
    assert lines[2].startswith(f"partie {played.sessions[0].table.game.hex()} : {n} joueurs, "
                               "tunisienne : objectif 11")
    assert "premier donneur : " in fr
    assert re.search(r"\npeer1 a quitté la partie pendant la manche \d+ \(entrée 61 du "
                     r"journal\)\.\n", fr), fr
    assert lines[-1].startswith("VALIDE : 62 entrées ;")
    for english in ("first dealer", "written by", "entries", "left the", "winner:", "seat"):
        assert english not in fr, english
    if n == 4:
        assert "  peer1 (clé " in fr and ", joue avec peer3)" in fr
        assert "gagnant : host & peer2" in fr
    code, en = _replay(capsys, path, "--lang", "en")
    assert "first dealer: " in en
    assert re.search(r"\npeer1 left the game during hand \d+ \(the log's entry 61\)\.\n", en)
    assert en.splitlines()[-1].startswith("VALID: 62 entries;")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_one_hand_play_by_play_in_french(n, tmp_path, capsys):
    # A match to 3 points (a hand or two): the replay audits every hand to show one.
    path = play(n, seed=3, key=b"hand-words", rules=Ruleset(target=3)).write_log(
        tmp_path / "full.chklog")
    code, fr = _replay(capsys, path, "--lang", "fr", "--hand", "1", "--ascii")
    assert code == 0
    lines = fr.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("manche 1 : "))
    assert re.fullmatch(r"manche 1 : \S+ donne, \S+ coupe", lines[head])
    body = lines[head + 1:]
    assert any(re.match(r"  (tirage|donne)  {2}", x) for x in body), body
    assert any(re.match(r"  jeu {5}\S+ : \S+ (prend \S+|\(reste sur la table\))", x)
               for x in body), body
    assert any(x.startswith("  points : ") and "(totaux : " in x for x in body), body
    assert not any(w in fr for w in (" deals", " takes ", "stays on the table", "totals"))
    # French figure letters, as the table shows them (R/D/V, never K/Q/J).
    assert not re.search(r"\b[KQJ][SHDC]\b", fr), fr
    code, en = _replay(capsys, path, "--lang", "en", "--hand", "1", "--ascii")
    assert not re.search(r"\b[RV][SHDC]\b", en), en


def test_replay_help_says_lang_is_for_the_text_too(capsys):
    from chkobba_cli.main import main
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "language of the text, the verdict line, --html and --view" in out


@pytest.mark.parametrize("code, key", [("truncated", "verdict_truncated"),
                                       ("unfinished", "verdict_unfinished")])
def test_a_torn_or_unfinished_log_in_french_is_worded_by_the_client(code, key):
    """The observer's own sentence (English, seat numbers) stays in English; French says
    the client's words (the page and the spectator's line used to show the English)."""
    fr = Translator("fr")
    v = Verdict(INCOMPLETE, code, "the file ends in the middle of a frame after entry #9")
    assert words(v, Translator("en"), names=NAMES[:2]) == v.reason
    assert words(v, fr, names=NAMES[:2]) == fr(key)
    r = _report(2, INCOMPLETE, code, v)
    assert said(r, "fr") == f"INCOMPLÈTE ({code}) : {fr(key)}"
    assert said(r) == f"INCOMPLETE ({code}): {v.reason}"


def test_the_review_s_text_follows_lang(tmp_path, capsys):
    """``replay --review --lang fr``: the coach's lines in French too (decimals with a
    comma), the English as before."""
    path = play(2, seed=3, key=b"review-words", levels=("random", "greedy")).write_log(
        tmp_path / "review.chklog")
    argv = ("--review", "--review-limit", "40", "--samples", "1", "--seed", "1", "--ascii")
    code, fr = _replay(capsys, path, "--lang", "fr", *argv)
    assert code == 0
    assert "\nrevue : chaque décision notée par la recherche de l'expert" in fr
    assert "erreur >= 0,5, gaffe >= 1,0 ; 1 mondes tirés par décision, graine 1" in fr
    assert "  la revue s'est arrêtée à sa limite : les 40 premières des " in fr
    assert re.search(r"\n  manche 1, coup \d+ : \S+ a (pris|posé) .* valait \d+,\d\d points "
                     r"de plus \((erreur|gaffe)\)\n", fr), fr
    assert re.search(r"\n  \S+ : \d+ décisions, perte moyenne de \d+,\d{3} point par "
                     r"décision, \d+ erreurs?, \d+ gaffes?, précision \d+,\d %\n", fr), fr
    assert "decision" not in fr and "mistake" not in fr
    code, en = _replay(capsys, path, "--lang", "en", *argv)
    assert "\nreview: every decision graded by the expert's search" in en
    assert re.search(r"\n  hand 1, play \d+: \S+ (took|put) .* was worth \d+\.\d\d points "
                     r"more \((mistake|blunder)\)\n", en), en


@pytest.mark.parametrize("lang, words", [("en", "left the match at entry"),
                                         ("fr", "a quitté la partie à l'entrée")])
def test_the_html_page_of_a_match_won_by_a_leave_says_who_left(left, lang, words):
    # It raised an IndexError (no totals after a leave) where a player had left.
    import html

    from chkobba_cli.outputs.replay_html import render_html

    n, bodies = left
    report = audit_bodies(bodies)
    page = render_html(report, lang=lang)
    verdict = html.unescape(page.split('<section id="verdict"')[1].split("</section>")[0])
    if report.winner is not None:
        assert words in verdict and "peer1" in verdict, verdict
    assert "rh_" not in page
