"""A hostile peer's review of the host's admission, backlogs and spectators (issue 21),
over loopback TCP only (127.0.0.0/8), every loop bounded.

A test that passes documents an attack that fails.  An attack that succeeds is written
as ``xfail(strict=True)`` with the reason: main stays green, and the day it is fixed the
test fails as XPASS, to be turned into a plain test."""

from __future__ import annotations

import dataclasses
import os

import pytest
import trio
from support.frames import watch_message
from support.net import FAST, RawClient, host_config

from chkobba_p2p._shell.net import HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.link.handshake import ClientHandshake
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import Identity

# Long enough that nothing here expires by itself while an attack runs.
SLOW = dataclasses.replace(FAST, handshake=10.0, frame=5.0)


class SmallHost(HostPeer):
    MAX_UNAUTHENTICATED = 4


async def _connect_from(address: str, port: int) -> RawClient:
    sock = trio.socket.socket()
    await sock.bind((address, 0))
    await sock.connect(("127.0.0.1", port))
    return RawClient(trio.SocketStream(sock))


async def _host(tmp_path, nursery, cls=SmallHost, timeouts=SLOW, **kw
                ) -> tuple[HostPeer, int]:
    config = dataclasses.replace(host_config(tmp_path, **kw), timeouts=timeouts)
    host = cls(config, BotController("greedy", 0))
    port = await nursery.start(host.run)
    return host, port


async def _speaking(address: str, port: int) -> RawClient:
    """A stranger that starts a hello and never finishes it: the first bytes of a frame's
    length (a slow hello looks just the same to the host)."""
    raw = await _connect_from(address, port)
    assert (await raw.receive())["t"] == "host"
    await raw.send_raw(b"\x00\x00")
    return raw


async def _all_heard(host: HostPeer, n: int) -> None:
    with trio.fail_after(5):
        while host.admission.strangers < n or not all(
                s.heard for s in host.admission._strangers.values()):
            await trio.sleep(0.01)


async def _player(port: int, rtt: float, address: str = "127.0.0.1",
                  during=None) -> str:
    """An honest joiner whose greeting takes ``rtt`` seconds to reach the host (Tor, a
    far network); ``during()`` runs meanwhile.  What the host answered: ``welcome``,
    ``error`` or ``closed`` (let go before its greeting)."""
    raw = await _connect_from(address, port)
    greeting = await raw.receive()
    assert greeting is not None and greeting["t"] == "host"
    hello = ClientHandshake(Identity.generate(), "player").on_host(greeting)
    if during is not None:
        await during()
    await trio.sleep(rtt)
    try:
        await raw.send(hello)
        with trio.fail_after(5):
            msg = await raw.receive()
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        return "closed"
    finally:
        await raw.stream.aclose()
    return "closed" if msg is None else msg["t"]


# ------------------------------------------------------------ 1. locking a player out

@pytest.mark.slow
async def test_silent_strangers_held_never_push_out_a_slow_newcomer(tmp_path):
    """The budget full of silent sockets at the player's address, and one more silent
    stranger arriving within the player's (slow) round trip: a silent one older than the
    player goes, the player is welcomed."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery)
        held = []
        for _ in range(SmallHost.MAX_UNAUTHENTICATED):
            raw = await _connect_from("127.0.0.1", port)
            assert (await raw.receive())["t"] == "host"
            held.append(raw)

        async def one_more():
            raw = await _connect_from("127.0.0.1", port)
            held.append(raw)

        assert await _player(port, 0.3, during=one_more) == "welcome"
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_half_hellos_from_other_addresses_and_one_newcomer_keep_no_player_out(tmp_path):
    """(Once an attack: a byte protected a stranger.)  4 strangers from 127.0.0.2..5
    each send two bytes of a frame and stop (they are 'heard'); a player connects from
    127.0.0.1 (one of them goes for room), and while its hello is on its way ONE more
    stranger connects from 127.0.0.6."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery)
        held = [await _speaking(f"127.0.0.{2 + i}", port)
                for i in range(SmallHost.MAX_UNAUTHENTICATED)]
        await _all_heard(host, SmallHost.MAX_UNAUTHENTICATED)

        async def one_more():
            held.append(await _speaking("127.0.0.6", port))

        assert await _player(port, 0.3, during=one_more) == "welcome"
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_half_hellos_at_the_players_address_keep_no_player_out(tmp_path):
    """The same from the player's own address (a NAT, another user of the machine)."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery)
        held = [await _speaking("127.0.0.1", port)
                for _ in range(SmallHost.MAX_UNAUTHENTICATED)]
        await _all_heard(host, SmallHost.MAX_UNAUTHENTICATED)

        async def one_more():
            held.append(await _speaking("127.0.0.1", port))

        assert await _player(port, 0.3, during=one_more) == "welcome"
        nursery.cancel_scope.cancel()


@pytest.mark.xfail(strict=True, reason=(
    "budget + 2 silent sockets that reconnect the moment they are let go evict each "
    "other in a loop at loopback speed (thousands a second); a player whose greeting "
    "takes 0.2 s is always let go first: the 'flood' of PROTOCOL.md 5.4 costs only "
    "budget + 2 sockets (66 at the default budget)"))
@pytest.mark.slow
async def test_silent_sockets_reopened_beyond_the_budget(tmp_path):
    """6 silent sockets (the budget is 4) at the player's address, each reopened as soon
    as the host lets it go: they churn each other out.  A player with a 0.2 s round
    trip tries 5 times."""
    results = []
    reopened = 0
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery)
        stop = trio.Event()

        async def silent():
            nonlocal reopened
            while not stop.is_set() and reopened < 3000:
                try:
                    raw = await _connect_from("127.0.0.1", port)
                except OSError:
                    await trio.sleep(0.01)
                    continue
                with trio.move_on_after(10):
                    try:
                        while await raw.receive() is not None:
                            pass
                    except (trio.BrokenResourceError, OSError):
                        pass
                await raw.stream.aclose()
                reopened += 1

        for _ in range(6):
            nursery.start_soon(silent)
        await trio.sleep(0.2)
        for _ in range(5):
            results.append(await _player(port, 0.2))
        stop.set()
        nursery.cancel_scope.cancel()
    print("reopened", reopened, "results", results)
    assert "welcome" in results, (reopened, results)


# ------------------------------------------------------ 2. spectators against the host

def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _tasks() -> int:
    def count(task) -> int:
        return 1 + sum(count(t) for n in task.child_nurseries for t in n.child_tasks)
    return count(trio.lowlevel.current_root_task())


async def _watch(port: int, name: str = "w") -> RawClient:
    raw = await RawClient.connect(port)
    assert (await raw.receive())["t"] == "host"
    await raw.send(watch_message(name, 1))
    assert (await raw.receive())["t"] == "watching"
    return raw


@pytest.mark.slow
async def test_200_spectators_come_and_go_and_leave_nothing_behind(tmp_path):
    """200 watches, each closed at once (half of them abruptly, with a reset): every
    place is free again, no descriptor and no task is left, and a player still joins."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, spectators=4)
        await trio.sleep(0.1)
        idle = _tasks()
        for i in range(3):  # what the first spectator opens once (warm-up)
            await (await _watch(port, f"warm{i}")).stream.aclose()
        with trio.move_on_after(2 * FAST.idle):
            while host.spectators or _tasks() > idle + 1:
                await trio.sleep(0.1)
        fds, tasks = _fds(), _tasks()
        for i in range(200):
            raw = await _watch(port, f"w{i}")
            if i % 2:
                await trio.aclose_forcefully(raw.stream)
            else:
                await raw.stream.aclose()
        with trio.fail_after(10):
            while host.admission.spectators or host.spectators or host.admission.strangers:
                await trio.sleep(0.05)
        # Pingers linger until they next wake (idle / 3), the announcement's timer for
        # its window (5 s): give them that.
        with trio.move_on_after(2 * FAST.idle):
            while _tasks() > tasks + 1 or _fds() > fds:
                await trio.sleep(0.1)
        assert _tasks() <= tasks + 1 and _fds() <= fds, (_tasks(), tasks, _fds(), fds)
        assert await _player(port, 0) == "welcome"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("watch", [
    {"t": "watch"},
    {"t": "watch", "name": 7, "v": 1},
    {"t": "watch", "name": "x" * 5000, "v": 1},
    {"t": "watch", "name": "\x00\u202e\ud800"[:2], "v": "one"},
    {"t": "watch", "name": ["a"], "v": -1},
    {"t": "watch", "name": "w", "v": 1, "resume": {"seat": 1}},
    {"t": "hello"},
    {"t": "error", "code": "x"},
    {"t": 5},
])
@pytest.mark.slow
async def test_a_junk_greeting_is_refused_and_the_host_goes_on(tmp_path, watch):
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, spectators=2)
        raw = await RawClient.connect(port)
        assert (await raw.receive())["t"] == "host"
        await raw.send(watch)
        with trio.fail_after(5):
            while (msg := await raw.receive()) is not None and msg["t"] == "watching":
                pass  # (a watch that is good enough is admitted: that is fine too)
        assert host.admission.strangers == 0 or msg is not None
        assert await _player(port, 0) == "welcome"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("junk", [
    wire.frame(wire.encode({"t": "sig", "n": 0})),
    wire.frame(wire.encode({"t": "chat", "text": "hi"})),
    wire.frame(b"\xc1"),  # not msgpack
    wire.frame(wire.encode([1, 2])),
    wire.frame(wire.encode({"t": "watch", "name": "again", "v": 1})),
    (wire.MAX_FRAME + 1).to_bytes(4, "big"),
])
@pytest.mark.slow
async def test_a_spectator_sending_junk_is_dropped_alone(tmp_path, junk):
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, spectators=2)
        raw = await _watch(port)
        await raw.send_raw(junk)
        with trio.fail_after(5):
            while (msg := await raw.receive()) is not None and msg["t"] != "error":
                pass
        with trio.fail_after(5):
            while host.spectators or host.admission.spectators:
                await trio.sleep(0.02)
        assert await _player(port, 0) == "welcome"
        nursery.cancel_scope.cancel()


async def _fill_until_dropped(host: HostPeer, link) -> int:
    """Relay 4 KiB chat-sized bodies to the spectators until the link's queue overflows
    (a long, busy game, sped up)."""
    body = wire.encode({"t": "chat", "seat": 0, "text": "x" * 4000})
    for i in range(20_000):
        if link.closed:
            return i
        host._to_spectators(body)
        if i % 50 == 0:
            await trio.sleep(0)
    raise AssertionError("the queue never filled")


@pytest.mark.slow
async def test_a_spectator_that_never_reads_is_let_go_when_its_queue_fills(tmp_path):
    """It keeps pinging, never reads: once its queue fills it is cut (its place, its
    task and its socket freed), not merely marked closed with its writer stuck in
    send_all and its read loop answering pings for as long as it likes."""
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, spectators=1)
        raw = await _watch(port)
        stop = trio.Event()

        async def ping():  # alive, never reading
            while not stop.is_set():
                with trio.move_on_after(0.5):
                    await raw.send({"t": "ping"})
                await trio.sleep(0.5)

        nursery.start_soon(ping)
        (_, link), = host.spectators.values()
        await _fill_until_dropped(host, link)
        try:
            with trio.fail_after(5):
                while host.spectators or host.admission.spectators:
                    await trio.sleep(0.05)
                assert link not in host._open_links
                while True:  # its socket is closed: what was in flight, then the end
                    try:
                        if not await raw.stream.receive_some(1 << 20):
                            break
                    except trio.BrokenResourceError:
                        break
        finally:
            stop.set()
            nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_a_host_quits_promptly_past_a_spectator_that_never_reads(tmp_path):
    """The host's writer to it is stuck in send_all; cancelling the host still returns
    at once (within its drain's bound), without a traceback."""
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            host, port = await _host(tmp_path, nursery, HostPeer, spectators=1)
            raw = await _watch(port)
            (_, link), = host.spectators.values()
            body = wire.encode({"t": "chat", "seat": 0, "text": "x" * 4000})
            for i in range(3000):  # more than the socket buffers take, less than the queue
                host._to_spectators(body)
                if i % 50 == 0:
                    await trio.sleep(0)
            assert not link.closed
            nursery.cancel_scope.cancel()
    await raw.stream.aclose()


@pytest.mark.slow
async def test_a_spectator_that_hangs_up_its_half_and_never_reads_is_let_go(tmp_path):
    """It half-closes (EOF) and never reads: its read loop ends, its place is freed, and
    the host's writer gives up within ``idle`` (it used to wait for ever to flush what
    was queued, keeping the task and the socket: the freed place let the next one do
    the same until descriptors ran out)."""
    timeouts = dataclasses.replace(SLOW, idle=2.0)  # the writer's patience, waited below
    async with trio.open_nursery() as nursery:
        host, port = await _host(tmp_path, nursery, HostPeer, timeouts, spectators=1)
        raw = await _watch(port)
        (_, link), = host.spectators.values()
        body = wire.encode({"t": "chat", "seat": 0, "text": "x" * 4000})
        for i in range(3000):  # more than the socket buffers take, less than the queue
            host._to_spectators(body)
            if i % 50 == 0:
                await trio.sleep(0)
        await raw.stream.send_eof()  # never reads, never closes
        with trio.fail_after(5):
            while host.spectators:
                await trio.sleep(0.05)
        try:
            with trio.fail_after(3 * timeouts.idle):
                await link.written.wait()  # the host's writer gave up on it
            with trio.fail_after(5):
                while True:  # and its socket is closed: what was in flight, then the end
                    try:
                        if not await raw.stream.receive_some(1 << 20):
                            break
                    except trio.BrokenResourceError:
                        break
        finally:
            nursery.cancel_scope.cancel()
    await raw.stream.aclose()


@pytest.mark.slow
async def test_a_real_guest_resumes_past_silent_sockets_churning_beyond_the_budget(tmp_path):
    """End to end, on loopback (a round trip of microseconds): a seated guest's
    connection dies while 6 silent sockets at its address (the budget is 4) reopen each
    time they are let go; the guest's own client comes back within its allowance, the
    match completes and nobody is blamed.  (Over a slower path, see
    test_silent_sockets_reopened_beyond_the_budget.)"""
    from support.net import GatedBot, join_config
    from test_net_admission import _kinds

    from chkobba_p2p._shell.net import ClientPeer

    gate = GatedBot(gate_at=2)
    host = SmallHost(host_config(tmp_path), BotController("greedy", 0))
    reopened = 0
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        guest = ClientPeer(join_config(tmp_path, port, "guest"), gate)
        stop = trio.Event()

        async def silent():
            nonlocal reopened
            while not stop.is_set() and reopened < 20_000:
                try:
                    raw = await RawClient.connect(port)
                except OSError:
                    await trio.sleep(0.01)
                    continue
                with trio.move_on_after(10):
                    try:
                        while await raw.receive() is not None:
                            pass
                    except (trio.BrokenResourceError, OSError):
                        pass
                await raw.stream.aclose()
                reopened += 1

        async def attack():
            await gate.holding.wait()
            for _ in range(6):
                nursery.start_soon(silent)
            await trio.sleep(0.2)
            await guest.link.stream.aclose()
            gate.release.set()
            await guest_done.wait()
            stop.set()

        guest_done = trio.Event()
        nursery.start_soon(attack)
        with trio.fail_after(60):
            result = await guest.run()
        guest_done.set()
    print("reopened", reopened)
    assert result.completed, result
    for path in (result.log_path, host.outcome().log_path):
        assert "abort" not in _kinds(path), "somebody was blamed"
