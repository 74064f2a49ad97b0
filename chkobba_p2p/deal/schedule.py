"""Who deals first: the draw, as pure bookkeeping on top of a deal instance.

Every contender draws one card face up from a shuffled deck (a dealing step that opens
one fresh position per contender publicly); the lowest value deals; if several share the
lowest value, only they draw again, from the next positions.  Nobody can steer it: the
positions are fixed in advance and the deck order is uniform as long as one seat shuffled
honestly.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..game.cards import Card
from .crypto import DECK_SIZE
from .errors import DealUsageError

__all__ = ["FirstDealerDraw"]


class FirstDealerDraw:
    """Bookkeeping for the first-dealer draw over one :class:`Deal` (no cutter).

    Loop: ``draw = fd.next_draw()`` (seat -> position), open ``draw.values()`` publicly on
    the deal, then ``fd.record({seat: card})``; it returns the dealer's seat once the draw
    is decided, None while a tie must be drawn again.  Then ``finish(discard=True)`` the deal.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.contenders = list(range(n))
        self.next_pos = 0
        self.dealer: int | None = None
        #: Every round: seat -> card drawn.
        self.rounds: list[dict[int, Card]] = []
        self._current: dict[int, int] | None = None

    def next_draw(self) -> dict[int, int]:
        """Positions the current contenders draw, in seat order."""
        if self.dealer is not None:
            raise DealUsageError("the dealer is already decided", code="dealer_decided")
        if self._current is not None:
            return dict(self._current)
        if self.next_pos + len(self.contenders) > DECK_SIZE:
            raise DealUsageError("the deck is exhausted: draw again on a fresh instance",
                                 code="draw_exhausted")
        self._current = {s: self.next_pos + i for i, s in enumerate(self.contenders)}
        self.next_pos += len(self.contenders)
        return dict(self._current)

    def record(self, cards: Mapping[int, Card]) -> int | None:
        """The cards drawn this round (seat -> card).  Returns the dealer, or None on a tie."""
        if self._current is None or set(cards) != set(self._current):
            raise DealUsageError("record() needs one card per contender of the current draw",
                                 code="draw_cards")
        self._current = None
        self.rounds.append(dict(cards))
        low = min(c.value for c in cards.values())
        self.contenders = sorted(s for s, c in cards.items() if c.value == low)
        if len(self.contenders) == 1:
            self.dealer = self.contenders[0]
        return self.dealer
