"""Every word a person reads is in one catalog (``cli/words/i18n.py``'s ``MESSAGES``), in
English and French: the HTML replay and the spectator's commentary keep no table of their
own, and a key they use that the catalog lacks fails here (the Translator would show the
key itself)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from support.audit import a_match

import chkobba_cli.commands.watch as watch
import chkobba_cli.outputs.replay_html as replay_html
from chkobba_cli.commands.watch import _refusal
from chkobba_cli.outputs.commentary import Commentary
from chkobba_cli.outputs.replay_html import render_html
from chkobba_cli.tui.parts import stopped
from chkobba_cli.words.event_words import error_sentence
from chkobba_cli.words.i18n import MESSAGES, Translator, abort_reason
from chkobba_p2p import WatchOutcome
from chkobba_p2p.link import messages as m
from chkobba_p2p.link.spectator import SpectatorCore
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.wire.codec import ErrorCode

_CLI = Path(replay_html.__file__).parent.parent
#: A catalog key as the client writes one: a prefix of the catalog's families.
_KEY = re.compile(r"\b(?:rh|wn|au|cg|rp|ev|oe|watch)_\w+")


def _keys_in(source: str, call: str) -> set[str]:
    """The literal keys handed to ``call`` (``self.t(``, ``vp.t(``...) in ``source``,
    both branches of a conditional included."""
    found: set[str] = set()
    for m_ in re.finditer(re.escape(call) + r"([^,)]*)", source):
        found |= set(re.findall(r"[\"']([a-z_]+)[\"']", m_.group(1)))
    return {k for k in found if not k.endswith("_")}  # "cg_" + a grade: added below


def test_no_second_word_table_is_left_in_the_page_or_the_commentary():
    assert not hasattr(replay_html, "_WORDS") and not hasattr(watch, "_WORDS")
    assert not hasattr(stopped, "_WORDS") and not hasattr(stopped, "_REASONS")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_abort_code_means_something_in_the_readers_language(lang):
    """Why a game stopped, for every wire code (the screen's and the replay's words): from
    the catalog, in French too (a code the stop words left out, a freed seat or a
    disputed flag, was said in the library's English)."""
    t = Translator(lang)
    for code in ErrorCode:
        said = abort_reason(t, code)
        assert said and "{" not in said and "_" not in said, (code, said)
        if lang == "fr":
            assert said != abort_reason(Translator("en"), code), (code, said)
    assert abort_reason(t, ErrorCode.SEAT_REFUSED) == t("wire_seat_refused")
    assert abort_reason(t, ErrorCode.CLOCK_DISPUTE) == t("wire_clock_dispute")
    assert abort_reason(t, ErrorCode.TIMEOUT) == t("sr_timeout")
    odd = abort_reason(t, ErrorCode.PROTOCOL_VIOLATION, unknown="x\x1b[2J")
    assert "\x1b" not in odd and ("connaît pas" if lang == "fr" else "does not know") in odd


@pytest.mark.parametrize("module, calls, least", [
    ("outputs/replay_html.py", ("self.t(", "self.tx("), 60),
    ("commands/watch.py", ("narrator.t(", " t(", "{t("), 6),
    ("outputs/commentary.py", ("self.t(",), 2),
    ("words/event_words.py", ("vp.t(",), 25),
])
def test_every_key_the_page_and_the_commentary_use_has_both_languages(module, calls, least):
    source = (_CLI / module).read_text(encoding="utf-8")
    keys = set().union(*(_keys_in(source, c) for c in calls))
    if module == "outputs/replay_html.py":  # the keys it builds: the verdict's, each grade's
        keys |= set(replay_html._VERDICT_KEYS.values())
        keys |= {f"cg_{g}" for g in ("forced", "best", "good", "inaccuracy", "mistake",
                                      "blunder")}
    assert len(keys) >= least, sorted(keys)  # the scan found the calls
    missing = sorted(k for k in keys if k not in MESSAGES)
    assert not missing, missing
    empty = sorted(k for k in keys if not all(MESSAGES[k]))
    assert not empty, empty


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    played = a_match(3)
    return played, played.write_log(tmp_path_factory.mktemp("cat") / "three.chklog")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_and_the_commentary_show_words_never_keys(three, lang):
    played, log = three
    page = render_html(audit_log(log), lang=lang)
    assert not _KEY.findall(page), _KEY.findall(page)[:5]
    assert ("Feuille de marque" in page) == (lang == "fr"), lang
    out = io.StringIO()
    narrator = Commentary(out, lang=lang)
    obs = Observer()
    for body in played.sessions[0].bodies:
        for ev in obs.feed(body):
            narrator(ev)
    narrator(obs.end())  # the verdict, worded as every event is
    text = out.getvalue()
    assert not _KEY.findall(text), _KEY.findall(text)[:5]
    # Lines in the reader's language: the hand's header and the verdict.
    head = {"en": ("-- hand 1:", "\nVALID: "), "fr": ("-- manche 1 :", "\nVALIDE : ")}[lang]
    assert all(w in text for w in head), text[-400:]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_refused_spectator_reads_a_join_refusals_shape(lang):
    # The spectator's refusal and a seat's are one sentence shape: "refused: {what}".
    t = Translator(lang)
    head = t("oe_refused", what="")
    for detail in ("this table admits no spectators", "2 spectators already watching"):
        no = SpectatorCore.refused(m.ErrorMsg(ErrorCode.SPECTATORS_CLOSED, detail,
                                              number=int(ErrorCode.SPECTATORS_CLOSED)))
        said = _refusal(WatchOutcome(None, None, error_code=no.code, error_reason=no.reason,
                                     error_data=no.data), lang)
        assert said.startswith(head) and said.endswith("."), said
    # A seat refused by a host begins the same way.
    seat = error_sentence("refused", "table_full", {"code": "table_full", "number": 5}, t)
    assert seat.startswith(head), seat
