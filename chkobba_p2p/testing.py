"""Test helpers shipped with the library, like ``trio.testing``: tables in memory.

- :class:`MemoryNetwork` / :class:`MemoryTransport`: a :class:`~chkobba_p2p._shell.transport.
  Transport` over ``trio.testing.memory_stream_pair``; each transport is one "machine"
  with the address label you choose, and every connection (a :class:`MemoryConnection`)
  can be cut, dropped (bytes vanish, as on a dead route), delayed, and fed raw bytes.
- :class:`RecordingController`: a seat played by the greedy bot, synchronously (no
  worker thread, so trio's ``MockClock`` autojump stays exact), recording every event
  and the match totals the table tells it before each hand.
- :class:`GatedController`: the same, holding the floor at a chosen play until told.
- :class:`InMemoryTable`: a :class:`~chkobba_p2p._shell.hostpeer.HostPeer` and N-1
  :class:`~chkobba_p2p._shell.net.ClientPeer` over one memory network, meant to run under
  ``trio.testing.MockClock(autojump_threshold=0)``: no sockets, no real time, no LAN
  beacon, no port mapping.
- :func:`check_transport`: the conformance check every transport passes.
- The time adversaries (PROTOCOL.md 12.6): :func:`lying_host` (a host that announces
  clocks longer than the ones it enforces, so that it flags a seat long before the
  seat's own clock runs out), :class:`HastyJoiner` (a joiner that flags the host as
  soon as the host holds the floor) and :func:`lying_abort` (any abort a seat can sign,
  for property tests on in-process sessions).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio
import trio.testing

from ._shell.config import HostConfig, JoinConfig, Timeouts
from ._shell.hostpeer import HostPeer
from ._shell.net import ClientPeer, Link
from ._shell.transport import Transport
from .bots.levels import make_bot
from .game.hand import Hand, Move
from .link.errors import LinkUsageError
from .link.events import Outcome, SeatController
from .link.host import HostTable
from .link.joiner import SeatLink
from .transcript.clocks import make_clock
from .transcript.session import Session
from .transcript.table import Phase
from .wire import codec as wire
from .wire.codec import Entry, ErrorCode

__all__ = ["MemoryNetwork", "MemoryTransport", "MemoryConnection", "RecordingController",
           "GatedController", "InMemoryTable", "check_transport", "TABLE_TIMEOUTS",
           "lying_host", "HastyJoiner", "lying_abort"]

_Stream = trio.StapledStream[trio.testing.MemorySendStream, trio.testing.MemoryReceiveStream]


class MemoryConnection:
    """One connection in memory: ``client`` (the connecting end's stream), ``server``
    (the accepted one) and ``label`` (the connecting machine's address)."""

    def __init__(self, client: _Stream, server: _Stream, label: str) -> None:
        self.client, self.server, self.label = client, server, label
        self.delay = 0.0
        self.dropping = False
        for a, b in ((client, server), (server, client)):
            a.send_stream.send_all_hook = self._hook(a.send_stream, b.receive_stream)
            a.send_stream.close_hook = self._closer(a.send_stream, b.receive_stream)

    def _hook(self, send: trio.testing.MemorySendStream,
              receive: trio.testing.MemoryReceiveStream) -> Callable[[], Awaitable[None]]:
        async def pump() -> None:
            if self.delay:
                await trio.sleep(self.delay)
            if self.dropping:
                send.get_data_nowait()  # the bytes vanish on the way
            else:
                trio.testing.memory_stream_pump(send, receive)
        return pump

    def _closer(self, send: trio.testing.MemorySendStream,
                receive: trio.testing.MemoryReceiveStream) -> Callable[[], None]:
        def closed() -> None:
            # An end that closes is read as an end of stream by the other, after what it
            # had written (at once, whatever the delay); on a dead route, never.
            if self.dropping:
                return
            try:
                data = bytes(send.get_data_nowait())
            except trio.WouldBlock:
                data = b""
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                if data:
                    receive.put_data(data)
                receive.put_eof()
        return closed

    def cut(self) -> None:
        """The connection ends under both ends: each reads an end of stream (after the
        bytes already delivered), and its writes fail with ``ClosedResourceError``."""
        for a, b in ((self.client, self.server), (self.server, self.client)):
            a.send_stream.close()
            b.receive_stream.put_eof()

    def to_server(self, data: bytes) -> None:
        """Raw bytes arriving at the accepting end as if the connecting end sent them."""
        self.server.receive_stream.put_data(data)

    def to_client(self, data: bytes) -> None:
        self.client.receive_stream.put_data(data)

    def frame_to_server(self, msg: dict[str, object]) -> None:
        """A message, framed, injected towards the accepting end."""
        self.to_server(wire.frame(wire.encode(msg)))


class _MemoryListener(trio.abc.Listener[trio.abc.Stream]):
    def __init__(self, network: MemoryNetwork, key: tuple[str, int]) -> None:
        self.network, self.key = network, key
        self.send, self.receive = trio.open_memory_channel[trio.abc.Stream](math.inf)

    async def accept(self) -> trio.abc.Stream:
        try:
            return await self.receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise trio.ClosedResourceError("listener closed") from None

    async def aclose(self) -> None:
        if self.network.listeners.get(self.key) is self:
            del self.network.listeners[self.key]
        self.receive.close()
        await trio.lowlevel.checkpoint()


class MemoryNetwork:
    """Listeners by (host, port), and every connection made, in order."""

    def __init__(self) -> None:
        self.listeners: dict[tuple[str, int], _MemoryListener] = {}
        self.connections: list[MemoryConnection] = []
        self._labels: dict[int, str] = {}
        self._next_port = 40000

    def transport(self, address: str = "10.0.0.1", shared: bool = False,
                  patience: float = 0.0) -> MemoryTransport:
        """A machine on this network whose connections come from ``address``
        (``shared``, ``patience``: the transport's ``shared_address`` and
        ``connect_patience``)."""
        return MemoryTransport(self, address, shared, patience)

    def connections_from(self, address: str) -> list[MemoryConnection]:
        return [c for c in self.connections if c.label == address]


class MemoryTransport:
    """A :class:`~chkobba_p2p._shell.transport.Transport` on a :class:`MemoryNetwork`.
    ``listen`` binds this machine's ``address`` (or ``bind``); ``connect`` raises
    ``ConnectionRefusedError`` where nobody listens."""

    def __init__(self, network: MemoryNetwork | None = None, address: str = "10.0.0.1",
                 shared: bool = False, patience: float = 0.0) -> None:
        self.network = network if network is not None else MemoryNetwork()
        self.address = address
        self.shared_address = shared
        self.connect_patience = patience

    async def listen(self, port: int, bind: str) -> list[trio.abc.Listener[trio.abc.Stream]]:
        await trio.lowlevel.checkpoint()
        net = self.network
        if port == 0:
            net._next_port += 1
            port = net._next_port
        key = (bind or self.address, port)
        if key in net.listeners:
            raise OSError(98, f"address already in use: {key[0]}:{port}")
        listener = _MemoryListener(net, key)
        net.listeners[key] = listener
        return [listener]

    def port_of(self, listener: trio.abc.Listener[trio.abc.Stream]) -> int:
        assert isinstance(listener, _MemoryListener)
        return listener.key[1]

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        await trio.lowlevel.checkpoint()
        listener = self.network.listeners.get((host, port))
        if listener is None:
            raise ConnectionRefusedError(111, f"nobody listens at {host}:{port}")
        client, server = trio.testing.memory_stream_pair()
        connection = MemoryConnection(client, server, self.address)
        self.network.connections.append(connection)
        self.network._labels[id(server)] = self.address
        self.network._labels[id(client)] = host
        try:
            listener.send.send_nowait(server)
        except trio.BrokenResourceError:
            raise ConnectionRefusedError(111, f"nobody listens at {host}:{port}") from None
        return client

    def peer_address(self, stream: trio.abc.Stream) -> str:
        if self.shared_address:
            return "127.0.0.1"
        return self.network._labels.get(id(stream), "?")

    def close_now(self, stream: trio.abc.Stream) -> None:
        if isinstance(stream, trio.StapledStream):
            stream.send_stream.close()
            stream.receive_stream.close()


class RecordingController(SeatController):
    """A seat played by the greedy bot without a worker thread, recording each event.
    ``until(pred)`` waits (no polling) until ``pred(self)`` holds."""

    def __init__(self, seed: int = 0, level: str = "greedy",
                 answers_within: float | None = None) -> None:
        """``answers_within``: declare the bot's answer bound
        (:attr:`SeatController.answers_within`), as a :class:`BotController` does;
        default None, the flow of a person's seat."""
        self.bot = make_bot(level, seed)
        self.answers_within = answers_within
        self.events: list[object] = []
        #: Every ``(totals, target)`` the table told this seat (:meth:`see_match`), in order.
        self.matches: list[tuple[tuple[int, ...], int]] = []
        self._changed = trio.Event()

    def see_match(self, totals: tuple[int, ...], target: int) -> None:
        self.matches.append((tuple(totals), target))
        see = getattr(self.bot, "see_match", None)
        if see is not None:
            see(totals, target)

    async def choose_play(self, hand: Hand) -> Move:
        await trio.lowlevel.checkpoint()
        return self.bot.choose_play(hand)

    async def choose_cut(self, hand: Hand) -> bool:
        await trio.lowlevel.checkpoint()
        return self.bot.choose_cut(hand)

    def on_event(self, event: object) -> None:
        self.events.append(event)
        self._changed.set()
        self._changed = trio.Event()

    def of(self, kind: type) -> list[object]:
        """The recorded events of one class, in order."""
        return [e for e in self.events if isinstance(e, kind)]

    async def until(self, pred: Callable[[RecordingController], bool]) -> None:
        while not pred(self):
            await self._changed.wait()


#: A table's timeouts in memory: the library's defaults (time costs nothing there).
TABLE_TIMEOUTS = Timeouts()


class GatedController(RecordingController):
    """A :class:`RecordingController` that, before its ``gate_at``-th play, says it holds
    the floor (``holding`` is set) and waits until the test sets ``release``: a seat
    whose person thinks as long as the test wants."""

    def __init__(self, gate_at: int = 2, seed: int = 1, level: str = "greedy") -> None:
        super().__init__(seed, level)
        self.plays = 0
        self.gate_at = gate_at
        self.holding = trio.Event()
        self.release = trio.Event()

    async def choose_play(self, hand: Hand) -> Move:
        self.plays += 1
        if self.plays == self.gate_at:
            self.holding.set()
            await self.release.wait()
        return await super().choose_play(hand)


class InMemoryTable:
    """A host and ``players - 1`` joiners on one :class:`MemoryNetwork`.  Run it under
    ``MockClock(autojump_threshold=0)`` (pytest-trio's ``autojump_clock``)::

        table = InMemoryTable(tmp_path, players=2)
        outcomes = await table.run()

    or drive it: ``port = await nursery.start(table.host.run)``, then
    ``nursery.start_soon(table.joiner(1).run)`` and act on ``table.network``'s
    connections meanwhile.  ``controllers``: one per seat (default
    :class:`RecordingController`)."""

    HOST_ADDRESS = "10.0.0.1"

    def __init__(self, folder: Path, players: int | None = None,
                 controllers: list[SeatController] | None = None,
                 timeouts: Timeouts = TABLE_TIMEOUTS, host_class: type[HostPeer] = HostPeer,
                 **host_options: object) -> None:
        """``players``: the table's size, by default one per controller (2 without
        controllers); a size other than the controllers' count is refused, since a
        controller left over would race the others for a seat and never play."""
        if players is None:
            players = len(controllers) if controllers else 2
        if controllers is not None and len(controllers) != players:
            raise LinkUsageError(f"{len(controllers)} controllers for a table of {players}",
                                 code="controllers_for_table",
                                 data={"controllers": len(controllers), "players": players})
        self.folder = folder
        self.network = MemoryNetwork()
        self.controllers: list[SeatController] = controllers or [
            RecordingController(seat) for seat in range(players)]
        self.timeouts = timeouts
        host_options.setdefault("shuffle_proofs", False)
        # The proof work in the event loop's thread: a thread at work would let the
        # autojump clock run ahead meanwhile.
        host_options.setdefault("proof_thread", False)
        config = HostConfig(players=players, port=0, bind=self.HOST_ADDRESS,
                            log_path=folder / "host.chklog", timeouts=timeouts,
                            **host_options)  # type: ignore[arg-type]
        # Nothing of the real world: no LAN beacon (zeroconf), no UPnP port mapping.
        config.beacon = False
        config.port_mapping = None
        config.transport = self.network.transport(self.HOST_ADDRESS)
        self.host = host_class(config, self.controllers[0])
        self._joiners: dict[int, ClientPeer] = {}

    def join_config(self, seat: int, **options: object) -> JoinConfig:
        """Seat ``seat``'s configuration: its own machine (address 10.0.1.SEAT)."""
        options.setdefault("timeouts", self.timeouts)
        options.setdefault("proof_thread", False)  # see __init__
        options.setdefault("transport", self.network.transport(f"10.0.1.{seat}"))
        options.setdefault("name", f"seat{seat}")
        options.setdefault("log_path", self.folder / f"{options['name']}.chklog")
        return JoinConfig(f"{self.HOST_ADDRESS}:{self.host.port}",
                          **options)  # type: ignore[arg-type]

    def joiner(self, seat: int, controller: SeatController | None = None,
               **options: object) -> ClientPeer:
        """A new joining peer for ``seat``'s controller (the host must listen)."""
        peer = ClientPeer(self.join_config(seat, **options),
                          controller or self.controllers[seat])
        self._joiners[seat] = peer
        return peer

    def connections_of(self, seat: int) -> list[MemoryConnection]:
        return self.network.connections_from(f"10.0.1.{seat}")

    async def run(self) -> list[Outcome]:
        """Run the whole table to its end; the outcomes by seat."""
        clock = trio.lowlevel.current_clock()
        if not isinstance(clock, trio.testing.MockClock):
            raise RuntimeError("an in-memory table runs under trio.testing.MockClock")
        out: dict[int, Outcome] = {}
        async with trio.open_nursery() as nursery:
            async def host(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
                           ) -> None:
                out[0] = await self.host.run(task_status)

            await nursery.start(host)

            async def join(seat: int) -> None:
                out[seat] = await self.joiner(seat).run()

            for seat in range(1, len(self.controllers)):
                nursery.start_soon(join, seat)
        return [out[seat] for seat in range(len(self.controllers))]


async def check_transport(make_transport: Callable[[], Transport], bind: str = "",
                          connect_to: str = "127.0.0.1",
                          nobody: tuple[str, int] | None = None) -> None:
    """The conformance check of a transport (raises ``AssertionError``).  Listens with a
    fresh transport at ``bind`` on a port it chooses, connects to ``connect_to``, moves
    bytes both ways (large writes too), half-closes when the stream allows it, closes;
    the peer address is a str; connecting where nobody listens (``nobody``, default the
    same host on a closed port) raises ``OSError``; an end closed without a word is seen gone
by the other (end of stream, or a broken connection).  Then trio's own
    ``check_half_closeable_stream`` (or ``check_two_way_stream``) over its streams."""
    transport = make_transport()
    assert isinstance(transport.shared_address, bool)
    assert transport.connect_patience >= 0
    listeners = await transport.listen(0, bind)
    assert listeners and all(isinstance(x, trio.abc.Listener) for x in listeners)
    port = transport.port_of(listeners[0])
    assert isinstance(port, int) and port > 0
    assert all(transport.port_of(x) == port for x in listeners)

    async def pair() -> tuple[trio.abc.Stream, trio.abc.Stream]:
        # As a joiner does: a failed first try is tried again for the transport's
        # ``connect_patience`` (none over TCP), pausing a little longer each time.
        client_side = make_transport()
        deadline = trio.current_time() + client_side.connect_patience
        pause = 0.05
        while True:
            try:
                client = await client_side.connect(connect_to, port)
                break
            except OSError:
                if trio.current_time() + pause >= deadline:
                    raise
                await trio.sleep(pause)
                pause = min(pause * 2, 1.0)
        server = await listeners[0].accept()
        return client, server

    try:
        client, server = await pair()
        assert isinstance(client, trio.abc.Stream) and isinstance(server, trio.abc.Stream)
        assert isinstance(transport.peer_address(server), str)
        big = bytes(range(256)) * 4096  # 1 MiB each way, at once
        got: dict[str, bytearray] = {"client": bytearray(), "server": bytearray()}

        async def read(stream: trio.abc.Stream, into: bytearray) -> None:
            while len(into) < len(big):
                chunk = await stream.receive_some(65536)
                assert chunk, "end of stream before all the bytes"
                into += chunk

        async with trio.open_nursery() as nursery:
            nursery.start_soon(client.send_all, big)
            nursery.start_soon(server.send_all, big[::-1])
            nursery.start_soon(read, server, got["server"])
            nursery.start_soon(read, client, got["client"])
        assert got["server"] == big and got["client"] == big[::-1]
        if isinstance(client, trio.abc.HalfCloseableStream):
            await client.send_eof()
            assert await server.receive_some(10) == b""
            await server.send_all(b"after eof")
            assert await client.receive_some(100) == b"after eof"
        await client.aclose()
        if not isinstance(client, trio.abc.HalfCloseableStream):
            assert await server.receive_some(10) == b""
        await server.aclose()
        where = nobody or (connect_to, port)
        for listener in listeners:
            await listener.aclose()
        listeners = []
        try:
            await make_transport().connect(*where)
        except OSError:
            pass
        else:
            raise AssertionError(f"a connection to nobody ({where}) did not fail")
        listeners = await transport.listen(0, bind)
        port = transport.port_of(listeners[0])
        # An end closed without a word (a cancelled peer) is seen gone by the other: an
        # end of stream, or a broken connection, never silence.
        client, server = await pair()
        await client.aclose()
        try:
            with trio.fail_after(5):
                gone = await server.receive_some(10) == b""
        except trio.BrokenResourceError:
            gone = True
        assert gone, "a closed end was not seen gone by the other"
        await server.aclose()
        client, server = await pair()
        half = isinstance(client, trio.abc.HalfCloseableStream)
        await client.aclose()
        await server.aclose()
        if half:
            await trio.testing.check_half_closeable_stream(pair, None)  # type: ignore[arg-type]
        else:
            await trio.testing.check_two_way_stream(pair, None)
    finally:
        for listener in listeners:
            await listener.aclose()



# ------------------------------------------------------------------ time adversaries


def lying_host(move: int, away: int) -> type[HostPeer]:
    """A host class (``InMemoryTable(host_class=...)``) that announces ``move`` and
    ``away`` seconds in every welcome while it enforces its configuration's (shorter)
    clocks: it flags a seat whose own clock, counting with the announced limits, shows
    most of the move left.  Its flag is self-consistent (its own reading says the time
    ran out): only the flagged seat's clock can contradict it."""
    class LyingTable(HostTable[Link]):
        def announced_limits(self) -> dict[str, int]:
            return {"move": move, "away": away}

    class LyingHost(HostPeer):
        table_class = LyingTable

    return LyingHost


class _HastyLink(SeatLink[Link]):
    """A joiner's link core that flags the host the moment the host holds the floor
    (``tick``), as a seat lying about the host's time would."""

    def tick(self, now: float) -> None:
        s = self.session
        if s is not None and not s.finished and not self.finished and s.floor == 0 \
                and s.phase == Phase.PLAYING and self.host is not None \
                and not self.catching_up():
            from .wire.codec import ProtocolError
            self.blame_out(ProtocolError(ErrorCode.TIMEOUT, "the host is too slow"), 0,
                           None, now, flag=0)
            return
        super().tick(now)

    def flag_clock(self, seat: int, now: float) -> dict[str, int] | None:
        # A consistent lie: its reading says the host's move clock ran out.
        lim = self.limits()
        return make_clock(lim.move, lim.allowance, lim.move, lim.allowance)


class HastyJoiner(ClientPeer):
    """A joining peer (``InMemoryTable.joiner``'s place) that flags the host as soon as
    the host holds the floor: its flag stands until the host, whose own clock shows its
    move barely begun, disputes it (PROTOCOL.md 12.6)."""

    link_class = _HastyLink


def lying_abort(session: Session, *, code: ErrorCode, blamed: int | None, flag: bool,
                used: float | None = None, move: float = 300.0,
                away: float = 120.0) -> Entry:
    """Any abort ``session``'s seat can sign, as an adversary would: ``code`` against
    ``blamed``, flagging it when ``flag`` (whatever the clocks), with a clock reading that
    says ``used`` seconds of the move ran (default: all of it) -- a lie the flagged seat's
    own clock can contradict."""
    clock = make_clock(move, away, move if used is None else used, 0.0) \
        if flag else None
    return session.abort(code, blamed, "adversary", flag=blamed if flag else None,
                         clock=clock)
