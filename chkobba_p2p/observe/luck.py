"""Luck against play: "is it rigged?" answered from an audited log, with the proof.

From an audit (:func:`chkobba_p2p.observe.audit.audit_log`: the game records with every
card known, and the verdict), :func:`luck_of` gives per side:

* **dealt** -- the strength of the cards dealt to the side over the match, by a fixed
  table of card values (:func:`card_value`).  A hand's categories are worth four points
  (most cards, most diamonds -- dinari --, the seven of diamonds -- haya --, most sevens
  then sixes -- barmila); each point is shared among the cards that win it:

  - every card: 1/40 (the cards point);
  - every diamond: 1/10 more (dinari);
  - the seven of diamonds: 1 more (the haya);
  - every seven: 3/16 more, every six: 1/16 more (barmila: sevens count first, sixes
    break a tie; three quarters to the sevens, a quarter to the sixes).

  So the 40 cards are worth 4 points together, and a hand's dealt cards (to the seats and
  to the table) add up to 4: a side that holds the haya and three sevens started
  visibly ahead.  Counted: every card that went into a seat's hand of a played hand (the
  cut card kept by the cutter included; one it placed is the table's); not the opening
  table's, nor those of an abandoned opening (a redeal), which scored nothing.  Chkobbas
  (sweeps) are not in the table: they come from play, not from the cards alone.

* **loss** -- the points the side's play gave away against the coach's best: the sum of
  the losses of its seats' graded decisions (:func:`chkobba_p2p.observe.review.review_records`:
  expected margin of the hand, never below zero).  The review grades the first ``limit``
  decisions of the match in play order; :attr:`Luck.cut_short` says when it stopped
  there, and then the losses are those of the :attr:`Luck.graded` decisions only.

* **fair deal** -- whether every deal was shuffled by every seat and checked: the audit's
  verdict is VALID (every seat's shuffle of every deck was recomputed from its opened seed
  against its commitment), and :attr:`Luck.proven` whether every shuffle also carried a
  zero-knowledge proof, checked as the game went (the table's ``shuffle-proof/v1``).

Pure data, no sentences: the client words it.  Deterministic (the review's own seed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..game.cards import Card, card
from ..game.seating import Seating
from .audit import VALID, AuditReport
from .review import DEFAULT_LIMIT, DEFAULT_SAMPLES, Review, review_records

__all__ = ["SideLuck", "Luck", "card_value", "dealt_strength", "luck_of"]

_CARDS = Fraction(1, 40)
_DINARI = Fraction(1, 10)
_HAYA = Fraction(1)
_SEVEN = Fraction(3, 16)
_SIX = Fraction(1, 16)


def card_value(c: Card) -> Fraction:
    """A card's share of a hand's four category points (see the module's table)."""
    v = _CARDS
    if c.is_diamond:
        v += _DINARI
    if c.is_haya:
        v += _HAYA
    if c.value == 7:
        v += _SEVEN
    elif c.value == 6:
        v += _SIX
    return v


def _hand_dealt(record: Mapping[str, Any]) -> tuple[dict[int, Fraction], Fraction]:
    """One hand record: the value dealt to each seat, and to the table (opening table and
    a cut card placed there)."""
    seats: dict[int, Fraction] = {}
    table = Fraction(0)
    drawn: tuple[int, Fraction] | None = None
    for ev in record.get("events", ()):
        (kind, b), = ev.items()
        if kind == "deal":
            for to, text in zip(b["to"], b["cards"], strict=True):
                if text is None:
                    continue
                value = card_value(card(text))
                if to is None:
                    table += value
                else:
                    seats[int(to)] = seats.get(int(to), Fraction(0)) + value
                    if b.get("draw"):
                        drawn = (int(to), value)
        elif kind == "cut" and drawn is not None:
            if not b["keep"]:  # placed on the table: the table's, not the cutter's
                seat, value = drawn
                seats[seat] -= value
                table += value
            drawn = None
    return seats, table


def dealt_strength(records: Iterable[Mapping[str, Any]], players: int
                   ) -> tuple[tuple[Fraction, ...], Fraction, int]:
    """Exact: per side, the value of the cards dealt to its seats over the hands of
    ``records``; the value dealt to the table; and the number of hands.  Per hand the
    sides and the table add up to 4 (every card is dealt)."""
    seating = Seating.of(players)
    sides = [Fraction(0)] * seating.sides
    table = Fraction(0)
    hands = 0
    for r in records:
        if r.get("type") != "hand":
            continue
        hands += 1
        per_seat, t = _hand_dealt(r)
        table += t
        for seat, value in per_seat.items():
            sides[seating.side_of(seat)] += value
    return tuple(sides), table, hands


@dataclass(frozen=True)
class SideLuck:
    """One side: its ``seats``; ``dealt``: the value of the cards dealt to it (points, by
    :func:`card_value`); ``loss``: the points its graded decisions gave away against the
    coach's best; ``decisions``: how many of its decisions were graded; ``mistakes`` and
    ``blunders`` among them."""

    side: int
    seats: tuple[int, ...]
    dealt: float
    loss: float
    decisions: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class Luck:
    """Luck against play for a match (see the module).  ``sides`` in side order;
    ``hands``: hands counted; ``fair``: the value an even deal gives each side (what the
    sides' ``dealt`` average); ``verdict``: the audit's; ``fair_deal``: the verdict is
    VALID, so every seat shuffled every deck and every shuffle checked out;
    ``proven``: and every shuffle carried a zero-knowledge proof; ``shufflers``: the seats
    that shuffled each deck (every seat); ``decisions``/``graded``/``limit``: the
    review's (``cut_short`` when it stopped at its limit)."""

    sides: tuple[SideLuck, ...]
    hands: int
    fair: float
    verdict: str
    fair_deal: bool
    proven: bool
    shufflers: int
    decisions: int
    graded: int
    limit: int | None

    @property
    def cut_short(self) -> bool:
        return self.graded < self.decisions


def luck_of(report: AuditReport, *, seats: Sequence[int] | None = None,
            limit: int | None = DEFAULT_LIMIT, samples: int = DEFAULT_SAMPLES, seed: int = 0,
            progress: Callable[[int, int], None] | None = None,
            review: Review | None = None) -> Luck:
    """Luck against play from an audit's report.  ``seats``, ``limit``, ``samples``,
    ``seed``, ``progress``: the review's (:func:`review_records`); ``review``: one already
    made of these records (then it is used as it is)."""
    players = report.players
    if players == 0:  # not even a genesis: nothing was dealt
        return Luck((), 0, 0.0, report.verdict, False, False, 0, 0, 0, limit)
    seating = Seating.of(players)
    dealt, _, hands = dealt_strength(report.records, players)
    if review is None:
        review = review_records(report.records, seats=seats, samples=samples, seed=seed,
                                progress=progress, limit=limit)
    sides = []
    for side in range(seating.sides):
        mine = tuple(seating.seats_of(side))
        grades = [g for g in review.grades if g.seat in mine]
        sides.append(SideLuck(side, mine, float(dealt[side]),
                              round(sum(g.loss for g in grades), 3), len(grades),
                              sum(g.label == "mistake" for g in grades),
                              sum(g.label == "blunder" for g in grades)))
    fair_deal = report.verdict == VALID
    proven = fair_deal and report.table is not None and report.table.shuffle_proofs
    fair = float(sum(dealt, Fraction(0)) / len(dealt)) if dealt else 0.0
    return Luck(tuple(sides), hands, fair, report.verdict, fair_deal, proven, players,
                review.decisions, len(review.grades), review.limit)
