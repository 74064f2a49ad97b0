"""Why a watching stopped is a reason code and its data in the library
(``WatchOutcome.stop_reason``, ``STOP_REASONS``); the client words every code, in English
and French, and a code added without words fails here."""

from __future__ import annotations

import pytest

from chkobba_cli.words.event_words import stop_words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.link.events import STOP_REASONS

_DATA = {"code": "frame_too_large", "detail": "9 MB", "host_text": "bye\x1b"}
#: Data that the library gives apart from the rest (host_closed's: never with the host's
#: words), tested on its own below.
_APART = {"host_allowance"}


@pytest.mark.parametrize("reason", sorted(STOP_REASONS))
def test_every_stop_reason_has_its_own_words_in_both_languages(reason):
    # (A check's ``violation`` and ``facts`` word its ``detail``: test_violation_words.)
    data = {k: _DATA[k] for k in STOP_REASONS[reason]
            if k not in _APART and k not in ("violation", "facts")}
    en, fr = (stop_words(reason, data, Translator(lang)) for lang in ("en", "fr"))
    assert en and fr and en != fr, (en, fr)
    for text in (en, fr):
        assert "ws_" not in text and "{" not in text, text
        # Its data said, made safe (a host's escape byte is shown, never sent to a terminal).
        # (A closing host's code is for programs: its own words are what a person reads.)
        for key in (k for k in data if (reason, k) != ("host_closed", "code")):
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


def test_a_connection_that_ended_without_a_word_is_not_said_to_be_the_hosts_act():
    """The stream's end says nothing of who closed it (a host that stepped away, a
    network that dropped): said of the connection, not "the host closed"."""
    assert stop_words("host_closed", {}, Translator("en")) == \
        "the connection to the host closed"
    assert stop_words("host_closed", {}, Translator("fr")) == \
        "la connexion avec l'hôte s'est fermée"


@pytest.mark.parametrize("lang, words", [
    ("en", "the connection to the host closed during the match; the players wait up to "
           "5:00 for the host to come back"),
    ("fr", "la connexion avec l'hôte s'est fermée pendant la partie ; les joueurs "
           "attendent le retour de l'hôte jusqu'à 5:00")])
def test_mid_match_the_spectator_is_told_how_long_the_players_wait_for_the_host(lang, words):
    assert stop_words("host_closed", {"host_allowance": "300"}, Translator(lang)) == words
    said = stop_words("host_closed", {"host_allowance": "95"}, Translator(lang))
    assert "1:35" in said and "host closed the" not in said and "a fermé" not in said
