"""The trio transport around :mod:`chkobba_p2p.session`: sockets, timers, the relay.

The host listens, shakes hands, relays every signed entry byte for byte to the other
peers and announces the table on the LAN; a joining peer connects to the host only.
Neither decides anything the session does not: this module moves bytes, keeps time
(handshake, frame, idle, reconnect and turn timeouts) and writes the log.
"""

from __future__ import annotations

import contextlib
import math
import socket
import sys
from pathlib import Path

import trio

from . import wire
from .config import HostConfig, JoinConfig, Timeouts, parse_address
from .errors import IllegalMove, LocalError
from .events import (
    Chat,
    ChoiceRefused,
    Listening,
    Lobby,
    Outcome,
    OutcomeError,
    Restored,
    Resumed,
    SeatController,
    Waiting,
    clean_chat,
)
from .session import (
    CAP_READY_CHECK,
    CAPABILITIES,
    ClientHandshake,
    GameFault,
    HostHandshake,
    Session,
    error_message,
)
from .session import Lobby as SeatLobby
from .transcript import SavedGame, TranscriptWriter, default_log_path, read_transcript
from .wire import ErrorCode, Identity, ProtocolError

__all__ = ["Link", "LinkClosed", "Traffic", "HostPeer", "ClientPeer", "ChatBucket", "BEACON_PORT",
           "listen_beacons", "Beacon"]

BEACON_PORT = 41641
_QUEUE = 4096


class Traffic:
    """Bytes on the wire (frames with their length prefixes), for statistics."""

    def __init__(self) -> None:
        self.sent = 0
        self.received = 0


def _address(host: str, port: int) -> str:
    """``HOST:PORT``, with an IPv6 address in brackets (PROTOCOL.md section 2)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _code_name(code: object) -> str:
    """A wire error code's name (``table_full``), or ``connection_closed``."""
    try:
        return ErrorCode(code).name.lower()  # type: ignore[arg-type]
    except ValueError:
        return OutcomeError.CONNECTION_CLOSED


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
        self._send, self._recv = trio.open_memory_channel[bytes | None](_QUEUE)
        self.closed = False
        self.written = trio.Event()  # the writer has flushed everything and stopped
        self.eof = trio.Event()  # the other end closed (or the connection broke)
        #: The code of the error message the other end sent before closing, if any.
        self.error_code: int | None = None
        self.bytes_in = 0
        self.bytes_out = 0

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
            self.traffic.received += len(data)
            self._ready.extend(self.decoder.feed(data))
        body = self._ready.pop(0)
        msg = wire.decode(body)
        if msg["t"] == "error":
            self.error_code = msg.get("code")
            self.eof.set()  # an error is the last thing a peer sends
            raise LinkClosed(f"peer error {msg.get('code')}: {msg.get('msg')}", msg)
        return body, msg

    def send(self, body: bytes) -> None:
        """Queue a frame body.  A peer that lets the queue fill is dropped."""
        if self.closed:
            return
        try:
            self._send.send_nowait(body)
        except trio.WouldBlock:
            self.closed = True
            with contextlib.suppress(trio.ClosedResourceError):
                self._send.close()

    def send_msg(self, msg: dict) -> None:
        self.send(wire.encode(msg))

    async def writer(self) -> None:
        """Drain the queue to the socket.  At the end, half-close (send EOF) rather than
        close: closing with unread input would reset the connection and could destroy
        frames still in flight to the other end."""
        try:
            done = False
            while not done:
                body = await self._recv.receive()
                chunks: list[bytes] = []
                # Coalesce what is already queued into one write (fewer system calls).
                while body is not None:
                    chunks.append(wire.frame(body))
                    if sum(map(len, chunks)) > 1 << 18:
                        break
                    try:
                        body = self._recv.receive_nowait()
                    except trio.WouldBlock:
                        break
                else:
                    done = True
                if chunks:
                    data = b"".join(chunks)
                    await self.stream.send_all(data)
                    self.bytes_out += len(data)
                    self.traffic.sent += len(data)
            with contextlib.suppress(Exception):
                await self.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.EndOfChannel,
                OSError):
            pass
        finally:
            self.closed = True
            self.written.set()

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


async def _pinger(link: Link) -> None:
    ping = wire.encode({"t": "ping"})
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
        except Exception as exc:  # a display bug must not break the game
            print(f"controller on_event failed: {exc!r}", file=sys.stderr)

    def flush_log(self) -> None:
        s = self.session
        if s is None:
            return
        while self._logged < len(s.bodies):
            self.log.append(s.bodies[self._logged])
            self._logged += 1

    def send_entry(self, body: bytes) -> None:
        raise NotImplementedError

    def pump(self) -> None:
        """Send whatever the session has ready, log, report events, wake the decider."""
        s = self.session
        if s is None:
            return
        while (entry := s.next_entry()) is not None:
            self.send_entry(entry.body)
        self.flush_log()
        for ev in s.take_events():
            self.emit(ev)
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

    def blame(self, fault: GameFault | ProtocolError, blamed: int | None,
              evidence: bytes | None) -> bytes:
        """End the game with a signed abort record; returns its body (sent by caller)."""
        s = self.session
        assert s is not None
        code = fault.error_code
        entry = s.abort(code, blamed, getattr(fault, "detail", str(fault)), evidence)
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
        if s is None or s.finished:
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
        if s is None or s.finished:
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
    away_message: dict = {"t": "away"}

    async def _away_on_cancel(self, links: list[Link]) -> None:
        """We are cancelled after :meth:`step_away`: tell the others, nothing signed (the
        game waits for this seat within its allowance; it comes back with a resume)."""
        data = wire.frame(wire.encode(self.away_message))
        with trio.CancelScope(shield=True), trio.move_on_after(1.0):
            for link in links:
                with contextlib.suppress(Exception):
                    await link.stream.send_all(data)
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
                    await link.stream.send_eof()
        self.log.close()

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
        self.absent: dict[int, float] = {}  # seat -> trio deadline to come back
        self.away_seats: set[int] = set()  # seats that said they step away
        self.away_message = {"t": "away", "seat": 0}
        self.port = 0
        self._floor_since = 0.0
        self._floor_seen = (-1, -1)
        self.resumed_entries = 0
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
            print(f"cannot resume from {saved.log}: {exc}", file=sys.stderr)
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

    def broadcast_msg(self, msg: dict, except_seat: int | None = None) -> None:
        body = wire.encode(msg)
        for seat, link in self.links.items():
            if seat != except_seat:
                link.send(body)

    def send_chat(self, text: str) -> bool:
        line = clean_chat(text)
        if line is None or self.finished.is_set() or not self._chat_bucket.take():
            return False
        self.broadcast_msg({"t": "chat", "seat": 0, "text": line})
        self.emit(Chat(0, line))
        return True

    def _on_chat(self, seat: int, msg: dict, bucket: ChatBucket) -> None:
        """Relay a seated peer's chat line to the others, with the connection's seat
        (never the sender's word); invalid or over-limit lines are dropped."""
        line = clean_chat(msg.get("text"))
        if line is None or not bucket.take():
            return
        self.broadcast_msg({"t": "chat", "seat": seat, "text": line}, except_seat=seat)
        self.emit(Chat(seat, line))

    async def run(self, task_status=None) -> Outcome:
        listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.bind)
        self.port = listeners[0].socket.getsockname()[1]
        self.emit(Listening(self.port, self.identity.public))
        if task_status is not None:
            task_status.started(self.port)
        try:
            await self._run_host(listeners)
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            if self.stepping_away:
                await self._away_on_cancel(list(self.links.values()))
            elif self.config.leave_on_cancel:
                await self._leave_on_cancel(list(self.links.values()))
            raise
        return self.outcome()

    async def _run_host(self, listeners: list) -> None:
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(trio.serve_listeners, self._serve, listeners)
            if self.config.beacon:
                nursery.start_soon(self._beacon)
            nursery.start_soon(self._watchdog)
            if self.session is not None:  # resumed: everyone else must reconnect
                s = self.session
                self.emit(Restored(s.table, s.seat, s.replayed))
                self.emit(Resumed(0, self.resumed_entries))
                for seat in range(1, self.session.table.players):
                    self.absent[seat] = trio.current_time() + self.timeouts.reconnect
                self.pump()
            await self.finished.wait()
            # Let the last entries and the abort reach everyone before closing.
            async with trio.open_nursery() as closing:
                for link in list(self.links.values()):
                    closing.start_soon(link.drain)
            nursery.cancel_scope.cancel()
        for link in self.links.values():
            with contextlib.suppress(Exception):
                await link.stream.aclose()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()

    # ---------------------------------------------------------- connections

    async def _serve(self, stream: trio.SocketStream) -> None:
        link = Link(stream, self.timeouts, self.traffic)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            try:
                await self._connection(link, nursery)
            finally:
                link.finish()

    async def _connection(self, link: Link, nursery: trio.Nursery) -> None:
        running = self.session.table.game if self.session else None
        hs = HostHandshake(self.lobby, running)
        link.send_msg(hs.greeting())
        replaced: Link | None = None
        try:
            with trio.fail_after(self.timeouts.handshake):
                hello_body, hello = await link.receive()
                welcome, seat, resume = hs.on_hello(
                    hello, hello_body, self.session.length if self.session else 0)
                if seat in self.links and not self.links[seat].closed:
                    if hello.get("resume") is None:
                        # A fresh join with an identity already connected (a fresh hello
                        # never takes a seat that is held).
                        raise ProtocolError(ErrorCode.ALREADY_SEATED)
                    # A resume, proven by the key's proof of possession, for the running
                    # game: the old connection is dead but does not know it yet (a
                    # half-open socket).  The new one replaces it.
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
        if replaced is not None and self.links.get(seat) is replaced:
            del self.links[seat]  # its read loop ends without counting the seat as gone
            replaced.finish()
            with contextlib.suppress(Exception):
                await replaced.stream.aclose()
        link.send_msg(welcome)
        self.links[seat] = link
        nursery.start_soon(_pinger, link)
        if self.session is None:
            self._lobby_changed()
        else:
            if resume is not None:
                for body in self.session.bodies[resume[1]:]:
                    link.send(body)
            self.away_seats.discard(seat)
            if seat in self.absent:
                del self.absent[seat]
                self.broadcast_msg({"t": "back", "seat": seat})
                self.emit(Resumed(seat))
        try:
            await self._read_loop(link, seat)
        finally:
            if self.links.get(seat) is link:
                del self.links[seat]
                self._dropped(seat)

    def confirmed(self, seating: int) -> None:
        if self.lobby.mark_ready(0, seating):
            self._lobby_changed()

    def _lobby_changed(self) -> None:
        lobby = self.lobby
        self.broadcast_msg(lobby.lobby_message())
        event = Lobby(tuple((s.name, s.fingerprint) if s else None for s in lobby.seats),
                      tuple(lobby.ready_flags()), lobby.seating,
                      tuple(s.key if s else None for s in lobby.seats))
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
            self._floor_since = trio.current_time()
            self.pump()

    def _dropped(self, seat: int) -> None:
        if self.finished.is_set():
            return
        if self.session is None:
            self.lobby.leave(seat)
            self._lobby_changed()
            return
        self.absent[seat] = trio.current_time() + self.timeouts.reconnect
        self._announce_wait(seat)

    def _announce_wait(self, seat: int) -> None:
        left = max(0, math.ceil(self.absent[seat] - trio.current_time()))
        away = seat in self.away_seats
        self.broadcast_msg({"t": "wait", "seat": seat, "secs": left}
                           | ({"away": True} if away else {}))
        self.emit(Waiting(seat, left, away))

    async def _watchdog(self) -> None:
        """Once a second: countdowns for absent seats, the turn timeout, and the end of
        the game when a seat does not come back."""
        while not self.finished.is_set():
            await trio.sleep(1 if self.timeouts.reconnect >= 3 else 0.1)
            now = trio.current_time()
            s = self.session
            if s is None or s.finished:
                continue
            for seat, deadline in list(self.absent.items()):
                if now >= deadline:
                    fault = ProtocolError(ErrorCode.PEER_LEFT, f"seat {seat} left")
                    self.send_entry(self.blame(fault, seat, None))
                    return
                self._announce_wait(seat)
            key = (s.length, s.floor)
            if key != self._floor_seen:
                self._floor_seen, self._floor_since = key, now
            elif now - self._floor_since > self.timeouts.turn and s.floor != 0 \
                    and s.floor not in self.absent:
                fault = ProtocolError(ErrorCode.TIMEOUT, f"seat {s.floor} did not play")
                self.send_entry(self.blame(fault, s.floor, None))
                return

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
                link.send_msg({"t": "pong"})
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
        self.pump()
        return True

    def _relay(self, from_seat: int, body: bytes) -> None:
        for seat, link in self.links.items():
            if seat != from_seat:
                link.send(body)

    # ------------------------------------------------------------------ LAN

    async def _beacon(self) -> None:
        """Announce the table on the LAN: a UDP broadcast every second while seats are
        free (see PROTOCOL.md, "LAN discovery")."""
        port = self.config.beacon_port or BEACON_PORT
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
        with sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self.finished.is_set():
                if self.session is None:
                    free = sum(1 for s in self.lobby.seats if s is None)
                    msg = wire.encode({"t": "beacon", "v": wire.PROTOCOL_VERSION,
                                       "port": self.port, "name": self.config.name,
                                       "players": self.config.players, "free": free,
                                       "rules": self.config.rules.name,
                                       "key": self.identity.public})
                    for target in ("255.255.255.255", "127.0.0.1"):
                        with contextlib.suppress(OSError):
                            await sock.sendto(msg, (target, port))
                await trio.sleep(1)


# ---------------------------------------------------------------------------- client


class ClientPeer(_Peer):
    """A joining seat: connects to the host, checks everything it relays, reconnects."""

    def __init__(self, config: JoinConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        self.host, self.port = parse_address(config.address)
        self.link: Link | None = None
        self._last_link: Link | None = None  # kept after a drop, for a leave on Ctrl-C
        self.host_key: bytes | None = None
        self.saved: SavedGame | None = None
        self.resumed_entries = 0
        self._fresh = False
        self._welcome_seat = -1
        self._host_caps: tuple[str, ...] = ()
        self._host_away = False  # the host said it steps away
        self._try_resume()

    def _try_resume(self) -> None:
        path = self.config.state_path
        if path is None or not path.exists():
            return
        saved = SavedGame.load(path)
        if saved is None or saved.host != f"{self.host}:{self.port}":
            return
        try:
            log = read_transcript(saved.log)
            first = wire.open_entry(log.bodies[0])
            host_key = wire.decode(first.payload, want_map=False)["seats"][0]["key"]
            self.session = Session.resume(self.identity, list(log.bodies), host_key,
                                          saved.master)
        except Exception as exc:  # an unusable save: join afresh
            print(f"cannot resume from {saved.log}: {exc}", file=sys.stderr)
            self.session = None
            return
        self.saved = saved
        self.host_key = host_key
        self.log = TranscriptWriter(saved.log, resume_at=log.valid_length)
        self._logged = len(self.session.bodies)
        self.resumed_entries = self._logged

    def send_entry(self, body: bytes) -> None:
        if self.link is not None:
            self.link.send(body)

    def send_chat(self, text: str) -> bool:
        # Only on a connection past its welcome (self.link is set then), never before.
        line = clean_chat(text)
        link, s = self.link, self.session
        if line is None or link is None or link.closed or self.finished.is_set() \
                or not self._chat_bucket.take():
            return False
        link.send_msg({"t": "chat", "text": line})
        # Before the genesis our seat is the one the welcome gave.
        self.emit(Chat(s.seat if s is not None else self._welcome_seat, line))
        return True

    async def _watchdog(self) -> None:
        """A host that stops the game (sits on the floor, or no longer relays) is not
        waited for forever: after the turn timeout plus the reconnect timeout without any
        new entry while another seat holds the floor, the game ends here with a signed
        record blaming the host (it is the host's job to time out the other seats)."""
        seen = (-1, -1)
        since = trio.current_time()
        limit = self.timeouts.turn + self.timeouts.reconnect
        while not self.finished.is_set():
            await trio.sleep(min(1.0, limit / 4))
            s = self.session
            if s is None or s.finished:
                continue
            key = (s.length, s.floor)
            now = trio.current_time()
            if key != seen or s.floor == s.seat:
                seen, since = key, now
            elif now - since > limit:
                fault = ProtocolError(ErrorCode.TIMEOUT, f"no progress for {limit:.0f} s")
                self.send_entry(self.blame(fault, 0, None))
                return

    def _forget_saved_game(self) -> None:
        print("the host does not know our saved game any more; joining afresh",
              file=sys.stderr)
        if self.config.state_path is not None:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()
        self.session = None
        self.saved = None
        self.host_key = None  # a new table may have a new host identity
        self.error = None
        self.error_code = None
        path = self.config.log_path
        if path is None or (path.exists() and path.stat().st_size):
            path = default_log_path()  # never append a new game to the old one's log
        self.log = TranscriptWriter(path)
        self._logged = 0
        self._fresh = True

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
            self.emit(Restored(s.table, s.seat, s.replayed))
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._connect_loop)
            nursery.start_soon(self._watchdog)
            await self.finished.wait()
            if self.link is not None:
                await self.link.drain()
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
        while not self.finished.is_set():
            try:
                stream = await trio.open_tcp_stream(self.host, self.port)
            except OSError as exc:
                if self.session is None:
                    if first_deadline is None:
                        first_deadline = trio.current_time() + self.config.connect_retry
                    if trio.current_time() < first_deadline:
                        await trio.sleep(0.05)
                        continue
                    self.error = f"cannot connect to {self.host}:{self.port}: {exc}"
                    self.error_code = OutcomeError.CONNECT_FAILED
                    self.finished.set()
                    return
            else:
                fatal = await self._connected(stream)
                if self.session is None and not fatal and not self.finished.is_set() \
                        and self._fresh:
                    self._fresh = False
                    continue  # the saved game was dropped: join afresh at once
                if fatal or self.finished.is_set():
                    self.finished.set()
                    return
                delay = 0.05
                deadline = None
            if self.session is None or self.session.finished:
                self.finished.set()
                return
            now = trio.current_time()
            if deadline is None:
                deadline = now + self.timeouts.reconnect
                self.emit(Waiting(0, int(self.timeouts.reconnect), self._host_away))
            if now >= deadline:
                fault = ProtocolError(ErrorCode.PEER_LEFT, "the host is gone")
                self.blame(fault, 0, None)
                return
            await trio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def _connected(self, stream: trio.SocketStream) -> bool:
        """Run one connection.  True: a fatal refusal (stop); False: reconnect."""
        link = Link(stream, self.timeouts, self.traffic)
        s = self.session
        resume = (s.table.game, s.length) if s is not None else None
        hs = ClientHandshake(self.identity, self.config.name, resume, caps=CAPABILITIES)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            try:
                with trio.fail_after(self.timeouts.handshake):
                    greeting_body, greeting = await link.receive()
                    link.send_msg(hs.on_host(greeting, greeting_body))
                    welcome_body, welcome = await link.receive()
                    self._welcome_seat = hs.on_welcome(welcome, welcome_body)
            except LinkClosed as exc:
                link.finish()
                nursery.cancel_scope.cancel()
                if exc.error is not None:
                    self.error = f"refused: {exc.error.get('msg')}"
                    self.error_code = _code_name(exc.error.get("code"))
                    if exc.error.get("code") == ErrorCode.UNKNOWN_GAME and s is not None \
                            and self.saved is not None:
                        # Our saved game is not the one running there: forget it, join anew.
                        self._forget_saved_game()
                        return False
                    code = exc.error.get("code")
                    if code == ErrorCode.SHUTDOWN and s is not None:
                        # The host is closing a game we are in: its abort, or our own
                        # timers, will end it; meanwhile keep trying.
                        return False
                    return code not in (ErrorCode.ALREADY_SEATED,)
                return self.session is None
            except (ProtocolError, trio.TooSlowError) as exc:
                self.error = f"handshake failed: {exc or 'timeout'}"
                self.error_code = (exc.error_code.name.lower() if isinstance(exc, ProtocolError)
                                   else OutcomeError.HANDSHAKE_FAILED)
                await link.fail(getattr(exc, "error_code", ErrorCode.HANDSHAKE_TIMEOUT))
                nursery.cancel_scope.cancel()
                return True
            if self.host_key is not None and hs.host_key != self.host_key:
                self.error = "the host's identity changed"
                self.error_code = OutcomeError.HOST_CHANGED
                nursery.cancel_scope.cancel()
                return True
            self.host_key = hs.host_key
            self._host_caps = hs.host_caps
            self.link = self._last_link = link
            self._host_away = False
            if s is not None and resume is not None:
                self.emit(Resumed(s.seat, self.resumed_entries))
                host_has = welcome.get("have")
                if isinstance(host_has, int) and host_has < s.length:
                    for body in s.bodies[host_has:]:
                        link.send(body)
            nursery.start_soon(_pinger, link)
            self.pump()  # a resumed session may hold the floor already
            try:
                await self._read_loop(link)
            finally:
                self.link = None
                link.finish()
                nursery.cancel_scope.cancel()
        return False

    async def _read_loop(self, link: Link) -> None:
        while True:
            try:
                body, msg = await link.receive()
            except (trio.TooSlowError, LinkClosed):
                return
            except ProtocolError as exc:
                # The host sent garbage: leave, and come back (the game may go on).
                await link.fail(exc.error_code, exc.detail)
                return
            t = msg["t"]
            if t == "ping":
                link.send_msg({"t": "pong"})
            elif t == "sig":
                self._on_entry(body, msg)
            elif t == "lobby":
                self._on_lobby(msg)
            elif t == "wait":
                if isinstance(msg.get("seat"), int) and isinstance(msg.get("secs"), int):
                    self.emit(Waiting(msg["seat"], msg["secs"], msg.get("away") is True))
            elif t == "away" and msg.get("seat") == 0:
                self._host_away = True  # the host's drop, next, is a step away
            elif t == "back" and isinstance(msg.get("seat"), int):
                self.emit(Resumed(msg["seat"]))
            elif t == "chat":
                line = clean_chat(msg.get("text"))
                seat = msg.get("seat")
                if line is not None and isinstance(seat, int) and not isinstance(seat, bool):
                    self.emit(Chat(seat, line))
            # Anything else (pong, types added by later versions) is ignored.

    def _on_lobby(self, msg: dict) -> None:
        seats = msg.get("seats")
        if not isinstance(seats, list) or len(seats) > 8:
            return
        ready = msg.get("ready")
        flags = tuple(x is True for x in ready) if isinstance(ready, list) \
            and len(ready) == len(seats) else ()
        seating = msg.get("seating")
        seating = seating if isinstance(seating, int) and not isinstance(seating, bool) else 0
        seated: list[tuple[str, str] | None] = []
        keys: list[bytes | None] = []
        for x in seats:
            key = x.get("key") if isinstance(x, dict) else None
            if isinstance(key, bytes) and len(key) == 32:
                seated.append((str(x.get("name"))[:wire.MAX_NAME], wire.fingerprint(key)))
                keys.append(key)
            else:
                seated.append(None)
                keys.append(None)
        event = Lobby(tuple(seated), flags, seating, tuple(keys))
        self.emit(event)
        if self.session is not None:
            return
        if event.full and CAP_READY_CHECK in self._host_caps:
            self.ask_ready(event)
        else:
            self.cancel_ask()

    def confirmed(self, seating: int) -> None:
        link = self.link
        if link is not None and self.session is None:
            link.send_msg({"t": "start", "seating": seating})

    def _on_entry(self, body: bytes, msg: dict) -> None:
        s = self.session
        if s is None:
            self.cancel_ask()  # the game starts: the seating is final
        try:
            entry = wire.open_entry(body, msg)
            if s is None:
                assert self.host_key is not None
                master = None
                self.session = s = Session.join(self.identity, entry, self.host_key, master)
                self.log.write_header(game=s.table.game, seat=s.seat,
                                      key=self.identity.public, name=self.config.name,
                                      host=f"{self.host}:{self.port}")
                if self.config.state_path is not None:
                    SavedGame(s.table.game, s.seat, f"{self.host}:{self.port}", s.master,
                              str(self.log.path)).save(self.config.state_path)
            elif s.finished:
                return
            else:
                s.receive(entry)
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
        self.pump()


# ------------------------------------------------------------------------------ LAN


class Beacon:
    """A table heard on the LAN."""

    def __init__(self, address: str, msg: dict) -> None:
        self.address = address
        self.port = msg.get("port") if isinstance(msg.get("port"), int) else 0
        self.name = str(msg.get("name", "?"))[:wire.MAX_NAME]
        self.players = msg.get("players")
        self.free = msg.get("free")
        self.rules = str(msg.get("rules", ""))[:32]
        key = msg.get("key")
        self.fingerprint = wire.fingerprint(key) if isinstance(key, bytes) else "?"

    @property
    def target(self) -> str:
        return f"{self.address}:{self.port}"

    def __repr__(self) -> str:
        return (f"{self.name} at {self.target}: {self.players} players, {self.free} free, "
                f"{self.rules} rules, key {self.fingerprint}")


async def listen_beacons(seconds: float, port: int = 0) -> list[Beacon]:
    """Listen for table beacons for ``seconds``; one :class:`Beacon` per table heard."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    found: dict[str, Beacon] = {}
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        await sock.bind(("", port or BEACON_PORT))
        with trio.move_on_after(seconds):
            while True:
                data, (addr, _) = await sock.recvfrom(2048)
                try:
                    msg = wire.decode(data)
                except ProtocolError:
                    continue
                if msg.get("t") != "beacon" or not isinstance(msg.get("port"), int):
                    continue
                b = Beacon(addr, msg)
                found.setdefault(b.target, b)
    return list(found.values())
