"""Bot speed: search rollouts, sampled worlds per expert move, heuristic decisions.

Run: python benchmarks/arena.py [--seconds S] [--move-ms M]
Prints one figure per line (`name: value unit`).  Strength is measured by
``chkobba arena`` instead (it takes minutes; see the issue 7 report).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots import GreedyBot, HeuristicBot  # noqa: E402
from chkobba_p2p.cards import DECK  # noqa: E402
from chkobba_p2p.rules import Hand, Ruleset, Turn  # noqa: E402
from chkobba_p2p.search import ExpertBot, determinize  # noqa: E402
from chkobba_p2p.simulate import play_hand  # noqa: E402


def positions(count: int, seed: int) -> list[Hand]:
    """Seat views met in greedy-vs-greedy play, with a stock (so sampling is needed)."""
    rng = random.Random(seed)
    out: list[Hand] = []
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]

    class Tap:
        level = "tap"

        def __init__(self, inner: GreedyBot) -> None:
            self.inner = inner

        def choose_play(self, hand: Hand):
            if hand.stock and len(hand.legal_moves()) > 1:
                out.append(hand)
            return self.inner.choose_play(hand)

        def choose_cut(self, hand: Hand) -> bool:
            return self.inner.choose_cut(hand)

    while len(out) < count:
        deck = list(DECK)
        rng.shuffle(deck)
        play_hand(Hand.new(Ruleset(), 2, len(out) % 2), [Tap(b) for b in bots], deck)
    return out[:count]


def rollouts_per_second(views: list[Hand], seconds: float) -> float:
    rng = random.Random(1)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for v in views:
            s = determinize(v, rng)
            s.rollout()
            n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--move-ms", type=float, default=200.0)
    args = ap.parse_args()
    views = positions(60, 7)
    print(f"rollouts_per_s: {rollouts_per_second(views, args.seconds):.0f} /s")
    bot = ExpertBot(3, move_ms=args.move_ms)
    samples, times = [], []
    for v in views[:20]:
        assert isinstance(v.pending, Turn)
        t = time.perf_counter()
        bot.choose_play(v)
        times.append(time.perf_counter() - t)
        samples.append(bot.last_samples)
    print(f"expert_worlds_per_move: {statistics.median(samples):.0f} worlds")
    print(f"expert_move_time_max: {1000 * max(times):.1f} ms")
    h = HeuristicBot(3)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for v in views:
            h.choose_play(v)
        n += len(views)
    print(f"heuristic_moves_per_s: {n / (time.perf_counter() - start):.0f} /s")


if __name__ == "__main__":
    main()
