"""Positions for the bots' tests: omniscient hands met in greedy play, each with the rest of
its deck in dealing order (what the exact search and the measurement levels start from)."""

from __future__ import annotations

import random

from chkobba_p2p.bots.simple import GreedyBot
from chkobba_p2p.game.cards import DECK, Card
from chkobba_p2p.game.rules import CutterChoice, DealStep, Hand, Ruleset, Turn

TUNISIAN = Ruleset()


def greedy_positions(players: int, stock: int, count: int, seed: int,
                     rules: Ruleset = TUNISIAN) -> list[tuple[Hand, list[Card]]]:
    """``count`` omniscient hands met in greedy play with ``stock`` cards left and a choice
    to make (one per deck), each with the rest of its deck in dealing order."""
    rng = random.Random(seed)
    found: list[tuple[Hand, list[Card]]] = []
    while len(found) < count:
        deck = list(DECK)
        rng.shuffle(deck)
        hand = Hand.new(rules, players, rng.randrange(players))
        bots = [GreedyBot(s) for s in range(players)]
        taken = False
        while not hand.is_over:
            step = hand.pending
            if isinstance(step, Turn):
                if not taken and hand.stock == stock and len(hand.legal_moves()) > 1:
                    found.append((hand, list(deck)))
                    taken = True
                move = bots[step.seat].choose_play(hand.view(step.seat))
                hand = hand.play(step.seat, move.card, move.capture)
            elif isinstance(step, DealStep):
                n = len(step.recipients)
                hand = hand.deal(deck[:n])
                del deck[:n]
            elif isinstance(step, CutterChoice):
                hand = hand.choose_cut(True)
            else:  # a redeal: this deck is done with
                break
    return found
