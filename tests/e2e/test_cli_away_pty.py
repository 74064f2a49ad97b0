"""What a person reads around stepping away and a stopped game (issue 14's client
findings), end to end: real ``chkobba`` processes in ptys at 80x24, read through a
terminal emulator.  Every wait polls the screen against a deadline; nothing sleeps.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from test_cli_person_pty import (
    free_port,
    host_screen,
    join_screen,
    logs_of,
    moves_made,
    play_until,
)

pytest.importorskip("pexpect")

WAITS = re.compile(r"the game waits (\d+):(\d\d) for you")


def _seconds(m: re.Match[str]) -> int:
    return int(m.group(1)) * 60 + int(m.group(2))


def _after_screen(raw: bytes) -> list[str]:
    """The lines printed once the full-screen client closed (after it left the
    alternate screen), without colours or cursor moves."""
    text = raw.decode("utf-8", "replace").rsplit("\x1b[?1049l", 1)[-1]
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "", text)
    return [line.rstrip() for line in text.replace("\r", "").split("\n") if line.strip()]


def _dialog(display: list[str]) -> str:
    """The text inside the widest frame on the screen (the dialog), its lines joined."""
    top = max((i for i, x in enumerate(display) if "┌" in x and "┐" in x),
              key=lambda i: display[i].rindex("┐") - display[i].index("┌"))
    left, right = display[top].index("┌"), display[top].rindex("┐")
    inside = []
    for line in display[top + 1:]:
        if line[left] == "└":
            break
        inside.append(line[left + 1:right])
    return " ".join(" ".join(inside).split())


def test_stepping_away_says_how_long_the_game_waits_and_exits_4(tmp_path):
    port = free_port()
    # The host's allowance (40 s), not the joiner's own default (300 s): the host
    # announces the limits it enforces, and the joiner's clocks read them.
    host = host_screen(tmp_path, port, "--target", "1", "--reconnect-timeout", "40")
    guest = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        guest = join_screen(tmp_path, port)
        play_until([host, guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        # A chat line of 200 letters (the most there is) reaches the host whole, wrapped.
        line = "a" * 100 + "b" * 100
        guest.press("t")
        guest.wait_for(lambda t: "say:" in t, 5, "the chat input")
        guest.child.send(line + "\r")
        host.wait_for(lambda t: line in host.panel().replace(" ", ""), 10, "the whole line")
        # q opens the choice without a word about Ctrl-C; it says the time left.
        guest.press("q")
        text = guest.wait_for(lambda t: "step away" in t and "resign" in t, 5, "the choice")
        assert "Ctrl-C" not in text, text
        waits = WAITS.search(" ".join(text.split()))
        assert waits and 30 <= _seconds(waits) <= 40, text
        guest.press("\x1b")
        guest.wait_for(lambda t: "step away" not in t, 5, "the choice closed")
        # Ctrl-C opens it saying Ctrl-C again steps away; Ctrl-C again does.
        guest.press("\x03")
        guest.wait_for(lambda t: "(Ctrl-C again: step away at once)" in t, 5, "the choice")
        guest.child.send("\x03")
        assert guest.finish() == 4  # stepped away: the game waits (not 130, a crash's)
        lines = _after_screen(guest.raw)
        said = next((x for x in lines if x.startswith("You stepped away")), "")
        waits = WAITS.search(said)
        assert waits and 30 <= _seconds(waits) <= 40, lines
        assert "Come back with the same command:" in lines
        assert any(x.strip().startswith(f"chkobba join 127.0.0.1:{port}") for x in lines)
        host.wait_for(lambda t: "sami stepped away" in t, 10, "the host sees it")
        # Back: said once, in a player's words, and not again as the game goes on.
        guest = join_screen(tmp_path, port)
        guest.wait_for(lambda t: "Your hand" in t and "back in the game" in t, 20,
                       "the table again")
        before = moves_made(guest)
        play_until([host, guest], lambda: moves_made(guest) >= before + 2, 60, "play on")
        panel = guest.panel()
        assert panel.count("back in the game") + panel.count("at the table again") == 1, \
            panel
        assert "log replayed" not in panel
    finally:
        host.kill()
        if guest is not None:
            guest.kill()


def test_a_match_lost_by_a_long_absence_is_told_in_words_then_on_the_terminal():
    """Away past the allowance while the game waits for it: sami loses on time (issue
    26), told in words on the screen, then on the terminal, exit status 0 (a result)."""
    # A short data folder: the log's path and the replay command fit 80 columns.
    tmp = Path(tempfile.mkdtemp(prefix="ck"))
    port = free_port()
    host = host_screen(tmp, port, "--target", "1", "--reconnect-timeout", "3")
    guest = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        guest = join_screen(tmp, port)
        play_until([host, guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        guest.press("\x03")
        guest.wait_for(lambda t: "step away" in t, 5, "the choice")
        guest.child.send("\x03")
        assert guest.finish() == 4
        # The host plays on until sami owes a move; 3 s later the match is lost on time.
        won = "sami stayed away too long: you won on time!"
        play_until([host], lambda: won in host.text, 60, "the win on time")
        text = _dialog(host.screen.display)
        assert "Match over" in text and "the time is your clock" in text, text
        for bad in ("peer_left", "seat", "by you", "owes"):
            assert bad not in text, text
        host.press("q")
        assert host.finish() == 0
        lines = _after_screen(host.raw)
        said = " ".join(lines[:lines.index("The signed log of this game:")])
        assert said == won, lines
        assert not any(re.search(r"seat|side \d|peer_left", x) for x in lines), lines
        log = logs_of(tmp / "h")[-1]
        # Each on a line of its own, whole: the log, then the command that audits it.
        assert f"  {log}" in lines and f"  chkobba replay {log}" in lines, lines
        assert all(len(x) <= 80 for x in lines), lines
    finally:
        host.kill()
        if guest is not None:
            guest.kill()
        shutil.rmtree(tmp, ignore_errors=True)
