"""Rules-engine speed: whole random-vs-random 2-player hands, and legal-move generation.

``hands_per_s`` drives the engine with a uniformly random legal move each turn;
``hands_per_s_bots_on_views`` plays the same hands through RandomBot, each bot handed
its seat's view every turn (as simulate and the peers do).

Run: python benchmarks/rules.py [--seconds S]
Prints one figure per line (`name: value unit`); medians of 5 rounds, in process CPU time
(so that other work on a shared machine skews the figures less).
Goal (issue 2): at least 2,000 hands/s in one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots import RandomBot  # noqa: E402
from chkobba_p2p.cards import DECK  # noqa: E402
from chkobba_p2p.rules import CutterChoice, DealStep, Hand, Redeal, Ruleset, Turn  # noqa: E402
from chkobba_p2p.simulate import play_hand  # noqa: E402


def play_random_hand(rng: random.Random, rules: Ruleset, dealer: int,
                     positions: list[Hand] | None = None) -> Hand:
    """A whole hand with a uniformly random legal move each turn (positions kept if asked)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hand = Hand.new(rules, 2, dealer)
    while True:
        step = hand.pending
        if type(step) is Turn:
            if positions is not None:
                positions.append(hand)
            hand = hand.apply(rng.choice(hand.legal_moves()))
        elif type(step) is DealStep:
            k = len(step.recipients)
            hand = hand.deal(deck[:k])
            del deck[:k]
        elif type(step) is CutterChoice:
            hand = hand.choose_cut(rng.random() < 0.5)
        else:
            return hand


def hands_per_second(seconds: float, seed: int) -> float:
    """The engine alone: each turn a uniformly random legal move of the omniscient hand."""
    rng = random.Random(seed)
    rules = Ruleset()
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play_random_hand(rng, rules, n % 2)
        n += 1
    return n / (time.process_time() - start)


def bot_hands_per_second(seconds: float, seed: int) -> float:
    """As real bots play: each bot is handed its own seat's view every turn."""
    rng = random.Random(seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    rules = Ruleset()
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deck = list(DECK)
        rng.shuffle(deck)
        hand = play_hand(Hand.new(rules, 2, n % 2), bots, deck)
        assert hand.is_over or isinstance(hand.pending, Redeal)
        n += 1
    return n / (time.process_time() - start)


def random_positions(count: int, seed: int) -> list[Hand]:
    """Positions met in real play: snapshots of random hands at every turn."""
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < count:
        play_random_hand(rng, Ruleset(), 0, out)
    return out[:count]


def movegen_per_second(seconds: float, seed: int) -> float:
    positions = random_positions(2000, seed)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for h in positions:
            h.legal_moves()
        n += len(positions)
    return n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0, help="per round (5 rounds)")
    args = ap.parse_args()
    hands = [hands_per_second(args.seconds, s) for s in range(5)]
    bot_hands = [bot_hands_per_second(args.seconds, s) for s in range(5)]
    gens = [movegen_per_second(args.seconds, s) for s in range(5)]
    print(f"hands_per_s: {statistics.median(hands):.0f} /s")
    print(f"hands_per_s_bots_on_views: {statistics.median(bot_hands):.0f} /s")
    print(f"legal_move_generations_per_s: {statistics.median(gens):.0f} /s")


if __name__ == "__main__":
    main()
