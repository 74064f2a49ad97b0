"""No seat controls the deal: if every seat but one shuffles with a fixed permutation that
everyone knows, every card still lands on a uniformly random position.

Each trial is a real run of the deal's key and shuffle phases; the final deck is then
decrypted with the sum of every seat's secret key (test-side arithmetic, not the deal's
code) to find where each card went.  The honest seat's seeds come from the OS CSPRNG, so
the thresholds are set far out (p < 1e-6) to keep the test from ever flaking; the control
runs show the test does see a bias when there is one.
"""

from __future__ import annotations

import math

import pytest

from chkobba_p2p.deal.crypto import POINT_TO_CARD
from chkobba_p2p.deal.group import mul, sub
from chkobba_p2p.deal.local import make_table

N_CARDS = 40
FIXED = [bytes([s + 1]) * 32 for s in range(4)]  # the dishonest seats' known seeds


def chi2_upper_tail(x: float, k: int) -> float:
    """P(chi2_k >= x), Wilson–Hilferty approximation (accurate to ~1e-3 relative here)."""
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def positions_of_cards(n: int, seeds: list[bytes | None]) -> list[int]:
    """Shuffle once for real; return pos[card] in the final deck."""
    t = make_table(n, seeds=seeds)
    t.start()
    x = sum(int.from_bytes(p.to_state()["x"], "little") for p in t.peers)
    deck = t.peers[0].deck
    assert deck is not None
    pos = [0] * N_CARDS
    for i, (c1, c2) in enumerate(deck):
        pos[POINT_TO_CARD[sub(c2, mul(x, c1))]] = i
    return pos


def uniformity(n: int, honest: int, trials: int,
               honest_seeds: list[bytes] | None = None) -> tuple[float, float]:
    """(p-value of the whole card x position table, smallest per-card p-value x 40)."""
    counts = [[0] * N_CARDS for _ in range(N_CARDS)]
    for i in range(trials):
        seeds: list[bytes | None] = [FIXED[s] for s in range(n)]
        seeds[honest] = None if honest_seeds is None else honest_seeds[i % len(honest_seeds)]
        for card, p in enumerate(positions_of_cards(n, seeds)):
            counts[card][p] += 1
    e = trials / N_CARDS
    per_card = [sum((c - e) ** 2 / e for c in row) for row in counts]
    # Rows and columns of a permutation count table both sum to `trials`: (k-1)^2 dof.
    whole = chi2_upper_tail(sum(per_card), (N_CARDS - 1) ** 2)
    worst = min(chi2_upper_tail(x, N_CARDS - 1) for x in per_card) * N_CARDS
    return whole, worst


@pytest.mark.parametrize("n,honest", [(3, 0), (3, 2), (4, 1)])
def test_one_honest_seat_makes_every_card_position_uniform(n: int, honest: int) -> None:
    whole, worst = uniformity(n, honest, trials=120)
    assert whole > 1e-6
    assert worst > 1e-6


def test_the_uniformity_test_sees_a_bias() -> None:
    """Control: an 'honest' seat that only ever uses 6 seeds is caught at once."""
    few = [bytes([0xA0 + i]) * 32 for i in range(6)]
    whole, worst = uniformity(2, 0, trials=60, honest_seeds=few)
    assert whole < 1e-12
    assert worst < 1e-12
