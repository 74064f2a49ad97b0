"""No seat controls the deal: if every seat but one shuffles with a fixed permutation that
everyone knows, every card still lands on a uniformly random position.

Each trial is a real run of the deal's key and shuffle phases; the final deck is then
decrypted with the sum of every seat's secret key (test-side arithmetic, not the deal's
code) to find where each card went.  The honest seat's seeds come from the OS CSPRNG, so
the thresholds are set far out to keep the test from flaking; the control runs show the
test does see a bias when there is one, with the fast tier's sample too.

Sample and thresholds, per tier (:data:`SAMPLE`): a full run deals 120 times per case,
the fast tier (``-m "not slow"``) 60 times, half the CPU; both ask p > 1e-6 of the whole
table and p > 1e-9 of the worst card (its p-value x 40).  False failures, checked against
the statistics' true distributions (a card's row is an exact multinomial, its tail
computed exactly by convolving the 40 cells; the whole table by simulation, 4000 tables
of 60 random permutations): the whole-table p-value is well calibrated with N(N-1)
degrees of freedom (0.095 of the simulated below 0.1, 0.008 below 0.01), so it fails an
honest deal with probability about 1e-6; with 1.5 or 3 expected counts per cell the
Wilson–Hilferty tail of a card's row is too thin (a nominal 2.5e-8 is truly 1.1e-6 at 60
deals, 3.0e-7 at 120), hence the farther 1e-9 for the worst card: a nominal 2.5e-11 is
truly 3.0e-8 per card at 60 deals (1.2e-6 over 40 cards), 3.5e-9 at 120.  So an honest
deal fails a case with probability about 2e-6 in the fast tier, 1e-6 in a full run.
"""

from __future__ import annotations

import math

import pytest
from support.tiers import fast_tier

from chkobba_p2p.deal.crypto import POINT_TO_CARD
from chkobba_p2p.deal.group import mul, sub
from chkobba_p2p.deal.local import make_table

N_CARDS = 40
FIXED = [bytes([s + 1]) * 32 for s in range(4)]  # the dishonest seats' known seeds

#: tier -> (deals per case, limit on the whole table's p-value, limit on the worst card's
#: p-value x 40); the module docstring says why these keep false failures near 1e-6.
SAMPLE = {"full": (120, 1e-6, 1e-9), "fast": (60, 1e-6, 1e-9)}


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
    # The expected counts are known, not estimated from the margins: each row is a
    # multinomial with k-1 dof and the whole statistic's exact mean is k(k-1) (the
    # contingency table's (k-1)^2 would make honest deals fail far more often than said).
    whole = chi2_upper_tail(sum(per_card), N_CARDS * (N_CARDS - 1))
    worst = min(chi2_upper_tail(x, N_CARDS - 1) for x in per_card) * N_CARDS
    return whole, worst


@pytest.mark.parametrize("n,honest", [(3, 0), (3, 2), (4, 1)])
def test_one_honest_seat_makes_every_card_position_uniform(n: int, honest: int,
                                                          pytestconfig) -> None:
    trials, whole_limit, worst_limit = SAMPLE["fast" if fast_tier(pytestconfig) else "full"]
    whole, worst = uniformity(n, honest, trials=trials)
    assert whole > whole_limit
    assert worst > worst_limit


def test_the_uniformity_test_sees_a_bias() -> None:
    """Control: an 'honest' seat that only ever uses 6 seeds is caught at once, with the
    fast tier's smaller sample and far below either tier's limits."""
    few = [bytes([0xA0 + i]) * 32 for i in range(6)]
    whole, worst = uniformity(2, 0, trials=SAMPLE["fast"][0], honest_seeds=few)
    assert whole < 1e-12
    assert worst < 1e-12
