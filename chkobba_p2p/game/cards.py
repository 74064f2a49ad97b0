"""The 40-card deck: values, suits, canonical text and wire ids.

A card is an immutable value with a *value* (1..10, what captures use) and a *suit*.
Its canonical text is the value then the suit letter (``7D``, ``10S``); its wire id is a
stable integer in ``0..39``: ``suit_index * 10 + value - 1`` with suits in the order
spades, hearts, diamonds, clubs (``S H D C``).  So ``1S`` is 0, ``7D`` (el haya) is 26 and
``10C`` is 39.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

__all__ = [
    "Card",
    "Suit",
    "FigureConvention",
    "DECK",
    "HAYA",
    "card",
    "cards",
]


class Suit(Enum):
    """The four suits, in wire order.  Diamonds (dinari) is the point suit."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class FigureConvention(Enum):
    """Which figure is worth 8 and which 9.  Capture values never change; only names do."""

    #: Tunisian usage: Queen (Dame) 8, Jack (Valet) 9, King (Roi) 10.
    TUNISIAN = "tunisian"
    #: French/Italian usage: Jack 8, Queen 9, King 10.
    FRENCH = "french"


_FIGURE_LETTERS = {
    FigureConvention.TUNISIAN: {8: "Q", 9: "J", 10: "K"},
    FigureConvention.FRENCH: {8: "J", 9: "Q", 10: "K"},
}


class Card(int):
    """One card: an immutable, interned value (there are exactly 40 Card objects).

    A Card *is* its wire id, an ``int`` in ``0..39``: it compares, sorts and hashes as
    that number (all in C, which the engine's speed depends on), packs on the wire as
    it, and ``Card(26)`` returns the seven of diamonds.  Build from text with
    :func:`card`; ``str(card)`` is the canonical text.
    """

    #: Capture value, 1 (ace) to 10 (king).
    value: int
    #: Index of the suit in the wire order (``id // 10``).
    _suit_index: int

    def __new__(cls, id: int) -> Card:  # noqa: A002 - the wire id is the card's identity
        if type(id) is not int and type(id) is not Card:
            raise ValueError(f"card id must be an integer in 0..39, not {id!r}")
        try:
            return _INTERNED[id]
        except KeyError:
            raise ValueError(f"card id must be an integer in 0..39, not {id!r}") from None

    @classmethod
    def _make(cls, id: int) -> Card:  # noqa: A002
        c = int.__new__(cls, id)
        object.__setattr__(c, "value", id % 10 + 1)
        object.__setattr__(c, "_suit_index", id // 10)
        return c

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __bool__(self) -> bool:
        # A card is always something, the ace of spades (id 0) included.
        return True

    @property
    def id(self) -> int:
        """The wire id, as a plain int."""
        return int(self)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @property
    def suit(self) -> Suit:
        return _SUIT_ORDER[self._suit_index]

    @property
    def is_diamond(self) -> bool:
        return self._suit_index == 2

    @property
    def is_haya(self) -> bool:
        """The seven of diamonds, *el haya*."""
        return int(self) == 26

    @property
    def text(self) -> str:
        """Canonical text: value then suit letter, e.g. ``7D``."""
        return f"{self.value}{self.suit.value}"

    def label(self, convention: FigureConvention = FigureConvention.TUNISIAN,
              symbols: bool = True) -> str:
        """Short display form: ``7♦``, ``A♠``, ``K♣`` (or ``7D``, ``AS`` without symbols)."""
        v = self.value
        if v == 1:
            rank = "A"
        elif v >= 8:
            rank = _FIGURE_LETTERS[convention][v]
        else:
            rank = str(v)
        return rank + (self.suit.symbol if symbols else self.suit.value)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"card({self.text!r})"


@cache
def _parse(text: str) -> Card:
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in "SHDC" or not t[:-1].isdigit():
        raise ValueError(f"not a card: {text!r} (expected value then suit letter, like 7D)")
    value = int(t[:-1])
    if not 1 <= value <= 10:
        raise ValueError(f"not a card: {text!r} (values run from 1 to 10)")
    return Card(Suit(t[-1]).index * 10 + value - 1)


def card(text: str) -> Card:
    """Parse canonical text (``7D``, ``10s``) into a :class:`Card`; ValueError if malformed."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    return _parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list of cards: ``cards("7D 3H 10C")``."""
    return tuple(card(t) for t in text.split())


_INTERNED: dict[int, Card] = {i: Card._make(i) for i in range(40)}
#: All 40 cards in wire-id order.
DECK: tuple[Card, ...] = tuple(_INTERNED[i] for i in range(40))
#: The seven of diamonds.
HAYA = DECK[26]
