"""How long the coach (``chkobba replay --review``, :mod:`chkobba_p2p.observe.review`) takes.

A 2-player match to 11 (tunisian rules) between greedy bots is played in-process
(:func:`chkobba_p2p.bots.simulate.play_match`, seeded: the same match every run), and every
decision of both players (each play and each cut) is graded with the default number of
sampled worlds, in this one process.  Printed as ``name: value unit`` lines: the match's
size, seconds per graded decision (the mean, and the slowest), and the whole match.

    python benchmarks/review.py [--samples N] [--seed N] [--players 2|4]

Goal (issue 24): a whole 2-player match to 11 reviewed in under a minute on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chkobba_p2p.bots.levels import make_bot  # noqa: E402
from chkobba_p2p.bots.simulate import play_match  # noqa: E402
from chkobba_p2p.game.rules import PRESETS  # noqa: E402
from chkobba_p2p.observe.review import DEFAULT_SAMPLES, review_records  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(2, 4), default=2)
    args = ap.parse_args()
    bots = [make_bot("greedy", args.seed + i) for i in range(args.players)]
    _, records = play_match(PRESETS["tunisian"], bots, random.Random(args.seed))
    hands = sum(1 for r in records if r["type"] == "hand")
    stamps: list[float] = []
    start = time.perf_counter()
    review = review_records(records, samples=args.samples, seed=args.seed,
                            progress=lambda done, total: stamps.append(time.perf_counter()))
    whole = time.perf_counter() - start
    steps = [b - a for a, b in zip([start, *stamps], stamps, strict=False)]
    n = len(review.grades)
    graded = [g for g in review.grades if g.label != "forced"]
    tag = f"{args.players}p"
    print(f"review_{tag}_hands: {hands} hands")
    print(f"review_{tag}_decisions: {n} decisions ({len(graded)} not forced)")
    print(f"review_{tag}_samples: {args.samples} worlds per decision")
    print(f"review_{tag}_per_decision: {whole / max(1, n):.4f} s")
    print(f"review_{tag}_per_unforced_decision: {whole / max(1, len(graded)):.4f} s")
    print(f"review_{tag}_slowest_decision: {max(steps, default=0.0):.4f} s")
    print(f"review_{tag}_whole_match_to_11: {whole:.2f} s")


if __name__ == "__main__":
    main()
