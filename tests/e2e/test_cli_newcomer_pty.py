"""The table a newcomer reads (issue 26), off a real terminal (pexpect + pyte, 80x24,
both languages): a quick chat key reaches the other side; Esc closes the help at once;
chat and hints survive a resume; the 4-player seats as a picture; the turn's bell.
(Resigning asked again: tests/e2e/test_cli_person_pty.py's resignation test.)

Every wait polls the screen against a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import signal
import time

import pytest
from test_cli_person_pty import (
    free_port,
    headless,
    join_screen,
    listening,
    moves_made,
    play_until,
)
from test_cli_play_pty import LEFT, Screen
from test_cli_table_pty import _lobby_full

from chkobba_cli.tui.keys import ESCAPE_DELAY

#: prompt_toolkit's own wait after Esc (ttimeoutlen 0.5 s + timeoutlen 1 s) was 1.5 s.
OLD_ESC_DELAY = 1.5


def _turn(s: Screen, words: tuple[str, str, str]) -> None:
    """Until our turn to play (keeping a drawn card as the cutter)."""
    turn, cut, keep = words
    deadline = time.monotonic() + 40
    while turn not in s.text:
        assert time.monotonic() < deadline, s.text
        s.pump()
        if cut in s.text:
            s.press(keep)


WORDS = {"en": ("Your turn", "keep it", "k"), "fr": ("À vous", "la garder", "g")}


def test_a_quick_chat_key_reaches_the_other_side_in_each_language(tmp_path):
    host = Screen(["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--lang",
                   "en", "--name", "amel", "--pace", "0"], tmp_path / "h")
    try:
        text = host.wait_for(lambda t: "127.0.0.1:" in t, 20, "the address")
        port = text.split("127.0.0.1:", 1)[1].split("#", 1)[0].split()[0]
        guest = Screen(["join", f"127.0.0.1:{port}", "--lang", "fr", "--name", "sami",
                        "--pace", "0"], tmp_path / "g")
        try:
            guest.wait_for(_lobby_full_fr, 20, "the French lobby")
            host.wait_for(_lobby_full, 20, "the lobby")
            guest.press("w")  # « bien joué », in the sender's language
            host.wait_for(lambda t: "sami: bien joué" in host.panel(), 10,
                          "the phrase at the host")
            assert "vous : bien joué" in guest.panel()
            host.press("b")
            guest.wait_for(lambda t: "amel : bsahtek" in guest.panel(), 10,
                           "the phrase at the joiner")
            host.press("c")
            guest.wait_for(lambda t: "amel : chkobba!" in guest.panel(), 10, "chkobba!")
            assert "you: bsahtek" in host.panel() and "you: chkobba!" in host.panel()
        finally:
            guest.kill()
    finally:
        host.kill()


def _lobby_full_fr(t: str) -> bool:
    return "amel" in t and "sami" in t and "Entrée pour commencer" in t


@pytest.mark.parametrize("lang,title", [("en", "Words of the game"),
                                        ("fr", "Les mots du jeu")])
def test_esc_closes_the_help_at_once(tmp_path, lang, title):
    assert ESCAPE_DELAY <= 0.1  # the delay the client sets (prompt_toolkit's was 1.5 s)
    s = Screen(["play", "--lang", lang, "--pace", "0", "--name", "amel"], tmp_path)
    try:
        s.wait_for(lambda t: "Chkobba" in t and ("Your hand" in t or "Votre main" in t),
                   30, "the table")
        s.press("?")
        text = s.wait_for(lambda t: title in t, 5, "the help")
        # The figures' values of the table's rules (Tunisian deck), in the help.
        # French letters the figures R, D, V (roi, dame, valet).
        figures = "A 1 · Q 8 · J 9 · K 10" if lang == "en" else "A 1 · D 8 · V 9 · R 10"
        assert figures in text, text
        assert "bsahtek" in text and "yalla" in text
        started = time.monotonic()
        s.child.send("\x1b")  # one Esc, no key after it
        s.wait_for(lambda t: title not in t, OLD_ESC_DELAY, "the help closed by one Esc")
        assert time.monotonic() - started < 1.0  # prompt_toolkit alone waited 1.5 s
    finally:
        s.kill()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_four_seats_as_they_sit_around_the_table(tmp_path, lang):
    s = Screen(["play", "--players", "4", "--lang", lang, "--pace", "0", "--name", "amel"],
               tmp_path)
    partner, opponent, you = {"en": ("(partner)", "(opponent)", "you"),
                              "fr": ("(partenaire)", "(adversaire)", "vous")}[lang]
    try:
        s.wait_for(lambda t: partner in t and opponent in t, 30, "the seats")
        rows = [row[:LEFT] for row in s.screen.display]
        top = next(i for i, r in enumerate(rows) if partner in r)
        across = next(w for w in rows[top].split() if w.startswith("bot"))
        seats = [w for w in rows[top + 1].split() if w.startswith("bot")]
        left_seat, right_seat = seats[0], seats[-1]
        assert {across, left_seat, right_seat} == {"bot1", "bot2", "bot3"}, rows
        # The partner is centred above; the opponents left and right, each named so.
        lead, trail = len(rows[top]) - len(rows[top].lstrip()), LEFT - len(rows[top].rstrip())
        assert lead >= 3 and abs(lead - trail) <= 4, rows
        assert rows[top + 2].count(opponent) == 2, rows
        # The whole order of play, from us: the right first (counter-clockwise), then
        # across, then the left -- on the line under the opponents' words, never between
        # them ("(opponent) you → … (opponent)" read as if we were one of them).
        order = f"{you} → {right_seat} → {across} → {left_seat}"
        assert order in rows[top + 3] and opponent not in rows[top + 3], rows
        assert all(len(r.rstrip()) <= LEFT for r in rows)  # nothing under the events
    finally:
        s.kill()


def test_chat_and_hints_survive_a_resume_and_the_bell_rings_for_our_turn(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--quiet"], tmp_path / "h"))
    guest = join_screen(tmp_path, port, "--connect-timeout", "30")
    try:
        play_until([guest], lambda: moves_made(guest) >= 2, 60, "two moves")
        # The headless host played between our moves: the bell rings for our turn.
        guest.wait_for(lambda t: b"\x07" in guest.raw, 20, "the bell")
        guest.press("y")  # yalla
        guest.wait_for(lambda t: "you: yalla" in guest.panel(), 10, "our phrase")
        guest.press("h")
        guest.wait_for(lambda t: "→ takes" in t or "→ stays" in t, 10, "the hints")
        guest.child.kill(signal.SIGKILL)
        guest.child.wait()
        guest = join_screen(tmp_path, port, "--connect-timeout", "30", "--no-bell")
        text = guest.wait_for(lambda t: "back in the game" in t, 20, "the resumed table")
        assert "you: yalla" in guest.panel(), text  # the chat line, brought back
        guest.wait_for(lambda t: "→ takes" in t or "→ stays" in t, 20, "hints still on")
        before = guest.raw.count(b"\x07")
        play_until([guest], lambda: moves_made(guest) >= 4, 60, "two more moves")
        assert guest.raw.count(b"\x07") == before  # --no-bell
    finally:
        guest.kill()
        host.kill()


def test_resigning_is_asked_again_in_french_and_r_is_not_its_key(tmp_path):
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--quiet"], tmp_path / "h"))
    guest = Screen(["join", f"127.0.0.1:{port}", "--lang", "fr", "--name", "sami",
                    "--pace", "0", "--connect-timeout", "30"], tmp_path / "g")
    try:
        guest.wait_for(lambda t: "Entrée pour commencer" in t, 30, "the lobby")
        guest.press("\r")
        guest.wait_for(lambda t: "Votre main" in t, 30, "the table")
        guest.press("q")
        text = guest.wait_for(lambda t: "x  abandonner" in t, 5, "the leave choice")
        assert "redemandé" in text  # the dialog says resigning is asked again
        guest.press("r")  # the end screen's rematch key: nothing here
        assert "Abandonner la partie ?" not in guest.text and "x  abandonner" in guest.text
        guest.press("x")
        guest.wait_for(lambda t: "Abandonner la partie ?" in t and "[o]ui, abandonner" in t,
                       5, "the confirmation")
        guest.press("n")  # no: back to the game
        guest.wait_for(lambda t: "Abandonner" not in t and "x  abandonner" not in t, 5,
                       "the game again")
        guest.press("q")
        guest.wait_for(lambda t: "x  abandonner" in t, 5, "the leave choice again")
        guest.press("x")
        guest.wait_for(lambda t: "Abandonner la partie ?" in t, 5, "the confirmation again")
        guest.child.send("o")  # oui
        guest.wait_for(lambda t: "Vous avez abandonné" in t, 15, "the result")
        guest.press("q")
        assert guest.finish() == 0
        assert host.wait(30) == 0
    finally:
        guest.kill()
        host.kill()
