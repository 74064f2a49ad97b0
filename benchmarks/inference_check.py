"""How well the expert's inference finds the cards the other seat really holds.

Run: python benchmarks/inference_check.py [--hands N] [--worlds W] [--samples S] [--seed S]

Plays hands of the expert against itself (``--samples`` worlds a move, no clock), and at
each of seat 0's decisions with a stock and a play of seat 1 earlier in the round samples
``--worlds`` worlds from seat 0's view.  For each way of weighing the worlds -- none (the
baseline), the expert's hand-written model (issue 28) and the learned model (issue 45) --
it prints the weighted chance the worlds give each card seat 1 really holds (higher is
better; none gives the uniform share) and the effective number of worlds left after
weighing (Kish: (sum w)^2 / sum w^2, out of ``--worlds``).  No playout: a figure of the
inference alone, cheap enough for a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots.expert import (  # noqa: E402
    ExpertBot,
    determinize,
    model_round_plays,
    model_world_weight,
    round_plays,
    world_weight,
)
from chkobba_p2p.bots.learned import PolicyModel, load_model  # noqa: E402
from chkobba_p2p.game.cards import DECK  # noqa: E402
from chkobba_p2p.game.hand import CutterChoice, DealStep, Turn  # noqa: E402
from chkobba_p2p.game.rules import Hand, Move, Ruleset  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=300)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="divide the learned model's scores by this (below 1: sharper)")
    args = ap.parse_args()
    model = load_model()
    if args.temperature != 1.0:
        model = PolicyModel([w / args.temperature for w in model.weights])
    rng = random.Random(args.seed)
    found: dict[str, list[float]] = {"none": [], "hand-written": [], "learned": []}
    ess: dict[str, list[float]] = {k: [] for k in found}
    positions = 0

    class Probe:
        level = "probe"

        def __init__(self, bot: ExpertBot) -> None:
            self.bot = bot
            self.hand: Hand | None = None

        def choose_play(self, view: Hand) -> Move:
            nonlocal positions
            truth = set(self.hand.hands[1]) if self.hand is not None else set()
            plays = round_plays(view)
            if view.stock and plays and truth:
                positions += 1
                mplays = model_round_plays(view)
                worlds = [determinize(view, rng) for _ in range(args.worlds)]
                weights = {"none": [1.0] * len(worlds),
                           "hand-written": [world_weight(w, plays) for w in worlds],
                           "learned": [model_world_weight(w, mplays, model) for w in worlds]}
                for name, ws in weights.items():
                    total = sum(ws)
                    share = sum(w * len(truth & set(x.hands[1])) for w, x in zip(ws, worlds))
                    found[name].append(share / total / len(truth))
                    ess[name].append(total * total / sum(w * w for w in ws))
            return self.bot.choose_play(view)

        def choose_cut(self, view: Hand) -> bool:
            return self.bot.choose_cut(view)

    for k in range(args.hands):
        probe = Probe(ExpertBot(k, move_ms=None, samples=args.samples))
        other = ExpertBot(k + 1000, move_ms=None, samples=args.samples)
        deck = list(DECK)
        random.Random(f"inference:{args.seed}:{k}").shuffle(deck)
        hand = Hand.new(Ruleset(), 2, k % 2)

        # Drive the hand here so that the probe can read the true hand of seat 1.
        bots: list[Probe | ExpertBot] = [probe, other]
        while True:
            step = hand.pending
            if isinstance(step, Turn):
                probe.hand = hand
                move = bots[step.seat].choose_play(hand.view(step.seat))
                hand = hand.play(step.seat, move.card, move.capture)
            elif isinstance(step, DealStep):
                n = len(step.recipients)
                hand = hand.deal(deck[:n])
                del deck[:n]
            elif isinstance(step, CutterChoice):
                hand = hand.choose_cut(bots[step.seat].choose_cut(hand.view(step.seat)))
            else:
                break
    print(f"positions: {positions} (seat 0's decisions after a play of seat 1 this round)")
    for name in found:
        f = found[name]
        m = statistics.fmean(f)
        half = 1.96 * statistics.stdev(f) / len(f) ** 0.5
        print(f"true_card_share_{name}: {m:.4f} (95% CI {m - half:.4f}..{m + half:.4f}); "
              f"effective worlds {statistics.fmean(ess[name]):.0f} of {args.worlds}")
        if name != "none":
            d = [a - b for a, b in zip(f, found["none"])]
            m = statistics.fmean(d)
            half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
            print(f"gain_over_none_{name}: {m:+.4f} (95% CI {m - half:+.4f}..{m + half:+.4f})")
    d = [a - b for a, b in zip(found["learned"], found["hand-written"])]
    m = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
    print(f"learned_minus_hand_written: {m:+.4f} (95% CI {m - half:+.4f}..{m + half:+.4f})")


if __name__ == "__main__":
    main()
