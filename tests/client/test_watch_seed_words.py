"""When a hand's shuffle secrets open, the spectator's events said "Seeds open: the hand's
cards are shown." and in French "Graines ouvertes : ..." (seeds of a plant): jargon for a
newcomer.  The screen, at 80x24 and 120x40 in English and French, says what is shown and
why in plain words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import screen_rows
from support.audit import played_once

from chkobba_cli.tui.screens.watching import WatchView, _build
from chkobba_p2p.observe.observer import Observer


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, said", [
    ("en", "The hand's cards are shown: the players opened their shuffle secrets."),
    ("fr", "Les cartes de la manche sont montrées : les joueurs ont révélé leurs secrets "
           "de mélange.")])
def test_a_hands_opening_is_said_in_plain_words(size, lang, said):
    played = played_once(2, seed=4, key=b"watch-seeds")
    view = WatchView(lang=lang, pace=0)
    obs = Observer()
    for body in played.sessions[0].bodies:
        stop = False
        for ev in obs.feed(body):
            view.on_event(ev)
            stop = stop or type(ev).__name__ == "DeckRevealed"
        if stop:  # the first hand's cards just shown: its line is the panel's last
            break
    ui = SimpleNamespace(size=size)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None,
                        quit=lambda: None)
        rows = screen_rows(ui, *size)
    panel = " ".join(" ".join(r.split("│", 1)[1] for r in rows if "│" in r).split())
    assert said in panel, "\n".join(rows)
    assert "Seeds" not in panel and "Graines" not in panel, "\n".join(rows)
