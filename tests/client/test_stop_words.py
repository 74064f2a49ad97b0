"""Why a watching stopped is a reason code and its data in the library
(``WatchOutcome.stop_reason``, ``STOP_REASONS``); the client words every code, in English
and French, and a code added without words fails here."""

from __future__ import annotations

import pytest

from chkobba_cli.event_words import stop_words
from chkobba_cli.i18n import Translator
from chkobba_p2p.link.events import STOP_REASONS

_DATA = {"code": "frame_too_large", "detail": "9 MB", "host_text": "bye\x1b"}


@pytest.mark.parametrize("reason", sorted(STOP_REASONS))
def test_every_stop_reason_has_its_own_words_in_both_languages(reason):
    # (A check's ``violation`` and ``facts`` word its ``detail``: test_violation_words.)
    keys = [k for k in STOP_REASONS[reason] if k not in ("violation", "facts")]
    data = {k: _DATA[k] for k in keys}
    en, fr = (stop_words(reason, data, Translator(lang)) for lang in ("en", "fr"))
    assert en and fr and en != fr, (en, fr)
    for text in (en, fr):
        assert "ws_" not in text and "{" not in text, text
        # Its data said, made safe (a host's escape byte is shown, never sent to a terminal).
        # (A closing host's code is for programs: its own words are what a person reads.)
        for key in (k for k in keys if (reason, k) != ("host_closed", "code")):
            shown = _DATA[key].replace("\x1b", "␛")
            assert shown in text, (key, text)
        assert "\x1b" not in text
    if reason != "host_closed":  # a code with no words would read as the closed host's
        closed = stop_words("host_closed", {}, Translator("en"))
        assert not en.startswith(closed), en


@pytest.mark.parametrize("lang, words", [
    ("en", "the host sent more than a game holds (transcript_too_long: over); the "
           "connection was closed"),
    ("fr", "l'hôte a envoyé plus qu'une partie n'en contient (transcript_too_long : over) ; "
           "la connexion a été fermée"),
])
def test_a_stop_the_spectator_decided_names_the_code_and_its_detail(lang, words):
    data = {"code": "transcript_too_long", "detail": "over"}
    assert stop_words("too_long", data, Translator(lang)) == words


def test_a_host_that_closed_without_a_word_is_said_plainly():
    assert stop_words("host_closed", {}, Translator("en")) == "the host closed the connection"
    assert stop_words("host_closed", {}, Translator("fr")) == "l'hôte a fermé la connexion"
