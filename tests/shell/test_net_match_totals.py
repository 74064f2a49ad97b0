"""Real tables tell their bot seats the match (issue 28): before each hand, the totals by
side that the seat's own session computed from the signed transcript, and the target, so
that a match-aware bot (the expert) plays for the match near the target.  In memory, on
trio's mock clock: a host and joiners of the library's own, recording what they are told.
"""

from __future__ import annotations

import pytest
import trio
from support.net import run_then_vanish

from chkobba_p2p._shell.peer import BotController, HandScored, Restored
from chkobba_p2p.bots.expert import ExpertBot
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.wire.codec import Identity


def _expected(scored: list[HandScored], sides: int, target: int
              ) -> list[tuple[tuple[int, ...], int]]:
    """What a seat that played every hand must have been told: zeros before hand 1, then
    before each next hand the totals the previous one ended on."""
    return [((0,) * sides, target)] + [(ev.totals, target) for ev in scored[:-1]]


async def test_every_seat_is_told_the_totals_before_each_hand(tmp_path, autojump_clock):
    target = 11  # several hands (one hand of 11 points would take 7 chkobbas)
    table = InMemoryTable(tmp_path, players=2, rules=Ruleset(target=target))
    outcomes = await table.run()
    assert all(o.completed for o in outcomes)
    host = table.controllers[0]
    assert isinstance(host, RecordingController)
    scored = host.of(HandScored)
    assert len(scored) >= 2  # the test means something only past the first hand
    want = _expected(scored, 2, target)  # type: ignore[arg-type]
    assert want[1][0] != (0, 0)  # a hand always scores (the haya is a point)
    for ctl in table.controllers:
        assert isinstance(ctl, RecordingController)
        assert ctl.matches == want


@pytest.mark.parametrize("players,sides", [(4, 2), (3, 3)])
async def test_the_totals_are_by_side_at_three_and_four_players(players, sides, tmp_path,
                                                                autojump_clock):
    """At 4 players two totals, one per team, the same for partners and opponents; at 3
    each seat is a side."""
    target = 5
    table = InMemoryTable(tmp_path, players=players, rules=Ruleset(target=target))
    outcomes = await table.run()
    assert all(o.completed for o in outcomes)
    scored = table.controllers[0].of(HandScored)  # type: ignore[attr-defined]
    want = _expected(scored, sides, target)
    for ctl in table.controllers:
        assert ctl.matches == want  # type: ignore[attr-defined]
        assert all(len(totals) == sides for totals, _ in ctl.matches)  # type: ignore[attr-defined]


async def test_a_resumed_seat_is_told_the_totals_of_the_game_it_comes_back_to(
        tmp_path, autojump_clock):
    """A joiner's process "dies" in the second hand (its 25th play: a seat plays 18 cards
    a hand at 2 players) and comes back from its saved game: before its next choice it is
    told the totals after hand 1, rebuilt from its log, not zeros."""
    target = 11
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    host_ctl, gate = RecordingController(0), GatedController(25)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, gate], rules=Ruleset(target=target))
    again = RecordingController(1)
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        first = table.joiner(1, identity=identity, state_path=state)
        await run_then_vanish(nursery, first, gate)  # no leave signed: its link just closes
        peer = table.joiner(1, again, identity=identity, state_path=state)
        assert peer.session is not None  # a resume
        out = await peer.run()
        nursery.cancel_scope.cancel()
    assert out.completed
    restored = again.of(Restored)[0]
    assert isinstance(restored, Restored)
    before = [e for e in restored.events if isinstance(e, HandScored)]
    assert len(before) == 1  # it dropped in hand 2
    want = _expected(host_ctl.of(HandScored), 2, target)  # type: ignore[arg-type]
    assert gate.matches == want[:2]  # hands 1 and 2 before it dropped
    assert again.matches == want[1:]  # from hand 2 on: hand 1's totals first
    assert again.matches[0] == (before[0].totals, target) and sum(before[0].totals) > 0


def test_a_bot_seat_hands_the_totals_to_a_match_aware_bot():
    """The table's bot seat passes them on to the expert, which then plays for the match
    near the target; a level without ``see_match`` is simply not told."""
    seat = BotController("expert", 1, move_ms=50)
    assert isinstance(seat.bot, ExpertBot)
    seat.see_match((2, 3), 11)
    assert seat.bot._objective(0) is None  # far from the target: the hand's margin
    seat.see_match((10, 9), 11)
    assert seat.bot._objective(0) is not None  # near it: the chance to win the match
    BotController("greedy", 1).see_match((10, 9), 11)  # no see_match: nothing to tell
