"""The trio shell of the link: sockets, timers, the log (PROTOCOL.md 2, 5, 12, 18).

The decisions live in the sans-IO core, :mod:`chkobba_p2p.link` (the host's table,
:class:`~chkobba_p2p.link.host.HostTable`; a joiner's link,
:class:`~chkobba_p2p.link.joiner.SeatLink`).  This module moves bytes and time into
them and carries out what they return: frames on a connection's queue, events for the
controller, the controller's questions as tasks, the log written before anything leaves.
Connections come from a :class:`~chkobba_p2p.transport.Transport` (TCP by default).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from . import wire
from .address import Address, listen_error, parse_port
from .config import HostConfig, JoinConfig, Timeouts, parse_fingerprint
from .discovery import Announced, Announcer, TableFacts, host_addresses
from .events import (
    Listening,
    Notice,
    NoticeKind,
    Outcome,
    OutcomeError,
    Restored,
    SeatController,
)
from .link import messages as lm
from .link.admission import GREETING, STRANGERS, Admission, AdmissionPolicy
from .link.handshake import SPOKEN, error_message
from .link.host import HostTable, SeatsMoved, Started
from .link.joiner import Committed, SeatLink, lobby_event
from .link.seat import (
    AskReady,
    CancelAsk,
    ChatBucket,
    Close,
    Decide,
    Effect,
    Emit,
    Finished,
    SeatCore,
    Send,
    SendBacklog,
)
from .liveness import Clocks, Limits, SeatClock
from .portmap import PortMapper
from .rules import Move
from .session import Session
from .stream import Link, LinkClosed, Traffic
from .transcript import SavedGame, TranscriptWriter, default_log_path, read_transcript
from .transport import ListenError, TcpTransport, check_listen, nobody_listening
from .wire import ErrorCode, Identity, ProtocolError

__all__ = ["Link", "LinkClosed", "Traffic", "HostPeer", "ClientPeer", "ChatBucket", "listen",
           "ListenError", "check_listen", "lobby_event"]

#: Seconds a joining peer that accepted a rematch keeps its connection open for the
#: host's own answer (PROTOCOL.md 17): the host's person may still be deciding.
REMATCH_ANSWER_WAIT = 300.0
#: accept() failures that mean "no file descriptor or buffer to spare right now".
_FD_ERRNOS = frozenset((errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))
_log = logging.getLogger("chkobba_p2p.net")


def _address(host: str, port: int) -> str:
    """``HOST:PORT``, with an IPv6 address in brackets (PROTOCOL.md section 2)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def listen(port: int, bind: str | None) -> list[trio.abc.Listener[trio.abc.Stream]]:
    """TCP listeners on ``bind`` (see :meth:`TcpTransport.listen`)."""
    return await TcpTransport().listen(port, bind or "")


async def _pinger(link: Link) -> None:
    ping = wire.encode(lm.Ping().to_wire())
    while not link.closed:
        await trio.sleep(link.timeouts.idle / 3)
        link.send(ping)


async def _goodbye(links: list[Link], body: bytes) -> None:
    """Write one last frame straight to the sockets, shielded, within a second: the
    peer's tasks are gone (we are cancelled)."""
    data = wire.frame(body)
    with trio.CancelScope(shield=True), trio.move_on_after(1.0):
        for link in links:
            with contextlib.suppress(Exception):
                await link.stream.send_all(data)
                if isinstance(link.stream, trio.abc.HalfCloseableStream):
                    await link.stream.send_eof()


class _Peer:
    """What host and joiner share: the controller's questions as tasks, the log, the
    effects of the core carried out."""

    core: SeatCore[Link]

    def __init__(self, controller: SeatController, timeouts: Timeouts, identity: Identity,
                 log_path: Path | None) -> None:
        self.controller = controller
        self.timeouts = timeouts
        self.identity = identity
        self.log = TranscriptWriter(log_path or default_log_path())
        self._logged = 0
        self._deciding = False
        self.finished = trio.Event()
        self.nursery: trio.Nursery | None = None
        self.traffic = Traffic()
        self._ask_scope: trio.CancelScope | None = None
        self._timer_scope: trio.CancelScope | None = None
        controller._chat_sink = self.send_chat
        controller._resign_sink = self.resign
        controller._away_sink = self.step_away
        #: The player is stepping away: on cancellation, say so instead of leaving.
        self.stepping_away = False

    # The core's state, read where it lives.
    @property
    def session(self) -> Session | None:
        return self.core.session

    @session.setter
    def session(self, value: Session | None) -> None:
        self.core.session = value

    @property
    def clock(self) -> Clocks | None:
        return self.core.clock

    @property
    def error(self) -> str | None:
        return self.core.error

    @error.setter
    def error(self, value: str | None) -> None:
        self.core.error = value

    @property
    def error_code(self) -> str | None:
        return self.core.error_code

    def apply(self) -> None:
        """Carry out what the core decided, in order; the log first, so that every entry
        is written before it leaves."""
        for effect in self.core.take():
            if isinstance(effect, Send | SendBacklog | Finished):
                self.flush_log()
            self._effect(effect)
        self.flush_log()
        if self._timer_scope is not None:  # the core may want to be woken sooner
            self._timer_scope.deadline = min(self._timer_scope.deadline,
                                             self.core.next_wake(trio.current_time()))

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Send):
            effect.to.send(effect.body)
        elif isinstance(effect, SendBacklog):
            assert self.session is not None
            effect.to.send_backlog(self.session.bodies, effect.start, effect.end)
        elif isinstance(effect, Emit):
            self.emit(effect.event)
        elif isinstance(effect, Close):
            if effect.code is not None:
                effect.to.send_msg(error_message(effect.code, effect.detail))
            effect.to.finish()
            if effect.code is None:  # a replaced connection: closed now, not drained
                self._spawn(effect.to.stream.aclose)
        elif isinstance(effect, Decide):
            if not self._deciding and self._spawn(self._decide, effect):
                self._deciding = True
        elif isinstance(effect, AskReady):
            self._ask(effect)
        elif isinstance(effect, CancelAsk):
            if self._ask_scope is not None:
                self._ask_scope.cancel()
            self._ask_scope = None
        elif isinstance(effect, Finished):
            self.finished.set()

    def _spawn(self, fn: Callable[..., object], *args: object) -> bool:
        if self.nursery is None:
            return False
        try:
            self.nursery.start_soon(fn, *args)  # type: ignore[arg-type]
        except RuntimeError:  # the nursery is closed: we are winding down
            return False
        return True

    async def _decide(self, effect: Decide) -> None:
        d = effect.decision
        try:
            choice: Move | bool
            if d.kind == "play":
                choice = await self.controller.choose_play(d.hand)
            else:
                choice = await self.controller.choose_cut(d.hand)
            self.core.decide(d, choice, trio.current_time())
        finally:
            self._deciding = False
        self.apply()

    def _ask(self, effect: AskReady) -> None:
        if self._ask_scope is not None:
            self._ask_scope.cancel()
        scope = self._ask_scope = trio.CancelScope()
        lobby = effect.lobby

        async def ask() -> None:
            with scope:
                await self.controller.ready_to_start(lobby)
                self.confirmed(lobby.seating)

        self._spawn(ask)

    async def _timer(self) -> None:
        """Wake the core when it asks (its clocks, countdowns, pending news), until the
        peer's tasks are cancelled: news of spectators pending when the game ends still
        arrives while the connections are open (the core's clocks stop at the end)."""
        while True:
            with trio.move_on_at(self.core.next_wake(trio.current_time())) as scope:
                self._timer_scope = scope
                await trio.sleep_forever()
            self._timer_scope = None
            self.core.tick(trio.current_time())
            self.apply()

    def confirmed(self, seating: int) -> None:
        """This seat's person confirmed ``seating`` (the ready check)."""
        raise NotImplementedError

    def send_chat(self, text: str) -> bool:
        """Send a chat line (see :meth:`SeatController.send_chat`)."""
        sent = self.core.chat(text, trio.current_time())
        self.apply()
        return sent

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

    def pump(self) -> None:
        self.core.pump(trio.current_time())
        self.apply()

    def send_entry(self, body: bytes) -> None:
        """Send a signed entry where this seat's entries go (e.g. what :meth:`leave`
        returned)."""
        self.core._entry_out(body)
        self.apply()

    def catching_up(self) -> bool:
        return self.core.catching_up()

    def clocks(self) -> tuple[SeatClock, ...]:
        """Every seat's clocks now (empty before the game starts).  See
        :class:`~chkobba_p2p.liveness.SeatClock`: ``owes`` and ``move_left`` give the
        player on the floor's countdown, ``connected`` and ``allowance_left`` a dropped
        player's ("amel stepped away: 4:32 left")."""
        return self.core.clocks(trio.current_time())

    def leave(self, detail: str = "the player left") -> bytes | None:
        """Leave the running game on purpose: a signed ``abort`` (``peer_left``, blaming
        this seat), logged and reported; returns its frame body for the caller to send
        (None when no game is running)."""
        body = self.core.leave(detail)
        self.apply()
        return body

    def resign(self) -> bool:
        """Resign the running match (see :meth:`SeatController.resign`)."""
        done = self.core.resign()
        self.apply()
        return done

    def step_away(self) -> bool:
        """Mark this seat as stepping away (see :meth:`SeatController.step_away`)."""
        s = self.session
        if s is None or s.finished:
            return False
        self.stepping_away = True
        return True

    #: The unsigned message that says this seat steps away (PROTOCOL.md 17).
    away_message: dict[str, Any] = lm.Away().to_wire()

    async def _on_cancel(self, links: list[Link]) -> None:
        """We are cancelled (Ctrl-C) during a game: after :meth:`step_away`, tell the
        others we step away, nothing signed (we come back with a resume); otherwise, if
        configured to, leave with a signed record."""
        if self.stepping_away:
            await _goodbye(links, wire.encode(self.away_message))
        elif self._leave_on_cancel:
            body = self.leave("the player left (interrupted)")
            if body is None:
                return
            await _goodbye(links, body)
        else:
            return
        self.log.close()

    _leave_on_cancel = True

    async def _reads(self, link: Link, handle: Callable[[bytes, dict[str, Any]], bool],
                     failing: Callable[[], None] | None = None) -> LinkClosed | None:
        """Give ``link``'s frames to ``handle`` (then carry out what the core decided)
        until it returns False (its error is queued: the link drains) or the link ends
        (returned).  A timeout or bad input is answered with its error, after
        ``failing()`` (what must happen before the link drains, up to a second)."""
        while True:
            try:
                body, msg = await link.receive()
            except trio.TooSlowError:
                if failing is not None:
                    failing()
                await link.fail(ErrorCode.TIMEOUT, "frame or idle timeout")
                return None
            except ProtocolError as exc:
                if failing is not None:
                    failing()
                await link.fail(exc.error_code, exc.detail)
                return None
            except LinkClosed as exc:
                return exc
            going_on = handle(body, msg)
            self.apply()
            if not going_on:
                await link.drain(1.0)
                return None

    def _restore(self, state: Path | None, accept: Callable[[SavedGame], bool],
                 host_key: bytes | None = None, finished: bool = True
                 ) -> tuple[SavedGame, Session] | None:
        """After a crash: the game rebuilt from its log and saved secrets (None: no save
        of ours, or an unusable one, said as a notice, or ``finished`` and it is over).
        ``host_key``: the host's (default: the log's genesis says)."""
        saved = SavedGame.load(state) if state is not None and state.exists() else None
        if saved is None or not accept(saved):
            return None
        try:
            log = read_transcript(saved.log)
            if host_key is None:
                first = wire.open_entry(log.bodies[0])
                host_key = wire.decode(first.payload, want_map=False)["seats"][0]["key"]
            session = Session.resume(self.identity, list(log.bodies), host_key,
                                     saved.master)
        except Exception as exc:  # an unusable save: a new table, or join afresh
            self.emit(Notice(NoticeKind.RESUME_FAILED, str(exc) or type(exc).__name__,
                             path=Path(saved.log)))
            return None
        if session.finished and not finished:
            return None
        self.log = TranscriptWriter(saved.log, resume_at=log.valid_length)
        self._logged = len(session.bodies)
        return saved, session

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
        return self.core.outcome(self.log.path, self.traffic.sent, self.traffic.received)


# ------------------------------------------------------------------------------ host


class HostPeer(_Peer):
    """Seat 0: listens, seats the others, relays and checks every entry, plays its seat."""

    core: HostTable[Link]
    #: The table's core (a test's hostile host is a subclass of it).
    table_class: type[HostTable[Link]] = HostTable

    #: Strangers (connections before their greeting) held at once, at most; lowered
    #: when the process may open few files (see ``_anonymous_budget``).  A full budget
    #: lets the oldest go, never the newcomer (PROTOCOL.md 5.4).
    MAX_UNAUTHENTICATED = STRANGERS

    def __init__(self, config: HostConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        self._leave_on_cancel = config.leave_on_cancel
        self.core = self.table_class(self.identity, config.name, config.rules, config.players,
                              config.shuffle_proofs,
                              Limits(move=self.timeouts.turn, allowance=self.timeouts.reconnect),
                              spectator_limit=config.spectators,
                              announce=self.timeouts.announce,
                              is_closed=lambda link: link.closed)
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
        #: Strangers let go before their greeting: for room, or shed when out of
        #: descriptors (see :class:`~chkobba_p2p.link.admission.Admission`).
        self.refused_connections = 0
        self._files_warned = -math.inf
        self.port_mapper: PortMapper | None = None
        self._lobby_moved = trio.Event()  # seats changed: the announcement follows
        self._headed = False  # the log has its header (nothing is written before it)
        self._try_resume()

    # What the table holds, where it lives.
    lobby = property(lambda self: self.core.lobby)
    links = property(lambda self: self.core.links)
    absent = property(lambda self: self.core.absent)
    spectators = property(lambda self: self.core.spectators)
    away_seats = property(lambda self: self.core.away_seats)
    awaited_seats = property(lambda self: self.core.awaited_seats)
    rematch_answers = property(lambda self: self.core.rematch_answers)

    def _try_resume(self) -> None:
        """After a crash: the game rebuilt from our log and the saved master secret."""
        port = f"port:{self.config.port}"
        restored = self._restore(self.config.state_path,
                                 lambda saved: saved.seat == 0 and saved.host == port,
                                 self.identity.public, finished=False)
        if restored is not None:
            session = restored[1]
            self.core.session = session
            self.core.lobby.seats = list(session.table.seats)
            self.core.lobby.game = session.table.game
            self.resumed_entries = len(session.bodies)
            self._headed = True

    def flush_log(self) -> None:
        if self._headed:
            super().flush_log()

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Started):
            s = self.session
            assert s is not None
            self.log.write_header(game=s.table.game, seat=0, key=self.identity.public,
                                  name=self.config.name,
                                  host=_address(self.config.bind or "0.0.0.0", self.port))
            self._headed = True
            if self.config.state_path is not None:
                SavedGame(s.table.game, 0, f"port:{self.config.port}", s.master,
                          str(self.log.path)).save(self.config.state_path)
        elif isinstance(effect, SeatsMoved):
            self._lobby_moved.set()
        else:
            super()._effect(effect)

    def _to_spectators(self, body: bytes) -> None:
        for _, link in self.core.spectators.values():
            link.send(body)

    def confirmed(self, seating: int) -> None:
        self.core.confirmed(seating, trio.current_time())
        self.apply()

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
            links = list(self._open_links)
            if self.session is None:  # the table closes: told, not left to guess (5)
                await _goodbye(links, wire.encode(error_message(
                    ErrorCode.SHUTDOWN, "the host closed the table")))
            else:
                await self._on_cancel(links)
            raise
        finally:
            if self.port_mapper is not None:  # also when cancelled: shielded inside
                kept = await self.port_mapper.remove()
                if kept is not None:
                    self.emit(Notice(NoticeKind.PORT_MAPPING_KEPT, kept))
        return self.outcome()

    async def _run_host(self, listeners: list[trio.abc.Listener[trio.abc.Stream]]) -> None:
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            for listener in listeners:
                nursery.start_soon(self._accept_loop, listener, nursery)
            if self.config.beacon:
                nursery.start_soon(self._announce)
            if self.port_mapper is not None:
                nursery.start_soon(self.port_mapper.run)
            nursery.start_soon(self._timer)
            if self.session is not None:  # resumed: everyone else must reconnect
                self.core.restored(self.session, self.resumed_entries, trio.current_time())
                self.apply()
            await self.finished.wait()
            self.core.match_over()
            self.apply()
            answer = None
            try:
                answer = await self._after_match()  # the joiners' answers arrive meanwhile
            finally:
                self.core.answered(answer)
                self.apply()
            # Let the last entries and the abort reach everyone before closing.
            async with trio.open_nursery() as closing:
                for link in self._all_links():
                    closing.start_soon(link.drain)
            nursery.cancel_scope.cancel()
        for link in self._all_links():
            with contextlib.suppress(Exception):
                await link.stream.aclose()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()

    def _all_links(self) -> list[Link]:
        return [*self.core.links.values(), *(lk for _, lk in self.core.spectators.values())]

    # ---------------------------------------------------------- connections

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
        core = self.core
        hs = core.handshake(lambda seat: core.allowance_left_of(seat, trio.current_time()))
        link.send_msg(hs.greeting())
        spectator: str | None = None
        try:
            with trio.fail_at(greeting_due):  # the admission's deadline for a stranger
                hello_body, hello = await link.receive()
                if hello.get("t") == "watch":  # a spectator: no seat, no key
                    spectator = core.spectator_name(hello)
                    # Its own slots from now on, out of the strangers' budget.
                    if not self.admission.spectating(link):
                        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                                            "every spectator's place is taken")
                    self._strangers.pop(link, None)
                else:
                    welcome, seat, resume, replaced = core.on_hello(hs, hello, hello_body)
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
        self._open_links[link] = None
        nursery.start_soon(_pinger, link)
        if spectator is not None:
            await self._spectate(link, spectator)
            return
        self.admission.seated(link)  # no budget applies to a seat from now on
        self._strangers.pop(link, None)
        link.decoder = wire.FrameDecoder(wire.MAX_FRAME, link.decoder)
        core.seated(link, seat, welcome, hello.get("resume") is None, resume, replaced,
                    trio.current_time())
        self.apply()
        try:
            await self._read_loop(link, seat)
        finally:
            core.seat_gone(link, seat, trio.current_time(),
                           closing=trio.current_effective_deadline() == -math.inf)
            self.apply()

    async def _spectate(self, link: Link, name: str) -> None:
        """A spectator: the transcript so far, then everything the seats get, until it
        leaves; it may only ping.  Whatever it does, the game goes on and nobody is
        blamed: a misbehaving spectator is dropped."""
        sid = self.core.spectator_arrived(link, name, trio.current_time())
        self.apply()
        watching = True

        def gone() -> None:
            # Off the list (and everyone told) before its error and the drain that
            # follows, which may take a second: a game that ends meanwhile tells nobody.
            nonlocal watching
            if watching:
                watching = False
                self.core.spectator_gone(sid, trio.current_time())
                self.apply()

        def handle(body: bytes, msg: dict[str, Any]) -> bool:
            answers, refusal = self.core.spectator_message(link, msg)
            for answer in answers:
                link.send(answer.body)
            if refusal is not None:
                gone()
                link.send_msg(error_message(refusal.error_code, refusal.detail))
            return refusal is None

        try:
            await self._reads(link, handle, failing=gone)
        finally:
            gone()

    async def _read_loop(self, link: Link, seat: int) -> None:
        await self._reads(link, lambda body, msg: self.core.seat_message(
            link, seat, body, msg, trio.current_time()))

    # ------------------------------------------------------------------ LAN

    def _facts(self) -> TableFacts:
        return TableFacts(name=self.config.name, players=self.config.players,
                          free=sum(1 for seat in self.core.lobby.seats if seat is None),
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

    core: SeatLink[Link]
    #: The link's core (a test's hostile joiner is a subclass of it).
    link_class: type[SeatLink[Link]] = SeatLink

    def __init__(self, config: JoinConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        self._leave_on_cancel = config.leave_on_cancel
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
        self.core = self.link_class(self.identity, _address(self.host, self.port), pinned,
                             Limits(move=self.timeouts.turn,
                                    allowance=self.timeouts.reconnect),
                             announce=self.timeouts.announce,
                             handshake=self.timeouts.handshake, idle=self.timeouts.idle,
                             connect_retry=max(config.connect_retry,
                                               self.transport.connect_patience))
        self._last_link: Link | None = None  # kept after a drop, for a leave on Ctrl-C
        self._stream: trio.abc.Stream | None = None  # the last connection's
        self.saved: SavedGame | None = None
        self._try_resume()

    link = property(lambda self: self.core.host)
    host_key = property(lambda self: self.core.host_key)
    host_limits = property(lambda self: self.core.host_limits)
    resumed_entries = property(lambda self: self.core.resumed_entries)

    def stalled_host_limit(self) -> float:
        return self.core.stalled_host_limit()

    def _try_resume(self) -> None:
        where = _address(self.host, self.port)
        restored = self._restore(self.config.state_path, lambda saved: saved.host == where)
        if restored is not None:
            self.saved, session = restored
            self.core.resumed(session, session.table.seats[0].key)

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Committed):
            self._commit()
        else:
            super()._effect(effect)

    def _commit(self) -> None:
        """Our seat's part starts: the log's header, the saved game (for a crash resume)."""
        s = self.session
        assert s is not None
        where = _address(self.host, self.port)
        self.log.write_header(game=s.table.game, seat=s.own_seat, key=self.identity.public,
                              name=self.config.name, host=where)
        if self.config.state_path is not None and not s.finished:
            SavedGame(s.table.game, s.own_seat, where, s.master,
                      str(self.log.path)).save(self.config.state_path)

    def flush_log(self) -> None:
        if self.core.catching_up():
            if not self.core.finished:
                return  # nothing is ours to write before the host's chain is in
            self.core.committed = True  # an abort while catching up: the log holds it
            self._commit()
        super().flush_log()

    def confirmed(self, seating: int) -> None:
        self.core.confirmed(seating)
        self.apply()

    async def run(self) -> Outcome:
        try:
            return await self._run_client()
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            if self._last_link is not None and self.session is not None:
                await self._on_cancel([self._last_link])
            elif self._stream is not None:  # no game: nothing to say, the seat is free
                with trio.CancelScope(shield=True):
                    await trio.aclose_forcefully(self._stream)
            raise

    async def _run_client(self) -> Outcome:
        if self.session is not None:  # resumed from the log: the picture first
            s = self.session
            self.emit(Restored(s.table, s.own_seat, s.replayed))
            if s.finished:  # the log already ends in a done or a signed abort
                self.core.stop("this game is already over (its log holds the end); "
                               "nothing to rejoin", None)
                self.apply()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._connect_loop)
            nursery.start_soon(self._timer)
            await self.finished.wait()
            answer = await self._after_match() if self.core.ever_connected else None
            link = self.link
            sent = self.core.answer_rematch(answer)
            self.apply()
            if link is not None and answer and sent:
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
        core = self.core
        delay = 0.05
        while not self.finished.is_set():
            try:
                stream = await self.transport.connect(self.host, self.port)
            except OSError as exc:
                stop = core.connect_failed(str(exc), nobody_listening(exc), trio.current_time())
                self.apply()
                if stop:
                    return
                if stop is False:
                    await trio.sleep(0.05)
                    continue
            else:
                fatal = await self._connected(stream)
                self.apply()
                if fatal or self.finished.is_set():
                    self.finished.set()
                    return
                if core.was_connected:
                    core.was_connected = False
                    delay = 0.05
            stop = core.unreachable(trio.current_time())
            self.apply()
            if stop:
                return
            await trio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def _connected(self, stream: trio.abc.Stream) -> bool:
        """Run one connection.  True: a fatal refusal (stop); False: reconnect."""
        self._stream = stream
        core = self.core
        link = Link(stream, self.timeouts, self.traffic)
        hs = core.hello_for(self.identity, self.config.name, SPOKEN)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            try:
                with trio.fail_after(self.timeouts.handshake):
                    greeting_body, greeting = await link.receive()
                    hello = hs.on_host(greeting, greeting_body)
                    if core.refuse_host_key(hs.host_key):
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
                    return core.refused(exc.error)
                return core.closed_in_handshake()
            except (ProtocolError, trio.TooSlowError) as exc:
                await link.fail(getattr(exc, "error_code", ErrorCode.HANDSHAKE_TIMEOUT))
                nursery.cancel_scope.cancel()
                return core.handshake_failed(
                    str(exc) or "timeout",
                    exc.error_code.name.lower() if isinstance(exc, ProtocolError)
                    else OutcomeError.HANDSHAKE_FAILED)
            other = core.other_host(hs.host_key)
            if other is not None:
                nursery.cancel_scope.cancel()
                return other
            self._last_link = link
            core.welcomed(link, hs, welcome, welcome_seat, trio.current_time())
            self.apply()
            nursery.start_soon(_pinger, link)
            if self.session is None:
                # Also after a welcome with have > 0: its chain starts with the genesis,
                # which counts as the table (a host that says so and sends nothing is
                # not waited for forever).
                nursery.start_soon(self._await_table)
            try:
                await self._read_loop(link)
            finally:
                core.lost()
                link.finish()
                nursery.cancel_scope.cancel()
        return False

    async def _await_table(self) -> None:
        """An honest host sends its lobby right after its welcome (PROTOCOL.md 5)."""
        await trio.sleep(self.timeouts.handshake)
        self.core.no_table()
        self.apply()

    async def _read_loop(self, link: Link) -> None:
        def handle(body: bytes, msg: dict[str, Any]) -> bool:
            try:
                self.core.message(link, body, msg, trio.current_time())
            except Exception as exc:  # noqa: BLE001 - nothing from the network may kill us
                _log.warning("ignored a message from the host that could not be "
                             "handled: %r", exc)
            return True

        closed = await self._reads(link, handle)
        if closed is not None:
            self.core.closed_in_lobby(closed.error)
            self.apply()
