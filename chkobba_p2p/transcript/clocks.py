"""The clocks: a chess clock per seat and an allowance of time away (PROTOCOL.md 12),
and what a flag on time or a dispute of one shows (PROTOCOL.md 12.3, 12.6).

Sans-IO like the session: nothing here reads a clock.  The transport passes ``now``
(seconds on any monotonic clock, the same origin for every call) to every method.

The model, in full (PROTOCOL.md section 12 says the same for people writing clients):

* A seat **owes** the next message while it holds the floor: every deal message it owes
  (shares, a reveal, its key or shuffle) and its play travel in its own ``turn``, so a
  seat the game waits for always owes the floor's next entry.
* Its **move clock** runs while it owes and is connected: ``limits.move`` seconds per
  move.  A resume does not reset it; only the floor moving on does (a new move).
* Its **allowance** runs while it is disconnected, owing or not: ``limits.allowance``
  seconds per seat for the whole match, spent across every drop (cycling runs out).
  Time away while owing is charged to the allowance instead of the move clock.
* A seat **times out** when, owing, its move clock passes ``limits.move``
  (``timeout``), or it is away with no allowance left (``peer_left``).  No seat can delay
  the match by more than ``limits.move + limits.allowance`` at one move, nor by more than
  ``limits.allowance`` in drops over the whole match.  A seat that owes nothing is never
  timed out.

:class:`Clocks` is what the host runs to enforce it and what any peer can run to show
countdowns; :class:`SeatClock` is one seat's reading.  :func:`flag_holds` says whether a
``timeout`` or ``peer_left`` abort flags the seat to play (a loss on time), and
:func:`dispute_contradicts` whether the flagged seat's own reading voids it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game.seating import Seating
from ..wire.codec import ErrorCode
from .base import TranscriptEvent
from .table import Phase

__all__ = [
    "Limits",
    "SeatClock",
    "Clocks",
    "Expiry",
    "ClockReading",
    "CLOCK_TOLERANCE",
    "clock_reading",
    "make_clock",
    "clock_refutes_flag",
    "dispute_contradicts",
    "flag_holds",
    "flag_winner",
    "loser_side",
]

#: Times are floats: a deadline read back is reached, whatever the rounding.
_EPSILON = 1e-9


@dataclass(frozen=True)
class Limits:
    """``move``: seconds of connected time a seat may hold the floor at one move;
    ``allowance``: seconds a seat may spend disconnected over the whole match."""

    move: float
    allowance: float

    @property
    def bound(self) -> float:
        """The longest any one seat can hold up the match at one move."""
        return self.move + self.allowance


@dataclass(frozen=True)
class SeatClock:
    """One seat's clocks as of ``at`` (the ``now`` the reading was taken at).

    ``owes``: it holds the floor (its move clock, or its allowance when away, runs);
    ``connected``: the host has a live connection to it; ``move_left``: seconds left of
    this move; ``allowance_left``: seconds of time away left for the match.
    :meth:`left` and :meth:`deadline` project the reading to another time."""

    seat: int
    owes: bool
    connected: bool
    move_left: float
    allowance_left: float
    at: float

    @property
    def running(self) -> str | None:
        """Which clock runs now: ``"move"``, ``"allowance"`` or None."""
        if not self.connected:
            return "allowance"
        return "move" if self.owes else None

    def left(self, now: float) -> tuple[float, float]:
        """``(move_left, allowance_left)`` at ``now``, if nothing changes meanwhile."""
        dt = max(0.0, now - self.at)
        move, away = self.move_left, self.allowance_left
        if self.running == "move":
            move = max(0.0, move - dt)
        elif self.running == "allowance":
            away = max(0.0, away - dt)
        return move, away

    def deadline(self) -> float | None:
        """When this seat times out if nothing changes (None: it owes nothing)."""
        if not self.owes:
            return None
        if self.connected:
            return self.at + self.move_left
        return self.at + self.allowance_left


@dataclass(frozen=True)
class ClockReading(TranscriptEvent):
    """Event for clients (:meth:`SeatController.on_event`): the clocks changed -- the floor
    moved, a seat dropped or came back.  ``clocks`` has one :class:`SeatClock` per seat,
    read at ``clocks[i].at`` on the peer's trio clock (``trio.current_time()``): a client
    shows the countdown of the seat that ``owes`` as ``left(trio.current_time())[0]`` and
    a dropped seat's (``not connected``) as ``left(...)[1]``.  Readings are sent on
    changes, not every second; between two, project with :meth:`SeatClock.left`.
    ``limits``: the table's move limit and allowance the clocks count with (at a joining
    peer, the host's as its welcome announced them), None if not given."""

    clocks: tuple[SeatClock, ...]
    limits: Limits | None = None

    def of(self, seat: int) -> SeatClock:
        return self.clocks[seat]


@dataclass(frozen=True)
class Expiry:
    """A seat timed out: ``code`` is ``"timeout"`` (its move clock ran out) or
    ``"peer_left"`` (away with no allowance left), ``detail`` a sentence."""

    seat: int
    code: str
    detail: str


class Clocks:
    """Every seat's clocks at one table.  Tell it when the floor moves
    (:meth:`floor`), when a seat drops or comes back (:meth:`drop`, :meth:`back`); ask
    :meth:`expired` (and :meth:`next_deadline`, to know when to ask again)."""

    def __init__(self, players: int, limits: Limits, now: float) -> None:
        self.players = players
        self.limits = limits
        self._at = now
        self._owner: int | None = None  # the seat holding the floor
        self._move_key: object = None
        self._move_used = 0.0
        #: When the move under way started on this copy (``now`` of the floor change).
        self.move_started: float | None = None
        #: A joining peer's copy: the host's word on a move's clock, (move, seconds run,
        #: when told), applied once that move holds the floor (told_move_used).
        self._told_used: tuple[object, float, float] | None = None
        self._away_left = [float(limits.allowance)] * players
        self._connected = [True] * players

    # ---------------------------------------------------------------- feeding

    def _advance(self, now: float) -> None:
        dt = max(0.0, now - self._at)
        self._at = max(self._at, now)
        if dt == 0:
            return
        for seat in range(self.players):
            if not self._connected[seat]:
                self._away_left[seat] = max(0.0, self._away_left[seat] - dt)
        owner = self._owner
        if owner is not None and self._connected[owner]:
            self._move_used += dt

    def floor(self, seat: int | None, now: float, move: object = None) -> None:
        """``seat`` holds the floor now (None: nobody owes, the game is over).  ``move``
        identifies the move (e.g. the transcript length): a new value starts a new move
        with a fresh move clock; the same value (a resume) keeps it running."""
        self._advance(now)
        key = (seat, move)
        if key != self._move_key:
            self._move_key = key
            self._move_used = 0.0
            self.move_started = now
            told = self._told_used
            if told is not None and told[0] == move:
                # Caught up to the move the host spoke of: its clock, plus the time since
                # it said so if the seat is connected as far as we know (the host's
                # move clock runs only then).
                since = now - told[2] if seat is not None and self._connected[seat] else 0.0
                self._move_used = min(float(self.limits.move), told[1] + max(0.0, since))
                self._told_used = None
        self._owner = seat

    def moved(self, seat: int | None, now: float, move: object = None) -> bool:
        """:meth:`floor`, and whether what a reading shows changed (who owes, who is
        connected, the move clock): when a copy of the clocks reports them again."""
        def shown() -> list[tuple[bool, bool, float]]:
            return [(c.owes, c.connected, c.move_left) for c in self.read(now)]
        before = shown()
        self.floor(seat, now, move=move)
        return shown() != before

    def drop(self, seat: int, now: float) -> None:
        """``seat``'s connection is gone: its allowance runs."""
        self._advance(now)
        self._connected[seat] = False

    def back(self, seat: int, now: float) -> None:
        """``seat`` is connected again: its allowance stops (what is spent stays spent)."""
        self._advance(now)
        self._connected[seat] = True

    def reported_away(self, seat: int, allowance_left: float, now: float) -> None:
        """A joining peer's copy of the clocks: the host reports ``seat`` away with
        ``allowance_left`` seconds left (its word: shown, never enforced here)."""
        self.drop(seat, now)
        self.told_allowance(seat, allowance_left, now)

    def told_allowance(self, seat: int, allowance_left: float, now: float) -> None:
        """A joining peer's copy: the host says ``seat`` has ``allowance_left`` seconds
        of its allowance left (e.g. our own seat, on a resume: its word, for display and
        for our own step-away dialog); never more than the table's allowance."""
        self._advance(now)
        self._away_left[seat] = max(0.0, min(float(self.limits.allowance),
                                             float(allowance_left)))

    def relimit(self, limits: Limits, now: float) -> None:
        """A joining peer's copy: the host announces other limits (it restarted with
        other ones, or an earlier welcome announced none): count with those from now on.
        What is spent stays spent; no allowance left above the new allowance."""
        self._advance(now)
        self.limits = limits
        self._away_left = [min(a, float(limits.allowance)) for a in self._away_left]

    def told_move_used(self, move: object, used: float, now: float) -> None:
        """A joining peer's copy: the host says the move clock of move ``move`` (its
        chain length as of a resume's welcome) has run ``used`` seconds (its word: shown,
        never enforced here).  It applies at once if that move holds the floor, else when
        :meth:`floor` reaches it (the peer may still be catching up); never more than
        the table's move limit."""
        self._advance(now)
        used = max(0.0, min(float(self.limits.move), float(used)))
        if self._move_key is not None and self._move_key == (self._owner, move):
            self._move_used = used
            self._told_used = None
        else:
            self._told_used = (move, used, now)

    def connected(self, seat: int) -> bool:
        return self._connected[seat]

    # ---------------------------------------------------------------- reading

    def read(self, now: float) -> tuple[SeatClock, ...]:
        """Every seat's clocks at ``now``."""
        self._advance(now)
        move_left = max(0.0, self.limits.move - self._move_used)
        return tuple(SeatClock(seat, seat == self._owner, self._connected[seat],
                               move_left if seat == self._owner else float(self.limits.move),
                               self._away_left[seat], self._at)
                     for seat in range(self.players))

    def expired(self, now: float) -> Expiry | None:
        """The seat that has timed out at ``now``, if any (only ever the one that owes)."""
        self._advance(now)
        seat = self._owner
        if seat is None:
            return None
        if not self._connected[seat]:
            if self._away_left[seat] <= _EPSILON:
                return Expiry(seat, "peer_left",
                              f"seat {seat} owes the next message and stayed away past its "
                              f"allowance of {self.limits.allowance:g} s")
            return None
        if self._move_used >= self.limits.move - _EPSILON:
            return Expiry(seat, "timeout", f"seat {seat} held the floor for more than "
                          f"{self.limits.move:g} s")
        return None

    def next_deadline(self, now: float) -> float | None:
        """When to ask :meth:`expired` again: a hair before the deadline, well inside the
        tolerance :meth:`expired` allows for rounding (a deadline summed from many drops
        may land a hair early or late), so that asking then finds the seat expired."""
        seat = self._owner
        if seat is None:
            return None
        deadline = self.read(now)[seat].deadline()
        return None if deadline is None else deadline - _EPSILON / 2


# ------------------------------------------------------------- flags and disputes


#: How far behind the flag's signer a flagged seat's own clock may run and still agree
#: with it (PROTOCOL.md 12.6): the floor's entry reaches the seat after it left the
#: signer, and the flag after it was signed -- one round trip on a link that stays up,
#: Tor included.  A dispute stands only when its reading is further from the flag than
#: this.
CLOCK_TOLERANCE = 5.0


def clock_reading(value: object) -> dict[str, int] | None:
    """An abort's ``clock`` field (PROTOCOL.md 12.6), as whole milliseconds: ``move``
    (the move limit), ``away`` (the allowance), ``used`` (how long the move clock of the
    move at the abort's head ran) and ``left`` (the seat's allowance left), each an int
    from 0 to a day's milliseconds; None when absent or anything else (it is then
    ignored, as an older peer's)."""
    if not isinstance(value, dict) or len(value) > 8:
        return None
    out: dict[str, int] = {}
    for k in ("move", "away", "used", "left"):
        v = value.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 86_400_000:
            return None
        out[k] = v
    return out


def make_clock(move: float, away: float, used: float, left: float) -> dict[str, int]:
    """The ``clock`` field of an abort from seconds (rounded to the millisecond)."""
    def ms(x: float) -> int:
        return max(0, min(86_400_000, round(x * 1000)))
    return {"move": ms(move), "away": ms(away), "used": ms(used), "left": ms(left)}


def clock_refutes_flag(code: ErrorCode | None, clock: dict[str, int] | None) -> bool:
    """The flag's own signer's reading shows time left: the move clock had not run out
    (``timeout``) or the allowance was not spent (``peer_left``).  A flag that carries
    no reading (an older host's) is not refuted by this."""
    if clock is None:
        return False
    if code is ErrorCode.TIMEOUT:
        return clock["used"] < clock["move"]
    return clock["left"] > 0


def dispute_contradicts(flag_code: ErrorCode | None, flag_clock: dict[str, int] | None,
                        mine: dict[str, int] | None) -> bool:
    """A flagged seat's own reading (``mine``) contradicts the flag by more than
    :data:`CLOCK_TOLERANCE`: its move clock was short of the move limit as the seat
    knew it (the one the host announced; a flag that states a smaller one is itself
    part of the disagreement), or, for a flag that says it stayed away, its allowance
    was far from spent.  ``flag_clock`` is not needed to decide: the flag's figures
    are its signer's word, shown beside the seat's."""
    del flag_clock  # shown by readers, never weighed: both are words
    if mine is None:
        return False
    tol = round(CLOCK_TOLERANCE * 1000)
    if flag_code is ErrorCode.TIMEOUT:
        return mine["used"] + tol < mine["move"]
    return mine["left"] > tol


def flag_winner(flagged: int, players: int,
                totals: Sequence[int] = ()) -> int | None:
    """The side that wins when ``flagged`` loses the match (on time, by resigning or by
    leaving): the other side at 2 players (the other seat) and at 4 (the other pair).
    **At 3 players** (RULES.md): the seat that loses the match this way loses, and the
    two others are scored as they stand -- the one ahead on the match ``totals`` (by
    seat) wins; level (or no totals), nobody wins and only the loss counts
    (:func:`loser_side`)."""
    seating = Seating.of(players)
    won = seating.winner_on_resignation(flagged)
    if won is not None or players != 3:
        return won
    others = [s for s in range(players) if s != flagged]
    if len(totals) != players:
        return None
    a, b = others
    if totals[a] == totals[b]:
        return None
    return a if totals[a] > totals[b] else b


def loser_side(seat: int, players: int) -> int:
    """The side of ``seat`` (the one that loses by a flag, a resignation or a leave)."""
    return Seating.of(players).side_of(seat)


def flag_holds(fields: dict[str, Any], signer: int, *, players: int, phase: str,
               floor: int, earlier: Sequence[tuple[int, int | None]] = ()) -> int | None:
    """The seat a ``timeout`` or ``peer_left`` abort **flags** (PROTOCOL.md 12.3, 12.6),
    if the flag stands; else None.  A flag is one seat's word that the seat to play ran
    out of its move clock or its allowance: it stands only when

    * the host (seat 0, which keeps the clocks) flags the seat to play, or a joining
      seat flags the host while the host is to play (the one seat whose move clock a
      joiner can run itself), with code ``timeout`` or ``peer_left``, ``blamed`` equal
      to ``flag`` and ``flag`` a seat;
    * the match is being played (PLAYING: not before the ready round is over, nor once
      the result is decided) and the flagged seat holds the floor: it owes the next
      message, as the transcript itself shows;
    * the flag's own clock reading, when it carries one (``clock``), shows the time
      ran out: a signer whose own figures show time left refutes itself;
    * no abort of the flagged seat blaming the signer precedes it (``earlier``: every
      abort seen before, as ``(signer, blamed)``): a seat that signed first that the
      other went silent disputes the clock, and the game stays a disputed stop.

    A flag that does not stand is an ordinary abort (its code, its blame, its
    standing); one that stands is a loss on time for the flagged seat's side
    (:func:`flag_winner` says who wins).  The flagged seat may still dispute it
    (:func:`dispute_contradicts`, :attr:`Standing.DISPUTED`)."""
    flag = fields.get("flag")
    if not isinstance(flag, int) or isinstance(flag, bool) or not 0 <= flag < players:
        return None
    code = ErrorCode.from_wire(fields.get("code"))
    blamed = fields.get("blamed")
    if code not in (ErrorCode.TIMEOUT, ErrorCode.PEER_LEFT) \
            or isinstance(blamed, bool) or blamed != flag:
        return None
    if signer != 0 and flag != 0:
        return None  # a joiner cannot run another joiner's clocks
    if phase != Phase.PLAYING or floor != flag:
        return None
    if clock_refutes_flag(code, clock_reading(fields.get("clock"))):
        return None
    if any(by == flag and said == signer for by, said in earlier):
        return None  # the flagged seat said first that the signer went silent
    return flag
