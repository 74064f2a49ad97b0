"""Bots: players that choose through the same legal-move API as everyone else.

A bot sees only a :class:`~chkobba_p2p.rules.Hand` *view* from its own seat (other hands
unknown).  It answers two questions: which move to play on its turn, and (as cutter)
whether to keep the drawn card.  Bots are deterministic given their ``seed``; their
randomness is for play style only, never for anything secret.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .cards import Card
from .errors import LocalError
from .rules import Hand, Move

__all__ = ["Bot", "RandomBot", "GreedyBot", "LEVELS", "make_bot", "move_gain"]


class Bot(Protocol):
    """What a seat controller needs from a bot."""

    level: str

    def choose_play(self, hand: Hand) -> Move:
        """The move for ``hand.turn`` (the bot's own seat), one of ``hand.legal_moves()``."""
        ...

    def choose_cut(self, hand: Hand) -> bool:
        """As cutter, with the drawn card in hand: True keeps it, False places it."""
        ...


def _own_view_check(hand: Hand) -> None:
    if hand.viewer is None:
        # A bot is handed its seat's view, never the omniscient state.
        raise LocalError("bots play from a seat's view: pass hand.view(seat)")


class RandomBot:
    """Uniformly random among legal moves."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_play(self, hand: Hand) -> Move:
        _own_view_check(hand)
        if hand.ruleset.forced_capture:
            return self._rng.choice(hand.legal_moves())
        # A random card, then a random capture for it: every legal move stays possible
        # without generating them all.
        played = self._rng.choice(hand.hand_of(hand.turn))
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

    def __init__(self, seed: int | None = None) -> None:
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


#: Bot levels by name; stronger levels register themselves here.
LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of the named level (see :data:`LEVELS`)."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise LocalError(f"unknown bot level {level!r}; choose among {', '.join(LEVELS)}") from None
    return factory(seed)
