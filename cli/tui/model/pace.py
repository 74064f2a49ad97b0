"""The display's own clock: events reach the screen at a pace a person can follow.

The peer reports events as fast as the protocol runs (three bot moves can land within
50 ms); the screen must not.  :class:`Pacer` queues the game's events and releases them
one by one in a trio task: another player's move is shown (the card played, what it
takes) for ``pace`` seconds before the table changes; the score sheet stays up until a
key or ``score_wait`` seconds (with ``keep_last``, the sheet of the hand that ends the
match waits for its key: the end screen comes after it, and there Enter quits, so the
Enter meant for a sheet that had just closed by itself must not land on it); a question
to the player waits until everything before it has been shown.  The protocol underneath
is never slowed: only the picture lags.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

import trio

from chkobba_p2p import (
    Aborted,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    MatchOver,
    RedealEvent,
    TableReady,
)
from chkobba_p2p.game import rules as R

__all__ = ["Pacer", "Showing", "DEFAULT_PACE", "SCORE_WAIT"]

#: Seconds another player's move stays highlighted before the table changes.
DEFAULT_PACE = 0.7
#: Seconds the score sheet waits for a key before the next hand appears.
SCORE_WAIT = 8.0

#: What is being shown now: another player's play, a cut placed, or the last sweep.
Showing = R.PlayEvent | R.CutEvent | R.SweepEvent

# Events released at once, whatever is queued (talk and the lobby do not wait for the
# cards; they are not part of the table's story).
_GAME_EVENTS = (R.DealEvent, R.CutEvent, R.PlayEvent, R.SweepEvent, TableReady,
                FirstDealerDrawn, HandStarted, RedealEvent, HandScored,
                MatchOver, MatchDone, Aborted)


class Pacer:
    """Releases the game's events to ``show(event)`` at a person's pace.

    ``push`` (from the peer, in trio) queues; :meth:`run` (a trio task) releases;
    ``me()`` is the local seat (its own moves are not held).  While a move is held,
    :attr:`showing` is it (the renderer highlights it); while a score sheet is up,
    :attr:`scoring` is set and :meth:`dismiss` (from a key) lets the next hand in."""

    def __init__(self, show: Callable[[object], None], me: Callable[[], int | None],
                 changed: Callable[[], None] = lambda: None, pace: float = DEFAULT_PACE,
                 score_wait: float = SCORE_WAIT, keep_last: bool = False) -> None:
        self.show = show
        self.me = me
        self.changed = changed
        self.pace = max(0.0, pace)
        self.score_wait = score_wait
        self.keep_last = keep_last
        self.queue: deque[object] = deque()
        self.showing: Showing | None = None
        self.scoring = False
        #: While a score sheet is up and closes by itself: when (``time.monotonic()``,
        #: the screen's clock), for the countdown it shows; None: it waits for a key.
        self.closes_at: float | None = None
        self._wake = trio.Event()
        self._idle = trio.Event()
        self._idle.set()
        self._dismissed = trio.Event()
        self.running = False

    def push(self, event: object) -> None:
        """An event from the peer (trio).  Game events queue behind the ones being
        shown; the rest (and everything when :meth:`run` is not running) go to the
        screen at once."""
        if not self.running or not isinstance(event, _GAME_EVENTS):
            self.show(event)
            return
        self.queue.append(event)
        if self._idle.is_set():
            self._idle = trio.Event()
        self._wake.set()

    @property
    def busy(self) -> bool:
        return bool(self.queue) or self.showing is not None or self.scoring

    async def drained(self) -> None:
        """Return once every event queued so far has been shown (and any score sheet
        dismissed)."""
        while self.busy:
            await self._idle.wait()

    def dismiss(self) -> None:
        """The player pressed a key on the score sheet (call from trio)."""
        self._dismissed.set()

    def _hold(self, event: object) -> bool:
        if self.pace <= 0:
            return False
        me = self.me()
        if isinstance(event, R.PlayEvent):
            return event.seat != me
        if isinstance(event, R.CutEvent):
            return not event.keep and event.card is not None and event.seat != me
        if isinstance(event, R.SweepEvent):
            return event.seat is not None and bool(event.cards)
        return False

    async def run(self) -> None:
        """Release the queue, forever (cancel it with the game)."""
        self.running = True
        try:
            while True:
                if not self.queue:
                    self._idle.set()
                    self._wake = trio.Event()
                    await self._wake.wait()
                    continue
                event = self.queue.popleft()
                if self._hold(event):
                    self.showing = event  # type: ignore[assignment]
                    self.changed()
                    await trio.sleep(self.pace)
                    self.showing = None
                self.show(event)
                if isinstance(event, HandScored):
                    self.scoring = True
                    self._dismissed = trio.Event()
                    self.changed()
                    # The session queues the match's end right behind its last hand.
                    last = self.keep_last and any(
                        isinstance(e, MatchOver | MatchDone) for e in self.queue)
                    self.closes_at = None if last else time.monotonic() + self.score_wait
                    with trio.move_on_after(math.inf if last else self.score_wait):
                        await self._dismissed.wait()
                    self.scoring = False
                    self.closes_at = None
                self.changed()
        finally:
            self.running = False
            self.showing = None
            self.scoring = False
            self.closes_at = None
            # Whatever is left goes to the screen at once (the game is over or left).
            while self.queue:
                self.show(self.queue.popleft())
            self._idle.set()
