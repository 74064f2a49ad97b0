"""The trio shell's order of things around the link's cores, on the in-memory table under
the autojump clock: what leaves a connection, and what people are told, when."""

from __future__ import annotations

import dataclasses

import trio

from chkobba_p2p.events import Spectators
from chkobba_p2p.spectate import watch_message
from chkobba_p2p.stream import Link, LinkClosed
from chkobba_p2p.testing import (
    TABLE_TIMEOUTS,
    GatedController,
    InMemoryTable,
    RecordingController,
)
from chkobba_p2p.wire import ErrorCode

NOW = dataclasses.replace(TABLE_TIMEOUTS, announce=0.0)


async def _until_error(link: Link) -> dict | None:
    while True:
        try:
            await link.receive()
        except LinkClosed as exc:
            return exc.error


async def test_a_spectator_dropped_for_misbehaving_leaves_the_list_before_its_error(
        tmp_path, autojump_clock):
    """A spectator that says what it may not is off the list of watchers (everyone is
    told) at once, then gets its error: not a second later, once its connection is
    drained (a game that ends meanwhile would never tell anyone it left)."""
    host_ctl = RecordingController(0)
    gate = GatedController(gate_at=2)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, gate], timeouts=NOW,
                          spectators=2)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(table.host.run)
        nursery.start_soon(table.joiner(1).run)
        await gate.holding.wait()
        stream = await table.network.transport("10.0.9.9").connect(table.HOST_ADDRESS,
                                                                    port)
        link = Link(stream, NOW)
        nursery.start_soon(link.writer)
        assert (await link.receive())[1]["t"] == "host"
        link.send_msg(watch_message("rude", 1))
        assert (await link.receive())[1]["t"] == "watching"
        await host_ctl.until(lambda c: bool(c.of(Spectators))
                             and c.of(Spectators)[-1].names == ("rude",))
        link.send_msg({"t": "chat", "text": "hello"})
        error = await _until_error(link)
        told = trio.current_time()
        assert error is not None and error["code"] == ErrorCode.PROTOCOL_VIOLATION
        # Nobody reads this end any more, as a rude spectator would: the host does not
        # wait for it to tell the table.
        await host_ctl.until(lambda c: c.of(Spectators)[-1].names == ())
        assert trio.current_time() - told < 0.5
        link.finish()
        await stream.aclose()
        gate.release.set()
    assert table.host.session.finished and table.host.session.aborted is None

