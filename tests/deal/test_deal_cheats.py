"""Every cheat against the deal is detected and blamed on the seat that cheated, with the
offending message as evidence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba_p2p.deal import (
    MAX_PENDING_PER_SEAT,
    MSG_COMPLAIN,
    MSG_KEY,
    MSG_PLAY,
    MSG_REVEAL,
    MSG_SHARES,
    MSG_SHUFFLE,
    AuditStarted,
    Deal,
    DealUsageError,
    PeerMisbehaved,
)
from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.group import L, random_scalar
from chkobba_p2p.deal.local import LocalTable, make_table, run_hand
from chkobba_p2p.game.cards import Card

#: Not a ristretto255 encoding (a "negative" field element).
BAD_POINT = bytes([1]) + bytes(31)


def blame(fn: Callable[[], Any]) -> PeerMisbehaved:
    with pytest.raises(PeerMisbehaved) as info:
        fn()
    return info.value


def wire(msg: dict[str, Any]) -> dict[str, Any]:
    """The message as a peer receives it."""
    return msgpack.unpackb(msgpack.packb(msg))


def play_out(t: LocalTable) -> None:
    """Deal every position not dealt yet (3 to each seat per step, the rest face up), show
    every hidden card, then finish."""
    n = t.n
    p0 = t.peers[0]
    top = sum(1 for p in range(dc.DECK_SIZE) if p0.holder(p) is not None or p0.is_public(p))
    while top + 3 * n <= dc.DECK_SIZE:
        t.call_all("open", {s: list(range(top + 3 * s, top + 3 * s + 3)) for s in range(n)})
        t.deliver()
        top += 3 * n
    if top < dc.DECK_SIZE:
        t.call_all("open", public=list(range(top, dc.DECK_SIZE)))
        t.deliver()
    for s in range(n):
        for p in t.peers[s].hand_positions():
            t.call(s, "play", p)
            t.deliver()
    t.call_all("finish")
    t.deliver()


def adopt_what_was_sent(t: LocalTable, seat: int) -> None:
    """A cheater keeps going with the deck it actually sent (as a real cheater would)."""
    state = t.peers[seat].to_state()
    state["shuffles"][seat] = [m for m in t.sent[seat] if m["t"] == MSG_SHUFFLE][0]
    t.peers[seat] = Deal.from_state(state)


def rerandomize(ct: tuple[bytes, bytes], joint: bytes) -> bytes:
    """``ct + Enc(0; r)``: a fresh-looking ciphertext of the same card."""
    rb = random_scalar().to_bytes(32, "little")
    add = dc.rbcl.crypto_core_ristretto255_add
    return (add(ct[0], dc.rbcl.crypto_scalarmult_ristretto255_base(rb))
            + add(ct[1], dc.rbcl.crypto_scalarmult_ristretto255(rb, joint)))


def when(seat: int, t: str, change: Callable[[dict[str, Any]], dict[str, Any] | None],
         nth: int = 0) -> Callable[[int, dict[str, Any]], dict[str, Any] | None]:
    """A tamper hook: change the ``nth`` message of type ``t`` sent by ``seat``."""
    count = [0]

    def tamper(sender: int, msg: dict[str, Any]) -> dict[str, Any] | None:
        if sender == seat and msg["t"] == t:
            count[0] += 1
            if count[0] == nth + 1:
                return change(msg)
        return msg
    return tamper


def flip(data: bytes, i: int = 0) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]


# -- keys ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bad_key_proof_is_blamed(n: int) -> None:
    t = make_table(n, tamper=when(n - 1, MSG_KEY, lambda m: {**m, "proof": flip(m["proof"], 40)}))
    e = blame(t.start)
    assert (e.blamed_seat, e.code) == (n - 1, "bad_key_proof")
    assert e.evidence == wire(t.sent[n - 1][0])


@pytest.mark.parametrize("field", ["session_id", "hand", "instance", "seat"])
def test_key_proof_from_another_context_is_refused(field: str) -> None:
    """A key message made (honestly) for another session, hand, instance or seat."""
    args = {"session_id": b"local-table", "hand": 0, "instance": 0, "n": 3, "seat": 1}
    args[field] = {"session_id": b"another session", "hand": 1, "instance": 1, "seat": 2}[field]
    foreign = Deal(**args).start().messages[0]
    t = make_table(3, tamper=when(1, MSG_KEY, lambda m: foreign))
    e = blame(t.start)
    assert (e.blamed_seat, e.code) == (1, "bad_key_proof")
    assert e.evidence == wire(foreign)


def test_non_canonical_proof_scalar_is_refused() -> None:
    def big_s(m: dict[str, Any]) -> dict[str, Any]:
        s = int.from_bytes(m["proof"][32:], "little") + L
        return {**m, "proof": m["proof"][:32] + s.to_bytes(32, "little")}
    e = blame(make_table(2, tamper=when(0, MSG_KEY, big_s)).start)
    assert (e.blamed_seat, e.code) == (0, "bad_key_proof")


def test_key_outside_the_group_is_refused() -> None:
    e = blame(make_table(2, tamper=when(1, MSG_KEY, lambda m: {**m, "y": BAD_POINT})).start)
    assert (e.blamed_seat, e.code) == (1, "bad_point")


def test_identity_key_is_refused() -> None:
    e = blame(make_table(2, tamper=when(1, MSG_KEY, lambda m: {**m, "y": bytes(32)})).start)
    assert (e.blamed_seat, e.code) == (1, "bad_key")


# -- shuffle ---------------------------------------------------------------------------


def test_shuffle_point_outside_the_group_is_refused() -> None:
    e = blame(make_table(3, tamper=when(1, MSG_SHUFFLE, lambda m: {
        **m, "deck": m["deck"][:640] + BAD_POINT + m["deck"][672:]})).start)
    assert (e.blamed_seat, e.code) == (1, "bad_point")


def test_copied_ciphertext_is_refused_at_once() -> None:
    e = blame(make_table(3, tamper=when(2, MSG_SHUFFLE, lambda m: {
        **m, "deck": m["deck"][:64] + m["deck"][:64] + m["deck"][128:]})).start)
    assert (e.blamed_seat, e.code) == (2, "duplicate_ciphertext")


def test_truncated_deck_is_malformed() -> None:
    e = blame(make_table(2, tamper=when(0, MSG_SHUFFLE,
                                        lambda m: {**m, "deck": m["deck"][:-64]})).start)
    assert (e.blamed_seat, e.code) == (0, "malformed")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_shuffle_that_differs_from_its_commitment_is_blamed_at_the_reveal(n: int) -> None:
    """A valid permutation of valid ciphertexts, but not the committed one: it deals fine,
    and the reveal at the end of the hand names the shuffler."""
    cheater = n - 1

    def swap(m: dict[str, Any]) -> dict[str, Any]:
        d = m["deck"]
        return {**m, "deck": d[64:128] + d[:64] + d[128:]}
    t = make_table(n, tamper=when(cheater, MSG_SHUFFLE, swap))
    t.start()
    adopt_what_was_sent(t, cheater)
    e = blame(lambda: play_out(t))
    assert (e.blamed_seat, e.code) == (cheater, "shuffle_mismatch")
    assert e.evidence == wire(t.sent[cheater][1])
    assert all(p.phase in ("reveal", "failed", "done") for p in t.peers)


def _substitute(t_holder: list[LocalTable], cheater: int, a: int, b: int,
                garbage: bool = False) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Replace output entry ``b`` by a fresh re-encryption of entry ``a`` (or of a point
    that is no card)."""
    def change(m: dict[str, Any]) -> dict[str, Any]:
        joint = t_holder[0].peers[cheater].joint_key
        assert joint is not None
        deck = dc.unpack_deck(m["deck"])
        src = deck[a]
        if garbage:
            src = (src[0], dc.rbcl.crypto_core_ristretto255_add(
                src[1], dc.hash_to_point(b"garbage", b"")))
        new = rerandomize(src, joint)
        d = m["deck"]
        return {**m, "deck": d[:64 * b] + new + d[64 * (b + 1):]}
    return change


# Positions (no cut): seat s holds 3s..3s+2 in the first step; 36..39 are opened face up.
# (At 2 seats the cheater holds position 4 itself and complains about its own garbage.)
@pytest.mark.parametrize("a,b,garbage,complaint", [
    (37, 38, False, False),  # both copies face up: everyone sees it
    (1, 37, False, True),  # seat 0 holds one copy, the other is face up: seat 0 complains
    (0, 2, False, True),  # seat 0 holds both copies: complaint with both positions
    (None, 4, True, True),  # seat 1 holds a ciphertext of no card
    (None, 38, True, False),  # a face-up ciphertext of no card
])
@pytest.mark.parametrize("n", [2, 4])
def test_substituted_card_is_caught_mid_hand_and_blamed_on_the_shuffler(
        n: int, a: int | None, b: int, garbage: bool, complaint: bool) -> None:
    cheater = n - 1  # the last shuffler: it knows where its substitution lands
    holder: list[LocalTable] = []
    t = make_table(n, tamper=when(cheater, MSG_SHUFFLE,
                                  _substitute(holder, cheater, a or 0, b, garbage)))
    holder.append(t)
    t.start()
    adopt_what_was_sent(t, cheater)
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)}, [36, 37, 38, 39])
    blames = t.deliver_all()
    # Every seat, the cheater's own software included, names the cheater.
    assert sorted(blames) == list(range(n))
    for e in blames.values():
        assert (e.blamed_seat, e.code) == (cheater, "shuffle_mismatch")
        assert e.evidence == wire(t.sent[cheater][1])
    complaints = [m for s in range(n) for m in t.sent[s] if m["t"] == MSG_COMPLAIN]
    assert bool(complaints) == complaint
    assert any(isinstance(ev, AuditStarted) for s in range(n) for ev in t.events[s])


def test_duplicate_revealed_by_a_play_makes_its_holder_complain() -> None:
    """The copy sits in two hands; the second holder sees the first one played."""
    n, cheater = 2, 1  # the last shuffler
    holder: list[LocalTable] = []
    t = make_table(n, tamper=when(cheater, MSG_SHUFFLE, _substitute(holder, cheater, 0, 3)))
    holder.append(t)
    t.start()
    adopt_what_was_sent(t, cheater)
    t.call_all("open", {0: [0, 1, 2], 1: [3, 4, 5]})
    t.deliver()
    t.call(0, "play", 0)
    blames = t.deliver_all()
    assert sorted(blames) == [0, 1]
    assert {(e.blamed_seat, e.code) for e in blames.values()} == {(cheater, "shuffle_mismatch")}
    complaint = [m for m in t.sent[1] if m["t"] == MSG_COMPLAIN]
    assert complaint and complaint[0]["pos"] == [3] and complaint[0]["dup"] == 0


def test_false_complaint_is_blamed_on_the_complainer() -> None:
    n = 3
    t = make_table(n)
    t.start()
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)})
    t.deliver()
    liar = t.peers[2]
    state = liar.to_state()
    x = int.from_bytes(state["x"], "little")
    ctx = liar.context_parts() + state["keys"]
    assert liar.deck is not None
    ds, proof = dc.prove_shares(x, ctx, 2, b"complain", [6], [liar.deck[6][0]])
    msg = {"t": MSG_COMPLAIN, "pos": [6], "dup": None, "d": ds[0], "proof": proof}
    e = blame(lambda: t.peers[0].receive(2, wire(msg)))
    assert (e.blamed_seat, e.code) == (2, "false_complaint")
    # Complaining about somebody else's card is false on its face.
    e = blame(lambda: t.peers[1].receive(2, wire({**msg, "pos": [0]})))
    assert (e.blamed_seat, e.code) == (2, "false_complaint")


def test_shuffle_proofs_catch_a_substitution_before_the_deck_is_used() -> None:
    holder: list[LocalTable] = []
    t = make_table(3, shuffle_proofs=True,
                   tamper=when(1, MSG_SHUFFLE, _substitute(holder, 1, 0, 5)))
    holder.append(t)
    e = blame(t.start)
    assert e.blamed_seat == 1 and e.code == "bad_shuffle_proof"
    assert all(p.deck is None for p in t.peers)


def _stack(t_holder: list[LocalTable], cheater: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Throw the input deck away; output fresh encryptions of card i at position i."""
    def change(m: dict[str, Any]) -> dict[str, Any]:
        joint = t_holder[0].peers[cheater].joint_key
        assert joint is not None
        return {**m, "deck": b"".join(rerandomize((bytes(32), dc.CARD_POINTS[i]), joint)
                                      for i in range(dc.DECK_SIZE))}
    return change


def test_without_shuffle_proofs_a_stacked_deck_is_only_caught_at_the_reveal() -> None:
    """Why shuffle proofs are on by default: the last shuffler stacks the deck.  Every card
    is valid and unique, so nothing looks wrong while the hand is played, and the cheater
    knows every hand; only the reveal names it."""
    n, cheater = 3, 2
    holder: list[LocalTable] = []
    t = make_table(n, tamper=when(cheater, MSG_SHUFFLE, _stack(holder, cheater)))
    holder.append(t)
    t.start()
    adopt_what_was_sent(t, cheater)
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)})
    t.deliver()
    # Seat 0's hand is exactly what the cheater put there.
    assert [t.peers[0].card_at(p) for p in range(3)] == [Card(0), Card(1), Card(2)]
    e = blame(lambda: play_out(t))
    assert (e.blamed_seat, e.code) == (cheater, "shuffle_mismatch")


def test_with_shuffle_proofs_a_stacked_deck_is_refused_at_once() -> None:
    holder: list[LocalTable] = []
    t = make_table(3, shuffle_proofs=True, tamper=when(2, MSG_SHUFFLE, _stack(holder, 2)))
    holder.append(t)
    e = blame(t.start)
    assert (e.blamed_seat, e.code) == (2, "bad_shuffle_proof")


def test_missing_shuffle_proof_is_refused() -> None:
    t = make_table(2, shuffle_proofs=True,
                   tamper=when(0, MSG_SHUFFLE, lambda m: {"t": m["t"], "deck": m["deck"]}))
    e = blame(t.start)
    assert (e.blamed_seat, e.code) == (0, "missing_shuffle_proof")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_honest_hand_with_shuffle_proofs(n: int) -> None:
    run = run_hand(n, dealer=0, shuffle_proofs=True, redeal=False)
    t = run.tables[0]
    assert all(p.phase == "done" for p in t.peers)
    assert all("proof" in m for s in range(n) for m in t.sent[s] if m["t"] == MSG_SHUFFLE)
    # The budget: at most 40 KB sent per peer per hand (msgpack size).
    assert max(t.bytes_sent) <= 40_000


def test_shuffle_proofs_are_on_by_default() -> None:
    assert Deal(session_id=b"s", hand=0, instance=0, n=2, seat=0).shuffle_proofs


# -- decryption shares -----------------------------------------------------------------


def _dealt(n: int, **kw: Any) -> LocalTable:
    t = make_table(n, cutter=0, **kw)
    t.start()
    t.call(0, "cut", 9)
    t.deliver()
    return t


@pytest.mark.parametrize("n", [2, 3, 4])
def test_wrong_decryption_share_is_blamed(n: int) -> None:
    cheater = n - 1

    def wrong(m: dict[str, Any]) -> dict[str, Any]:
        # A valid point, but not x * c1: it would open the position to another card.
        return {**m, "d": dc.CARD_POINTS[5] + m["d"][32:]}
    t = _dealt(n, tamper=when(cheater, MSG_SHARES, wrong))
    t.call_all("open", {0: [0, 1, 2]}, [3])
    e = blame(t.deliver)
    assert (e.blamed_seat, e.code) == (cheater, "bad_share_proof")
    assert e.evidence["d"][:32] == dc.CARD_POINTS[5]


def test_share_point_outside_the_group_is_refused() -> None:
    t = _dealt(2, tamper=when(1, MSG_SHARES, lambda m: {**m, "d": BAD_POINT + m["d"][32:]}))
    t.call_all("open", {0: [0, 1]})
    e = blame(t.deliver)
    assert (e.blamed_seat, e.code) == (1, "bad_point")


def test_bad_share_proof_is_blamed() -> None:
    t = _dealt(3, tamper=when(2, MSG_SHARES, lambda m: {**m, "proof": flip(m["proof"], 3)}))
    t.call_all("open", {0: [0]})
    e = blame(t.deliver)
    assert (e.blamed_seat, e.code) == (2, "bad_share_proof")


def test_replayed_share_proof_is_refused() -> None:
    """Step 1's proof, with correct shares for step 2: the proof is bound to its step."""
    kept: dict[str, bytes] = {}

    def tamper(sender: int, m: dict[str, Any]) -> dict[str, Any]:
        if sender == 1 and m["t"] == MSG_SHARES:
            if m["step"] == 0:
                kept["proof"] = m["proof"]
            else:
                return {**m, "proof": kept["proof"]}
        return m
    t = _dealt(2, tamper=tamper)
    t.call_all("open", {0: [0]})
    t.deliver()
    t.call_all("open", {0: [1]})
    e = blame(t.deliver)
    assert (e.blamed_seat, e.code) == (1, "bad_share_proof")


def test_replayed_message_is_refused() -> None:
    t = _dealt(3)
    t.call_all("open", {0: [0]})
    t.deliver()
    old = [m for m in t.sent[1] if m["t"] == MSG_SHARES][0]
    e = blame(lambda: t.peers[0].receive(1, wire(old)))
    assert (e.blamed_seat, e.code) == (1, "unexpected")


def test_shares_for_the_wrong_positions_are_refused() -> None:
    t = _dealt(2, tamper=when(1, MSG_SHARES, lambda m: {**m, "pos": [1]}))
    t.call_all("open", {0: [0]})
    e = blame(t.deliver)
    assert (e.blamed_seat, e.code) == (1, "wrong_positions")


def test_shares_from_a_seat_that_owes_none_are_refused() -> None:
    t = _dealt(2)
    t.call_all("open", {0: [0]})
    t.deliver()
    msg = {"t": MSG_SHARES, "step": 0, "pos": [0], "d": bytes(32), "proof": bytes(64)}
    e = blame(lambda: t.peers[1].receive(0, msg))
    assert (e.blamed_seat, e.code) == (0, "unexpected")


# -- plays -----------------------------------------------------------------------------


def _with_hands(n: int) -> LocalTable:
    t = _dealt(n)
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)})
    t.deliver()
    return t


def _play_msg(t: LocalTable, seat: int, pos: int) -> dict[str, Any]:
    """A play message for ``pos`` with a proof ``seat`` really computed (for its own key)."""
    peer = t.peers[seat]
    state = peer.to_state()
    x = int.from_bytes(state["x"], "little")
    assert peer.deck is not None
    ds, proof = dc.prove_shares(x, peer.context_parts() + state["keys"], seat, b"play", [pos],
                                [peer.deck[pos][0]])
    return {"t": MSG_PLAY, "pos": pos, "d": ds[0], "proof": proof}


@pytest.mark.parametrize("pos", [0, 30])  # seat 0's card; a position never dealt
def test_playing_a_position_not_dealt_to_you_is_refused(pos: int) -> None:
    t = _with_hands(3)
    e = blame(lambda: t.peers[2].receive(1, wire(_play_msg(t, 1, pos))))
    assert (e.blamed_seat, e.code) == (1, "not_dealt_to_you")


def test_playing_a_position_twice_is_refused() -> None:
    t = _with_hands(3)
    t.call(1, "play", 4)
    t.deliver()
    again = [m for m in t.sent[1] if m["t"] == MSG_PLAY][0]
    e = blame(lambda: t.peers[0].receive(1, wire(again)))
    assert (e.blamed_seat, e.code) == (1, "already_played")


def test_replayed_play_proof_is_refused() -> None:
    """The proof of one shown position, replayed to show another."""
    t = _with_hands(2)
    first = _play_msg(t, 1, 3)
    second = _play_msg(t, 1, 4)
    e = blame(lambda: t.peers[0].receive(1, wire({**second, "proof": first["proof"]})))
    assert (e.blamed_seat, e.code) == (1, "bad_share_proof")


def test_a_played_card_cannot_be_substituted() -> None:
    """A share that would open the position to another card fails its proof."""
    t = _with_hands(2)
    card = t.peers[1].card_at(3)
    assert card is not None
    other = (card.id + 1) % 40
    msg = _play_msg(t, 1, 3)
    shift = dc.rbcl.crypto_core_ristretto255_sub(dc.CARD_POINTS[card.id], dc.CARD_POINTS[other])
    forged = {**msg, "d": dc.rbcl.crypto_core_ristretto255_add(msg["d"], shift)}
    e = blame(lambda: t.peers[0].receive(1, wire(forged)))
    assert (e.blamed_seat, e.code) == (1, "bad_share_proof")


def test_play_with_a_point_outside_the_group_is_refused() -> None:
    t = _with_hands(2)
    e = blame(lambda: t.peers[0].receive(1, {**_play_msg(t, 1, 3), "d": BAD_POINT}))
    assert (e.blamed_seat, e.code) == (1, "bad_point")


# -- reveal ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_opening_that_does_not_match_the_commitment_is_blamed(n: int) -> None:
    t = make_table(n, tamper=when(0, MSG_REVEAL, lambda m: {**m, "seed": flip(m["seed"], 7)}))
    t.start()
    e = blame(lambda: play_out(t))
    assert (e.blamed_seat, e.code) == (0, "bad_opening")
    assert e.evidence == wire([m for m in t.sent[0] if m["t"] == MSG_REVEAL][0])


# -- malformed traffic -----------------------------------------------------------------


@pytest.mark.parametrize("msg,code", [
    ({"t": "deal/nonsense"}, "unknown_message"),
    ({"x": 1}, "malformed"),
    ("not a map", "malformed"),
    ({"t": MSG_KEY, "y": b"", "commit": bytes(32), "proof": bytes(64), "extra": 1}, "malformed"),
    ({"t": MSG_KEY, "y": 5, "commit": bytes(32), "proof": bytes(64)}, "malformed"),
])
def test_malformed_messages_are_blamed(msg: Any, code: str) -> None:
    t = make_table(2)
    t.call(0, "start")
    e = blame(lambda: t.peers[0].receive(1, msg))
    assert (e.blamed_seat, e.code) == (1, code)
    with pytest.raises(DealUsageError):
        t.peers[0].receive(1, {"t": MSG_KEY})  # a failed deal accepts nothing more


def test_cut_from_another_seat_is_refused() -> None:
    t = make_table(2, cutter=1)
    t.start()
    e = blame(lambda: t.peers[1].receive(0, {"t": "deal/cut", "k": 3}))
    assert (e.blamed_seat, e.code) == (0, "not_cutter")


def test_flood_of_early_messages_is_refused() -> None:
    t = make_table(2)
    t.call(0, "start")
    msg = {"t": MSG_REVEAL, "seed": bytes(32)}
    for _ in range(MAX_PENDING_PER_SEAT):
        t.peers[0].receive(1, msg)
    e = blame(lambda: t.peers[0].receive(1, msg))
    assert (e.blamed_seat, e.code) == (1, "flood")


# -- any corruption of any message is blamed on its sender ------------------------------


#: Per cheater, how many of its messages with bytes fields (its shuffled deck aside) an
#: honest hand at three with dealer 2 sends.
_HONEST_COUNTS: dict[int, int] = {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cheater=st.integers(0, 2), which=st.integers(0, 10**6), byte=st.integers(0, 10**6),
       bit=st.integers(0, 7))
def test_any_flipped_bit_is_blamed_on_its_sender(cheater: int, which: int, byte: int,
                                                 bit: int) -> None:
    n = 3
    # Count the cheater's messages with bytes fields in an honest run, then corrupt one.
    # Not the shuffled deck: corrupted in transit, it would leave the cheater's own
    # software with another deck than the one it signed, which no real peer has (a real
    # cheater's software holds what it sent).  Deck corruption is covered below, and by
    # the substitution tests that let the cheater adopt what it sent.
    plan: dict[str, Any] = {"seen": 0}

    def tamper(sender: int, m: dict[str, Any]) -> dict[str, Any]:
        fields = sorted(k for k, v in m.items() if isinstance(v, bytes))
        if sender != cheater or not fields or m["t"] == MSG_SHUFFLE:
            return m
        plan["seen"] += 1
        if plan["seen"] - 1 != plan.get("target"):
            return m
        f = fields[byte % len(fields)]
        i = (byte // len(fields)) % len(m[f])
        data = bytearray(m[f])
        data[i] ^= 1 << bit
        return {**m, f: bytes(data)}

    # The count depends on the schedule only (dealer, seats, no redeal), not on the seeds:
    # counted once per cheater.  Were it ever to differ, the target could be missed, no
    # bit flipped, and blame() below would fail: a wrong count cannot make this pass.
    if cheater not in _HONEST_COUNTS:
        run_hand(n, dealer=2, seeds=None, redeal=False, tamper=tamper)
        _HONEST_COUNTS[cheater] = plan["seen"]
    total = _HONEST_COUNTS[cheater]
    plan["seen"] = 0
    plan["target"] = which % total
    e = blame(lambda: run_hand(n, dealer=2, redeal=False, tamper=tamper))
    assert e.blamed_seat == cheater


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cheater=st.integers(0, 2), field=st.sampled_from(["deck", "proof"]),
       byte=st.integers(0, 10**6), bit=st.integers(0, 7))
def test_any_flipped_bit_in_a_proven_shuffle_is_blamed_at_once(cheater: int, field: str,
                                                               byte: int, bit: int) -> None:
    def tamper(sender: int, m: dict[str, Any]) -> dict[str, Any]:
        if sender != cheater or m["t"] != MSG_SHUFFLE:
            return m
        data = bytearray(m[field])
        data[byte % len(data)] ^= 1 << bit
        return {**m, field: bytes(data)}

    t = make_table(3, shuffle_proofs=True, tamper=tamper)
    e = blame(t.start)
    assert e.blamed_seat == cheater
    # No honest seat ever holds a final deck built on the corrupted step.
    assert all(p.deck is None for p in t.peers if p.seat != cheater)
