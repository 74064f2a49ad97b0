"""Why a join got no game, in the reader's words (issue 41): the client words every case
the library names (``Outcome.error_reason``, its ``error_data``) and every wire code a host
can refuse with, in English and French; the library has no sentence of its own."""

from __future__ import annotations

from dataclasses import fields

import pytest

from chkobba_cli.words.event_words import (
    error_sentence,
    explain_error,
    headless_error,
    outcome_error,
)
from chkobba_cli.words.i18n import MESSAGES, Translator
from chkobba_p2p import ErrorCode, Outcome
from chkobba_p2p.link.events import ERROR_REASONS

#: Keys whose case has words of its own beyond ``oe_<reason>`` (said by :func:`error_sentence`).
_OWN = {"refused": ("oe_refused", "oe_host_adds", "oe_unknown_code"),
        "game_unknown": ("oe_game_unknown", "oe_filed"),
        "no_table": ("oe_no_table", "oe_no_table_why")}

DATA = {"where": "table.example:7777", "why": "timed out", "actual": "aaaa", "pinned": "bbbb",
        "code": "table_full", "number": 202, "host_text": "4 of 4", "seconds": 10.0,
        "detail": "seat 0 is not the host", "filed": "/saved/x.aside"}


def _outcome(reason: str, code: str | None = None, /, **data: object) -> Outcome:
    return Outcome(None, None, None, error_code=code, error_reason=reason,
                   error_data=dict(data))  # type: ignore[arg-type]


@pytest.mark.parametrize("reason", sorted(ERROR_REASONS))
def test_every_case_has_words_in_both_languages(reason):
    """A case the library adds without words here fails (a missing key)."""
    for key in _OWN.get(reason, ("oe_" + reason,)):
        en, fr = MESSAGES[key]
        assert en and fr and en != fr, key
    # (A check's ``violation`` and ``facts`` word its ``detail``: test_violation_words.)
    keys = [k for k in ERROR_REASONS[reason] if k not in ("violation", "facts")]
    data = {k: DATA[k] for k in keys}
    en = error_sentence(reason, None, data, Translator("en"))
    fr = error_sentence(reason, None, data, Translator("fr"))
    assert en != fr and "{" not in en + fr
    for key in keys:  # the data reaches the words, in both languages
        if key not in ("number", "code", "why") and reason != "no_table":
            value = f"{DATA[key]:g}" if isinstance(DATA[key], float) else str(DATA[key])
            assert value in en and value in fr, (key, en, fr)


@pytest.mark.parametrize("code", list(ErrorCode), ids=lambda c: c.name.lower())
def test_every_wire_code_has_words_in_both_languages(code):
    en, fr = MESSAGES["wire_" + code.name.lower()]
    assert en == code.sentence, "the English is the protocol's sentence, unchanged"
    assert fr and fr != en


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_refusal_says_the_code_then_the_host_s_own_words_quoted(lang):
    t = Translator(lang)
    o = _outcome("refused", "table_full", code="table_full", number=202, host_text="4 of 4")
    said = outcome_error(o, t, plain=False)
    assert said == t("oe_refused", what=t("oe_host_adds", what=t("wire_table_full"),
                                                            text="4 of 4"))
    assert ("the host adds" in said) if lang == "en" else ("l'hôte ajoute" in said)
    assert outcome_error(o, t) == f"{t('err_full')} ({said})"
    unknown = _outcome("refused", "connection_closed", code="connection_closed",
                       number=777, host_text="")
    assert "777" in outcome_error(unknown, t, plain=False)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_usual_cases_are_said_plainly(lang):
    t = Translator(lang)
    for code, key in (("seat_refused", "err_seat_refused"), ("ready_timeout", "err_ready_timeout"),
                      ("secret_required", "err_secret_required"),
                      ("secret_wrong", "err_secret_wrong")):
        for reason in ("refused", "lobby_ended"):
            o = _outcome(reason, code, code=code, host_text="x")
            assert outcome_error(o, t) == t(key), (reason, code)
    assert outcome_error(_outcome("lobby_shutdown", "host_closed"), t) == t("err_host_closed")
    for reason in ("closed_in_handshake", "lobby_closed"):
        assert outcome_error(_outcome(reason, "connection_closed"), t) == t("err_closed")
    refused = _outcome("connect_refused", "connect_failed", where="h:1", why="x")
    assert outcome_error(refused, t) == t("err_refused_conn")
    assert headless_error(refused, t) == t("connect_error", addr="h:1",
                                           why=t("err_refused_conn"))
    # A saved game's host out of reach keeps its "try again later".
    away = _outcome("unreachable", "connect_failed", where="h:1",
                    why="[Errno 113] No route to host")
    assert outcome_error(away, t) == error_sentence("unreachable", None, away.error_data, t)
    filed = _outcome("game_unknown", "game_unknown", where="h:1", filed="/saved/x")
    assert outcome_error(filed, t) == t("err_game_unknown") + " (/saved/x)"


def test_the_library_has_no_sentence_of_its_own():
    """The outcome carries codes and data only: every word about it is the client's."""
    assert {f.name for f in fields(Outcome)}.isdisjoint({"error", "message", "text"})
    o = _outcome("lobby_closed", "connection_closed")
    for lang in ("en", "fr"):
        t = Translator(lang)
        assert outcome_error(o, t) and outcome_error(o, t, plain=False) and headless_error(o, t)
    assert outcome_error(o, Translator("fr")) != outcome_error(o, Translator("en"))
    assert explain_error(None, None, {}, Translator("en")) == Translator("en")("err_closed")
