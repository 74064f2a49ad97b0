"""The trio shell of the link: the host and a joiner (PROTOCOL.md 2, 5, 12, 17, 18).

The decisions live in the sans-IO core, :mod:`chkobba_p2p.link` (the host's table,
:class:`~chkobba_p2p.link.host.HostTable`; a joiner's link,
:class:`~chkobba_p2p.link.joiner.SeatLink`).  :class:`HostPeer` listens, resumes its
table from its log, announces it on the LAN and closes it at the match's end;
:class:`ClientPeer` connects, carries the handshake's bytes within its deadline (its order
is the core's) and reconnects.  Both build on
:class:`~chkobba_p2p._shell.shell.PeerShell` (the core's effects carried out: frames, events,
the controller's questions as tasks, the log written before anything leaves); the host's
connections come through its :class:`~chkobba_p2p._shell.accept.Door`.  Connections come from a
:class:`~chkobba_p2p._shell.transport.Transport` (TCP by default).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from ..address import Address, listen_error, parse_port, parse_secret
from ..link import messages as lm
from ..link.admission import STRANGERS, Admission, strangers_for_files
from ..link.events import (
    Notice,
    NoticeKind,
    Outcome,
    Restored,
    SeatController,
)
from ..link.handshake import error_message
from ..link.host import HostTable, SeatsMoved, Started
from ..link.joiner import (
    RETRY_FIRST,
    Committed,
    HandshakeStep,
    SeatLink,
    lobby_event,
    pinned_fingerprint,
)
from ..link.seat import ChatBucket, Effect
from ..link.spectators import END_LIMIT, serve_until
from ..transcript.caps import SPOKEN
from ..transcript.clocks import Limits
from ..transcript.ended import EndedLogs, keep
from ..wire import codec as wire
from ..wire.codec import ErrorCode, Identity, ProtocolError
from ..wire.logfile import SavedGame
from .accept import Door, open_files_limit
from .config import HostConfig, JoinConfig
from .events import Listening
from .shell import PeerShell, goodbye, pinger
from .shell import address as _address
from .stream import Link, LinkClosed, Traffic
from .transport import ListenError, TcpTransport, check_listen, nobody_listening

if TYPE_CHECKING:
    from .discovery import TableFacts
    from .portmap import PortMapper

__all__ = ["Link", "LinkClosed", "Traffic", "HostPeer", "ClientPeer", "ChatBucket", "listen",
           "ListenError", "check_listen", "lobby_event"]

#: Seconds a joining peer that accepted a rematch keeps its connection open for the
#: host's own answer (PROTOCOL.md 17): the host's person may still be deciding.
REMATCH_ANSWER_WAIT = 300.0
_log = logging.getLogger("chkobba_p2p._shell.net")


async def listen(port: int, bind: str | None) -> list[trio.abc.Listener[trio.abc.Stream]]:
    """TCP listeners on ``bind`` (see :meth:`TcpTransport.listen`)."""
    return await TcpTransport().listen(port, bind or "")


# ------------------------------------------------------------------------------ host


class HostPeer(PeerShell):
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
                              is_closed=lambda link: link.closed,
                              ready_wait=self.timeouts.ready,
                              admits=None if config.admits is None
                              else frozenset(config.admits))
        self.core.lobby.secret = None if config.secret is None \
            else parse_secret(config.secret)
        self.core.defer_work = True  # the proof work runs in our worker (PeerShell)
        self.core.hold_bound = controller.answers_within  # a bot: its messages wait for it
        self.proof_thread = config.proof_thread
        self.away_message = lm.Away(0).to_wire()
        self.port = 0
        #: Where the listeners and their streams come from (TCP by default).
        self.transport = config.transport
        self.resumed_entries = 0
        #: The door: accepts connections and admits them (by identity, PROTOCOL.md 5.4).
        self.door = Door(self, self.core, self.transport, self._anonymous_budget(),
                         config.spectators)
        self.port_mapper: PortMapper | None = None
        self._lobby_moved = trio.Event()  # seats changed: the announcement follows
        self._headed = False  # the log has its header (nothing is written before it)
        #: The matches this host ended before (in this process, or in its log
        #: directory): a seat that comes back to one is told its end (PROTOCOL.md 13.1).
        self.ended_logs = EndedLogs(self.identity.public, self.log.path.parent)
        self.core.ended = self.ended_logs.find
        controller.attach(free=self.free_seat, offer=self.offer_rematch)
        self._try_resume()

    def free_seat(self, seat: int) -> bool:
        """Free joiner ``seat`` in the lobby and refuse its key at this table (see
        :meth:`SeatController.free_seat`)."""
        done = self.core.free_seat(seat, trio.current_time())
        self.apply()
        return done

    def offer_rematch(self) -> bool:
        """Tell the joiners our person wants a rematch (see
        :meth:`SeatController.offer_rematch`)."""
        done = self.core.offer_rematch()
        self.apply()
        return done

    # What the table holds, where it lives.
    lobby = property(lambda self: self.core.lobby)
    links = property(lambda self: self.core.links)
    absent = property(lambda self: self.core.absent)
    spectators = property(lambda self: self.core.spectators)
    away_seats = property(lambda self: self.core.away_seats)
    awaited_seats = property(lambda self: self.core.awaited_seats)
    rematch_answers = property(lambda self: self.core.rematch_answers)

    # Who is at the door, where it lives.
    @property
    def admission(self) -> Admission[Link]:
        return self.door.admission

    @property
    def refused_connections(self) -> int:
        return self.door.refused_connections

    @property
    def _open_links(self) -> dict[Link, None]:
        return self.door.open_links

    def _anonymous_budget(self) -> int:
        """How many unauthenticated connections to hold: :attr:`MAX_UNAUTHENTICATED`,
        or fewer when the file descriptor limit would not leave room for the seated
        peers, the log and the runtime."""
        return strangers_for_files(self.MAX_UNAUTHENTICATED, open_files_limit())

    def _try_resume(self) -> None:
        """After a crash: the game rebuilt from our log and the saved master secret."""
        port = f"port:{self.config.port}"
        restored = self._restore(self.config.state_path,
                                 lambda saved: saved.seat == 0 and saved.host == port,
                                 self.identity.public, finished=False)
        if restored is not None:
            saved, session = restored
            self.core.session = session
            self.core.lobby.seats = list(session.table.seats)
            if saved.seat_secret is not None:
                # The secret the seats were taken with: every joiner proved it, and
                # proves it again coming back (PROTOCOL.md 5.5), with the code it holds
                # or the one this run shows (its own secret, if it has one).
                lobby = self.core.lobby
                with contextlib.suppress(ValueError):
                    former = parse_secret(saved.seat_secret)
                    if lobby.secret is None:
                        lobby.secret = former
                    elif lobby.secret != former:
                        lobby.former_secret = former
                    lobby.proven = {seat.key for seat in session.table.seats[1:]}
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
            seated = {x.key for x in s.table.seats}
            self.log.write_header(game=s.table.game, seat=0, key=self.identity.public,
                                  name=self.config.name,
                                  host=_address(self.config.bind or "0.0.0.0", self.port),
                                  bots={k: v for k, v in self.core.lobby.bots.items()
                                        if k in seated})
            self._headed = True
            if self.config.state_path is not None:
                SavedGame(s.table.game, 0, f"port:{self.config.port}", s.master,
                          str(self.log.path), seat_secret=self.core.lobby.secret
                          ).save(self.config.state_path)
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
        self.core.opened(trio.current_time())
        self.apply()
        if task_status is not None:
            task_status.started(self.port)
        if self.config.port_mapping is not None:
            # Imported here: a table without port mapping (and every joiner) never loads
            # it (a peer's memory, issue 44).
            from .portmap import PortMapper

            self.port_mapper = PortMapper(self.config.port_mapping, self.port, self.emit)
        try:
            await self._run_host(listeners)
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            links = list(self._open_links)
            if self.session is None:  # the table closes: told, not left to guess (5)
                await goodbye(links, wire.encode(error_message(
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
                nursery.start_soon(self.door.accept_loop, listener, nursery)
            if self.config.beacon:
                nursery.start_soon(self._announce)
            if self.port_mapper is not None:
                nursery.start_soon(self.port_mapper.run)
            nursery.start_soon(self._timer)
            if self.session is not None:  # resumed: everyone else must reconnect
                self.core.restored(self.session, self.resumed_entries, trio.current_time())
                self.apply()
            await self.finished.wait()
            # A flag we signed on a connected seat: its dispute, if it has one, is on its
            # way; it belongs in our log and with the others (PROTOCOL.md 12.6).
            deadline = self.core.dispute_deadline()
            if deadline is not None:
                with trio.move_on_at(deadline):
                    while self.core.dispute_deadline() is not None:
                        await self.changed.wait()
            if self.session is not None and self.session.finished:
                keep(self.identity.public, self.session.bodies)  # for a later table
            self.core.match_over()
            self.apply()
            answer = None
            try:
                answer = await self._after_match()  # the joiners' answers arrive meanwhile
            finally:
                self.core.answered(answer)
                self.apply()
            # Let the last entries and the abort reach everyone before closing; a
            # spectator still reading gets the rest at its own pace (PROTOCOL.md 18).
            ended = trio.current_time()
            spectators = {lk for _, lk in self.core.spectators.values()}
            async with trio.open_nursery() as closing:
                for link in self._all_links():
                    if link in spectators:
                        closing.start_soon(self._serve_to_the_end, link, ended)
                    else:
                        closing.start_soon(link.drain)
            nursery.cancel_scope.cancel()
        for link in self._all_links():
            with contextlib.suppress(Exception):
                await link.stream.aclose()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()

    #: Seconds after the end a spectator still reading is served, at most (tests lower
    #: it): :data:`~chkobba_p2p.link.spectators.END_LIMIT`.
    spectator_end_limit = END_LIMIT

    async def _serve_to_the_end(self, link: Link, ended: float) -> None:
        """The match is over: write what spectator ``link`` is still owed (the last
        entries, the closing abort) at its own pace, while it takes some bytes every
        ``idle`` seconds and at most :attr:`spectator_end_limit` after the end
        (:func:`~chkobba_p2p.link.spectators.serve_until`); then close."""
        link.finish()
        while not link.written.is_set():
            until = serve_until(ended, link.progress_at, self.timeouts.idle,
                                self.spectator_end_limit)
            if trio.current_time() >= until:
                break  # it stopped reading, or the limit is reached: let go
            with trio.move_on_at(until):
                await link.written.wait()
        await link.drain(2.0 if link.written.is_set() else 0.0)

    def _all_links(self) -> list[Link]:
        return [*self.core.links.values(), *(lk for _, lk in self.core.spectators.values())]

    # ------------------------------------------------------------------ LAN

    def _facts(self) -> TableFacts:
        from .discovery import TableFacts

        return TableFacts(name=self.config.name, players=self.config.players,
                          free=sum(1 for seat in self.core.lobby.seats if seat is None),
                          rules=self.config.rules.name,
                          spectators=self.config.spectators,
                          fingerprint=self.identity.fingerprint,
                          secret=self.core.lobby.secret is not None)

    async def _announce(self) -> None:
        """Announce the table on the LAN by DNS-SD while seats are free (PROTOCOL.md
        section 15); withdraw it when the game starts or the table closes.  A LAN
        without multicast costs a notice (:class:`Notice`), never the game."""
        # Imported here: a table not announced (and every joiner) never loads DNS-SD
        # (a peer's memory, issue 44).
        from .discovery import Announced, Announcer, host_addresses

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


class ClientPeer(PeerShell):
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
        pinned = pinned_fingerprint(address.fingerprint, config.host_fingerprint)
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
        self.core.secret = parse_secret(config.secret) if config.secret is not None \
            else address.secret
        self.core.bot = config.bot
        self.core.claims_host_gone = config.claims_host_gone
        self.core.defer_work = True  # the proof work runs in our worker (PeerShell)
        self.core.hold_bound = controller.answers_within  # a bot: its messages wait for it
        self.proof_thread = config.proof_thread
        self._last_link: Link | None = None  # kept after a drop, for a leave on Ctrl-C
        self._stream: trio.abc.Stream | None = None  # the last connection's
        #: Where the pinned key's endpoint is remembered once it proved itself (None:
        #: nowhere, or done).
        self._answered = config.answered
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
        fresh_log = self.log
        restored = self._restore(self.config.state_path, lambda saved: saved.host == where)
        if restored is not None and restored[1].finished and self.config.state_path:
            # The log already ends (a crash after the end, before the save was removed):
            # the save is done with, and never stands in the way of this join, which
            # goes on afresh (PROTOCOL.md 13.1); the person is told where the end is.
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()
            self.log.close()
            self.log, self._logged = fresh_log, 0
            self.emit(Notice(NoticeKind.SAVED_GAME_OVER, path=Path(restored[0].log)))
            restored = None
        if restored is not None:
            self.saved, session = restored
            self.core.resumed(session, session.table.seats[0].key)
            if self.core.secret is None and self.saved.seat_secret is not None:
                # Back without the whole code: the secret our seat was taken with.
                with contextlib.suppress(ValueError):
                    self.core.secret = parse_secret(self.saved.seat_secret)
            if self.saved.limits is not None:
                # The table's clocks, as its host announced them, until it speaks again:
                # never this peer's own defaults (PROTOCOL.md 12.3).
                self.core.host_limits = Limits(*map(float, self.saved.limits))

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
        seated = {x.key for x in s.table.seats}
        self.log.write_header(game=s.table.game, seat=s.own_seat, key=self.identity.public,
                              name=self.config.name, host=where,
                              bots={k: v for k, v in self.core.vouched.items()
                                    if k in seated})
        if self.config.state_path is not None and not s.finished:
            limits = self.core.host_limits
            SavedGame(s.table.game, s.own_seat, where, s.master, str(self.log.path),
                      None if limits is None else (math.ceil(limits.move),
                                                   math.ceil(limits.allowance)),
                      self.core.secret).save(self.config.state_path)

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
            if s.finished:  # the log already ends (and there is no save to remove)
                self.core.stop(None, "already_over")
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
        elif self.core.game_unknown and self.config.state_path is not None:
            filed = SavedGame.file_aside(self.config.state_path)
            if filed is not None:
                self.core.error_data["filed"] = str(filed)
        return self.outcome()

    async def _connect_loop(self) -> None:
        core = self.core
        while not self.finished.is_set():
            try:
                stream = await self.transport.connect(self.host, self.port)
            except OSError as exc:
                stop = core.connect_failed(str(exc), nobody_listening(exc), trio.current_time())
                self.apply()
                if stop:
                    return
                if stop is False:  # within the first connect_retry seconds: again soon
                    await trio.sleep(RETRY_FIRST)
                    continue
            else:
                fatal = await self._connected(stream)
                self.apply()
                if fatal or self.finished.is_set():
                    self.finished.set()
                    return
            stop = core.unreachable(trio.current_time())
            self.apply()
            if stop:
                return
            await trio.sleep(core.retry_delay())

    async def _connected(self, stream: trio.abc.Stream) -> bool:
        """Run one connection.  True: a fatal refusal (stop); False: reconnect.  The
        handshake's order is the core's (:meth:`SeatLink.receive_handshake`): here, its
        bytes and its deadline."""
        self._stream = stream
        core = self.core
        link = Link(stream, self.timeouts, self.traffic)
        for msg in core.connect(self.config.name, SPOKEN):
            link.send_msg(msg)  # a knock: our seat's key, proven from the first frame (5.4)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            step = HandshakeStep()
            try:
                with trio.fail_after(self.timeouts.handshake):
                    while core.handshaking and step.over is None:
                        try:
                            body, frame = await link.receive()
                        except LinkClosed as exc:
                            step = core.host_closed(exc.error)
                        except ProtocolError as exc:
                            step = core.handshake_broken(exc)
                        else:
                            step = core.receive_handshake(link, body, frame,
                                                          trio.current_time())
                        for msg in step.send:
                            link.send_msg(msg)
            except trio.TooSlowError:
                step = core.handshake_broken(None)
            if step.over is not None:
                if step.fail is not None:
                    await link.fail(step.fail)
                else:
                    link.finish()
                nursery.cancel_scope.cancel()
                return step.over
            self._last_link = link
            self._remember_answered()
            self.apply()
            nursery.start_soon(pinger, link)
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

    def _remember_answered(self) -> None:
        """The handshake is over: the host's welcome proved the pinned key here (signed
        over our own nonce; a greeting or a refusal alone proves nothing, anyone can
        replay the one and write the other).  Remembered now, once a run, so that a
        join cut short (Ctrl-C in the lobby) still counts."""
        answered, self._answered = self._answered, None
        if answered is None or self.pinned is None or self.core.host_key is None \
                or wire.fingerprint(self.core.host_key) != self.pinned:
            return
        with contextlib.suppress(ValueError):  # a name or an onion: not a LAN endpoint
            ipaddress.ip_address(self.host.partition("%")[0])
            answered.remember(self.pinned, self.host, self.port)

    async def _await_table(self) -> None:
        """An honest host sends its lobby right after its welcome (PROTOCOL.md 5)."""
        await trio.sleep(self.timeouts.handshake)
        self.core.no_table()
        self.apply()

    async def _read_loop(self, link: Link) -> None:
        def handle(body: bytes, msg: lm.Frame) -> bool:
            try:
                self.core.message(link, msg, trio.current_time())
            except Exception as exc:  # noqa: BLE001 - nothing from the network may kill us
                _log.warning("ignored a message from the host that could not be "
                             "handled: %r", exc)
            return True

        closed = await self.reads(link, handle)
        if closed is not None:
            self.core.closed_in_lobby(closed.error)
            self.apply()
