"""Fit the learned model of play (chkobba_p2p/bots/learned.py) and write its weights.

Run: python benchmarks/train_policy.py [--expert-hands N] [--samples S] [--seed S]
     [--jobs J] [--out PATH] [--dry-run]

The data recipe (reproducible: every hand is dealt and played from the seed):

* mostly the expert's own decisions (the target is strong play): hands of the expert
  against itself at 2 players, with a fixed number of sampled worlds per move
  (``--samples``, no clock: the same seed gives the same moves), and a quarter as many
  at 4 players;
* some decisions of the weaker levels (heuristic and greedy, against the expert), so
  that the model also knows how a weaker seat plays.

Only decisions with more than one legal move count.  Each is recorded from the deciding
seat's view (its table, its hand, the cards it has not seen, the stock), as the bot would
see it.  The model is a conditional logit over :data:`chkobba_p2p.bots.learned.FEATURES`,
fitted by full-batch gradient ascent (Adam) on the log-likelihood with a small L2 penalty;
one hand in five (chosen by the seed) is held out.  The script prints the held-out accuracy
(the model's most likely move is the one played) overall and on the expert's decisions
alone, next to a uniform guess (the mean of 1/number of moves) and two greedy guesses (the
greedy level's move; the expert's rollout policy's move), and writes the weights.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.bots.expert import ExpertBot, _policy_scores  # noqa: E402
from chkobba_p2p.bots.learned import FEATURES, WEIGHTS_FILE, PolicyModel, move_features  # noqa: E402
from chkobba_p2p.bots.simple import GreedyBot, HeuristicBot  # noqa: E402
from chkobba_p2p.bots.simulate import play_hand  # noqa: E402
from chkobba_p2p.game._masks import ALL_CARDS, mask_of  # noqa: E402
from chkobba_p2p.game.cards import DECK  # noqa: E402
from chkobba_p2p.game.rules import Hand, Move, Ruleset  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "chkobba_p2p" / "bots" / WEIGHTS_FILE

# One decision: (level, features of each legal move, index of the move played,
# index of the greedy level's move, index of the rollout policy's move).
Decision = tuple[str, list[tuple[float, ...]], int, int, int]


class _Recorder:
    """Wraps a bot: records each of its decisions (with more than one legal move)."""

    def __init__(self, bot, sink: list[Decision]) -> None:
        self.bot = bot
        self.level = bot.level
        self.sink = sink
        self.greedy = GreedyBot(0)

    def choose_play(self, view: Hand) -> Move:
        move = self.bot.choose_play(view)
        me = view.viewer
        held = [int(c) for c in view.hand_of(me)]  # type: ignore[arg-type]
        forced = view.ruleset.forced_capture
        options = move_features(view._tm, held, ALL_CARDS ^ view._known, view.stock, forced)
        if len(options) > 1:
            keys = [(c, o) for c, o, _ in options]
            g = self.greedy.choose_play(view)
            scored = _policy_scores(view._tm, view._tsum, held, forced)
            top = max(scored, key=lambda x: x[2])
            self.sink.append((self.level, [f for _, _, f in options],
                              keys.index((int(move.card), mask_of(move.capture))),
                              keys.index((int(g.card), mask_of(g.capture))),
                              keys.index((top[0], top[1]))))
        return move

    def choose_cut(self, view: Hand) -> bool:
        return self.bot.choose_cut(view)


def _bot(level: str, seed: int, samples: int):
    if level == "expert":
        return ExpertBot(seed, move_ms=None, samples=samples)
    return {"heuristic": HeuristicBot, "greedy": GreedyBot}[level](seed)


def _play(job: tuple[int, int, tuple[str, ...], int, tuple[int, ...]]
          ) -> tuple[int, list[Decision]]:
    """One hand from the seed: (hand number, the decisions of the recorded seats)."""
    number, seed, levels, samples, recorded = job
    rng = random.Random(f"train:{seed}:{number}")
    players = len(levels)
    decisions: list[Decision] = []
    bots = [_Recorder(_bot(lv, rng.randrange(1 << 30), samples), decisions)
            if s in recorded else _bot(lv, rng.randrange(1 << 30), samples)
            for s, lv in enumerate(levels)]
    deck = list(DECK)
    rng.shuffle(deck)
    play_hand(Hand.new(Ruleset(), players, rng.randrange(players)), bots, deck)
    return number, decisions


def collect(expert_hands: int, samples: int, seed: int, jobs: int) -> list[list[Decision]]:
    """The decisions, grouped by hand (the held-out split is by hand)."""
    recipe: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    recipe += [(("expert", "expert"), (0, 1))] * expert_hands
    recipe += [(("expert",) * 4, (0, 1, 2, 3))] * (expert_hands // 4)
    recipe += [(("heuristic", "expert"), (0,))] * (expert_hands // 4)
    recipe += [(("greedy", "expert"), (0,))] * (expert_hands // 8)
    jobs_list = [(i, seed, levels, samples, rec) for i, (levels, rec) in enumerate(recipe)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            found = dict(pool.imap_unordered(_play, jobs_list, chunksize=4))
    else:
        found = dict(map(_play, jobs_list))
    return [found[i] for i in range(len(recipe))]


def _log_likelihood(w: list[float], data: list[Decision], l2: float
                    ) -> tuple[float, list[float]]:
    n = len(w)
    grad = [0.0] * n
    total = 0.0
    for _, feats, chosen, _, _ in data:
        scores = [sum([a * b for a, b in zip(w, f) if b]) for f in feats]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        z = sum(exps)
        total += scores[chosen] - top - math.log(z)
        fc = feats[chosen]
        for k in range(n):
            if fc[k]:
                grad[k] += fc[k]
        for f, e in zip(feats, exps):
            p = e / z
            for k in range(n):
                if f[k]:
                    grad[k] -= p * f[k]
    m = len(data)
    return (total / m - l2 * sum(x * x for x in w),
            [g / m - 2 * l2 * x for g, x in zip(grad, w)])


def fit(data: list[Decision], epochs: int, l2: float = 1e-3, rate: float = 0.05
        ) -> list[float]:
    """Adam on the mean log-likelihood (deterministic: full batch, zero start)."""
    n = len(FEATURES)
    w = [0.0] * n
    m1 = [0.0] * n
    m2 = [0.0] * n
    b1, b2 = 0.9, 0.999
    for t in range(1, epochs + 1):
        ll, g = _log_likelihood(w, data, l2)
        for k in range(n):
            m1[k] = b1 * m1[k] + (1 - b1) * g[k]
            m2[k] = b2 * m2[k] + (1 - b2) * g[k] * g[k]
            w[k] += rate * (m1[k] / (1 - b1 ** t)) / (math.sqrt(m2[k] / (1 - b2 ** t)) + 1e-8)
        if t % 25 == 0 or t == epochs:
            print(f"epoch {t}: mean log-likelihood {ll:.4f}", flush=True)
    return w


def accuracy(model: PolicyModel, data: list[Decision]) -> dict[str, float]:
    if not data:
        return {}
    hit = greedy = rollout = 0
    uniform = 0.0
    for _, feats, chosen, g, r in data:
        scores = [model.score(f) for f in feats]
        hit += scores.index(max(scores)) == chosen
        greedy += g == chosen
        rollout += r == chosen
        uniform += 1.0 / len(feats)
    n = len(data)
    return {"model": hit / n, "uniform": uniform / n, "greedy": greedy / n,
            "rollout_policy": rollout / n, "decisions": n}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--expert-hands", type=int, default=100,
                    help="hands of expert against expert at 2 players (the other parts "
                    "of the recipe scale with it)")
    ap.add_argument("--samples", type=int, default=24,
                    help="sampled worlds per expert move while collecting")
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--dry-run", action="store_true", help="fit and report, write nothing")
    args = ap.parse_args()
    start = time.perf_counter()
    hands = collect(args.expert_hands, args.samples, args.seed, args.jobs)
    rng = random.Random(args.seed)
    train: list[Decision] = []
    held: list[Decision] = []
    for h in hands:
        (held if rng.random() < 0.2 else train).extend(h)
    print(f"decisions: {len(train)} training, {len(held)} held out "
          f"({sum(d[0] == 'expert' for d in train + held)} by the expert); "
          f"collected in {time.perf_counter() - start:.0f} s", flush=True)
    model = PolicyModel(fit(train, args.epochs))
    for name, part in (("held_out", held),
                       ("held_out_expert", [d for d in held if d[0] == "expert"]),
                       ("held_out_weaker", [d for d in held if d[0] != "expert"])):
        acc = accuracy(model, part)
        if acc:
            print(f"{name}: accuracy {acc['model']:.3f} over {acc['decisions']:.0f} decisions "
                  f"(uniform {acc['uniform']:.3f}, greedy level {acc['greedy']:.3f}, "
                  f"rollout policy {acc['rollout_policy']:.3f})")
    model.accuracy = round(accuracy(model, held)["model"], 3)
    for name, w in zip(FEATURES, model.weights):
        print(f"  {name:>18} {w:+.3f}")
    if not args.dry_run:
        args.out.write_text(model.to_json(), "utf-8")
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    print(f"elapsed: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
