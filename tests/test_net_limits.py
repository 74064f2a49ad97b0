"""The host announces the clocks' limits it enforces (PROTOCOL.md 12.3): a joining peer's
countdowns and conclusions use them, not its own configuration."""

from __future__ import annotations

import dataclasses

import trio
from test_net_support import FAST, GatedBot, host_config, join_config

from chkobba_p2p.linkmsg import MAX_LIMIT, parse_limits
from chkobba_p2p.net import ClientPeer, HostPeer
from chkobba_p2p.peer import BotController, ClockReading, Limits, Lobby, Timeouts


async def test_a_joiner_counts_with_the_hosts_limits_not_its_own(tmp_path):
    host_timeouts = dataclasses.replace(FAST, turn=7.5, reconnect=11.0)
    own = Timeouts(handshake=2.0, frame=1.0, idle=6.0, reconnect=300.0, turn=900.0)
    gate = GatedBot(2)
    async with trio.open_nursery() as nursery:
        host = HostPeer(dataclasses.replace(host_config(tmp_path), timeouts=host_timeouts),
                        BotController("greedy", 0))
        port = await nursery.start(host.run)
        peer = ClientPeer(dataclasses.replace(join_config(tmp_path, port, "amel"),
                                               timeouts=own), gate)
        nursery.start_soon(peer.run)
        with trio.fail_after(20):
            await gate.holding.wait()
        assert peer.host_limits == Limits(move=8, allowance=11)
        assert peer.stalled_host_limit() == 8 + 11 + own.idle
        lobbies = [e for e in gate.events if isinstance(e, Lobby)]
        assert lobbies and all(e.limits == Limits(8, 11) for e in lobbies)
        readings = [e for e in gate.events if isinstance(e, ClockReading)]
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

