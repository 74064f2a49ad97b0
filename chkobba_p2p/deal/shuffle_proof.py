"""Zero-knowledge proof that a shuffle step permuted and re-randomized its input deck.

The proof is Terelius–Wikström's proof of a shuffle, in the form of Haenni, Locher, Koenig
and Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017
workshops, algorithms GenShuffleProof / CheckShuffleProof), moved from a Schnorr group to
ristretto255 (prime order ``L``) and written additively.  It is made non-interactive with
Fiat–Shamir over the whole statement: the caller's ``context`` (session, hand, shuffle
instance, shuffler seat), the joint public key, every input and every output ciphertext.

Ciphertexts are ElGamal pairs of 32-byte points, ``Enc(M; r) = (r*G, M + r*H)`` with
``G`` the ristretto255 base point and ``H`` the joint public key.  A shuffle step outputs
``out[i] = inp[perm[i]] + Enc(0; rands[i])``, componentwise.

The exact wire layout, the generator derivation and every hash input are specified in
``docs/shuffle-proof.md``; this module is the reference implementation of that text.

Public API: :func:`derive_generators`, :func:`prove_shuffle`, :func:`verify_shuffle`,
:class:`Opened`, :class:`ShuffleProofError`, :func:`proof_size`.

An auditor who knows a shuffle's witness (its seed is open and the step recomputed from it:
the end of a hand) verifies the proof with :func:`verify_shuffle`'s ``opened``: the same
equations, with the ciphertext sums the witness determines worked out in scalars first.
The commitments it hashes are the very points the full check computes, so it accepts and
refuses exactly the same proofs, with about 40 % fewer scalar multiplications
(``docs/deal.md``, "Auditing a hand's proofs").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import rbcl

from . import group, passed
from .errors import DealArgumentError
from .group import IDENTITY, L

__all__ = [
    "Ciphertext",
    "ShuffleProofError",
    "MALFORMED",
    "BAD_PROOF",
    "NOT_RERANDOMIZED",
    "FORMAT_VERSION",
    "TAG_GENERATOR",
    "TAG_STATEMENT",
    "TAG_PERMUTATION",
    "TAG_U",
    "TAG_CHALLENGE",
    "derive_generators",
    "prove_shuffle",
    "verify_shuffle",
    "Opened",
    "opened_chain",
    "proof_size",
]

#: An ElGamal ciphertext ``(c1, c2)``: two canonical 32-byte ristretto255 points.
Ciphertext = tuple[bytes, bytes]

#: The proof bytes could not be parsed, or hold a non-canonical point or scalar.
MALFORMED = "malformed_shuffle_proof"
#: The proof parses but does not prove this statement (wrong deck, key or context).
BAD_PROOF = "bad_shuffle_proof"
#: An output ciphertext was not re-randomized (its first component is an input's).
NOT_RERANDOMIZED = "shuffle_not_rerandomized"

#: First byte of every proof: the format described in docs/shuffle-proof.md.
FORMAT_VERSION = 1

_TAG = b"chkobba-p2p/shuffle-proof/v1/"
TAG_GENERATOR = _TAG + b"generator"
TAG_STATEMENT = _TAG + b"statement"
TAG_PERMUTATION = _TAG + b"permutation"
TAG_U = _TAG + b"u"
TAG_CHALLENGE = _TAG + b"challenge"

_PT = group.POINT_BYTES
_SC = group.SCALAR_BYTES

# Bound once: these run a few hundred times per proof and attribute lookups add up.
_mul: Callable[[bytes, bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero
_base: Callable[[bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_base_allow_scalar_zero
_add = rbcl.crypto_core_ristretto255_add
_sub = rbcl.crypto_core_ristretto255_sub
_valid = rbcl.crypto_core_ristretto255_is_valid_point


class ShuffleProofError(ValueError):
    """A shuffle proof, or the shuffle it should prove, is refused.

    This is always the *shuffler's* fault when the inputs and key are the verifier's own:
    ``code`` is a short wire code (:data:`MALFORMED`, :data:`BAD_PROOF`,
    :data:`NOT_RERANDOMIZED`), the message a sentence for humans.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _sb(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def _smul(k: int, p: bytes) -> bytes:
    return _mul((k % L).to_bytes(32, "little"), p)


def _gmul(k: int) -> bytes:
    return _base((k % L).to_bytes(32, "little"))


def _lincomb(scalars: Sequence[int], points: Sequence[bytes]) -> bytes:
    """``sum(k * P)``.  libsodium has no multi-scalar multiplication: one mul per term
    (and one addition fewer than terms: each costs a decoding and an encoding)."""
    if len(scalars) != len(points):
        raise DealArgumentError("as many scalars as points", code="lengths_differ")
    if not points:
        return IDENTITY
    acc = _mul((scalars[0] % L).to_bytes(32, "little"), points[0])
    for i in range(1, len(points)):
        acc = _add(acc, _mul((scalars[i] % L).to_bytes(32, "little"), points[i]))
    return acc


def _sum(points: Sequence[bytes]) -> bytes:
    if not points:
        return IDENTITY
    acc = points[0]
    for i in range(1, len(points)):
        acc = _add(acc, points[i])
    return acc


def derive_generators(context: bytes, n: int) -> list[bytes]:
    """``n`` independent generators for the shuffle proof of ``context``.

    ``G_k = hash_to_point(TAG_GENERATOR, context, k as 4 bytes big-endian)`` for
    ``k = 0..n-1``: a hash straight onto the group, so nobody (the shuffler included) knows
    a discrete log between any two of them or to the base point.  The list for a larger
    ``n`` extends the list for a smaller one.
    """
    if n < 0:
        raise DealArgumentError("n must be >= 0", code="negative_count", data={"count": n})
    return [group.hash_to_point(TAG_GENERATOR, context, k.to_bytes(4, "big")) for k in range(n)]


def proof_size(n: int) -> int:
    """Length in bytes of a proof for a deck of ``n`` ciphertexts: ``128 n + 161``."""
    return 1 + 4 * n * _PT + _SC + 4 * _SC


# -- Fiat–Shamir -----------------------------------------------------------------------


def _statement_digest(
    context: bytes, pk: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext]
) -> bytes:
    parts: list[bytes] = [context, pk, len(inputs).to_bytes(4, "big")]
    for c1, c2 in inputs:
        parts.append(c1)
        parts.append(c2)
    for c1, c2 in outputs:
        parts.append(c1)
        parts.append(c2)
    return group.hash_bytes(TAG_STATEMENT, *parts)


def _u_challenges(statement: bytes, commitments: Sequence[bytes]) -> tuple[bytes, list[int]]:
    """The per-position challenges ``u_j``, drawn once the permutation is committed to."""
    seed = group.hash_bytes(TAG_PERMUTATION, statement, *commitments)
    us = [group.hash_to_scalar(TAG_U, seed, j.to_bytes(4, "big")) for j in range(len(commitments))]
    return seed, us


def _challenge(seed: bytes, chain: Sequence[bytes], t: Sequence[bytes]) -> int:
    return group.hash_to_scalar(TAG_CHALLENGE, seed, *chain, *t)


# -- proving ---------------------------------------------------------------------------


def prove_shuffle(
    context: bytes,
    pk: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    perm: Sequence[int],
    rands: Sequence[int],
    *,
    commit_rands: Sequence[int] | None = None,
) -> bytes:
    """Prove that ``outputs[i] == inputs[perm[i]] + Enc(0; rands[i])`` for every ``i``.

    ``context`` must identify this exact shuffle (session, hand, shuffle instance, shuffler
    seat): the proof verifies under no other context.  Nonces come from the OS CSPRNG.
    Returns the proof bytes (:func:`proof_size` long, 5281 bytes for 40 cards).

    ``commit_rands``: the permutation commitment's randomness ``r_j`` (column ``j``'s
    commitment is ``r_j G + h_i`` with ``perm[i] == j``), each in ``1..L-1``; fresh from the
    CSPRNG when omitted.  The deal derives them from the shuffle's secret seed
    (:func:`chkobba_p2p.deal.crypto.expand_commit_randomizers`): they stay as secret as the
    permutation until the seed opens, and then an auditor who knows them checks the proof
    at a lower cost (:class:`Opened`).  Any value gives a valid proof.

    Raises ``ValueError`` (local misuse) if ``perm`` is not a permutation of
    ``range(len(inputs))``, a randomizer is not in ``1..L-1``, or the lengths disagree.
    It does not recompute the outputs from the witness (that would double the cost); a
    wrong witness simply yields a proof every verifier refuses.
    """
    n = len(inputs)
    if n < 1:
        raise DealArgumentError("a shuffle needs at least one ciphertext", code="empty_shuffle")
    if len(outputs) != n or len(perm) != n or len(rands) != n:
        raise DealArgumentError("inputs, outputs, perm and rands must have the same length",
                                code="lengths_differ")
    if sorted(perm) != list(range(n)):
        raise DealArgumentError("perm is not a permutation of range(len(inputs))",
                                code="not_a_permutation")
    if any(not 0 < r < L for r in rands):
        raise DealArgumentError("every randomizer must be in 1..L-1 (0 would not re-randomize)",
                                code="randomizer_range")
    if commit_rands is not None and (len(commit_rands) != n
                                     or any(not 0 < r < L for r in commit_rands)):
        # 0 would commit to h_i in the clear, and show where column j's 1 is.
        raise DealArgumentError("commit_rands: one scalar in 1..L-1 per ciphertext",
                                code="commit_rands_range")
    return _prove(context, pk, inputs, outputs, perm, rands, commit_rands)


def _prove(
    context: bytes,
    pk: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    perm: Sequence[int],
    rands: Sequence[int],
    commit_rands: Sequence[int] | None = None,
    tamper_commitments: Callable[[list[bytes]], list[bytes]] | None = None,
) -> bytes:
    """The prover's algebra, without argument checks (tests use it to play a cheater;
    ``tamper_commitments`` rewrites the permutation commitments before they are hashed,
    the rest of the proof made as if they were the honest ones)."""
    n = len(inputs)
    rnd = group.random_scalar
    gens = derive_generators(context, n + 1)
    h, hs = gens[0], gens[1:]

    # Permutation commitment, one Pedersen commitment per column of the permutation matrix:
    # column perm[i] holds its single 1 in row i, so c[perm[i]] = r[perm[i]]*G + h_i.
    # (Written per matrix entry so that a cheating "perm" in the tests commits to its
    # non-permutation matrix rather than crashing.)
    r_c = [rnd() for _ in range(n)] if commit_rands is None else [r % L for r in commit_rands]
    com = [_gmul(r) for r in r_c]
    for i, j in enumerate(perm):
        com[j] = _add(com[j], hs[i])
    if tamper_commitments is not None:
        com = tamper_commitments(com)

    statement = _statement_digest(context, pk, inputs, outputs)
    seed, u = _u_challenges(statement, com)
    u_p = [u[j] for j in perm]  # u'_i = u[perm[i]]

    # Commitment chain to the product of the u'_i.
    r_hat = [rnd() for _ in range(n)]
    chain: list[bytes] = []
    prev = h
    for i in range(n):
        prev = _add(_gmul(r_hat[i]), _smul(u_p[i], prev))
        chain.append(prev)

    w1, w2, w3, w4 = rnd(), rnd(), rnd(), rnd()
    w_hat = [rnd() for _ in range(n)]
    w_p = [rnd() for _ in range(n)]

    t1 = _gmul(w1)
    t2 = _gmul(w2)
    t3 = _add(_gmul(w3), _lincomb(w_p, hs))
    t41 = _sub(_lincomb(w_p, [c[0] for c in outputs]), _gmul(w4))
    t42 = _sub(_lincomb(w_p, [c[1] for c in outputs]), _smul(w4, pk))
    t_hat = []
    prev = h
    for i in range(n):
        t_hat.append(_add(_gmul(w_hat[i]), _smul(w_p[i], prev)))
        prev = chain[i]

    e = _challenge(seed, chain, [t1, t2, t3, t41, t42, *t_hat])

    r_bar = sum(r_c) % L
    # r_hat combined: sum r_hat[i] * prod_{k>i} u'_k.
    v = 1
    r_hat_sum = 0
    for i in range(n - 1, -1, -1):
        r_hat_sum = (r_hat_sum + r_hat[i] * v) % L
        v = (v * u_p[i]) % L
    r_tilde = sum(rc * uj for rc, uj in zip(r_c, u, strict=True)) % L
    r_prime = sum(rr * up for rr, up in zip(rands, u_p, strict=True)) % L

    s1 = (w1 - e * r_bar) % L
    s2 = (w2 - e * r_hat_sum) % L
    s3 = (w3 - e * r_tilde) % L
    s4 = (w4 - e * r_prime) % L
    s_hat = [(w_hat[i] - e * r_hat[i]) % L for i in range(n)]
    s_p = [(w_p[i] - e * u_p[i]) % L for i in range(n)]

    out = bytearray([FORMAT_VERSION])
    for c in com:
        out += c
    for c in chain:
        out += c
    out += _sb(e) + _sb(s1) + _sb(s2) + _sb(s3) + _sb(s4)
    for s in s_hat:
        out += _sb(s)
    for s in s_p:
        out += _sb(s)
    return bytes(out)


# -- verifying -------------------------------------------------------------------------


class Opened(NamedTuple):
    """What an auditor knows of a shuffle once its seed is open and its step recomputed.

    ``perm`` and ``rands``: the step's permutation and re-randomizers, with
    ``outputs[i] == inputs[perm[i]] + Enc(0; rands[i])`` for every ``i``; ``in_logs``: the
    discrete logarithm to ``G`` of every input's first component, ``inputs[j][0] ==
    in_logs[j] * G`` (all 0 for the public deck; a shuffled deck's are its shufflers'
    re-randomizers, summed along the permutations).  The caller vouches for both
    equalities, having checked them exactly (the deal's reveal recomputes every step
    byte for byte); :func:`opened_chain` builds them from the seeds.
    """

    perm: Sequence[int]
    rands: Sequence[int]
    in_logs: Sequence[int]
    #: The randomness the prover is expected to have used in its permutation commitment
    #: (the deal derives it from the seed), or None.  Not vouched for: the check compares
    #: each commitment of the proof with it and uses it only if all of them match.
    commit_rands: Sequence[int] | None = None


_Step = tuple[Sequence[int], Sequence[int]] | tuple[Sequence[int], Sequence[int],
                                                     Sequence[int] | None]


def opened_chain(steps: Sequence[_Step]) -> list[Opened]:
    """The :class:`Opened` of each step of a chain of shuffles that starts from a deck
    whose first components are all the identity (the deal's public deck), given each
    step's ``(perm, rands)`` or ``(perm, rands, commit_rands)`` in order: step ``k``'s
    input is step ``k-1``'s output."""
    out: list[Opened] = []
    if not steps:
        return out
    logs = [0] * len(steps[0][0])
    for step in steps:
        perm, rands = step[0], step[1]
        out.append(Opened(perm, rands, logs, step[2] if len(step) == 3 else None))
        logs = [(logs[j] + r) % L for j, r in zip(perm, rands, strict=True)]
    return out


def _ciphertexts(deck: object, what: str, code: str) -> list[Ciphertext]:
    if not isinstance(deck, Sequence) or isinstance(deck, bytes | bytearray | str):
        raise ShuffleProofError(code, f"{what} is not a sequence of ciphertexts")
    result = []
    for c in deck:
        if not isinstance(c, Sequence) or isinstance(c, bytes | bytearray | str) or len(c) != 2:
            raise ShuffleProofError(code, f"{what} holds something that is not a ciphertext")
        c1, c2 = c
        for p in (c1, c2):
            if not isinstance(p, bytes | bytearray) or len(p) != _PT or not _valid(bytes(p)):
                raise ShuffleProofError(code, f"{what} holds an invalid ristretto255 point")
        result.append((bytes(c1), bytes(c2)))
    return result


def _points(data: bytes, offset: int, n: int) -> list[bytes]:
    pts = [data[offset + k * _PT : offset + (k + 1) * _PT] for k in range(n)]
    for p in pts:
        if not _valid(p):
            raise ShuffleProofError(MALFORMED, "the shuffle proof holds an invalid point")
    return pts


def _scalars(data: bytes, offset: int, n: int) -> list[int]:
    ks = [int.from_bytes(data[offset + k * _SC : offset + (k + 1) * _SC], "little")
          for k in range(n)]
    if any(k >= L for k in ks):
        raise ShuffleProofError(MALFORMED, "the shuffle proof holds a non-canonical scalar")
    return ks


def verify_shuffle(
    context: bytes,
    pk: bytes,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: bytes,
    *,
    opened: Opened | None = None,
) -> None:
    """Check that ``outputs`` is a permutation and re-randomization of ``inputs``.

    ``context``, ``pk`` and ``inputs`` are the verifier's own view of the statement;
    ``outputs`` and ``proof`` come from the shuffler.  Returns ``None`` if the proof holds
    and every output was re-randomized; otherwise raises :class:`ShuffleProofError`
    (malformed proof or outputs, a proof that does not verify for this exact context, key
    and decks, or an output whose first component equals an input's, i.e. an entry the
    shuffler did not re-randomize).  Every point is validated before use.
    ``ValueError`` (not a ShuffleProofError) means the caller's own ``pk`` or ``inputs``
    are not valid, a local error.

    ``opened``: the shuffle's witness, known to an auditor (:class:`Opened`: the caller
    vouches that the decks are exactly the ones it gives).  The outcome is the same (the
    same points are hashed), at a lower cost; the decks' points, which the witness makes
    exact results of libsodium's arithmetic, are not validated again.
    """
    try:
        pk = group.decode_point(pk)
    except group.InvalidGroupElement as exc:
        raise DealArgumentError(f"pk: {exc}", code="bad_public_key") from None
    if opened is not None:
        inp = [(bytes(c1), bytes(c2)) for c1, c2 in inputs]
        outp = [(bytes(c1), bytes(c2)) for c1, c2 in outputs]
        n = len(inp)
        if not n or len(opened.perm) != n or len(opened.rands) != n \
                or len(opened.in_logs) != n:
            raise DealArgumentError("the opened witness does not fit the decks",
                                    code="witness_misfit")
    else:
        try:
            inp = _ciphertexts(inputs, "inputs", MALFORMED)
        except ShuffleProofError as exc:
            raise DealArgumentError(str(exc), code="bad_inputs") from None
        n = len(inp)
        if n < 1:
            raise DealArgumentError("a shuffle needs at least one ciphertext", code="empty_shuffle")
        outp = _ciphertexts(outputs, "the shuffled deck", MALFORMED)
    if len(outp) != n:
        raise ShuffleProofError(
            BAD_PROOF, f"the shuffled deck has {len(outp)} ciphertexts, the input has {n}"
        )
    if not isinstance(proof, bytes | bytearray):
        raise ShuffleProofError(MALFORMED, "the shuffle proof is not a byte string")
    proof = bytes(proof)
    if len(proof) != proof_size(n):
        raise ShuffleProofError(
            MALFORMED, f"a shuffle proof for {n} cards is {proof_size(n)} bytes, not {len(proof)}"
        )
    if proof[0] != FORMAT_VERSION:
        raise ShuffleProofError(MALFORMED, f"unknown shuffle proof format {proof[0]}")
    # The very same statement and proof, checked in full in this process already (another
    # peer of a table simulated here): the outcome is known (deal/passed.py).
    key = passed.statement(b"shuffle-proof", context, pk, b"".join(c1 + c2 for c1, c2 in inp),
                           b"".join(c1 + c2 for c1, c2 in outp), proof)
    if passed.passed(key):
        return

    gens = derive_generators(context, n + 1)
    h, hs = gens[0], gens[1:]
    off = 1
    com = [proof[off + k * _PT : off + (k + 1) * _PT] for k in range(n)]
    # Commitments equal to the ones the witness gives are valid points (the encodings
    # are canonical); any other is validated here, first, as the full check does.
    fast = opened is not None and _commitments_are(opened, com, hs)
    if not fast:
        _points(proof, off, n)
    off += n * _PT
    chain = _points(proof, off, n)
    off += n * _PT
    e, s1, s2, s3, s4 = _scalars(proof, off, 5)
    off += 5 * _SC
    s_hat = _scalars(proof, off, n)
    off += n * _SC
    s_p = _scalars(proof, off, n)

    # Re-randomization: out[i] = inp[perm[i]] + (r_i*G, r_i*H), so an entry passed on with
    # r_i = 0 keeps its first component.  Honest shufflers hit this with probability ~N^2/L.
    firsts = {c[0] for c in inp}
    for i, c in enumerate(outp):
        if c[0] in firsts:
            raise ShuffleProofError(
                NOT_RERANDOMIZED, f"shuffled ciphertext {i} was not re-randomized"
            )

    statement = _statement_digest(context, pk, inp, outp)
    seed, u = _u_challenges(statement, com)

    u_prod = 1
    for uj in u:
        u_prod = (u_prod * uj) % L
    eu = [(e * uj) % L for uj in u]

    if fast:
        # Every c_j is r_j*G + h_i with perm[i] == j, r_j known: the same two points as
        # below, with one fixed-base multiplication for the c_j's part of each.
        assert opened is not None and opened.commit_rands is not None
        rc = opened.commit_rands
        t1 = _gmul(e * sum(rc) + s1)
        t3 = _add(_gmul(e * sum(r * uj for r, uj in zip(rc, u, strict=True)) + s3),
                  _lincomb([sp + eu[j] for sp, j in zip(s_p, opened.perm, strict=True)], hs))
    else:
        # t1 = e*(sum c_j - sum h_i) + s1*G
        t1 = _add(_smul(e, _sub(_sum(com), _sum(hs))), _gmul(s1))
        # t3 = e*sum(u_j c_j) + s3*G + sum(s'_i h_i)
        t3 = _add(_add(_lincomb(eu, com), _gmul(s3)), _lincomb(s_p, hs))
    # t2 = e*(chain_last - prod(u)*h) + s2*G
    t2 = _add(_smul(e, _sub(chain[-1], _smul(u_prod, h))), _gmul(s2))
    # (t41, t42) = e*sum(u_j inp_j) + sum(s'_i out_i) - Enc(0; s4)
    if opened is not None:
        t41, t42 = _t4_opened(opened, eu, s_p, s4, pk, inp)
    else:
        t41, t42 = _t4(eu, s_p, s4, pk, inp, outp)
    t_hat = []
    prev = h
    eb = _sb(e)
    for i in range(n):
        t_hat.append(_add(_add(_mul(eb, chain[i]), _gmul(s_hat[i])), _smul(s_p[i], prev)))
        prev = chain[i]

    if _challenge(seed, chain, [t1, t2, t3, t41, t42, *t_hat]) != e:
        raise ShuffleProofError(
            BAD_PROOF, "the shuffle proof does not verify for this context, key and decks"
        )
    if opened is None:  # an opened check stands on its caller's word: not kept
        passed.note(key)


def _commitments_are(opened: Opened, com: Sequence[bytes], hs: Sequence[bytes]) -> bool:
    """Whether every permutation commitment is ``c_j == r_j G + h_i`` (``perm[i] == j``)
    for the expected randomness ``r_j``, byte for byte (encodings are canonical, so equal
    bytes are the same point).  One fixed-base multiplication and one addition each,
    against the variable-base multiplication and three additions per ``c_j`` that
    ``t1`` and ``t3`` then do without."""
    rc = opened.commit_rands
    if rc is None or len(rc) != len(com):
        return False
    return all(_add(_gmul(rc[j]), hs[i]) == com[j] for i, j in enumerate(opened.perm))


def _t4(eu: Sequence[int], s_p: Sequence[int], s4: int, pk: bytes,
        inp: Sequence[Ciphertext], outp: Sequence[Ciphertext]) -> tuple[bytes, bytes]:
    """``(t41, t42)`` from the decks' points: four sums of ``N`` multiplications."""
    t41 = _sub(
        _add(_lincomb(eu, [c[0] for c in inp]), _lincomb(s_p, [c[0] for c in outp])), _gmul(s4)
    )
    t42 = _sub(
        _add(_lincomb(eu, [c[1] for c in inp]), _lincomb(s_p, [c[1] for c in outp])),
        _smul(s4, pk),
    )
    return t41, t42


def _t4_opened(opened: Opened, eu: Sequence[int], s_p: Sequence[int], s4: int, pk: bytes,
               inp: Sequence[Ciphertext]) -> tuple[bytes, bytes]:
    """``(t41, t42)`` with the witness: the same two points as :func:`_t4`.

    With ``a'_i = a_{perm(i)} + r_i G``, ``b'_i = b_{perm(i)} + r_i H`` and
    ``a_j = x_j G`` (``x = in_logs``), and ``k_j = e u_j + s'_{perm^-1(j)}``::

        t41 = (sum_j k_j x_j + sum_i s'_i r_i - s4) G        one fixed-base multiplication
        t42 = sum_j k_j b_j + (sum_i s'_i r_i - s4) H        N + 1 multiplications
    """
    perm, rands, logs = opened.perm, opened.rands, opened.in_logs
    k = list(eu)
    for i, j in enumerate(perm):
        k[j] += s_p[i]
    y = (sum(sp * r for sp, r in zip(s_p, rands, strict=True)) - s4) % L
    t41 = _gmul(sum(kj * xj for kj, xj in zip(k, logs, strict=True)) + y)
    t42 = _add(_lincomb(k, [c[1] for c in inp]), _smul(y, pk))
    return t41, t42

