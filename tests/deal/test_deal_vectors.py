"""Test vectors of the deal (tests/vectors/deal_*.json), checked against the code.

They pin every byte an independent implementation must reproduce: the card points, the
seed commitment and the permutation and randomizers a seed expands to, a Schnorr key
proof and a batch of decryption shares with its Chaum–Pedersen proof.  Regenerate (only
when the format deliberately changes) with
``PYTHONPATH=.:tests python tests/deal/test_deal_vectors.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.group import BASE, decode_point, mul
from chkobba_p2p.game.cards import DECK

VECTORS = Path(__file__).parent.parent / "vectors"
CTX = {"session_id": "63686b6f6262612d766563746f7273", "hand": 3, "instance": 1, "n": 4}


def ctx_parts(v: dict) -> list[bytes]:
    return [bytes.fromhex(v["session_id"]), dc.u64(v["hand"]), dc.u64(v["instance"]),
            dc.u64(v["n"])]


def load(name: str) -> dict:
    return json.loads((VECTORS / name).read_text())


def test_card_points() -> None:
    v = load("deal_cards.json")
    assert v["tag"] == dc.TAG_CARD.decode()
    assert len(v["cards"]) == 40
    for entry, card in zip(v["cards"], DECK, strict=True):
        assert entry["id"] == card.id and entry["text"] == card.text
        assert bytes.fromhex(entry["point"]) == dc.CARD_POINTS[card.id]
        decode_point(bytes.fromhex(entry["point"]))


def test_shuffle_seed_expansion_and_commitment() -> None:
    v = load("deal_shuffle_seed.json")
    seed = bytes.fromhex(v["seed"])
    assert dc.expand_permutation(seed) == v["perm"]
    assert [r.to_bytes(32, "little").hex() for r in dc.expand_randomizers(seed)] == v["rands"]
    assert dc.commit_seed(ctx_parts(v), v["seat"], seed).hex() == v["commitment"]


def test_key_proof() -> None:
    v = load("deal_key_proof.json")
    x = int.from_bytes(bytes.fromhex(v["x"]), "little")
    y = bytes.fromhex(v["y"])
    assert mul(x, BASE) == y
    commit = bytes.fromhex(v["commitment"])
    proof = bytes.fromhex(v["proof"])
    assert dc.verify_key(y, proof, ctx_parts(v), v["seat"], commit)
    # Byte-reproducible: the seed behind the commitment, and the nonce behind the proof.
    assert dc.commit_seed(ctx_parts(v), v["seat"], bytes.fromhex(v["seed"])) == commit
    nonce = int.from_bytes(bytes.fromhex(v["nonce"]), "little")
    assert dc.prove_key(x, ctx_parts(v), v["seat"], commit, nonce=nonce) == (y, proof)
    # Bound to the session, hand, instance, seat and commitment.
    other = dict(v, session_id="00")
    assert not dc.verify_key(y, proof, ctx_parts(other), v["seat"], commit)
    assert not dc.verify_key(y, proof, ctx_parts(dict(v, hand=v["hand"] + 1)), v["seat"], commit)
    assert not dc.verify_key(y, proof, ctx_parts(v), v["seat"] + 1, commit)
    assert not dc.verify_key(y, proof, ctx_parts(v), v["seat"], bytes(32))


def test_decryption_shares_with_proof() -> None:
    v = load("deal_share_proof.json")
    x = int.from_bytes(bytes.fromhex(v["x"]), "little")
    keys = [bytes.fromhex(k) for k in v["keys"]]
    y = keys[v["seat"]]
    assert mul(x, BASE) == y
    c1s = [bytes.fromhex(c) for c in v["c1"]]
    ds = [bytes.fromhex(d) for d in v["d"]]
    assert ds == [mul(x, c1) for c1 in c1s]
    ctx = ctx_parts(v) + keys
    proof = bytes.fromhex(v["proof"])
    purpose = bytes.fromhex(v["purpose"])
    assert dc.verify_shares(y, ds, proof, ctx, v["seat"], purpose, v["positions"], c1s)
    assert not dc.verify_shares(y, ds, proof, ctx, v["seat"], b"step" + dc.u64(99),
                                v["positions"], c1s)
    assert not dc.verify_shares(y, ds[::-1], proof, ctx, v["seat"], purpose, v["positions"],
                                c1s[::-1])
    assert not dc.verify_shares(y, ds, proof, ctx[:-1] + [keys[0]], v["seat"], purpose,
                                v["positions"], c1s)
    # With everyone's shares the plaintext is the card named in the vector.
    c2 = bytes.fromhex(v["c2_first"])
    shares = [bytes.fromhex(d) for d in v["other_shares_first"]] + [ds[0]]
    assert dc.POINT_TO_CARD[dc.decrypt(c2, shares)] == v["card_first"]


@pytest.mark.parametrize("name", ["deal_cards.json", "deal_shuffle_seed.json",
                                  "deal_key_proof.json", "deal_share_proof.json"])
def test_vector_files_exist(name: str) -> None:
    assert (VECTORS / name).is_file()


def generate() -> None:  # pragma: no cover - run by hand
    from chkobba_p2p.deal.group import random_scalar

    VECTORS.mkdir(exist_ok=True)
    (VECTORS / "deal_cards.json").write_text(json.dumps({
        "tag": dc.TAG_CARD.decode(),
        "rule": "point = ristretto255_from_hash(hash_bytes(tag, bytes([id])))",
        "cards": [{"id": c.id, "text": c.text, "point": dc.CARD_POINTS[c.id].hex()}
                  for c in DECK]}, indent=1) + "\n")
    seed = bytes(range(32))
    (VECTORS / "deal_shuffle_seed.json").write_text(json.dumps({
        **CTX, "seat": 2, "seed": seed.hex(), "perm": dc.expand_permutation(seed),
        "rands": [r.to_bytes(32, "little").hex() for r in dc.expand_randomizers(seed)],
        "commitment": dc.commit_seed(ctx_parts(CTX), 2, seed).hex()}, indent=1) + "\n")
    xs = [random_scalar() for _ in range(4)]
    keys = [dc.public_key(x) for x in xs]
    commit = dc.commit_seed(ctx_parts(CTX), 1, seed)
    from chkobba_p2p.deal.group import hash_to_scalar

    nonce = hash_to_scalar(b"chkobba-p2p/test-vector/key-proof-nonce", seed)
    y, proof = dc.prove_key(xs[1], ctx_parts(CTX), 1, commit, nonce=nonce)
    (VECTORS / "deal_key_proof.json").write_text(json.dumps({
        **CTX, "seat": 1, "seed": seed.hex(), "x": xs[1].to_bytes(32, "little").hex(),
        "y": y.hex(), "commitment": commit.hex(),
        "nonce": nonce.to_bytes(32, "little").hex(), "proof": proof.hex()}, indent=1) + "\n")
    # An encryption of card 26 (7D) and of card 0 under the joint key, then shares of seat 2.
    joint = keys[0]
    for k in keys[1:]:
        joint = dc._add(joint, k)
    cts = []
    for card in (26, 0):
        r = random_scalar()
        cts.append((dc.public_key(r), dc._add(dc.CARD_POINTS[card], mul(r, joint))))
    positions = [5, 17]
    purpose = b"step" + dc.u64(2)
    ds, sproof = dc.prove_shares(xs[2], ctx_parts(CTX) + keys, 2, purpose, positions,
                                 [c1 for c1, _ in cts])
    (VECTORS / "deal_share_proof.json").write_text(json.dumps({
        **CTX, "seat": 2, "x": xs[2].to_bytes(32, "little").hex(),
        "keys": [k.hex() for k in keys], "purpose": purpose.hex(), "positions": positions,
        "c1": [c1.hex() for c1, _ in cts], "d": [d.hex() for d in ds], "proof": sproof.hex(),
        "c2_first": cts[0][1].hex(),
        "other_shares_first": [mul(xs[j], cts[0][0]).hex() for j in (0, 1, 3)],
        "card_first": 26}, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    generate()


# -- the same checks written from docs/deal.md alone (group layer only, no deal code) ------


def test_vectors_against_the_spec_text() -> None:
    from chkobba_p2p.deal.group import L, hash_bytes, hash_to_point, hash_to_scalar, sub

    def u64(i: int) -> bytes:
        return i.to_bytes(8, "big")

    def sc(b: bytes) -> int:
        return int.from_bytes(b, "little")

    def pt(k: int, p: bytes) -> bytes:
        return mul(k, p)

    cards = load("deal_cards.json")
    for e in cards["cards"]:
        assert hash_to_point(b"chkobba-p2p/deal/v1/card", bytes([e["id"]])).hex() == e["point"]

    v = load("deal_key_proof.json")
    ctx = [bytes.fromhex(v["session_id"]), u64(v["hand"]), u64(v["instance"]), u64(v["n"])]
    y, commit, proof = (bytes.fromhex(v[k]) for k in ("y", "commitment", "proof"))
    c, s = sc(proof[:32]), sc(proof[32:])
    assert c < L and s < L
    r = sub(pt(s, BASE), pt(c, y))
    assert hash_to_scalar(b"chkobba-p2p/deal/v1/key-proof", *ctx, u64(v["seat"]), BASE, y,
                          commit, r) == c

    v = load("deal_shuffle_seed.json")
    ctx = [bytes.fromhex(v["session_id"]), u64(v["hand"]), u64(v["instance"]), u64(v["n"])]
    seed = bytes.fromhex(v["seed"])
    assert hash_bytes(b"chkobba-p2p/deal/v1/shuffle-commit", *ctx, u64(v["seat"]),
                      seed)[:32].hex() == v["commitment"]
    stream = b"".join(hash_bytes(b"chkobba-p2p/deal/v1/shuffle-perm", seed, u64(b))
                      for b in range(8))
    ints = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, len(stream), 4)]
    perm = list(range(40))
    for i in range(39, 0, -1):
        while True:
            x = ints.pop(0)
            if x < 2**32 - 2**32 % (i + 1):
                break
        j = x % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    assert perm == v["perm"]
    assert [(hash_to_scalar(b"chkobba-p2p/deal/v1/shuffle-rand", seed, u64(i)) or 1)
            .to_bytes(32, "little").hex() for i in range(40)] == v["rands"]

    v = load("deal_share_proof.json")
    ctx = [bytes.fromhex(v["session_id"]), u64(v["hand"]), u64(v["instance"]), u64(v["n"])]
    keys = [bytes.fromhex(k) for k in v["keys"]]
    y = keys[v["seat"]]
    c1s = [bytes.fromhex(x) for x in v["c1"]]
    ds = [bytes.fromhex(x) for x in v["d"]]
    proof = bytes.fromhex(v["proof"])
    c, s = sc(proof[:32]), sc(proof[32:])
    a0 = sub(pt(s, BASE), pt(c, y))
    as_ = [sub(pt(s, c1), pt(c, d)) for c1, d in zip(c1s, ds, strict=True)]
    assert hash_to_scalar(b"chkobba-p2p/deal/v1/share-proof", *ctx, *keys, u64(v["seat"]),
                          bytes.fromhex(v["purpose"]), bytes(v["positions"]), b"".join(c1s),
                          b"".join(ds), a0, b"".join(as_)) == c
    m = bytes.fromhex(v["c2_first"])
    for d in [bytes.fromhex(x) for x in v["other_shares_first"]] + [ds[0]]:
        m = sub(m, d)
    assert m.hex() == cards["cards"][v["card_first"]]["point"]


COMMIT_RAND = VECTORS / "deal_commit_randomness.json"


def _commit_rand_case() -> dict:
    seed = bytes(range(32))
    context = hashlib.sha256(b"chkobba-p2p test vector: a shuffle proof's context").digest()
    return {"seed": seed.hex(), "context": context.hex(),
            "rule": "q_j = Hs(TAG_PROOF_COMMIT, seed, context, u64(j)), 0 -> 1",
            "tag": dc.TAG_PROOF_COMMIT.decode(),
            "q": [q.to_bytes(32, "little").hex()
                  for q in dc.expand_commit_randomizers(seed, context)]}


def test_regenerate_commit_randomness_vector() -> None:
    if os.environ.get("REGENERATE_WIRE_VECTORS") != "1":
        pytest.skip("regeneration only on request")
    COMMIT_RAND.write_text(json.dumps(_commit_rand_case(), indent=1) + "\n")


def test_the_proofs_commitment_randomness_is_pinned() -> None:
    """PROTOCOL.md Appendix A 3.2: the shuffle proof's commitment randomness ``q_j``
    from a seed and a proof context, each of the 40 scalars (little-endian), and the
    same derivation changes with the context."""
    v = json.loads(COMMIT_RAND.read_text())
    seed, context = bytes.fromhex(v["seed"]), bytes.fromhex(v["context"])
    got = [q.to_bytes(32, "little").hex() for q in dc.expand_commit_randomizers(seed, context)]
    assert len(v["q"]) == 40 and got == v["q"]
    other = dc.expand_commit_randomizers(seed, bytes(32))
    assert not set(other) & {int.from_bytes(bytes.fromhex(q), "little") for q in v["q"]}
