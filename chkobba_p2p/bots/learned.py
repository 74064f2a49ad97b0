"""A learned model of play: how likely a seat is to make each of its legal moves.

A conditional-logit model (issue 45): each legal move of a seat gets a handful of
features read from what that seat can see -- the table, its own hand, the cards it has not
seen yet, whether the stock is empty -- and a score, the dot product of those features
with learned weights; the probability of a move is the softmax of the scores over the
seat's legal moves.  The weights are fitted offline by ``benchmarks/train_policy.py``
(mostly on the expert's own decisions, so that the model predicts strong play) and
shipped as :file:`policy_weights.json` beside this module; inference is pure Python.

The ``learned`` level (:mod:`chkobba_p2p.bots.levels`) uses the model inside the
expert's search: to weigh each sampled world by how likely the other seats' plays of the
round are in it, and to choose the first plies of each playout.

Everything here works on the engine's masks (a card is its id, a set of cards a 40-bit
mask: :mod:`chkobba_p2p.game._masks`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache

from ..game._masks import (
    _BELOW_MASK,
    _RANK_MASK,
    _SAME_MASKS,
    BIT,
    DIAMOND_MASK,
    HAYA_BIT,
    SEVEN_MASK,
    SIX_MASK,
    VALUE,
    capture_masks,
)
from .errors import BotError

__all__ = ["FEATURES", "PolicyModel", "load_model", "move_features", "WEIGHTS_FILE"]

#: The package data file holding the fitted weights.
WEIGHTS_FILE = "policy_weights.json"

#: The features of a move, in the order of the weights (each documented where
#: :func:`move_features` computes it).
FEATURES = (
    "capture", "cards_taken", "worth_taken", "sweep", "haya_taken", "sevens_taken",
    "diamonds_taken", "sixes_taken", "capture_value", "capture_last_round",
    "drop_value", "drop_seven", "drop_diamond", "drop_haya", "drop_six", "drop_pair",
    "rest_sweepable", "rest_threat", "rest_sum", "rest_count", "rest_sevens",
    "rest_diamonds", "rest_haya",
)

_N = len(FEATURES)

# Rough worth of taking a card (tenths of a point), as the expert's rollouts count it.
_WORTH = tuple(
    1.0 + 2.0 * (20 <= i < 30) + 3.0 * (VALUE[i] == 7) + 1.0 * (VALUE[i] == 6)
    + 10.0 * (i == 26)
    for i in range(40)
)


def _count(mask: int) -> int:
    return mask.bit_count()


@lru_cache(maxsize=1 << 16)
def _taken_features(taken: int) -> tuple[float, float, float, float, float, float]:
    """What a capture takes (the played card included): count, worth, haya, sevens,
    diamonds, sixes (cached: the same sets recur in every playout)."""
    worth = 0.0
    m = taken
    while m:
        low = m & -m
        worth += _WORTH[low.bit_length() - 1]
        m ^= low
    return (_count(taken) / 4.0, worth / 10.0, float(bool(taken & HAYA_BIT)),
            _count(taken & SEVEN_MASK) / 2.0, _count(taken & DIAMOND_MASK) / 4.0,
            _count(taken & SIX_MASK) / 2.0)


def _rest_features(rest: int, rest_sum: int, unseen: int) -> tuple[float, ...]:
    """The table left to the next seat: whether one card could sweep it, how many unseen
    cards could (a single card of the table's whole value, none of the same value lying
    on it unless it is the only card), its sum, its size and what lies on it."""
    if not rest:
        return (0.0,) * 7
    sweepable = rest_sum <= 10 and (not rest & _RANK_MASK[rest_sum] or not rest & (rest - 1))
    threat = _count(unseen & _RANK_MASK[rest_sum]) / 4.0 if sweepable else 0.0
    return (float(sweepable), threat, min(rest_sum, 40) / 10.0, _count(rest) / 4.0,
            _count(rest & SEVEN_MASK) / 2.0, _count(rest & DIAMOND_MASK) / 4.0,
            float(bool(rest & HAYA_BIT)))


def _options(card: int, table: int) -> tuple[int, ...]:
    v = VALUE[card]
    same = table & _RANK_MASK[v]
    if same:
        return _SAME_MASKS[same]
    smaller = table & _BELOW_MASK[v]
    return capture_masks(v, table) if smaller & (smaller - 1) else ()


def move_features(table: int, held: Sequence[int], unseen: int, stock: int,
                  forced: bool) -> list[tuple[int, int, tuple[float, ...]]]:
    """Every legal move (card id, capture mask; 0: the card is dropped) of a seat holding
    ``held`` on ``table`` with its features: ``unseen`` is the mask of the cards that
    seat has not seen (in the other hands or the stock), ``stock`` the undealt cards,
    ``forced`` the ruleset's forced capture."""
    tsum = 0
    m = table
    while m:
        low = m & -m
        tsum += VALUE[low.bit_length() - 1]
        m ^= low
    last_round = 1.0 if stock == 0 else 0.0
    held_mask = 0
    for c in held:
        held_mask |= BIT[c]
    out: list[tuple[int, int, tuple[float, ...]]] = []
    drops: list[int] = []
    for c in held:
        opts = _options(c, table)
        if not opts:
            drops.append(c)
            continue
        v = VALUE[c]
        for o in opts:
            rest = table ^ o
            n, worth, haya, sevens, diamonds, sixes = _taken_features(o | BIT[c])
            # A sweep scores a point, except on the hand's very last play.
            sweep = 1.0 if not rest and not (stock == 0 and len(held) == 1) else 0.0
            out.append((c, o, (1.0, n, worth, sweep, haya, sevens, diamonds, sixes,
                               v / 10.0, last_round, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                               *_rest_features(rest, tsum - v, unseen))))
    if drops and not (out and forced):
        for d in drops:
            v = VALUE[d]
            b = BIT[d]
            pair = 1.0 if held_mask & _RANK_MASK[v] & ~b else 0.0
            out.append((d, 0, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                               v / 10.0, float(bool(b & SEVEN_MASK)),
                               float(bool(b & DIAMOND_MASK)), float(bool(b & HAYA_BIT)),
                               float(bool(b & SIX_MASK)), pair,
                               *_rest_features(table | b, tsum + v, unseen))))
    return out


class PolicyModel:
    """The fitted weights and what they give: a score per move and probabilities."""

    def __init__(self, weights: Sequence[float], *, accuracy: float | None = None) -> None:
        if len(weights) != _N or not all(isinstance(w, (int, float)) and math.isfinite(w)
                                         for w in weights):
            raise BotError(f"a policy model has {_N} finite weights", code="model_weights",
                           data={"count": _N})
        self.weights = tuple(float(w) for w in weights)
        #: The held-out accuracy the training script measured (for information).
        self.accuracy = accuracy
        w = self.weights
        # :meth:`best`'s caches: the score of what a capture takes, by its mask; of a
        # table left behind (all but the unseen cards' threat), by its mask; of a drop
        # (all but the pair and the table left), by the card.
        self._taken_part: dict[int, float] = {}
        self._rest_part: dict[int, tuple[float, bool]] = {}
        self._drop_part = tuple(
            w[10] * VALUE[d] / 10.0 + w[11] * bool(BIT[d] & SEVEN_MASK)
            + w[12] * bool(BIT[d] & DIAMOND_MASK) + w[13] * bool(BIT[d] & HAYA_BIT)
            + w[14] * bool(BIT[d] & SIX_MASK) for d in range(40))

    def sharpened(self, factor: float) -> PolicyModel:
        """The model with every score multiplied by ``factor`` (above 1: sharper
        probabilities, the same most likely move)."""
        return PolicyModel([w * factor for w in self.weights], accuracy=self.accuracy)

    def score(self, features: Sequence[float]) -> float:
        return sum([w * f for w, f in zip(self.weights, features) if f])

    def probabilities(self, table: int, held: Sequence[int], unseen: int, stock: int,
                      forced: bool) -> list[tuple[int, int, float]]:
        """Every legal move (card id, capture mask) with its probability under the model
        (they sum to 1)."""
        scored = [(c, o, self.score(f))
                  for c, o, f in move_features(table, held, unseen, stock, forced)]
        if not scored:
            return []
        top = max(s for _, _, s in scored)
        exps = [math.exp(s - top) for _, _, s in scored]
        total = sum(exps)
        return [(c, o, e / total) for (c, o, _), e in zip(scored, exps)]

    def best(self, table: int, held: Sequence[int], unseen: int, stock: int,
             forced: bool) -> tuple[int, int]:
        """The model's most likely move (card id, capture mask); the first on ties.

        The same scores as :meth:`probabilities`, summed from cached parts (what a capture
        takes, what a table left behind holds) rather than from feature vectors: the
        playouts call this at every ply."""
        w = self.weights
        taken_part = self._taken_part
        rest_part = self._rest_part
        tsum = 0
        m = table
        while m:
            low = m & -m
            tsum += VALUE[low.bit_length() - 1]
            m ^= low
        last_round = w[9] if stock == 0 else 0.0
        no_sweep = stock == 0 and len(held) == 1
        best = (held[0], 0)
        top = -1e18
        drops: list[int] = []
        held_mask = 0
        for c in held:
            held_mask |= BIT[c]
        for c in held:
            opts = _options(c, table)
            if not opts:
                drops.append(c)
                continue
            v = VALUE[c]
            base = w[0] + w[8] * v / 10.0 + last_round
            for o in opts:
                taken = o | BIT[c]
                t = taken_part.get(taken)
                if t is None:
                    n, worth, haya, sevens, diamonds, sixes = _taken_features(taken)
                    t = taken_part[taken] = (w[1] * n + w[2] * worth + w[4] * haya
                                             + w[5] * sevens + w[6] * diamonds + w[7] * sixes)
                rest = table ^ o
                if rest:
                    s = base + t + self._rest_score(rest, tsum - v, unseen, rest_part)
                else:
                    s = base + t + (0.0 if no_sweep else w[3])
                if s > top:
                    top, best = s, (c, o)
        if drops and not (top > -1e18 and forced):
            for d in drops:
                v = VALUE[d]
                b = BIT[d]
                s = (self._drop_part[d]
                     + (w[15] if held_mask & _RANK_MASK[v] & ~b else 0.0)
                     + self._rest_score(table | b, tsum + v, unseen, rest_part))
                if s > top:
                    top, best = s, (d, 0)
        return best

    def _rest_score(self, rest: int, rest_sum: int, unseen: int,
                    cache: dict[int, tuple[float, bool]]) -> float:
        found = cache.get(rest)
        if found is None:
            sweepable, _, total, count, sevens, diamonds, haya = _rest_features(rest, rest_sum, 0)
            w = self.weights
            if len(cache) > 1 << 16:
                cache.clear()
            found = cache[rest] = (w[16] * sweepable + w[18] * total + w[19] * count
                                   + w[20] * sevens + w[21] * diamonds + w[22] * haya,
                                   bool(sweepable))
        static, sweepable = found
        if sweepable:
            return static + self.weights[17] * _count(unseen & _RANK_MASK[rest_sum]) / 4.0
        return static

    def to_json(self) -> str:
        return json.dumps({"features": list(FEATURES),
                           "weights": [round(w, 5) for w in self.weights],
                           "accuracy": self.accuracy}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> PolicyModel:
        try:
            data = json.loads(text)
            features = data["features"]
            weights = data["weights"]
            accuracy = data.get("accuracy")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise BotError("the policy weights file is not a model's JSON",
                           code="model_unreadable") from None
        if features != list(FEATURES):
            raise BotError("the policy weights were fitted for other features",
                           code="model_other_features")
        return cls(weights, accuracy=accuracy if isinstance(accuracy, float) else None)


@lru_cache(maxsize=1)
def load_model() -> PolicyModel:
    """The weights shipped with the package (read once)."""
    # Imported here: only a bot that uses the model pays for it (start-up time).
    from importlib import resources

    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text("utf-8")
    return PolicyModel.from_json(text)
