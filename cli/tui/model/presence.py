"""Who is at the table and for how long: the clocks on screen.

The move clock of the seat to play (always shown, short: ``⏱ 14:32 left``, with a
warning for our own under 30 s: a seat that runs out of it loses on time), and the
countdown of every seat that dropped or stepped away (the host's too, at a joining
peer).  Fed with the peer's events; times are ``time.monotonic()`` so the screen counts
down between two events (the app redraws once a second).
"""

from __future__ import annotations

import time

from chkobba_p2p import ClockReading, HandStarted, Lobby, Restored, Resumed, TableState, Waiting
from chkobba_p2p.game import rules as R

from ..parts.render import Line, wrap_line
from .view import TableView

__all__ = ["Presence", "clock_text", "WARN_UNDER"]

#: Under this many seconds the move clock warns (every move clock is shown).
WARN_UNDER = 30

_FLOOR_MOVES = (R.PlayEvent, R.CutEvent, R.DealEvent, HandStarted, Restored, Resumed)


def gone_key(ev: Waiting) -> str:
    """How a seat's absence is worded: it stepped away, lost the connection, or is
    waited for by a host that restarted (nothing known of its connection)."""
    return "ev_away" if ev.away else "ev_awaited" if ev.awaited else "ev_dropped"


def clock_text(seconds: float) -> str:
    """``m:ss``, rounded up (a clock shows 0:00 only when the time is out)."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def _mark(view: TableView) -> str:
    """The clock's symbol, or nothing with --ascii (its "?" read like the help key)."""
    return "⏱ " if view.cs.symbols else ""


class Presence:
    """The clocks.  ``turn_timeout``: the table's move limit (the host's
    ``--turn-timeout``), None to show no move clock."""

    def __init__(self, turn_timeout: float | None = None,
                 now=time.monotonic) -> None:
        self.turn_timeout = turn_timeout
        self.now = now
        #: When the seat to play got the floor, for its move clock.
        self.turn_since = now()
        #: Seats away or dropped: (deadline to come back, the wording's key: stepped
        #: away, lost the connection, or waited for by a restarted host).
        self.countdowns: dict[int, tuple[float, str]] = {}
        #: From the peer's clocks (:class:`ClockReading`), when it reports them: the
        #: seat whose move clock runs and when it runs out; each seat's allowance left.
        self.move_deadline: tuple[int, float] | None = None
        self.allowance_left: dict[int, float] = {}
        #: The table's allowance of time away, when a reading says it.
        self.allowance_limit: float | None = None

    def on_event(self, ev: object, before: TableState, after: TableState) -> None:
        if isinstance(ev, ClockReading):
            self._read(ev)
            return
        if isinstance(ev, Lobby) and ev.limits is not None:
            self.turn_timeout = ev.limits.move  # the host's limit is the table's
            return
        if isinstance(ev, _FLOOR_MOVES) or before.turn != after.turn:
            self.turn_since = self.now()  # the floor moved: a new move's clock
        if isinstance(ev, Waiting):
            self.countdowns[ev.seat] = (self.now() + ev.seconds, gone_key(ev))
        elif isinstance(ev, Resumed):
            self.countdowns.pop(ev.seat, None)
            if ev.seat == after.seat and ev.seat != 0:
                self.countdowns.pop(0, None)  # our link to the host is up: it is back

    def _read(self, reading: ClockReading) -> None:
        """The peer's own clocks (PROTOCOL.md 12): they win over our estimate."""
        if reading.limits is not None:
            self.allowance_limit = float(reading.limits.allowance)
        if reading.limits is not None and self.turn_timeout is not None:
            self.turn_timeout = reading.limits.move  # the table's (the host's) limit
        now = self.now()
        self.move_deadline = None
        for c in reading.clocks:
            move, away = c.left(c.at)
            self.allowance_left[c.seat] = away
            if c.owes and c.connected:
                self.move_deadline = (c.seat, now + move)

    def move_left(self, state: TableState, seat: int | None, finished: bool) -> float | None:
        """Seconds ``seat`` has left for its move, while it is to play (None: no move
        clock to show, it is not its turn, or it is away and its countdown shows)."""
        limit = self.turn_timeout
        if limit is None or seat is None or finished or state.turn != seat \
                or seat in self.countdowns or not state.started or state.over:
            return None
        if self.move_deadline is not None and self.move_deadline[0] == seat:
            left = self.move_deadline[1] - self.now()
        else:
            left = limit - (self.now() - self.turn_since)
        return left

    def seat_clock(self, view: TableView, seat: int, finished: bool) -> Line:
        """What follows a seat's line: its move clock, if shown."""
        left = self.move_left(view.state, seat, finished)
        if left is None:
            return []
        return [("class:warn" if left < WARN_UNDER else "class:dim",
                 "  " + _mark(view) + view.t("clock_left", t=clock_text(left)))]

    def own_clock(self, view: TableView, width: int, finished: bool) -> list[Line]:
        """Under 30 s, a warning under the prompt; before that our move clock shows on our
        own seat's line (:meth:`seat_clock`), so that it costs no row of a short screen."""
        left = self.move_left(view.state, view.state.seat, finished)
        if left is None or left >= WARN_UNDER:
            return []
        return wrap_line([("class:error", " " + _mark(view)
                           + view.t("clock_hurry", t=clock_text(left)))],
                         width - 1, "   ")

    def countdown_lines(self, view: TableView, width: int = 0) -> list[Line]:
        """One line per seat away or dropped, with the time it has left to come back,
        wrapped to ``width`` columns (0: not wrapped): the countdown is the line's end,
        never cut off at the pane's edge."""
        now = self.now()
        out: list[Line] = []
        for seat, (deadline, key) in sorted(self.countdowns.items()):
            line: Line = [("class:warn", " " + view.t(key, name=view.who(seat),
                                                      t=clock_text(deadline - now)))]
            out += wrap_line(line, width - 1, "   ") if width > 0 else [line]
        return out
