"""The permutation commitment's randomness derived from the shuffle seed (issue 29).

The deal's prover takes the randomness ``r_j`` of its commitments ``c_j = r_j G + h_i``
from its seed (``expand_commit_randomizers``); once the seed is open an auditor checks
each ``c_j`` against it and, when all match, computes two of the proof's points with one
fixed-base multiplication each.  The tests hold that this changes no verdict: every
accepted proof is one the full check accepts, every refused one is refused with the same
code and sentence, whether the prover used the derived randomness or not, and whatever
byte a cheater changes; and that the deal's proofs really are made with it.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.audit import play
from test_shuffle_proof import keypair, plaintext, shuffle
from test_shuffle_proof_opened import chain, context, outcome

from chkobba_p2p.deal import MSG_PROOF, MSG_SHUFFLE, group, shuffle_proof
from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.group import IDENTITY, L
from chkobba_p2p.deal.local import make_table
from chkobba_p2p.deal.shuffle_proof import (
    BAD_PROOF,
    MALFORMED,
    Opened,
    opened_chain,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)
from chkobba_p2p.game.rules import PRESETS
from chkobba_p2p.observe import observer
from chkobba_p2p.observe.audit import VALID


def derived(n: int) -> list[int]:
    return dc.expand_commit_randomizers(secrets.token_bytes(32), context(0), n)


def verdicts(pk, decks, k, proof, opened: Opened):
    """(full check, witness without the commitment randomness, witness with it)."""
    inp, out = decks[k], decks[k + 1]
    plain = Opened(opened.perm, opened.rands, opened.in_logs)
    return (outcome(lambda: verify_shuffle(context(k), pk, inp, out, proof)),
            outcome(lambda: verify_shuffle(context(k), pk, inp, out, proof, opened=plain)),
            outcome(lambda: verify_shuffle(context(k), pk, inp, out, proof, opened=opened)))


def commitments(proof: bytes, n: int) -> list[bytes]:
    """The proof's permutation commitments ``c_0 .. c_{n-1}``."""
    return [proof[1 + 32 * j:33 + 32 * j] for j in range(n)]


def commitments_match(ctx: bytes, proof: bytes, opened: Opened) -> bool:
    n = len(opened.perm)
    hs = shuffle_proof.derive_generators(ctx, n + 1)[1:]
    return shuffle_proof._commitments_are(opened, commitments(proof, n), hs)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(1, 6), steps=st.integers(1, 4), derive=st.booleans())
def test_honest_proofs_are_accepted_whichever_randomness_the_prover_used(n, steps, derive):
    pk, decks, proofs, opened = chain(n, steps, derive=derive)
    for k in range(steps):
        assert commitments_match(context(k), proofs[k], opened[k]) is derive
        assert verdicts(pk, decks, k, proofs[k], opened[k]) == (None, None, None)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5), steps=st.integers(1, 3), derive=st.booleans(), data=st.data())
def test_any_byte_changed_gets_the_full_checks_verdict(n, steps, derive, data):
    pk, decks, proofs, opened = chain(n, steps, derive=derive)
    k = data.draw(st.integers(0, steps - 1), label="step")
    at = data.draw(st.integers(0, proof_size(n) - 1), label="byte")
    mask = data.draw(st.integers(1, 255), label="mask")
    bad = bytearray(proofs[k])
    bad[at] ^= mask
    full, plain, fast = verdicts(pk, decks, k, bytes(bad), opened[k])
    assert full is not None
    assert plain == full and fast == full


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 5), data=st.data())
def test_a_commitment_made_with_other_randomness_is_checked_the_long_way(n, data):
    """One ``r_j`` off (the cheater's proof is otherwise made honestly, so with a fresh
    challenge it is valid): the shortcut does not apply, the proof is accepted as the
    full check accepts it.  Made with a forged challenge that hashes the shortcut's
    points instead of the true ones: refused, as the full check refuses it."""
    _, pk = keypair()
    inp = [(IDENTITY, plaintext(i)) for i in range(n)]
    out, perm, rands = shuffle(inp, pk)
    rc = derived(n)
    j = data.draw(st.integers(0, n - 1), label="column")
    other = list(rc)
    other[j] = data.draw(st.integers(1, L - 1).filter(lambda r: r != rc[j]), label="r")
    proof = prove_shuffle(context(0), pk, inp, out, perm, rands, commit_rands=other)
    opened = opened_chain([(perm, rands, rc)])[0]
    assert not commitments_match(context(0), proof, opened)
    assert verdicts(pk, [inp, out], 0, proof, opened) == (None, None, None)


@pytest.mark.parametrize("column", range(4))
def test_a_proof_forged_for_the_shortcut_is_refused(column, monkeypatch):
    """A shuffler that knows its seed commits to a matrix that is no permutation (one
    column also holds another generator) and makes the rest of the proof as if its
    commitments were the honest ones: the points the shortcut would compute from the
    derived randomness are the ones it hashed.  The shortcut is taken only when every
    commitment matches, so the proof is refused, as the full check refuses it."""
    n = 4
    _, pk = keypair()
    inp = [(IDENTITY, plaintext(i)) for i in range(n)]
    out, perm, rands = shuffle(inp, pk)
    rc = derived(n)
    hs = shuffle_proof.derive_generators(context(0), n + 1)[1:]

    def extra(com: list[bytes]) -> list[bytes]:
        com = list(com)
        com[column] = group.add(com[column], hs[(perm.index(column) + 1) % n])
        return com

    forged = shuffle_proof._prove(context(0), pk, inp, out, perm, rands, rc,
                                  tamper_commitments=extra)
    opened = opened_chain([(perm, rands, rc)])[0]
    assert not commitments_match(context(0), forged, opened)
    full, plain, fast = verdicts(pk, [inp, out], 0, forged, opened)
    assert full == (BAD_PROOF, "the shuffle proof does not verify for this context, key and "
                    "decks")
    assert plain == full and fast == full
    # The control: a shortcut that trusted the witness without comparing the
    # commitments (this mutant) accepts the forgery, so the comparison is what refuses it.
    monkeypatch.setattr(shuffle_proof, "_commitments_are",
                        lambda o, com, hs: o.commit_rands is not None)
    assert verdicts(pk, [inp, out], 0, forged, opened)[2] is None


def test_an_invalid_commitment_point_is_malformed_with_or_without_the_shortcut():
    n = 3
    pk, decks, proofs, opened = chain(n, 1, derive=True)
    bad = proofs[0][:1] + b"\xff" * 32 + proofs[0][33:]
    full, plain, fast = verdicts(pk, decks, 0, bad, opened[0])
    assert full is not None and full[0] == MALFORMED
    assert plain == full and fast == full


def test_the_prover_refuses_unusable_commitment_randomness():
    _, pk = keypair()
    inp = [(IDENTITY, plaintext(i)) for i in range(3)]
    out, perm, rands = shuffle(inp, pk)
    for bad in ([1, 2], [1, 0, 2], [1, L, 2]):
        with pytest.raises(ValueError, match="commit_rands"):
            prove_shuffle(context(0), pk, inp, out, perm, rands, commit_rands=bad)


def test_the_derived_randomness_is_the_seeds_and_its_contexts():
    seed = bytes(range(32))
    rc = dc.expand_commit_randomizers(seed, b"ctx")
    assert len(rc) == dc.DECK_SIZE and all(0 < r < L for r in rc)
    assert rc == dc.expand_commit_randomizers(seed, b"ctx")
    # Independent of the permutation's and re-randomizers' streams of the same seed, of
    # another seed's, and of the same seed's under another context (the generators differ
    # there: the same randomness would show the permutation to whoever compares).
    assert set(rc).isdisjoint(dc.expand_randomizers(seed))
    assert set(rc).isdisjoint(dc.expand_commit_randomizers(bytes(32), b"ctx"))
    assert set(rc).isdisjoint(dc.expand_commit_randomizers(seed, b"ctx2"))


@pytest.mark.parametrize("apart", [False, True])
def test_the_deals_proofs_commit_with_their_seeds_randomness(apart):
    """Every shuffle proof a Deal makes (in its shuffle message, or apart from it as a
    job done alongside) has the commitments its seed gives: the audit's shortcut applies
    to all four."""
    t = make_table(4, shuffle_proofs=True, defer_work=apart, proof_apart=apart)
    t.start()
    kind = MSG_PROOF if apart else MSG_SHUFFLE
    proofs = {s: m["proof"] for s in range(4) for m in t.sent[s] if m["t"] == kind}
    assert sorted(proofs) == [0, 1, 2, 3]
    seeds = [p.to_state()["seed"] for p in t.peers]
    contexts = [t.peers[0]._shuffle_context(s) for s in range(4)]
    opened = opened_chain([(dc.expand_permutation(sd), dc.expand_randomizers(sd),
                            dc.expand_commit_randomizers(sd, ctx))
                           for sd, ctx in zip(seeds, contexts, strict=True)])
    plain = opened_chain([(o.perm, o.rands) for o in opened])
    for s in range(4):
        assert commitments_match(contexts[s], proofs[s], opened[s])
        assert not commitments_match(contexts[s], proofs[s], plain[s])


@pytest.mark.parametrize("apart", [False, True])
def test_the_audit_checks_a_played_matchs_proofs_with_the_commitments(apart):
    """An auditor fed a match's log (sessions in memory, proofs in the shuffle messages or
    apart) gives every held proof the commitment randomness of its seed and its context,
    and every one of them matches: the whole audit takes the cheaper way, VALID.  A match
    to 4 points: two hands (the default 11 takes four, at twice the CPU), so the proofs
    of a later hand, with their own context, are there too."""
    n = 4 if apart else 2
    played = play(n, rules=replace(PRESETS["tunisian"], target=4), proofs=True, seed=31,
                  key=b"commit-audit", apart=apart)
    obs = observer.Observer(workers=0, batch=True)
    for body in played.sessions[0].bodies:
        obs.feed(body)
    verdict = obs.end(None)
    assert verdict.verdict == VALID
    tasks = obs._checks._tasks
    assert all(t.done and t.result is None for t in tasks)
    # The deck built for a hand that never came (next-deck/v1) is never revealed: its
    # proofs, and only those, get the full check.
    opened = [t for t in tasks if t.opened is not None]
    assert len(opened) >= 2 * n  # every shuffle of two hands at least
    assert len(tasks) - len(opened) <= n
    for t in opened:
        ctx, _, _, _, proof = t.args
        assert t.opened.commit_rands is not None
        assert commitments_match(ctx, proof, t.opened)
