"""The host's door, sans-IO (PROTOCOL.md 5, 5.1, 5.4, 5.5, 13.1, 18): each connection's
handshake in the order :data:`~chkobba_p2p.link.states.HOST` gives, and who may hold a
connection.

:class:`DoorCore` holds the host's :class:`~chkobba_p2p.link.admission.Admission` beside
its table (:class:`~chkobba_p2p.link.host.HostTable`).  Each accepted connection becomes
an :class:`Arrival`: the greeting it is sent first, then every frame it sends until it
is a seat, a spectator, or refused with a named code (:class:`DoorStep`: what to send,
whom to let go, the error to end it with).  The knock that proves a seat's key (5.4), the
hello and its checks (the seat secret's among them, 5.5), the spectator's ``watch`` and
its place, a resume of a match this host ended (13.1): each is decided here, as the
connection's state in ``HOST`` allows.  The trio shell (:class:`chkobba_p2p._shell.accept.Door`)
only moves the bytes, arms the deadline this core gives, and closes what it is told to.
Connections are the shell's opaque values (``C``); nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from ..wire import codec as wire
from ..wire.codec import ErrorCode, ProtocolError
from . import messages as lm
from .admission import Admission, AdmissionPolicy
from .host import HostTable
from .seat import C
from .states import HOST, NoSuchEvent, after_event, next_state, sent_state

__all__ = ["DoorCore", "Arrival", "DoorStep", "Admit", "Opened", "Seating",
           "HANDSHAKE_STATES"]

#: The states of a host's connection before it is a seat or a spectator.
HANDSHAKE_STATES = frozenset({"ACCEPTED", "AWAIT_HELLO", "KNOCKED"})


@dataclass(frozen=True, slots=True)
class DoorStep(Generic[C]):
    """What one step of a connection's handshake asks of the shell: close ``let_go``
    (other connections the admission lets go: an older knock of the same seat), send
    ``send`` (frame bodies, in order); then, if ``over``, the connection is over: send
    an error with code ``fail`` and ``detail`` (if ``fail`` is set) and close."""

    send: tuple[bytes, ...] = ()
    let_go: tuple[C, ...] = ()
    fail: ErrorCode | None = None
    detail: str = ""
    over: bool = False


@dataclass(frozen=True, slots=True)
class Opened(Generic[C]):
    """A connection accepted: its :class:`Arrival`, its greeting's deadline, and the
    strangers let go to make room for it (the shell closes them at once)."""

    arrival: Arrival[C]
    deadline: float
    let_go: tuple[C, ...] = ()
    #: The largest frame read until the connection is a seat: a stranger's first frames
    #: are a hello, a watch or a knock, all small.
    max_frame: int = wire.MAX_HELLO


@dataclass(frozen=True, slots=True)
class Seating(Generic[C]):
    """A hello the host welcomed: the welcome, the seat, the ``(game, have)`` of a
    resume, the seat's older connection a proven resume takes over, and whether the
    hello was fresh (no resume)."""

    welcome: dict[str, Any]
    seat: int
    resume: tuple[bytes, int] | None
    replaced: C | None
    fresh: bool


@dataclass(frozen=True, slots=True)
class Admit(Generic[C]):
    """What the connection becomes once its handshake is over (:meth:`Arrival.admit`):
    ``fail``: refused after all (the table is closing); ``ended``: a resume of a match
    this host ended, told its end (send ``welcome``, then the transcript's ``bodies``
    from ``start``, then close, PROTOCOL.md 13.1); else a seat (``seat``) or a
    spectator (``spectator``, its number among them)."""

    fail: ErrorCode | None = None
    welcome: bytes = b""
    ended: tuple[Sequence[bytes], int] | None = None
    seat: int | None = None
    spectator: int | None = None
    #: The largest frame read from now on (a seat's entries), None: as before.
    max_frame: int | None = None


class DoorCore(Generic[C]):
    """Who comes in at the host's door: the admission's budget and each connection's
    handshake, consulting the table (``table``) for seats, knocks and spectators."""

    def __init__(self, table: HostTable[C], policy: AdmissionPolicy) -> None:
        self.table = table
        #: Who may hold a connection (PROTOCOL.md 5.4): strangers before their greeting,
        #: knocking seats, spectators, seats -- keyed by the connection, never by its
        #: address.
        self.admission: Admission[C] = Admission(policy)

    def opened(self, conn: C, address: str, now: float) -> Opened[C]:
        """``conn`` was accepted from ``address``: a stranger until its greeting's
        answer.  Strangers let go for room may each have been an absent seat coming
        back: the table hears of it (no flag for time away stands, 12.3)."""
        admitted = self.admission.opened(conn, address, now)
        if admitted.evicted:
            self.table.strangers_let_go()
        return Opened(Arrival(self, conn, admitted.deadline, now), admitted.deadline,
                      admitted.evicted)

    def heard(self, conn: C) -> None:
        """Bytes arrived on ``conn`` (the admission's diagnostics)."""
        self.admission.heard(conn)

    def out_of_files(self, now: float) -> tuple[C | None, bool]:
        """accept() failed for want of file descriptors: the stranger to let go (None:
        nobody) and whether to warn in the developers' log."""
        shed = self.admission.out_of_files(now)
        if shed.victim is not None:
            self.table.strangers_let_go()
        return shed.victim, shed.warn

    def closed(self, conn: C) -> bool:
        """``conn`` is gone, whatever it was.  True if it was a seat's knocking
        connection: that seat's flag is held no more (the shell carries out the table's
        effects, and the clocks are looked at again)."""
        self.admission.closed(conn)
        return self.table.knock_gone(conn)


class Arrival(Generic[C]):
    """One connection at the host's door, from its greeting until it is a seat, a
    spectator or refused.  Its state is :data:`~chkobba_p2p.link.states.HOST`'s:
    ACCEPTED, AWAIT_HELLO (a hello, a watch, or a seat's knock first), KNOCKED (then
    its hello), SEATED or WATCHING once admitted, CLOSED once refused or gone."""

    def __init__(self, door: DoorCore[C], conn: C, due: float, now: float) -> None:
        self.door = door
        self.conn = conn
        #: When the greeting's answer is due (the admission's deadline).
        self.due = due
        self.state = HOST.initial
        table = door.table
        # The time of the frame being read, for the welcome's figures.  A cell, not
        # ``self``: the handshake's callbacks must not hold the arrival (a reference
        # cycle would keep the connection, and its socket, until the collector runs).
        self._now = now_cell = [now]
        self.hs = table.handshake(lambda seat: table.allowance_left_of(seat, now_cell[0]),
                                  move_used=lambda: table.move_used_of(now_cell[0]))
        #: The hello the host welcomed (None until then).
        self.seating: Seating[C] | None = None
        #: A spectator's name, once its ``watch`` took a place.
        self.spectator: str | None = None

    @property
    def handshaking(self) -> bool:
        """The connection is open and neither seated, watching nor refused yet."""
        return self.state in HANDSHAKE_STATES

    def greeting(self) -> bytes:
        """The ``host`` greeting, the first frame the connection is sent (its exact bytes
        are in the handshake's hash)."""
        body = wire.encode(self.hs.greeting())
        self.state = sent_state(HOST, self.state, lm.Host.TYPE)
        return body

    def receive(self, body: bytes, frame: lm.Frame, now: float) -> DoorStep[C]:
        """One frame before the connection is admitted (``body``: as received; a hello's
        bytes are in the handshake's hash)."""
        if self.state not in ("AWAIT_HELLO", "KNOCKED"):
            raise NoSuchEvent(f"no greeting answered yet or no handshake under way "
                              f"(the connection is in {self.state})",
                              code="no_handshake", data={"state": self.state})
        self._now[0] = now
        table, admission = self.door.table, self.door.admission
        try:
            state = next_state(HOST, self.state, lm.type_name(frame))
            if state == "CLOSED":  # the peer's error: its last word, nothing to answer
                self.state = state
                return DoorStep(over=True)
            if state == "KNOCKED":  # a seat proving its key from its first frame (5.4)
                self.state = state
                seat = table.knock(self.conn, self.hs, frame, self.due, now)
                if seat is None:
                    return DoorStep()  # proves nothing: a stranger until its hello
                # One place per seat: an older knocking connection of that seat goes.
                return DoorStep(let_go=admission.knocked(self.conn, seat))
            if state == "WATCHING":  # a spectator: no seat, no key
                name = table.spectator_name(frame)
                # Its own slots from now on, out of the strangers' budget.
                if not admission.spectating(self.conn):
                    raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                                        "every spectator's place is taken",
                                        violation="spectators_full")
                self.spectator, self.state = name, state
                return DoorStep()
            welcome, seat, resume, replaced = table.on_hello(self.hs, frame, body)
        except ProtocolError as exc:  # the table's code (a LinkStateError) or a check's
            return self.broken(exc)
        fresh = isinstance(frame, lm.Hello) and frame.resume is None
        self.seating = Seating(welcome, seat, resume, replaced, fresh)
        self.state = state
        return DoorStep()

    def broken(self, exc: ProtocolError) -> DoorStep[C]:
        """The handshake broke: a frame that does not decode, or one the state or the
        checks refuse; the peer is sent its code and the connection closes."""
        self._refused("bad hello")
        return DoorStep(fail=exc.error_code, detail=exc.detail, over=True)

    def timed_out(self) -> DoorStep[C]:
        """The greeting's deadline passed before the connection was admitted."""
        self._refused("timeout")
        return DoorStep(fail=ErrorCode.HANDSHAKE_TIMEOUT, over=True)

    def closed(self) -> DoorStep[C]:
        """The peer closed the connection (or sent its error) before it was admitted."""
        self.state = "CLOSED"
        return DoorStep(over=True)

    def _refused(self, event: str) -> None:
        try:
            self.state = after_event(HOST, self.state, event)
        except NoSuchEvent:  # refused before its greeting went: closed all the same
            self.state = "CLOSED"

    def admit(self, now: float, closing: bool = False) -> Admit[C]:
        """The handshake is over: what the connection becomes.  A resume of a match this
        host ended is told its end (13.1); a table closing (``closing``) admits nobody
        more (``shutdown``); a spectator takes its place and gets the transcript so far;
        a seat is seated (the table's effects follow: its welcome first)."""
        table = self.door.table
        seating = self.seating
        if seating is not None and \
                (ended := table.ended_backlog(seating.resume)) is not None:
            self.state = "CLOSED"
            return Admit(welcome=wire.encode(seating.welcome), ended=ended)
        if closing:
            self.state = "CLOSED"
            return Admit(fail=ErrorCode.SHUTDOWN)
        if self.spectator is not None:
            if self.state != "WATCHING":
                raise NoSuchEvent(f"a spectator's connection in {self.state}",
                                  code="spectator_not_watching", data={"state": self.state})
            return Admit(spectator=table.spectator_arrived(self.conn, self.spectator, now))
        if seating is None or self.state != "SEATED":
            raise NoSuchEvent(f"nothing to admit (the connection is in {self.state})",
                              code="nothing_to_admit", data={"state": self.state})
        self.door.admission.seated(self.conn)  # no budget applies to a seat from now on
        table.seated(self.conn, seating.seat, seating.welcome, seating.fresh,
                     seating.resume, seating.replaced, now)
        return Admit(seat=seating.seat, max_frame=wire.MAX_FRAME)
