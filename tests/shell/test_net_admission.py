"""Admission by identity, never by address (PROTOCOL.md 5.4), over loopback TCP: what
strangers and spectators sharing a seated player's address hold can never lock that
player out, and watchers filling every spectator place leave the seats open.

Every connection here comes from 127.0.0.1, like a household behind one NAT, another
user of the same machine, or everyone behind Tor."""

from __future__ import annotations

import pytest
import trio
from support.frames import watch_message
from support.net import GatedBot, RawClient, host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.wire.codec import open_entry
from chkobba_p2p.wire.logfile import read_log


async def _spectator(port: int, name: str) -> RawClient:
    raw = await RawClient.connect(port)
    assert (await raw.receive())["t"] == "host"
    await raw.send(watch_message(name, 1))
    assert (await raw.receive())["t"] == "watching"
    return raw


def _kinds(path) -> list[str]:
    return [open_entry(b).kind for b in read_log(path).bodies]


@pytest.mark.slow
async def test_strangers_and_spectators_at_a_players_address_never_lock_it_out(tmp_path):
    """8 spectators and 8 silent sockets, reopened whenever the host closes them, all at
    the seated guest's address: the guest's connection breaks, it comes back, the match
    completes and nobody is blamed (the old per-address cap of 8 refused its resume
    until its allowance ran out, and the host signed ``peer_left`` against it)."""
    gate = GatedBot(gate_at=2)
    host = HostPeer(host_config(tmp_path, spectators=8), BotController("greedy", 0))
    reopened = 0
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        guest = ClientPeer(join_config(tmp_path, port, "guest"), gate)
        stop = trio.Event()

        async def silent():  # connects, says nothing, and comes back when closed
            nonlocal reopened
            while not stop.is_set():
                raw = await RawClient.connect(port)
                with trio.move_on_after(30):
                    while await raw.receive() is not None:
                        pass
                await raw.stream.aclose()
                reopened += 1

        async def attack():
            await gate.holding.wait()  # seated and playing
            watchers = [await _spectator(port, f"w{i}") for i in range(8)]
            for _ in range(8):
                nursery.start_soon(silent)
            while host.admission.strangers < 8:
                await trio.sleep(0.01)
            assert host.admission.spectators == 8
            await guest.link.stream.aclose()  # the guest's connection dies
            gate.release.set()
            await guest_done.wait()
            stop.set()
            for w in watchers:
                await w.stream.aclose()

        guest_done = trio.Event()
        nursery.start_soon(attack)
        with trio.fail_after(60):
            result = await guest.run()
        guest_done.set()
    assert result.completed, result
    assert host.outcome().completed
    assert any(type(e).__name__ == "Resumed" for e in gate.events)
    for path in (result.log_path, host.outcome().log_path):
        assert "abort" not in _kinds(path), "somebody was blamed"


@pytest.mark.slow
async def test_a_player_joins_a_table_whose_64_spectator_places_are_taken(tmp_path):
    """With ``spectators=64``, 64 watchers fill every place; the seats stay open: a
    player joins, the game starts and completes."""
    host = HostPeer(host_config(tmp_path, spectators=64), BotController("greedy", 0))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        watchers = [await _spectator(port, f"w{i}") for i in range(64)]
        assert host.admission.spectators == 64
        late = await RawClient.connect(port)  # a 65th is refused, with a reason
        assert (await late.receive())["t"] == "host"
        await late.send(watch_message("late", 1))
        with trio.fail_after(5):
            assert (await late.until_error())["code"] == 206  # spectators_closed
        guest = ClientPeer(join_config(tmp_path, port, "guest"), BotController("greedy", 1))
        with trio.fail_after(60):
            result = await guest.run()
        for w in watchers:
            await w.stream.aclose()
    assert result.completed, result
    assert host.outcome().completed


@pytest.mark.slow
async def test_a_stranger_that_hangs_up_before_its_greeting_is_closed_and_forgotten(tmp_path):
    """Its connection ends at once on the host's side too (its writer is not left
    waiting for the host's end): strangers who hang up cost nothing afterwards."""
    host = HostPeer(host_config(tmp_path), BotController("greedy", 0))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        for _ in range(20):
            raw = await RawClient.connect(port)
            assert (await raw.receive())["t"] == "host"
            await raw.stream.send_eof()  # we say nothing more, and keep listening
            with trio.fail_after(5):
                assert await raw.receive() is None  # the host closed its end as well
            await raw.stream.aclose()
        assert host.admission.strangers == 0
        nursery.cancel_scope.cancel()
