"""Bots: players that choose through the same legal-move API as everyone else.

A bot sees only a :class:`~chkobba_p2p.game.rules.Hand` *view* from its own seat (other hands
unknown).  It answers two questions: which move to play on its turn, and (as cutter)
whether to keep the drawn card.  Bots are deterministic given their ``seed`` (the
``expert`` also reads a clock for its time budget); their randomness is for play style
only, never for anything secret.

Levels, weakest first (:data:`chkobba_p2p.bots.levels.LEVELS`,
:func:`chkobba_p2p.bots.levels.make_bot`):

* ``random``: any legal move.
* ``greedy``: the most valuable capture now, else the least useful drop.
* ``heuristic``: :class:`HeuristicBot`, a one-ply expectation with card counting: what a
  move takes, minus what the next seat (an opponent) is expected to take in reply, given
  the cards still unseen from the bot's seat.
* ``expert``: :class:`chkobba_p2p.bots.expert.ExpertBot`, determinized Monte Carlo over its own
  moves (each sampled world weighed by the other seats' plays of the round, match-aware
  near the target) with an exact endgame once the stock is empty at 2 players;
  ``move_ms`` per move.

At 4 players every level plays for its team: captures and points are counted per side.

A bot may also play for the match rather than the hand (:class:`MatchAware`, optional):
whoever drives it -- the arena, or a real table's
:class:`~chkobba_p2p._shell.peer.BotController` -- tells it the match totals and the target
before each hand; a bot without ``see_match`` is simply never told.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Protocol

from ..game._masks import capture_options
from ..game.cards import Card
from ..game.hand import Hand, Move, side_of
from .errors import BotError

__all__ = [
    "Bot",
    "MatchAware",
    "RandomBot",
    "GreedyBot",
    "HeuristicBot",
    "HeuristicWeights",
    "move_gain",
]


class Bot(Protocol):
    """What a seat controller needs from a bot."""

    level: str

    def choose_play(self, hand: Hand) -> Move:
        """The move for ``hand.turn`` (the bot's own seat), one of ``hand.legal_moves()``."""
        ...

    def choose_cut(self, hand: Hand) -> bool:
        """As cutter, with the drawn card in hand: True keeps it, False places it."""
        ...


class MatchAware(Protocol):
    """What a bot that plays for the match has besides :class:`Bot` (optional: its
    drivers look for it with ``getattr``; :class:`chkobba_p2p.bots.expert.ExpertBot` has it)."""

    def see_match(self, totals: Sequence[int], target: int) -> None:
        """Before each hand: the match totals by side before it (a side is a seat at 2
        and 3 players; at 4, side 0 is seats 0 and 2) and the target.  At a real table
        these come from the peer's own rules engine, from the signed transcript."""
        ...


def _own_view_check(hand: Hand) -> None:
    if hand.viewer is None:
        # A bot is handed its seat's view, never the omniscient state.
        raise BotError("bots play from a seat's view: pass hand.view(seat)",
                       code="not_a_seat_view")


class RandomBot:
    """Uniformly random among legal moves."""

    level = "random"

    def __init__(self, seed: int | None = None, *, move_ms: float | None = None) -> None:
        # move_ms is accepted for a uniform factory signature; this level is instant.
        self._rng = random.Random(seed)

    def choose_play(self, hand: Hand) -> Move:
        _own_view_check(hand)
        if hand.ruleset.forced_capture:
            return self._rng.choice(hand.legal_moves())
        # A random card, then a random capture for it: every legal move stays possible
        # without generating them all.
        played = self._rng.choice(hand.hand_of(hand.turn))
        if played is None:
            raise BotError("a bot plays only on its own seat's turn", code="not_its_turn")
        options = hand.captures_for(played)
        return Move(played, self._rng.choice(options) if options else frozenset())

    def choose_cut(self, hand: Hand) -> bool:
        _own_view_check(hand)
        return self._rng.random() < 0.5


def move_gain(move: Move, hand: Hand) -> float:
    """Immediate worth of a move: what it takes now, and what a drop leaves exposed."""
    if not move.capture:
        c = move.card
        table_sum = sum(t.value for t in hand.table) + c.value
        # Giving away a seven, a diamond or the haya costs; a table summing past 10
        # cannot be swept by a single card.
        cost = 3.0 * c.is_haya + 1.0 * (c.value == 7) + 0.5 * c.is_diamond
        exposure = 0.0 if table_sum > 10 else 1.5
        return -cost - exposure - c.value * 0.01
    taken: list[Card] = [move.card, *move.capture]
    gain = len(taken) * 0.25
    gain += sum(0.5 for c in taken if c.is_diamond)
    gain += sum(1.0 for c in taken if c.value == 7)
    gain += sum(0.4 for c in taken if c.value == 6)
    gain += sum(3.0 for c in taken if c.is_haya)
    if len(move.capture) == len(hand.table) and not hand.is_last_deal:
        gain += 4.0  # chkobba (never on the last play, but close enough for a greedy bot)
    return gain


class GreedyBot:
    """Takes the most valuable capture now; otherwise drops the least useful card."""

    level = "greedy"

    def __init__(self, seed: int | None = None, *, move_ms: float | None = None) -> None:
        # move_ms is accepted for a uniform factory signature; this level is instant.
        self._rng = random.Random(seed)

    def choose_play(self, hand: Hand) -> Move:
        _own_view_check(hand)
        moves = hand.legal_moves()
        best = max(move_gain(m, hand) for m in moves)
        return self._rng.choice([m for m in moves if move_gain(m, hand) == best])

    def choose_cut(self, hand: Hand) -> bool:
        _own_view_check(hand)
        drawn = hand.hand_of(hand.cutter)[0]
        return drawn is not None and (drawn.value == 7 or drawn.is_diamond or drawn.value <= 3)


# --------------------------------------------------------------------------- heuristic


@dataclass(frozen=True)
class HeuristicWeights:
    """The heuristic's worths, in points (roughly: carta is one point over 40 cards...)."""

    card: float = 0.1
    diamond: float = 0.25
    seven: float = 0.4
    six: float = 0.12
    haya: float = 1.0
    chkobba: float = 1.0
    #: Share of a dropped card's worth counted as lost (someone may take it later).
    drop: float = 0.3


class _Counting:
    """What a seat can infer from its view: the unseen cards and the categories' state."""

    __slots__ = ("unseen_by_value", "unseen", "next_hand", "w_card", "w_diamond", "w_seven",
                 "w_six", "last_play", "value_probs", "weights")

    def __init__(self, view: Hand, weights: HeuristicWeights) -> None:
        self.weights = weights
        me = view.viewer
        assert me is not None
        n = view.players
        unseen = view.unseen_cards()
        self.unseen = len(unseen)
        by_value = [0] * 11
        for c in unseen:
            by_value[c.value] += 1
        self.unseen_by_value = by_value
        # The next seat plays right after us, and it is always an opponent (2 and 4
        # players alternate sides); its cards are a uniform draw among the unseen ones.
        self.next_hand = len(view.hand_of((me + 1) % n))
        if self.next_hand == 0 and view.stock:
            self.next_hand = 3  # our card ends the round: he plays first from a new deal
        self.value_probs = [self._holds(by_value[v]) for v in range(11)]
        side = side_of(me, n)
        mine = [0, 0, 0, 0]
        theirs = [0, 0, 0, 0]
        for seat, pile in enumerate(view.piles):
            acc = mine if side_of(seat, n) == side else theirs
            for c in pile:
                acc[0] += 1
                acc[1] += c.is_diamond
                acc[2] += c.value == 7
                acc[3] += c.value == 6
        # Card counting: once a category is decided, more of its cards are worth nothing.
        def open_(i: int, half: int) -> bool:
            return mine[i] <= half and theirs[i] <= half

        w = weights
        self.w_card = w.card if open_(0, 20) else 0.1 * w.card
        self.w_diamond = w.diamond if open_(1, 5) else 0.0
        self.w_seven = w.seven if open_(2, 2) else 0.0
        self.w_six = w.six if self.w_seven or mine[2] == theirs[2] else 0.0
        self.last_play = view.stock == 0 and sum(len(h) for h in view.hands) == 1

    def _holds(self, k: int) -> float:
        """Probability that the next seat holds at least one of ``k`` unseen cards."""
        u, h = self.unseen, self.next_hand
        if k == 0 or h == 0 or u == 0:
            return 0.0
        if u - k < h:
            return 1.0
        return 1.0 - comb(u - k, h) / comb(u, h)

    def worth(self, c: Card) -> float:
        w = self.w_card
        if c.is_diamond:
            w += self.w_diamond
        if c.value == 7:
            w += self.w_seven
            if c.is_haya:
                w += self.weights.haya
        elif c.value == 6:
            w += self.w_six
        return w


class HeuristicBot:
    """One-ply expectation with card counting.

    A move is worth what it takes now (cards, diamonds, sevens, the haya, a chkobba), at
    their marginal value given the piles so far, minus what the next seat (an opponent)
    is expected to take in reply.  The reply is estimated from the cards unseen from our
    seat: the chance the opponent holds a card of each value follows from how many of that
    value are still unseen and how many cards he holds.  So the bot guards the haya and the
    sevens, avoids leaving a table one card can sweep, and prefers diamonds.
    """

    level = "heuristic"

    def __init__(self, seed: int | None = None, *, move_ms: float | None = None,
                 weights: HeuristicWeights | None = None) -> None:
        # move_ms is accepted for a uniform factory signature; this level is instant.
        self._rng = random.Random(seed)
        self.weights = weights or HeuristicWeights()

    def evaluate(self, view: Hand, moves: list[Move]) -> list[float]:
        """The heuristic worth of each move (in points, roughly) for the seat to play."""
        count = _Counting(view, self.weights)
        return [self._value(view, m, count) for m in moves]

    def _value(self, view: Hand, move: Move, count: _Counting) -> float:
        table = view.table
        c = move.card
        if move.capture:
            gain = count.worth(c) + sum(count.worth(t) for t in move.capture)
            left = tuple(t for t in table if t not in move.capture)
            if not left and not count.last_play:
                gain += count.weights.chkobba
            if count.last_play:
                return gain + sum(count.worth(t) for t in left)
        else:
            left = table + (c,)
            # A card left on the table may be taken by anyone later, and a card kept in
            # hand keeps its chances: dropping something valuable costs a little anyway.
            gain = -count.weights.drop * count.worth(c)
            if count.last_play:
                return gain
        return gain - self._reply_risk(left, count, view.stock == 0)

    def _reply_risk(self, table: tuple[Card, ...], count: _Counting, last_deal: bool) -> float:
        if not table:
            return 0.0
        losses: list[tuple[float, float]] = []
        for v in range(1, 11):
            p = count.value_probs[v]
            if p == 0.0:
                continue
            opts = capture_options(_ANY_OF_VALUE[v], table)
            if not opts:
                continue
            best = 0.0
            for o in opts:
                loss = sum(count.worth(t) for t in o) + count.w_card
                if len(o) == len(table):
                    # A chkobba (at worst: the last play of a hand is not one).
                    loss += count.weights.chkobba
                best = max(best, loss)
            losses.append((best, p))
        losses.sort(reverse=True)
        expected = 0.0
        none_better = 1.0
        for loss, p in losses:
            expected += loss * p * none_better
            none_better *= 1.0 - p
        return expected

    def choose_among(self, view: Hand, moves: list[Move]) -> Move:
        """The best of ``moves`` (a subset of the legal ones) by this heuristic."""
        values = self.evaluate(view, moves)
        best = max(values)
        return self._rng.choice([m for m, v in zip(moves, values) if v >= best - 1e-9])

    def choose_play(self, hand: Hand) -> Move:
        _own_view_check(hand)
        moves = hand.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self.choose_among(hand, moves)

    def choose_cut(self, hand: Hand) -> bool:
        _own_view_check(hand)
        drawn = hand.hand_of(hand.cutter)[0]
        # Keep what scores (sevens, sixes for barmila's tie-break, diamonds); place the
        # rest, which gives the cutter, who plays first, a known card on the table.
        return drawn is not None and (drawn.value in (6, 7) or drawn.is_diamond)


# A card of each value, for asking what a value could capture (suits do not matter).
_ANY_OF_VALUE = {v: Card(v - 1) for v in range(1, 11)}
