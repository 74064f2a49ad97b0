"""Shuffle proofs checked off the serial path (issue 29, docs/deal.md "Order of the work").

A shuffler shuffles on top of the previous deck at once; the proofs are made and checked
alongside (``Deal(defer_work=True)``: :meth:`Deal.work`), with ``proof_apart`` a proof
travels after its deck (``deal/proof``); no decryption share leaves a seat before every
shuffle proof of the instance has verified there, and a bad proof still blames its prover.
"""

from __future__ import annotations

from typing import Any

import pytest

from chkobba_p2p.deal import (
    MSG_PLAY,
    MSG_PROOF,
    MSG_SHARES,
    MSG_SHUFFLE,
    Deal,
    DealUsageError,
    LocalTable,
    PeerMisbehaved,
    Verified,
)
from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.group import IDENTITY, add
from chkobba_p2p.deal.local import make_table, run_hand
from chkobba_p2p.game.cards import DECK

SHARES = (MSG_SHARES, MSG_PLAY, "deal/complain")


def _flip(proof: bytes, at: int = 161 + 64 * 40) -> bytes:  # a response scalar
    return proof[:at] + bytes([proof[at] ^ 1]) + proof[at + 1:]


def _types(table: LocalTable, seat: int) -> list[str]:
    return [m["t"] for m in table.sent[seat]]


@pytest.mark.parametrize("apart", [False, True])
def test_an_honest_hand_with_proofs_checked_alongside(apart):
    run = run_hand(4, dealer=0, shuffle_proofs=True, defer_work=True, proof_apart=apart)
    t = run.tables[-1]
    assert all(any(isinstance(e, Verified) for e in t.events[s]) for s in range(4))
    cards = run.table + [c for s in range(4) for d in run.deals[s] for c in d]
    assert len(cards) == len(set(cards)) and set(cards) <= set(DECK)
    for s in range(4):
        kinds = _types(t, s)
        assert kinds.count(MSG_SHUFFLE) == 1
        assert kinds.count(MSG_PROOF) == (1 if apart else 0)
        if apart:  # the deck goes first, its proof after
            assert kinds.index(MSG_SHUFFLE) < kinds.index(MSG_PROOF)


def test_the_next_shuffler_shuffles_before_the_previous_proof_is_checked():
    """Seat 1 sends its deck while seat 0's proof is still unchecked at seat 1."""
    t = make_table(3, shuffle_proofs=True, defer_work=True, proof_apart=True)
    t.call_all("start")
    for seat in range(3):  # the keys only
        keys = [m for m in t.inbox[seat] if m[1]["t"] == "deal/key"]
        t.inbox[seat] = [m for m in t.inbox[seat] if m[1]["t"] != "deal/key"]
        for sender, msg in keys:
            t.call(seat, "receive", sender, msg)
    assert _types(t, 0)[-1] == MSG_SHUFFLE and t.peers[0].has_work  # its proof: not yet
    assert [m["t"] for _, m in t.inbox[1]] == [MSG_SHUFFLE]
    t.call(1, "receive", *t.inbox[1].pop(0))  # seat 0's deck
    assert _types(t, 1)[-1] == MSG_SHUFFLE  # shuffled on top at once
    assert not t.peers[1].proofs_verified


def _stall_proof(seat: int, held: list[dict[str, Any]]):
    """A tamper hook: ``seat``'s proof (``deal/proof``) is held back, bad, to be sent
    later by the test."""
    def tamper(sender: int, msg: dict[str, Any]) -> dict[str, Any] | None:
        if sender == seat and msg["t"] == MSG_PROOF:
            held.append({**msg, "proof": _flip(msg["proof"])})
            return None
        return msg
    return tamper


@pytest.mark.parametrize("n,cheat", [(2, 0), (4, 0), (4, 2)])
def test_a_bad_proof_that_arrives_after_the_next_shuffle_is_blamed_and_no_share_goes(n, cheat):
    held: list[dict[str, Any]] = []
    t = make_table(n, cutter=1 % n, shuffle_proofs=True, defer_work=True, proof_apart=True,
                   tamper=_stall_proof(cheat, held))
    t.start()
    t.call(1 % n, "cut", 5)
    t.deliver()
    assert len(held) == 1
    # Every later seat has shuffled on top of the cheater's deck meanwhile.
    for s in range(cheat + 1, n):
        assert MSG_SHUFFLE in _types(t, s)
    honest = [s for s in range(n) if s != cheat]
    assert all(t.peers[s].phase == "deal" and not t.peers[s].proofs_verified for s in honest)
    assert all((cheat, MSG_PROOF) in t.peers[s].expecting() for s in honest)
    # The rules engine opens a step: the honest seats hold their shares back.
    for s in honest:
        t.call(s, "open", {0: [0], 1 % n: [1]}, [2, 3])
    t.deliver()
    assert not [m for s in honest for m in t.sent[s] if m["t"] in SHARES]
    assert all(t.peers[s].card_at(2) is None for s in honest)
    # The bad proof arrives at last.
    for s in honest:
        t.inbox[s].append((cheat, held[0]))
    blames = t.deliver_all()
    assert sorted(blames) == honest
    for exc in blames.values():
        assert exc.blamed_seat == cheat
        assert exc.code == "bad_shuffle_proof", exc.reason
        assert exc.evidence == held[0]
    assert not [m for s in honest for m in t.sent[s] if m["t"] in SHARES]


def test_a_bad_proof_inside_the_deck_message_still_blames_its_prover_after_the_next_shuffle():
    """Without proof_apart the proof travels with its deck; checked alongside, the next
    seat has already shuffled when it is refused, and no share has gone."""
    def tamper(sender, msg):
        if sender == 0 and msg["t"] == MSG_SHUFFLE:
            return {**msg, "proof": _flip(msg["proof"])}
        return msg

    t = make_table(3, shuffle_proofs=True, defer_work=True, tamper=tamper)
    t.call_all("start")
    blames = t.deliver_all()
    assert sorted(blames) == [1, 2]
    assert all(e.blamed_seat == 0 and e.code == "bad_shuffle_proof" for e in blames.values())
    assert MSG_SHUFFLE in _types(t, 1)  # seat 1 shuffled on top before the refusal
    assert not [m for s in range(3) for m in t.sent[s] if m["t"] in SHARES]


def test_without_deferred_work_each_call_checks_every_proof_before_it_returns():
    """The default (what the session uses): a call returns with every received proof
    checked, so shares go at once."""
    t = make_table(3, shuffle_proofs=True, proof_apart=True)
    t.start()
    assert all(p.proofs_verified and not p.has_work for p in t.peers)
    t.call_all("open", {0: [0]})
    assert all(MSG_SHARES in _types(t, s) for s in (1, 2))


def test_a_proof_for_a_table_that_sends_proofs_inside_the_deck_is_refused():
    t = make_table(2, shuffle_proofs=True)
    t.start()
    fresh = Deal(session_id=b"local-table", hand=0, instance=0, n=2, seat=1,
                 shuffle_proofs=True, proof_apart=False)
    fresh.start()
    with pytest.raises(PeerMisbehaved) as info:
        fresh.receive(0, {"t": MSG_PROOF, "proof": b"x"})
    assert info.value.code == "unexpected" and info.value.blamed_seat == 0


def test_finishing_with_shares_held_is_a_usage_error_and_the_state_survives_a_restore():
    held: list[dict[str, Any]] = []
    t = make_table(2, shuffle_proofs=True, defer_work=True, proof_apart=True,
                   tamper=_stall_proof(0, held))
    t.start()
    t.call_all("open", {0: [0]}, [1])
    t.deliver()
    with pytest.raises(DealUsageError):
        t.peers[1].finish(discard=True)
    restored = Deal.from_state(t.peers[1].to_state())
    assert not restored.proofs_verified and restored.expecting() == t.peers[1].expecting()
    honest_proof = {**held[0], "proof": _flip(held[0]["proof"])}  # flipped back
    out = restored.receive(0, honest_proof)
    assert not out.messages and restored.has_work
    out = restored.work()
    assert [m["t"] for m in out.messages] == [MSG_SHARES]  # released once verified


def test_a_later_shuffler_makes_its_masks_while_it_waits_and_shuffles_the_same_deck(
        monkeypatch):
    """Once every key is in, a seat whose turn to shuffle is still to come computes its
    step's masks (all of the step's scalar multiplications); when the deck before its own
    arrives, its step is only additions (the next seat gets its deck sooner), and the deck
    it sends is the step its seed gives (the reveal's re-check computes it the same way)."""
    seeds = [bytes([s + 1]) * 32 for s in range(3)]
    t = make_table(3, seeds=seeds)  # proofs off: a deck's arrival checks no proof
    t.call_all("start")
    for seat in range(3):  # the keys only
        keys = [m for m in t.inbox[seat] if m[1]["t"] == "deal/key"]
        t.inbox[seat] = [m for m in t.inbox[seat] if m[1]["t"] != "deal/key"]
        for sender, msg in keys:
            t.call(seat, "receive", sender, msg)
    joint = IDENTITY  # the joint key: the sum of the keys the seats sent
    for seat in range(3):
        joint = add(joint, next(m for m in t.sent[seat] if m["t"] == "deal/key")["y"])
    deck0 = dc.unpack_deck(t.inbox[1][0][1]["deck"])
    multiplications: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            multiplications.append(name)
            return real(*args)
        return call

    monkeypatch.setattr(dc, "_mul", counted("mul", dc._mul))
    monkeypatch.setattr(dc, "_base", counted("base", dc._base))
    t.call(1, "receive", *t.inbox[1].pop(0))  # seat 0's deck
    assert _types(t, 1)[-1] == MSG_SHUFFLE
    assert multiplications == []
    monkeypatch.undo()
    sent = dc.unpack_deck(t.sent[1][-1]["deck"])
    assert sent == dc.shuffle_step(deck0, joint, dc.expand_permutation(seeds[1]),
                                   dc.expand_randomizers(seeds[1]))
