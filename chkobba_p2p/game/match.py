"""A match (:class:`Match`): hands until a side reaches the target, and each finished
hand as the match remembers it (:class:`HandResult`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import GameUsageError
from .hand import Hand, _check_players, sides_count
from .ruleset import Ruleset
from .scoring import HandScore, _strict_winner
from .seating import Seating

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
            raise GameUsageError("the match is over", code="match_over")
        if (hand.ruleset, hand.players, hand.dealer) != (
                current.ruleset, current.players, current.dealer):
            raise GameUsageError("that hand belongs to another match (ruleset, seats or "
                                 "dealer)", code="hand_of_another_match")
        return replace(self, hand=hand)

    def redeal(self) -> Match:
        """The opening called for a redeal: the same dealer deals a fresh hand."""
        if self.hand is None or not self.hand.needs_redeal:
            raise GameUsageError("no redeal is due", code="no_redeal_due")
        return replace(self, hand=Hand.new(self.ruleset, self.players, self.dealer, self.viewer),
                       redeals=self.redeals + 1)

    def finish_hand(self) -> Match:
        """Score the finished hand in progress, update totals, start the next or end."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise GameUsageError("the hand in progress is not over", code="hand_not_over")
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
