"""The deal's cryptographic primitives, over ristretto255 (libsodium through ``rbcl``).

Everything here is a pure function of its arguments (plus the OS CSPRNG for nonces and
keys).  The state machine in :mod:`chkobba_p2p.deal.core` strings them together; this
module fixes the exact hash inputs, which ``docs/deal.md`` specifies byte for byte.

Conventions shared with :mod:`chkobba_p2p.deal.shuffle_proof`:

* a ciphertext is a pair ``(c1, c2)`` of 32-byte points, ``Enc(M; r) = (r*B, M + r*H)``
  under the joint key ``H``;
* a shuffle step outputs ``out[i] = inp[perm[i]] + Enc(0; r[i])``, componentwise.

Proofs travel as 64 bytes: the challenge ``c`` then the response ``s``, each a canonical
32-byte little-endian scalar.  The verifier recomputes the prover's commitments from
``(c, s)`` and checks that hashing them gives ``c`` back.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import rbcl

from . import passed
from .group import BASE, IDENTITY, L, hash_bytes, hash_to_point, hash_to_scalar, random_scalar

__all__ = [
    "DECK_SIZE",
    "CIPHERTEXT_BYTES",
    "PROOF_BYTES",
    "SEED_BYTES",
    "TAG_CARD",
    "TAG_KEY_PROOF",
    "TAG_SHARE_PROOF",
    "TAG_COMMIT",
    "TAG_PERM",
    "TAG_RAND",
    "TAG_PROOF_COMMIT",
    "TAG_SHUFFLE_CONTEXT",
    "CARD_POINTS",
    "POINT_TO_CARD",
    "Ciphertext",
    "u64",
    "public_key",
    "card_point",
    "initial_deck",
    "pack_deck",
    "unpack_deck",
    "new_seed",
    "commit_seed",
    "expand_permutation",
    "expand_randomizers",
    "expand_commit_randomizers",
    "shuffle_step",
    "is_seeded_step",
    "note_seeded_step",
    "prove_key",
    "verify_key",
    "prove_shares",
    "verify_shares",
    "decrypt",
]

DECK_SIZE = 40
CIPHERTEXT_BYTES = 64
PROOF_BYTES = 64
SEED_BYTES = 32

_T = b"chkobba-p2p/deal/v1/"
#: hash_to_point(TAG_CARD, card id as one byte) is the card's plaintext point.
TAG_CARD = _T + b"card"
TAG_KEY_PROOF = _T + b"key-proof"
TAG_SHARE_PROOF = _T + b"share-proof"
TAG_COMMIT = _T + b"shuffle-commit"
TAG_PERM = _T + b"shuffle-perm"
TAG_RAND = _T + b"shuffle-rand"
TAG_PROOF_COMMIT = _T + b"shuffle-proof-commit"
TAG_SHUFFLE_CONTEXT = _T + b"shuffle-context"

Ciphertext = tuple[bytes, bytes]

# Bound once: these are called thousands of times per hand.
_mul: Callable[[bytes, bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero
_base: Callable[[bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_base_allow_scalar_zero
_add = rbcl.crypto_core_ristretto255_add
_sub = rbcl.crypto_core_ristretto255_sub


def u64(i: int) -> bytes:
    """An integer as 8 bytes big-endian: how every integer enters a hash."""
    return i.to_bytes(8, "big")


def _sb(k: int) -> bytes:
    return k.to_bytes(32, "little")


def public_key(x: int) -> bytes:
    """``x*B``."""
    return _base(_sb(x))


def card_point(card_id: int) -> bytes:
    """The plaintext point of card ``card_id`` (0..39, see :mod:`chkobba_p2p.game.cards`)."""
    return hash_to_point(TAG_CARD, bytes([card_id]))


#: Card id -> point, and back.  Nobody knows a discrete log between any two of them.
CARD_POINTS: tuple[bytes, ...] = tuple(card_point(i) for i in range(DECK_SIZE))
POINT_TO_CARD: dict[bytes, int] = {p: i for i, p in enumerate(CARD_POINTS)}
assert len(POINT_TO_CARD) == DECK_SIZE and IDENTITY not in POINT_TO_CARD


def initial_deck() -> list[Ciphertext]:
    """The public starting deck: card ``i`` at position ``i``, encrypted with ``r = 0``."""
    return [(IDENTITY, p) for p in CARD_POINTS]


def pack_deck(deck: Sequence[Ciphertext]) -> bytes:
    """Wire form of a deck: ``c1 || c2`` for each position, 64 bytes each."""
    return b"".join(c1 + c2 for c1, c2 in deck)


def unpack_deck(data: bytes) -> list[Ciphertext]:
    """Inverse of :func:`pack_deck`.  Does not validate: callers validate received points."""
    return [(data[i : i + 32], data[i + 32 : i + 64]) for i in range(0, len(data), 64)]


# -- shuffle secrets ---------------------------------------------------------------------


def new_seed() -> bytes:
    """A fresh shuffle seed from the OS CSPRNG; it determines the permutation and randomizers."""
    return os.urandom(SEED_BYTES)


def commit_seed(ctx: Sequence[bytes], seat: int, seed: bytes) -> bytes:
    """The hash commitment (32 bytes) to a shuffle seed, bound to the instance and seat.

    ``ctx`` is :meth:`Deal.context_parts` (session id, hand, instance, number of seats).
    The seed is 256 uniform bits, so the commitment hides it without a separate salt.
    """
    return hash_bytes(TAG_COMMIT, *ctx, u64(seat), seed)[:32]


def expand_permutation(seed: bytes, n: int = DECK_SIZE) -> list[int]:
    """The shuffle permutation of ``seed``: Fisher–Yates with unbiased draws.

    The random stream is SHA-512 blocks ``hash_bytes(TAG_PERM, seed, u64(block))`` cut into
    4-byte big-endian integers; a draw for a bound ``b`` rejects values at or above the
    largest multiple of ``b`` below ``2**32`` (so ``v % b`` is exactly uniform).
    """
    perm = list(range(n))
    stream = b""
    block = 0
    offset = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            if offset + 4 > len(stream):
                stream = hash_bytes(TAG_PERM, seed, u64(block))
                block += 1
                offset = 0
            v = int.from_bytes(stream[offset : offset + 4], "big")
            offset += 4
            if v < limit:
                break
        j = v % bound
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def expand_randomizers(seed: bytes, n: int = DECK_SIZE) -> list[int]:
    """The re-randomization scalars of ``seed``: ``hash_to_scalar(TAG_RAND, seed, u64(i))``.

    512 bits reduced mod ``L`` (bias below ``2**-250``); a zero (probability ``2**-252``)
    becomes 1 so that every entry really is re-randomized.
    """
    return [hash_to_scalar(TAG_RAND, seed, u64(i)) or 1 for i in range(n)]


def expand_commit_randomizers(seed: bytes, context: bytes, n: int = DECK_SIZE) -> list[int]:
    """The randomness of the shuffle proof's permutation commitment, from the seed and the
    proof's context: ``hash_to_scalar(TAG_PROOF_COMMIT, seed, context, u64(j))`` for
    column ``j`` (a zero becomes 1).

    As secret as the permutation until the seed opens; then an auditor recomputes each
    commitment from it and checks the proof with a fixed-base multiplication where a
    variable-base one and three additions were (:class:`~chkobba_p2p.deal.shuffle_proof.Opened`).
    The context is in the hash because the commitments' generators depend on it: the same
    randomness under two contexts would show the permutation to whoever compares the two
    proofs.  A proof made with other randomness is as valid, only its audit costs more.
    """
    return [hash_to_scalar(TAG_PROOF_COMMIT, seed, context, u64(j)) or 1 for j in range(n)]


def zero_encryptions(joint_key: bytes, rands: Sequence[int]) -> list[Ciphertext]:
    """``Enc(0; r) = (r*B, r*Y)`` under ``joint_key`` for each re-randomizer: the masks of
    a shuffle step, all of its scalar multiplications.  They need the joint key and the
    seat's seed, not the deck: a seat computes them while it waits for its turn."""
    masks = []
    for r in rands:
        rb = _sb(r)
        masks.append((_base(rb), _mul(rb, joint_key)))
    return masks


def shuffle_step(deck: Sequence[Ciphertext], joint_key: bytes, perm: Sequence[int],
                 rands: Sequence[int],
                 masks: Sequence[Ciphertext] | None = None) -> list[Ciphertext]:
    """``out[i] = deck[perm[i]] + Enc(0; rands[i])`` under ``joint_key``.

    ``masks``: :func:`zero_encryptions` of ``joint_key`` and ``rands``, computed before
    the deck arrived (the step is then only its additions); the same output either way.
    """
    if masks is None:
        masks = zero_encryptions(joint_key, rands)
    out = []
    for i, (m1, m2) in enumerate(masks):
        c1, c2 = deck[perm[i]]
        out.append((_add(c1, m1), _add(c2, m2)))
    return out


def _step_statement(deck: Sequence[Ciphertext], joint_key: bytes, seed: bytes,
                    out: Sequence[Ciphertext]) -> bytes:
    return passed.statement(b"shuffle-step", pack_deck(deck), joint_key, seed, pack_deck(out))


def note_seeded_step(deck: Sequence[Ciphertext], joint_key: bytes, seed: bytes,
                     out: Sequence[Ciphertext]) -> None:
    """``out`` was just computed as the step of ``seed`` on ``deck`` (a seat's own
    shuffle): :func:`is_seeded_step` of the same four passes without recomputing it."""
    passed.note(_step_statement(deck, joint_key, seed, out))


def is_seeded_step(deck: Sequence[Ciphertext], joint_key: bytes, seed: bytes,
                   out: Sequence[Ciphertext]) -> bool:
    """Whether ``out`` is exactly the shuffle step that ``seed`` commits to, applied to
    ``deck``: ``shuffle_step(deck, joint_key, expand_permutation(seed),
    expand_randomizers(seed)) == out``.  Every ciphertext is two 32-byte points.  The
    very same four, checked (or computed by the shuffler) in this process already, pass
    without the step's 80 multiplications again (:mod:`.passed`)."""
    key = _step_statement(deck, joint_key, seed, out)
    if passed.passed(key):
        return True
    step = shuffle_step(deck, joint_key, expand_permutation(seed), expand_randomizers(seed))
    if step != list(out):
        return False
    passed.note(key)
    return True


# -- Schnorr proof of knowledge of a secret key -----------------------------------------


def _key_challenge(ctx: Sequence[bytes], seat: int, y: bytes, commitment: bytes,
                   r_point: bytes) -> int:
    return hash_to_scalar(TAG_KEY_PROOF, *ctx, u64(seat), BASE, y, commitment, r_point)


def prove_key(x: int, ctx: Sequence[bytes], seat: int, commitment: bytes,
              nonce: int | None = None) -> tuple[bytes, bytes]:
    """Public key ``Y = x*B`` and a Schnorr proof of knowledge of ``x``.

    The challenge hashes the instance context, the seat, ``B``, ``Y``, the seat's shuffle
    commitment (so the key message cannot be split from it) and ``R = k*B``.
    Returns ``(Y, proof)`` with ``proof = c || s``, ``s = k + c*x``.  ``nonce``: ``k``
    given (the test vector's, to reproduce its proof byte for byte); never in play,
    where a fresh random one is drawn.
    """
    y = _base(_sb(x))
    k = random_scalar() if nonce is None else nonce
    c = _key_challenge(ctx, seat, y, commitment, _base(_sb(k)))
    return y, _sb(c) + _sb((k + c * x) % L)


def _split_proof(proof: object) -> tuple[int, int] | None:
    if not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        return None
    c = int.from_bytes(proof[:32], "little")
    s = int.from_bytes(proof[32:], "little")
    if c >= L or s >= L:
        return None
    return c, s


def verify_key(y: bytes, proof: object, ctx: Sequence[bytes], seat: int,
               commitment: bytes) -> bool:
    """Check a key proof.  ``y`` must already be a validated point."""
    cs = _split_proof(proof)
    if cs is None:
        return False
    c, s = cs
    r_point = _sub(_base(_sb(s)), _mul(_sb(c), y))
    return _key_challenge(ctx, seat, y, commitment, r_point) == c


# -- Chaum–Pedersen proof for a batch of decryption shares ------------------------------


def _share_challenge(ctx: Sequence[bytes], seat: int, purpose: bytes, positions: Sequence[int],
                     c1s: Sequence[bytes], ds: Sequence[bytes], a0: bytes,
                     as_: Sequence[bytes]) -> int:
    return hash_to_scalar(TAG_SHARE_PROOF, *ctx, u64(seat), purpose, bytes(positions),
                          b"".join(c1s), b"".join(ds), a0, b"".join(as_))


def prove_shares(x: int, ctx: Sequence[bytes], seat: int, purpose: bytes,
                 positions: Sequence[int], c1s: Sequence[bytes]) -> tuple[list[bytes], bytes]:
    """Decryption shares ``d_p = x*c1_p`` and one proof that every ``d_p`` uses the ``x``
    behind the seat's public key ``Y = x*B``.

    This is Chaum–Pedersen with one witness for many bases: commitments ``A0 = k*B`` and
    ``A_p = k*c1_p``, one challenge ``c`` over the whole statement (``ctx`` holds the
    session, hand, instance, seats and *every* public key; ``purpose`` says which step or
    play), response ``s = k + c*x``.  Returns ``(shares, c || s)``.
    """
    xb = _sb(x)
    k = random_scalar()
    kb = _sb(k)
    ds = [_mul(xb, c1) for c1 in c1s]
    as_ = [_mul(kb, c1) for c1 in c1s]
    c = _share_challenge(ctx, seat, purpose, positions, c1s, ds, _base(kb), as_)
    return ds, _sb(c) + _sb((k + c * x) % L)


def verify_shares(y: bytes, ds: Sequence[bytes], proof: object, ctx: Sequence[bytes], seat: int,
                  purpose: bytes, positions: Sequence[int], c1s: Sequence[bytes]) -> bool:
    """Check a batch share proof.  ``y`` and every ``d`` must already be validated points.

    The very same statement and proof, checked in this process already (another peer of
    a table simulated here), passes without its arithmetic (:mod:`.passed`)."""
    cs = _split_proof(proof)
    if cs is None or len(ds) != len(c1s):
        return False
    assert isinstance(proof, bytes)
    key = passed.statement(b"shares", y, b"".join(ds), proof, u64(len(ctx)), *ctx, u64(seat),
                           purpose, bytes(positions), b"".join(c1s))
    if passed.passed(key):
        return True
    c, s = cs
    cb, sb = _sb(c), _sb(s)
    a0 = _sub(_base(sb), _mul(cb, y))
    as_ = [_sub(_mul(sb, c1), _mul(cb, d)) for c1, d in zip(c1s, ds, strict=True)]
    if _share_challenge(ctx, seat, purpose, positions, c1s, ds, a0, as_) != c:
        return False
    passed.note(key)
    return True


def decrypt(c2: bytes, shares: Sequence[bytes]) -> bytes:
    """``c2`` minus every seat's share: the plaintext point."""
    m = c2
    for d in shares:
        m = _sub(m, d)
    return m
