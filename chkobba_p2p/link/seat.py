"""What every seat's link does around its session, sans-IO (PROTOCOL.md 6, 12, 17).

:class:`SeatCore` drives one seat's :class:`~chkobba_p2p.transcript.session.Session` the way both
the host and a joiner do: it takes the entries the session makes, the choices of the
seat's person, the time, and gives back :data:`Effect` values for the trio shell to carry
out -- frames to send on a connection, events for the controller, "the game waits for
our choice", "the game is over".  It never reads a clock (``now`` is an argument) and
never touches a socket or a file: the shell writes the log from ``session.bodies``
before it sends what an effect says, so every entry is in the log before it leaves.

The connections are opaque values of the shell's (``C``): the core keeps them in its
maps and names them in :class:`Send` and :class:`Close`, never looks inside.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from ..deal.core import JobResult, ProofJob
from ..errors import Facts, IllegalMove, LocalError
from ..game.hand import Move
from ..transcript.bodies import GameFault
from ..transcript.clocks import (
    ClockReading,
    Clocks,
    Limits,
    SeatClock,
    clock_reading,
    dispute_contradicts,
    make_clock,
)
from ..transcript.driver import Decision
from ..transcript.session import Session
from ..wire.codec import ErrorCode, ProtocolError
from .events import ChoiceRefused, Lobby, Outcome, OutcomeError

if TYPE_CHECKING:  # the union names every layer's events, the shell's too
    from .._shell.events import TableEvent

__all__ = ["C", "Send", "SendBacklog", "Close", "Emit", "Decide", "AskReady", "CancelAsk",
           "Finished", "RunJob", "Effect", "ChatBucket", "SeatCore", "MAX_REFUSALS",
           "MAX_HOLD"]

C = TypeVar("C", bound=Hashable)

#: Refused choices in a row after which a controller's bug ends our own game (rather than
#: asking it forever).
MAX_REFUSALS = 5

#: The longest a seat keeps its turn for its own controller's choice (a controller that
#: answers at once, :attr:`SeatCore.hold_bound`), in seconds: past it the turn goes with
#: the deal messages alone, as a person's does (PROTOCOL.md 6.2).  Far under any move
#: limit, and under the round trip of a table at a distance, which the hold saves.
MAX_HOLD = 0.5


class Effect:
    """Something the core decided, for the shell to carry out (the classes below, and
    the host's and joiner's own)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Send(Effect, Generic[C]):
    """Queue the frame ``body`` on connection ``to``."""

    to: C
    body: bytes


@dataclass(frozen=True, slots=True)
class SendBacklog(Effect, Generic[C]):
    """Stream ``session.bodies[start:end]`` on ``to``, at its pace (PROTOCOL.md 18):
    ``end`` is the transcript's length when the core decided, so that entries made
    after it (relayed to ``to`` by :class:`Send` effects of their own) are never sent
    twice, however late the shell carries this out."""

    to: C
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Close(Effect, Generic[C]):
    """Send ``error code`` (if a code) on ``to`` and close it; ``None`` closes after what
    is queued, without a word."""

    to: C
    code: ErrorCode | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Emit(Effect):
    """Give ``event`` to the controller."""

    event: TableEvent


@dataclass(frozen=True, slots=True)
class Decide(Effect):
    """The session waits for this seat's person: ask the controller, then
    :meth:`SeatCore.decide`."""

    decision: Decision


@dataclass(frozen=True, slots=True)
class AskReady(Effect):
    """The table is full with ``lobby.seating``: ask our person whether it is ready
    (the ready check, PROTOCOL.md 5.3), then ``confirmed(seating)``."""

    lobby: Lobby


@dataclass(frozen=True, slots=True)
class CancelAsk(Effect):
    """Any pending ready question is void (the seating changed or the game began)."""


@dataclass(frozen=True, slots=True)
class RunJob(Effect):
    """Compute ``job`` (:func:`chkobba_p2p.deal.core.run_job`: a pure function of the job's
    immutable inputs, so another thread may run it) and give the result to
    :meth:`SeatCore.job_done`."""

    job: ProofJob


@dataclass(frozen=True, slots=True)
class Finished(Effect):
    """This seat's game is over (or it stops): the shell winds down."""


class ChatBucket:
    """A token bucket: ``burst`` chat lines at once, then one every ``period / burst``
    seconds (5 per 10 s by default); extra lines are dropped.  ``now`` from any monotonic
    clock."""

    def __init__(self, burst: int = 5, period: float = 10.0) -> None:
        self.burst = burst
        self.rate = burst / period
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self, now: float) -> bool:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SeatCore(Generic[C]):
    """The session side of a seat's link, shared by host and joiner.

    Subclasses say where this seat's own entries go (:meth:`_entry_out`) and which
    limits its clocks run on (:meth:`limits`).  Every method that changes something
    appends to :attr:`out`; the shell takes them with :meth:`take`."""

    def __init__(self, limits: Limits) -> None:
        self.session: Session | None = None
        #: Every seat's clocks (PROTOCOL.md 12), from the genesis on.
        self.clock: Clocks | None = None
        self._own_limits = limits
        self.out: list[Effect] = []
        self.finished = False
        #: Why this seat stopped, for programs and for the outcome (None: a game's end).
        self.error_code: str | None = None  # an OutcomeError or a wire code's name
        #: The case, finer (:data:`~.events.ERROR_REASONS`), and what its words need:
        #: the client words these (the library has no sentence for them).
        self.error_reason: str | None = None
        self.error_data: dict[str, str | int | float | Facts] = {}
        self._refusals = 0
        self._asked: int | None = None  # the seating the ready question is out for
        #: The shell runs the deal's proof work (:class:`RunJob`) itself, off the serial
        #: path; False: the session does it in each call.
        self.defer_work = False
        #: Our controller answers a choice within this many seconds (a bot's
        #: ``SeatController.answers_within``; None: a person): our turn that would carry
        #: our deal messages alone waits that long for the choice, at most
        #: :data:`MAX_HOLD` (:attr:`Session.holding`).
        self.hold_bound: float | None = None
        self._hold_since: float | None = None

    # -- what the shell calls ----------------------------------------------------------

    def take(self) -> list[Effect]:
        """The effects so far, in order, and forget them."""
        out, self.out = self.out, []
        return out

    def limits(self) -> Limits:
        """The move limit and allowance this seat's clocks run on."""
        return self._own_limits

    def catching_up(self) -> bool:
        """Still reading the game before acting in it: sign nothing yet."""
        return False

    def clocks(self, now: float) -> tuple[SeatClock, ...]:
        """Every seat's clocks at ``now`` (empty before the game starts)."""
        return () if self.clock is None else self.clock.read(now)

    def pump(self, now: float) -> None:
        """Send whatever the session has ready, report its events, move the clocks, and
        say when the game waits for our person."""
        s = self.session
        if s is None:
            return
        if self.defer_work and not s.defer_work:
            s.defer_work = True
        s.hold_for_choice = self.hold_bound is not None
        try:
            while True:
                while (entry := s.next_entry()) is not None:
                    self._entry_out(entry.body)
                if not s.holding:
                    self._hold_since = None
                    break
                if self._hold_since is None:
                    self._hold_since = now
                if now < self.hold_until():
                    break
                # The choice is late: the others' cards do not wait for it any longer.
                s.release_hold()
                self._hold_since = None
        except Exception as exc:  # noqa: BLE001 - our own session refused our own entry
            # Never expected (a peer makes only entries its session accepts); if it happens
            # the game ends with a signed record that blames nobody, not with a traceback.
            if not s.finished:
                self._entry_out(self.blame(ProtocolError(
                    ErrorCode.PROTOCOL_VIOLATION, f"internal error: {exc}"), None, None, now))
            return
        self._events()
        self.clock_changed(now)
        if s.finished:
            self._finish()
            return
        self.out.extend(RunJob(job) for job in s.jobs())
        if s.decision is not None:
            self.out.append(Decide(s.decision))

    def hold_until(self) -> float:
        """When our turn, kept for our controller's choice, goes without it (infinity:
        no turn is kept).  A subclass's :meth:`next_wake` wakes then, and its
        :meth:`tick` calls :meth:`hold_tick`."""
        if self._hold_since is None or self.hold_bound is None or self.finished:
            return math.inf
        return self._hold_since + min(max(0.0, self.hold_bound), MAX_HOLD)

    def hold_tick(self, now: float) -> None:
        """Time passed: a turn kept for our choice past its bound goes now."""
        if now >= self.hold_until():
            self.pump(now)

    def job_done(self, job: ProofJob, result: JobResult, now: float) -> None:
        """The result of a :class:`RunJob`: our proof goes out, or a proof verified (the
        shares it held back may go); a refused proof ends the game blaming its prover."""
        s = self.session
        if s is None or s.finished:
            return
        try:
            s.job_done(job, result)
        except GameFault as fault:
            self.blame_out(fault, fault.blamed_seat, fault.evidence, now)
            return
        self.pump(now)

    def decide(self, decision: Decision, choice: Move | bool, now: float) -> None:
        """Our person's choice for ``decision``; ignored if the game moved on meanwhile.
        A choice the rules refuse is reported (:class:`ChoiceRefused`) and asked again;
        after :data:`MAX_REFUSALS` in a row the controller's error is raised."""
        s = self.session
        if s is None or not (s.decision is decision or s.decision == decision):
            self.pump(now)
            return
        try:
            s.decide(choice)
            self._refusals = 0
        except (IllegalMove, LocalError) as exc:
            self._refusals += 1
            if self._refusals > MAX_REFUSALS:
                raise
            self.out.append(Emit(ChoiceRefused.of(exc)))
        self.pump(now)

    def blame(self, fault: GameFault | ProtocolError, blamed: int | None,
              evidence: bytes | None, now: float, *, flag: int | None = None) -> bytes:
        """End the game with a signed abort record; returns its body (the caller sends
        it: :meth:`_entry_out`, or straight to a socket while cancelled).  ``flag``: the
        host's clocks flag that seat (a loss on time, :func:`~chkobba_p2p.transcript.session.
        flag_holds`)."""
        s = self.session
        assert s is not None
        clock = self.flag_clock(flag, now) if flag is not None else None
        entry = s.abort(fault.error_code, blamed, getattr(fault, "detail", str(fault)),
                        evidence, proven=isinstance(fault, GameFault), flag=flag,
                        clock=clock, violation=fault.violation, facts=fault.facts)
        self._events()
        self._finish()
        return entry.body

    def blame_out(self, fault: GameFault | ProtocolError, blamed: int | None,
                  evidence: bytes | None, now: float, *, flag: int | None = None) -> None:
        """:meth:`blame`, and the record sent where our entries go."""
        self._entry_out(self.blame(fault, blamed, evidence, now, flag=flag))

    def flag_clock(self, seat: int, now: float) -> dict[str, int] | None:
        """Our clocks' reading of ``seat`` for a flag we sign (PROTOCOL.md 12.6): the
        limits, how long its move clock ran, what it has left of its allowance."""
        if self.clock is None:
            return None
        c, lim = self.clock.read(now)[seat], self.clock.limits
        used = lim.move - c.move_left if c.owes else 0.0
        return make_clock(lim.move, lim.allowance, used, c.allowance_left)

    def own_away_spent(self, now: float) -> float:
        """How long this seat has been away from the table this match, by its own
        measure (a joiner: its time without the host)."""
        return 0.0

    def measured(self, now: float) -> bool:
        """Our own clocks measured the move under way from its start (else a flag on us
        is conceded: we cannot say it is wrong)."""
        return True

    def dispute_flag(self, before: tuple[SeatClock, ...], now: float) -> bool:
        """The game just ended on a flag against our own seat: if our own clocks, read
        just before it (``before``), contradict it by more than the tolerance, sign and
        send our dispute (PROTOCOL.md 12.6).  True when one went out."""
        s = self.session
        if s is None or self.clock is None or not before:
            return False
        flag = s.flag_to_dispute()
        if flag is None or not self.measured(now):
            return False
        own, lim = before[s.own_seat], self.clock.limits
        used = lim.move - own.move_left if own.owes else 0.0
        left = lim.allowance - self.own_away_spent(now)
        mine = make_clock(lim.move, lim.allowance, used, left)
        code = ErrorCode.from_wire(flag.fields.get("code"))
        if not dispute_contradicts(code, clock_reading(flag.fields.get("clock")), mine):
            return False
        entry = s.dispute(mine, f"my clock: {used:.0f} s of this move used, "
                                f"{max(0.0, left):.0f} s of time away left")
        if entry is None:
            return False
        self._entry_out(entry.body)
        return True

    def internal_error(self, exc: Exception, body: bytes | None, now: float) -> None:
        """An entry made this peer's own code fail in a way no check foresaw: the game ends
        with a signed record that blames nobody (nothing proves who is at fault)."""
        s = self.session
        if s is not None and not s.finished:
            fault = ProtocolError(ErrorCode.PROTOCOL_VIOLATION, f"internal error: {exc!r}")
            self.blame_out(fault, None, body, now)
        self._finish()

    def leave(self, detail: str = "the player left") -> bytes | None:
        """Leave the running game on purpose: a signed ``abort`` (``peer_left``, blaming
        this seat); returns its body for the caller to send (None: no game running)."""
        s = self.session
        if s is None or s.finished or self.catching_up():
            return None
        entry = s.leave(detail)
        assert entry is not None
        self._events()
        self._finish()
        return entry.body

    def resign(self) -> bool:
        """Resign the running match: the signed resignation goes out."""
        s = self.session
        if s is None or s.finished or self.catching_up():
            return False
        try:
            entry = s.resign()
        except LocalError:
            return False
        self._events()
        self._entry_out(entry.body)
        self._finish()
        return True

    def new_clocks(self, now: float) -> Clocks:
        """This seat's copy of the table's clocks, started at ``now`` (a session runs)."""
        assert self.session is not None
        return Clocks(self.session.table.players, self.limits(), now)

    def clock_changed(self, now: float, force: bool = False) -> None:
        """The floor may have moved or a seat dropped: move the clocks, report them."""
        s = self.session
        if s is None:
            return
        if self.clock is None:
            self.clock = self.new_clocks(now)
        if self.clock.moved(None if s.finished else s.floor, now, move=s.length) or force:
            self.out.append(Emit(ClockReading(self.clock.read(now), self.clock.limits)))

    def ask_ready(self, lobby: Lobby) -> None:
        """Ask our person once per seating (a changed seating asks again)."""
        if self._asked == lobby.seating:
            return
        self.cancel_ask()
        self._asked = lobby.seating
        self.out.append(AskReady(lobby))

    def cancel_ask(self) -> None:
        if self._asked is not None:
            self._asked = None
            self.out.append(CancelAsk())

    def outcome(self, log_path: Path, sent: int, received: int) -> Outcome:
        """The result as the controller and the command line see it."""
        s = self.session
        code = self.error_code
        if code is None and s is not None and s.aborted is not None:
            code = OutcomeError.ABORTED
        return Outcome(seat=s.seat if s else None, table=s.table if s else None,
                       log_path=log_path if s else None,
                       done=s.done if s else None, aborted=s.aborted if s else None,
                       error_code=code, error_reason=self.error_reason,
                       error_data=dict(self.error_data), bytes_sent=sent,
                       bytes_received=received)

    def chat(self, text: str, now: float) -> bool:
        """Our person's chat line: True when it went out."""
        raise NotImplementedError

    def next_wake(self, now: float) -> float:
        """When :meth:`tick` has something to do next."""
        return min(now + 1.0, max(now, self.hold_until()))

    def tick(self, now: float) -> None:
        """Time passed: whatever is due."""
        self.hold_tick(now)

    def send_entry(self, body: bytes) -> None:
        """Send ``body``, a signed entry of ours (a leave's record, a late abort), where
        this seat's entries go: the host's to every seat and spectator, a joiner's to its
        host.  The effects follow in :meth:`take`."""
        self._entry_out(body)

    # -- for subclasses ------------------------------------------------------------------

    def _entry_out(self, body: bytes) -> None:
        """One of our entries (or a relayed one) goes where entries go."""
        raise NotImplementedError

    def _events(self) -> None:
        s = self.session
        if s is not None:
            self.out.extend(Emit(ev) for ev in s.take_events())

    def _finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.out.append(Finished())

    def stop(self, code: str | None, reason: str | None = None, /,
             **data: str | int | float | Facts) -> None:
        """This seat stops with ``code`` (for programs), ``reason`` and ``data`` (the case
        and what its words need)."""
        self.said(code, reason, **data)
        self._finish()

    def said(self, code: str | None, reason: str | None, /,
             **data: str | int | float | Facts) -> None:
        """Why this seat has no game: ``code``, ``reason`` (one of
        :data:`~.events.ERROR_REASONS`), ``data``; a client words them."""
        self.error_code = code
        self.error_reason, self.error_data = reason, dict(data)
