"""Seen on a walk of a 4-player game at 80x24 (issue 43): the table says "(partner)" and
"we captured", the lobby "teams: you & bot1 against bot2 & sami", but the help's "how to
play" never said what a team is.  At 4 players it says it now (the partner across, the
captures counted for both), on a page of the help that fits the screen; not at 2 or 3.
Read off the whole screen at 80x24 and 120x40, in English and French, in the lobby and
at the table."""

from __future__ import annotations

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.transcript import events as S

SAID = {"en": "At 4 players, two teams: your partner sits across from you, and what either "
              "of you captures counts for both.",
        "fr": "À 4 joueurs, deux équipes : votre partenaire est en face de vous, et ce que "
              "l'un de vous prend compte pour les deux."}




def _press(ui: TuiApp, key: str) -> None:
    with set_app(ui.app):
        ui.app.key_processor.feed(KeyPress(key, key if len(key) == 1 else ""))
        ui.app.key_processor.process_keys()


def _pages(ui: TuiApp, size: tuple[int, int]) -> list[str]:
    """Every page of the help as drawn, the box's inside read as one line."""
    ui.size = size
    _press(ui, "?")
    assert ui.overlay_kind() == "help"
    out = []
    for _ in range(len(ui._help_pages())):
        rows = screen_rows(ui, *size)
        assert all(len(r) <= size[1] for r in rows)
        box = [r[r.index("│") + 1:r.rindex("│")] for r in rows[1:-1] if r.count("│") >= 2]
        assert box, "\n".join(rows)
        # The box fits between the header and the footer: its bottom is drawn.
        assert any("┘" in r for r in rows[1:-1]), "\n".join(rows)
        assert any("┐" in r for r in rows[1:-1]), "\n".join(rows)  # and its top
        out.append(" ".join(" ".join(box).split()))
        _press(ui, Keys.Right)
    return out


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("started", [False, True], ids=["lobby", "table"])
def test_the_help_says_what_a_team_is_at_four(app_session, size, lang, players, started):
    names = ("amel", "sami", "bilel", "dora")[:players]
    ui = TuiApp(kind="join", lang=lang, seat=1, rules=R.Ruleset(), players=players)
    ui.state = ui.state.apply(Lobby(tuple((n, f"{i:04x}-0000-0000-0000")
                                          for i, n in enumerate(names))))
    if started:
        ui.state = ui.state.apply(S.HandStarted(1, 0))
    ui.app.timeoutlen = None
    pages = _pages(ui, size)
    assert sum(SAID[lang] in p for p in pages) == (1 if players == 4 else 0), pages
