"""A host that restarts never gets its own bots blamed (the project's first rule), end to
end: ``chkobba host --bots N`` in a pty at 80x24, SIGKILLed mid-hand (a crash) and started
again with the same command.  Its bots are processes of their own (``botproc``, in sessions
of their own); whatever became of them, the restarted host's screen says that they rejoined
after its restart, the match goes on to its end, and no seat is said to have stepped away,
lost its connection or lost on time:

* the bots died with the host (a machine that crashed): the new bots resume the seats
  from the games the old ones saved;
* the old bots outlive the host but are slow to come back: the new bots, finding the seat
  held by another process of the same bot, leave it to them (they never sit afresh and
  tell the host the seat is away);
* the host stayed down past its allowance of time away: its bots stop without a claim
  against it, keeping their saved games, and the restarted host's bots resume them;
* the host's person stepped away (which stops the bots): coming back brings them back.

Every wait reads the screen or a process against a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from pathlib import Path

import pytest
from support.net import child_processes
from test_cli_person_pty import OVER, act, free_port, host_screen, moves_made
from test_cli_play_pty import Screen

pytestmark = pytest.mark.slow

#: What the host's screen must never say of its own bots after its restart: that one was
#: away, or lost on time, or came back as if it had been away (issue 43, item 9).
FALSE_WORDS = ("stepped away", "lost the connection", "on time", "is back",
               "of time away left")


def bot_processes(pid: int) -> list[int]:
    """The bot peers (``chkobba_cli.support.botproc``) whose parent is process ``pid``."""
    return child_processes(pid, b"chkobba_cli.support.botproc")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_gone(pids: list[int], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in pids):
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.05)


def signal_all(pids: list[int], sig: int) -> None:
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, sig)


class Seen:
    """Every events panel a screen showed, so that a line that scrolled away still counts."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.panels: list[str] = []

    def look(self) -> str:
        panel = self.screen.panel()
        if not self.panels or self.panels[-1] != panel:
            self.panels.append(panel)
        return " ".join(self.panels)

    def check(self) -> None:
        said = self.look()
        wrong = [w for w in FALSE_WORDS if w in said]
        assert not wrong, f"the host's screen says {wrong}:\n{self.screen.text}"

    def wait(self, predicate, timeout: float, what: str, drive: bool = False) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if drive:
                act(self.screen)
            else:
                self.screen.pump()
            self.check()
            if predicate(self.look()):
                return
            assert self.screen.child.isalive(), f"the host ended:\n{self.screen.text}"
            assert time.monotonic() < deadline, \
                f"timed out: {what}\n{self.screen.text}"


def rejoined(players: int):
    names = [f"bot{i}" for i in range(1, players)]
    return lambda said: all(f"{n} rejoined after your restart" in said for n in names)


def start(tmp: Path, port: int, players: int, *extra: str) -> Screen:
    return host_screen(tmp, port, "--target", "1", "--players", str(players),
                       "--bots", str(players - 1), *extra)


def to_mid_hand(host: Screen) -> list[int]:
    """Play three moves; the bot processes of this host."""
    seen = Seen(host)
    seen.wait(lambda s: moves_made(host) >= 3, 120, "three moves", drive=True)
    bots = bot_processes(host.child.pid)
    assert bots, "no bot processes found"
    return bots


#: The result a player's command prints once its screen closed (``over_*_win``).
RESULT = re.compile(r"(You win|They win|\w+ wins) \d+")


def finish(host: Screen) -> None:
    """Play the match to its end: a result by points, nobody flagged or away.  The end
    box may close before it is read: a scoring table's Enter that the test pressed as the
    table went on by itself reaches the end box, whose Enter quits; the command then
    prints the result, which counts as well."""
    seen = Seen(host)

    def ended(_said: str) -> bool:
        text = host.text
        return any(o in text for o in OVER) or (
            not host.child.isalive() and RESULT.search(text) is not None)

    seen.wait(ended, 240, "the end", drive=True)
    text = host.text
    assert "Match over" in text or RESULT.search(text), text
    assert "on time" not in text and "stepped away" not in text, text


def close(host: Screen) -> None:
    """End a test's host and the bots it started (in sessions of their own)."""
    bots = bot_processes(host.child.pid)
    host.kill()
    signal_all(bots, signal.SIGKILL)


def crash(host: Screen) -> None:
    host.child.kill(signal.SIGKILL)
    host.child.wait()


@pytest.mark.parametrize("players", [2, 4])
def test_bots_that_died_with_their_host_are_resumed_by_its_restart(tmp_path, players):
    """The machine crashed: host and bots gone; the same command brings them all back."""
    port = free_port()
    host = start(tmp_path, port, players)
    bots: list[int] = []
    try:
        bots = to_mid_hand(host)
        crash(host)
        signal_all(bots, signal.SIGKILL)
        wait_gone(bots, 10, "the old bots killed")
        host = start(tmp_path, port, players)
        seen = Seen(host)
        seen.wait(lambda s: "Your hand" in host.text, 60, "the restored table")
        seen.wait(rejoined(players), 90, "every bot back after our restart")
        finish(host)
    finally:
        close(host)
        signal_all(bots, signal.SIGKILL)


def test_old_bots_slow_to_return_are_not_replaced_by_new_ones(tmp_path):
    """The old bots outlive the host, but come back only after the restarted host started
    new ones: the new ones leave the seat to them, and the screen never says it was away."""
    port = free_port()
    host = start(tmp_path, port, 2)
    old: list[int] = []
    try:
        old = to_mid_hand(host)
        signal_all(old, signal.SIGSTOP)  # slow: not back before the new bots start
        crash(host)
        host = start(tmp_path, port, 2)
        seen = Seen(host)
        seen.wait(lambda s: "Your hand" in host.text, 60, "the restored table")
        new: list[int] = []
        deadline = time.monotonic() + 30
        while not new:
            assert time.monotonic() < deadline, "the restarted host started no bot"
            host.pump()
            new = bot_processes(host.child.pid)
        # The new bot ends by itself: the seat is its old process's.
        deadline = time.monotonic() + 60
        while any(alive(p) for p in new):
            assert time.monotonic() < deadline, "the new bot did not step aside"
            host.pump()
            seen.check()
        seen.check()
        signal_all(old, signal.SIGCONT)
        seen.wait(rejoined(2), 60, "the old bot back after our restart")
        finish(host)
        wait_gone(old, 30, "the old bot ends with the match")
    finally:
        close(host)
        signal_all(old, signal.SIGCONT)
        signal_all(old, signal.SIGKILL)


def test_a_host_back_after_its_allowance_finds_its_bots_waiting(tmp_path):
    """The host stays down past its allowance of time away (here 15 s): its bots stop,
    claiming nothing against it and keeping their saved games; the restarted host's new
    bots resume them, and the match ends on points."""
    port = free_port()
    host = start(tmp_path, port, 2, "--reconnect-timeout", "15")
    old: list[int] = []
    try:
        old = to_mid_hand(host)
        crash(host)
        wait_gone(old, 90, "the old bot gives up on its host")
        host = start(tmp_path, port, 2, "--reconnect-timeout", "15")
        seen = Seen(host)
        seen.wait(lambda s: "Your hand" in host.text, 60, "the restored table")
        seen.wait(rejoined(2), 60, "the bot back after our restart")
        finish(host)
    finally:
        close(host)
        signal_all(old, signal.SIGKILL)


def test_a_host_that_stepped_away_finds_its_bots_at_their_seats(tmp_path):
    """The host's person steps away (Ctrl-C twice: the game waits, exit 4), which stops
    its bots; the same command comes back, and so do they."""
    port = free_port()
    host = start(tmp_path, port, 2)
    try:
        to_mid_hand(host)
        host.press("\x03")
        host.wait_for(lambda t: "(Ctrl-C again: step away at once)" in t, 10, "the choice")
        host.child.send("\x03")
        assert host.finish() == 4
        host = start(tmp_path, port, 2)
        seen = Seen(host)
        seen.wait(lambda s: "Your hand" in host.text, 60, "the restored table")
        seen.wait(rejoined(2), 60, "the bot back after our return")
        finish(host)
    finally:
        close(host)
