"""Three at the table in the full-screen client (issue 23): ``chkobba play --players 3``
in a real pseudo-terminal at 80x24 against two bot peers, through a whole match: both
opponents on the table, three scores in the header and three columns in the hand's
scoring table, the result with three totals; the log it keeps replays VALID, and
``chkobba replay`` (text and ``--html``) shows the three scores."""

from __future__ import annotations

import re
import subprocess
import time

import pytest
from support.net import REPO_ROOT, cli_command, cli_env
from test_cli_play_pty import COLS, ROWS, Screen, game_logs, play_turn

from chkobba_p2p.game.record import replay_records
from chkobba_p2p.observe.audit import VALID, audit_log

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

HINTS = re.compile(r"^ {3}\d \S+ → ", re.M)


def test_a_whole_three_player_match_on_an_80x24_screen(tmp_path):
    assert (COLS, ROWS) == (80, 24)
    s = Screen(["play", "--players", "3", "--lang", "en", "--bots", "greedy", "--seed", "4",
                "--target", "3", "--pace", "0"], tmp_path)
    try:
        first = s.wait_for(lambda t: "Your turn" in t or "keep it" in t, 60, "the first decision")
        # Both opponents have their line on the table, each for themselves (no partner).
        assert "bot1 (opponent)" in first and "bot2 (opponent)" in first, first
        assert "partner" not in first
        header = first.splitlines()[0]
        assert re.search(r"you \d+\s+bot\d \d+\s+bot\d \d+\s*$", header), header
        log: dict = {}
        deadline = time.monotonic() + 180  # a hang guard, not a speed goal
        while play_turn(s, log) != "over":
            assert time.monotonic() < deadline, "the match did not end in time"
        scoring = log["scoring"]
        heads = next(line for line in scoring.splitlines() if "carta" not in line
                     and re.search(r"\byou\s+bot\d\s+bot\d\b", line))
        assert heads, scoring
        assert re.search(r"totals \(target 3\)(\s+\d+){3}", scoring), scoring
        text = s.text
        over = log["over"]
        if "Match over" in over:
            # The winner's total first, then whose each other total is.
            won = re.search(r"(You win|bot\d wins) (\d+) \((?:you|bot\d) (\d+), "
                            r"(?:you|bot\d) (\d+)\)", text)
            assert won, text
            assert int(won.group(2)) > max(int(won.group(3)), int(won.group(4)))
        s.press("q")
        assert s.finish() in (0, 3)
    finally:
        s.kill()
    logs = game_logs(tmp_path)
    assert len(logs) == 1
    report = audit_log(logs[0])
    assert report.verdict == VALID and len(report.totals) == 3
    assert replay_records(report.records) == report.records
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path)
    out = subprocess.run(cli_command("replay", str(logs[0])), cwd=REPO_ROOT, env=env,
                         capture_output=True, text=True, timeout=60).stdout
    names = [s.name for s in report.table.seats]
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, report.totals, strict=True))
    assert re.search(r"result after \d+ hands?: " + re.escape(totals), out), out
    assert re.search(r"wins \d+-\d+-\d+", out), out
    html = tmp_path / "match.html"
    subprocess.run(cli_command("replay", str(logs[0]), "--html", str(html)), cwd=REPO_ROOT,
                   env=env, capture_output=True, text=True, timeout=60, check=True)
    page = html.read_text(encoding="utf-8")
    # Every score table has a column per player.
    for name in names:
        assert page.count(f'<th class=\'n\'><span class="who">{name}</span></th>') >= 1, name


def test_replay_view_of_three_player_logs(tmp_path):
    """``chkobba replay --view`` at 80x24: the verdict banner with three totals (the
    winner's first), the score sheet with each of the three players; a resigned 3-player
    match is told as stopped with no winner."""
    from support.audit import play

    from chkobba_p2p.game.rules import PRESETS
    from chkobba_p2p.wire.codec import ErrorCode

    log = play(3, rules=PRESETS["tunisian"].with_target(4), key=b"three-replay"
               ).write_log(tmp_path / "g3.chklog")
    report = audit_log(log)
    s = Screen(["replay", str(log), "--view", "--lang", "en"], tmp_path)
    try:
        s.wait_for(lambda t: "step 1/" in t, 30, "the first step")
        # The banner may wrap, left of the events pane: read that column's first lines.
        banner = " ".join(line.split("│")[0].strip() for line in s.screen.display[1:4])
        won = re.search(r"VALID: a whole match: (\S+) wins (\d+) \(\S+ (\d+), \S+ "
                        r"(\d+)\)", banner)
        assert won, banner + "\n" + s.text
        assert int(won.group(2)) == max(report.totals) and won.group(1) == \
            report.table.seats[report.winner].name
        s.press("\x1b[F")  # End: the match over
        s.press("s")
        s.wait_for(lambda t: "Score sheet" in t, 5, "the score sheet")
        sheet = " ".join(line.strip() for line in s.screen.display[2:-1])
        assert re.search(r"totals: host \d+ \(.*peer1 \d+ .*peer2 \d+", sheet), sheet
    finally:
        s.kill()
    resigned = play(3, key=b"three-resign", stop_after=40, abort_by=1,
                    abort_code=ErrorCode.RESIGNED).write_log(tmp_path / "r3.chklog")
    s = Screen(["replay", str(resigned), "--view", "--lang", "en"], tmp_path)
    try:
        s.wait_for(lambda t: "step 1/" in t, 30, "the first step")
        banner = s.screen.display[1]  # one line, cut to the screen's width
        assert "VALID: peer1 resigned and loses: the two" in banner and "wins" not in banner, \
            s.text
    finally:
        s.kill()


def test_the_host_s_lobby_seats_three_and_the_game_starts_with_two_opponents(tmp_path):
    """``chkobba host --players 3`` on the screen: the lobby counts three seats; two
    ``chkobba bot`` processes take seats 1 and 2; the host's person starts the game and
    the table shows both opponents."""
    host = Screen(["host", "--players", "3", "--port", "0", "--bind", "127.0.0.1",
                   "--no-beacon", "--lang", "en", "--name", "amel", "--target", "2",
                   "--pace", "0", "--no-shuffle-proofs"], tmp_path / "h")
    bots = []
    try:
        text = host.wait_for(lambda t: re.search(r"127\.0\.0\.1:(\d+)", t), 20, "the address")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        assert "Seats (1/3)" in text and text.count("(free)") == 2, text
        env = cli_env()
        env["CHKOBBA_DATA_DIR"] = str(tmp_path / "b")
        for name in ("sami", "hana"):
            bots.append(subprocess.Popen(
                cli_command("bot", f"127.0.0.1:{port}", "--name", name, "--quiet"),
                cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        host.wait_for(lambda t: "Seats (3/3)" in t and "sami" in t and "hana" in t
                      and t.count("✓ ready") == 2 and "Enter ready" in t, 30,
                      "both bots seated and ready")
        host.press("\r")
        text = host.wait_for(lambda t: "Your hand" in t and "Table" in t, 30, "the game")
        # A seat line each: the name, the cards' backs and their count. The word "cards"
        # gives way when the line is short of room (the seat to move shows its clock), and
        # before the cut is decided nobody holds a card yet.
        for name in ("sami", "hana"):
            assert re.search(rf"^ [▶ ] {name}(?: \(opponent\))?\s+▮*\s*\d+(?: cards?)?\b",
                             text, re.M), text
        header = text.splitlines()[0]
        assert re.search(r"you \d+\s+\w+ \d+\s+\w+ \d+\s*$", header), header
    finally:
        host.kill()
        for b in bots:
            b.kill()
            b.wait()


def test_a_three_player_table_on_a_smaller_screen_still_shows_both_opponents(tmp_path):
    """At 64x18 (the events below the table) the lines that say least give way first;
    with two opponents, both opponents' lines stay (the stock line goes before them)."""
    s = Screen(["play", "--players", "3", "--lang", "en", "--bots", "random", "--seed", "5",
                "--target", "3", "--pace", "0"], tmp_path, cols=64, rows=18)
    try:
        turns = 0
        deadline = time.monotonic() + 60
        while turns < 4:
            assert time.monotonic() < deadline, s.text
            text = s.wait_for(lambda t: any(w in t for w in (
                "Your turn", "keep it", "several ways", "Enter: continue", "Match over")),
                30, "the next decision")
            assert "Match over" not in text
            if "Enter: continue" in text:
                s.press("\r")
            elif "keep it" in text:
                s.press("k")
            elif "several ways" in text:
                s.press("1")
            else:
                if not HINTS.search(text):  # the hints: a line per card under the prompt
                    s.press("h")
                    text = s.wait_for(lambda t: HINTS.search(t), 5, "the hints")
                assert "bot1 (opponent)" in text and "bot2 (opponent)" in text, text
                assert "Your hand" in text and "Table" in text, text
                header = s.screen.display[0]
                assert re.search(r"you \d+\s+bot\d \d+\s+bot\d \d+\s*$", header), header
                turns += 1
                s.press("1")
    finally:
        s.kill()
