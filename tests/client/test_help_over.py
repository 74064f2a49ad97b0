"""The help on the end screen (issue 43, polish): ``?`` there lists the end screen's own
keys -- ``l`` (is it rigged? luck against play), ``r`` (a rematch), q or Enter -- not the
table's, read off the whole screen at 80x24 and 120x40, in English and French; during
the game the help still lists the table's keys and none of the end's."""

from __future__ import annotations

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.key_binding.key_processor import KeyPress
from screenshot import screen_text

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p._shell.peer import Lobby, Outcome
from chkobba_p2p.transcript import events as S

WORDS = {"en": ("Keys at the end of the match", "l is it rigged? luck",
                "r play again", "1-9 or ←→ Enter: play a card"),
         "fr": ("Touches de fin de partie", "l est-ce truqué ? chance",
                "r rejouer", "1-9 ou ←→ Entrée : jouer")}



def _table(lang: str, over: bool) -> TuiApp:
    ui = TuiApp(kind="play", lang=lang, seat=0, players=2)
    ui.state = ui.state.apply(Lobby((("amel", "aa"), ("bot1", "bb")))).apply(
        S.HandStarted(1, 0))
    if over:
        ui.finished = True
        ui.outcome = Outcome(0, None, None, done=S.MatchDone(0, (11, 4), 3))
    ui.app.timeoutlen = None
    return ui


def _help(ui: TuiApp, size: tuple[int, int]) -> str:
    with set_app(ui.app):
        ui.app.key_processor.feed(KeyPress("?", "?"))
        ui.app.key_processor.process_keys()
    assert ui.overlay_kind() == "help"
    # The box's lines, its borders left out, read as one (a sentence wraps in it).
    # (A frame drawn in ASCII once an --ascii screen was built in this process: "|".)
    rows = [r[r.index("│") + 1:r.rindex("│")] if r.count("│") >= 2 else r
            for r in screen_text(ui, *size).replace("|", "│").splitlines()]
    return " ".join(" ".join(rows).split())


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_end_screens_help_lists_l_and_not_the_tables_keys(app_session, size, lang):
    title, luck, rematch, play = WORDS[lang]
    over = _help(_table(lang, over=True), size)
    assert title in over and luck in over and rematch in over, over
    assert play not in over  # no card to play any more
    during = _help(_table(lang, over=False), size)
    assert play in during and title not in during and luck not in during
