"""The help box (issue 43, polish), read off the whole screen (:mod:`screenshot`) with keys
fed to the application's own key processor: it closes on Enter, ↑ and ↓ as README says
("any key"), not only on letters; and ``?`` in the lobby shows the lobby's keys (ready,
free a seat), not the table's -- at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from screenshot import screen_text

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.transcript import events as S

WORDS = {
    "en": {"lobby": "Keys in the lobby", "ready": "Enter: you are ready",
           "free": "f, then a seat's number", "play": "1-9 or ←→ Enter: play a card"},
    "fr": {"lobby": "Touches du salon", "ready": "Entrée : confirmer",
           "free": "f, puis le numéro d'une place", "play": "1-9 ou ←→ Entrée : jouer"},
}



def _ui(kind: str, lang: str, started: bool, size: tuple[int, int]) -> TuiApp:
    ui = TuiApp(kind=kind, lang=lang, seat=0 if kind != "join" else 1, rules=R.Ruleset(),
                players=2)
    ui.size = size
    ui.state = ui.state.apply(Lobby((("amel", "0000-0000-0000-0000"),
                                     ("sami", "0001-0000-0000-0000"))))
    if started:
        ui.state = ui.state.apply(S.HandStarted(1, 1))
    ui.app.timeoutlen = None  # no wait for a longer key sequence (no event loop here)
    return ui


def press(ui: TuiApp, key: str) -> None:
    with set_app(ui.app):
        data = "\r" if key == Keys.Enter else key if len(key) == 1 else ""
        ui.app.key_processor.feed(KeyPress(key, data))
        ui.app.key_processor.process_keys()


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("key", [Keys.Enter, Keys.Up, Keys.Down, Keys.Tab, "x"])
def test_the_help_closes_on_enter_and_the_arrows(app_session, size, lang, key):
    for started in (False, True):
        ui = _ui("join", lang, started, size)
        press(ui, "?")
        assert ui.overlay_kind() == "help"
        assert WORDS[lang]["lobby" if not started else "play"] in screen_text(ui, *size)
        press(ui, key)
        assert ui.overlay_kind() is None, (key, started)
        text = screen_text(ui, *size)
        assert WORDS[lang]["lobby"] not in text and WORDS[lang]["play"] not in text
        assert not ui.state.started or ui.request is None  # the key did nothing else


@pytest.mark.parametrize("size, second", [((24, 80), "How to play"),
                                          ((40, 120), "A worked example")])
def test_left_and_right_turn_a_paged_help(app_session, size, second):
    """At 80x24 how to play is the second page; at 120x40 it shares the first, and the
    worked example of a hand's scoring is the second."""
    ui = _ui("play", "en", True, size)
    press(ui, "?")
    press(ui, Keys.Right)
    assert ui.overlay_kind() == "help"
    assert ui.help_page == 1 and second in screen_text(ui, *size)
    press(ui, Keys.Left)
    assert ui.help_page == 0 and ui.overlay_kind() == "help"


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("kind", ["host", "join", "play"])
def test_the_lobby_s_help_gives_the_lobby_s_keys(app_session, size, lang, kind):
    w = WORDS[lang]
    ui = _ui(kind, lang, False, size)
    press(ui, "?")
    text = " ".join(screen_text(ui, *size).split())
    assert w["lobby"] in text and w["play"] not in text, text
    assert (w["ready"] in text) is (kind != "play")
    assert (w["free"] in text) is (kind == "host")
    # At the table, the table's keys.
    table = _ui(kind, lang, True, size)
    press(table, "?")
    text = " ".join(screen_text(table, *size).split())
    assert w["play"] in text and w["lobby"] not in text
