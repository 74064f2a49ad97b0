"""A seat the host refuses is free at once, and a spectator's place as soon as the refused
connection closes: not a second later, when the refused link's drain gave up waiting for
a close that nobody read (a hostile peer's finding: an honest player who came next was
told the table was full).  Over loopback TCP."""

from __future__ import annotations

import pytest
import trio
from support.net import RawClient
from test_hostile_review import _host, _watch

from chkobba_p2p._shell.net import HostPeer
from chkobba_p2p.link.handshake import ClientHandshake
from chkobba_p2p.wire.codec import Identity


async def _seated(port: int, name: str) -> tuple[RawClient, int]:
    """An honest joiner, seated: its connection and the seat the host gave it."""
    raw = await RawClient.connect(port)
    greeting = await raw.receive()
    assert greeting is not None and greeting["t"] == "host"
    await raw.send(ClientHandshake(Identity.generate(), name).on_host(greeting))
    with trio.fail_after(5):
        while (msg := await raw.receive()) is not None and msg["t"] != "welcome":
            assert msg["t"] != "error", msg
    assert msg is not None
    return raw, msg["seat"]


async def _error_of(raw: RawClient) -> dict:
    """The host's error message (the stream stays open: the refused side never closes)."""
    with trio.fail_after(5):
        while (msg := await raw.receive()) is not None and msg["t"] != "error":
            pass
    assert msg is not None, "closed without an error message"
    return msg


@pytest.mark.slow
async def test_a_refused_seat_is_free_for_the_next_player_at_once(tmp_path):
    """At a 3-seat table: the first joiner takes seat 1 and sends junk; the moment its
    error arrives, the next joiner is given seat 1 again (before, seat 2: seat 1 stayed
    taken for the second its drain waited)."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, players=3)
        hostile, seat = await _seated(port, "eve")
        assert seat == 1
        await hostile.send({"t": "no-such-message"})
        assert (await _error_of(hostile))["t"] == "error"
        honest, seat = await _seated(port, "hana")
        assert seat == 1
        await hostile.stream.aclose()
        await honest.stream.aclose()
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("junk", [{"t": "chat", "text": "hi"}, {"t": "no-such-message"}])
@pytest.mark.slow
async def test_a_refused_spectator_s_place_is_free_once_it_closes(tmp_path, junk):
    """The only spectator's place: a spectator that sends what a spectator may not is
    refused; its place stays counted while its connection lingers (so that loops of
    connect, watch, junk stay bounded by the places), and is free as soon as it closes
    (the drain reads the close at once: it waited its whole second before)."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, spectators=1)
        hostile = await _watch(port, "eve")
        await hostile.send(junk)
        assert (await _error_of(hostile))["t"] == "error"
        assert host.admission.spectators == 1  # still counted: it has not closed
        await hostile.stream.aclose()
        with trio.fail_after(0.5):  # well under the drain's second
            while host.admission.spectators:
                await trio.sleep(0.01)
        honest = await _watch(port, "hana")  # asserts it is "watching"
        await honest.stream.aclose()
        nursery.cancel_scope.cancel()
