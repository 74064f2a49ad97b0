"""Scoring a finished hand: :class:`HandScore`, from the captured piles as masks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ._masks import (
    _PRIMIERA,
    _PRIMIERA_ORDER,
    DIAMOND_MASK,
    HAYA_BIT,
    SEVEN_MASK,
    SIX_MASK,
    VALUE,
    mask_of,
)
from .cards import Card
from .ruleset import Ruleset, Scoring

# --------------------------------------------------------------------------- scoring

def primiera_value(pile: Iterable[Card]) -> int | None:
    """Sum of the best primiera value per suit, or None when a suit is missing."""
    return _primiera_of(mask_of(pile))


def _primiera_of(mask: int) -> int | None:
    total = 0
    for order in _PRIMIERA_ORDER:
        for c in order:
            if mask >> c & 1:
                total += _PRIMIERA[VALUE[c]]
                break
        else:
            return None
    return total


def _strict_winner(values: Sequence[int | None]) -> int | None:
    """Index of the strict maximum (None values cannot win); None on a tie (beji)."""
    if len(values) == 2:  # two sides: most hands, every search rollout
        a, b = values
        if a is None or b is None:
            return None if a is b else (1 if a is None else 0)
        return 0 if a > b else 1 if b > a else None
    candidates = [v for v in values if v is not None]
    if not candidates:
        return None
    top = max(candidates)
    winners = [i for i, v in enumerate(values) if v == top]
    return winners[0] if len(winners) == 1 else None


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's points per side, with the counts that decided them.

    ``categories`` maps ``carta``, ``dinari``, ``barmila`` (or ``primiera``), ``haya`` to
    the winning side or None (beji).  ``chkobbas`` counts per side.
    """

    players: int
    cards: tuple[int, ...]
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    primiera: tuple[int | None, ...] | None
    #: Read-only mapping, category name -> winning side or None.
    categories: Mapping[str, int | None] = field(hash=False, compare=True)
    chkobbas: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        pts = list(self.chkobbas)
        for winner in self.categories.values():
            if winner is not None:
                pts[winner] += 1
        return tuple(pts)

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": list(self.cards),
            "diamonds": list(self.diamonds),
            "sevens": list(self.sevens),
            "sixes": list(self.sixes),
            "primiera": None if self.primiera is None else list(self.primiera),
            "categories": dict(self.categories),
            "chkobbas": list(self.chkobbas),
            "points": list(self.points),
        }


def _tally(piles: Sequence[int], primiera: bool) -> tuple[
        tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
        tuple[int | None, ...] | None, list[int | None]]:
    """The counts and the category winners (carta, dinari, barmila or primiera, haya) of
    each side's captured-cards mask: the one scoring code (the engine's
    :class:`HandScore` and the bots' search both use it)."""
    cards = tuple([m.bit_count() for m in piles])
    diamonds = tuple([(m & DIAMOND_MASK).bit_count() for m in piles])
    sevens = tuple([(m & SEVEN_MASK).bit_count() for m in piles])
    sixes = tuple([(m & SIX_MASK).bit_count() for m in piles])
    winners = [_strict_winner(cards), _strict_winner(diamonds)]
    values = None
    if primiera:
        values = tuple([_primiera_of(m) for m in piles])
        winners.append(_strict_winner(values))
    else:
        barmila = _strict_winner(sevens)
        if barmila is None and max(sevens) > 0:
            # Equal sevens: the most sixes among the sides tied on sevens.
            top = max(sevens)
            barmila = _strict_winner([s if n == top else None for n, s in zip(sevens, sixes)])
        winners.append(barmila)
    winners.append(next((i for i, m in enumerate(piles) if m & HAYA_BIT), None))
    return cards, diamonds, sevens, sixes, values, winners


def score_piles(piles: Sequence[Sequence[Card]], chkobbas: Sequence[int],
                ruleset: Ruleset, players: int) -> HandScore:
    """Score a finished hand from each *side's* pile and chkobba count."""
    return _score(tuple([mask_of(p) for p in piles]), tuple(chkobbas), ruleset, players)


def _score(piles: tuple[int, ...], chkobbas: tuple[int, ...], ruleset: Ruleset,
           players: int) -> HandScore:
    use_primiera = ruleset.scoring is Scoring.PRIMIERA
    cards, diamonds, sevens, sixes, primiera, winners = _tally(piles, use_primiera)
    names = ("carta", "dinari", "primiera" if use_primiera else "barmila", "haya")
    return HandScore(players, cards, diamonds, sevens, sixes, primiera,
                     MappingProxyType(dict(zip(names, winners))), chkobbas)


def score_masks(piles: Sequence[int], chkobbas: Sequence[int],
                primiera: bool = False) -> list[int]:
    """Points per side of a finished hand, from each side's captured-cards mask."""
    points = list(chkobbas)
    for winner in _tally(piles, primiera)[5]:
        if winner is not None:
            points[winner] += 1
    return points
