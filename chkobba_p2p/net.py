"""The trio transport around :mod:`chkobba_p2p.session`: sockets, timers, the relay.

The host listens, shakes hands, relays every signed entry byte for byte to the other
peers and announces the table on the LAN; a joining peer connects to the host only.
Neither decides anything the session does not: this module moves bytes, keeps time
(handshake, frame, idle, reconnect and turn timeouts) and writes the log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import math
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path

import trio

from . import wire
from .address import Address, listen_error, parse_port
from .config import (
    HostConfig,
    JoinConfig,
    Timeouts,
    parse_fingerprint,
)
from .discovery import Announced, Announcer, TableFacts, host_addresses
from .errors import IllegalMove, LocalError
from .events import (
    Chat,
    ChoiceRefused,
    LeftLobby,
    Listening,
    Lobby,
    Notice,
    NoticeKind,
    Outcome,
    OutcomeError,
    RematchAnswer,
    Restored,
    Resumed,
    SeatController,
    Spectators,
    Waiting,
    clean_chat,
)
from .link import messages as lm
from .link.admission import GREETING, STRANGERS, Admission, AdmissionPolicy
from .link.backlog import Backlog
from .link.handshake import (
    CAP_READY_CHECK,
    CAP_REMATCH,
    CAP_SHUFFLE_PROOFS,
    SPOKEN,
    ClientHandshake,
    HostHandshake,
    error_message,
)
from .link.handshake import Lobby as SeatLobby
from .link.spectators import SpectatorAnnouncer
from .linkmsg import (
    MAX_PLAYERS,
    clean_text,
    lobby_problem,
    parse_allowance_left,
    parse_back,
    parse_chat,
    parse_error,
    parse_have,
    parse_limits,
    parse_lobby,
    parse_wait,
)
from .liveness import ClockReading, Clocks, Limits, SeatClock
from .portmap import PortMapper
from .rules import Move
from .session import GameFault, Session
from .spectate import spectator_names, spectators_message, watch_name, watching_message
from .text import distinct_names, safe_text
from .transcript import SavedGame, TranscriptWriter, default_log_path, read_transcript
from .transport import TcpTransport
from .wire import ErrorCode, Identity, ProtocolError

__all__ = ["Link", "LinkClosed", "Traffic", "HostPeer", "ClientPeer", "ChatBucket", "listen",
           "ListenError", "check_listen", "lobby_event"]

#: Frames (or backlogs, one place each) a connection's queue holds; a peer that lets it
#: fill is dropped.
_QUEUE = 4096
#: Bytes the writer joins into one write at most (a backlog is pulled in such batches).
_WRITE = 1 << 18
#: Seconds a joining peer that accepted a rematch keeps its connection open for the
#: host's own answer (PROTOCOL.md 17): the host's person may still be deciding.
REMATCH_ANSWER_WAIT = 300.0
#: accept() failures that mean "no file descriptor or buffer to spare right now".
_FD_ERRNOS = frozenset((errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))
_log = logging.getLogger("chkobba_p2p.net")


class ListenError(LocalError):
    """The host cannot listen where it was asked to (the port is in use, privileged, or
    the bind address is not this machine's); the message says which, for people."""


def check_listen(bind: str, port: int) -> None:
    """Raise :class:`ListenError` now if a host could not listen on ``bind:port`` (a
    command line checks this before it opens its screen).  The port may still be taken
    between this check and the host's start; :meth:`HostPeer.run` says so then too."""
    parse_port(port, allow_zero=True)
    family = socket.AF_INET6 if ":" in (bind or "") else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            if os.name == "posix":  # as trio's listeners do: a TIME_WAIT port is free
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((bind or "0.0.0.0", port))
            sock.listen(1)
    except OSError as exc:
        raise ListenError(listen_error(exc, bind, port)) from None


def lobby_event(msg: dict, host_caps: tuple[str, ...],
                host: tuple[bytes, str] | None = None) -> Lobby | None:
    """The :class:`Lobby` event of a ``lobby`` message from the host (None if a field is
    off): names made distinct and safe to display (the host could send anything), and
    whether shuffle proofs are on (from the host's greeting).  ``host``: the key and name
    the host's greeting gave (its proof of possession covers them): seat 0 must be that
    key, and keeps that name whatever a lobby says (None if not)."""
    seats = parse_lobby(msg)
    if seats is None:
        return None
    if host is not None:
        first = msg["seats"][0]
        if not isinstance(first, dict) or first.get("key") != host[0]:
            return None
        seats = ((host[1], seats[0][1] if seats[0] else wire.fingerprint(host[0])),
                 *seats[1:])
    names = distinct_names([safe_text(x[0], wire.MAX_NAME) if x else None for x in seats],
                           wire.MAX_NAME)
    # The ready check (PROTOCOL.md 5.3): who confirmed this seating, and its number.
    ready = msg.get("ready")
    flags = tuple(x is True for x in ready) if isinstance(ready, list) \
        and len(ready) == len(seats) else ()
    seating = msg.get("seating")
    seating = seating if isinstance(seating, int) and not isinstance(seating, bool) else 0
    keys = tuple(x.get("key") if isinstance(x, dict) else None for x in msg["seats"])
    return Lobby(tuple((name, x[1]) if x and name else None
                       for x, name in zip(seats, names, strict=True)),
                 shuffle_proofs=CAP_SHUFFLE_PROOFS in host_caps, ready=flags,
                 seating=seating, keys=keys)


class Traffic:
    """Bytes on the wire (frames with their length prefixes), for statistics."""

    def __init__(self) -> None:
        self.sent = 0
        self.received = 0


def _address(host: str, port: int) -> str:
    """``HOST:PORT``, with an IPv6 address in brackets (PROTOCOL.md section 2)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def listen(port: int, bind: str | None) -> list[trio.abc.Listener[trio.abc.Stream]]:
    """TCP listeners on ``bind`` (see :meth:`TcpTransport.listen`)."""
    return await TcpTransport().listen(port, bind or "")


def _code_name(code: object) -> str:
    """A wire error code's name (``table_full``), or ``connection_closed``."""
    known = ErrorCode.from_wire(code)
    return known.name.lower() if known is not None else OutcomeError.CONNECTION_CLOSED


def _refused(exc: BaseException) -> bool:
    """Whether a failed connect was refused (nobody listening), looking through the
    causes and groups ``trio.open_tcp_stream`` wraps its attempts' errors in."""
    seen: list[BaseException] = [exc]
    while seen:
        e = seen.pop()
        if isinstance(e, ConnectionRefusedError):
            return True
        if isinstance(e, BaseExceptionGroup):
            seen.extend(e.exceptions)
        if e.__cause__ is not None:
            seen.append(e.__cause__)
    return False


class LinkClosed(Exception):
    """The connection ended (EOF, reset, or closed by us); ``error`` if the other end
    sent an error message first."""

    def __init__(self, reason: str, error: dict | None = None) -> None:
        super().__init__(reason)
        self.error = error


class Link:
    """One framed connection: reads with the frame and idle timeouts, writes through a
    queue drained by its own task (so one slow peer never blocks a broadcast)."""

    def __init__(self, stream: trio.abc.Stream, timeouts: Timeouts,
                 traffic: Traffic | None = None) -> None:
        self.stream = stream
        self.traffic = traffic or Traffic()
        self.timeouts = timeouts
        self.decoder = wire.FrameDecoder()
        self._ready: list[bytes] = []
        self._send, self._recv = trio.open_memory_channel[bytes | Backlog | None](_QUEUE)
        self.closed = False
        self.written = trio.Event()  # the writer has flushed everything and stopped
        self.eof = trio.Event()  # the other end closed (or the connection broke)
        #: The code of the error message the other end sent before closing, if any.
        self.error_code: int | None = None
        self.bytes_in = 0
        self.bytes_out = 0
        #: Told when bytes arrive (the host's admission: a stranger that speaks).
        self.on_data: Callable[[Link], None] | None = None
        #: Set when the peer let the queue fill: whoever runs the connection cuts it
        #: (closing the queue alone leaves the writer stuck and the reader reading).
        self.overflowed = trio.Event()

    async def receive(self, timeout: float | None = None) -> tuple[bytes, dict]:
        """The next frame body and its decoded map.  Raises :class:`ProtocolError` for bad
        input, :class:`LinkClosed` at the end, ``trio.TooSlowError`` on a timeout."""
        while not self._ready:
            limit = self.timeouts.frame if self.decoder.pending else self.timeouts.idle
            if timeout is not None:
                limit = min(limit, timeout)
            with trio.fail_after(limit):
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    self.eof.set()
                    raise LinkClosed(str(exc) or type(exc).__name__) from None
            if not data:
                self.eof.set()
                raise LinkClosed("end of stream")
            self.bytes_in += len(data)
            if self.on_data is not None:
                self.on_data(self)
            self.traffic.received += len(data)
            self._ready.extend(self.decoder.feed(data))
        body = self._ready.pop(0)
        msg = wire.decode(body)
        if msg["t"] == "error":
            code, text = parse_error(msg)
            self.error_code = int(code) if code is not None else None
            self.eof.set()  # an error is the last thing a peer sends
            raise LinkClosed(f"peer error {int(code) if code else '?'}: {text}", msg)
        return body, msg

    def send(self, body: bytes) -> None:
        """Queue a frame body.  A peer that lets the queue fill is dropped."""
        self._queue(body)

    def send_backlog(self, bodies: Sequence[bytes], start: int = 0) -> None:
        """Queue ``bodies[start:]`` as they are now (PROTOCOL.md 18): one place in the
        queue, whatever their number.  The writer streams them as fast as the other end
        takes them, then what was queued after this call: nothing is missed, doubled or
        reordered.  ``bodies`` is read later: it must only grow (a transcript does)."""
        if start < len(bodies):
            self._queue(Backlog(bodies, start))

    def _queue(self, item: bytes | Backlog) -> None:
        if self.closed:
            return
        try:
            self._send.send_nowait(item)
        except trio.WouldBlock:
            self.closed = True
            self.overflowed.set()
            with contextlib.suppress(trio.ClosedResourceError):
                self._send.close()

    def send_msg(self, msg: dict) -> None:
        self.send(wire.encode(msg))

    async def writer(self) -> None:
        """Drain the queue to the socket.  At the end, half-close (send EOF) rather than
        close: closing with unread input would reset the connection and could destroy
        frames still in flight to the other end."""
        try:
            # Coalesce what is already queued into one write (fewer system calls), up to
            # _WRITE bytes; a backlog is pulled from as each write completes (the other
            # end's pace: flow control), before anything queued after it.
            chunks: list[bytes] = []
            size = 0
            item = await self._recv.receive()
            while item is not None:
                if isinstance(item, Backlog):
                    while not item.done:
                        for body in item.take(_WRITE - size):
                            chunks.append(wire.frame(body))
                            size += len(chunks[-1])
                        if size >= _WRITE:
                            await self._write(chunks)
                            chunks, size = [], 0
                else:
                    chunks.append(wire.frame(item))
                    size += len(chunks[-1])
                if size >= _WRITE:
                    await self._write(chunks)
                    chunks, size = [], 0
                try:
                    item = self._recv.receive_nowait()
                except trio.WouldBlock:
                    await self._write(chunks)
                    chunks, size = [], 0
                    item = await self._recv.receive()
            await self._write(chunks)
            with contextlib.suppress(Exception):
                if isinstance(self.stream, trio.abc.HalfCloseableStream):
                    await self.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.EndOfChannel,
                OSError):
            pass
        finally:
            self.closed = True
            self.written.set()

    async def _write(self, chunks: list[bytes]) -> None:
        if chunks:
            data = b"".join(chunks)
            await self.stream.send_all(data)
            self.bytes_out += len(data)
            self.traffic.sent += len(data)

    async def drain(self, timeout: float = 2.0) -> None:
        """Finish writing, send EOF, and wait (at most ``timeout`` seconds) for the other
        end to close too, so nothing in flight is lost."""
        self.finish()
        with trio.move_on_after(timeout):
            await self.written.wait()
            await self.eof.wait()
        with contextlib.suppress(Exception):
            await self.stream.aclose()

    def finish(self) -> None:
        """Close after everything queued has been written."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
                self._send.send_nowait(None)

    async def fail(self, code: ErrorCode, detail: str = "") -> None:
        """Send an error message, then close the link."""
        if not self.closed:
            self.send_msg(error_message(code, detail))
        await self.drain(1.0)


class ChatBucket:
    """A token bucket on trio's clock: ``burst`` chat lines at once, then one every
    ``period / burst`` seconds (5 per 10 s by default); extra lines are dropped."""

    def __init__(self, burst: int = 5, period: float = 10.0) -> None:
        self.burst = burst
        self.rate = burst / period
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self) -> bool:
        now = trio.current_time()
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _Coalesced:
    """The trio shell of a :class:`~chkobba_p2p.link.spectators.SpectatorAnnouncer`: it
    feeds the core trio's time, carries out its announcements (``announce(names)``) and
    keeps one timer armed for the pending one."""

    def __init__(self, announce: Callable[[tuple[str, ...]], None], window: float) -> None:
        self.core = SpectatorAnnouncer(window)
        self.announce = announce
        self._armed = False

    def changed(self, names: tuple[str, ...], nursery: trio.Nursery | None) -> None:
        """``names`` are watching from now on; the timer runs in ``nursery``."""
        news = self.core.changed(names, trio.current_time())
        if news.names is not None:
            self.announce(news.names)
        if news.due is not None and not self._armed and nursery is not None:
            self._armed = True
            nursery.start_soon(self._timer)

    async def _timer(self) -> None:
        try:
            while (due := self.core.due) is not None:
                await trio.sleep_until(due)
                news = self.core.tick(trio.current_time())
                if news.names is not None:
                    self.announce(news.names)
        finally:
            self._armed = False


async def _pinger(link: Link) -> None:
    ping = wire.encode(lm.Ping().to_wire())
    while not link.closed:
        await trio.sleep(link.timeouts.idle / 3)
        link.send(ping)


class _Peer:
    """What host and client share: the session, the log, the controller's decisions."""

    def __init__(self, controller: SeatController, timeouts: Timeouts, identity: Identity,
                 log_path: Path | None) -> None:
        self.controller = controller
        self.timeouts = timeouts
        self.identity = identity
        self.session: Session | None = None
        self.log = TranscriptWriter(log_path or default_log_path())
        self._logged = 0
        self._deciding = False
        self.finished = trio.Event()
        self.nursery: trio.Nursery | None = None
        self.error: str | None = None
        self.error_code: str | None = None  # an OutcomeError or a wire code's name
        self.traffic = Traffic()
        self._refusals = 0
        #: Every seat's clocks (PROTOCOL.md 12), from the genesis on.
        self.clock: Clocks | None = None
        # Our own chat lines go through the same limit the host applies to us.
        self._chat_bucket = ChatBucket()
        controller._chat_sink = self.send_chat
        controller._resign_sink = self.resign
        controller._away_sink = self.step_away
        #: The player is stepping away: on cancellation, say so instead of leaving.
        self.stepping_away = False

    def send_chat(self, text: str) -> bool:
        """Send a chat line (see :meth:`SeatController.send_chat`)."""
        raise NotImplementedError

    _ask_scope: trio.CancelScope | None = None
    _asked: int | None = None

    def ask_ready(self, lobby: Lobby) -> None:
        """The table is full with ``lobby.seating``: ask the controller (once per seating)
        whether its person is ready, then :meth:`confirmed`.  A changed seating cancels
        the question and asks again."""
        if self._asked == lobby.seating or self.nursery is None:
            return
        self.cancel_ask()
        self._asked = lobby.seating
        scope = self._ask_scope = trio.CancelScope()

        async def ask() -> None:
            with scope:
                await self.controller.ready_to_start(lobby)
                self.confirmed(lobby.seating)

        self.nursery.start_soon(ask)

    def cancel_ask(self) -> None:
        if self._ask_scope is not None:
            self._ask_scope.cancel()
        self._ask_scope = None
        self._asked = None

    def confirmed(self, seating: int) -> None:
        """This seat's person confirmed ``seating`` (the ready check)."""
        raise NotImplementedError

    def emit(self, event: object) -> None:
        try:
            self.controller.on_event(event)
        except Exception:  # a display bug must not break the game
            # Not reported through the controller that just failed: logged.
            _log.exception("controller on_event failed on %r", event)

    def flush_log(self) -> None:
        s = self.session
        if s is None:
            return
        while self._logged < len(s.bodies):
            self.log.append(s.bodies[self._logged])
            self._logged += 1

    def send_entry(self, body: bytes) -> None:
        raise NotImplementedError

    def catching_up(self) -> bool:
        """Still reading the game before acting in it: sign nothing yet."""
        return False

    def clocks(self) -> tuple[SeatClock, ...]:
        """Every seat's clocks now (empty before the game starts).  See
        :class:`~chkobba_p2p.liveness.SeatClock`: ``owes`` and ``move_left`` give the
        player on the floor's countdown, ``connected`` and ``allowance_left`` a dropped
        player's ("amel stepped away: 4:32 left")."""
        if self.clock is None:
            return ()
        return self.clock.read(trio.current_time())

    def _limits(self) -> Limits:
        return Limits(move=self.timeouts.turn, allowance=self.timeouts.reconnect)

    def _clock_changed(self, force: bool = False) -> None:
        """The floor may have moved or a seat dropped: move the clocks, tell the client."""
        s = self.session
        if s is None:
            return
        now = trio.current_time()
        if self.clock is None:
            self.clock = Clocks(s.table.players, self._limits(), now)
        before = self.clock.read(now)
        self.clock.floor(None if s.finished else s.floor, now, move=s.length)
        after = self.clock.read(now)
        if force or [(c.owes, c.connected, c.move_left) for c in before] != \
                [(c.owes, c.connected, c.move_left) for c in after]:
            self.emit(ClockReading(after, self.clock.limits))

    def pump(self) -> None:
        """Send whatever the session has ready, log, report events, wake the decider."""
        s = self.session
        if s is None:
            return
        try:
            while (entry := s.next_entry()) is not None:
                self.send_entry(entry.body)
        except Exception as exc:  # noqa: BLE001 - our own session refused our own entry
            # Never expected (a peer makes only entries its session accepts); if it happens
            # the game ends with a signed record that blames nobody, not with a traceback.
            _log.error("internal error: %r", exc, exc_info=exc)
            if not s.finished:
                self.send_entry(self.blame(ProtocolError(ErrorCode.PROTOCOL_VIOLATION,
                                                         f"internal error: {exc}"), None,
                                           None))
            return
        self.flush_log()
        for ev in s.take_events():
            self.emit(ev)
        self._clock_changed()
        if s.finished:
            self.finished.set()
            return
        if s.decision is not None and not self._deciding and self.nursery is not None:
            self._deciding = True
            self.nursery.start_soon(self._decide)

    async def _decide(self) -> None:
        s = self.session
        assert s is not None
        try:
            d = s.decision
            if d is None:
                return
            choice: Move | bool
            if d.kind == "play":
                choice = await self.controller.choose_play(d.hand)
            else:
                choice = await self.controller.choose_cut(d.hand)
            if s.decision is d or s.decision == d:
                try:
                    s.decide(choice)
                    self._refusals = 0
                except (IllegalMove, LocalError) as exc:
                    # The controller chose something the rules refuse: say so, ask again.
                    self._refusals += 1
                    if self._refusals > 5:
                        raise
                    self.emit(ChoiceRefused(str(exc)))
        finally:
            self._deciding = False
        self.pump()

    def _internal_error(self, exc: Exception, body: bytes | None) -> None:
        """An entry made this peer's own code fail in a way no check foresaw: the game ends
        with a signed record that blames nobody (nothing proves who is at fault), never
        with a traceback."""
        _log.error("internal error on an entry: %r", exc, exc_info=exc)
        s = self.session
        if s is not None and not s.finished:
            fault = ProtocolError(ErrorCode.PROTOCOL_VIOLATION, f"internal error: {exc!r}")
            self.send_entry(self.blame(fault, None, body))
        self.finished.set()

    def blame(self, fault: GameFault | ProtocolError, blamed: int | None,
              evidence: bytes | None) -> bytes:
        """End the game with a signed abort record; returns its body (sent by caller)."""
        s = self.session
        assert s is not None
        code = fault.error_code
        entry = s.abort(code, blamed, getattr(fault, "detail", str(fault)), evidence,
                        proven=isinstance(fault, GameFault))
        self.flush_log()
        for ev in s.take_events():
            self.emit(ev)
        self.finished.set()
        return entry.body

    def leave(self, detail: str = "the player left") -> bytes | None:
        """Leave the running game on purpose: a signed ``abort`` (``peer_left``, blaming
        this seat), logged and reported; returns its frame body for the caller to send
        (None when no game is running)."""
        s = self.session
        if s is None or s.finished or self.catching_up():
            return None
        entry = s.leave(detail)
        assert entry is not None
        self.flush_log()
        for ev in s.take_events():
            self.emit(ev)
        self.finished.set()
        return entry.body

    def resign(self) -> bool:
        """Resign the running match (see :meth:`SeatController.resign`)."""
        s = self.session
        if s is None or s.finished or self.catching_up():
            return False
        try:
            entry = s.resign()
        except LocalError:
            return False
        self.flush_log()
        for ev in s.take_events():
            self.emit(ev)
        self.send_entry(entry.body)
        self.finished.set()
        return True

    def step_away(self) -> bool:
        """Mark this seat as stepping away (see :meth:`SeatController.step_away`)."""
        s = self.session
        if s is None or s.finished:
            return False
        self.stepping_away = True
        return True

    #: The unsigned message that says this seat steps away (PROTOCOL.md 17).
    away_message: dict = lm.Away().to_wire()

    async def _away_on_cancel(self, links: list[Link]) -> None:
        """We are cancelled after :meth:`step_away`: tell the others, nothing signed (the
        game waits for this seat within its allowance; it comes back with a resume)."""
        data = wire.frame(wire.encode(self.away_message))
        with trio.CancelScope(shield=True), trio.move_on_after(1.0):
            for link in links:
                with contextlib.suppress(Exception):
                    await link.stream.send_all(data)
                    if isinstance(link.stream, trio.abc.HalfCloseableStream):
                        await link.stream.send_eof()
        self.log.close()

    async def _leave_on_cancel(self, links: list[Link]) -> None:
        """We are being cancelled (Ctrl-C) during a game: tell the others at once.  The
        peer's tasks are gone; the frame is written straight to the sockets, shielded,
        within a second."""
        body = self.leave("the player left (interrupted)")
        if body is None:
            return
        data = wire.frame(body)
        with trio.CancelScope(shield=True), trio.move_on_after(1.0):
            for link in links:
                with contextlib.suppress(Exception):
                    await link.stream.send_all(data)
                    if isinstance(link.stream, trio.abc.HalfCloseableStream):
                        await link.stream.send_eof()
        self.log.close()

    async def _after_match(self) -> bool | None:
        """The match is over: the controller's answer to playing again (None: none), while
        the connections are still open (PROTOCOL.md 17)."""
        s = self.session
        if s is None or not s.finished or self.catching_up():
            return None
        try:
            answer = await self.controller.after_match(self.outcome())
        except Exception:  # a display bug must not break the end of the game
            _log.exception("controller after_match failed")
            return None
        return answer if isinstance(answer, bool) else None

    def outcome(self) -> Outcome:
        s = self.session
        code = self.error_code
        if code is None and s is not None and s.aborted is not None:
            code = OutcomeError.ABORTED
        return Outcome(seat=s.seat if s else None, table=s.table if s else None,
                       log_path=self.log.path if s else None,
                       done=s.done if s else None, aborted=s.aborted if s else None,
                       error=self.error, error_code=code, bytes_sent=self.traffic.sent,
                       bytes_received=self.traffic.received)


# ------------------------------------------------------------------------------ host


class HostPeer(_Peer):
    """Seat 0: listens, seats the others, relays and checks every entry, plays its seat."""

    def __init__(self, config: HostConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        self.lobby = SeatLobby(self.identity, config.name, config.rules, config.players,
                               config.shuffle_proofs)
        self.links: dict[int, Link] = {}
        self.absent: set[int] = set()  # seats of a running game with no connection
        #: Spectators watching now: id -> (name, link).  They hold no seat.
        self.spectators: dict[int, tuple[str, Link]] = {}
        self._spectator_ids = 0
        self._spectator_news = _Coalesced(self._announce_spectators, self.timeouts.announce)
        self.away_seats: set[int] = set()  # seats that said they step away
        #: Seats a restarted host has not seen since its restart: waited for, not known
        #: to have lost their connection (Waiting.awaited, ``wait`` with ``restart``).
        self.awaited_seats: set[int] = set()
        self.away_message = lm.Away(0).to_wire()
        self.port = 0
        #: Where the listeners and their streams come from (TCP by default).
        self.transport = config.transport
        self.resumed_entries = 0
        #: Who may hold a connection (PROTOCOL.md 5.4): strangers before their greeting,
        #: spectators, seats -- keyed by the link, never by its address.
        self.admission: Admission[Link] = Admission(AdmissionPolicy(
            strangers=self._anonymous_budget(),
            greeting=min(GREETING, self.timeouts.handshake),
            spectators=config.spectators,
            all_shared=self.transport.shared_address))
        #: The handshake of each stranger, cancelled to let it go (evicted for room).
        self._strangers: dict[Link, trio.CancelScope] = {}
        #: Seated peers' and spectators' connections, in order; kept while the host is
        #: cancelled, so that its last word (away, or a signed leave) reaches them.
        self._open_links: dict[Link, None] = {}
        #: Once the match is over: each joining seat's answer to playing again.
        self.rematch_answers: dict[int, bool] = {}
        self._asking_rematch = False  # the host's own controller decides (after_match)
        #: Strangers let go before their greeting: for room, or shed when out of
        #: descriptors (see :class:`~chkobba_p2p.link.admission.Admission`).
        self.refused_connections = 0
        self._files_warned = -math.inf
        self.port_mapper: PortMapper | None = None
        self._lobby_moved = trio.Event()  # seats changed: the announcement follows
        self._try_resume()

    def _try_resume(self) -> None:
        """After a crash: rebuild the game from the log and the saved master secret."""
        path = self.config.state_path
        if path is None or not path.exists():
            return
        saved = SavedGame.load(path)
        if saved is None or saved.seat != 0 or saved.host != f"port:{self.config.port}":
            return
        try:
            log = read_transcript(saved.log)
            session = Session.resume(self.identity, list(log.bodies), self.identity.public,
                                     saved.master)
        except Exception as exc:  # an unusable save: start a new table
            self.emit(Notice(NoticeKind.RESUME_FAILED, str(exc) or type(exc).__name__,
                             path=Path(saved.log)))
            return
        if session.finished:
            return
        self.session = session
        self.lobby.seats = list(session.table.seats)
        self.lobby.game = session.table.game
        self.log = TranscriptWriter(saved.log, resume_at=log.valid_length)
        self._logged = len(session.bodies)
        self.resumed_entries = self._logged

    def _save_state(self) -> None:
        s = self.session
        if self.config.state_path is not None and s is not None:
            SavedGame(s.table.game, 0, f"port:{self.config.port}", s.master,
                      str(self.log.path)).save(self.config.state_path)

    def send_entry(self, body: bytes) -> None:
        for link in self.links.values():
            link.send(body)
        self._to_spectators(body)

    def broadcast_msg(self, msg: dict, except_seat: int | None = None) -> None:
        body = wire.encode(msg)
        for seat, link in self.links.items():
            if seat != except_seat:
                link.send(body)
        self._to_spectators(body)

    def _to_spectators(self, body: bytes) -> None:
        for _, link in self.spectators.values():
            link.send(body)

    def send_chat(self, text: str) -> bool:
        line = clean_chat(text)
        if line is None or self.finished.is_set() or not self._chat_bucket.take():
            return False
        self.broadcast_msg(lm.Chat(line, 0).to_wire())
        self.emit(Chat(0, line))
        return True

    def _on_chat(self, seat: int, msg: dict, bucket: ChatBucket) -> None:
        """Relay a seated peer's chat line to the others, with the connection's seat
        (never the sender's word); invalid or over-limit lines are dropped."""
        line = clean_chat(msg.get("text"))
        if line is None or not bucket.take():
            return
        self.broadcast_msg(lm.Chat(line, seat).to_wire(), except_seat=seat)
        self.emit(Chat(seat, line))

    async def run(self, task_status: trio.TaskStatus[int] | None = None) -> Outcome:
        parse_port(self.config.port, allow_zero=True)
        try:
            listeners = await self.transport.listen(self.config.port, self.config.bind or "")
        except OSError as exc:
            raise ListenError(listen_error(exc, self.config.bind, self.config.port)) from None
        self.port = self.transport.port_of(listeners[0])
        self.emit(Listening(self.port, self.identity.public))
        if task_status is not None:
            task_status.started(self.port)
        if self.config.port_mapping is not None:
            self.port_mapper = PortMapper(self.config.port_mapping, self.port, self.emit)
        try:
            await self._run_host(listeners)
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            if self.session is None:
                await self._close_table_on_cancel(list(self._open_links))
            elif self.stepping_away:
                await self._away_on_cancel(list(self._open_links))
            elif self.config.leave_on_cancel:
                await self._leave_on_cancel(list(self._open_links))
            raise
        finally:
            if self.port_mapper is not None:  # also when cancelled: shielded inside
                kept = await self.port_mapper.remove()
                if kept is not None:
                    self.emit(Notice(NoticeKind.PORT_MAPPING_KEPT, kept))
        return self.outcome()

    async def _close_table_on_cancel(self, links: list[Link]) -> None:
        """Cancelled before the game started: the table is closed, and the seated peers
        and spectators are told so (``error shutdown``), not left to guess from a closed
        connection (PROTOCOL.md 5)."""
        data = wire.frame(wire.encode(error_message(ErrorCode.SHUTDOWN,
                                                    "the host closed the table")))
        with trio.CancelScope(shield=True), trio.move_on_after(1.0):
            for link in links:
                with contextlib.suppress(Exception):
                    await link.stream.send_all(data)
                    if isinstance(link.stream, trio.abc.HalfCloseableStream):
                        await link.stream.send_eof()

    async def _run_host(self, listeners: list) -> None:
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            for listener in listeners:
                nursery.start_soon(self._accept_loop, listener, nursery)
            if self.config.beacon:
                nursery.start_soon(self._announce)
            if self.port_mapper is not None:
                nursery.start_soon(self.port_mapper.run)
            nursery.start_soon(self._watchdog)
            if self.session is not None:  # resumed: everyone else must reconnect
                s = self.session
                self.emit(Restored(s.table, s.own_seat, s.replayed))
                self.emit(Resumed(0, self.resumed_entries))
                self._clock_changed()
                for seat in range(1, self.session.table.players):
                    self.awaited_seats.add(seat)  # waited for, not known to be gone
                    self._dropped(seat)
                self.pump()
            await self.finished.wait()
            self._asking_rematch = True
            # A joiner already gone (it left as the match ended, before the question):
            # it will hear of no new table either, so it answers no, as one leaving now.
            for seat in range(1, self.lobby.players):
                if seat not in self.links and seat not in self.rematch_answers:
                    self.rematch_answers[seat] = False
                    self.emit(RematchAnswer(seat, False, left=True))
            try:
                answer = await self._after_match()  # the joiners' answers arrive meanwhile
            finally:
                self._asking_rematch = False
            if answer is not None:  # the host's own answer: a new table, or none
                for link in self.links.values():
                    if not link.closed:
                        link.send_msg({"t": "rematch", "accept": answer})
            # Let the last entries and the abort reach everyone before closing.
            async with trio.open_nursery() as closing:
                for link in [*self.links.values(), *(lk for _, lk in self.spectators.values())]:
                    closing.start_soon(link.drain)
            nursery.cancel_scope.cancel()
        for link in [*self.links.values(), *(lk for _, lk in self.spectators.values())]:
            with contextlib.suppress(Exception):
                await link.stream.aclose()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()

    # ---------------------------------------------------------- connections

    #: Strangers (connections before their greeting) held at once, at most; lowered
    #: when the process may open few files (see ``_anonymous_budget``).  A full budget
    #: lets the oldest go, never the newcomer (PROTOCOL.md 5.4).
    MAX_UNAUTHENTICATED = STRANGERS

    def _anonymous_budget(self) -> int:
        """How many unauthenticated connections to hold: :attr:`MAX_UNAUTHENTICATED`,
        or fewer when the file descriptor limit would not leave room for the seated
        peers, the log and the runtime."""
        try:
            import resource  # POSIX only

            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        except (ImportError, OSError, ValueError):
            return self.MAX_UNAUTHENTICATED
        if soft == resource.RLIM_INFINITY:
            return self.MAX_UNAUTHENTICATED
        return max(2, min(self.MAX_UNAUTHENTICATED, (soft - 48) // 2))

    async def _accept_loop(self, listener: trio.abc.Listener[trio.abc.Stream],
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
        victim = self.admission.shed()
        if victim is not None:
            self._let_go(victim)  # counted there
        else:
            self.refused_connections += 1  # nobody to let go: this connection is lost
        now = trio.current_time()
        if now - self._files_warned > 10:
            self._files_warned = now
            _log.warning("chkobba host: out of file descriptors (%s) while accepting; "
                         "dropping unauthenticated connections", exc.strerror or exc)

    def _let_go(self, link: Link) -> None:
        """A stranger the admission let go (for room): its handshake ends now."""
        self.refused_connections += 1
        link.finish()
        scope = self._strangers.pop(link, None)
        if scope is not None:
            scope.cancel()

    async def _serve(self, stream: trio.abc.Stream) -> None:
        address = self.transport.peer_address(stream)
        link = Link(stream, self.timeouts, self.traffic)
        link.decoder = wire.FrameDecoder(wire.MAX_HELLO)  # until the handshake is done
        link.on_data = self.admission.heard
        admitted = self.admission.opened(link, address, trio.current_time())
        for victim in admitted.evicted:
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
                    await self._connection(link, nursery, admitted.deadline)
            finally:
                # Forgotten at once (its pinger may linger until it next wakes): a
                # place it held, a spectator's or a stranger's, is free again now.
                cutter.cancel()
                self._strangers.pop(link, None)
                self.admission.closed(link)
                link.on_data = None
                if trio.current_effective_deadline() != -math.inf:
                    self._open_links.pop(link, None)
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
                          greeting_due: float) -> None:
        running = self.session.table.game if self.session else None
        hs = HostHandshake(self.lobby, running, limits=self._announced_limits(),
                           allowance_left=self._allowance_left_of)
        link.send_msg(hs.greeting())
        replaced: Link | None = None
        spectator: str | None = None
        try:
            with trio.fail_at(greeting_due):  # the admission's deadline for a stranger
                hello_body, hello = await link.receive()
                if hello.get("t") == "watch":  # a spectator: no seat, no key
                    spectator = watch_name(hello, len(self.spectators),
                                           self.config.spectators)
                    # Its own slots from now on, out of the strangers' budget.
                    if not self.admission.spectating(link):
                        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                                            "every spectator's place is taken")
                    self._strangers.pop(link, None)
                else:
                    welcome, seat, resume = hs.on_hello(
                        hello, hello_body, self.session.length if self.session else 0)
                    if seat in self.links and not self.links[seat].closed:
                        if hello.get("resume") is None:
                            # A fresh join with an identity already connected (a fresh
                            # hello never takes a seat that is held).
                            raise ProtocolError(ErrorCode.ALREADY_SEATED)
                        # A resume, proven by the key's proof of possession, for the
                        # running game: the old connection is dead but does not know it
                        # yet (a half-open socket).  The new one replaces it.
                        replaced = self.links[seat]
        except trio.TooSlowError:
            await link.fail(ErrorCode.HANDSHAKE_TIMEOUT)
            return
        except ProtocolError as exc:
            await link.fail(exc.error_code, exc.detail)
            return
        except LinkClosed:
            return
        if self.finished.is_set():
            await link.fail(ErrorCode.SHUTDOWN)
            return
        if spectator is not None:
            await self._spectate(link, nursery, spectator)
            return
        if replaced is not None and self.links.get(seat) is replaced:
            del self.links[seat]  # its read loop ends without counting the seat as gone
            replaced.finish()
            with contextlib.suppress(Exception):
                await replaced.stream.aclose()
        link.send_msg(welcome)
        self.links[seat] = link
        self._open_links[link] = None
        self.admission.seated(link)  # no budget applies to a seat from now on
        self._strangers.pop(link, None)
        link.decoder = wire.FrameDecoder(wire.MAX_FRAME, link.decoder)
        nursery.start_soon(_pinger, link)
        if self.session is None:
            self._lobby_changed()
        else:
            if resume is not None:  # what it missed, streamed at its pace (PROTOCOL.md 18)
                link.send_backlog(self.session.bodies, resume[1])
            # A fresh hello for a seat that already signed entries cannot play them on
            # (the game's secrets are elsewhere; it stops once it reads the chain,
            # PROTOCOL.md 5): the seat stays away, its allowance running.
            elsewhere = hello.get("resume") is None and self.session.chain.next_seq[seat] > 0
            if not elsewhere:
                self.away_seats.discard(seat)
                self.awaited_seats.discard(seat)  # seen: a later drop is a drop
            if seat in self.absent and not elsewhere:
                self.absent.discard(seat)
                if self.clock is not None:
                    self.clock.back(seat, trio.current_time())
                self.broadcast_msg({"t": "back", "seat": seat})
                self.emit(Resumed(seat))
                self._clock_changed(force=True)
        try:
            await self._read_loop(link, seat)
        finally:
            if self.links.get(seat) is link:
                del self.links[seat]
                self._dropped(seat)

    def _announced_limits(self) -> dict[str, int]:
        """The clocks' limits this host enforces, for the welcome (PROTOCOL.md 12.3), in
        whole seconds (the wire has no floats), rounded up: a joiner that waits for them
        never concludes before the host does."""
        return {"move": math.ceil(self.timeouts.turn),
                "away": math.ceil(self.timeouts.reconnect)}

    def _allowance_left_of(self, seat: int) -> int:
        """A returning seat's allowance of time away left, for its welcome (whole
        seconds, rounded up as every figure this host announces)."""
        if self.clock is None:
            return math.ceil(self.timeouts.reconnect)
        return math.ceil(self.clock.read(trio.current_time())[seat].allowance_left)

    def _on_rematch(self, seat: int, msg: dict) -> None:
        """A joiner's answer to playing again (PROTOCOL.md 17): once the match is over,
        once per seat, reported to the controller; anything else is ignored."""
        s, accept = self.session, msg.get("accept")
        if s is None or not s.finished or not isinstance(accept, bool) \
                or seat in self.rematch_answers:
            return
        self.rematch_answers[seat] = accept
        self.emit(RematchAnswer(seat, accept))

    def confirmed(self, seating: int) -> None:
        if self.lobby.mark_ready(0, seating):
            self._lobby_changed()
    async def _spectate(self, link: Link, nursery: trio.Nursery, name: str) -> None:
        """A spectator: the transcript so far, then everything the seats get, until it
        leaves; it may only ping.  Whatever it does, the game goes on and nobody is
        blamed: a misbehaving spectator is dropped."""
        self._spectator_ids += 1
        sid = self._spectator_ids
        s = self.session
        link.send_msg(watching_message(sid, s.length if s is not None else 0))
        # No await until it is registered: nothing relayed meanwhile is missed or doubled.
        # The transcript so far takes one place in its queue, streamed at its pace
        # (PROTOCOL.md 18): what is relayed meanwhile follows it.
        if s is None:
            link.send_msg(self._lobby_message())
        else:
            link.send_backlog(s.bodies)
        self.spectators[sid] = (name, link)
        self._open_links[link] = None
        self._spectators_changed()
        nursery.start_soon(_pinger, link)
        try:
            refusal = await self._spectator_reads(link)
        finally:
            del self.spectators[sid]
            if not self.finished.is_set():
                self._spectators_changed()
        if refusal is not None:  # gone from the list first: then the error, and close
            await link.fail(*refusal)

    @staticmethod
    async def _spectator_reads(link: Link) -> tuple[ErrorCode, str] | None:
        """Answer a spectator's pings until it leaves (None) or breaks the rules (the
        error to send it)."""
        while True:
            try:
                _, msg = await link.receive()
            except trio.TooSlowError:
                return ErrorCode.TIMEOUT, "frame or idle timeout"
            except ProtocolError as exc:
                return exc.error_code, exc.detail
            except LinkClosed:
                return None
            if msg["t"] == "ping":
                link.send_msg({"t": "pong"})
            elif msg["t"] != "pong":
                return (ErrorCode.PROTOCOL_VIOLATION,
                        f"a spectator sends only ping and pong, not {msg['t']!r}"[:80])

    def _spectators_changed(self) -> None:
        """Who is watching changed: told to everyone, coalesced, at most once every
        ``ANNOUNCE_WINDOW`` seconds, the last state always (PROTOCOL.md 18)."""
        names = tuple(n for n, _ in self.spectators.values())
        self._spectator_news.changed(names, self.nursery)

    def _announce_spectators(self, names: tuple[str, ...]) -> None:
        self.broadcast_msg(spectators_message(names, self.config.spectators))
        self.emit(Spectators(names, self.config.spectators))

    def _lobby_message(self) -> dict:
        msg = self.lobby.lobby_message()
        msg["spectators"] = self.config.spectators
        return msg

    def _lobby_changed(self) -> None:
        self._lobby_moved.set()
        lobby = self.lobby
        self.broadcast_msg(self._lobby_message())
        event = Lobby(tuple((s.name, s.fingerprint) if s else None for s in lobby.seats),
                      shuffle_proofs=CAP_SHUFFLE_PROOFS in lobby.caps,
                      ready=tuple(lobby.ready_flags()), seating=lobby.seating,
                      keys=tuple(s.key if s else None for s in lobby.seats),
                      limits=self._limits())
        self.emit(event)
        if self.session is not None:
            return
        if not lobby.full:
            self.cancel_ask()
        elif not lobby.all_ready:
            if 0 not in lobby.ready:
                self.ask_ready(event)
        else:
            self.cancel_ask()
            table = self.lobby.table()
            self.session, genesis = Session.create(self.identity, table)
            self.log.write_header(game=table.game, seat=0, key=self.identity.public,
                                  name=self.config.name,
                                  host=_address(self.config.bind or "0.0.0.0", self.port))
            self._save_state()
            self.send_entry(genesis.body)
            self.pump()

    def _dropped(self, seat: int) -> None:
        if self.finished.is_set():
            if self._asking_rematch and seat not in self.rematch_answers:
                # Gone without an answer (a bot, an older client, a crash): it cannot
                # hear of a new table, so it will not be at one.
                self.rematch_answers[seat] = False
                self.emit(RematchAnswer(seat, False, left=True))
            return
        if self.session is None:
            left = self.lobby.seats[seat]
            self.lobby.leave(seat)
            # Not when our own side is closing the table (cancelled): nobody left us.
            if left is not None and trio.current_effective_deadline() != -math.inf:
                self.emit(LeftLobby(seat, left.name))
            self._lobby_changed()
            return
        self.absent.add(seat)
        if self.clock is not None:
            self.clock.drop(seat, trio.current_time())
        self._announce_wait(seat)
        self._clock_changed(force=True)

    def _announce_wait(self, seat: int) -> None:
        """A dropped seat's countdown: the allowance of time away it has left."""
        left = 0
        if self.clock is not None:
            left = max(0, math.ceil(self.clock.read(trio.current_time())[seat].allowance_left))
        away = seat in self.away_seats
        awaited = seat in self.awaited_seats and not away
        self.broadcast_msg(lm.Wait(seat, left, away, awaited).to_wire())
        self.emit(Waiting(seat, left, away, awaited))

    async def _watchdog(self) -> None:
        """The clocks (PROTOCOL.md 12): countdowns for dropped seats once a second, and
        the end of the game, with a signed record, when the seat that owes the next
        message runs out of time (its move clock, or its allowance while away).  The
        host times out its own seat too, so that every log records the same verdict."""
        while not self.finished.is_set():
            now = trio.current_time()
            wake = now + (1.0 if self.timeouts.reconnect >= 3 else 0.1)
            clock = self.clock
            if clock is not None:
                deadline = clock.next_deadline(now)
                if deadline is not None:
                    wake = min(wake, deadline + 0.01)
            await trio.sleep_until(wake)
            s, clock = self.session, self.clock
            if s is None or s.finished or clock is None:
                continue
            now = trio.current_time()
            expiry = clock.expired(now)
            if expiry is not None:
                code = ErrorCode.TIMEOUT if expiry.code == "timeout" else ErrorCode.PEER_LEFT
                fault = ProtocolError(code, expiry.detail)
                self.send_entry(self.blame(fault, expiry.seat, None))
                return
            for seat in sorted(self.absent):
                self._announce_wait(seat)

    async def _read_loop(self, link: Link, seat: int) -> None:
        bucket = ChatBucket()
        while True:
            try:
                body, msg = await link.receive()
            except trio.TooSlowError:
                await link.fail(ErrorCode.TIMEOUT, "frame or idle timeout")
                return
            except ProtocolError as exc:
                await link.fail(exc.error_code, exc.detail)
                return
            except LinkClosed:
                return
            t = msg["t"]
            if t == "ping":
                link.send_msg(lm.Pong().to_wire())
            elif t == "pong":
                pass
            elif t == "sig":
                if not await self._on_entry(link, seat, body, msg):
                    return
            elif t == "chat":
                self._on_chat(seat, msg, bucket)
            elif t == "start":
                # The ready check (before the game; afterwards it changes nothing).
                if self.session is None and self.lobby.mark_ready(seat, msg.get("seating")):
                    self._lobby_changed()
            elif t == "away":
                self.away_seats.add(seat)  # its drop, next, is a step away
            elif t == "rematch":
                self._on_rematch(seat, msg)
            else:
                await link.fail(ErrorCode.UNKNOWN_TYPE, repr(t)[:40])
                return

    async def _on_entry(self, link: Link, seat: int, body: bytes, msg: dict) -> bool:
        s = self.session
        try:
            entry = wire.open_entry(body, msg)
            if s is None:
                raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "the game has not started")
            if entry.seat != seat:
                raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION,
                                    "an entry signed for another seat")
            s.check(entry)
        except ProtocolError as exc:
            if s is not None and s.finished:
                return True  # late traffic after the end: ignored
            await link.fail(exc.error_code, exc.detail)
            return False
        # Forward first: the other peers check the game content while we do.
        self._relay(seat, body)
        try:
            s.receive(entry, checked=True)
        except GameFault as fault:
            self.send_entry(self.blame(fault, fault.blamed_seat, body))
            return True
        except Exception as exc:  # noqa: BLE001 - never a traceback out of the event loop
            self._internal_error(exc, body)
            return True
        self.pump()
        return True

    def _relay(self, from_seat: int, body: bytes) -> None:
        for seat, link in self.links.items():
            if seat != from_seat:
                link.send(body)
        self._to_spectators(body)

    # ------------------------------------------------------------------ LAN

    def _facts(self) -> TableFacts:
        return TableFacts(name=self.config.name, players=self.config.players,
                          free=sum(1 for seat in self.lobby.seats if seat is None),
                          rules=self.config.rules.name,
                          spectators=self.config.spectators,
                          fingerprint=self.identity.fingerprint)

    async def _announce(self) -> None:
        """Announce the table on the LAN by DNS-SD while seats are free (PROTOCOL.md
        section 15); withdraw it when the game starts or the table closes.  A LAN
        without multicast costs a notice (:class:`Notice`), never the game."""
        bind = self.config.bind
        interfaces = self.config.announce_interfaces
        if interfaces is None and bind not in ("", "0.0.0.0", "::"):
            interfaces = (bind,)  # a table on one address is announced there only
        announcer = Announcer(self.port, self.config.announce_addresses
                              or host_addresses(bind), interfaces)
        try:
            try:
                await announcer.start(self._facts())
            except Exception as exc:
                self.emit(Notice(NoticeKind.ANNOUNCE_FAILED, str(exc) or type(exc).__name__))
                return
            self.emit(Announced(self.port))
            while self.session is None and not self.finished.is_set():
                await self._lobby_moved.wait()
                self._lobby_moved = trio.Event()
                if self.session is None:
                    with contextlib.suppress(Exception):
                        await announcer.update(self._facts())
        finally:
            await announcer.close()


# ---------------------------------------------------------------------------- client


class ClientPeer(_Peer):
    """A joining seat: connects to the host, checks everything it relays, reconnects."""

    def __init__(self, config: JoinConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        address = Address.parse(config.address)
        pinned = address.fingerprint
        if config.host_fingerprint is not None:
            wanted = parse_fingerprint(config.host_fingerprint)
            if pinned is not None and pinned != wanted:
                raise ValueError(f"two different host fingerprints: {pinned} (in the code) "
                                 f"and {wanted}")
            pinned = wanted
        #: The fingerprint the host's key must have (a join code's), or None.
        self.pinned = pinned
        self.host, self.port = address.host, address.port
        self.transport = config.transport
        self.link: Link | None = None
        self._last_link: Link | None = None  # kept after a drop, for a leave on Ctrl-C
        self.host_key: bytes | None = None
        self.saved: SavedGame | None = None
        self.resumed_entries = 0
        self._was_connected = False  # the last connection got past its welcome
        #: Some connection of this run got past its welcome: only then may a lost host
        #: spend its allowance and be blamed (PROTOCOL.md 12.4).
        self._ever_connected = False
        self._welcome_seat = -1
        self._host_caps: tuple[str, ...] = ()
        self._host_rematch = False  # the host's rematch answer came (once is enough)
        #: Who watches, as the host says: shown at most once a window (PROTOCOL.md 18).
        self._spectator_limit = 0
        self._spectator_news = _Coalesced(
            lambda names: self.emit(Spectators(names, self._spectator_limit)),
            self.timeouts.announce)
        self._host_away = False  # the host said it steps away
        #: The log and the saved game are written (a resumed game's from the start).  A
        #: fresh join to a running game holds them back, and holds every entry of its own,
        #: until the host's chain as of the welcome (``_replay_to`` entries) is in: if our
        #: seat signed any of it, the game's secrets are on another machine.
        self._committed = False
        self._replay_to = 0
        #: The move limit and allowance the host announced in its welcome (None: not
        #: announced, or out of bounds): our clocks and conclusions use them.
        self.host_limits: Limits | None = None
        #: The rate limit on the chat the host relays, per seat (PROTOCOL.md 5.2).
        self._relayed_chat: dict[int, ChatBucket] = {}
        #: A usable lobby (or the genesis) came; else what was wrong with the last lobby.
        self._table_seen = trio.Event()
        self._lobby_problem: str | None = None
        self._host_name = ""  # as the greeting gave it
        #: The wire code of the host's last refusal of our resume (-1: not a known code),
        #: None once it welcomes us: the claim we sign if its allowance runs out says so.
        self._refusal: int | None = None
        self._said: set[Notice] = set()  # retry notices already reported
        self._try_resume()

    def _try_resume(self) -> None:
        path = self.config.state_path
        if path is None or not path.exists():
            return
        saved = SavedGame.load(path)
        if saved is None or saved.host != _address(self.host, self.port):
            return
        try:
            log = read_transcript(saved.log)
            first = wire.open_entry(log.bodies[0])
            host_key = wire.decode(first.payload, want_map=False)["seats"][0]["key"]
            self.session = Session.resume(self.identity, list(log.bodies), host_key,
                                          saved.master)
        except Exception as exc:  # an unusable save: join afresh
            self.emit(Notice(NoticeKind.RESUME_FAILED, str(exc) or type(exc).__name__,
                             path=Path(saved.log)))
            self.session = None
            return
        self.saved = saved
        self.host_key = host_key
        self.log = TranscriptWriter(saved.log, resume_at=log.valid_length)
        self._logged = len(self.session.bodies)
        self.resumed_entries = self._logged
        self._committed = True

    def send_entry(self, body: bytes) -> None:
        if self.link is not None:
            self.link.send(body)

    def catching_up(self) -> bool:
        """A fresh join to a running game that has not yet read the host's chain as of
        its welcome: it signs nothing yet (see :meth:`_on_entry`)."""
        return not self._committed and self.session is not None

    def _commit(self) -> None:
        """Our seat's part starts: the log's header, the saved game (for a crash resume)."""
        s = self.session
        assert s is not None
        self._committed = True
        where = _address(self.host, self.port)
        self.log.write_header(game=s.table.game, seat=s.own_seat, key=self.identity.public,
                              name=self.config.name, host=where)
        if self.config.state_path is not None and not s.finished:
            SavedGame(s.table.game, s.own_seat, where, s.master,
                      str(self.log.path)).save(self.config.state_path)

    def flush_log(self) -> None:
        if self.session is not None and not self._committed:
            self._commit()  # an abort while catching up: the log holds it all the same
        super().flush_log()

    async def _after_match(self) -> bool | None:
        if not self._ever_connected:
            return None  # a saved game found over: no table to play again at
        answer = await super()._after_match()
        link = self.link
        if answer is not None and link is not None and not link.closed \
                and CAP_REMATCH in self._host_caps:
            link.send_msg(lm.Rematch(bool(answer)).to_wire())
        return answer

    def _seat_held_elsewhere(self) -> None:
        """The host's chain holds an entry our seat signed, but this run joined afresh:
        the game's secrets (and every entry we would sign) are on another machine.  We
        stop without signing or writing anything and blame no one; the host keeps the seat
        away (we say so), its allowance running, for the machine that holds the game."""
        self.session = None
        self.error = ("you already hold a seat in this game but its saved state is not on "
                      "this machine: come back from the machine you played on")
        self.error_code = OutcomeError.SAVED_GAME_MISSING
        if self.link is not None:
            self.link.send_msg(self.away_message)
        self.finished.set()

    def send_chat(self, text: str) -> bool:
        # Only on a connection past its welcome (self.link is set then), never before.
        line = clean_chat(text)
        link, s = self.link, self.session
        if line is None or link is None or link.closed or self.finished.is_set() \
                or not self._chat_bucket.take():
            return False
        link.send_msg(lm.Chat(line).to_wire())
        # Before the genesis our seat is the one the welcome gave.
        self.emit(Chat(s.own_seat if s is not None else self._welcome_seat, line))
        return True

    def _limits(self) -> Limits:
        """The host's limits once it announced them, else our own configuration's."""
        return self.host_limits if self.host_limits is not None else super()._limits()

    def stalled_host_limit(self) -> float:
        """Seconds without a new entry, while connected to the host and another seat
        holds the floor, after which this peer concludes the host stops the game: the
        bound the host enforces on any seat (move limit + allowance, PROTOCOL.md 12) plus
        the idle timeout for its verdict to arrive."""
        return self._limits().bound + self.timeouts.idle

    async def _watchdog(self) -> None:
        """A host that stops the game (sits on the floor, or no longer relays) is not
        waited for forever.  The host enforces every seat's clocks, so no move of an
        honest table lasts longer than the move limit plus the seat's allowance: past
        that plus the idle timeout without any new entry while another seat holds the
        floor, the game ends here with a signed record blaming the host.  A seat the host
        reports away changes nothing: its allowance is inside that bound.  Only time
        connected to the host counts (while the host is unreachable, the reconnection
        loop and the host's own allowance decide)."""
        seen = (-1, -1)
        since = trio.current_time()
        while not self.finished.is_set():
            limit = self.stalled_host_limit()  # the host's word once it is welcomed
            await trio.sleep(min(1.0, limit / 4))
            s = self.session
            if s is None or s.finished:
                continue
            key = (s.length, s.floor)
            now = trio.current_time()
            if key != seen or (s.floor == s.seat and not self.catching_up()) \
                    or self.link is None:
                seen, since = key, now
            elif now - since > limit:
                fault = ProtocolError(ErrorCode.TIMEOUT, f"no progress for {limit:.0f} s")
                self.send_entry(self.blame(fault, 0, None))
                return

    async def run(self) -> Outcome:
        try:
            return await self._run_client()
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            if self.stepping_away and self._last_link is not None:
                await self._away_on_cancel([self._last_link])
            elif self.config.leave_on_cancel and self._last_link is not None \
                    and not self.stepping_away:
                await self._leave_on_cancel([self._last_link])
            raise

    async def _run_client(self) -> Outcome:
        if self.session is not None:  # resumed from the log: the picture first
            s = self.session
            self.emit(Restored(s.table, s.own_seat, s.replayed))
            if s.finished:  # the log already ends in a done or a signed abort
                self.error = "this game is already over (its log holds the end); " \
                    "nothing to rejoin"
                self.finished.set()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._connect_loop)
            nursery.start_soon(self._watchdog)
            await self.finished.wait()
            answer = await self._after_match()
            link = self.link
            if link is not None and answer and CAP_REMATCH in self._host_caps:
                # Accepted: the host's answer (a new table, or none) comes before it
                # closes the connection, once its person decided.  Our side stays open
                # meanwhile: the host reads an end of stream as a seat gone.
                with trio.move_on_after(REMATCH_ANSWER_WAIT):
                    await link.eof.wait()
            if link is not None:
                await link.drain()
            nursery.cancel_scope.cancel()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()
        return self.outcome()

    async def _connect_loop(self) -> None:
        deadline = None
        first_deadline: float | None = None
        delay = 0.05
        # The host's allowance of time away, spent across every drop of the match.
        host_away_spent = 0.0
        away_since: float | None = None
        while not self.finished.is_set():
            try:
                stream = await self.transport.connect(self.host, self.port)
            except OSError as exc:
                # A saved game, but no connection yet in this run: the host may simply
                # have closed the table.  Nothing proves it left the game, so nothing is
                # signed against it; the saved state stays for another try (12.4).
                if self.session is None or not self._ever_connected:
                    if first_deadline is None:
                        first_deadline = trio.current_time() + self.config.connect_retry
                    if trio.current_time() < first_deadline:
                        await trio.sleep(0.05)
                        continue
                    where = _address(self.host, self.port)
                    if self.session is None:
                        self.error = f"cannot connect to {where}: {exc}"
                    elif _refused(exc):
                        self.error = (f"cannot reach {where}: nobody is listening there "
                                      "(the host may have closed the table); try again "
                                      "later")
                    else:
                        self.error = f"cannot reach {where} ({exc}); try again later"
                    self.error_code = OutcomeError.CONNECT_FAILED
                    self.finished.set()
                    return
            else:
                fatal = await self._connected(stream)
                if fatal or self.finished.is_set():
                    self.finished.set()
                    return
                if self._was_connected:
                    self._was_connected = False
                    delay = 0.05
                    if away_since is not None:
                        host_away_spent += trio.current_time() - away_since
                    away_since = None
                    deadline = None
            if self.session is None or self.session.finished:
                self.finished.set()
                return
            now = trio.current_time()
            if deadline is None:
                away_since = now
                deadline = now + max(0.0, self._limits().allowance - host_away_spent)
                self.emit(Waiting(0, max(0, math.ceil(deadline - now)), self._host_away))
                if self.clock is not None:
                    self.clock.reported_away(0, deadline - now, now)
            if now >= deadline:
                # The claim says what happened: an answer is not unreachability.
                if self._refusal == ErrorCode.UNKNOWN_GAME:
                    why = "the host answered that it no longer has this game"
                elif self._refusal is not None:
                    why = ("the host refused our resume past its allowance of time away "
                           f"({_code_name(self._refusal)})")
                else:
                    why = "the host stayed unreachable past its allowance of time away"
                fault = ProtocolError(ErrorCode.PEER_LEFT, why)
                self.blame(fault, 0, None)
                return
            await trio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def _connected(self, stream: trio.abc.Stream) -> bool:
        """Run one connection.  True: a fatal refusal (stop); False: reconnect."""
        link = Link(stream, self.timeouts, self.traffic)
        s = self.session
        resume = (s.table.game, s.length) if s is not None else None
        hs = ClientHandshake(self.identity, self.config.name, resume, caps=SPOKEN)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            try:
                with trio.fail_after(self.timeouts.handshake):
                    greeting_body, greeting = await link.receive()
                    hello = hs.on_host(greeting, greeting_body)
                    if self._refuse_host_key(hs.host_key):
                        link.finish()
                        nursery.cancel_scope.cancel()
                        return True
                    link.send_msg(hello)
                    welcome_body, welcome = await link.receive()
                    welcome_seat = hs.on_welcome(welcome, welcome_body)
            except LinkClosed as exc:
                link.finish()
                nursery.cancel_scope.cancel()
                if exc.error is not None:
                    code = exc.error.get("code")
                    text = clean_text(exc.error.get("msg"))
                    if s is not None:
                        # A refusal while we are in a game (unknown_game, shutdown...) is
                        # an unsigned message that anyone at the host's address can send:
                        # it deletes nothing and proves nothing.  It counts as the host
                        # being unreachable: retried within the host's allowance of time
                        # away, after which our own timer ends the game (PROTOCOL.md 13).
                        # Said once: the countdown (Waiting) is the client's to show.
                        self._refusal = code if isinstance(code, int) else -1
                        self._say_once(Notice(NoticeKind.RESUME_REFUSED, text,
                                              code=_code_name(code)))
                        return False
                    self.error = f"refused: {text}"
                    self.error_code = _code_name(code)
                    return code not in (ErrorCode.ALREADY_SEATED,)
                if self.session is None:
                    self.error = "the host closed the connection during the handshake"
                    self.error_code = OutcomeError.CONNECTION_CLOSED
                    return True
                return self._no_host_answered()
            except (ProtocolError, trio.TooSlowError) as exc:
                await link.fail(getattr(exc, "error_code", ErrorCode.HANDSHAKE_TIMEOUT))
                nursery.cancel_scope.cancel()
                why = str(exc) or "timeout"
                if s is not None:
                    if self._no_host_answered():
                        return True
                    # In a game, a stalled or garbled handshake (a bad path, an impostor at
                    # the host's address) is one more failed connection: retried within the
                    # host's allowance of time away, never a reason to give up the game.
                    self._say_once(Notice(NoticeKind.HANDSHAKE_RETRY, why))
                    return False
                self.error = f"handshake failed: {why}"
                self.error_code = (exc.error_code.name.lower() if isinstance(exc, ProtocolError)
                                   else OutcomeError.HANDSHAKE_FAILED)
                return True
            if self.host_key is not None and hs.host_key != self.host_key:
                nursery.cancel_scope.cancel()
                if s is not None:
                    # Someone else proves its own key at the host's address: not our host;
                    # ours may come back within its allowance.
                    self._say_once(Notice(NoticeKind.OTHER_HOST))
                    return False
                self.error = "the host's identity changed"
                self.error_code = OutcomeError.HOST_CHANGED
                return True
            # Only now, the welcome proven by our host's key, is anything in it our host's
            # word (an impostor at the address must not shorten our wait, PROTOCOL.md 13).
            self._welcome_seat = welcome_seat
            limits = parse_limits(welcome.get("limits"))
            own_left = None
            if limits is not None:
                self.host_limits = Limits(*limits)
                own_left = parse_allowance_left(welcome.get("limits"), limits[1])
            if not self._committed:
                # A fresh hello may be taken back as a resume from have = 0 (PROTOCOL.md
                # 5): the host's chain, as long as it says, comes first, and we act only
                # once it is in.
                self._replay_to = max(self._replay_to, parse_have(welcome))
            self._refusal = None
            self.host_key = hs.host_key
            self._host_caps = hs.host_caps
            self._host_name = hs.host_name
            self.link = self._last_link = link
            self._was_connected = self._ever_connected = True
            self._host_away = False
            now = trio.current_time()
            if self.clock is not None:
                self.clock.back(0, now)
            if s is not None and own_left is not None:
                # On a resume the host tells us what our seat has left of its allowance:
                # our clock shows it (and our step-away dialog counts it), not a full one.
                if self.clock is None:
                    self.clock = Clocks(s.table.players, self._limits(), now)
                self.clock.told_allowance(s.own_seat, own_left, now)
                self._clock_changed(force=True)
            if s is not None and resume is not None and self._committed:
                self.emit(Resumed(s.own_seat, self.resumed_entries))
                host_has = welcome.get("have")
                if isinstance(host_has, int) and host_has < s.length:
                    link.send_backlog(s.bodies, max(host_has, 0))
            nursery.start_soon(_pinger, link)
            if s is None:
                # Also after a welcome with have > 0: its chain starts with the genesis,
                # which counts as the table (a host that says so and sends nothing is
                # not waited for forever).
                nursery.start_soon(self._await_table)
            if self._committed:
                self.pump()  # a resumed session may hold the floor already
            try:
                await self._read_loop(link)
            finally:
                self.link = None
                link.finish()
                nursery.cancel_scope.cancel()
        return False

    def _closed_in_lobby(self, error: dict | None) -> None:
        """The host ended our connection before the game: there is no game to come back
        to (a seat in a lobby is not held), so this is the end, said as the host said it."""
        code = error.get("code") if error is not None else None
        if code == ErrorCode.SHUTDOWN and not isinstance(code, bool):
            self.error = "the host closed the table before the game started"
            self.error_code = OutcomeError.HOST_CLOSED
        elif error is not None:
            self.error = (f"the host ended our connection before the game started "
                          f"({_code_name(code)}: {clean_text(error.get('msg'))})")
            self.error_code = _code_name(code)
        else:
            self.error = "the host closed the connection before the game started"
            self.error_code = OutcomeError.CONNECTION_CLOSED

    def _say_once(self, notice: Notice) -> None:
        """A notice of a retry, once per kind and cause per run (not once a second)."""
        if notice not in self._said:
            self._said.add(notice)
            self.emit(notice)
        else:
            _log.info("%s", notice.describe())

    def _no_host_answered(self) -> bool:
        """A connection to a saved game's host closed, or silent, before any answer of a
        chkobba host, in a run our host never welcomed: like nobody listening (a port
        forward with nothing behind it, another program), we stop, sign nothing and keep
        the saved state (PROTOCOL.md 12.4).  True when we stop."""
        if self._ever_connected or self._refusal is not None:
            return False
        where = _address(self.host, self.port)
        self.error = (f"{where} accepted the connection but no chkobba host answered; "
                      "try again later")
        self.error_code = OutcomeError.CONNECT_FAILED
        return True

    async def _await_table(self) -> None:
        """An honest host sends its lobby right after its welcome: a host that sends
        none we can show within the handshake timeout (only malformed ones, or nothing)
        gets no longer wait; we say what was wrong (PROTOCOL.md 5)."""
        with trio.move_on_after(self.timeouts.handshake):
            await self._table_seen.wait()
            return
        if self.session is not None or self.finished.is_set():
            return
        why = self._lobby_problem
        self.error = ("the host accepted us but sent no usable table "
                      + (f"({why})" if why else f"within {self.timeouts.handshake:g} s"))
        self.error_code = OutcomeError.BAD_LOBBY
        if self.link is not None:
            detail = f"lobby: {why}" if why else "no lobby"
            self.link.send_msg(error_message(ErrorCode.BAD_FIELD, detail[:80]))
        self.finished.set()

    def _refuse_host_key(self, key: bytes | None) -> bool:
        """True (and the error set) when the host's key is not the pinned one."""
        if self.pinned is None or key is None:
            return False
        actual = wire.fingerprint(key)
        if actual == self.pinned:
            return False
        self.error = (f"the host at {_address(self.host, self.port)} has the key "
                      f"{actual}, not {self.pinned} as the join code says: another "
                      "machine, or someone in the middle; not joining")
        self.error_code = OutcomeError.HOST_KEY_MISMATCH
        return True

    async def _read_loop(self, link: Link) -> None:
        while True:
            try:
                body, msg = await link.receive()
            except LinkClosed as exc:
                if self.session is None and self.error is None:
                    self._closed_in_lobby(exc.error)
                return
            except trio.TooSlowError:
                return
            except ProtocolError as exc:
                # The host sent garbage: leave, and come back (the game may go on).
                await link.fail(exc.error_code, exc.detail)
                return
            try:
                self._on_link_message(link, body, msg)
            except Exception as exc:  # noqa: BLE001 - nothing from the network may kill us
                _log.warning("ignored a message from the host that could not be "
                             "handled: %r", exc)

    def _on_link_message(self, link: Link, body: bytes, msg: dict) -> None:
        """One message from the host.  The unsigned ones (lobby, wait, back, chat) are
        checked field by field and only shown; a malformed one is ignored."""
        s = self.session
        players = s.table.players if s is not None else MAX_PLAYERS
        t = msg["t"]
        if t == "ping":
            link.send_msg(lm.Pong().to_wire())
        elif t == "sig":
            self._on_entry(body, msg)
        elif t == "lobby":
            if s is not None:
                return  # the seats are in the genesis now
            host = (self.host_key, self._host_name) if self.host_key is not None else None
            lobby = lobby_event(msg, self._host_caps, host)
            if lobby is not None:
                self._on_lobby(lobby)
            else:  # ignored, like any malformed unsigned message; remembered for people
                self._lobby_problem = lobby_problem(msg) or "seat 0 is not the host"
        elif t == "wait":
            wait = parse_wait(msg, players)
            if wait is not None and wait[0] != self._welcome_seat:
                away = msg.get("away") is True
                self.emit(Waiting(*wait, away, not away and msg.get("restart") is True))
                if self.clock is not None:
                    self.clock.reported_away(wait[0], wait[1], trio.current_time())
        elif t == "away":
            if msg.get("seat") == 0 and not isinstance(msg.get("seat"), bool):
                self._host_away = True  # the host's drop, next, is a step away
        elif t == "back":
            seat = parse_back(msg, players)
            # Our own return was reported when the welcome came (once, not twice).
            if seat is not None and seat != self._welcome_seat:
                self.emit(Resumed(seat))
                if self.clock is not None:
                    self.clock.back(seat, trio.current_time())
        elif t == "spectators":  # shown at most once a window, whatever the host sends
            names = spectator_names(msg)
            if names is not None:
                self._spectator_limit = names[1]
                self._spectator_news.changed(names[0], self.nursery)
        elif t == "rematch":  # the host's answer to playing again (PROTOCOL.md 17)
            accept = msg.get("accept")
            if s is not None and s.finished and isinstance(accept, bool) \
                    and not self._host_rematch:
                self._host_rematch = True
                self.emit(RematchAnswer(0, accept))
        elif t == "chat":
            chat = parse_chat(msg, players, clean_chat)
            # The host's own limit on each seat's lines, mirrored: a host that floods
            # (or attributes a flood to others) cannot bury the game's events.
            if chat is not None and self._relayed_chat.setdefault(chat[0],
                                                                  ChatBucket()).take():
                self.emit(Chat(*chat))
        # Anything else (pong, types added by later versions) is ignored.

    def _on_lobby(self, event: Lobby) -> None:
        """A lobby from the host (checked by :func:`lobby_event`): show it; once the table
        is full, the ready check asks our person (PROTOCOL.md 5.3)."""
        self._table_seen.set()
        event = dataclasses.replace(event, limits=self.host_limits)
        self.emit(event)
        if event.full and CAP_READY_CHECK in self._host_caps:
            self.ask_ready(event)
        else:
            self.cancel_ask()

    def confirmed(self, seating: int) -> None:
        link = self.link
        if link is not None and self.session is None:
            link.send_msg(lm.Start(seating).to_wire())

    def _on_entry(self, body: bytes, msg: dict) -> None:
        s = self.session
        if s is None and self.finished.is_set():
            return  # we stopped before the game (a seat held elsewhere): nothing more
        if s is None:
            self.cancel_ask()  # the game starts: the seating is final
        try:
            entry = wire.open_entry(body, msg)
            if s is None:
                assert self.host_key is not None
                self.session = s = Session.join(self.identity, entry, self.host_key, None)
                self._table_seen.set()
            elif s.finished:
                return
            elif self._committed:
                s.receive(entry)
            else:
                s.check(entry)
                if entry.seat == s.own_seat:  # signed with our key, on another machine
                    self._seat_held_elsewhere()
                    return
                s.receive(entry, checked=True)
        except GameFault as fault:
            self.send_entry(self.blame(fault, fault.blamed_seat, body))
            return
        except ProtocolError as exc:
            if s is None:
                self.error = f"bad genesis from the host: {exc}"
                self.error_code = OutcomeError.BAD_GENESIS
                self.finished.set()
                return
            # The host relays only entries it checked: a bad one is the host's doing.
            self.send_entry(self.blame(exc, 0, body))
            return
        except Exception as exc:  # noqa: BLE001 - never a traceback out of the event loop
            if self.session is None:
                self.error = f"bad genesis from the host: {exc!r}"
                self.error_code = OutcomeError.BAD_GENESIS
                self.finished.set()
                return
            self._internal_error(exc, body)
            return
        if not self._committed:
            if s.length < self._replay_to and not s.finished:
                return  # the host's chain is still coming
            self._commit()
        self.pump()
