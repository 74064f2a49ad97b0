"""Offline matches between bots: the engine omniscient, a plain shuffled deck.

This is for simulation, benchmarks and tests only: the deck here is shuffled by a seeded
``random.Random`` so a seed reproduces a match.  Real games deal through
:mod:`chkobba_p2p.deal`, where nobody controls or sees the deck.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game.cards import DECK, Card
from ..game.hand import CutterChoice, DealStep, Hand, Redeal, Turn, resolve_first_dealer
from ..game.match import Match
from ..game.record import MatchRecorder
from ..game.ruleset import Ruleset
from ..game.seating import Seating
from .levels import BotError
from .simple import Bot

__all__ = ["draw_first_dealer", "play_hand", "play_match", "SimulationSummary", "simulate"]


def draw_first_dealer(players: int, rng: random.Random) -> int:
    """Everyone draws; the lowest deals; tied players draw again (from a fresh deck)."""
    seats = list(range(players))
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        outcome = resolve_first_dealer(dict(zip(seats, deck)))
        if isinstance(outcome, int):
            return outcome
        seats = list(outcome)


def play_hand(hand: Hand, bots: Sequence[Bot], deck: list[Card]) -> Hand:
    """Drive an omniscient hand until it is over or calls for a redeal.

    ``deck`` is consumed from the front.  Bots get their own seat's view only.
    """
    while True:
        step = hand.pending
        if isinstance(step, Turn):
            seat = step.seat
            move = bots[seat].choose_play(hand.view(seat))
            hand = hand.play(seat, move.card, move.capture)
        elif isinstance(step, DealStep):
            n = len(step.recipients)
            hand = hand.deal(deck[:n])
            del deck[:n]
        elif isinstance(step, CutterChoice):
            keep = bots[step.seat].choose_cut(hand.view(step.seat))
            hand = hand.choose_cut(keep)
        else:  # HandOver or Redeal
            return hand


def play_match(ruleset: Ruleset, bots: Sequence[Bot], rng: random.Random, *,
               match_number: int = 1, seats: Sequence[str] | None = None,
               max_hands: int | None = None) -> tuple[Match, list[dict[str, Any]]]:
    """A whole match between ``bots`` (one per seat); returns it and its records.

    ``max_hands`` (default: ten hands per point of the target) guards against bots that
    never score; past it :class:`~.levels.BotError` (``no_winner``) is raised.
    """
    if max_hands is None:
        max_hands = 10 * ruleset.target + 50
    players = len(bots)
    seats = list(seats) if seats is not None else [b.level for b in bots]
    m = Match.new(ruleset, players, draw_first_dealer(players, rng))
    recorder = MatchRecorder(match_number, seats)
    while not m.is_over:
        if len(m.results) >= max_hands:
            raise BotError(f"no winner after {max_hands} hands", code="no_winner",
                           data={"hands": max_hands})
        deck = list(DECK)
        rng.shuffle(deck)
        assert m.hand is not None
        hand = play_hand(m.hand, bots, deck)
        if isinstance(hand.pending, Redeal):
            recorder.note_redeal(hand)
            m = m.with_hand(hand).redeal()
            continue
        m = m.with_hand(hand).finish_hand()
        recorder.note_hand(m, hand)
    return m, recorder.records


@dataclass
class SimulationSummary:
    """What :func:`simulate`'s matches gave, as data (a client words it): per side (a
    seat, or a team at 4 players), the matches won and the points scored."""

    players: int
    matches: int = 0
    hands: int = 0
    redeals: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    chkobbas: int = 0


def simulate(ruleset: Ruleset, bots: Sequence[Bot], games: int, seed: int,
             records: list[dict[str, Any]] | None = None) -> SimulationSummary:
    """Play ``games`` matches; same seed, same matches.  Appends records if given a list."""
    rng = random.Random(seed)
    players = len(bots)
    sides = Seating.of(players).sides
    summary = SimulationSummary(players, wins=[0] * sides, points=[0] * sides)
    for g in range(1, games + 1):
        m, recs = play_match(ruleset, bots, rng, match_number=g)
        summary.matches += 1
        summary.hands += len(m.results)
        summary.wins[m.winner] += 1  # type: ignore[index]
        for r in m.results:
            summary.redeals += r.redeals
            summary.chkobbas += sum(r.score.chkobbas)
            for side, p in enumerate(r.score.points):
                summary.points[side] += p
        if records is not None:
            records.extend(recs)
    return summary
