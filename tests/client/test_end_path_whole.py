"""The end screen's log path whole (issue 43, the newcomer walk at 9c55980): at 80
columns the path of the signed log, and the one in the command that replays it, were
left out in their middle ("…/logs/chkobba-…"), and a person copying either got a path
that does not exist.  Now each is whole on its own lines, broken only after a "/".  Read
off the whole screen as drawn, at 80x24 and 120x40, in English and French, at 2, 3 and
4 players."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenshot import end_box, screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.screens.dialogs import path_lines
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Lobby, Outcome
from chkobba_p2p.transcript import events as S

NAME = "chkobba-20261207-0130-host-Mohamed-Aziz-vs-Khadija-Trabelsi.chklog"


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_log_path_and_the_replay_command_are_whole(app_session, tmp_path, size, lang,
                                                       players):
    folder = tmp_path / "xdg-data" / "chkobba-p2p" / "logs"
    folder.mkdir(parents=True)
    log = folder / NAME
    log.write_text("")
    names = ("amel", "sami", "bilel", "dora")[:players]
    ui = TuiApp(kind="play", lang=lang, seat=0, players=players, log_path=log)
    ui.state = ui.state.apply(Lobby(tuple((n, f"{i:04x}") for i, n in enumerate(names))))
    ui.state = ui.state.apply(S.HandStarted(1, 0))
    ui.finished = True
    ui.outcome = Outcome(0, None, None, done=S.MatchDone(
        0, (11,) + (4,) * (2 if players == 3 else 1), 3))
    rows = screen_rows(ui, *size)
    assert all(len(r) <= size[1] for r in rows)
    box = end_box(rows)
    t = Translator(lang)
    at, cmd = box.index(t("over_log_title")), box.index(t("over_replay_title"))
    shown = "".join(box[at + 1:cmd])  # the path's lines, broken after a "/" only
    assert "…" not in "".join(box), box
    assert Path(shown).expanduser() == log, box
    assert all(x.endswith("/") for x in box[at + 1:cmd - 1]), box
    end = next(i for i in range(cmd + 1, len(box)) if not box[i])  # (a blank line after)
    command = "".join(box[cmd + 1:end])
    assert command.startswith("chkobba replay"), box
    assert Path(command[len("chkobba replay"):].strip()).expanduser() == log, box


def test_a_path_breaks_after_a_slash_only_and_keeps_every_character(tmp_path):
    home = Path("/home/amel")
    path = home / ".local/share/chkobba-p2p/logs" / NAME
    for room in range(8, 120):
        lines = path_lines(path, room, home)
        assert "".join(lines) == f"~/.local/share/chkobba-p2p/logs/{NAME}"
        assert all(len(x) <= room for x in lines)
        if room >= len(NAME):  # every folder and the name fit a line: broken at "/"s
            assert all(x.endswith("/") for x in lines[:-1]), lines
    assert path_lines(Path("/elsewhere/x.chklog"), 40, home) == ["/elsewhere/x.chklog"]
