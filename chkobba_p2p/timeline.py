"""A finished (or broken) game as a sequence of table pictures, for stepping through a log.

:func:`build_timeline` feeds a transcript to an :class:`~chkobba_p2p.observe.observer.Observer` and
keeps, after every step a player would see on the table (a deal, the cut, a play, the
last sweep, a hand's score, the end of the match, the verdict), the
:class:`~chkobba_p2p.tablestate.TableState` from no seat (every hand face down until it is
played, as a spectator saw it) and the event that made it.  A viewer moves through
:attr:`Timeline.frames` move by move (:meth:`Timeline.step`), hand by hand
(:meth:`Timeline.hand_step`), or to the end; for an invalid log, :attr:`Timeline.offending`
is the frame of the violation.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .game.cards import Card
from .game.events import CutEvent, DealEvent, PlayEvent, SweepEvent
from .observe.observer import DeckRevealed, Observer
from .observe.verdict import INVALID, Verdict
from .tablestate import TableState
from .transcript.events import Aborted, HandScored, MatchDone
from .transcript.table import TableInfo

__all__ = ["Frame", "Timeline", "build_timeline"]

#: Events that make a frame of their own (what changes the picture of the table).
_STEPS = (DealEvent, CutEvent, PlayEvent, SweepEvent, HandScored, MatchDone, Aborted, Verdict)


@dataclass(frozen=True)
class Frame:
    """The table after one step.  ``entry``: index of the transcript entry that made it;
    ``event``: the step (an engine event, a score, the end, a verdict); ``revealed``: the
    hand's cards once its seeds were open (None before)."""

    entry: int
    event: object
    state: TableState
    revealed: DeckRevealed | None = None
    #: Every seat's cards in hand after this step (seat order), known after the fact: set
    #: on the deals, the cut and the plays of a deck once its seeds were opened (the end of
    #: the hand, or an abandoned opening's redeal); None before, or for a deck never opened.
    held: tuple[tuple[Card, ...], ...] | None = None

    @property
    def hand(self) -> int:
        return self.state.hand_number


@dataclass
class Timeline:
    """Every frame of a game, the verdict, and where each hand starts."""

    table: TableInfo | None
    frames: list[Frame] = field(default_factory=list)
    verdict: Verdict | None = None
    #: Index of the frame of the first violation (an invalid log), else None.
    offending: int | None = None

    def hand_starts(self) -> list[int]:
        """The first frame of each hand (a hand's first deal)."""
        out: list[int] = []
        last = None
        for i, f in enumerate(self.frames):
            if f.hand != last:
                out.append(i)
                last = f.hand
        return out

    def step(self, at: int, by: int) -> int:
        """The frame ``by`` moves from ``at`` (clamped to the game)."""
        return max(0, min(len(self.frames) - 1, at + by))

    def hand_step(self, at: int, by: int) -> int:
        """The first frame of the hand ``by`` hands from the one of frame ``at`` (back
        once from inside a hand goes to that hand's start)."""
        starts = self.hand_starts()
        if not starts:
            return 0
        current = max(i for i, s in enumerate(starts) if s <= at)
        if by < 0 and at > starts[current]:
            by += 1
        return starts[max(0, min(len(starts) - 1, current + by))]


def build_timeline(bodies: Iterable[bytes], *, tail: str | None = None) -> Timeline:
    """Check a transcript (frame bodies, genesis first) and keep the table after every
    step.  ``tail``: how the file ended (see :class:`chkobba_p2p.wire.logfile.LogFile`)."""
    obs = Observer()
    state = TableState()
    timeline = Timeline(None)
    revealed: DeckRevealed | None = None
    # The frames of the decks not opened yet: the one in play and, under late-reveal/v1,
    # the deck of the hand scored before its seeds were open.
    deck: list[int] = []
    for i, body in enumerate(bodies):
        for ev in obs.feed(body):
            if isinstance(ev, DeckRevealed):
                frames = timeline.frames
                mine = [k for k in deck if frames[k].hand == ev.hand]
                _face_up(frames, mine, ev)
                deck = [k for k in deck if k not in mine]
                scored = [k for k in mine if isinstance(frames[k].event, HandScored)]
                if scored and not ev.redeal:
                    # late-reveal/v1: the hand was scored before its seeds were open.
                    frames[scored[-1]] = replace(frames[scored[-1]], revealed=ev)
                else:
                    revealed = None if ev.redeal else ev  # told with the hand's score
                continue
            state = state.apply(ev)
            if isinstance(ev, _STEPS):
                shown = revealed if isinstance(ev, HandScored) else None
                if isinstance(ev, (DealEvent, CutEvent, PlayEvent, HandScored)):
                    deck.append(len(timeline.frames))
                timeline.frames.append(Frame(i, ev, state, shown))
                if isinstance(ev, Verdict) and ev.verdict == INVALID:
                    timeline.offending = len(timeline.frames) - 1
    timeline.table = obs.table
    verdict = obs.end(tail)
    timeline.verdict = verdict
    if not timeline.frames or timeline.frames[-1].event is not verdict:
        timeline.frames.append(Frame(max(0, obs.entries - 1), verdict, state))
        if verdict.verdict == INVALID:
            timeline.offending = len(timeline.frames) - 1
    return timeline


def _face_up(frames: list[Frame], deck: Sequence[int], opened: DeckRevealed) -> None:
    """Once a deck's seeds are open: every seat's cards in hand at each of its steps.  The
    deck's deals are its frames' deals, in order (the public ones with the cards filled
    in); a deck whose frames do not match its deals is left face down."""
    deals = [k for k in deck if isinstance(frames[k].event, DealEvent)]
    if len(deals) != len(opened.deals) or not deck:
        return
    players = frames[deck[0]].state.players or 0
    if players <= 0:
        return
    held: list[list[Card]] = [[] for _ in range(players)]
    dealt = iter(opened.deals)
    for k in deck:
        f = frames[k]
        ev = f.event
        if isinstance(ev, DealEvent):
            d = next(dealt)
            for who, c in zip(d.recipients, d.cards, strict=True):
                if who is not None and c is not None and 0 <= who < players:
                    held[who].append(c)
        elif isinstance(ev, CutEvent) and not ev.keep and ev.card is not None:
            if ev.card in held[ev.seat]:
                held[ev.seat].remove(ev.card)
        elif isinstance(ev, PlayEvent) and ev.card in held[ev.seat]:
            held[ev.seat].remove(ev.card)
        frames[k] = replace(f, held=tuple(tuple(h) for h in held))


def frame_at_entry(timeline: Timeline, entry: int) -> int:
    """The last frame made by ``entry`` or before."""
    best = 0
    for i, f in enumerate(timeline.frames):
        if f.entry <= entry:
            best = i
    return best


def hand_frames(timeline: Timeline) -> Sequence[tuple[int, int]]:
    """``(hand number, first frame)`` for each hand."""
    return [(timeline.frames[i].hand, i) for i in timeline.hand_starts()]
