"""Shuffle-proof cost at 40 cards: prove, verify, proof size, and the 4-peer shuffle phase.

Run: ``python benchmarks/shuffle_proof.py`` from the repository root.  Times are CPU time
(``time.process_time``), the median of several runs.  The 4-peer phase per peer is what
each peer spends while the four shufflers take turns: re-encrypting and permuting the deck
once, proving that shuffle, and verifying the three other peers' proofs.

The auditor's checks (``docs/deal.md`` 4.2), once a deck's seeds are open: with the
witness (``verify_shuffle(..., opened=...)``), and with the witness and the commitment
randomness the deal derives from the seed; the ways interleaved, medians.  Every check
runs in full each time: the memory of checks already passed in this process
(``chkobba_p2p/deal/passed.py``) is off, as in a peer alone.
"""

from __future__ import annotations

import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.deal import crypto as dc  # noqa: E402
from chkobba_p2p.deal import group, passed  # noqa: E402
from chkobba_p2p.deal.shuffle_proof import Opened, opened_chain, prove_shuffle, verify_shuffle  # noqa: E402

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
    passed.set_enabled(False)  # the same proof is verified again and again below
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

    # The auditor's view of a deal's second shuffle (its input already shuffled once).
    steps, chain, made = [], [dc.initial_deck()], []
    for seat in range(2):
        seed = dc.new_seed()
        p, r = dc.expand_permutation(seed), dc.expand_randomizers(seed)
        q = dc.expand_commit_randomizers(seed, b"audit|%d" % seat)
        chain.append(dc.shuffle_step(chain[-1], pk, p, r))
        made.append(prove_shuffle(b"audit|%d" % seat, pk, chain[-2], chain[-1], p, r,
                                  commit_rands=q))
        steps.append((p, r, q))
    witness = opened_chain(steps)[1]
    ways = {"full": None, "opened": Opened(witness.perm, witness.rands, witness.in_logs),
            "opened_commit": witness}
    got: dict[str, list[float]] = {k: [] for k in ways}
    for _ in range(2 * RUNS + 1):
        for k, o in ways.items():
            t = time.process_time()
            verify_shuffle(b"audit|1", pk, chain[1], chain[2], made[1], opened=o)
            got[k].append((time.process_time() - t) * 1000)
    audit = {k: statistics.median(v) for k, v in got.items()}

    print(f"shuffle_proof_prove_n{N}: {prove:.1f} ms")
    print(f"shuffle_proof_verify_n{N}: {verify:.1f} ms")
    print(f"shuffle_proof_bytes_n{N}: {len(proof)} bytes")
    print(f"shuffle_phase_4peer_cpu_per_peer_n{N}: {phase:.1f} ms")
    print(f"shuffle_proof_audit_full_n{N}: {audit['full']:.1f} ms")
    print(f"shuffle_proof_audit_opened_n{N}: {audit['opened']:.1f} ms")
    print(f"shuffle_proof_audit_opened_commit_n{N}: {audit['opened_commit']:.1f} ms")
    print(f"shuffle_proof_audit_opened_commit_ratio: "
          f"{audit['opened_commit'] / audit['opened']:.2f} x opened")


if __name__ == "__main__":
    main()
