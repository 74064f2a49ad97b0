"""A seated key never loses its place to strangers, over loopback TCP (PROTOCOL.md 5.4):
a seat restarted after a crash comes back through a flood of strangers reconnecting as
fast as the host lets them go (a few hundred connections, all from 127.0.0.1), and
nobody is flagged."""

from __future__ import annotations

import dataclasses

import pytest
import trio
from support.net import GatedBot, RawClient, host_config, join_config, run_then_vanish

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.wire.codec import Identity, open_entry
from chkobba_p2p.wire.logfile import read_log


class _SmallDoor(HostPeer):
    MAX_UNAUTHENTICATED = 4  # a flood of a few hundred connections turns it over


@pytest.mark.slow
async def test_a_restarted_seat_gets_back_in_through_a_flood_of_strangers(tmp_path):
    identity = Identity.generate()
    state = tmp_path / "amel.state"
    host = _SmallDoor(host_config(tmp_path), BotController("greedy", 0))
    flooded = 0
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), identity=identity,
                                  state_path=state)
        gate = GatedBot(gate_at=2)
        await run_then_vanish(nursery, ClientPeer(cfg, gate), gate)  # the crash
        stop = trio.Event()

        async def stranger() -> None:  # reconnects the moment it is let go
            nonlocal flooded
            while not stop.is_set() and flooded < 600:
                flooded += 1
                raw = await RawClient.connect(port)
                with trio.move_on_after(5):
                    while await raw.receive() is not None:
                        pass
                await raw.stream.aclose()

        for _ in range(12):
            nursery.start_soon(stranger)
        while host.refused_connections < 20 or 1 not in host.absent:  # the flood is on
            await trio.sleep(0.01)
        # Seat 1 is away while strangers are let go for room: one of them may have been
        # seat 1 coming back, so no flag for its time away could stand now (12.3).
        refused = host.refused_connections
        while host.refused_connections == refused:
            await trio.sleep(0.01)
        assert 1 in host.core.crowded_out
        back = ClientPeer(cfg, BotController("greedy", 1))  # restarted from its state
        with trio.fail_after(60):
            result = await back.run()
        stop.set()
    assert result.completed, result
    assert host.outcome().completed
    assert host.refused_connections >= 20
    for path in (result.log_path, host.outcome().log_path):
        kinds = [open_entry(b).kind for b in read_log(path).bodies]
        assert "abort" not in kinds, "somebody was flagged"
