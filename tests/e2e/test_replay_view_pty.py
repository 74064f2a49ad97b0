"""``chkobba replay LOG --view`` in a real pseudo-terminal (pexpect + pyte, 80x24): stepping
move by move and hand by hand through a valid log, the score sheets, the verdict banner;
and for a log with a cheat, the offending entry highlighted with the blamed player."""

from __future__ import annotations

import dataclasses
import re

import pytest
from support.audit import Played, play
from test_cli_play_pty import Screen

from chkobba_cli.words.i18n import card_letters
from chkobba_p2p.game.cards import Card, card
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.transcript.bodies import PlayAction
from chkobba_p2p.transcript.session import Session

RIGHT, LEFT, PGDN, PGUP, HOME, END = "\x1b[C", "\x1b[D", "\x1b[6~", "\x1b[5~", "\x1b[H", "\x1b[F"
# The entry's number is the first words to give way when 4 names need the header's room
# (names are never cut below 6 characters): then it reads as 0 here.
STEP = re.compile(r"hand (\d+) · (?:play \d+ · )?step (\d+)/(\d+)(?: · entry #(\d+))?")


def _step(s: Screen) -> tuple[int, int, int, int]:
    m = STEP.search(s.screen.display[0])
    assert m, s.text
    return tuple(int(x or 0) for x in m.groups())  # type: ignore[return-value]


@pytest.fixture(scope="module")
def valid_log(tmp_path_factory) -> tuple[Played, object]:
    played = play(4, seed=5, key=b"view-valid")
    return played, played.write_log(tmp_path_factory.mktemp("view") / "valid.chklog")


def test_stepping_through_a_valid_log(valid_log, tmp_path):
    played, log = valid_log
    report = audit_log(log)
    hands = sum(1 for r in report.records if r["type"] == "hand")
    s = Screen(["replay", str(log), "--view", "--lang", "en"], tmp_path)
    try:
        s.wait_for(lambda t: "step 1/" in t, 30, "the first step")
        # The verdict banner, from the first step: the winners (a team: "win") first, with
        # their score first.
        won = re.search(r"VALID: a whole match: (.+?) & (.+?) win (\d+)-(\d+)", s.text)
        assert won and int(won.group(3)) > int(won.group(4)), s.text
        assert "seat" not in s.screen.display[1]
        hand, at, total, _ = _step(s)
        assert (hand, at) == (1, 1) and total > 40
        for _ in range(6):
            s.press(RIGHT)
        assert _step(s)[1] == 7
        assert "Table" in s.text and re.search(r"[▮] ?\d cards?|\d cards", s.text)
        s.press(LEFT)
        assert _step(s)[1] == 6
        # A key the viewer has no use for says so in the bar (it said nothing), and the
        # next key clears it.
        s.press("z")
        s.wait_for(lambda t: "that key does nothing here" in t, 5, "the hint")
        s.press(RIGHT)
        s.wait_for(lambda t: "that key does nothing here" not in t, 5, "the hint cleared")
        assert _step(s)[1] == 7
        s.press(LEFT)
        # Hand by hand; back from the start of hand 2 by one move is hand 1's score sheet.
        s.press(PGDN)
        hand2 = _step(s)
        assert hand2[0] == 2
        s.press(LEFT)
        assert _step(s)[0] == 1
        s.wait_for(lambda t: "this hand" in t and "totals" in t and "was dealt" in t, 5,
                   "hand 1's score sheet and the cards its seats were dealt")
        s.press(PGUP)
        assert _step(s)[:2] == (1, 1)
        # The end: the match over, every hand in the score sheet.
        s.press(END)
        assert _step(s)[1] == total
        s.press("s")
        s.wait_for(lambda t: "Score sheet" in t, 5, "the score sheet")
        # By name, with the categories each side scored; the latest hands and the totals.
        sheet = " ".join(line[:51].strip() for line in s.screen.display[2:-1])  # left of │
        last = [r for r in report.records if r["type"] == "hand"][-1]
        sides = [" & ".join(report.table.seats[x].name for x in team) for team in last["teams"]]
        m = re.search(rf"hand {hands}: (.+?) → (.+?) hand|hand {hands}: (.+?) → (.+?) totals:",
                      sheet)
        assert m, sheet
        scored = m.group(1) or m.group(3)
        for side, name in enumerate(sides):
            assert f"{name} +{last['score']['points'][side]} (" in scored, scored
        for cat, w in last["score"]["categories"].items():
            assert (cat in scored) == (w is not None), (cat, scored)
        assert re.search(rf"totals: {re.escape(sides[0])} {last['totals'][0]} \(", sheet), sheet
        assert not re.search(r"hand \d+: \d+ / \d+", sheet)  # the old bare sheet
        s.press(RIGHT)
        assert _step(s)[1] == total  # clamped at the end
        s.press("q")
        assert s.finish() == 0  # the exit status of a valid log
    finally:
        s.kill()


CARD = re.compile(r"(?:10|[A1-9JQKCDRV])[♠♥♦♣]")  # French figures: R D V


@pytest.mark.parametrize(("lang", "note"), [
    ("en", "revealed at the end of the hand"), ("fr", "révélés à la fin de la manche")])
def test_every_hand_is_face_up_once_its_seeds_opened(valid_log, tmp_path, lang, note):
    """After the opening deal of hand 1, each seat's line shows the cards the record says it
    was dealt (the audit's full-knowledge replay), and the screen says why it can."""
    _, log = valid_log
    report = audit_log(log)
    rec = next(r for r in report.records if r["type"] == "hand")
    names = [s.name for s in report.table.seats]
    figures = report.table.rules.figures
    events = [next(iter(e.items())) for e in rec["events"]]
    expected: dict[int, set[str]] = {s: set() for s in range(4)}
    deals = 0
    for kind, b in events:
        if kind == "deal":
            deals += 1
            for who, c in zip(b["to"], b["cards"], strict=True):
                if who is not None:
                    expected[who].add(card_letters(card(c).label(figures), lang))
            if not b["draw"]:
                break
        elif kind == "cut" and not b["keep"]:
            expected[b["seat"]].discard(card_letters(card(b["card"]).label(figures), lang))
    steps = deals + 1  # the draw, the cut, the opening deal
    s = Screen(["replay", str(log), "--view", "--lang", lang], tmp_path)
    try:
        s.wait_for(lambda t: "/" in t, 30, "the first step")
        for _ in range(steps - 1):
            s.press(RIGHT)
        s.wait_for(lambda t: note in t, 5, "the face-up note")
        for seat, name in enumerate(names):
            # The seat's own line (a team's captures line starts "name & partner").
            (line,) = [x for x in s.screen.display
                       if re.match(rf"\W*{re.escape(name)} (?!&)", x)]
            shown = set(CARD.findall(line[:51]))
            assert shown == expected[seat] and len(shown) == 3, (line, expected[seat])
        s.press("q")
        assert s.finish() == 0
    finally:
        s.kill()


def _forge_take(session: Session) -> bool:
    a = session._decided
    if not isinstance(a, PlayAction):
        return False
    table = session.game.hand.table
    session._decided = dataclasses.replace(a, take=() if a.take else (table[0],) if table
                                           else (Card(0),))
    return True


def test_a_cheat_log_highlights_the_offending_entry_and_the_blamed_player(tmp_path):
    played = play(2, cheater=1, hook=_forge_take, seed=9, key=b"view-forged")
    log = played.write_log(tmp_path / "cheat.chklog")
    s = Screen(["replay", str(log), "--view", "--lang", "en"], tmp_path)
    try:
        s.wait_for(lambda t: "step 1/" in t, 30, "the first step")
        assert f"INVALID at entry #{played.cheated_at}" in s.text
        assert "blamed: peer1" in s.text
        assert "this entry is refused" not in s.text  # not at the first step
        s.press(END)
        s.wait_for(lambda t: "this entry is refused" in t, 5, "the offending entry")
        assert _step(s)[3] == played.cheated_at
        # The highlight is drawn in reverse video, in the error colour.
        row = next(i for i, line in enumerate(s.screen.display)
                   if "this entry is refused" in line)
        col = s.screen.display[row].index("this entry")
        assert s.screen.buffer[row][col].reverse
        assert s.text.count("blamed: peer1") >= 2  # the banner and the highlighted entry
        s.press("q")
        assert s.finish() == 1  # the exit status of an invalid log
    finally:
        s.kill()


def test_a_stopped_game_is_said_in_the_players_words_and_language(tmp_path):
    from chkobba_p2p.wire.codec import ErrorCode

    played = play(2, seed=4, key=b"view-stopped", stop_after=40, abort_by=0,
                  abort_code=ErrorCode.TIMEOUT)
    log = played.write_log(tmp_path / "stopped.chklog")
    names = [s.name for s in audit_log(log).table.seats]
    s = Screen(["replay", str(log), "--view", "--lang", "fr"], tmp_path)
    try:
        s.wait_for(lambda t: "INCOMPLÈTE" in t, 30, "the verdict banner")
        banner = " ".join(line.strip() for line in s.screen.display[1:4])
        # The claim in names and French: no seat number, no English, no protocol code.
        assert names[0] in banner and names[1] in banner, banner
        assert not re.search(r"seat|place \d|ended the game|timeout", banner), banner
        s.press("q")
        assert s.finish() == 3  # the exit status of an incomplete log
    finally:
        s.kill()


def test_view_needs_a_terminal(valid_log, tmp_path):
    import subprocess

    from support.net import REPO_ROOT, cli_command, cli_env
    _, log = valid_log
    done = subprocess.run(cli_command("replay", str(log), "--view"), cwd=REPO_ROOT,
                          env=cli_env(), capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "--view needs a terminal" in done.stderr


@pytest.mark.parametrize(("lang", "labels"), [
    ("en", r"(\w+), (?:play \d+|the cut): (forced|best|good|inaccuracy|mistake|blunder)"),
    ("fr", r"(\w+), (?:coup \d+|la coupe) : (forcé|meilleur coup|bon|imprécision|erreur|gaffe)")])
def test_review_shows_a_progress_bar_then_the_grade_beside_each_move(tmp_path, lang, labels):
    played = play(2, seed=21, key=b"view-review")
    log = played.write_log(tmp_path / "review.chklog")
    names = [s.name for s in audit_log(log).table.seats]
    # On a terminal, the coach's progress bar while it works (enough samples to see it).
    bar = Screen(["replay", str(log), "--review", "--samples", "60"], tmp_path)
    try:
        bar.wait_for(lambda t: re.search(r"reviewing [█░]{30} \d+/\d+ decisions", t), 120,
                     "the progress bar")
        assert bar.finish(120) == 0
    finally:
        bar.kill()
    s = Screen(["replay", str(log), "--view", "--review", "--samples", "4", "--lang", lang],
               tmp_path)
    try:
        s.wait_for(lambda t: re.search(r"(step|étape) 1/", t), 120, "the first step")
        seen = set()
        for _ in range(8):  # the draw, the cut, the deal, then plays: each graded
            s.press(RIGHT)
            m = re.search(r"coach, " + labels, s.text)
            if m:
                assert m.group(1) in names
                seen.add(m.group(2))
        assert seen, s.text
        s.press("q")
        assert s.finish() == 0
    finally:
        s.kill()


def test_keys_typed_while_the_coach_works_are_neither_echoed_nor_applied(tmp_path):
    """Keys pressed during the progress bar garbled it (``decisions^[[4~``) and were
    applied once the viewer opened: now they are not echoed, and dropped."""
    played = play(2, seed=21, key=b"view-review")
    log = played.write_log(tmp_path / "review.chklog")
    s = Screen(["replay", str(log), "--view", "--review", "--samples", "60", "--lang", "en"],
               tmp_path)
    try:
        s.wait_for(lambda t: re.search(r"reviewing [█░]{30} \d+/\d+ decisions", t), 120,
                   "the progress bar")
        s.child.send("zz" + END + "q")  # q would quit the viewer, End jump to the last step
        s.wait_for(lambda t: "step 1/" in t, 120, "the first step")
        s.pump(0.5)
        assert s.child.isalive(), "a key typed during the review quit the viewer"
        assert _step(s)[1] == 1, s.text
        assert "zz" not in s.raw.decode("utf-8", "replace"), "echoed"
        s.press("q")
        assert s.finish() == 0
    finally:
        s.kill()
