"""The shape of the table: one value, and the only place that knows it.

A :class:`Seating` says, for a number of players, how many **sides** score (2 at 2
players, 3 at 3 each for themselves, 2 at 4 in two teams of partners facing each other),
which side each seat scores for, who is whose partner, the **order of play** (counter-
clockwise: seat ``s + 1`` plays after seat ``s``), who **deals** each hand (the deal
passes to the next seat after every hand), who **cuts** (the seat on the dealer's right,
who also plays first), how many rounds of three a hand deals, and what a resignation
leaves (the other side wins at 2 and 4; at 3 the match stops and nobody wins).

Every other module asks it (``Seating.of(players)``): after this, a table shape is a
change to this value and its tests.  ``ONLINE`` is the shapes a live table seats
(``chkobba host --players N``); ``SHAPES`` the ones the rules engine plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .errors import GameUsageError, shown

__all__ = ["Seating", "SHAPES", "ONLINE", "MAX_PLAYERS"]

#: Every table shape the rules engine plays: 2, 3 (each for themselves) or 4 (two teams).
SHAPES = (2, 3, 4)
#: The shapes a live table seats (host, join, watch, replay).
ONLINE = SHAPES
#: The most seats a table has.
MAX_PLAYERS = max(SHAPES)

#: Cards in the deck, and dealt to the table at the opening of a hand.
_DECK, _OPENING_TABLE, _ROUND = 40, 4, 3


@dataclass(frozen=True, slots=True)
class Seating:
    """The shape of a table of ``players`` seats (0 is the host, play passes to seat+1)."""

    players: int

    def __post_init__(self) -> None:
        if self.players not in SHAPES:
            raise GameUsageError(f"Chkobba is played by 2, 3 or 4 players, not "
                                 f"{self.players!r}", code="players_unsupported",
                                 data={"players": shown(self.players)})

    @staticmethod
    @cache
    def of(players: int) -> Seating:
        """The seating of a ``players``-seat table (one value per shape)."""
        return Seating(players)

    # ------------------------------------------------------------------ sides

    @property
    def teams(self) -> bool:
        """Partners share a side (4 players); otherwise each seat is a side of its own."""
        return self.players == 4

    @property
    def sides(self) -> int:
        """How many sides score: the length of a match's totals."""
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for: partners face each other at 4 players."""
        self.check_seat(seat)
        return seat % 2 if self.teams else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``, in seat order."""
        if not 0 <= side < self.sides:
            raise GameUsageError(f"sides are numbered 0..{self.sides - 1}, not {side!r}",
                                 code="side_out_of_range",
                                 data={"side": shown(side), "sides": self.sides})
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def partner_of(self, seat: int) -> int | None:
        """The partner facing ``seat`` (4 players); None when each plays for themselves."""
        self.check_seat(seat)
        return (seat + 2) % 4 if self.teams else None

    def opponents_of(self, seat: int) -> tuple[int, ...]:
        """The seats on other sides than ``seat``'s, in order of play after it."""
        side = self.side_of(seat)
        after = [(seat + k) % self.players for k in range(1, self.players)]
        return tuple(s for s in after if self.side_of(s) != side)

    # ------------------------------------------------------------- the order

    def next(self, seat: int) -> int:
        """The seat that plays after ``seat`` (counter-clockwise: on its right)."""
        self.check_seat(seat)
        return (seat + 1) % self.players

    def order_from(self, first: int) -> tuple[int, ...]:
        """Every seat once, in order of play from ``first``."""
        self.check_seat(first)
        return tuple((first + k) % self.players for k in range(self.players))

    def cutter(self, dealer: int) -> int:
        """Who cuts (and plays first) in a hand ``dealer`` deals: the seat on his right."""
        return self.next(dealer)

    def dealer_of(self, first_dealer: int, hands_played: int) -> int:
        """Who deals after ``hands_played`` hands (redeals do not count: the same dealer
        deals again): the deal passes to the next seat after every hand."""
        self.check_seat(first_dealer)
        return (first_dealer + hands_played) % self.players

    @property
    def rounds(self) -> int:
        """Rounds of three cards to every seat in a hand: 6 at 2, 4 at 3, 3 at 4."""
        return (_DECK - _OPENING_TABLE) // (_ROUND * self.players)

    # ----------------------------------------------------------- the match

    def winner_on_resignation(self, seat: int) -> int | None:
        """The side that wins when ``seat`` resigns: the other side at 2 and 4 players;
        at 3 there is no one other side, the match stops and nobody wins (None)."""
        side = self.side_of(seat)
        if self.sides != 2:
            return None
        return 1 - side

    def check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise GameUsageError(f"seats are numbered 0..{self.players - 1}, not {seat!r}",
                                 code="seat_out_of_range",
                                 data={"seat": shown(seat), "players": self.players})

    def __repr__(self) -> str:
        return f"Seating({self.players})"
