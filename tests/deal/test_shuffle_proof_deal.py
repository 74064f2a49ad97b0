"""The shuffle proof inside the deal: every peer checks every shuffle step before using it.

A dishonest shuffler is caught at its shuffle message, not at the end of the hand: the
recipient raises :class:`PeerMisbehaved` blaming the shuffler, with the offending message as
evidence.  Cheats are played through :class:`LocalTable`'s ``tamper`` hook, which rewrites
a message on its way out exactly as a malicious peer would send it.
"""

from __future__ import annotations

from typing import Any

import pytest

from chkobba_p2p.deal import (
    MSG_KEY,
    MSG_SHUFFLE,
    Deal,
    LocalTable,
    PeerMisbehaved,
    Verified,
    group,
    shuffle_proof,
)
from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.game.cards import DECK

SESSION = b"test session \x01"


def seeds(n: int) -> list[bytes]:
    return [group.hash_bytes(b"test seed", bytes([s]))[:32] for s in range(n)]


def keys(n: int) -> list[int]:
    return [group.hash_to_scalar(b"test key", bytes([s])) for s in range(n)]


def make_peers(n: int, *, session: bytes = SESSION, hand: int = 1, proofs: bool = True,
               fixed: bool = False) -> list[Deal]:
    extra: list[dict[str, Any]] = [{} for _ in range(n)]
    if fixed:
        extra = [{"seed": sd, "secret_key": x} for sd, x in zip(seeds(n), keys(n), strict=True)]
    return [Deal(session_id=session, hand=hand, instance=0, n=n, seat=s,
                 shuffle_proofs=proofs, **extra[s]) for s in range(n)]


class Cheater:
    """A ``tamper`` hook: it watches the wire and lets ``seat`` rewrite its shuffle message.

    ``rewrite(msg, inp, out, ctx, joint, perm, rands)`` returns the message to send instead;
    ``inp`` is the deck the seat had to shuffle, ``out`` its honest output, ``ctx`` the
    shuffle-proof context of the seat, rebuilt from what travelled (docs/deal.md).
    """

    def __init__(self, peers: list[Deal], seat: int, rewrite) -> None:
        self.peers = peers
        self.seat = seat
        self.rewrite = rewrite
        self.keys: dict[int, bytes] = {}
        self.deck = dc.initial_deck()
        self.sent: dict[str, Any] | None = None

    def context(self, seat: int) -> bytes:
        parts = self.peers[0].context_parts() + [self.keys[s] for s in sorted(self.keys)]
        return group.hash_bytes(dc.TAG_SHUFFLE_CONTEXT, *parts, dc.u64(seat))

    def __call__(self, sender: int, msg: dict[str, Any]) -> dict[str, Any]:
        if msg["t"] == MSG_KEY:
            self.keys[sender] = msg["y"]
        if msg["t"] == MSG_SHUFFLE:
            if sender == self.seat:
                peer = self.peers[sender]
                seed = peer.to_state()["seed"]
                perm, rands = dc.expand_permutation(seed), dc.expand_randomizers(seed)
                out = dc.unpack_deck(msg["deck"])
                msg = self.rewrite(dict(msg), self.deck, out, self.context(sender),
                                   peer.joint_key, perm, rands)
                self.sent = msg
            self.deck = dc.unpack_deck(msg["deck"])
        return msg


def blamed(table: LocalTable, cheater: Cheater, code: str) -> PeerMisbehaved:
    with pytest.raises(PeerMisbehaved) as info:
        table.start()
    err = info.value
    assert err.blamed_seat == cheater.seat
    assert err.code == code, err.reason
    assert err.evidence == cheater.sent
    assert table.detector != cheater.seat
    return err


def reencrypt(c, r, joint):
    return group.add(c[0], group.base_mul(r)), group.add(c[1], group.mul(r, joint))


# -- honest tables -----------------------------------------------------------------------


def test_honest_table_with_proofs_deals_and_verifies():
    peers = make_peers(4)
    table = LocalTable(peers)
    table.start()
    shuffles = [m for s in range(4) for m in table.sent[s] if m["t"] == MSG_SHUFFLE]
    assert len(shuffles) == 4
    assert all(len(m["proof"]) == shuffle_proof.proof_size(40) for m in shuffles)
    assert all(p.phase == "deal" for p in peers)
    assert len({tuple(map(tuple, p.deck)) for p in peers}) == 1
    table.call_all("open", public=range(40))
    table.deliver()
    assert {peers[0].card_at(p) for p in range(40)} == set(DECK)
    table.call_all("finish")
    table.deliver()
    assert all(any(isinstance(e, Verified) for e in table.events[s]) for s in range(4))


def test_rebuilt_context_matches_the_deal():
    """Control for the cheats below: a fresh honest proof built by the tamper hook, with
    the context rebuilt from the wire, is accepted.  So the refusals that follow come from
    the cheat, not from a wrong context."""

    def reprove(msg, inp, out, ctx, joint, perm, rands):
        msg["proof"] = shuffle_proof.prove_shuffle(ctx, joint, inp, out, perm, rands)
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 1, reprove)
    LocalTable(peers, tamper=cheater).start()
    assert cheater.sent is not None
    assert all(p.phase == "deal" for p in peers)


def test_table_without_proof_is_refused():
    def strip(msg, *_):
        del msg["proof"]
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 0, strip)
    blamed(LocalTable(peers, tamper=cheater), cheater, "missing_shuffle_proof")


# -- the cheats of the issue ---------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_substituted_card_is_refused_at_the_shuffle(seat):
    """Slip in an encryption of a card the shuffler chose, and prove as best it can."""

    def substitute(msg, inp, out, ctx, joint, perm, rands):
        out = list(out)
        # A fresh encryption of el haya (7D, card id 26): the shuffler will know it on sight.
        # The first shuffler's input is the open deck: if its permutation put el haya at 7
        # already, that "substitution" would be the honest output; slip in another card then.
        for cid in (26, 27):
            fake = (group.base_mul(rands[7]), group.add(dc.card_point(cid),
                                                        group.mul(rands[7], joint)))
            if dc.pack_deck([fake]) != dc.pack_deck([out[7]]):
                break
        out[7] = fake
        msg["deck"] = dc.pack_deck(out)
        msg["proof"] = shuffle_proof.prove_shuffle(ctx, joint, inp, out, perm, rands)
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, seat, substitute)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.BAD_PROOF)


def test_duplicated_card_is_refused_at_the_shuffle():
    def duplicate(msg, inp, out, ctx, joint, perm, rands):
        out = list(out)
        out[3] = reencrypt(out[12], group.random_scalar(), joint)
        msg["deck"] = dc.pack_deck(out)
        msg["proof"] = shuffle_proof.prove_shuffle(ctx, joint, inp, out, perm, rands)
        return msg

    peers = make_peers(4)
    cheater = Cheater(peers, 2, duplicate)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.BAD_PROOF)


def test_dropped_card_is_refused_at_the_shuffle():
    def drop(msg, inp, out, ctx, joint, perm, rands):
        msg["deck"] = dc.pack_deck(out[:-1])
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 1, drop)
    blamed(LocalTable(peers, tamper=cheater), cheater, "malformed")


def test_permutation_without_rerandomization_is_refused():
    def no_rerandomization(msg, inp, out, ctx, joint, perm, rands):
        out = [inp[j] for j in perm]
        msg["deck"] = dc.pack_deck(out)
        # The algebra holds for zero randomizers, so this proof is as good as it gets.
        msg["proof"] = shuffle_proof._prove(ctx, joint, inp, out, perm, [0] * len(perm))
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 1, no_rerandomization)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.NOT_RERANDOMIZED)


def test_tampered_proof_bytes_are_refused():
    def flip(msg, *_):
        proof = bytearray(msg["proof"])
        proof[-5] ^= 0x10
        msg["proof"] = bytes(proof)
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 0, flip)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.BAD_PROOF)


def test_malformed_proof_is_refused():
    def truncate(msg, *_):
        msg["proof"] = msg["proof"][:-1]
        return msg

    peers = make_peers(2)
    cheater = Cheater(peers, 1, truncate)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.MALFORMED)


@pytest.mark.parametrize("other", [{"hand": 2}, {"session": b"another session"}])
def test_proof_from_another_hand_or_session_is_refused(other):
    """Replay: the same seeds and keys in another hand (or session) give the very same
    decks, so only the proof's binding to its context can tell the messages apart."""
    donor_peers = make_peers(2, fixed=True, **other)
    donor = LocalTable(donor_peers)
    donor.start()
    donor_shuffle = next(m for m in donor.sent[1] if m["t"] == MSG_SHUFFLE)

    def replay(msg, inp, out, ctx, joint, perm, rands):
        assert msg["deck"] == donor_shuffle["deck"]  # identical deck, foreign proof
        assert msg["proof"] != donor_shuffle["proof"]
        return dict(donor_shuffle)

    peers = make_peers(2, fixed=True)
    cheater = Cheater(peers, 1, replay)
    blamed(LocalTable(peers, tamper=cheater), cheater, shuffle_proof.BAD_PROOF)


def test_proof_of_another_seat_is_refused():
    """Seat 1 passes seat 0's step (deck and proof) off as its own shuffle."""
    peers = make_peers(2)
    first: dict[str, Any] = {}

    def copy_first(msg, inp, out, ctx, joint, perm, rands):
        return dict(first)

    cheater = Cheater(peers, 1, copy_first)

    def tamper(sender, msg):
        if msg["t"] == MSG_SHUFFLE and sender == 0:
            first.update(msg)
        return cheater(sender, msg)

    table = LocalTable(peers, tamper=tamper)
    with pytest.raises(PeerMisbehaved) as info:
        table.start()
    assert info.value.blamed_seat == 1
    # Its "output" is its input: caught before the proof algebra is even needed.
    assert info.value.code == shuffle_proof.NOT_RERANDOMIZED
