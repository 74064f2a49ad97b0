"""The operating system's failures to connect reach a person as one sentence in their
language ("no computer by that name was found"), never as "[Errno -2] Name or service
not known": in the terminal client's join error, the spectator's refusal and a headless
peer's result line."""

from __future__ import annotations

import errno
import os
import socket

import pytest

from chkobba_cli.commands.watch import _refusal
from chkobba_cli.words.event_words import explain_error, headless_error
from chkobba_cli.words.event_words import words as outcome_words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import Outcome, WatchOutcome


def _os(code: int) -> str:
    """The library's error for a failure with ``code``, with the OS's own words."""
    if code < 0:
        exc: OSError = socket.gaierror(code, "Name or service not known")
    else:
        exc = OSError(code, os.strerror(code))
    return f"cannot connect to table.example:7777: {exc}"


def _failed(code: int) -> Outcome:
    """A fresh join that could not connect, as the library gives it (its case and data)."""
    why = _os(code).removeprefix("cannot connect to table.example:7777: ")
    reason = "connect_refused" if code == errno.ECONNREFUSED else "connect_failed"
    return Outcome(None, None, None, error_code="connect_failed", error_reason=reason,
                   error_data={"where": "table.example:7777", "why": why})


CASES = [
    (socket.EAI_NONAME, "no computer by that name", "aucun ordinateur de ce nom"),
    (errno.ECONNREFUSED, "nobody is listening there", "personne n'écoute"),
    (errno.ENETUNREACH, "cannot be reached from this network", "injoignable"),
    (errno.EHOSTUNREACH, "cannot be reached from this network", "injoignable"),
    (errno.ETIMEDOUT, "no answer from that address in time", "pas de réponse"),
]


@pytest.mark.parametrize(("code", "en", "fr"), CASES)
def test_each_usual_failure_is_one_sentence(code, en, fr):
    error = _os(code)
    assert "Errno" in error  # what reached the person before
    for lang, words in (("en", en), ("fr", fr)):
        t = Translator(lang)
        o = _failed(code)
        joined = explain_error(o.error_reason, o.error_code, o.error_data, t)
        # after "Could not join ADDR:" (the address once)
        assert words in joined and "Errno" not in joined and "table.example" not in joined
        watched = _refusal(WatchOutcome(None, None, error_code="connect_failed",
                                        error_reason=o.error_reason,
                                        error_data=o.error_data), lang)
        assert words in watched and "table.example:7777" in watched
        assert "Errno" not in watched and os.strerror(errno.ENOENT) not in watched
        result = outcome_words(o, t)  # a headless peer's result line
        assert result.startswith(t("oc_no_game", error="")) and words in result
        assert "Errno" not in result
        headless = headless_error(o, t)  # a headless join's error line
        assert words in headless and "table.example:7777" in headless
        assert "Errno" not in headless


def test_other_errors_keep_their_words():
    t = Translator("en")
    why = "[Errno 13] Permission denied"
    o = Outcome(None, None, None, error_code="connect_failed", error_reason="connect_failed",
                error_data={"where": "x:1", "why": why})
    assert headless_error(o, t) == f"cannot connect to x:1: {why}"
