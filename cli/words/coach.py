"""``chkobba replay --review``: the coach's grades (:mod:`chkobba_p2p.observe.review`) in words, and
the progress bar shown while it works.

A grade reads as a player would say it: "hand 2, play 5: bob put 7♦ on the table; playing
3♠ to take A♣ + 2♥ was worth 0.8 points more (mistake)" (moves numbered as the web page
and ``--view`` number them: the hand's n-th card played); a player's summary: "bob: 37
decisions, mean loss 0.12 points, 2 mistakes, 1 blunder, accuracy 92%".
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from chkobba_p2p.observe.review import BLUNDER, MISTAKE, Grade, Review, SeatSummary

from .i18n import Translator

__all__ = ["Progress", "move_words", "grade_line", "summary_line", "review_lines", "limit_line",
           "header_line", "shown_label", "where", "reason_words", "why_words", "INACCURACY",
           "SHOWN_REASONS"]

Label = Callable[[object], str]  # a card's text ("7D") -> how the game shows it

_EN = Translator("en")  # the review's text is English unless a language is asked


#: Below a mistake, a loss this large is an inaccuracy, not a good move: "good −0.43"
#: read as praise for a move that gave up nearly half a point.
INACCURACY = 0.1

#: The reasons said for a grade: its most important ones (the review orders them).
SHOWN_REASONS = 2


def shown_label(g: Grade) -> str:
    """The grade as a player reads it: ``forced`` (one legal move), ``best`` (no better
    move), ``good`` (a loss under :data:`INACCURACY`), ``inaccuracy``, ``mistake`` or
    ``blunder`` (the review's own thresholds for these two)."""
    if g.label in ("forced", "mistake", "blunder"):
        return g.label
    if g.loss < 0.005 or g.best == g.played:
        return "best"
    return "good" if g.loss < INACCURACY else "inaccuracy"


def where(g: Grade, t: Translator = _EN) -> str:
    """The decision's place, numbered as the web page and ``--view`` number it: "hand 2,
    play 5" (the hand's fifth card played), "hand 2, the cut"."""
    return t("cv_where", hand=g.hand,
             what=t("move_cut") if g.kind == "cut" else t("move_play", n=g.number))


def move_words(move: Mapping[str, Any], card: Label, t: Translator = _EN) -> str:
    """A play in words, as a verb (never "7♦ on the table", which reads as a card lying
    there): "playing 3♠ to take A♣ + 2♥", "playing 7♦ and taking nothing"."""
    taken = move.get("capture") or []
    if taken:
        return t("cg_taking", card=card(move["card"]), cards=" + ".join(card(c) for c in taken))
    return t("cg_on_table", card=card(move["card"]))


def _played(g: Grade, who: str, card: Label, t: Translator) -> str:
    if g.kind == "cut":
        return t("cv_kept" if g.played["keep"] else "cv_placed", who=who,
                 card=card(g.played["card"]))
    taken = g.played.get("capture") or []
    if taken:
        return t("cv_took", who=who, cards=" + ".join(card(c) for c in taken),
                 card=card(g.played["card"]))
    return t("cv_put", who=who, card=card(g.played["card"]))


def _better(g: Grade, card: Label, t: Translator = _EN) -> str:
    if g.kind == "cut":
        return t("cv_keeping") if g.best["keep"] else t("cg_place")
    return move_words(g.best, card, t)


def grade_line(g: Grade, who: str, card: Label, t: Translator = _EN) -> str:
    """One graded decision in a sentence (the better move named when one was better)."""
    head = t("cv_head", where=where(g, t), played=_played(g, who, card, t))
    shown = shown_label(g)
    label = shown if t.lang == "en" else t("cg_" + shown)
    if g.best == g.played or g.loss <= 0:
        return t("cv_line", head=head, label=label)
    return t("cv_line_better", head=head, better=_better(g, card, t),
             loss=t.points(g.loss), label=label)


def reason_words(g: Grade, card: Label, t: Callable[..., str] = _EN) -> list[str]:
    """The grade's reasons in words, the :data:`SHOWN_REASONS` most important: "leaves
    a sweep (chkobba) open to the next player: a jack takes the whole table"."""
    return [t("rs_" + r.code, card=card(r.card) if r.card is not None else "",
              value=r.value if r.value is not None else "",
              rank=rank_words(r.value, card, t) if r.value is not None else "")
            for r in g.reasons[:SHOWN_REASONS]]


def rank_words(value: int, card: Label, t: Callable[..., str] = _EN) -> str:
    """The rank of capture value ``value`` in words, "an ace", "a jack" ("un as", "un
    valet"): the letter the screen draws that rank with (``card``: the figures of the
    table's rules, French letters in French), said as a player says it."""
    # The rank without its suit (a symbol or a letter), out of the page's markup.
    drawn = re.sub(r"<[^>]*>", "", card(f"{value}S")).strip()[:-1]
    said = t("rank_" + drawn)
    return said if said != "rank_" + drawn else t("rank_" + str(value))


def why_words(g: Grade, card: Label, t: Callable[..., str] = _EN) -> str:
    """"why: <reason>; <reason>", or "" for a grade with no reason (none lost points, or
    no rule explains the loss in one move)."""
    said = reason_words(g, card, t)
    return t("cv_why", reasons=t("cv_sep").join(said)) if said else ""


def short_grade(g: Grade, card: Label, t: Callable[..., str] | None = None) -> str:
    """A grade beside a move: "best", "good −0.03", "mistake −0.62: better was playing 5♣
    and taking nothing; why: misses a sweep..." (an inaccuracy names the better move
    and why too); in the screen's language with ``t`` (a :class:`~.i18n.Translator`)."""
    shown = shown_label(g)
    if t is None:  # plain text (replay's lines, ASCII with --ascii): an ASCII minus
        if shown in ("forced", "best"):
            return shown
        if shown == "good":
            return f"good -{g.loss:.2f}"
        why = why_words(g, card)
        return f"{shown} -{g.loss:.2f}: better was {_better(g, card)}" + \
            (f"; {why}" if why else "")
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
    why = why_words(g, card, t)
    return t("cg_better", label=label, loss=loss, move=better) + \
        (t("cv_sep") + why if why else "")


def summary_line(s: SeatSummary, who: str, t: Translator = _EN) -> str:
    return t("cv_summary", who=who, n=s.decisions, mean=t.points(s.mean_loss, 3),
             mistakes=t("cv_mistakes_1" if t.singular(s.mistakes) else "cv_mistakes_n",
                        n=s.mistakes),
             blunders=t("cv_blunders_1" if t.singular(s.blunders) else "cv_blunders_n",
                        n=s.blunders),
             accuracy=t.number(s.accuracy, 1))


def header_line(review: Review, t: Translator = _EN) -> str:
    return t("cv_header", mistake=t.number(MISTAKE, 1), blunder=t.number(BLUNDER, 1),
             samples=review.samples, seed=review.seed)


def limit_line(review: Review, t: Translator = _EN) -> str:
    """What a review cut short at its limit says: how far it went, and how to go on."""
    return t("cv_limit", n=len(review.grades), of=review.decisions)


def review_lines(review: Review, names: Sequence[str], card: Label,
                 t: Translator = _EN) -> list[str]:
    """The mistakes and blunders with the better move and why (:func:`why_words`), then
    each player's summary, in ``t``'s language."""
    out = [header_line(review, t)]
    if review.cut_short:
        out.append("  " + limit_line(review, t))
    bad = [g for g in review.grades if g.label in ("mistake", "blunder")]
    for g in bad:
        out.append("  " + grade_line(g, names[g.seat], card, t))
        # Why, in the rules' words; a loss no rule explains one move ahead says so, so
        # that a line without a reason does not read as one forgotten.
        out.append("      " + (why_words(g, card, t) or t("cv_why_later")))
    if not bad:
        out.append("  " + t("cv_none"))
    out.extend("  " + summary_line(s, names[s.seat], t) for s in review.summaries())
    return out


class Progress:
    """The review's progress on stderr.  On a terminal a bar, redrawn at most 10 times a
    second; elsewhere (a pipe, a file, a CI log) one line at the first decision, then
    every ``every`` seconds, and at the end, so a long review is never silent.
    ``clock``: the time source (seconds)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30, *,
                 every: float = 5.0, clock: Callable[[], float] = time.monotonic,
                 t: Translator = _EN) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.t = t  # the reader's language (it said "reviewing" under a French locale)
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
                self.stream.write(self.t("rv_progress_line", done=done, n=total) + "\n")
                self.stream.flush()
            return
        if done < total and self._last is not None and now - self._last < 0.1:
            return
        self._last = now
        filled = self.width * done // max(1, total)
        bar = "█" * filled + "░" * (self.width - filled)
        self.stream.write("\r" + self.t("rv_progress_bar", bar=bar, done=done, n=total))
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
