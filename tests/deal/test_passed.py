"""The deal's memory of the checks this process passed (``chkobba_p2p/deal/passed.py``):
a check of the very same bytes is known, and any byte changed, in any of the check's
inputs, is checked in full again (and refused when it is wrong)."""

from __future__ import annotations

import pytest
from test_shuffle_proof import CONTEXT, honest, refused

from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal import group, passed
from chkobba_p2p.deal.shuffle_proof import BAD_PROOF, verify_shuffle


@pytest.fixture(autouse=True)
def _kept():
    """Every test here with the memory on (the default) and empty, and left so."""
    passed.set_enabled(True)
    yield
    passed.set_enabled(True)


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def test_a_passed_shuffle_proof_is_known_and_every_other_statement_is_checked_in_full():
    pk, inputs, outputs, _, _, proof = honest(5)
    key = passed.statement(b"shuffle-proof", CONTEXT, pk, dc.pack_deck(inputs),
                           dc.pack_deck(outputs), proof)
    assert not passed.passed(key)
    verify_shuffle(CONTEXT, pk, inputs, outputs, proof)
    verify_shuffle(CONTEXT, pk, inputs, outputs, proof)  # known: passes again
    other_pk = group.base_mul(group.random_scalar())
    swapped_in = [inputs[1], inputs[0], *inputs[2:]]
    swapped_out = [outputs[1], outputs[0], *outputs[2:]]
    # Each input of the check, changed alone: a statement never passed, refused.
    refused(BAD_PROOF, CONTEXT + b"!", pk, inputs, outputs, proof)
    refused(BAD_PROOF, CONTEXT, other_pk, inputs, outputs, proof)
    refused(BAD_PROOF, CONTEXT, pk, swapped_in, outputs, proof)
    refused(BAD_PROOF, CONTEXT, pk, inputs, swapped_out, proof)
    refused(BAD_PROOF, CONTEXT, pk, inputs, outputs, _flip(proof, len(proof) - 40))
    assert passed.passed(key)


def _shares_case():
    x = group.random_scalar()
    y = group.base_mul(x)
    c1s = [group.base_mul(group.random_scalar()) for _ in range(3)]
    ctx = [b"session", dc.u64(1), dc.u64(0), dc.u64(2), y, group.base_mul(2)]
    ds, proof = dc.prove_shares(x, ctx, 0, b"step" + dc.u64(3), [4, 5, 6], c1s)
    return dict(y=y, ds=ds, proof=proof, ctx=ctx, seat=0, purpose=b"step" + dc.u64(3),
                positions=[4, 5, 6], c1s=c1s)


def test_a_passed_share_proof_is_known_and_every_other_statement_is_checked_in_full():
    case = _shares_case()
    assert dc.verify_shares(**case)
    assert dc.verify_shares(**case)  # known: passes again
    other = group.base_mul(group.random_scalar())
    changes = {
        "y": other,
        "ds": [case["ds"][0], case["ds"][1], other],
        "proof": _flip(case["proof"], 40),
        "ctx": [*case["ctx"][:-1], other],
        "seat": 1,
        "purpose": b"step" + dc.u64(4),
        "positions": [4, 5, 7],
        "c1s": [case["c1s"][0], case["c1s"][1], other],
    }
    for name, value in changes.items():
        assert not dc.verify_shares(**{**case, name: value}), name


def _step_case():
    joint = group.base_mul(group.random_scalar())
    seed = dc.new_seed()
    deck = dc.shuffle_step(dc.initial_deck(), joint, list(range(dc.DECK_SIZE)),
                           dc.expand_randomizers(dc.new_seed()))
    out = dc.shuffle_step(deck, joint, dc.expand_permutation(seed), dc.expand_randomizers(seed))
    return deck, joint, seed, out


def test_a_seeded_shuffle_step_is_checked_once_and_any_other_step_is_recomputed():
    deck, joint, seed, out = _step_case()
    assert dc.is_seeded_step(deck, joint, seed, out)
    assert dc.is_seeded_step(deck, joint, seed, out)  # known: passes again
    assert not dc.is_seeded_step(deck, joint, dc.new_seed(), out)
    assert not dc.is_seeded_step(deck, group.base_mul(group.random_scalar()), seed, out)
    assert not dc.is_seeded_step([deck[1], deck[0], *deck[2:]], joint, seed, out)
    assert not dc.is_seeded_step(deck, joint, seed, [out[1], out[0], *out[2:]])


def test_a_shufflers_own_step_is_noted_as_it_computes_it():
    deck, joint, seed, out = _step_case()
    key = passed.statement(b"shuffle-step", dc.pack_deck(deck), joint, seed, dc.pack_deck(out))
    assert not passed.passed(key)
    dc.note_seeded_step(deck, joint, seed, out)
    assert passed.passed(key)
    assert dc.is_seeded_step(deck, joint, seed, out)


def test_switched_off_nothing_is_kept_and_switching_forgets():
    case = _shares_case()
    key = passed.statement(b"k", b"statement")
    passed.note(key)
    assert passed.passed(key)
    passed.set_enabled(False)
    assert not passed.enabled() and not passed.passed(key)
    passed.note(key)
    assert dc.verify_shares(**case)
    assert not passed._young and not passed._old
    passed.set_enabled(True)
    assert not passed.passed(key)  # forgotten when switched


def test_the_memory_is_bounded_and_keeps_the_latest():
    first = passed.statement(b"k", b"first")
    passed.note(first)
    keys = [passed.statement(b"k", i.to_bytes(4, "big")) for i in range(2 * passed.LIMIT)]
    for key in keys:
        passed.note(key)
    assert not passed.passed(first)
    assert all(passed.passed(key) for key in keys[-passed.LIMIT:])
    assert len(passed._young) + len(passed._old) <= 2 * passed.LIMIT


def test_points_found_canonical_are_known_and_any_other_point_is_decoded():
    from chkobba_p2p.deal import PeerMisbehaved
    from chkobba_p2p.deal.core import _points

    points = [group.base_mul(group.random_scalar()) for _ in range(3)]
    data = b"".join(points)
    assert _points(1, {}, data) == points
    assert _points(1, {}, data) == points  # known: the same again
    for bad in (b"\xff" * 32, _flip(points[1], 0)):  # an odd s is never canonical
        with pytest.raises(PeerMisbehaved) as info:
            _points(2, {}, data[:32] + bad + data[64:])
        assert (info.value.blamed_seat, info.value.code) == (2, "bad_point")
