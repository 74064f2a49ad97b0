"""The shuffle proof: honest shuffles verify, every kind of cheating is refused.

Run as a script (``python tests/deal/test_shuffle_proof.py --write-vector``) to regenerate
``tests/vectors/shuffle_proof_n4.json``; the proof in it is random, everything else fixed.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.deal import group
from chkobba_p2p.deal.group import BASE, L
from chkobba_p2p.deal.shuffle_proof import (
    BAD_PROOF,
    MALFORMED,
    NOT_RERANDOMIZED,
    ShuffleProofError,
    _prove,
    _statement_digest,
    _u_challenges,
    derive_generators,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)

VECTOR = Path(__file__).parent.parent / "vectors" / "shuffle_proof_n4.json"
CONTEXT = b"session:5e55|hand:3|shuffle:1|seat:2"


# -- a tiny ElGamal, written from the convention the deal core shares --------------------


def keypair() -> tuple[int, bytes]:
    x = group.random_scalar()
    return x, group.base_mul(x)


def enc(m: bytes, r: int, pk: bytes) -> tuple[bytes, bytes]:
    return group.base_mul(r), group.add(m, group.mul(r, pk))


def rerandomize(c: tuple[bytes, bytes], r: int, pk: bytes) -> tuple[bytes, bytes]:
    return group.add(c[0], group.base_mul(r)), group.add(c[1], group.mul(r, pk))


def dec(c: tuple[bytes, bytes], x: int) -> bytes:
    return group.sub(c[1], group.mul(x, c[0]))


def plaintext(i: int) -> bytes:
    return group.hash_to_point(b"test card", bytes([i]))


def deck(n: int, pk: bytes) -> list[tuple[bytes, bytes]]:
    return [enc(plaintext(i), group.random_scalar(), pk) for i in range(n)]


def shuffle(inputs, pk, perm=None, rands=None):
    n = len(inputs)
    if perm is None:
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
    if rands is None:
        rands = [group.random_scalar() for _ in range(n)]
    outputs = [rerandomize(inputs[perm[i]], rands[i], pk) for i in range(n)]
    return outputs, perm, rands


def honest(n: int, context: bytes = CONTEXT):
    x, pk = keypair()
    inputs = deck(n, pk)
    outputs, perm, rands = shuffle(inputs, pk)
    proof = prove_shuffle(context, pk, inputs, outputs, perm, rands)
    return pk, inputs, outputs, perm, rands, proof


def refused(code: str, *args) -> ShuffleProofError:
    with pytest.raises(ShuffleProofError) as info:
        verify_shuffle(*args)
    assert info.value.code == code, str(info.value)
    return info.value


# -- honest shuffles -------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 40])
def test_honest_shuffle_verifies(n):
    pk, inputs, outputs, _, _, proof = honest(n)
    assert len(proof) == proof_size(n)
    verify_shuffle(CONTEXT, pk, inputs, outputs, proof)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.permutations(range(n))))
def test_any_permutation_verifies(perm):
    x, pk = keypair()
    inputs = deck(len(perm), pk)
    outputs, perm, rands = shuffle(inputs, pk, perm=list(perm))
    verify_shuffle(CONTEXT, pk, inputs, outputs,
                   prove_shuffle(CONTEXT, pk, inputs, outputs, perm, rands))
    # The shuffle itself kept every plaintext: the proof statement is what we think it is.
    assert [dec(c, x) for c in outputs] == [plaintext(j) for j in perm]


def test_proof_fits_the_budget_and_is_randomized():
    assert proof_size(40) == 5281 <= 10 * 1024
    pk, inputs, outputs, perm, rands, proof = honest(3)
    again = prove_shuffle(CONTEXT, pk, inputs, outputs, perm, rands)
    assert again != proof
    verify_shuffle(CONTEXT, pk, inputs, outputs, again)


def test_shuffles_chain():
    """Each peer's output deck is the next peer's input, as in the 4-peer phase."""
    x, pk = keypair()
    current = deck(8, pk)
    for seat in range(4):
        context = CONTEXT + b"|seat:%d" % seat
        outputs, perm, rands = shuffle(current, pk)
        proof = prove_shuffle(context, pk, current, outputs, perm, rands)
        verify_shuffle(context, pk, current, outputs, proof)
        current = outputs
    assert sorted(dec(c, x) for c in current) == sorted(plaintext(i) for i in range(8))


# -- cheating shufflers ------------------------------------------------------------------


def test_substituted_entry_is_refused():
    """The attack the proof is for: slip in a card the shuffler will recognise."""
    x, pk = keypair()
    inputs = deck(6, pk)
    outputs, perm, rands = shuffle(inputs, pk)
    known = enc(plaintext(99), rands[2], pk)  # a fresh encryption of a chosen card
    cheat = outputs[:2] + [known] + outputs[3:]
    # The honest proof of the original deck does not cover the substituted one...
    proof = prove_shuffle(CONTEXT, pk, inputs, outputs, perm, rands)
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat, proof)
    # ...and running the prover on the substituted deck gives no valid proof either.
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
            prove_shuffle(CONTEXT, pk, inputs, cheat, perm, rands))


def test_substituted_by_reencryption_of_another_input_is_refused():
    """Replacing a card by a copy of another input still changes the multiset."""
    x, pk = keypair()
    inputs = deck(5, pk)
    outputs, perm, rands = shuffle(inputs, pk)
    k = perm.index(0)
    j = perm.index(1)
    cheat = list(outputs)
    cheat[k] = rerandomize(inputs[1], rands[k], pk)  # input 1 twice, input 0 gone
    bad_perm = list(perm)
    bad_perm[k] = 1
    assert cheat == [rerandomize(inputs[bad_perm[i]], rands[i], pk) for i in range(5)]
    assert bad_perm[j] == 1
    # A prover that ignores the permutation check and proves the duplicating "shuffle"
    # with a fully consistent witness still fails.
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
            _prove(CONTEXT, pk, inputs, cheat, bad_perm, rands))
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
            prove_shuffle(CONTEXT, pk, inputs, cheat, perm, rands))


def test_duplicated_output_is_refused():
    x, pk = keypair()
    inputs = deck(5, pk)
    outputs, perm, rands = shuffle(inputs, pk)
    cheat = list(outputs)
    cheat[4] = rerandomize(outputs[0], group.random_scalar(), pk)
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
            prove_shuffle(CONTEXT, pk, inputs, outputs, perm, rands))
    refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
            prove_shuffle(CONTEXT, pk, inputs, cheat, perm, rands))


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6).flatmap(
    lambda n: st.tuples(st.permutations(range(n)), st.integers(0, n - 1), st.integers(0, n - 1))
))
def test_any_substitution_by_another_input_is_refused(case):
    """Output k re-encrypts input j instead of input perm[k]: one card twice, one gone."""
    perm, k, j = case
    perm = list(perm)
    if perm[k] == j:
        j = (j + 1) % len(perm)
    x, pk = keypair()
    inputs = deck(len(perm), pk)
    rands = [group.random_scalar() for _ in perm]
    bad_perm = list(perm)
    bad_perm[k] = j
    cheat, _, _ = shuffle(inputs, pk, perm=bad_perm, rands=rands)
    for witness in (perm, bad_perm):
        refused(BAD_PROOF, CONTEXT, pk, inputs, cheat,
                _prove(CONTEXT, pk, inputs, cheat, witness, rands))


def test_dropped_entry_is_refused():
    pk, inputs, outputs, perm, rands, proof = honest(5)
    refused(BAD_PROOF, CONTEXT, pk, inputs, outputs[:-1], proof)
    # A valid proof that the shorter deck is a shuffle of the first four inputs.
    short, short_perm, short_rands = shuffle(inputs[:-1], pk)
    short_proof = prove_shuffle(CONTEXT, pk, inputs[:-1], short, short_perm, short_rands)
    verify_shuffle(CONTEXT, pk, inputs[:-1], short, short_proof)
    refused(BAD_PROOF, CONTEXT, pk, inputs, short, short_proof)


def test_permutation_without_rerandomization_is_refused():
    x, pk = keypair()
    inputs = deck(5, pk)
    outputs, perm, _ = shuffle(inputs, pk, rands=[0] * 5)
    assert sorted(outputs) == sorted(inputs)
    with pytest.raises(ValueError):
        prove_shuffle(CONTEXT, pk, inputs, outputs, perm, [0] * 5)
    # The algebra of a zero re-randomization is a valid relation: the proof alone would
    # pass, the explicit check catches it.
    proof = _prove(CONTEXT, pk, inputs, outputs, perm, [0] * 5)
    refused(NOT_RERANDOMIZED, CONTEXT, pk, inputs, outputs, proof)


def test_one_entry_not_rerandomized_is_refused():
    x, pk = keypair()
    inputs = deck(5, pk)
    rands = [group.random_scalar() for _ in range(5)]
    rands[3] = 0
    outputs, perm, rands = shuffle(inputs, pk, rands=rands)
    proof = _prove(CONTEXT, pk, inputs, outputs, perm, rands)
    err = refused(NOT_RERANDOMIZED, CONTEXT, pk, inputs, outputs, proof)
    assert "3" in str(err)


@pytest.mark.parametrize(
    "other",
    [
        b"session:5e56|hand:3|shuffle:1|seat:2",  # another session
        b"session:5e55|hand:4|shuffle:1|seat:2",  # another hand
        b"session:5e55|hand:3|shuffle:2|seat:2",  # another shuffle of the same hand
        b"session:5e55|hand:3|shuffle:1|seat:1",  # claimed by another seat
        b"",
    ],
)
def test_proof_bound_to_its_context(other):
    pk, inputs, outputs, _, _, proof = honest(4)
    refused(BAD_PROOF, other, pk, inputs, outputs, proof)


def test_proof_bound_to_key_and_input_deck():
    pk, inputs, outputs, _, _, proof = honest(4)
    _, other_pk = keypair()
    refused(BAD_PROOF, CONTEXT, other_pk, inputs, outputs, proof)
    swapped = [inputs[1], inputs[0], *inputs[2:]]
    refused(BAD_PROOF, CONTEXT, pk, swapped, outputs, proof)
    reordered = [outputs[1], outputs[0], *outputs[2:]]
    refused(BAD_PROOF, CONTEXT, pk, inputs, reordered, proof)


# -- malformed proofs --------------------------------------------------------------------


def test_malformed_proofs_are_refused():
    pk, inputs, outputs, _, _, proof = honest(3)
    n = 3
    args = (CONTEXT, pk, inputs, outputs)
    refused(MALFORMED, *args, proof[:-1])
    refused(MALFORMED, *args, proof + b"\0")
    refused(MALFORMED, *args, b"")
    refused(MALFORMED, *args, "not bytes")
    refused(MALFORMED, *args, b"\x02" + proof[1:])
    # An invalid point among the permutation commitments, then in the chain.
    bad_point = b"\xff" * 32
    refused(MALFORMED, *args, proof[:1] + bad_point + proof[33:])
    refused(MALFORMED, *args, proof[: 1 + 32 * n] + bad_point + proof[1 + 32 * n + 32 :])
    # A non-canonical scalar (the challenge + L) in place of the challenge.
    off = 1 + 64 * n
    e = int.from_bytes(proof[off : off + 32], "little")
    if e + L < 2**256:
        refused(MALFORMED, *args, proof[:off] + (e + L).to_bytes(32, "little") + proof[off + 32 :])
    # The last response + L.
    s = int.from_bytes(proof[-32:], "little")
    if s + L < 2**256:
        refused(MALFORMED, *args, proof[:-32] + (s + L).to_bytes(32, "little"))


def test_malformed_outputs_are_refused():
    pk, inputs, outputs, _, _, proof = honest(3)
    bad = [outputs[0], (outputs[1][0], b"\xff" * 32), outputs[2]]
    refused(MALFORMED, CONTEXT, pk, inputs, bad, proof)
    refused(MALFORMED, CONTEXT, pk, inputs, [outputs[0], outputs[1], b"x" * 64], proof)
    refused(MALFORMED, CONTEXT, pk, inputs, b"not a deck", proof)


def test_bad_local_arguments_are_local_errors():
    pk, inputs, outputs, perm, rands, proof = honest(3)
    with pytest.raises(ValueError) as info:
        verify_shuffle(CONTEXT, b"\xff" * 32, inputs, outputs, proof)
    assert not isinstance(info.value, ShuffleProofError)
    with pytest.raises(ValueError) as info:
        verify_shuffle(CONTEXT, pk, [], [], proof)
    assert not isinstance(info.value, ShuffleProofError)
    with pytest.raises(ValueError):
        prove_shuffle(CONTEXT, pk, inputs, outputs, [0, 0, 1], rands)
    with pytest.raises(ValueError):
        prove_shuffle(CONTEXT, pk, inputs, outputs[:2], perm, rands)
    with pytest.raises(ValueError):
        prove_shuffle(CONTEXT, pk, inputs, outputs, perm, [L, 1, 1])


_FLIP_CASE = honest(3)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_flipped_bit_is_refused(data):
    pk, inputs, outputs, _, _, proof = _FLIP_CASE
    pos = data.draw(st.integers(0, len(proof) - 1))
    bit = data.draw(st.integers(0, 7))
    tampered = bytearray(proof)
    tampered[pos] ^= 1 << bit
    with pytest.raises(ShuffleProofError):
        verify_shuffle(CONTEXT, pk, inputs, outputs, bytes(tampered))


# -- generators ------------------------------------------------------------------------


def test_generators_are_deterministic_independent_and_context_bound():
    gens = derive_generators(CONTEXT, 6)
    assert gens == derive_generators(CONTEXT, 6)
    assert gens[:3] == derive_generators(CONTEXT, 3)
    assert len(set(gens)) == 6
    assert BASE not in gens and group.IDENTITY not in gens
    assert not set(gens) & set(derive_generators(CONTEXT + b"!", 6))
    for p in gens:
        assert group.decode_point(p) == p


# -- the test vector ---------------------------------------------------------------------


def _hex_deck(d):
    return [[c1.hex(), c2.hex()] for c1, c2 in d]


def _unhex_deck(d):
    return [(bytes.fromhex(c1), bytes.fromhex(c2)) for c1, c2 in d]


def make_vector() -> dict:
    """The N=4 vector: fixed key, plaintexts, encryption and shuffle randomness."""
    context = b"chkobba-p2p test vector|session:00112233|hand:1|shuffle:0|seat:0"
    x = group.hash_to_scalar(b"vector secret key", b"")
    pk = group.base_mul(x)
    n = 4
    plaintexts = [group.hash_to_point(b"vector plaintext", bytes([i])) for i in range(n)]
    enc_r = [group.hash_to_scalar(b"vector enc randomness", bytes([i])) for i in range(n)]
    inputs = [enc(m, r, pk) for m, r in zip(plaintexts, enc_r, strict=True)]
    perm = [2, 0, 3, 1]
    rands = [group.hash_to_scalar(b"vector shuffle randomness", bytes([i])) for i in range(n)]
    outputs, _, _ = shuffle(inputs, pk, perm=perm, rands=rands)
    proof = prove_shuffle(context, pk, inputs, outputs, perm, rands)
    statement = _statement_digest(context, pk, inputs, outputs)
    commitments = [proof[1 + 32 * k : 33 + 32 * k] for k in range(n)]
    seed, u = _u_challenges(statement, commitments)
    other_hand = context.replace(b"hand:1", b"hand:2")
    return {
        "description": "Shuffle proof v1 (docs/shuffle-proof.md), N=4, ristretto255. Bytes "
        "are hex; scalars are 32-byte little-endian. The proof is one random proof of the "
        "shuffle; the intermediate values are those a verifier recomputes from it.",
        "context": context.hex(),
        "secret_key": group.scalar_to_bytes(x).hex(),
        "pk": pk.hex(),
        "plaintexts": [m.hex() for m in plaintexts],
        "encryption_randomness": [group.scalar_to_bytes(r).hex() for r in enc_r],
        "inputs": _hex_deck(inputs),
        "perm": perm,
        "rerandomizers": [group.scalar_to_bytes(r).hex() for r in rands],
        "outputs": _hex_deck(outputs),
        "generators": [g.hex() for g in derive_generators(context, n + 1)],
        "proof": proof.hex(),
        "statement_digest": statement.hex(),
        "permutation_seed": seed.hex(),
        "u": [group.scalar_to_bytes(k).hex() for k in u],
        "refused": [
            {"why": "another hand", "context": other_hand.hex(), "code": BAD_PROOF},
            {"why": "outputs swapped", "swap_outputs": [0, 1], "code": BAD_PROOF},
            {"why": "truncated proof", "truncate": 1, "code": MALFORMED},
        ],
    }


def test_vector():
    v = json.loads(VECTOR.read_text())
    context = bytes.fromhex(v["context"])
    x = int.from_bytes(bytes.fromhex(v["secret_key"]), "little")
    pk = bytes.fromhex(v["pk"])
    assert group.base_mul(x) == pk
    inputs = _unhex_deck(v["inputs"])
    outputs = _unhex_deck(v["outputs"])
    plaintexts = [bytes.fromhex(m) for m in v["plaintexts"]]
    enc_r = [int.from_bytes(bytes.fromhex(r), "little") for r in v["encryption_randomness"]]
    rands = [int.from_bytes(bytes.fromhex(r), "little") for r in v["rerandomizers"]]
    perm = v["perm"]
    assert inputs == [enc(m, r, pk) for m, r in zip(plaintexts, enc_r, strict=True)]
    assert outputs == shuffle(inputs, pk, perm=perm, rands=rands)[0]
    n = len(inputs)
    assert [g.hex() for g in derive_generators(context, n + 1)] == v["generators"]
    proof = bytes.fromhex(v["proof"])
    statement = _statement_digest(context, pk, inputs, outputs)
    assert statement.hex() == v["statement_digest"]
    seed, u = _u_challenges(statement, [proof[1 + 32 * k : 33 + 32 * k] for k in range(n)])
    assert seed.hex() == v["permutation_seed"]
    assert [group.scalar_to_bytes(k).hex() for k in u] == v["u"]
    verify_shuffle(context, pk, inputs, outputs, proof)
    for case in v["refused"]:
        ctx, outs, prf = context, list(outputs), proof
        if "context" in case:
            ctx = bytes.fromhex(case["context"])
        if "swap_outputs" in case:
            a, b = case["swap_outputs"]
            outs[a], outs[b] = outs[b], outs[a]
        if "truncate" in case:
            prf = prf[: -case["truncate"]]
        refused(case["code"], ctx, pk, inputs, outs, prf)


if __name__ == "__main__" and sys.argv[1:] == ["--write-vector"]:
    VECTOR.parent.mkdir(exist_ok=True)
    VECTOR.write_text(json.dumps(make_vector(), indent=1) + "\n")
    print(f"wrote {VECTOR}")
