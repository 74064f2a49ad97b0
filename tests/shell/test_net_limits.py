"""The host announces the clocks' limits it enforces (PROTOCOL.md 12.3): a joining peer's
countdowns and conclusions use them, not its own configuration, and a resume is told
what its seat has left (in memory on trio's mock clock: no sockets, no real time)."""

from __future__ import annotations

import dataclasses

import trio
from support.net import FAST, run_then_vanish

from chkobba_p2p._shell.peer import ClockReading, Limits, Lobby, Resumed, Timeouts, Waiting
from chkobba_p2p.link.messages import MAX_LIMIT
from chkobba_p2p.link.messages import read_limits as parse_limits
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.wire.codec import Identity


async def test_a_joiner_counts_with_the_hosts_limits_not_its_own(tmp_path, autojump_clock):
    host_timeouts = dataclasses.replace(FAST, turn=7.5, reconnect=11.0)
    own = Timeouts(handshake=2.0, frame=1.0, idle=6.0, reconnect=300.0, turn=900.0)
    gate = GatedController(2)
    table = InMemoryTable(tmp_path, timeouts=host_timeouts,
                          controllers=[RecordingController(0), gate])
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        peer = table.joiner(1, timeouts=own)
        nursery.start_soon(peer.run)
        await gate.holding.wait()
        assert peer.host_limits == Limits(move=8, allowance=11)
        assert peer.stalled_host_limit() == 8 + 11 + own.idle
        lobbies = gate.of(Lobby)
        assert lobbies and all(e.limits == Limits(8, 11) for e in lobbies)
        readings = gate.of(ClockReading)
        assert readings
        for clock in readings[-1].clocks:
            assert clock.move_left <= 8 and clock.allowance_left == 11.0
        assert all(r.limits == Limits(8, 11) for r in readings)
        nursery.cancel_scope.cancel()


def test_limits_out_of_bounds_are_ignored():
    assert parse_limits({"move": 900, "away": 120}) == (900, 120)
    assert parse_limits({"move": 1, "away": 0}) == (1, 0)
    assert parse_limits({"move": MAX_LIMIT, "away": MAX_LIMIT}) == (MAX_LIMIT, MAX_LIMIT)
    for bad in (None, [], "900", {"move": 900}, {"away": 120},
                {"move": 0, "away": 1}, {"move": -1, "away": 1}, {"move": 1, "away": -1},
                {"move": True, "away": 1}, {"move": 1, "away": False},
                {"move": MAX_LIMIT + 1, "away": 1}, {"move": 1, "away": 1 << 64},
                {"move": "1", "away": 1}, {"move": b"\x01", "away": 1}):
        assert parse_limits(bad) is None, bad



async def test_a_resumed_joiner_is_told_what_its_seat_has_left_of_its_allowance(
        tmp_path, autojump_clock):
    """A joiner that comes back has spent part of its allowance of time away: the host
    says how much is left in its welcome (``limits.left``), and the joiner's own clock
    (its countdown, its step-away dialog) shows that, not a full allowance again (in
    memory: the joiner's process "dies" at its second move, its connection closed)."""
    host_timeouts = dataclasses.replace(FAST, reconnect=12.0)
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    host_ctl, gate = RecordingController(0), GatedController(2)
    table = InMemoryTable(tmp_path, timeouts=host_timeouts, controllers=[host_ctl, gate])

    def waiting_below(below: int):
        return lambda c: any(isinstance(e, Waiting) and e.seat == 1 and e.seconds <= below
                             for e in c.events)

    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        first = table.joiner(1, identity=identity, state_path=state, timeouts=FAST)
        await run_then_vanish(nursery, first, gate)  # no leave signed: its link just closes
        await host_ctl.until(waiting_below(10))
        again = GatedController(1)  # holds the floor at once: the clocks stand still
        peer = table.joiner(1, again, identity=identity, state_path=state, timeouts=FAST)
        assert peer.session is not None  # a resume
        nursery.start_soon(peer.run)
        await again.holding.wait()
        await host_ctl.until(lambda c: any(isinstance(e, Resumed) and e.seat == 1
                                           for e in c.events))
        told = peer.clocks()[1].allowance_left
        host_left = table.host.clocks()[1].allowance_left
        readings = again.of(ClockReading)
        nursery.cancel_scope.cancel()
    assert host_left <= told <= host_left + 1  # the host's figure, rounded up
    assert told <= 10 < host_timeouts.reconnect  # not a full allowance again
    assert readings and readings[-1].clocks[1].allowance_left == told
    assert readings[-1].limits == Limits(int(FAST.turn), 12)


def test_the_allowance_left_is_read_within_the_announced_allowance():
    from chkobba_p2p.link.messages import read_allowance_left as parse_allowance_left

    assert parse_allowance_left({"move": 5, "away": 30, "left": 12}, 30) == 12
    assert parse_allowance_left({"move": 5, "away": 30, "left": 0}, 30) == 0
    for bad in (31, -1, 1.5, True, "12", None, 2**64):
        assert parse_allowance_left({"move": 5, "away": 30, "left": bad}, 30) is None
    assert parse_allowance_left({"move": 5, "away": 30}, 30) is None
    assert parse_allowance_left([12], 30) is None


async def test_a_resumed_joiner_is_told_how_long_the_move_it_owes_has_run(
        tmp_path, autojump_clock):
    """A joiner whose process died while it was to play comes back to a move clock the
    host has been running (and paused while it was gone): the welcome says how long that
    move has run (``limits.used``), and the joiner shows what the host allows, not a fresh
    move (a first-time player saw 14:57 against the host's 14:42)."""
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    host_ctl, gate = RecordingController(0), GatedController(2)
    table = InMemoryTable(tmp_path, timeouts=FAST, controllers=[host_ctl, gate])

    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        first = table.joiner(1, identity=identity, state_path=state, timeouts=FAST)
        # Seat 1 thinks over its move for 8.5 s (mock time), connected, then "dies".
        await run_then_vanish(nursery, first, gate, thinking=8.5)
        await host_ctl.until(lambda c: any(isinstance(e, Waiting) and e.seat == 1
                                           for e in c.events))
        again = GatedController(1)  # holds the floor at once: the clocks stand still
        peer = table.joiner(1, again, identity=identity, state_path=state, timeouts=FAST)
        nursery.start_soon(peer.run)
        await again.holding.wait()
        await host_ctl.until(lambda c: any(isinstance(e, Resumed) and e.seat == 1
                                           for e in c.events))
        host_clock, ours = table.host.clocks()[1], peer.clocks()[1]
        readings = again.of(ClockReading)
        nursery.cancel_scope.cancel()
    assert host_clock.owes and ours.owes
    assert FAST.turn - 10 <= host_clock.move_left <= FAST.turn - 8.5  # paused while gone
    # The host's figure, its seconds run rounded up: never more time than it allows.
    assert host_clock.move_left - 1 <= ours.move_left <= host_clock.move_left
    assert readings and readings[-1].clocks[1].move_left == ours.move_left


def test_the_move_used_is_read_within_the_announced_move_limit():
    from chkobba_p2p.link.messages import read_move_used as parse_move_used

    assert parse_move_used({"move": 30, "away": 10, "used": 9}, 30) == 9
    assert parse_move_used({"move": 30, "away": 10, "used": 30}, 30) == 30
    for bad in (31, -1, 1.5, True, "9", None, 2**64):
        assert parse_move_used({"move": 30, "away": 10, "used": bad}, 30) is None
    assert parse_move_used({"move": 30, "away": 10}, 30) is None


async def test_the_hosts_own_lobby_shows_the_terms_before_anyone_joins(tmp_path,
                                                                      autojump_clock):
    """A first-time player's host lobby showed no clocks and no spectators' places
    until someone sat down: the table's terms are in its first lobby, the host alone."""
    host_ctl = RecordingController(0)
    table = InMemoryTable(tmp_path, timeouts=dataclasses.replace(FAST, turn=45.0),
                          controllers=[host_ctl, GatedController(2)])
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        lobbies = [e for e in host_ctl.events if isinstance(e, Lobby)]
        nursery.cancel_scope.cancel()
    assert lobbies, host_ctl.events
    first = lobbies[0]
    assert first.limits == Limits(45, FAST.reconnect)
    assert first.seats[0] is not None and all(s is None for s in first.seats[1:])


async def test_a_late_spectators_move_clock_is_the_hosts(tmp_path, autojump_clock):
    """A spectator admitted while a seat has been thinking over its move for 9.5 s is
    told so by ``watching`` (``limits.used``, as a resume's welcome): its countdown is
    the players' (a stranger's client found none, and ours showed a fresh move)."""
    from chkobba_p2p._shell.watch import Spectator, WatchConfig

    gate = GatedController(2)
    table = InMemoryTable(tmp_path, timeouts=FAST,
                          controllers=[RecordingController(0), gate], spectators=1)
    caught_up = trio.Event()
    readings: list[ClockReading] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        nursery.start_soon(table.joiner(1).run)
        await gate.holding.wait()
        await trio.sleep(9.5)  # mock time: seat 1 thinks over its move, connected
        config = WatchConfig(f"{table.HOST_ADDRESS}:{table.host.port}", name="late",
                             log_path=tmp_path / "late.chklog", timeouts=FAST,
                             transport=table.network.transport("10.0.2.1"))

        def seen(ev: object) -> None:
            obs = spectator.observer
            if isinstance(ev, ClockReading) and obs is not None \
                    and obs.entries >= spectator.backlog:
                readings.append(ev)
                caught_up.set()

        spectator = Spectator(config, seen)
        nursery.start_soon(spectator.run)
        with trio.fail_after(20):  # mock time: well inside seat 1's move clock
            await caught_up.wait()
        hosts = table.host.clocks()[1]
        nursery.cancel_scope.cancel()
    ours = readings[0].clocks[1]
    assert hosts.owes and ours.owes
    assert hosts.move_left == FAST.turn - 9.5
    assert ours.move_left == FAST.turn - 10  # the host's figure, rounded up
    assert readings[0].limits == Limits(int(FAST.turn), int(FAST.reconnect))
