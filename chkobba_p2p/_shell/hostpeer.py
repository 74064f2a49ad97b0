"""The host's trio shell (PROTOCOL.md 2, 5, 12, 17, 18): :class:`HostPeer`, seat 0.

The decisions live in the sans-IO core, :class:`~chkobba_p2p.link.host.HostTable`.
:class:`HostPeer` listens, resumes its table from its log, announces it on the LAN and
closes it at the match's end; it builds on :class:`~chkobba_p2p._shell.shell.PeerShell`
and its connections come through its :class:`~chkobba_p2p._shell.accept.Door`.  Apart from
:mod:`chkobba_p2p._shell.net` (a joiner's shell, :class:`~chkobba_p2p._shell.net.ClientPeer`)
so that a joiner does not import the host's modules (the host's table, its door, its
admission, the matches it ended: about 0.25 MB of a joiner's memory, issue 44).
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import trio

from ..address import parse_port, parse_secret
from ..link import messages as lm
from ..link.admission import STRANGERS, Admission, strangers_for_files
from ..link.events import (
    Notice,
    NoticeKind,
    Outcome,
    SeatController,
)
from ..link.handshake import error_message
from ..link.host import HostTable, SeatsMoved, Started
from ..link.seat import Effect
from ..link.spectators import END_LIMIT, serve_until
from ..transcript.clocks import Limits
from ..transcript.ended import EndedLogs, keep
from ..wire import codec as wire
from ..wire.codec import ErrorCode, Identity
from ..wire.logfile import SavedGame
from .accept import Door, open_files_limit
from .config import HostConfig
from .events import Listening
from .shell import PeerShell, goodbye
from .shell import address as _address
from .stream import Link
from .transport import ListenError, TcpTransport

if TYPE_CHECKING:
    from .discovery import TableFacts
    from .portmap import PortMapper


__all__ = ["HostPeer", "listen"]

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
            raise ListenError.from_os(exc, self.config.bind, self.config.port) from None
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
