"""Shuffle-proof cost at 40 cards: prove, verify, proof size, and the 4-peer shuffle phase.

Run: ``python benchmarks/shuffle_proof.py`` from the repository root.  Times are CPU time
(``time.process_time``), the median of several runs.  The 4-peer phase per peer is what
each peer spends while the four shufflers take turns: re-encrypting and permuting the deck
once, proving that shuffle, and verifying the three other peers' proofs.
"""

from __future__ import annotations

import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p import group  # noqa: E402
from chkobba_p2p.shuffle_proof import prove_shuffle, verify_shuffle  # noqa: E402

N = 40
RUNS = 7


def _shuffle(deck, pk):
    n = len(deck)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    rands = [group.random_scalar() for _ in range(n)]
    out = [
        (group.add(deck[j][0], group.base_mul(r)), group.add(deck[j][1], group.mul(r, pk)))
        for j, r in zip(perm, rands, strict=True)
    ]
    return out, perm, rands


def _cpu_ms(fn) -> float:
    samples = []
    for _ in range(RUNS):
        t = time.process_time()
        fn()
        samples.append((time.process_time() - t) * 1000)
    return statistics.median(samples)


def main() -> None:
    pk = group.base_mul(group.random_scalar())
    deck = [(group.IDENTITY, group.hash_to_point(b"bench card", bytes([i]))) for i in range(N)]
    context = b"bench|session|hand:1|shuffle:0|seat:0"
    out, perm, rands = _shuffle(deck, pk)
    proof = prove_shuffle(context, pk, deck, out, perm, rands)

    prove = _cpu_ms(lambda: prove_shuffle(context, pk, deck, out, perm, rands))
    verify = _cpu_ms(lambda: verify_shuffle(context, pk, deck, out, proof))

    # Four peers shuffle in turn; each peer's CPU: its own shuffle + proof, three verifies.
    decks = [deck]
    proofs = []
    for seat in range(4):
        ctx = b"bench|session|hand:1|shuffle:0|seat:%d" % seat
        o, p, r = _shuffle(decks[-1], pk)
        proofs.append((ctx, prove_shuffle(ctx, pk, decks[-1], o, p, r)))
        decks.append(o)

    def phase_for_seat_0() -> None:
        ctx0 = proofs[0][0]
        o, p, r = _shuffle(decks[0], pk)
        prove_shuffle(ctx0, pk, decks[0], o, p, r)
        for seat in (1, 2, 3):
            ctx, prf = proofs[seat]
            verify_shuffle(ctx, pk, decks[seat], decks[seat + 1], prf)

    phase = _cpu_ms(phase_for_seat_0)

    print(f"shuffle_proof_prove_n{N}: {prove:.1f} ms")
    print(f"shuffle_proof_verify_n{N}: {verify:.1f} ms")
    print(f"shuffle_proof_bytes_n{N}: {len(proof)} bytes")
    print(f"shuffle_phase_4peer_cpu_per_peer_n{N}: {phase:.1f} ms")


if __name__ == "__main__":
    main()
