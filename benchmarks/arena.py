"""Bot speed, and on request the expert's strength against its yardsticks.

Run: python benchmarks/arena.py [--seconds S] [--move-ms M]
     [--games N [--players 2|4] [--seed S] [--minutes T] [--jobs J] [--clock cpu|wall]
      [--only gain|ceiling | --pair A,B]]
Prints one figure per line (`name: value unit`): search rollouts, sampled worlds per
expert move, heuristic decisions.  With ``--games N`` it also plays N duplicate deals
(2 x N matches) of the expert against ``baseline`` (the expert before issue 28) and of
``omniscient`` (the expert's search seeing every card) against the expert, at
``--move-ms`` per move, and prints each match win rate and point margin per hand with
its 95% interval (Wilson for the rate): the expert's gain, and the value of the
information it lacks.  ``--pair A,B`` measures any two arena levels instead.

``--jobs J`` plays J deals at a time in forked processes; each bot then reads its budget
on its own process's CPU clock (``--clock cpu``, the default), so that every move still
gets ``--move-ms`` of one core however many matches share the machine (``--clock wall``:
the bots' wall clock, as at a real table).  ``--minutes T`` stops each figure after T
minutes (the deals under way finish) and says how many fit.  ``chkobba arena`` measures
any two levels the same way, one deal at a time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots.arena import ArenaResult, mean_interval, play_duplicate_match, wilson_interval  # noqa: E402
from chkobba_p2p.bots.expert import ExpertBot, determinize, rollout  # noqa: E402
from chkobba_p2p.bots.simple import GreedyBot, HeuristicBot  # noqa: E402
from chkobba_p2p.bots.simulate import play_hand  # noqa: E402
from chkobba_p2p.game.cards import DECK  # noqa: E402
from chkobba_p2p.game.rules import Hand, Ruleset, Turn  # noqa: E402


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
            rollout(s)
            n += 1
    return n / (time.perf_counter() - start)


#: The clocks a bot may read its budget on (--clock).
_CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _one_deal(job: tuple[str, str, int, int, int, float, str]) -> ArenaResult:
    a, b, players, seed, i, move_ms, clock = job
    result = ArenaResult(a, b, players)
    play_duplicate_match(Ruleset(), a, b, players, seed, i, move_ms, result, _CLOCKS[clock])
    return result


def _merge(into: ArenaResult, part: ArenaResult) -> None:
    into.matches += part.matches
    into.wins_a += part.wins_a
    into.margins.extend(part.margins)
    into.times_a.extend(part.times_a)
    into.times_b.extend(part.times_b)
    into.cpu_a.extend(part.cpu_a)
    into.cpu_b.extend(part.cpu_b)


def strength(a: str, b: str, games: int, players: int, seed: int, move_ms: float,
             minutes: float | None, jobs: int = 1, clock: str = "cpu") -> None:
    """Up to ``games`` duplicate deals of ``a`` against ``b``; the figures of A."""
    result = ArenaResult(a, b, players)
    start = time.perf_counter()
    deals = [(a, b, players, seed, i, move_ms, clock) for i in range(games)]

    def late() -> bool:
        return minutes is not None and time.perf_counter() - start > 60 * minutes

    if jobs <= 1:
        for job in deals:
            if late():
                break
            _merge(result, _one_deal(job))
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for part in pool.imap_unordered(_one_deal, deals):
                _merge(result, part)
                if late():
                    pool.terminate()
                    break
    name = f"{a}_vs_{b}_{players}p"
    lo, hi = wilson_interval(result.wins_a, result.matches)
    m, mlo, mhi = mean_interval([float(x) for x in result.margins])
    print(f"{name}_matches: {result.matches} matches")
    print(f"{name}_win_rate: {result.win_rate:.3f} (95% CI {lo:.3f}..{hi:.3f})")
    print(f"{name}_margin_per_hand: {m:+.3f} points (95% CI {mlo:+.3f}..{mhi:+.3f})")
    times = result.times_a + result.times_b
    if times:
        cpu = result.cpu_a + result.cpu_b
        print(f"{name}_move_time_max: {1000 * max(times):.1f} ms wall, "
              f"{1000 * max(cpu):.1f} ms CPU")
    print(f"{name}_elapsed: {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--move-ms", type=float, default=200.0)
    ap.add_argument("--games", type=int, default=0,
                    help="duplicate deals for each strength figure (default 0: speed only)")
    ap.add_argument("--players", type=int, choices=(2, 4), default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop each strength figure after this many minutes")
    ap.add_argument("--only", choices=("gain", "ceiling"), default=None,
                    help="one strength figure only: the gain over baseline, or the "
                    "omniscient ceiling")
    ap.add_argument("--pair", default=None, metavar="A,B",
                    help="measure these two arena levels instead (A's figures)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="deals played at a time, in forked processes (default 1)")
    ap.add_argument("--clock", choices=sorted(_CLOCKS), default="cpu",
                    help="what the bots read their budget on (default cpu: each its own "
                    "process's CPU time)")
    args = ap.parse_args()
    print(f"strength_clock: {args.clock}")
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
    print(f"heuristic_moves_per_s: {n / (time.perf_counter() - start):.0f} /s", flush=True)
    if args.games > 0:
        pairs = [("expert", "baseline"), ("omniscient", "expert")]
        if args.pair:
            pairs = [tuple(args.pair.split(",", 1))]  # type: ignore[list-item]
        elif args.only == "gain":
            pairs = pairs[:1]
        elif args.only == "ceiling":
            pairs = pairs[1:]
        for a, b in pairs:
            strength(a, b, args.games, args.players, args.seed, args.move_ms,
                     args.minutes, args.jobs, args.clock)


if __name__ == "__main__":
    main()
