"""The trio shell's order of things around the link's cores, on the in-memory table under
the autojump clock: what leaves a connection, and what people are told, when."""

from __future__ import annotations

import dataclasses

import trio
from support.frames import watch_message

from chkobba_p2p._shell.stream import Link, LinkClosed
from chkobba_p2p.link.events import Spectators
from chkobba_p2p.link.messages import ErrorMsg, Host, Watching
from chkobba_p2p.testing import (
    TABLE_TIMEOUTS,
    GatedController,
    InMemoryTable,
    RecordingController,
)
from chkobba_p2p.wire.codec import ErrorCode

NOW = dataclasses.replace(TABLE_TIMEOUTS, announce=0.0)


async def _watching(nursery: trio.Nursery, table: InMemoryTable, port: int, name: str,
                    timeouts) -> tuple[trio.abc.Stream, Link]:
    """A spectator ``name`` admitted at the table (its ``watching`` read)."""
    stream = await table.network.transport("10.0.9.9").connect(table.HOST_ADDRESS, port)
    link = Link(stream, timeouts)
    nursery.start_soon(link.writer)
    assert isinstance((await link.receive())[1], Host)
    link.send_msg(watch_message(name, 1))
    assert isinstance((await link.receive())[1], Watching)
    return stream, link


async def _until_error(link: Link) -> ErrorMsg | None:
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
        stream, link = await _watching(nursery, table, port, "rude", NOW)
        await host_ctl.until(lambda c: bool(c.of(Spectators))
                             and c.of(Spectators)[-1].names == ("rude",))
        link.send_msg({"t": "chat", "text": "hello"})
        error = await _until_error(link)
        told = trio.current_time()
        assert error is not None and error.code == ErrorCode.PROTOCOL_VIOLATION
        # Nobody reads this end any more, as a rude spectator would: the host does not
        # wait for it to tell the table.
        await host_ctl.until(lambda c: c.of(Spectators)[-1].names == ())
        assert trio.current_time() - told < 0.5
        link.finish()
        await stream.aclose()
        gate.release.set()
    assert table.host.session.finished and table.host.session.aborted is None


class _Deciding(RecordingController):
    """The host's person thinks ``think`` seconds about playing again."""

    def __init__(self, think: float) -> None:
        super().__init__(0)
        self.think = think

    async def after_match(self, outcome):
        await trio.sleep(self.think)
        return None


async def test_news_of_spectators_pending_when_the_game_ends_still_arrives(
        tmp_path, autojump_clock):
    """A spectator leaves inside the announcement window and the game ends before the
    window does: the host's person still learns, when the window ends, that nobody
    watches (the last state always arrives, PROTOCOL.md 18), while it decides about a
    rematch and the connections are open."""
    timeouts = dataclasses.replace(TABLE_TIMEOUTS, announce=5.0)
    host_ctl = _Deciding(think=30.0)
    gate = GatedController(gate_at=2)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, gate], timeouts=timeouts,
                          spectators=2)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(table.host.run)
        nursery.start_soon(table.joiner(1).run)
        await gate.holding.wait()
        stream, link = await _watching(nursery, table, port, "amel", timeouts)
        await host_ctl.until(lambda c: bool(c.of(Spectators)))
        shown_at = trio.current_time()
        link.finish()
        await stream.aclose()  # gone inside the window: told when it ends
        await trio.sleep(0.1)
        gate.release.set()  # the game ends at once (bots), well inside the window
        await table.host.finished.wait()
        assert trio.current_time() < shown_at + 5.0  # inside the window
        with trio.move_on_after(20):  # the window ends while the host's person thinks
            await host_ctl.until(lambda c: c.of(Spectators)[-1].names == ())
    assert [e.names for e in host_ctl.of(Spectators)] == [("amel",), ()]
