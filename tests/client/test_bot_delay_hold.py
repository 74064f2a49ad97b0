"""``chkobba bot --delay S`` waits S seconds before each move (to watch, to test): it does
not answer at once, so it declares no answer bound (SeatController.answers_within,
PROTOCOL.md 6.2).  Review of issue 44: it kept its level's 0.25 s, and each round its
deal messages waited that long for a choice that came seconds later."""

from __future__ import annotations

from chkobba_cli.commands.bot import BotSeat


def test_a_bot_that_waits_before_its_moves_keeps_no_turn_for_them():
    assert BotSeat("greedy", True).answers_within == 0.25  # answers at once: kept
    assert BotSeat("greedy", True, delay=2.0).answers_within is None
    assert BotSeat("greedy", True, delay=0.1).answers_within is None
