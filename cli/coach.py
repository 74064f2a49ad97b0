"""``chkobba replay --review``: the coach's grades (:mod:`chkobba_p2p.observe.review`) in words, and
the progress bar shown while it works.

A grade reads as a player would say it: "hand 2, play 5: bob put 7♦ on the table; playing
3♠ to take A♣ + 2♥ was worth 0.8 points more (mistake)" (moves numbered as the web page
and ``--view`` number them: the hand's n-th card played); a player's summary: "bob: 37
decisions, mean loss 0.12 points, 2 mistakes, 1 blunder, accuracy 92%".
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from chkobba_p2p.observe.review import BLUNDER, MISTAKE, Grade, Review, SeatSummary

__all__ = ["Progress", "move_words", "grade_line", "summary_line", "review_lines", "limit_line",
           "header_line", "shown_label", "where", "INACCURACY"]

Label = Callable[[object], str]  # a card's text ("7D") -> how the game shows it


#: Below a mistake, a loss this large is an inaccuracy, not a good move: "good −0.43"
#: read as praise for a move that gave up nearly half a point.
INACCURACY = 0.1


def shown_label(g: Grade) -> str:
    """The grade as a player reads it: ``forced`` (one legal move), ``best`` (no better
    move), ``good`` (a loss under :data:`INACCURACY`), ``inaccuracy``, ``mistake`` or
    ``blunder`` (the review's own thresholds for these two)."""
    if g.label in ("forced", "mistake", "blunder"):
        return g.label
    if g.loss < 0.005 or g.best == g.played:
        return "best"
    return "good" if g.loss < INACCURACY else "inaccuracy"


def where(g: Grade) -> str:
    """The decision's place, numbered as the web page and ``--view`` number it: "hand 2,
    play 5" (the hand's fifth card played), "hand 2, the cut"."""
    return f"hand {g.hand}, " + ("the cut" if g.kind == "cut" else f"play {g.number}")


def move_words(move: Mapping[str, Any], card: Label) -> str:
    """A play in words, as a verb (never "7♦ on the table", which reads as a card lying
    there): "playing 3♠ to take A♣ + 2♥", "playing 7♦ and taking nothing"."""
    taken = move.get("capture") or []
    if taken:
        return f"playing {card(move['card'])} to take {' + '.join(card(c) for c in taken)}"
    return f"playing {card(move['card'])} and taking nothing"


def _played(g: Grade, who: str, card: Label) -> str:
    if g.kind == "cut":
        return f"{who} {'kept' if g.played['keep'] else 'placed'} {card(g.played['card'])}" + \
            ("" if g.played["keep"] else " on the table")
    taken = g.played.get("capture") or []
    if taken:
        return f"{who} took {' + '.join(card(c) for c in taken)} with {card(g.played['card'])}"
    return f"{who} put {card(g.played['card'])} on the table"


def _better(g: Grade, card: Label) -> str:
    if g.kind == "cut":
        return "keeping it" if g.best["keep"] else "placing it on the table"
    return move_words(g.best, card)


def grade_line(g: Grade, who: str, card: Label) -> str:
    """One graded decision in a sentence (the better move named when one was better)."""
    head = f"{where(g)}: {_played(g, who, card)}"
    label = shown_label(g)
    if g.best == g.played or g.loss <= 0:
        return f"{head} ({label})"
    return f"{head}; {_better(g, card)} was worth {g.loss:.2f} points more ({label})"


def short_grade(g: Grade, card: Label, t: Callable[..., str] | None = None) -> str:
    """A grade beside a move: "best", "good −0.03", "mistake −0.62: better was playing 5♣
    and taking nothing" (an inaccuracy names the better move too); in the screen's
    language with ``t`` (a :class:`~.i18n.Translator`)."""
    shown = shown_label(g)
    if t is None:  # plain text (replay's lines, ASCII with --ascii): an ASCII minus
        if shown in ("forced", "best"):
            return shown
        if shown == "good":
            return f"good -{g.loss:.2f}"
        return f"{shown} -{g.loss:.2f}: better was {_better(g, card)}"
    label = t("cg_" + shown)
    number = getattr(t, "number", None)  # a Translator writes 0,97 in French
    loss = number(g.loss) if number is not None else f"{g.loss:.2f}"
    if shown in ("forced", "best"):
        return label
    if shown == "good":
        return f"{label} −{loss}"
    if g.kind == "cut":
        better = t("cg_keep") if g.best["keep"] else t("cg_place")
    elif g.best.get("capture"):
        better = t("cg_taking", card=card(g.best["card"]),
                   cards=" + ".join(card(c) for c in g.best["capture"]))
    else:
        better = t("cg_on_table", card=card(g.best["card"]))
    return t("cg_better", label=label, loss=loss, move=better)


def summary_line(s: SeatSummary, who: str) -> str:
    return (f"{who}: {s.decisions} decisions, mean loss {s.mean_loss:.3f} points per "
            f"decision, {s.mistakes} mistake{'s' if s.mistakes != 1 else ''}, "
            f"{s.blunders} blunder{'s' if s.blunders != 1 else ''}, accuracy "
            f"{s.accuracy:.1f}%")


def header_line(review: Review) -> str:
    return (f"review: every decision graded by the expert's search from what the player "
            f"saw then; loss in points of the hand (expected margin) against the best move; "
            f"mistake >= {MISTAKE}, blunder >= {BLUNDER}; {review.samples} sampled worlds "
            f"per decision, seed {review.seed}")


def limit_line(review: Review) -> str:
    """What a review cut short at its limit says: how far it went, and how to go on."""
    return (f"the review stopped at its limit: the first {len(review.grades)} of "
            f"{review.decisions} decisions graded (--review-limit N grades more, "
            f"--review-limit 0 every one)")


def review_lines(review: Review, names: Sequence[str], card: Label) -> list[str]:
    """The mistakes and blunders with the better move, then each player's summary."""
    out = [header_line(review)]
    if review.cut_short:
        out.append("  " + limit_line(review))
    bad = [g for g in review.grades if g.label in ("mistake", "blunder")]
    for g in bad:
        out.append("  " + grade_line(g, names[g.seat], card))
    if not bad:
        out.append("  no mistake and no blunder")
    out.extend("  " + summary_line(s, names[s.seat]) for s in review.summaries())
    return out


class Progress:
    """The review's progress on stderr.  On a terminal a bar, redrawn at most 10 times a
    second; elsewhere (a pipe, a file, a CI log) one line at the first decision, then
    every ``every`` seconds, and at the end, so a long review is never silent.
    ``clock``: the time source (seconds)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30, *,
                 every: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.on = self.stream.isatty()
        self.width = width
        self.every = every
        self.clock = clock
        self._last: float | None = None
        self._open = False  # a bar is drawn and its line not ended yet

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if not self.on:
            if self._last is None or done >= total or now - self._last >= self.every:
                self._last = now
                self.stream.write(f"reviewing: {done}/{total} decisions graded\n")
                self.stream.flush()
            return
        if done < total and self._last is not None and now - self._last < 0.1:
            return
        self._last = now
        filled = self.width * done // max(1, total)
        bar = "█" * filled + "░" * (self.width - filled)
        self.stream.write(f"\rreviewing {bar} {done}/{total} decisions")
        self._open = done < total
        if not self._open:
            self.stream.write("\n")
        self.stream.flush()

    def close(self) -> None:
        """Stopped before the end (Ctrl-C): the bar's line ends, so that what is said
        next ("interrupted") starts a line of its own."""
        if self._open:
            self._open = False
            self.stream.write("\n")
            self.stream.flush()
