"""A person's game survives (issue 14), end to end: real ``chkobba`` processes in ptys,
read through a terminal emulator like a player reads the screen.

A crashed joiner (SIGKILL) or host comes back with the same command and sees its hand and
the table at once; stepping away is not leaving; a resignation is a loss the replay
confirms; a second process for the same seat stops at once; a short turn limit shows a
countdown; a rematch plays a second match with a second log.  Every wait polls the screen
against a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_cli_play_pty import ROOT, Screen

pexpect = pytest.importorskip("pexpect")

MODULE = "chkobba_cli.main"

#: What the screen shows when it waits for the local player (or a dialog for it).
DECISION = ("Your turn", "keep it", "several ways", "Enter: continue")
OVER = ("Match over", "Game stopped", "You resigned", "resigned: you win")
#: A record against a player, as the lobby says it ("you vs bot1: 1 match, you 1–0").
RECORD = re.compile(r": \d+ match(es)?, you \d+–\d+")


def has_record(text: str) -> bool:
    """The lobby (left of the events pane) says a record, wrapped or not."""
    left = " ".join(row.split("│")[0] for row in text.splitlines())
    return RECORD.search(" ".join(left.split())) is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env_for(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"CHKOBBA_DATA_DIR": str(data),
                "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")})
    return env


def headless(args: list[str], data: Path) -> subprocess.Popen:
    """A headless peer (``host --headless`` or ``bot``): a bot in its own process."""
    return subprocess.Popen([sys.executable, "-m", MODULE, *args], cwd=str(ROOT),
                            env=env_for(data), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def listening(proc: subprocess.Popen) -> subprocess.Popen:
    """Wait until a headless host says it listens (its first lines), then go on."""
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("listening on port"):
            return proc
    raise AssertionError("the headless host did not start listening")


def host_screen(tmp: Path, port: int, *extra: str) -> Screen:
    return Screen(["host", "--port", str(port), "--bind", "127.0.0.1", "--no-beacon",
                   "--lang", "en", "--name", "amel", "--pace", "0", *extra], tmp / "h")


def join_screen(tmp: Path, port: int, *extra: str) -> Screen:
    return Screen(["join", f"127.0.0.1:{port}", "--lang", "en", "--name", "sami",
                   "--pace", "0", *extra], tmp / "g")


def act(s: Screen) -> str | None:
    """Answer what the screen asks, if anything: dismiss a scoring table, keep a drawn
    card, take the first capture offered, play the first card the rules allow."""
    s.pump()
    text = s.text
    if any(o in text for o in OVER):
        return "over"
    if "press Enter to start" in text:  # the lobby's ready check
        s.press("\r")
        return "ready"
    if "Enter: continue" in text:
        s.press("\r")
        return "scoring"
    if "keep it" in text:
        s.press("k")
        return "cut"
    if "several ways" in text:
        s.press("1")
        return "choice"
    if "Your turn" in text:
        for key in "123":
            s.press(key)
            if "several ways" in s.text:
                s.press("1")
            if "Your turn" not in s.text or "refused" not in s.text:
                return "play"
        return "play"
    return None


def play_until(screens: list[Screen], done, timeout: float, what: str) -> None:
    """Drive every screen (each answers its own decisions) until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"timed out: {what}\n" + "\n\n".join(
            s.text for s in screens)
        for s in screens:
            act(s)


def moves_made(s: Screen) -> int:
    """Plays shown in the events panel (``name: card → table`` or ``... takes ...``)."""
    return len(re.findall(r"(→ table|takes)", s.panel()))


def hand_cards(s: Screen) -> list[str]:
    """The card labels of the local hand, from its boxes (│7♦│) below "Your hand"."""
    lines = s.text.splitlines()
    idx = next((i for i, line in enumerate(lines) if "Your hand" in line), None)
    if idx is None:
        return []
    return re.findall(r"│(A|[2-7]|Q|J|K)([♠♥♦♣])│", "\n".join(lines[idx:idx + 5]))


def replay(log: Path) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", MODULE, "replay", str(log)],
                          cwd=str(ROOT), env=env_for(log.parent), capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def logs_of(data: Path) -> list[Path]:
    return sorted((data / "logs").glob("*.chklog"), key=lambda p: p.stat().st_mtime)


# ---------------------------------------------------------------------------- tests


def test_a_killed_joiner_comes_back_with_its_hand_and_table_and_finishes(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                     "--no-beacon", "--target", "1", "--quiet"], tmp_path / "h"))
    guest = join_screen(tmp_path, port, "--connect-timeout", "30")
    try:
        play_until([guest], lambda: moves_made(guest) >= 3, 60, "three moves")
        guest.wait_for(lambda t: "Your hand" in t, 10, "the table")
        guest.child.kill(signal.SIGKILL)
        guest.child.wait()
        again = join_screen(tmp_path, port, "--connect-timeout", "30")
        guest = again
        # The whole screen at once: hand, table, the current hand's events, whose turn.
        text = again.wait_for(lambda t: "Your hand" in t and "back in the game" in t, 20,
                              "the restored table")
        assert "Table" in text and "hand 1" in text.lower()
        assert "The table is full" not in text
        again.wait_for(lambda t: hand_cards(again) or "Your turn" in t, 20, "our cards")
        play_until([again], lambda: any(o in again.text for o in OVER), 120,
                   "the end of the match")
        assert "Match over" in again.text, again.text
        again.press("q")
        assert again.finish() == 0
        assert host.wait(30) == 0
    finally:
        guest.kill()
        host.kill()


def test_a_killed_host_comes_back_with_its_table_and_finishes(tmp_path):
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1")
    bot = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet"], tmp_path / "b")
        play_until([host], lambda: moves_made(host) >= 3, 60, "three moves")
        host.child.kill(signal.SIGKILL)
        host.child.wait()
        host = host_screen(tmp_path, port, "--target", "1")
        text = host.wait_for(lambda t: "Your hand" in t and "back in the game" in t, 20,
                             "the restored table")
        assert "Table" in text
        # The bot was not away, this host was (issue 43, item 9): not "is back".
        host.wait_for(lambda t: "rejoined after your restart" in host.panel(), 20,
                      "the bot's return after our restart")
        assert "is back" not in host.panel() and "time away left" not in host.panel()
        play_until([host], lambda: any(o in host.text for o in OVER), 120,
                   "the end of the match")
        assert "Match over" in host.text, host.text
        host.press("q")
        assert host.finish() == 0
        assert bot.wait(30) == 0
    finally:
        host.kill()
        if bot is not None:
            bot.kill()


def test_stepping_away_is_shown_to_the_others_and_the_same_command_comes_back(tmp_path):
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1", "--reconnect-timeout", "300")
    guest = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        guest = join_screen(tmp_path, port)
        play_until([host, guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        guest.press("q")
        guest.wait_for(lambda t: "step away" in t and "resign" in t, 5, "the leave choice")
        guest.child.send("s")
        assert guest.finish() == 4  # stepped away: the game waits
        out = guest.raw.decode("utf-8", "replace")
        assert "You stepped away" in out and f"chkobba join 127.0.0.1:{port}" in out
        # The others see it as a step away with the time left, and the game waits.
        text = host.wait_for(lambda t: "sami stepped away" in t, 10, "the away notice")
        assert re.search(r"sami stepped away: [0-9]+:[0-5][0-9] left to come back",
                         text.replace("\n", " ")) or re.search(r"[45]:[0-5][0-9]", text), text
        guest = join_screen(tmp_path, port)
        guest.wait_for(lambda t: "Your hand" in t, 20, "the table again")
        host.wait_for(lambda t: "sami is back" in host.panel(), 20, "the return")
        before = moves_made(host)
        play_until([host, guest], lambda: moves_made(host) >= before + 2, 60, "play on")
        assert "Game stopped" not in host.text
    finally:
        host.kill()
        if guest is not None:
            guest.kill()


def test_resigning_is_a_loss_that_replay_confirms(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                     "--no-beacon", "--quiet"], tmp_path / "h"))
    guest = join_screen(tmp_path, port, "--connect-timeout", "30")
    try:
        play_until([guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        guest.press("\x03")
        guest.wait_for(lambda t: "resign" in t, 5, "the leave choice")
        guest.press("r")  # r is the end screen's rematch key: not resigning
        assert "Resign the match?" not in guest.text and "resign" in guest.text
        guest.press("x")  # resigning is asked again
        guest.wait_for(lambda t: "Resign the match?" in t and "[y]es, resign" in t, 5,
                       "the resign confirmation")
        guest.child.send("y")
        text = guest.wait_for(lambda t: "You resigned" in t, 15, "the result")
        assert re.search(r"You resigned: host wins the match", text.replace("\n", " ")), text
        guest.press("q")
        assert guest.finish() == 0
        # After the screen too: in the players' words, never seat numbers.
        after = guest.raw.decode("utf-8", "replace").rsplit("\x1b[?1049l", 1)[-1]
        assert "You resigned: host wins the match" in after, after
        assert "seat" not in after and "side " not in after
        assert host.wait(30) == 0
        log = [p for p in logs_of(tmp_path / "g") if "sami" in p.name][-1]
        status, report = replay(log)
        assert status == 0, report
        assert "VALID" in report and "resigned" in report and "winner: host" in report
    finally:
        guest.kill()
        host.kill()


def test_a_second_join_for_the_same_game_stops_at_once_while_the_first_plays_on(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                     "--no-beacon", "--quiet"], tmp_path / "h"))
    first = join_screen(tmp_path, port, "--connect-timeout", "30")
    try:
        play_until([first], lambda: moves_made(first) >= 1, 60, "a move")
        second = join_screen(tmp_path, port)
        try:
            assert second.finish(10) == 2
        finally:
            second.kill()
        out = second.raw.decode("utf-8", "replace").strip()
        assert out.splitlines()[-1].strip() == \
            f"error: this game is open in another terminal, pid {first.child.pid}", out
        before = moves_made(first)
        play_until([first], lambda: moves_made(first) >= before + 2, 60, "play on")
        assert "dropped" not in first.panel() and "lost the connection" not in first.panel()
    finally:
        first.kill()
        host.kill()


def test_a_short_turn_timeout_shows_a_countdown(tmp_path):
    port = free_port()
    host = host_screen(tmp_path, port, "--turn-timeout", "40")
    bot = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet"], tmp_path / "b")
        host.wait_for(lambda t: "press Enter to start" in t, 20, "the ready check")
        host.press("\r")
        host.wait_for(lambda t: "Your turn" in t or "keep it" in t, 60, "our turn")
        if "keep it" in host.text:
            host.press("k")
            host.wait_for(lambda t: "Your turn" in t, 30, "our turn")
        clock = re.compile(r"0:([0-4][0-9]) left")
        first = int(host.wait_for(lambda t: clock.search(t), 10, "the clock")
                    and clock.search(host.text).group(1))
        host.wait_for(lambda t: (m := clock.search(t)) and int(m.group(1)) < first, 5,
                      "the clock counting down")
    finally:
        host.kill()
        if bot is not None:
            bot.kill()


def test_a_rematch_plays_a_second_match_with_a_second_log(tmp_path):
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1")
    guest = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        guest = join_screen(tmp_path, port)
        ended = lambda: all(any(o in s.text for o in OVER) for s in (host, guest))  # noqa: E731
        play_until([host, guest], ended, 150, "the first match's end")
        assert "r: play again" in host.text and "r: play again" in guest.text
        host.press("r")
        guest.press("r")
        # The new table's lobby says the record so far, as history counts it (its
        # "Rematch: ... joining" line goes once every seat is taken).
        # Until a screen redraws, it still shows the first match's table and its end box
        # ("Your hand", "hand 1", "Match over"): wait for the end box to go first, or every
        # wait below is met by the old screen (seen under load: q then reached the new lobby).
        gone = lambda t: not any(o in t for o in OVER)  # noqa: E731
        guest.wait_for(gone, 20, "the guest leaving the first match's end")
        host.wait_for(lambda t: gone(t) and (has_record(t) or "Your hand" in t), 20,
                      "the new table")
        play_until([host, guest], lambda: gone(host.text) and "hand 1" in host.text.lower()
                   and "Your hand" in host.text, 60, "the second match")
        play_until([host, guest], ended, 150, "the second match's end")
        host.press("q")
        guest.press("q")
        assert host.finish() in (0, 3) and guest.finish() in (0, 3)
        for data in (tmp_path / "h", tmp_path / "g"):
            logs = logs_of(data)
            assert len(logs) == 2, logs
            for log in logs:
                status, report = replay(log)
                assert status == 0 and "VALID" in report, report
    finally:
        host.kill()
        if guest is not None:
            guest.kill()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_other_players_clock_shows_whole_at_80_columns(tmp_path, lang):
    """Under a short move limit the other player's seat line ends with its clock: at
    80 columns the line gives up words ("in hand", the role) rather than the countdown,
    in English and in French (longer words)."""
    port = free_port()
    host = host_screen(tmp_path, port, "--turn-timeout", "60", "--lang", lang)
    bot = None
    # The countdown whole; its words ("left", "encore") give way first on a short line.
    whole = r"⏱ \d:\d\d(?: left)?" if lang == "en" else r"⏱ (?:encore )?\d:\d\d"
    clock = re.compile(r"hedi\b.*" + whole + r"\s*$")
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet", "--name", "hedi",
                        "--delay", "30"], tmp_path / "b")
        deadline = time.monotonic() + 90
        while not any(clock.search(line) for line in host.left_lines()):
            assert time.monotonic() < deadline, "no whole clock on hedi's line:\n" + \
                "\n".join(host.left_lines())
            if "Entrée pour commencer" in host.text:
                host.press("\r")
            # act() reads the English screen only: the French prompts are answered here.
            if "[g]arder" in host.text:
                host.press("g")
            if "Entrée : continuer" in host.text:
                host.press("\r")
            if "À vous" in host.text:
                host.press("1")
                if "plusieurs" in host.text:  # a card that takes several ways
                    host.press("1")
            act(host)
    finally:
        host.kill()
        if bot is not None:
            bot.kill()


def _first_match_over(tmp_path):
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1")
    host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
    guest = join_screen(tmp_path, port)
    ended = lambda: all(any(o in s.text for o in OVER) for s in (host, guest))  # noqa: E731
    play_until([host, guest], ended, 150, "the first match's end")
    assert "r: play again" in host.text and "r: play again" in guest.text
    return host, guest


def test_a_joiner_declining_a_rematch_ends_both_with_the_right_words(tmp_path):
    """The joiner says no (q): the host reads it among the events, and the rematch is no
    longer offered (r does nothing); both end with status 0, nobody said to have
    resigned."""
    host = guest = None
    try:
        host, guest = _first_match_over(tmp_path)
        guest.press("\r")  # Enter quits as q does: a no to the rematch
        assert guest.finish() == 0
        assert "resigned" not in guest.text and "Match over" not in guest.text
        assert re.search(r"(amel|sami) wins|You win", guest.text), guest.text
        # In the events column, or in the end box over it (a long log path takes rows)
        host.wait_for(lambda t: "sami declines a rematch" in host.panel() + t, 20,
                      "the joiner's no among the host's events")
        host.wait_for(lambda t: "r: play again" not in t, 10, "the offer gone")
        host.press("r")  # no longer a key here
        assert "waiting for" not in host.text and "Match over" in host.text
        host.press("q")
        assert host.finish() == 0
        after = host.text
        assert "resigned" not in after and "Waiting for players" not in after
    finally:
        for s in (host, guest):
            if s is not None:
                s.kill()


def test_a_host_declining_a_rematch_tells_the_joiner_at_once(tmp_path):
    """The joiner says yes first and waits for the host's answer on the end screen; the
    host says no: the joiner is told at once (no two-minute wait for a table that will
    not come), and both end with status 0."""
    host = guest = None
    try:
        host, guest = _first_match_over(tmp_path)
        guest.press("r")
        guest.wait_for(lambda t: "waiting for amel's answer" in t, 10, "the joiner waiting")
        host.wait_for(lambda t: "sami wants a rematch" in host.panel() + t, 20,
                      "the joiner's yes among the host's events")
        host.press("q")
        assert host.finish() == 0
        assert guest.finish(20) == 0
        after = guest.text
        assert "amel declines a rematch: no new table." in after, after
        assert "resigned" not in after and "Connecting" not in after
    finally:
        for s in (host, guest):
            if s is not None:
                s.kill()


def test_a_rematch_with_a_bot_that_left_opens_no_empty_table(tmp_path):
    """A headless bot answers nothing and leaves once the match is over: the host's r
    opens no table that nobody will join; it says why and ends with status 0."""
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1")
    bot = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet", "--name", "hedi"],
                       tmp_path / "b")
        play_until([host], lambda: any(o in host.text for o in OVER), 150, "the end")
        host.press("r")  # before or after the bot left: no table either way
        deadline = time.monotonic() + 3
        while host.child.isalive() and time.monotonic() < deadline:
            host.pump(0.1)
        said = True
        if host.child.isalive():  # it had left: r was no longer offered
            assert "r: play again" not in host.text
            # Said on the screen: in the end box (which covers the events pane at 80
            # columns since it lists the records) or in the events.
            assert "hedi left the table: no rematch" in host.text, host.text
            said = False
            host.press("q")
        assert host.finish() == 0
        if said:  # our yes came first: the exit says why there is no table
            assert "No rematch: hedi left the table." in host.text, host.text
    finally:
        host.kill()
        if bot is not None:
            bot.kill()


def test_a_rematch_with_local_bots_opens_the_new_table(tmp_path):
    """The host's own bots (--bots) answer nothing and leave: they do not veto the
    rematch; r opens the new table and new bots sit at it."""
    port = free_port()
    host = host_screen(tmp_path, port, "--target", "1", "--bots", "1")
    try:
        play_until([host], lambda: any(o in host.text for o in OVER), 150, "the end")
        host.press("r")
        host.wait_for(lambda t: has_record(t) and "Seats (2/2)" in t and "ready" in t, 60,
                      "the new table with a new bot")
        host.press("\r")
        host.wait_for(lambda t: "Your hand" in t, 60, "the second match")
        assert len(logs_of(tmp_path / "h")) >= 2
    finally:
        host.kill()


def test_joining_another_table_keeps_the_game_stepped_away_from(tmp_path):
    """Same identity, two tables: stepping away from A, playing at B, then A's own
    command resumes A (its saved secrets were not replaced by B's)."""
    ports = free_port(), free_port()
    hosts = [listening(headless(["host", "--headless", "--port", str(p), "--bind",
                                 "127.0.0.1", "--no-beacon", "--quiet",
                                 "--reconnect-timeout", "300"], tmp_path / f"h{p}"))
             for p in ports]
    guest = None
    try:
        for port in ports:
            guest = join_screen(tmp_path, port, "--connect-timeout", "30")
            play_until([guest], lambda g=guest: moves_made(g) >= 2, 60, "two moves")
            guest.press("q")
            guest.wait_for(lambda t: "step away" in t, 5, "the leave choice")
            guest.child.send("s")
            assert guest.finish() == 4  # stepped away: the game waits
        guest = join_screen(tmp_path, ports[0], "--connect-timeout", "30")
        guest.wait_for(lambda t: "back in the game" in t, 20, "table A again")
        before = moves_made(guest)
        play_until([guest], lambda: moves_made(guest) >= before + 2, 60, "play on at A")
        assert "Game stopped" not in guest.text and "bad_sequence" not in guest.text
    finally:
        if guest is not None:
            guest.kill()
        for h in hosts:
            h.kill()


def _stepped_away(tmp_path: Path, port: int) -> Path:
    """A joiner plays two moves at ``port`` and steps away; its saved game's path."""
    guest = join_screen(tmp_path, port, "--connect-timeout", "30")
    try:
        play_until([guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        guest.press("q")
        guest.wait_for(lambda t: "step away" in t, 5, "the leave choice")
        guest.child.send("s")
        assert guest.finish() == 4  # stepped away: the game waits
    finally:
        guest.kill()
    (state,) = (tmp_path / "g" / "resume").glob("*.state")
    return state


def test_a_join_without_the_saved_game_says_so_and_blames_no_one(tmp_path):
    """The saved game is lost (another machine, a wiped data directory): the same join
    says so, writes and signs nothing, exits 2; the host's game goes on waiting."""
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--quiet",
                               "--reconnect-timeout", "300"], tmp_path / "h"))
    guest = None
    try:
        state = _stepped_away(tmp_path, port)
        state.rename(tmp_path / "elsewhere.state")
        logs = logs_of(tmp_path / "g")
        guest = join_screen(tmp_path, port, "--connect-timeout", "30")
        assert guest.finish(30) == 2
        text = guest.raw.decode("utf-8", "replace")
        assert "saved state is not on this machine" in text
        assert "bad_sequence" not in text and "at fault" not in text
        assert logs_of(tmp_path / "g") == logs  # no new log
        assert host.poll() is None  # the game waits for the machine that holds it
    finally:
        if guest is not None:
            guest.kill()
        host.kill()


def test_a_join_typed_another_way_points_to_the_saved_game(tmp_path):
    """The save is kept under the address as typed: stepping away from 127.0.0.1:PORT
    and coming back as localhost:PORT finds no save there; the client says where it is
    and gives the command that comes back, which does."""
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--quiet",
                               "--reconnect-timeout", "300"], tmp_path / "h"))
    guest = back = None
    try:
        state = _stepped_away(tmp_path, port)
        guest = Screen(["join", f"localhost:{port}", "--lang", "en", "--name", "sami",
                        "--pace", "0", "--connect-timeout", "30"], tmp_path / "g")
        assert guest.finish(30) == 2
        text = " ".join(guest.raw.decode("utf-8", "replace").split())
        assert f"you have a saved game for this table at 127.0.0.1:{port}" in text, text
        assert f"chkobba join 127.0.0.1:{port} --lang en" in text, text
        assert state.exists() and host.poll() is None
        back = join_screen(tmp_path, port, "--connect-timeout", "30")
        back.wait_for(lambda t: "Your hand" in t, 30, "the game resumed")
    finally:
        for s in (guest, back):
            if s is not None:
                s.kill()
        host.kill()


def test_coming_back_after_the_host_closed_the_table_says_so_at_once(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--quiet",
                               "--reconnect-timeout", "300"], tmp_path / "h"))
    guest = None
    try:
        state = _stepped_away(tmp_path, port)
        host.kill()
        host.wait(10)
        (log,) = logs_of(tmp_path / "g")
        size = log.stat().st_size
        guest = join_screen(tmp_path, port, "--connect-timeout", "30")
        guest.wait_for(lambda t: "nobody is listening" in t, 20, "the closed table")
        assert "r: play again" not in guest.text and "left to come back" not in guest.text
        guest.press("q")
        assert guest.finish() == 2
        assert "nobody is listening there" in guest.raw.decode("utf-8", "replace")
        assert state.exists() and log.stat().st_size == size  # kept; nothing signed
    finally:
        if guest is not None:
            guest.kill()
        host.kill()


def test_a_host_asking_for_a_rematch_tells_the_joiner_before_it_answers(tmp_path):
    """Issue 43, item 11: the host presses r first and waits for the joiner's answer;
    the joiner, still on its end screen (80x24), reads that the host wants a rematch
    before it answers, and its no still ends both with status 0."""
    host = guest = None
    offer = "amel wants a rematch and waits for your answer"
    try:
        host, guest = _first_match_over(tmp_path)
        assert offer not in " ".join(guest.text.split())
        host.press("r")
        host.wait_for(lambda t: "waiting for sami's answer" in t, 10, "the host waiting")
        guest.wait_for(lambda t: offer in " ".join(t.split()), 20,
                       "the host's wish on the joiner's end screen")
        assert "r: play again" in guest.text  # still the joiner's to answer
        guest.press("q")  # no
        assert guest.finish() == 0
        host.wait_for(lambda t: "sami declines a rematch" in host.panel() + t, 20,
                      "the joiner's no among the host's events")
        host.press("q")
        assert host.finish() == 0
    finally:
        for s in (host, guest):
            if s is not None:
                s.kill()
