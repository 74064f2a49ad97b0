"""The match's score sheet, hand by hand, as ``chkobba replay`` shows it (text, ``--view``
and ``--html``): for each hand and each side, the categories it scored (carta, dinari,
barmila with its sevens, or sixes when the sevens tie, primiera, haya), its chkobbas and
its points, with the running totals; then each side's tally of categories over the match.

Built from game records (:mod:`chkobba_p2p.game.record`, what the audit gives) or from the
live client's :class:`~chkobba_p2p.transcript.events.HandScored` events (what a timeline holds):
both carry the same score.  Worded with the client's :class:`~.i18n.Translator`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SheetHand", "from_record", "from_score", "side_words", "tally", "tally_words",
           "sheet_lines"]

#: The categories in the order the sheet names them.
CATEGORIES = ("carta", "dinari", "barmila", "primiera", "haya")


@dataclass(frozen=True)
class SheetHand:
    """One hand's line of the sheet; every tuple holds one value per side."""

    number: int
    won: tuple[tuple[str, ...], ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    chkobbas: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


def _won(categories: Mapping[str, int | None], sides: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(c for c in CATEGORIES if categories.get(c, -1) == side)
                 for side in range(sides))


def from_record(record: Mapping[str, Any]) -> SheetHand:
    """The sheet's line of a hand record."""
    s = record["score"]
    sides = len(s["points"])
    return SheetHand(int(record["number"]), _won(s["categories"], sides),
                     tuple(s["sevens"]), tuple(s["sixes"]), tuple(s["chkobbas"]),
                     tuple(s["points"]), tuple(record["totals"]))


def from_score(number: int, score: Any, totals: Sequence[int]) -> SheetHand:
    """The sheet's line of a scored hand (a :class:`chkobba_p2p.game.rules.HandScore`)."""
    sides = len(score.points)
    return SheetHand(number, _won(score.categories, sides), tuple(score.sevens),
                     tuple(score.sixes), tuple(score.chkobbas), tuple(score.points),
                     tuple(totals))


def side_words(h: SheetHand, side: int, t: Callable[..., str]) -> str:
    """What ``side`` scored in hand ``h``: "carta, barmila (3 sevens), haya, 1 chkobba"."""
    parts = []
    for cat in h.won[side]:
        if cat == "barmila":
            tied = len(set(h.sevens)) == 1
            detail = t("ss_sixes", n=h.sixes[side]) if tied else \
                t("ss_sevens", n=h.sevens[side])
            parts.append(f"barmila ({detail})")
        else:
            parts.append(cat)
    if h.chkobbas[side]:
        n = h.chkobbas[side]
        parts.append(t("ss_chkobba_1") if n == 1 else t("ss_chkobbas", n=n))
    return ", ".join(parts) or "—"


def tally(hands: Sequence[SheetHand]) -> list[dict[str, int]]:
    """Per side: how many times it scored each category, and its chkobbas."""
    sides = len(hands[0].points) if hands else 0
    out: list[dict[str, int]] = [{} for _ in range(sides)]
    for h in hands:
        for side in range(sides):
            for cat in h.won[side]:
                out[side][cat] = out[side].get(cat, 0) + 1
            if h.chkobbas[side]:
                out[side]["chkobba"] = out[side].get("chkobba", 0) + h.chkobbas[side]
    return out


def tally_words(counts: Mapping[str, int]) -> str:
    """A side's tally: "carta 2, dinari 3, barmila 1, haya 2, chkobba 4"."""
    return ", ".join(f"{c} {counts[c]}" for c in (*CATEGORIES, "chkobba") if counts.get(c)) \
        or "—"


def sheet_lines(hands: Sequence[SheetHand], side_names: Sequence[str],
                t: Callable[..., str], order: Sequence[int] | None = None) -> list[str]:
    """The sheet as text lines: one per hand, then the totals with each side's tally;
    the sides in ``order`` (a seat's own side first), else the table's."""
    out = []
    sides = list(order) if order is not None else list(range(len(side_names)))
    for h in hands:
        scored = " · ".join(f"{side_names[i]} +{h.points[i]} ({side_words(h, i, t)})"
                            for i in sides)
        totals = ", ".join(f"{side_names[i]} {h.totals[i]}" for i in sides)
        out.append(t("ss_hand", n=h.number, sides=scored, totals=totals))
    if hands:
        counts = tally(hands)
        out.append(t("ss_totals", sides=" · ".join(
            f"{side_names[i]} {hands[-1].totals[i]} ({tally_words(counts[i])})"
            for i in sides)))
    return out
