"""The full-screen client in a real pseudo-terminal: pexpect runs ``chkobba``, pyte plays
the terminal, and the tests read the screen like a player would.

Every wait polls the emulated screen against a deadline; nothing sleeps a fixed time.
The deal is cryptographic, so no test can choose the cards: the player's strategy below
(take a multi-way capture when there is one, else drop a card that stays on the table so
the table grows) makes a capture choice likely within a hand or two.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parent.parent.parent
COLS, ROWS = 80, 24
LEFT = COLS - 28 - 1  # the events panel is 28 columns wide at 80 columns
HINT = re.compile(r"^\s{3}(\d) (\S+) → (.*)$")
OPTION = re.compile(r"^\s+[▶ ] (\d)\) take (.+)$")
CARD_BOX = re.compile(r"│(?:A|[2-7]|Q|J|K|D|V|R)[♠♥♦♣]│")  # French letters: D V R


class Screen:
    """A program in a pty, seen through a terminal emulator."""

    def __init__(self, args: list[str], tmp: Path, cols: int = COLS, rows: int = ROWS,
                 env: dict[str, str] | None = None) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        base = dict(os.environ)
        base.update({
            "CHKOBBA_DATA_DIR": str(tmp), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1",
            "PYTHONPATH": str(ROOT) + os.pathsep + base.get("PYTHONPATH", ""),
        })
        env = {**base, **(env or {})}
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(sys.executable, ["-m", "chkobba_cli.main", *args], cwd=str(ROOT),
                                   env=env, dimensions=(rows, cols))
        self.raw = b""

    def pump(self, wait: float = 0.05) -> None:
        try:
            while True:
                data = self.child.read_nonblocking(65536, timeout=wait)
                self.raw += data
                self.stream.feed(data)
                wait = 0.02
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def left_lines(self) -> list[str]:
        return [line[:LEFT] for line in self.screen.display]

    def panel(self) -> str:
        """The events panel's text, wrapped lines joined."""
        return " ".join(line[LEFT + 1:].strip() for line in self.screen.display[1:-1])

    def wait_for(self, predicate, timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if predicate(self.text):
                return self.text
            if not self.child.isalive():
                self.pump()
                if predicate(self.text):
                    return self.text
                break
        tail = "" if self.child.isalive() else self.raw[-3000:].decode("utf-8", "replace")
        raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text}\n{tail}")

    def press(self, keys: str) -> None:
        """Send keys and wait until the screen reacts (or a short deadline passes)."""
        before = self.text
        self.child.send(keys)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and self.text == before:
            self.pump()

    def finish(self, timeout: float = 15) -> int:
        deadline = time.monotonic() + timeout
        while self.child.isalive() and time.monotonic() < deadline:
            self.pump(0.1)
        self.pump()
        if self.child.isalive():
            self.child.terminate(force=True)
            raise AssertionError(f"the client did not exit; screen:\n{self.text}")
        self.child.close()
        return self.child.exitstatus

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def game_logs(tmp: Path) -> list[Path]:
    """The client's own log (each bot peer keeps its own, named after it)."""
    return [p for p in (tmp / "logs").glob("*play*.chklog") if "-bot" not in p.name]


ACTIVE = ("Your turn", "keep it", "several ways", "Enter: continue", "Match over",
          "Game stopped")


def play_turn(s: Screen, log: dict) -> str:
    """Wait for the next thing to do and do it; returns what it was."""
    text = s.wait_for(lambda t: any(a in t for a in ACTIVE), 30, "the next decision")
    if "Match over" in text or "Game stopped" in text:
        log["over"] = text
        return "over"
    if "Enter: continue" in text:
        log.setdefault("scoring", text)
        s.press("\r")
        return "scoring"
    if "keep it" in text:
        s.press("k")
        return "cut"
    if "several ways" in text:
        return take_capture_choice(s, log)
    if not log.get("hints"):
        log["hints"] = True
        s.press("h")
        s.wait_for(lambda t: "→" in t, 5, "hints")
    log.setdefault("first_turn", s.text)
    hints = [(int(m.group(1)), m.group(3).strip())
             for m in map(HINT.match, s.left_lines()) if m]
    multi = [i for i, h in hints if " / " in h]
    drop = [i for i, h in hints if "stays" in h]
    choice = multi[0] if multi else drop[0] if drop else hints[0][0] if hints else 1
    s.press(str(choice))
    if "several ways" in s.text:
        return take_capture_choice(s, log)
    return "play"


def take_capture_choice(s: Screen, log: dict) -> str:
    text = s.text
    played = re.search(r"(\S+) can take several ways", text).group(1)
    options = {int(m.group(1)): m.group(2).strip().split(" + ")
               for m in map(OPTION.match, s.left_lines()) if m}
    assert len(options) >= 2, text
    log["choice_screen"] = text
    s.press("2")
    want = f"you: {played} takes {' '.join(options[2])}"
    s.wait_for(lambda t: want in s.panel() or "Enter: continue" in t or "Match over" in t,
               10, f"the capture taken: {want!r}")
    if want not in s.panel() and "Match over" in s.text:
        # The match's last card: its end box may already cover the events (the caller
        # reads the end; the log it audits holds the capture).
        log["capture_taken"] = (played, options[2])
        return "choice"
    if want not in s.panel():
        # That was the hand's last card: the scoring table hides the events; dismiss it.
        log.setdefault("scoring", s.text)
        s.press("\r")
        s.wait_for(lambda t: want in s.panel(), 10, f"the capture taken: {want!r}")
    log["capture_taken"] = (played, options[2])
    return "choice"


def test_play_shows_the_table_plays_a_hand_to_its_scoring_table_and_a_capture_choice(
        tmp_path):
    s = Screen(["play", "--lang", "en", "--bots", "random", "--seed", "5", "--target", "31",
                "--pace", "0"], tmp_path)
    try:
        text = s.wait_for(lambda t: "Your turn" in t or "keep it" in t, 30, "the first decision")
        assert "Table" in text and "Your hand" in text and "bot1" in text
        assert CARD_BOX.search(text), text
        log: dict = {}
        deadline = time.monotonic() + 50
        while "capture_taken" not in log or "scoring" not in log:
            assert time.monotonic() < deadline, f"not there in time: {sorted(log)}"
            assert play_turn(s, log) != "over", log.get("over")
        # A whole hand was played to its scoring table...
        scoring = log["scoring"]
        for word in ("Hand 1: scoring", "carta", "dinari", "barmila", "haya", "chkobba",
                     "this hand", "totals (target 31)"):
            assert word in scoring, scoring
        s.wait_for(lambda t: re.search(r"· hand ([2-9]|\d\d)", t), 10, "a later hand")
        # ...and a capture choice was offered (see take_capture_choice) and taken.
        assert "several ways" in log["choice_screen"]
        # Ctrl-C asks first, then leaves: the log stays, the exit status says so.
        s.press("\x03")
        s.wait_for(lambda t: "Leave the game?" in t, 5, "the leave question")
        s.child.send("y")
        assert s.finish() == 0  # a confirmed leave is no interrupt (was 130)
        logs = game_logs(tmp_path)
        assert len(logs) == 1 and logs[0].stat().st_size > 0
        assert str(logs[0]) in s.raw.decode("utf-8", "replace")
    finally:
        s.kill()


def test_the_end_of_a_match_shows_the_result_the_log_and_how_to_replay_it(tmp_path):
    s = Screen(["play", "--lang", "en", "--bots", "greedy", "--seed", "3", "--target", "1",
                "--pace", "0"], tmp_path)
    try:
        log: dict = {}
        deadline = time.monotonic() + 120  # a hang guard, not a speed goal
        while play_turn(s, log) != "over":
            assert time.monotonic() < deadline, "the match did not end in time"
        text = s.text
        flat = text.replace("\n", "")
        logs = game_logs(tmp_path)
        assert len(logs) == 1 and logs[0].stat().st_size > 0
        assert "The signed log of this game:" in text and "chkobba replay" in text
        assert logs[0].name.replace(".chklog", "") in re.sub(r"[│ ]", "", flat)
        # The box's command with the path whole: on its line, or (too long for it) on
        # the lines under "chkobba replay", broken only after a "/".
        lines = text.splitlines()
        row = next(i for i, x in enumerate(lines) if "chkobba replay" in x)
        col = lines[row].index("chkobba replay")
        path = lines[row][col + len("chkobba replay"):].split("│")[0].strip()
        for x in lines[row + 1:]:
            part = x[col:].split("│")[0].strip()
            if not part:
                break
            path += part
        assert path == str(logs[0]) or (path.startswith("~/")
                                        and str(logs[0]).endswith(path[1:])), (path, text)
        completed = "Match over" in text
        if completed:
            assert re.search(r"(You win|bot1 wins) \d+-\d+", text), text
            assert "scoring" in log  # the last hand's scoring came before the result
        else:
            # A peer stopped the game: the screen says who and why (the protocol layer's
            # own tests cover why); the client still keeps the log and exits 3.
            assert "Game stopped" in text and "seat " not in text
        s.press("q")
        assert s.finish() == (0 if completed else 3)
        # The player's own key, kept (the one 'join' uses): its matches against the bots
        # are one person's in a history (a first-time player got a new key each game).
        from chkobba_p2p._shell.peer import load_identity
        from chkobba_p2p.observe.audit import audit_log
        me = load_identity(tmp_path / "identity.key")
        seats = audit_log(logs[0]).table.seats
        assert seats[0].key == me.public
        # The bot is the player's own, vouched for (issue 42, PROTOCOL.md 5.6): a key
        # derived from the player's, the voucher in the log's header.
        from chkobba_p2p.observe.vouch import bot_identity, check_voucher
        from chkobba_p2p.wire.logfile import read_header
        bot = bot_identity(me, "greedy", 1).public
        header = read_header(logs[0])
        assert seats[1].key == bot and header is not None
        assert [(b["key"], b["level"]) for b in header["bots"]] == [(bot, "greedy")]
        assert check_voucher(me.public, bot, "greedy", header["bots"][0]["sig"])
        out = s.raw.decode("utf-8", "replace")
        assert str(logs[0]) in out  # whole, on a line of its own
        # The command to copy: one line, or two joined by the shell (" \\" at the end).
        assert re.search(r"chkobba replay( \\\r?\n +)?" + re.escape(str(logs[0])), out), out
        if completed:  # after the screen too: the winner, by name, its score first
            won = re.search(r"(You win|bot1 wins) (\d+)-(\d+)", out.split("Match over")[-1])
            assert won and int(won.group(2)) >= int(won.group(3)), out[-2000:]
            assert "side " not in out.split("Match over")[-1]
    finally:
        s.kill()


def test_french_screen_survives_a_resize_and_leaves_on_ctrl_c(tmp_path):
    s = Screen(["play", "--lang", "fr", "--bots", "greedy"], tmp_path)
    try:
        s.wait_for(lambda t: "Votre main" in t and "Table" in t, 30, "the French table")
        s.child.setwinsize(30, 100)
        s.screen.resize(30, 100)
        s.wait_for(lambda t: "Votre main" in t and len(s.screen.display[0].rstrip()) > 90,
                   10, "a redraw at 100 columns")
        s.press("\x03")
        s.wait_for(lambda t: "Quitter la partie ?" in t, 5, "the leave question")
        s.child.send("o")
        assert s.finish() == 0  # a confirmed leave is no interrupt (was 130)
        out = s.raw.decode("utf-8", "replace")
        assert "journal" in out
        # A leave while the match is played loses it (PROTOCOL.md 12.6): said so.
        assert "elle compte comme perdue" in out, out[-1500:]
    finally:
        s.kill()


def test_join_to_a_closed_port_gives_a_clear_error_and_status(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    s = Screen(["join", f"127.0.0.1:{port}", "--lang", "en"], tmp_path)
    try:
        status = s.finish(20)
        out = s.raw.decode("utf-8", "replace")
        assert status == 2
        assert f"Could not join 127.0.0.1:{port}" in out
        assert "connection refused" in out
    finally:
        s.kill()


def test_host_lobby_and_join_progress_then_a_game_between_two_screens(tmp_path):
    host = Screen(["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--lang", "en",
                   "--name", "amel", "--target", "21", "--pace", "0"], tmp_path / "h")
    guest = None
    try:
        text = host.wait_for(lambda t: re.search(r"127\.0\.0\.1:(\d+)", t), 20, "the address")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        assert "Your table is open" in text
        # The join code: the address and the host key's fingerprint.
        code = re.search(rf"127\.0\.0\.1:{port}#[0-9a-f]{{4}}(?:-[0-9a-f]{{4}}){{3}}",
                         text).group(0)
        assert "they type: chkobba join" in text
        assert text.count(code) == 2  # to give, and in the command (wrapped at 80x24)
        assert "Rules: tunisian: target 21" in text
        assert "Seats (1/2)" in text and "amel (you)" in text and "(free)" in text
        host_key = re.search(r"key ([0-9a-f]{4}(?:-[0-9a-f]{4}){3})", text).group(1)
        assert code.endswith("#" + host_key)
        guest = Screen(["join", code, "--lang", "fr", "--name", "sami", "--pace", "0"],
                       tmp_path / "g")
        # The guest sees the host's key (to check it by voice) and its own seat; each
        # person presses Enter once the fingerprints are checked.
        gtext = guest.wait_for(lambda t: host_key in t and "Entrée pour commencer" in t, 20,
                               "the lobby")
        htext = host.wait_for(lambda t: "sami" in t and "press Enter" in t, 20, "the guest")
        guest.press("\r")
        host.press("\r")
        for s, words in ((host, ("Your hand", "Table", "sami")),
                         (guest, ("Votre main", "Table", "amel"))):
            s.wait_for(lambda t, words=words: all(w in t for w in words), 30, "the game")
        assert host_key in gtext or "Votre main" in gtext
        assert "sami" in htext
        # Chat: t opens a line at the bottom, Esc cancels, Enter sends; both panels
        # show what was sent.
        guest.press("t")
        guest.wait_for(lambda t: "dire :" in t, 5, "the chat input")
        guest.child.send("oops")
        guest.wait_for(lambda t: "oops" in t, 5, "the typed text")
        guest.child.send("\x1b")
        guest.wait_for(lambda t: "dire :" not in t, 5, "the chat input closed")
        guest.press("t")
        guest.wait_for(lambda t: "dire :" in t, 5, "the chat input")
        guest.child.send("salam\r")
        guest.wait_for(lambda t: "vous : salam" in guest.panel(), 10, "our own chat line")
        host.wait_for(lambda t: "sami: salam" in host.panel(), 10, "the guest's chat line")
        assert "oops" not in guest.panel() + host.panel()
        host.press("t")
        host.wait_for(lambda t: "say:" in t, 5, "the chat input")
        host.child.send("ahla\r")
        guest.wait_for(lambda t: "amel : ahla" in guest.panel(), 10, "the host's chat line")
        guest.press("\x03")
        guest.wait_for(lambda t: "Quitter la table ?" in t and "abandonner" in t, 5,
                       "the leave question")
        guest.child.send("s")
        assert guest.finish() == 4  # a step-away, not an interrupt
        # Stepping away is not leaving: the host is told at once, and the game waits.
        host.wait_for(lambda t: "sami stepped away" in t, 10, "the host to see the guest go")
        assert "Game stopped" not in host.text
        host.press("q")
        host.wait_for(lambda t: "step away" in t, 5, "the leave question")
        host.child.send("\x03")  # Ctrl-C twice: step away at once
        assert host.finish() == 4
    finally:
        host.kill()
        if guest is not None:
            guest.kill()


def test_join_to_a_silent_table_times_out_with_a_clear_error(tmp_path):
    with socket.socket() as sock:  # accepts connections (backlog) but never says a word
        sock.bind(("127.0.0.1", 0))
        sock.listen(4)
        port = sock.getsockname()[1]
        s = Screen(["join", f"127.0.0.1:{port}", "--lang", "fr", "--connect-timeout", "1"],
                   tmp_path)
        try:
            s.wait_for(lambda t: f"Connexion à 127.0.0.1:{port}" in t, 10, "the progress")
            status = s.finish(20)
            out = s.raw.decode("utf-8", "replace")
            assert status == 2
            assert f"Impossible de rejoindre 127.0.0.1:{port}" in out
            assert "pas de réponse en 1 s" in out
        finally:
            s.kill()
