"""The host's door, in trio (PROTOCOL.md 5, 5.4, 12): accepting connections, admitting them.

A :class:`Door` runs the accept loop over a :class:`~chkobba_p2p._shell.transport.Transport`'s
listeners and gives each connection to the door's sans-IO core
(:class:`~chkobba_p2p.link.door.DoorCore`): the admission (strangers by identity, never by
address) and each connection's handshake in the order the host's state table gives
(:class:`~chkobba_p2p.link.door.Arrival`).  A connection admitted goes to the host's
table (:class:`~chkobba_p2p.link.host.HostTable`) as a seat or a spectator, and this
module reads their frames into it until they go.  Every decision is the cores'; this
module moves the bytes, arms the deadlines and carries out the cancellations.
:class:`~chkobba_p2p._shell.hostpeer.HostPeer` owns one.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import math
from collections.abc import Callable

import trio

from ..link.admission import GREETING, Admission, AdmissionPolicy
from ..link.door import Arrival, DoorCore, DoorStep
from ..link.handshake import error_message
from ..link.host import HostTable
from ..link.messages import Frame
from ..wire import codec as wire
from ..wire.codec import ProtocolError
from .shell import PeerShell, pinger
from .stream import Link, LinkClosed
from .transport import Transport

__all__ = ["Door", "open_files_limit"]

#: accept() failures that mean "no file descriptor or buffer to spare right now".
_FD_ERRNOS = frozenset((errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))
_log = logging.getLogger("chkobba_p2p._shell.net")


def open_files_limit() -> int | None:
    """The process's limit of open files (its soft limit), or None: no limit, or no way
    to know (not POSIX)."""
    try:
        import resource  # POSIX only

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


class Door:
    """The host's door: accepts connections, admits them, serves seats and spectators.

    ``peer`` is the host's shell (its effects carried out by ``peer.apply()``), ``core``
    its table; ``strangers`` the strangers' budget, ``spectators`` the spectators'
    slots.  Who comes in, and in what order, is :class:`~chkobba_p2p.link.door.DoorCore`'s."""

    def __init__(self, peer: PeerShell, core: HostTable[Link], transport: Transport,
                 strangers: int, spectators: int) -> None:
        self.peer = peer
        self.core = core
        self.transport = transport
        self.timeouts = peer.timeouts
        self.door: DoorCore[Link] = DoorCore(core, AdmissionPolicy(
            strangers=strangers,
            greeting=min(GREETING, self.timeouts.handshake),
            spectators=spectators,
            all_shared=transport.shared_address))
        #: The handshake of each stranger, cancelled to let it go (evicted for room).
        self._strangers: dict[Link, trio.CancelScope] = {}
        #: Seated peers' and spectators' connections, in order; kept while the host is
        #: cancelled, so that its last word (away, or a signed leave) reaches them.
        self.open_links: dict[Link, None] = {}

    @property
    def admission(self) -> Admission[Link]:
        """Who may hold a connection (PROTOCOL.md 5.4), the door's core's."""
        return self.door.admission

    async def accept_loop(self, listener: trio.abc.Listener[trio.abc.Stream],
                           nursery: trio.Nursery) -> None:
        """Accept connections; out of file descriptors (EMFILE), shed the oldest
        unauthenticated connection and go on, with one line of warning, no traceback."""
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno not in _FD_ERRNOS:
                        raise
                    self._out_of_files(exc)
                    await trio.sleep(0.05)  # let the closed descriptors be released
                    continue
                nursery.start_soon(self._serve, stream)

    def _out_of_files(self, exc: OSError) -> None:
        victim, warn = self.door.out_of_files(trio.current_time())
        if victim is not None:
            self._let_go(victim)
        if warn:
            _log.warning("chkobba host: out of file descriptors (%s) while accepting; "
                         "dropping unauthenticated connections", exc.strerror or exc)

    @property
    def refused_connections(self) -> int:
        """Strangers let go before their greeting: for room, or shed when out of
        descriptors (see :class:`~chkobba_p2p.link.admission.Admission`)."""
        return self.admission.refused

    def _let_go(self, link: Link) -> None:
        """A stranger the admission let go (for room): its handshake ends now."""
        link.finish()
        scope = self._strangers.pop(link, None)
        if scope is not None:
            scope.cancel()

    async def _serve(self, stream: trio.abc.Stream) -> None:
        address = self.transport.peer_address(stream)
        link = Link(stream, self.timeouts, self.peer.traffic)
        link.on_data = self.door.heard
        opened = self.door.opened(link, address, trio.current_time())
        link.decoder = wire.FrameDecoder(opened.max_frame)  # until it is a seat
        for victim in opened.let_go:
            self._let_go(victim)
        scope = trio.CancelScope()
        self._strangers[link] = scope
        cutter = trio.CancelScope()

        async def cut_on_overflow() -> None:  # a peer that lets its queue fill is dropped
            with cutter:
                await link.overflowed.wait()
                scope.cancel()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            nursery.start_soon(cut_on_overflow)
            try:
                with scope:
                    await self._connection(link, nursery, opened.arrival)
            finally:
                # Forgotten at once (its pinger may linger until it next wakes): a
                # place it held, a spectator's or a stranger's, is free again now.
                cutter.cancel()
                self._strangers.pop(link, None)
                if self.door.closed(link):
                    self.peer.apply()  # the seat's flag is held no more: clocks again
                link.on_data = None
                if trio.current_effective_deadline() != -math.inf:
                    self.open_links.pop(link, None)
                # else: the host is being cancelled (it quits): the link stays listed
                # for the goodbye (away, or the signed leave) that run() writes to it.
                link.finish()  # the writer flushes what is queued, then ends
            if scope.cancelled_caught:  # let go (for room, or its queue filled): no
                nursery.cancel_scope.cancel()  # word, the socket closes
            else:  # what is queued is flushed, within a bound: a peer that stopped
                # reading (half-closed, or silent) never holds its task and socket
                nursery.cancel_scope.deadline = trio.current_time() + self.timeouts.idle
        if scope.cancelled_caught or nursery.cancel_scope.cancelled_caught:
            with contextlib.suppress(Exception):
                await trio.aclose_forcefully(stream)

    async def _connection(self, link: Link, nursery: trio.Nursery,
                          arrival: Arrival[Link]) -> None:
        """One connection: its handshake's bytes within the greeting's deadline (the
        order and every decision are the arrival's), then its seat or its watch."""
        link.send(arrival.greeting())
        step: DoorStep[Link] = DoorStep()
        try:
            with trio.fail_at(arrival.due):  # the admission's deadline for a stranger
                while arrival.handshaking and not step.over:
                    try:
                        body, frame = await link.receive()
                    except LinkClosed:
                        step = arrival.closed()
                    except ProtocolError as exc:
                        step = arrival.broken(exc)
                    else:
                        step = arrival.receive(body, frame, trio.current_time())
                    for older in step.let_go:
                        self._let_go(older)
                    for out in step.send:
                        link.send(out)
        except trio.TooSlowError:
            step = arrival.timed_out()
        if step.over:
            if step.fail is not None:
                await link.fail(step.fail, step.detail)
            return
        admit = arrival.admit(trio.current_time(), closing=self.peer.finished.is_set())
        if admit.ended is not None:
            # A match this host ended while that seat was away: the welcome, the entries
            # it lacks up to the signed end, then the close (PROTOCOL.md 13.1).
            link.send(admit.welcome)
            link.send_backlog(*admit.ended)
            await link.drain(self.timeouts.idle, discard=True)
            return
        if admit.fail is not None:
            await link.fail(admit.fail)
            return
        self.open_links[link] = None
        nursery.start_soon(pinger, link)
        self._strangers.pop(link, None)  # a seat or a spectator: never let go for room
        if admit.spectator is not None:
            self.peer.apply()
            await self._spectate(link, admit.spectator)
            return
        assert admit.seat is not None and admit.max_frame is not None
        seat = admit.seat
        link.decoder = wire.FrameDecoder(admit.max_frame, link.decoder)
        self.peer.apply()
        left = False

        def leave() -> None:
            # Once, before the drain of a refused or failed link (which may take a
            # second): the seat is free for whoever comes next at once.
            nonlocal left
            if not left:
                left = True
                self.core.seat_gone(link, seat, trio.current_time(),
                                    closing=trio.current_effective_deadline() == -math.inf)
                self.peer.apply()

        try:
            await self._read_loop(link, seat, leave)
        finally:
            leave()

    async def _spectate(self, link: Link, sid: int) -> None:
        """A spectator: the transcript so far, then everything the seats get, until it
        leaves; it may only ping.  Whatever it does, the game goes on and nobody is
        blamed: a misbehaving spectator is dropped."""
        watching = True

        def gone() -> None:
            # Off the list (and everyone told) before its error and the drain that
            # follows, which may take a second: a game that ends meanwhile tells nobody.
            nonlocal watching
            if watching:
                watching = False
                self.core.spectator_gone(sid, trio.current_time())
                # Its admission place stays until the connection is gone (the drain ends
                # as soon as the other end closes): a refused connection lingering up to
                # a second stays counted, so that connect-watch-junk loops stay bounded.
                self.peer.apply()

        def handle(body: bytes, msg: Frame) -> bool:
            answers, refusal = self.core.spectator_message(link, msg)
            for answer in answers:
                link.send(answer.body)
            if refusal is not None:
                gone()
                link.send_msg(error_message(refusal.error_code, refusal.detail))
            return refusal is None

        try:
            await self.peer.reads(link, handle, failing=gone)
        finally:
            gone()

    async def _read_loop(self, link: Link, seat: int,
                         failing: Callable[[], None] | None = None) -> None:
        await self.peer.reads(link, lambda body, msg: self.core.seat_message(
            link, seat, msg, trio.current_time()), failing)
