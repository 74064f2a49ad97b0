"""The auditor's shuffle-proof check with the witness (issue 29): once a deck's seeds are
open, ``verify_shuffle(..., opened=...)`` accepts exactly the proofs the full check
accepts, refuses the others with the same code and sentence, and a hand's refused proof
names its prover."""

from __future__ import annotations

import secrets

from hypothesis import given, settings
from hypothesis import strategies as st
from test_shuffle_proof import keypair, plaintext, shuffle

from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.group import IDENTITY, L
from chkobba_p2p.deal.shuffle_proof import (
    BAD_PROOF,
    Opened,
    ShuffleProofError,
    opened_chain,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)
from chkobba_p2p.observe.proofs import ProofChecks


def context(k: int) -> bytes:
    return b"opened|seat:%d" % k


def chain(n: int, steps: int, *, derive: bool | None = None):
    """A chain of honest shuffles from a public deck (first components the identity), as
    the deal's: the decks, each step's proof and (perm, rands), and the joint key.

    ``derive`` not None: the witness also carries commitment randomness derived from a
    seed and the context, as the auditor's does; the proof was made with it (True, as
    the deal's prover does) or with fresh randomness (False, as another client may)."""
    _, pk = keypair()
    decks = [[(IDENTITY, plaintext(i)) for i in range(n)]]
    proofs, witness = [], []
    for k in range(steps):
        out, perm, rands = shuffle(decks[-1], pk)
        rc = dc.expand_commit_randomizers(secrets.token_bytes(32), context(k), n)
        proofs.append(prove_shuffle(context(k), pk, decks[-1], out, perm, rands,
                                    commit_rands=rc if derive else None))
        decks.append(out)
        witness.append((perm, rands) if derive is None else (perm, rands, rc))
    return pk, decks, proofs, opened_chain(witness)


def outcome(fn) -> tuple[str, str] | None:
    try:
        fn()
    except ShuffleProofError as exc:
        return exc.code, str(exc)
    return None


def both(pk, decks, k, proof, opened: Opened) -> tuple[object, object]:
    full = outcome(lambda: verify_shuffle(context(k), pk, decks[k], decks[k + 1], proof))
    fast = outcome(lambda: verify_shuffle(context(k), pk, decks[k], decks[k + 1], proof,
                                          opened=opened))
    return full, fast


@settings(max_examples=12, deadline=None)
@given(n=st.integers(1, 6), steps=st.integers(1, 4))
def test_every_honest_proof_of_a_chain_is_accepted_with_its_witness(n, steps):
    pk, decks, proofs, opened = chain(n, steps)
    for k in range(steps):
        assert both(pk, decks, k, proofs[k], opened[k]) == (None, None)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 5), steps=st.integers(1, 3), data=st.data())
def test_a_proof_with_any_byte_changed_is_refused_as_the_full_check_refuses_it(n, steps, data):
    pk, decks, proofs, opened = chain(n, steps)
    k = data.draw(st.integers(0, steps - 1), label="step")
    at = data.draw(st.integers(0, proof_size(n) - 1), label="byte")
    mask = data.draw(st.integers(1, 255), label="mask")
    bad = bytearray(proofs[k])
    bad[at] ^= mask
    full, fast = both(pk, decks, k, bytes(bad), opened[k])
    assert full is not None
    assert fast == full


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 5), data=st.data())
def test_any_response_changed_is_a_bad_proof(n, data):
    """Every scalar of the proof (the challenge, s1..s4, each s^_i, each s'_i) moved by
    any amount, still canonical: refused as a bad proof, with or without the witness."""
    pk, decks, proofs, opened = chain(n, 2)
    k = data.draw(st.integers(0, 1), label="step")
    scalars = 5 + 2 * n
    which = data.draw(st.integers(0, scalars - 1), label="scalar")
    delta = data.draw(st.integers(1, L - 1), label="delta")
    at = 1 + 64 * n + 32 * which
    value = (int.from_bytes(proofs[k][at:at + 32], "little") + delta) % L
    bad = proofs[k][:at] + value.to_bytes(32, "little") + proofs[k][at + 32:]
    full, fast = both(pk, decks, k, bad, opened[k])
    assert full is not None and full[0] == BAD_PROOF
    assert fast == full


def test_the_witness_chain_gives_each_deck_first_components_logs():
    pk, decks, _, opened = chain(4, 3)
    from chkobba_p2p.deal.group import base_mul
    for k, o in enumerate(opened):
        assert [base_mul(x) for x in o.in_logs] == [c1 for c1, _ in decks[k]]


@settings(max_examples=10, deadline=None)
@given(bad_seat=st.integers(0, 3), which=st.integers(0, 2 * 4 + 4))
def test_a_hands_refused_proof_names_its_prover(bad_seat, which):
    """A hand's four proofs held until the seeds open, then checked with their witnesses
    (in this process, as the serial audit does): the refused one is named, at its entry."""
    pk, decks, proofs, opened = chain(4, 4)
    at = 1 + 64 * 4 + 32 * which
    proofs[bad_seat] = proofs[bad_seat][:at] + bytes([proofs[bad_seat][at] ^ 1]) \
        + proofs[bad_seat][at + 1:]
    checks = ProofChecks(0)
    handles = [checks.submit(100 + s, s, (context(s), pk, decks[s], decks[s + 1], proofs[s]))
               for s in range(4)]
    checks.open(handles, opened)
    failed = checks.first_failure()
    assert failed is not None
    entry, seat, reason = failed
    assert (entry, seat) == (100 + bad_seat, bad_seat)
    assert reason.startswith("bad_shuffle_proof:") or reason.startswith("malformed_shuffle")


def test_a_tampered_ciphertext_with_no_witness_is_checked_in_full_and_names_its_prover():
    """A deck whose seeds never open as recomputed (a ciphertext changed after the proof
    was made) is not opened: its proofs get the full check at the end, which refuses the
    changed step and names its shuffler, and passes the honest ones on top of it."""
    pk, decks, proofs, _ = chain(4, 1)
    tampered = list(decks[1])
    tampered[2] = (tampered[2][0], plaintext(9))
    decks[1] = tampered
    out, perm, rands = shuffle(decks[1], pk)
    proofs.append(prove_shuffle(context(1), pk, decks[1], out, perm, rands))
    decks.append(out)
    checks = ProofChecks(0)
    for s in range(2):
        checks.submit(7 + s, s, (context(s), pk, decks[s], decks[s + 1], proofs[s]))
    assert checks.first_failure() == (7, 0, "bad_shuffle_proof: shuffle proof refused: the "
                                      "shuffle proof does not verify for this context, key "
                                      "and decks")
