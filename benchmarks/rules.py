"""Rules-engine speed: whole random-vs-random 2-player hands, and legal-move generation.

``hands_per_s`` drives the engine with a uniformly random legal move each turn;
``hands_per_s_bots_on_views`` plays the same hands through RandomBot, each bot handed
its seat's view every turn (as simulate and the peers do); ``expert_moves_per_s_20_samples``
is the bots' search (the expert deciding on 20 sampled worlds).

With ``--compare DIR`` (a checkout of Khalil-Ba5/Chkobba, whose engine is
``engine/game_state.py``) the same run also plays that engine's random 2-player hands
(each turn a uniformly random move among its ``legal_moves()``, applied with its
validating ``apply_move``, then ``round_points()``), alternating rounds with ours so that
both meet the same machine load, and prints the ratio.

Run: python benchmarks/rules.py [--seconds S] [--compare DIR]
Prints one figure per line (`name: value unit`); medians of 5 rounds, in process CPU time
(so that other work on a shared machine skews the figures less).
Goals: at least 2,000 hands/s in one process (issue 2); at least 5x the other engine
through the public model (issue 29).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots.simple import RandomBot  # noqa: E402
from chkobba_p2p.bots.simulate import play_hand  # noqa: E402
from chkobba_p2p.game.cards import DECK  # noqa: E402
from chkobba_p2p.game.rules import CutterChoice, DealStep, Hand, Redeal, Ruleset, Turn  # noqa: E402


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


def other_hands_per_second(game_state: Any, seconds: float, seed: int) -> float:
    """The other engine's random hands: its own deal, a random legal move each turn, scored."""
    rng = random.Random(seed)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game_state.create_initial_state(rng.getrandbits(32))
        while not state.is_round_over:
            state.apply_move(rng.choice(state.legal_moves()))
        state.round_points()
        n += 1
    return n / (time.process_time() - start)


def load_other_engine(checkout: Path) -> Any:
    """``engine.game_state`` of a Khalil-Ba5/Chkobba checkout (imported from ``checkout``)."""
    if not (checkout / "engine" / "game_state.py").is_file():
        raise SystemExit(f"{checkout} holds no engine/game_state.py (a Khalil-Ba5/Chkobba "
                         "checkout is expected)")
    sys.path.insert(0, str(checkout.resolve()))
    return importlib.import_module("engine.game_state")


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


def expert_moves_per_second(seconds: float, seed: int) -> float:
    """The bots' search: the expert's decisions (a fixed 20 sampled worlds each, no clock)
    on positions of random hands seen from the seat to play."""
    from chkobba_p2p.bots.expert import ExpertBot

    views = [h.view(h.turn) for h in random_positions(300, seed)]
    views = [v for v in views if len(v.legal_moves()) > 1]
    bot = ExpertBot(seed, move_ms=None, samples=20)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for v in views[:50]:
            bot.choose_play(v)
        n += 50
        views = views[50:] + views[:50]
    return n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0, help="per round (5 rounds)")
    ap.add_argument("--compare", type=Path, metavar="DIR",
                    help="a checkout of Khalil-Ba5/Chkobba to measure alongside")
    args = ap.parse_args()
    other = None if args.compare is None else load_other_engine(args.compare)
    hands: list[float] = []
    others: list[float] = []
    for s in range(5):  # alternate the two engines round by round
        hands.append(hands_per_second(args.seconds, s))
        if other is not None:
            others.append(other_hands_per_second(other, args.seconds, s))
    bot_hands = [bot_hands_per_second(args.seconds, s) for s in range(5)]
    gens = [movegen_per_second(args.seconds, s) for s in range(5)]
    print(f"hands_per_s: {statistics.median(hands):.0f} /s")
    if other is not None:
        print(f"other_engine_hands_per_s: {statistics.median(others):.0f} /s")
        ratios = [a / b for a, b in zip(hands, others)]
        print(f"ratio_to_other_engine: {statistics.median(ratios):.2f} x")
    print(f"hands_per_s_bots_on_views: {statistics.median(bot_hands):.0f} /s")
    print(f"legal_move_generations_per_s: {statistics.median(gens):.0f} /s")
    experts = [expert_moves_per_second(args.seconds, s) for s in range(5)]
    print(f"expert_moves_per_s_20_samples: {statistics.median(experts):.1f} /s")


if __name__ == "__main__":
    main()
