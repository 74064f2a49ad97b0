"""The rules engine: one pure, immutable model of a Chkobba hand and match.

A :class:`Hand` or :class:`Match` never changes: every action returns a new one (hands
compare by identity; matches, rulesets, moves and events by value).  Nothing does I/O,
reads a clock or touches global random state.  The same code validates peers' moves,
drives bots, replays logs and renders hints.

Seats are numbered ``0..n-1`` in playing order, which is counter-clockwise at the table:
after seat ``s`` plays seat ``(s + 1) % n``.  The *cutter* (who also plays first) is the
player on the dealer's right, ``(dealer + 1) % n``.  At 4 players seats 0 and 2 form side 0,
seats 1 and 3 side 1; otherwise each seat is its own side.

A hand is driven by its :attr:`Hand.pending` step:

* :class:`DealStep`: the next cards from the top of the deck and who receives each
  (a seat, or ``None`` for face up on the table).  Answer with :meth:`Hand.deal`.
* :class:`CutterChoice`: the cutter keeps or places the card he drew
  (:meth:`Hand.choose_cut`).
* :class:`Redeal`: the opening table must be dealt again by the same dealer
  (:meth:`Match.redeal`).
* :class:`Turn`: a seat must play (:meth:`Hand.legal_moves`, :meth:`Hand.play`).
* :class:`HandOver`: the hand is scored (:attr:`Hand.score`); see :meth:`Match.finish_hand`.

A hand can be *omniscient* (``viewer=None``: every card known, as in simulation), seen
from one seat (``viewer=s``): other seats' hands are then unknown placeholders, which is
how peers and bots use it, or seen from no seat (``viewer=SPECTATOR``: every hand
unknown, as a spectator or an auditor sees it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import Any, NamedTuple, TypedDict, cast

from ..errors import (
    CaptureNotOnTable,
    CaptureRequired,
    CardNotInHand,
    ForcedCaptureRequired,
    GroupDoesNotSum,
    InvalidDeal,
    LocalError,
    NotYourTurn,
    RankMatchRequired,
    WrongPhase,
)
from ..text import safe_text
from .cards import Card, FigureConvention
from .seating import Seating

__all__ = [
    "Opening",
    "RedealRule",
    "Scoring",
    "Ruleset",
    "PRESETS",
    "VARIANTS",
    "RulesetChanges",
    "Move",
    "DealStep",
    "CutterChoice",
    "Redeal",
    "Turn",
    "HandOver",
    "DealEvent",
    "CutEvent",
    "PlayEvent",
    "SweepEvent",
    "HandScore",
    "Hand",
    "Match",
    "SPECTATOR",
    "side_of",
    "sides_count",
    "capture_options",
    "resolve_first_dealer",
    "primiera_value",
    "score_piles",
    "score_masks",
    "capture_masks",
    "bits",
    "mask_of",
    "cards_of",
]


#: The ``viewer`` of a hand seen from no seat (a spectator, an auditor): every card in a
#: hand is unknown until it is shown.
SPECTATOR = -1

# --------------------------------------------------------------------------- rulesets


class Opening(Enum):
    CUT_AND_DRAW = "cut_and_draw"
    PLAIN = "plain"


class RedealRule(Enum):
    #: Three or four kings on the opening table (default).
    KINGS = "kings"
    #: Three cards of any one value.
    ANY_THREE = "any_three"
    NONE = "none"


class Scoring(Enum):
    BARMILA = "barmila"
    PRIMIERA = "primiera"


TARGETS = (11, 12, 16, 21, 31)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every choice a table makes before a match.  Immutable, hashable, serializable."""

    name: str = "tunisian"
    opening: Opening = Opening.CUT_AND_DRAW
    redeal: RedealRule = RedealRule.KINGS
    forced_capture: bool = False
    scoring: Scoring = Scoring.BARMILA
    target: int = 11
    figures: FigureConvention = FigureConvention.TUNISIAN

    def __post_init__(self) -> None:
        if type(self.target) is not int or not 1 <= self.target <= 1000:
            raise ValueError(f"target must be a whole number of points from 1 to 1000, "
                             f"not {self.target!r}")
        for name, kind in (("opening", Opening), ("redeal", RedealRule), ("scoring", Scoring),
                           ("figures", FigureConvention)):
            if not isinstance(getattr(self, name), kind):
                raise ValueError(f"{name} must be a {kind.__name__}, not {getattr(self, name)!r}")
        if type(self.forced_capture) is not bool or type(self.name) is not str:
            raise ValueError("forced_capture is a bool and name a str")

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """A named preset of rules.md: ``tunisian`` (default), ``cardavia``, ``chkoum``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None

    def with_variant(self, variant: str) -> Ruleset:
        """This ruleset with one named variant applied (see :data:`VARIANTS`)."""
        try:
            changes = VARIANTS[variant]
        except KeyError:
            raise ValueError(
                f"unknown variant {variant!r}; choose among {', '.join(VARIANTS)}"
            ) from None
        # The name says the rules differ from the preset's: "tunisian+plain".
        name = self.name if variant in self.name.split("+") else f"{self.name}+{variant}"
        if replace(self, **changes) == self:
            return self  # the preset already plays this way
        return replace(self, name=name, **changes)

    def with_target(self, target: int) -> Ruleset:
        return replace(self, target=target)

    def to_dict(self) -> dict[str, object]:
        """Plain data (str/int/bool values) for records and the wire."""
        return {
            "name": self.name,
            "opening": self.opening.value,
            "redeal": self.redeal.value,
            "forced_capture": self.forced_capture,
            "scoring": self.scoring.value,
            "target": self.target,
            "figures": self.figures.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Inverse of :meth:`to_dict`; ValueError on anything unknown or malformed."""
        if not isinstance(data, dict):
            raise ValueError("a ruleset is a map")
        try:
            forced = data["forced_capture"]
            if not isinstance(forced, bool) or not isinstance(data["name"], str):
                raise ValueError("malformed ruleset")
            return cls(
                name=data["name"],
                opening=Opening(data["opening"]),
                redeal=RedealRule(data["redeal"]),
                forced_capture=forced,
                scoring=Scoring(data["scoring"]),
                target=data["target"],
                figures=FigureConvention(data["figures"]),
            )
        except KeyError as exc:
            raise ValueError(f"ruleset lacks {exc.args[0]!r}") from None

    def canonical_json(self) -> bytes:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":")).encode()

    def digest(self) -> bytes:
        """SHA-256 of the canonical JSON: the ruleset hash peers agree on."""
        return hashlib.sha256(self.canonical_json()).digest()

    def describe(self, lang: str = "en") -> str:
        """One line for people, in English (``en``) or French (``fr``)."""
        fr = lang == "fr"
        redeal = {
            RedealRule.KINGS: ("redeal on 3 kings", "on redonne sur 3 rois"),
            RedealRule.ANY_THREE: ("redeal on any 3 alike", "on redonne sur 3 cartes égales"),
            RedealRule.NONE: ("no redeal", "jamais de redonne"),
        }[self.redeal][fr]
        parts = [
            f"{'objectif' if fr else 'target'} {self.target}",
            ("coupe et tirage" if fr else "cut-and-draw")
            if self.opening is Opening.CUT_AND_DRAW else ("donne simple" if fr else "plain deal"),
            redeal,
            "primiera" if self.scoring is Scoring.PRIMIERA else "barmila",
        ]
        if self.forced_capture:
            parts.append("prise obligatoire" if fr else "forced capture")
        if self.figures is FigureConvention.FRENCH:
            parts.append("Valet=8 Dame=9" if fr else "Jack=8 Queen=9")
        # The name may come from another peer's genesis: shown safely (it is free text).
        return f"{safe_text(self.display_name(lang), 64)}{' :' if fr else ':'} " \
            + ", ".join(parts)

    def display_name(self, lang: str = "en") -> str:
        """The ruleset's name for people: in English its own name (``tunisian``,
        ``tunisian+plain``); in French the preset's French name, "modifiée" when variants
        were picked on top of it (the parts of :meth:`describe` say how)."""
        if lang != "fr":
            return self.name
        base, _, rest = self.name.partition("+")
        return _PRESET_NAMES_FR.get(base, base) + (" modifiée" if rest else "")


#: Preset names in French (the wire keeps the ruleset's own name).
_PRESET_NAMES_FR = {"tunisian": "tunisienne", "cardavia": "cardavia", "chkoum": "chkoum"}

PRESETS: dict[str, Ruleset] = {
    "tunisian": Ruleset(),
    "cardavia": Ruleset(
        name="cardavia", opening=Opening.PLAIN, forced_capture=True,
        scoring=Scoring.PRIMIERA, figures=FigureConvention.FRENCH,
    ),
    "chkoum": Ruleset(name="chkoum", opening=Opening.PLAIN, target=12),
}

class RulesetChanges(TypedDict, total=False):
    """The fields a variant sets (see :data:`VARIANTS`)."""

    opening: Opening
    redeal: RedealRule
    forced_capture: bool
    scoring: Scoring
    figures: FigureConvention


#: Named variants a table can pick on top of a preset.
VARIANTS: dict[str, RulesetChanges] = {
    "cut-and-draw": {"opening": Opening.CUT_AND_DRAW},
    "plain": {"opening": Opening.PLAIN},
    "redeal-kings": {"redeal": RedealRule.KINGS},
    "redeal-any-three": {"redeal": RedealRule.ANY_THREE},
    "no-redeal": {"redeal": RedealRule.NONE},
    "forced-capture": {"forced_capture": True},
    "free-capture": {"forced_capture": False},
    "primiera": {"scoring": Scoring.PRIMIERA},
    "barmila": {"scoring": Scoring.BARMILA},
    "french-figures": {"figures": FigureConvention.FRENCH},
    "tunisian-figures": {"figures": FigureConvention.TUNISIAN},
}


# --------------------------------------------------------------------------- seats


def sides_count(players: int) -> int:
    """How many sides score at ``players`` seats (:attr:`Seating.sides`)."""
    return Seating.of(players).sides


def side_of(seat: int, players: int) -> int:
    """The side (team) a seat scores for (:meth:`Seating.side_of`)."""
    return Seating.of(players).side_of(seat)


def _check_players(players: int) -> None:
    Seating.of(players)  # raises LocalError for a shape the engine does not play


def resolve_first_dealer(draws: dict[int, Card]) -> int | tuple[int, ...]:
    """The first-dealer draw: the lowest value deals.

    Returns the dealer's seat, or the tuple of tied seats that must draw again.
    """
    if not draws:
        raise LocalError("nobody drew")
    low = min(c.value for c in draws.values())
    lowest = tuple(sorted(s for s, c in draws.items() if c.value == low))
    return lowest[0] if len(lowest) == 1 else lowest


# --------------------------------------------------------------------------- bitmasks
# Inside the engine a set of cards is a 40-bit int: bit ``id`` is the card ``Card(id)``.
# Captures, the cards a view has seen, the captured piles and the scores are computed on
# these masks; the public values (tuples of cards, frozensets, Move) are built from them.

VALUE = tuple(i % 10 + 1 for i in range(40))
BIT = tuple(1 << i for i in range(40))
DIAMOND_MASK = sum(BIT[20:30])
SEVEN_MASK = BIT[6] | BIT[16] | BIT[26] | BIT[36]
SIX_MASK = BIT[5] | BIT[15] | BIT[25] | BIT[35]
HAYA_BIT = BIT[26]
ALL_CARDS = (1 << 40) - 1
#: The cards of each value (index 1..10), and of every value below it.
_RANK_MASK = (0,) + tuple(BIT[v - 1] | BIT[v + 9] | BIT[v + 19] | BIT[v + 29]
                          for v in range(1, 11))
_BELOW_MASK = tuple(sum(_RANK_MASK[1:v]) for v in range(11))
_PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
# Per suit, the card ids from best to worst primiera value.
_PRIMIERA_ORDER = tuple(
    tuple(sorted(range(s * 10, s * 10 + 10), key=lambda c: -_PRIMIERA[VALUE[c]]))
    for s in range(4)
)


def bits(mask: int) -> list[int]:
    """The card ids set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, by id."""
    return tuple([_DECK_BY_ID[i] for i in bits(mask)])


_DECK_BY_ID = tuple(Card(i) for i in range(40))

# The caches are cleared when full, which keeps memory bounded (and the clearing cheap
# enough to fit in a bot's move budget).
_CACHE_LIMIT = 200_000
_CAPTURE_MASKS: dict[int, tuple[int, ...]] = {}
_CAPTURE_SETS: dict[int, tuple[frozenset[Card], ...]] = {}
_FROZEN: dict[int, frozenset[Card]] = {}
_MASKS: dict[frozenset[Card], int] = {}  # the inverse of _FROZEN
_MASK_SUM: dict[int, int] = {}
_SUM_PATTERNS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def capture_masks(value: int, table: int) -> tuple[int, ...]:
    """Every capture (as a mask) a card of ``value`` may make on ``table`` (a mask).

    Rank first: one option per table card of that value.  Otherwise every group of two or
    more table cards whose values sum to ``value``.  Empty: nothing can be taken.  Options
    come in a fixed order (same-value cards by id; groups in the order a walk over the
    table's cards by value, then id, finds them); the public moves and hints list them in
    table order.
    """
    same = table & _RANK_MASK[value]
    if same:
        return _SAME_MASKS[same]
    smaller = table & _BELOW_MASK[value]
    if not smaller & (smaller - 1):  # fewer than two cards: no sum
        return ()
    key = (smaller << 4) | value
    found = _CAPTURE_MASKS.get(key)
    if found is None:
        # The groups depend only on the values: found once per multiset of values (the
        # tables met are many, their value patterns few), then named with these cards.
        ids = sorted(bits(smaller), key=VALUE.__getitem__)  # by value, ties by id
        pattern = (value, *[VALUE[c] for c in ids])
        groups = _SUM_PATTERNS.get(pattern)
        if groups is None:
            out: list[tuple[int, ...]] = []
            _sum_groups(pattern, 1, value, (), out)
            groups = tuple(out)
            if len(_SUM_PATTERNS) > _CACHE_LIMIT:
                _SUM_PATTERNS.clear()
            _SUM_PATTERNS[pattern] = groups
        found = tuple([sum([BIT[ids[i - 1]] for i in g]) for g in groups])
        if len(_CAPTURE_MASKS) > _CACHE_LIMIT:
            _CAPTURE_MASKS.clear()
        _CAPTURE_MASKS[key] = found
    return found


def _sum_groups(values: tuple[int, ...], start: int, remaining: int, chosen: tuple[int, ...],
                out: list[tuple[int, ...]]) -> None:
    """The groups of two or more of ``values[start:]`` (ascending) summing to
    ``remaining``, as index tuples, in the order of a walk from the smallest."""
    # A plain function, not a closure: a recursive closure is a reference cycle, garbage
    # that only the cycle collector frees (and its pauses would eat into a bot's budget).
    for i in range(start, len(values)):
        v = values[i]
        if v == remaining:
            if chosen:
                out.append((*chosen, i))
        elif v < remaining:
            _sum_groups(values, i + 1, remaining - v, (*chosen, i), out)
        else:
            break  # ascending: nothing further fits


def frozen(mask: int) -> frozenset[Card]:
    """The cards of ``mask`` as a frozenset (shared: the same few are asked again)."""
    found = _FROZEN.get(mask)
    if found is None:
        found = frozenset(cards_of(mask))
        if len(_FROZEN) > _CACHE_LIMIT:
            _FROZEN.clear()
            _MASKS.clear()
        _FROZEN[mask] = found
        _MASKS[found] = mask
    return found


def _capture_sets(value: int, table: int) -> tuple[frozenset[Card], ...]:
    """:func:`capture_masks` as frozensets of cards (what moves hold)."""
    same = table & _RANK_MASK[value]
    if same:
        return _SAME_SETS[same]
    smaller = table & _BELOW_MASK[value]
    if not smaller & (smaller - 1):
        return ()
    key = (smaller << 4) | value
    found = _CAPTURE_SETS.get(key)
    if found is None:
        found = tuple([frozen(m) for m in capture_masks(value, table)])
        if len(_CAPTURE_SETS) > _CACHE_LIMIT:
            _CAPTURE_SETS.clear()
        _CAPTURE_SETS[key] = found
    return found


def _same_value_options() -> tuple[dict[int, tuple[int, ...]],
                                   dict[int, tuple[frozenset[Card], ...]]]:
    """The rank-first options of every set of same-value table cards (150 of them)."""
    masks: dict[int, tuple[int, ...]] = {}
    sets: dict[int, tuple[frozenset[Card], ...]] = {}
    for v in range(1, 11):
        ids = bits(_RANK_MASK[v])
        for k in range(1, 16):
            same = sum(BIT[ids[i]] for i in range(4) if k >> i & 1)
            masks[same] = tuple([BIT[c] for c in bits(same)])
            sets[same] = tuple([frozenset([_DECK_BY_ID[c]]) for c in bits(same)])
    return masks, sets


_SAME_MASKS, _SAME_SETS = _same_value_options()
#: Each card alone, as the capture of a card of its value.
_SINGLE = tuple(_SAME_SETS[BIT[i]][0] for i in range(40))


def mask_sum(mask: int) -> int:
    """The sum of the values of the cards of ``mask``."""
    found = _MASK_SUM.get(mask)
    if found is None:
        found = sum([VALUE[c] for c in bits(mask)])
        if len(_MASK_SUM) > _CACHE_LIMIT:
            _MASK_SUM.clear()
        _MASK_SUM[mask] = found
    return found


def capture_options(played: Card, table: Sequence[Card]) -> list[frozenset[Card]]:
    """Every capture the rules allow for ``played`` on ``table``.

    Rank first: the table cards of the same value, one option each.  Otherwise every group
    of two or more table cards whose values sum to the played value.  Empty: no capture.
    """
    options = _capture_sets(played.value, mask_of(table))
    return list(_in_table_order(options, table) if len(options) > 1 else options)


def _in_table_order(options: Sequence[frozenset[Card]],
                    table: Sequence[Card]) -> tuple[frozenset[Card], ...]:
    """Options in the order people read them: by the table positions of their cards
    (a walk over the table as laid out finds them in this order)."""
    pos = {c: i for i, c in enumerate(table)}
    return tuple(sorted(options, key=lambda group: sorted([pos[c] for c in group])))


# --------------------------------------------------------------------------- moves


class Move(NamedTuple):
    """Play ``card``; take the table cards in ``capture`` (empty: the card stays on the table)."""

    card: Card
    capture: frozenset[Card] = frozenset()

    @property
    def is_capture(self) -> bool:
        return bool(self.capture)

    @property
    def text(self) -> str:
        """``7D`` (a drop), ``7D x 3H+4S`` (a capture), cards sorted by id."""
        if not self.capture:
            return self.card.text
        return f"{self.card.text} x " + "+".join(c.text for c in sorted(self.capture))

    @classmethod
    def parse(cls, text: str) -> Move:
        head, _, tail = text.partition("x")
        from .cards import card as parse_card

        capture = frozenset(parse_card(t) for t in tail.split("+")) if tail.strip() else frozenset()
        return cls(parse_card(head), capture)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


def _brute_force_options(played: Card, table: Sequence[Card]) -> list[frozenset[Card]]:
    """Reference enumeration over all subsets (for tests): same contract as capture_options."""
    same = [frozenset((c,)) for c in table if c.value == played.value]
    if same:
        return same
    return [
        frozenset(group)
        for size in range(2, len(table) + 1)
        for group in combinations(table, size)
        if sum(c.value for c in group) == played.value
    ]


# --------------------------------------------------------------------------- pending steps


@dataclass(frozen=True, slots=True)
class DealStep:
    """Deal the next ``len(recipients)`` cards from the top: each to a seat, or None = table.

    ``draw`` marks the cut-and-draw card, seen by the cutter alone.
    """

    recipients: tuple[int | None, ...]
    draw: bool = False


@dataclass(frozen=True, slots=True)
class CutterChoice:
    seat: int


@dataclass(frozen=True, slots=True)
class Redeal:
    """The opening table must be dealt again (fresh shuffle) by the same dealer."""


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """Every card is played and the last capturer has swept the table."""


Pending = DealStep | CutterChoice | Redeal | Turn | HandOver
_TURNS = tuple(Turn(seat) for seat in range(4))
_NO_CAPTURE: frozenset[Card] = frozenset()
_new_tuple = tuple.__new__
_new_object = object.__new__


# --------------------------------------------------------------------------- events
# Events and moves are named tuples: immutable, and cheap to make on every action.


class DealEvent(NamedTuple):
    recipients: tuple[int | None, ...]
    cards: tuple[Card | None, ...]
    draw: bool = False


class CutEvent(NamedTuple):
    seat: int
    keep: bool
    card: Card | None  # the placed card; None when kept (it stays private)


class PlayEvent(NamedTuple):
    seat: int
    card: Card
    capture: frozenset[Card]
    chkobba: bool


class SweepEvent(NamedTuple):
    """The cards left on the table go to the last capturer (``seat``; None if nobody captured)."""

    seat: int | None
    cards: tuple[Card, ...]


Event = DealEvent | CutEvent | PlayEvent | SweepEvent


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


# --------------------------------------------------------------------------- the hand

# The stages: the cut's draw, the cutter's choice, a deal of the opening, another deal,
# a redeal due, a turn, the end.
_DRAW, _CHOICE, _ODEAL, _DEAL, _REDEAL, _PLAY, _OVER = range(7)
#: A round of three cards to every seat, from the seat ``first``: ``_ROUNDS[players][first]``.
_ROUNDS = {n: tuple(tuple((first + i) % n for i in range(n) for _ in range(3))
                    for first in range(n)) for n in (2, 3, 4)}


class Hand:
    """One hand, from the opening deal to the final sweep.  Immutable by contract: every
    action returns a new Hand and no method changes one (attributes are not guarded
    against assignment, which would cost a fifth of the engine's speed).

    Build with :meth:`Hand.new`; read :attr:`pending`; act with :meth:`deal`,
    :meth:`choose_cut` and :meth:`play`, each returning a new Hand.

    Inside, the table, the captured piles and the cards a view has seen are also kept as
    40-bit masks (see :func:`capture_masks`), on which moves are generated and checked
    and the hand is scored.  The bots' search (:mod:`chkobba_p2p.bots.expert`) plays its
    sampled worlds on this same class.
    """

    __slots__ = (
        "ruleset", "players", "dealer", "viewer", "hands", "table", "chkobbas",
        "stock", "turn", "last_capturer", "_log", "_stage", "_queue",
        "_tm", "_tsum", "_pm", "_known", "_deck",
    )

    ruleset: Ruleset
    players: int
    dealer: int
    viewer: int | None
    #: Each seat's hand in the order dealt; ``None`` entries are cards this view cannot see.
    hands: tuple[tuple[Card | None, ...], ...]
    #: The table in the order its cards were laid.
    table: tuple[Card, ...]
    chkobbas: tuple[int, ...]
    #: Cards not dealt yet.
    stock: int
    turn: int
    last_capturer: int | None
    # The events: a tuple, or a node [earlier log, event, ...] that :attr:`events` turns
    # into one when read (appending to a tuple on every play would copy it every time).
    _log: tuple[Event, ...] | list[Any]
    # What the hand waits for (one of _DRAW.._OVER) and the recipients of the pending
    # deal step (None: the table).
    _stage: int
    _queue: tuple[int | None, ...]
    # The table's mask, the captured piles (40 bits per seat: seat s's pile is
    # ``_pm >> 40 * s & ALL_CARDS``), the mask of every card this
    # view has seen (on the table, in a pile, in a hand it sees), and for a sampled world
    # of the search the undealt cards in dealing order (None: deals come from outside).
    _tm: int
    _tsum: int  # the sum of the table's values
    _pm: int
    _known: int
    _deck: tuple[Card, ...] | None

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, dealer: int,
            viewer: int | None = None) -> Hand:
        """A fresh hand: nothing dealt yet.  ``viewer`` None means every card is known."""
        _check_players(players)
        if not 0 <= dealer < players:
            raise LocalError(f"dealer must be a seat in 0..{players - 1}")
        if viewer is not None and viewer != SPECTATOR and not 0 <= viewer < players:
            raise LocalError(f"viewer must be a seat in 0..{players - 1} or SPECTATOR")
        h = object.__new__(cls)
        s = object.__setattr__
        s(h, "ruleset", ruleset)
        s(h, "players", players)
        s(h, "dealer", dealer)
        s(h, "viewer", viewer)
        s(h, "hands", ((),) * players)
        s(h, "table", ())
        s(h, "chkobbas", (0,) * players)
        s(h, "stock", 40)
        cutter = Seating.of(players).cutter(dealer)
        s(h, "turn", cutter)
        s(h, "last_capturer", None)
        s(h, "_log", ())
        if ruleset.opening is Opening.CUT_AND_DRAW:
            s(h, "_stage", _DRAW)
            s(h, "_queue", (cutter,))
        else:
            s(h, "_stage", _ODEAL)
            s(h, "_queue", cls._round_of_three(cutter, players) + (None,) * 4)
        s(h, "_tm", 0)
        s(h, "_tsum", 0)
        s(h, "_pm", 0)
        s(h, "_known", 0)
        s(h, "_deck", None)
        return h

    @classmethod
    def from_position(cls, ruleset: Ruleset, players: int, dealer: int, *,
                      hands: Sequence[Sequence[Card | None]], table: Sequence[Card],
                      turn: int, stock: int | None = None,
                      piles: Sequence[Sequence[Card]] | None = None,
                      chkobbas: Sequence[int] | None = None,
                      last_capturer: int | None = None,
                      viewer: int | None = None) -> Hand:
        """A hand in mid-play, waiting for ``turn`` to play (puzzles, tests, search).

        ``stock`` defaults to the cards not placed anywhere else.  Unknown cards (None) are
        allowed in hands only when ``viewer`` is set.
        """
        _check_players(players)
        piles = tuple(tuple(p) for p in (piles or ((),) * players))
        hands_t = tuple(tuple(h) for h in hands)
        for c in [*table, *(c for h in hands_t for c in h), *(c for p in piles for c in p)]:
            if c is not None and type(c) is not Card:
                raise InvalidDeal(f"not a card: {c!r}")
        if not 0 <= turn < players or (last_capturer is not None
                                       and not 0 <= last_capturer < players):
            raise LocalError(f"seats are numbered 0..{players - 1}")
        if chkobbas is not None and len(chkobbas) != players:
            raise LocalError(f"a {players}-player position has {players} chkobba counts")
        if len(hands) == players and not hands_t[turn]:
            raise InvalidDeal("the seat to play has no card")
        placed = [c for h in hands_t for c in h] + list(table) + [c for p in piles for c in p]
        known = [c for c in placed if c is not None]
        if len(set(known)) != len(known):
            raise InvalidDeal("a card appears twice in the position")
        if viewer is None and len(known) != len(placed):
            raise InvalidDeal("an omniscient position cannot hold unknown cards")
        if len(hands_t) != players or len(piles) != players:
            raise InvalidDeal(f"a {players}-player position has {players} hands and piles")
        if stock is None:
            stock = 40 - len(placed)
        if stock < 0 or stock + len(placed) != 40 or stock % (3 * players):
            raise InvalidDeal("the stock must hold the cards placed nowhere else, "
                              "in whole deals of 3 per player")
        h = cls.new(ruleset, players, dealer, viewer)
        return h._with(hands=hands_t, table=tuple(table), _pm=_pack(map(mask_of, piles)),
                       chkobbas=tuple(chkobbas or (0,) * players), stock=stock, turn=turn,
                       last_capturer=last_capturer, _stage=_PLAY, _queue=(),
                       _tm=mask_of(table), _tsum=sum(c.value for c in table),
                       _known=mask_of(known))

    def _with(self, **changes: object) -> Hand:
        h = _copy_hand(self)
        s = object.__setattr__
        for name, value in changes.items():
            s(h, name, value)
        return h

    def _logged(self, event: Event) -> dict[str, object]:
        """``_with`` arguments that append ``event``."""
        return {"_log": [self._log, event]}

    @staticmethod
    def _round_of_three(first: int, players: int) -> tuple[int, ...]:
        return _ROUNDS[players][first]

    # ------------------------------------------------------------------ reading

    @property
    def cutter(self) -> int:
        """The player on the dealer's right: cuts, draws, and plays first."""
        return Seating.of(self.players).cutter(self.dealer)

    @property
    def pending(self) -> Pending:
        """What the hand waits for next."""
        st = self._stage
        if st == _PLAY:
            return _TURNS[self.turn]
        if st in (_DEAL, _ODEAL):
            queue = self._queue
            step = _DEAL_STEPS.get(queue)
            if step is None:
                step = _DEAL_STEPS[queue] = DealStep(queue)
            return step
        if st == _DRAW:
            return DealStep(self._queue, draw=True)
        if st == _CHOICE:
            return CutterChoice(self.cutter)
        if st == _REDEAL:
            return Redeal()
        return HandOver()

    @property
    def is_over(self) -> bool:
        return self._stage == _OVER

    @property
    def needs_redeal(self) -> bool:
        return self._stage == _REDEAL

    @property
    def is_opening(self) -> bool:
        """True until the opening table is complete."""
        return self._stage <= _ODEAL

    @property
    def is_last_deal(self) -> bool:
        return self.stock == 0

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """Cards captured by each seat, by id (partners' piles are pooled only for
        scoring)."""
        pm = self._pm
        return tuple([cards_of(pm >> 40 * s & ALL_CARDS) for s in range(self.players)])

    @property
    def events(self) -> tuple[Event, ...]:
        """Every action so far, in order (each view's own copy masks others' cards)."""
        log = self._log
        if type(log) is tuple:
            return log
        nodes = []
        while type(log) is list:
            nodes.append(log)
            log = log[0]
        out = list(log)
        for node in reversed(nodes):
            out.extend(node[1:])
        events = tuple(out)
        self._log = events  # a cache: the same events, read faster next time
        return events

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def hand_of(self, seat: int) -> tuple[Card | None, ...]:
        return self.hands[seat]

    def known_cards(self) -> frozenset[Card]:
        """Every card this view has seen that is still in play or captured."""
        return frozenset(cards_of(self._known))

    def unseen_cards(self) -> frozenset[Card]:
        """Cards this view has not seen: in other hands or in the stock."""
        return frozenset(cards_of(ALL_CARDS ^ self._known))

    def view(self, seat: int) -> Hand:
        """This hand as ``seat`` sees it: other seats' cards become unknown."""
        if not 0 <= seat < self.players:
            raise LocalError(f"seats are numbered 0..{self.players - 1}, not {seat!r}")
        if self.viewer is not None and self.viewer != seat:
            raise LocalError("a view cannot be turned into another seat's view")
        hands = tuple(h if i == seat else (None,) * len(h) for i, h in enumerate(self.hands))
        events = self.events
        if self.viewer is None:
            # Only deals hold private cards; every other event is public.
            events = tuple([_mask_event(e, seat) if type(e) is DealEvent else e
                            for e in events])
        known = self._tm | mask_of([c for c in hands[seat] if c is not None])
        pm = self._pm
        while pm:
            known |= pm & ALL_CARDS
            pm >>= 40
        return self._with(viewer=seat, hands=hands, _log=events, _known=known, _deck=None)

    def side_piles(self) -> tuple[tuple[Card, ...], ...]:
        return tuple([cards_of(m) for m in self._side_masks()])

    def _side_masks(self) -> tuple[int, ...]:
        pm = self._pm
        if Seating.of(self.players).teams:
            return ((pm | pm >> 80) & ALL_CARDS, (pm >> 40 | pm >> 120) & ALL_CARDS)
        return tuple([pm >> 40 * s & ALL_CARDS for s in range(self.players)])

    def side_chkobbas(self) -> tuple[int, ...]:
        k = self.chkobbas
        if Seating.of(self.players).teams:
            return (k[0] + k[2], k[1] + k[3])
        return k

    @property
    def score(self) -> HandScore:
        """The hand's scoring breakdown; only once the hand is over."""
        if self._stage != _OVER:
            raise LocalError("the hand is scored only once every card is played")
        return _score(self._side_masks(), self.side_chkobbas(), self.ruleset, self.players)

    # ------------------------------------------------------------------ dealing

    def deal(self, dealt: Sequence[Card | None]) -> Hand:
        """Deal the cards of the pending :class:`DealStep`, in its order.

        A card may be None only where this view does not see it (another seat's card).
        """
        if self._stage > _DEAL:
            raise WrongPhase("no cards are due to be dealt now")
        recipients = self._queue
        dealt = tuple(dealt)
        if len(dealt) != len(recipients):
            raise InvalidDeal(f"this deal step is {len(recipients)} cards, not {len(dealt)}")
        fresh = 0
        for c in dealt:
            if c is not None:
                if type(c) is not Card:
                    raise InvalidDeal(f"not a card: {c!r}")
                if fresh >> c & 1:
                    raise InvalidDeal("the same card was dealt twice")
                fresh |= BIT[c]
        again = fresh & self._known
        if again:
            raise InvalidDeal(f"{cards_of(again)[0]} is already in play")
        viewer = self.viewer
        hands = list(self.hands)
        table = self.table
        if viewer is None:  # omniscient: every card is seen
            if fresh.bit_count() != len(dealt):
                raise InvalidDeal("a card this view must see was dealt unknown")
            n = self.players
            first = recipients[0]
            each: tuple[int | None, ...] = recipients
            if first is not None and recipients is _ROUNDS[n][first]:
                # A round of three after the hands ran out: each seat's three in a slice.
                hands = [dealt[3 * ((s - first) % n):3 * ((s - first) % n) + 3]
                         for s in range(n)]
                each = ()
            for who, c in zip(each, dealt):
                if who is None:
                    table += (c,)  # type: ignore[operator]  # never None: counted above
                else:
                    hands[who] += (c,)
        else:
            for who, c in zip(recipients, dealt):
                visible = who is None or who == viewer
                if c is None:
                    if visible:
                        raise InvalidDeal("a card this view must see was dealt unknown")
                elif not visible:
                    raise InvalidDeal("a view cannot hold another seat's card")
                if who is None:
                    table += (c,)  # type: ignore[operator]  # never None: refused above
                else:
                    hands[who] += (c,)
        h = _copy_hand(self)
        h._log = [self._log, _new_tuple(DealEvent, (recipients, dealt, self._stage == _DRAW))]
        h.hands = tuple(hands)
        if table is not self.table:
            h.table = table
            h._tm = mask_of(table)
            h._tsum = sum([c.value for c in table])
        h.stock = self.stock - len(dealt)
        h._queue = ()
        h._known = self._known | fresh
        if self._stage == _DRAW:
            h._stage = _CHOICE
            return h
        if self._stage == _ODEAL:
            return h._after_opening()
        h._stage = _PLAY
        return h

    def _after_opening(self) -> Hand:
        """Sets the stage of a hand just made whose opening table is complete."""
        rule = self.ruleset.redeal
        tm = self._tm
        if rule is RedealRule.KINGS:
            redeal = (tm & _RANK_MASK[10]).bit_count() >= 3
        elif rule is RedealRule.ANY_THREE:
            redeal = any((tm & _RANK_MASK[v]).bit_count() >= 3 for v in range(1, 11))
        else:
            redeal = False
        self._stage = _REDEAL if redeal else _PLAY
        return self

    def choose_cut(self, keep: bool, card: Card | None = None) -> Hand:
        """The cutter keeps the drawn card, or places it face up (``card`` names it).

        Keep: the cutter gets 2 more, every other player 3, then 4 cards go to the table.
        Place: the card joins the table, 3 more go to the table, then 3 to every player.
        """
        if self._stage != _CHOICE:
            raise WrongPhase("the cutter is not choosing now")
        cutter = self.cutter
        drawn = self.hands[cutter][0]
        n = self.players
        if keep:
            others = tuple((cutter + i) % n for i in range(1, n) for _ in range(3))
            queue = (cutter, cutter) + others + (None,) * 4
            return self._with(_stage=_ODEAL, _queue=queue,
                              **self._logged(CutEvent(cutter, True, None)))
        if card is not None and type(card) is not Card:
            raise InvalidDeal(f"not a card: {card!r}")
        if drawn is None:
            if card is None:
                raise LocalError("placing an unseen drawn card: name the card revealed")
            if self._known >> card & 1:
                raise InvalidDeal(f"{card} is already in play")
        elif card is not None and card != drawn:
            raise InvalidDeal(f"the drawn card is {drawn}, not {card}")
        placed = drawn if drawn is not None else card
        assert placed is not None
        hands = tuple(() if i == cutter else h for i, h in enumerate(self.hands))
        queue = (None,) * 3 + self._round_of_three(cutter, n)
        return self._with(hands=hands, table=(placed,), _tm=BIT[placed], _tsum=placed.value,
                          _known=self._known | BIT[placed], _stage=_ODEAL, _queue=queue,
                          **self._logged(CutEvent(cutter, False, placed)))

    # ------------------------------------------------------------------ playing

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every legal move for ``seat`` (default: whose turn it is) among its known cards:
        the cards in the order held, each card's captures by the table positions of the
        cards they take."""
        if self._stage != _PLAY:
            return []
        if seat is None:
            seat = self.turn
        elif seat != self.turn:
            return []
        table = self._tm
        moves: list[Move] = []
        captures = False
        for c in self.hands[seat]:
            if c is None:
                continue
            v = c.value
            same = table & _RANK_MASK[v]
            if same:
                if same & (same - 1):  # several: in table order
                    options = tuple([_SINGLE[t] for t in self.table if same >> t & 1])
                else:
                    options = _SAME_SETS[same]
            else:
                smaller = table & _BELOW_MASK[v]
                if smaller & (smaller - 1):
                    found = _CAPTURE_SETS.get((smaller << 4) | v)
                    options = _capture_sets(v, table) if found is None else found
                    if len(options) > 1:
                        options = _in_table_order(options, self.table)
                else:
                    options = ()
            # tuple.__new__ skips the named tuple's Python-level constructor: this loop is
            # the engine's hottest.
            if options:
                captures = True
                moves.extend([_new_tuple(Move, (c, o)) for o in options])
            else:
                moves.append(_DROPS[c])
        if captures and self.ruleset.forced_capture:
            moves = [m for m in moves if m[1]]
        global _LAST_LEGAL
        _LAST_LEGAL = (self, moves)  # one assignment: atomic, whatever the threads
        return moves[:]

    def captures_for(self, card: Card) -> list[frozenset[Card]]:
        """Hint: what ``card`` would take from the table now (empty: it would stay)."""
        options = _capture_sets(card.value, self._tm)
        return list(_in_table_order(options, self.table) if len(options) > 1 else options)

    def play(self, seat: int, card: Card, capture: Iterable[Card] = ()) -> Hand:
        """``seat`` plays ``card`` taking ``capture``; IllegalMove subclasses name the rule."""
        if self._stage != _PLAY:
            raise WrongPhase("no card may be played now: the hand waits for "
                             + type(self.pending).__name__)
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if type(card) is not Card:
            raise CardNotInHand(f"not a card: {card!r}")
        hand = self.hands[seat]
        if card in hand:
            idx = hand.index(card)
        elif None in hand and not self._known >> card & 1:
            idx = hand.index(None)
        else:
            raise CardNotInHand(f"{card} is not in seat {seat}'s hand")
        table = self._tm
        taken = 0
        for c in capture:
            if type(c) is not Card or not table >> c & 1:
                raise CaptureNotOnTable(f"{c} is not on the table")
            taken |= BIT[c]
        value = card.value
        options = capture_masks(value, table)
        if taken:
            if taken not in options:
                group = cards_of(taken)
                if len(group) > 1 and mask_sum(taken) == value and table & _RANK_MASK[value]:
                    raise RankMatchRequired(
                        f"a table card of value {value} must be taken before any sum")
                raise GroupDoesNotSum(
                    f"{'+'.join(c.text for c in group)} does not make {value}")
        elif options:
            raise CaptureRequired(f"{card} can capture, so it must")
        elif self.ruleset.forced_capture and None not in hand:
            for other in hand:
                if other is not None and other != card and capture_masks(other.value, table):
                    raise ForcedCaptureRequired(
                        f"forced capture: {other} can capture, so a capturing card must be "
                        "played")
        return self._play_trusted(seat, idx, card, taken)

    def _play_trusted(self, seat: int, idx: int, card: Card, taken: int,
                      capture: frozenset[Card] | None = None) -> Hand:
        """The play of the card at ``hand[idx]`` (``card``) by ``seat`` (whose turn it is)
        taking the table cards of mask ``taken`` (``capture``, if known, as cards):
        trusted legal (checked by :meth:`play`, generated by the search).  The engine's
        hottest code: every slot is set once.

        A sampled world of the search (``_deck`` set) deals itself and keeps no log of
        its own (nobody reads a hypothetical hand's events)."""
        hands = self.hands
        hand = hands[seat]
        n = self.players
        if n == 2:
            hands = (hand[:idx] + hand[idx + 1:], hands[1]) if seat == 0 else \
                (hands[0], hand[:idx] + hand[idx + 1:])
        else:
            hands_l = list(hands)
            hands_l[seat] = hand[:idx] + hand[idx + 1:]
            hands = tuple(hands_l)
        stock = self.stock
        h = _new_object(Hand)
        h.ruleset = self.ruleset
        h.players = n
        h.dealer = self.dealer
        h.viewer = self.viewer
        h.turn = turn = (seat + 1) % n  # Seating.next, inlined: the search's hot path
        h._known = self._known | BIT[card]
        h._deck = deck = self._deck
        h._queue = ()
        held = any(hands)
        chkobba = False
        if taken:
            h._tm = table = self._tm ^ taken
            h._tsum = self._tsum - VALUE[card]  # a capture adds up to the card's value
            h.table = tuple([c for c in self.table if not taken >> c & 1])
            h._pm = self._pm | (taken | BIT[card]) << 40 * seat
            h.last_capturer = seat
            if not table and (held or stock):
                chkobba = True
                k = self.chkobbas
                h.chkobbas = k[:seat] + (k[seat] + 1,) + k[seat + 1:]
            else:
                h.chkobbas = self.chkobbas
        else:
            h._tm = self._tm | BIT[card]
            h._tsum = self._tsum + VALUE[card]
            h.table = self.table + (card,)
            h._pm = self._pm
            h.last_capturer = self.last_capturer
            h.chkobbas = self.chkobbas
        if deck is None:
            if capture is None:
                capture = frozen(taken) if taken else _NO_CAPTURE
            log: list[Any] = [self._log, _new_tuple(PlayEvent, (seat, card, capture, chkobba))]
            h._log = log
        else:
            h._log = self._log
        if held:
            h.hands = hands
            h.stock = stock
            h._stage = _PLAY
            return h
        if stock:
            if deck is None:
                h.hands = hands
                h.stock = stock
                h._stage = _DEAL
                h._queue = _ROUNDS[n][turn]
                return h
            size = 3 * n
            dealt = deck[:size]
            h._deck = deck[size:]
            h.stock = stock - size
            h.hands = tuple([dealt[3 * ((s - turn) % n):3 * ((s - turn) % n) + 3]
                             for s in range(n)])
            h._stage = _PLAY
            return h
        # The last play: the last capturer takes what is left; that is never a chkobba.
        h.hands = hands
        h.stock = 0
        h._stage = _OVER
        taker = h.last_capturer
        left = h.table
        if deck is None:
            log.append(SweepEvent(taker, left))
        if taker is not None and left:
            h._pm |= h._tm << 40 * taker
            h.table = ()
            h._tm = 0
            h._tsum = 0
        return h

    def apply(self, move: Move, seat: int | None = None) -> Hand:
        """Play a :class:`Move` for ``seat`` (default: whose turn it is)."""
        turn = self.turn
        if seat is None or seat == turn:
            last = _LAST_LEGAL
            if last[0] is self and move in last[1]:  # generated here: legal already
                card, capture = move
                if type(card) is not Card or type(capture) is not frozenset:
                    # An equal move of other types (an int, a set): the checks say so.
                    return self.play(turn, card, capture)
                taken = (_MASKS.get(capture) or mask_of(capture)) if capture else 0
                return self._play_trusted(turn, self.hands[turn].index(card), card, taken,
                                          capture)
            seat = turn
        return self.play(seat, move.card, move.capture)

    # ------------------------------------------------------------------ the search's use

    def _world(self, hands: Sequence[Sequence[Card]], deck: Sequence[Card]) -> Hand:
        """An omniscient hand consistent with this position: every seat's hand given,
        the undealt cards in dealing order (the hand then deals them itself).  For the
        bots' search, which samples the cards a view does not see."""
        if self._stage != _PLAY or len(deck) != self.stock:
            raise LocalError(f"a world of a hand in play, with its {self.stock} undealt "
                             "cards")
        return self._with(viewer=None, hands=tuple(map(tuple, hands)), _known=ALL_CARDS,
                          _deck=tuple(deck))

    def _opening_world(self, hands: Sequence[Sequence[Card]], table: Sequence[Card],
                deck: Sequence[Card]) -> Hand:
        """An omniscient world of this hand just after its opening: the hands and the
        table as given, nothing captured, the undealt cards in dealing order, the cutter
        to play (the search's sample of a cut choice)."""
        table = tuple(table)
        return self._with(viewer=None, hands=tuple(map(tuple, hands)), table=table,
                          _tsum=sum(c.value for c in table),
                          _tm=mask_of(table), _pm=0,
                          chkobbas=(0,) * self.players, stock=len(deck), turn=self.cutter,
                          last_capturer=None, _stage=_PLAY, _queue=(),
                          _known=ALL_CARDS, _deck=tuple(deck))

    def _move_masks(self) -> list[tuple[int, Card, int]]:
        """Legal moves of the seat to play, whose cards are all known, as (index in
        hand, card, capture mask)."""
        table = self._tm
        held = cast(tuple[Card, ...], self.hands[self.turn])
        out: list[tuple[int, Card, int]] = []
        captures = False
        for i, c in enumerate(held):
            options = capture_masks(VALUE[c], table)
            if options:
                captures = True
                out.extend([(i, c, o) for o in options])
            else:
                out.append((i, c, 0))
        if captures and self.ruleset.forced_capture:
            out = [m for m in out if m[2]]
        return out

    def __repr__(self) -> str:
        return (f"<Hand players={self.players} dealer={self.dealer} stock={self.stock} "
                f"table={' '.join(c.text for c in self.table)} pending={self.pending}>")


def _pack(piles: Iterable[int]) -> int:
    """Per-seat masks as one int, 40 bits per seat (seat 0 lowest)."""
    out = 0
    for seat, m in enumerate(piles):
        out |= m << 40 * seat
    return out


def _make_copier() -> Callable[[Hand], Hand]:
    # The engine copies a Hand on every action: an unrolled copy is several times faster
    # than a loop over the slots.
    lines = ["def _copy_hand(old):", "    h = _new(_Hand)"]
    lines += [f"    h.{name} = old.{name}" for name in Hand.__slots__]
    lines.append("    return h")
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__,
                                 "_Hand": Hand}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from our own slot names
    copier: Callable[[Hand], Hand] = namespace["_copy_hand"]
    return copier


_copy_hand = _make_copier()

#: The deal steps met so far (a handful of shapes: steps are values, shared).
_DEAL_STEPS: dict[tuple[int | None, ...], DealStep] = {}

#: Every card's drop (the card stays on the table): moves are values, shared.
_DROPS = tuple(Move(Card(i)) for i in range(40))

#: The last hand whose legal moves were listed, and that list: applying one of them needs
#: no second check (a cache; replaced as a whole, so a reader never pairs a hand with
#: another's moves).
_LAST_LEGAL: tuple[Hand | None, list[Move]] = (None, [])


@lru_cache(maxsize=4096)  # every view of a hand masks the same few deals again
def _mask_event(event: Event, seat: int) -> Event:
    if type(event) is not DealEvent:
        return event
    recipients = event.recipients
    if all(who is None or who == seat for who in recipients):
        return event
    cards = tuple(c if who is None or who == seat else None
                  for who, c in zip(recipients, event.cards))
    return DealEvent(recipients, cards, event.draw)


# --------------------------------------------------------------------------- the match


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand as the match remembers it."""

    number: int
    dealer: int
    redeals: int
    score: HandScore
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """A match: hands until a side reaches the target with the strictly highest total.

    ``hand`` is the hand in progress (None once the match is won).  Scores are checked only
    after a hand; totals equal at or above the target play another hand.
    """

    ruleset: Ruleset
    players: int
    first_dealer: int
    viewer: int | None = None
    totals: tuple[int, ...] = ()
    results: tuple[HandResult, ...] = ()
    hand: Hand | None = None
    redeals: int = 0
    winner: int | None = None

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, first_dealer: int,
            viewer: int | None = None) -> Match:
        _check_players(players)
        return cls(ruleset, players, first_dealer, viewer,
                   totals=(0,) * sides_count(players),
                   hand=Hand.new(ruleset, players, first_dealer, viewer))

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress (or of the last one)."""
        return len(self.results) + (1 if self.hand is not None else 0)

    @property
    def dealer(self) -> int:
        return Seating.of(self.players).dealer_of(self.first_dealer, len(self.results))

    def with_hand(self, hand: Hand) -> Match:
        """Replace the hand in progress (after dealing or playing in it)."""
        current = self.hand
        if current is None:
            raise LocalError("the match is over")
        if (hand.ruleset, hand.players, hand.dealer) != (
                current.ruleset, current.players, current.dealer):
            raise LocalError("that hand belongs to another match (ruleset, seats or dealer)")
        return replace(self, hand=hand)

    def redeal(self) -> Match:
        """The opening called for a redeal: the same dealer deals a fresh hand."""
        if self.hand is None or not self.hand.needs_redeal:
            raise LocalError("no redeal is due")
        return replace(self, hand=Hand.new(self.ruleset, self.players, self.dealer, self.viewer),
                       redeals=self.redeals + 1)

    def finish_hand(self) -> Match:
        """Score the finished hand in progress, update totals, start the next or end."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise LocalError("the hand in progress is not over")
        score = hand.score
        totals = tuple(t + p for t, p in zip(self.totals, score.points))
        result = HandResult(len(self.results) + 1, hand.dealer, self.redeals, score, totals)
        results = self.results + (result,)
        winner = None
        if max(totals) >= self.ruleset.target:
            winner = _strict_winner(totals)
        if winner is not None:
            return replace(self, totals=totals, results=results, hand=None, redeals=0,
                           winner=winner)
        next_dealer = Seating.of(self.players).dealer_of(self.first_dealer, len(results))
        return replace(self, totals=totals, results=results, redeals=0,
                       hand=Hand.new(self.ruleset, self.players, next_dealer, self.viewer))
