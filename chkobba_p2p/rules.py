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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import NamedTuple

from .cards import DECK, Card, FigureConvention
from .errors import (
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
from .text import safe_text

__all__ = [
    "Opening",
    "RedealRule",
    "Scoring",
    "Ruleset",
    "PRESETS",
    "VARIANTS",
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
    def from_dict(cls, data: dict) -> Ruleset:
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
        return f"{safe_text(self.name, 64)}: " + ", ".join(parts)


PRESETS: dict[str, Ruleset] = {
    "tunisian": Ruleset(),
    "cardavia": Ruleset(
        name="cardavia", opening=Opening.PLAIN, forced_capture=True,
        scoring=Scoring.PRIMIERA, figures=FigureConvention.FRENCH,
    ),
    "chkoum": Ruleset(name="chkoum", opening=Opening.PLAIN, target=12),
}

#: Named variants a table can pick on top of a preset.
VARIANTS: dict[str, dict[str, object]] = {
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
    return 2 if players == 4 else players


def side_of(seat: int, players: int) -> int:
    """The side (team) a seat scores for: partners face each other at 4 players."""
    return seat % 2 if players == 4 else seat


def _check_players(players: int) -> None:
    if players not in (2, 3, 4):
        raise LocalError(f"Chkobba is played by 2, 3 or 4 players, not {players!r}")


def resolve_first_dealer(draws: dict[int, Card]) -> int | tuple[int, ...]:
    """The first-dealer draw: the lowest value deals.

    Returns the dealer's seat, or the tuple of tied seats that must draw again.
    """
    if not draws:
        raise LocalError("nobody drew")
    low = min(c.value for c in draws.values())
    lowest = tuple(sorted(s for s, c in draws.items() if c.value == low))
    return lowest[0] if len(lowest) == 1 else lowest


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


def capture_options(played: Card, table: Sequence[Card]) -> list[frozenset[Card]]:
    """Every capture the rules allow for ``played`` on ``table``.

    Rank first: the table cards of the same value, one option each.  Otherwise every group
    of two or more table cards whose values sum to the played value.  Empty: no capture.
    """
    return list(_capture_options(played.value, tuple(table)))


@lru_cache(maxsize=8192)
def _capture_options(value: int, table: tuple[Card, ...]) -> tuple[frozenset[Card], ...]:
    # Cached: the same (value, table) is asked while generating moves, then validating one.
    same = tuple(frozenset((c,)) for c in table if c.value == value)
    if same:
        return same
    smaller = [c for c in table if c.value < value]
    if len(smaller) < 2:
        return ()
    return tuple(_sum_groups(tuple(smaller), value))


def _sum_groups(cards: tuple[Card, ...], value: int) -> list[frozenset[Card]]:
    out: list[frozenset[Card]] = []

    def walk(start: int, remaining: int, chosen: list[Card]) -> None:
        for i in range(start, len(cards)):
            c = cards[i]
            v = c.value
            if v == remaining:
                if chosen:
                    out.append(frozenset((*chosen, c)))
            elif v < remaining:
                chosen.append(c)
                walk(i + 1, remaining - v, chosen)
                chosen.pop()

    walk(0, value, [])
    return out


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

_PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def primiera_value(pile: Iterable[Card]) -> int | None:
    """Sum of the best primiera value per suit, or None when a suit is missing."""
    best: dict[object, int] = {}
    for c in pile:
        v = _PRIMIERA[c.value]
        if v > best.get(c.suit, 0):
            best[c.suit] = v
    return sum(best.values()) if len(best) == 4 else None


def _strict_winner(values: Sequence[int | None]) -> int | None:
    """Index of the strict maximum (None values cannot win); None on a tie (beji)."""
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


def score_piles(piles: Sequence[Sequence[Card]], chkobbas: Sequence[int],
                ruleset: Ruleset, players: int) -> HandScore:
    """Score a finished hand from each *side's* pile and chkobba count."""
    cards = tuple(len(p) for p in piles)
    diamonds = tuple(sum(1 for c in p if c.is_diamond) for p in piles)
    sevens = tuple(sum(1 for c in p if c.value == 7) for p in piles)
    sixes = tuple(sum(1 for c in p if c.value == 6) for p in piles)
    categories: dict[str, int | None] = {
        "carta": _strict_winner(cards),
        "dinari": _strict_winner(diamonds),
    }
    primiera = None
    if ruleset.scoring is Scoring.PRIMIERA:
        primiera = tuple(primiera_value(p) for p in piles)
        categories["primiera"] = _strict_winner(primiera)
    else:
        barmila = _strict_winner(sevens)
        if barmila is None and max(sevens) > 0:
            # Equal sevens: the most sixes among the sides tied on sevens.
            top = max(sevens)
            barmila = _strict_winner([s if n == top else None for n, s in zip(sevens, sixes)])
        categories["barmila"] = barmila
    categories["haya"] = next(
        (i for i, p in enumerate(piles) if any(c.is_haya for c in p)), None
    )
    return HandScore(players, cards, diamonds, sevens, sixes, primiera,
                     MappingProxyType(categories), tuple(chkobbas))


# --------------------------------------------------------------------------- the hand

_DRAW, _CHOICE, _DEAL, _REDEAL, _PLAY, _OVER = range(6)


class Hand:
    """One hand, from the opening deal to the final sweep.  Immutable by contract: every
    action returns a new Hand and no method changes one (attributes are not guarded
    against assignment, which would cost a fifth of the engine's speed).

    Build with :meth:`Hand.new`; read :attr:`pending`; act with :meth:`deal`,
    :meth:`choose_cut` and :meth:`play`, each returning a new Hand.
    """

    __slots__ = (
        "ruleset", "players", "dealer", "viewer", "hands", "table", "piles", "chkobbas",
        "stock", "turn", "last_capturer", "events", "_stage", "_queue", "_opening",
    )

    ruleset: Ruleset
    players: int
    dealer: int
    viewer: int | None
    #: Each seat's hand; ``None`` entries are cards this view cannot see.
    hands: tuple[tuple[Card | None, ...], ...]
    table: tuple[Card, ...]
    #: Cards captured by each seat (partners' piles are pooled only for scoring).
    piles: tuple[tuple[Card, ...], ...]
    chkobbas: tuple[int, ...]
    #: Cards not dealt yet.
    stock: int
    turn: int
    last_capturer: int | None
    events: tuple[Event, ...]

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
        s(h, "piles", ((),) * players)
        s(h, "chkobbas", (0,) * players)
        s(h, "stock", 40)
        cutter = (dealer + 1) % players
        s(h, "turn", cutter)
        s(h, "last_capturer", None)
        s(h, "events", ())
        if ruleset.opening is Opening.CUT_AND_DRAW:
            s(h, "_stage", _DRAW)
            s(h, "_queue", (cutter,))
        else:
            s(h, "_stage", _DEAL)
            s(h, "_queue", cls._round_of_three(cutter, players) + (None,) * 4)
        s(h, "_opening", True)
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
        return h._with(hands=hands_t, table=tuple(table), piles=piles,
                       chkobbas=tuple(chkobbas or (0,) * players), stock=stock, turn=turn,
                       last_capturer=last_capturer, _stage=_PLAY, _queue=(), _opening=False)

    def _with(self, **changes: object) -> Hand:
        h = _copy_hand(self)
        s = object.__setattr__
        for name, value in changes.items():
            s(h, name, value)
        return h

    def _logged(self, event: Event) -> dict[str, object]:
        """``_with`` arguments that append ``event`` (and each seat's masked copy of it)."""
        return {"events": self.events + (event,)}

    @staticmethod
    def _round_of_three(first: int, players: int) -> tuple[int, ...]:
        return tuple((first + i) % players for i in range(players) for _ in range(3))

    # ------------------------------------------------------------------ reading

    @property
    def cutter(self) -> int:
        """The player on the dealer's right: cuts, draws, and plays first."""
        return (self.dealer + 1) % self.players

    @property
    def pending(self) -> Pending:
        """What the hand waits for next."""
        st = self._stage
        if st == _PLAY:
            return _TURNS[self.turn]
        if st == _DEAL:
            return DealStep(self._queue)
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
        return self._opening

    @property
    def is_last_deal(self) -> bool:
        return self.stock == 0

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def hand_of(self, seat: int) -> tuple[Card | None, ...]:
        return self.hands[seat]

    def known_cards(self) -> frozenset[Card]:
        """Every card this view has seen that is still in play or captured."""
        return frozenset(self._seen())

    def _seen(self) -> set[Card]:
        seen = set(self.table)
        for pile in self.piles:
            seen.update(pile)
        for hand in self.hands:
            seen.update(hand)
        seen.discard(None)
        return seen

    def unseen_cards(self) -> frozenset[Card]:
        """Cards this view has not seen: in other hands or in the stock."""
        return frozenset(DECK) - self.known_cards()

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
        return self._with(viewer=seat, hands=hands, events=events)

    def side_piles(self) -> tuple[tuple[Card, ...], ...]:
        n = sides_count(self.players)
        out: list[list[Card]] = [[] for _ in range(n)]
        for seat, pile in enumerate(self.piles):
            out[self.side_of(seat)].extend(pile)
        return tuple(tuple(p) for p in out)

    def side_chkobbas(self) -> tuple[int, ...]:
        out = [0] * sides_count(self.players)
        for seat, k in enumerate(self.chkobbas):
            out[self.side_of(seat)] += k
        return tuple(out)

    @property
    def score(self) -> HandScore:
        """The hand's scoring breakdown; only once the hand is over."""
        if self._stage != _OVER:
            raise LocalError("the hand is scored only once every card is played")
        return score_piles(self.side_piles(), self.side_chkobbas(), self.ruleset, self.players)

    # ------------------------------------------------------------------ dealing

    def deal(self, dealt: Sequence[Card | None]) -> Hand:
        """Deal the cards of the pending :class:`DealStep`, in its order.

        A card may be None only where this view does not see it (another seat's card).
        """
        if self._stage not in (_DEAL, _DRAW):
            raise WrongPhase("no cards are due to be dealt now")
        recipients = self._queue
        dealt = tuple(dealt)
        if len(dealt) != len(recipients):
            raise InvalidDeal(f"this deal step is {len(recipients)} cards, not {len(dealt)}")
        known = self._seen()
        fresh = {c for c in dealt if c is not None}
        if len(fresh) != sum(c is not None for c in dealt):
            raise InvalidDeal("the same card was dealt twice")
        if not fresh.isdisjoint(known):
            raise InvalidDeal(f"{min(fresh & known)} is already in play")
        viewer = self.viewer
        hands = [list(h) for h in self.hands]
        table = list(self.table)
        for who, c in zip(recipients, dealt):
            visible = who is None or viewer is None or who == viewer
            if c is None:
                if visible:
                    raise InvalidDeal("a card this view must see was dealt unknown")
            elif not visible:
                raise InvalidDeal("a view cannot hold another seat's card")
            elif type(c) is not Card:
                raise InvalidDeal(f"not a card: {c!r}")
            if who is None:
                table.append(c)
            else:
                hands[who].append(c)
        event = _new_tuple(DealEvent, (recipients, dealt, self._stage == _DRAW))
        changes = self._logged(event)
        changes.update(hands=tuple(map(tuple, hands)), table=tuple(table),
                       stock=self.stock - len(dealt), _queue=())
        if self._stage == _DRAW:
            return self._with(_stage=_CHOICE, **changes)
        if self._opening:
            return self._with(**changes)._after_opening()
        return self._with(_stage=_PLAY, **changes)

    def _after_opening(self) -> Hand:
        counts: dict[int, int] = {}
        for c in self.table:
            counts[c.value] = counts.get(c.value, 0) + 1
        rule = self.ruleset.redeal
        if rule is RedealRule.KINGS:
            redeal = counts.get(10, 0) >= 3
        elif rule is RedealRule.ANY_THREE:
            redeal = any(k >= 3 for k in counts.values())
        else:
            redeal = False
        if redeal:
            return self._with(_stage=_REDEAL, _queue=(), _opening=False)
        return self._with(_stage=_PLAY, _queue=(), _opening=False)

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
            return self._with(_stage=_DEAL, _queue=queue,
                              **self._logged(CutEvent(cutter, True, None)))
        if card is not None and type(card) is not Card:
            raise InvalidDeal(f"not a card: {card!r}")
        if drawn is None:
            if card is None:
                raise LocalError("placing an unseen drawn card: name the card revealed")
            if card in self.known_cards():
                raise InvalidDeal(f"{card} is already in play")
        elif card is not None and card != drawn:
            raise InvalidDeal(f"the drawn card is {drawn}, not {card}")
        placed = drawn if drawn is not None else card
        hands = tuple(() if i == cutter else h for i, h in enumerate(self.hands))
        queue = (None,) * 3 + self._round_of_three(cutter, n)
        return self._with(hands=hands, table=(placed,), _stage=_DEAL, _queue=queue,
                          **self._logged(CutEvent(cutter, False, placed)))

    # ------------------------------------------------------------------ playing

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every legal move for ``seat`` (default: whose turn it is) among its known cards."""
        if self._stage != _PLAY:
            return []
        seat = self.turn if seat is None else seat
        if seat != self.turn:
            return []
        table = self.table
        moves: list[Move] = []
        captures = False
        for c in self.hands[seat]:
            if c is None:
                continue
            options = _capture_options(c.value, table)
            # tuple.__new__ skips the named tuple's Python-level constructor: this loop is
            # the engine's hottest.
            if options:
                captures = True
                moves.extend([_new_tuple(Move, (c, o)) for o in options])
            else:
                moves.append(_new_tuple(Move, (c, _NO_CAPTURE)))
        if captures and self.ruleset.forced_capture:
            moves = [m for m in moves if m.capture]
        return moves

    def captures_for(self, card: Card) -> list[frozenset[Card]]:
        """Hint: what ``card`` would take from the table now (empty: it would stay)."""
        return list(_capture_options(card.value, self.table))

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
        elif None in hand and card not in self.known_cards():
            idx = hand.index(None)
        else:
            raise CardNotInHand(f"{card} is not in seat {seat}'s hand")
        if type(capture) is not frozenset:
            capture = frozenset(capture)
        table = self.table
        for c in capture:
            if type(c) is not Card or c not in table:
                raise CaptureNotOnTable(f"{c} is not on the table")
        options = _capture_options(card.value, table)
        if capture:
            if capture not in options:
                sums = len(capture) > 1 and sum(c.value for c in capture) == card.value
                if sums and any(c.value == card.value for c in table):
                    raise RankMatchRequired(
                        f"a table card of value {card.value} must be taken before any sum")
                raise GroupDoesNotSum(
                    f"{'+'.join(c.text for c in sorted(capture))} does not make {card.value}")
        elif options:
            raise CaptureRequired(f"{card} can capture, so it must")
        elif self.ruleset.forced_capture and None not in hand:
            for other in hand:
                if other != card and _capture_options(other.value, table):
                    raise ForcedCaptureRequired(
                        f"forced capture: {other} can capture, so a capturing card must be "
                        "played")
        hands = self.hands
        hands = hands[:seat] + (hand[:idx] + hand[idx + 1:],) + hands[seat + 1:]
        last_play = self.stock == 0 and not any(hands)
        h = _copy_hand(self)
        h.hands = hands
        h.turn = (seat + 1) % self.players
        chkobba = False
        if capture:
            h.table = new_table = tuple([c for c in table if c not in capture])
            piles = self.piles
            h.piles = piles[:seat] + (piles[seat] + (card, *sorted(capture)),) + piles[seat + 1:]
            h.last_capturer = seat
            if not new_table and not last_play:
                chkobba = True
                k = self.chkobbas
                h.chkobbas = k[:seat] + (k[seat] + 1,) + k[seat + 1:]
        else:
            h.table = table + (card,)
        h.events = self.events + (_new_tuple(PlayEvent, (seat, card, capture, chkobba)),)
        if not last_play:
            if not any(hands):
                h._stage = _DEAL
                h._queue = self._round_of_three(h.turn, self.players)
            return h
        # The last capturer takes what is left; that is never a chkobba.
        taker = h.last_capturer
        left = h.table
        h.events = h.events + (SweepEvent(taker, left),)
        if taker is not None and left:
            piles = h.piles
            h.piles = piles[:taker] + (piles[taker] + left,) + piles[taker + 1:]
            h.table = ()
        h._stage = _OVER
        h._queue = ()
        return h

    def apply(self, move: Move, seat: int | None = None) -> Hand:
        """Play a :class:`Move` for ``seat`` (default: whose turn it is)."""
        return self.play(self.turn if seat is None else seat, move.card, move.capture)

    def __repr__(self) -> str:
        return (f"<Hand players={self.players} dealer={self.dealer} stock={self.stock} "
                f"table={' '.join(c.text for c in self.table)} pending={self.pending}>")


def _make_copier() -> object:
    # The engine copies a Hand on every action: an unrolled copy is several times faster
    # than a loop over the slots.
    lines = ["def _copy_hand(old):", "    h = _new(_Hand)"]
    lines += [f"    h.{name} = old.{name}" for name in Hand.__slots__]
    lines.append("    return h")
    namespace = {"_new": object.__new__, "_set": object.__setattr__, "_Hand": Hand}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from our own slot names
    return namespace["_copy_hand"]


_copy_hand = _make_copier()


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
        return (self.first_dealer + len(self.results)) % self.players

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
        next_dealer = (self.first_dealer + len(results)) % self.players
        return replace(self, totals=totals, results=results, redeals=0,
                       hand=Hand.new(self.ruleset, self.players, next_dealer, self.viewer))
