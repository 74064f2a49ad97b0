"""Honest runs of the deal core: whole hands at 2, 3 and 4 peers, both cut-and-draw choices,
the plain opening, the three-kings redeal, the first-dealer draw, privacy of hidden cards,
crash-resume from saved state, and the ordering the transport can enforce."""

from __future__ import annotations

import hashlib

import msgpack
import pytest
from support.tiers import covering

from chkobba_p2p.deal import (
    MSG_CUT,
    MSG_KEY,
    MSG_REVEAL,
    MSG_SHARES,
    MSG_SHUFFLE,
    CardShown,
    CutDone,
    Deal,
    DealUsageError,
    FirstDealerDraw,
    ShuffleDone,
    StepOpened,
    Verified,
)
from chkobba_p2p.deal.crypto import DECK_SIZE, expand_permutation
from chkobba_p2p.deal.local import LocalTable, make_table, run_hand
from chkobba_p2p.game.cards import DECK, Card

KINGS = {c.id for c in DECK if c.value == 10}
DEALS_PER_HAND = {2: 6, 3: 4, 4: 3}


def final_order(seeds: list[bytes], cut: int) -> list[int]:
    """Card id at each position after every seat shuffled with its seed, then the cut.

    Written from the convention alone (out[i] = inp[perm[i]]), not from the deal code."""
    deck = list(range(DECK_SIZE))
    for seed in seeds:
        perm = expand_permutation(seed)
        deck = [deck[perm[i]] for i in range(DECK_SIZE)]
    return deck[cut:] + deck[:cut]


def seed_for(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


def check_verified(table: LocalTable) -> None:
    for s in range(table.n):
        assert table.peers[s].phase == "done"
        assert any(isinstance(e, Verified) for e in table.events[s])


# The fast tier deals each opening and each count once (support.tiers.covering).
@pytest.mark.parametrize("opening,keep,n", covering(
    [("cut", True), ("cut", False), ("plain", True)], [2, 3, 4]))
def test_whole_hand_deals_what_the_schedule_asks(n: int, opening: str, keep: bool) -> None:
    dealer = n - 1
    cutter = (dealer + 1) % n
    run = run_hand(n, dealer, opening=opening, keep=keep, redeal=False)
    assert len(run.tables) == 1
    t = run.tables[0]
    check_verified(t)
    # Every seat got DEALS_PER_HAND deals of 3 cards; the table opened with 4.
    for s in range(n):
        assert [len(d) for d in run.deals[s]] == [3] * DEALS_PER_HAND[n]
    assert len(run.table) == 4
    if opening == "cut":
        assert run.drawn is not None
        if keep:
            assert run.drawn in run.deals[cutter][0] and run.drawn not in run.table
        else:
            assert run.table[0] == run.drawn
    dealt = [c for s in range(n) for d in run.deals[s] for c in d]
    # All 40 cards, each exactly once, came out of the deck.
    assert sorted(dealt + run.table) == list(DECK)
    # What every seat played is what it had been dealt.
    for s in range(n):
        mine = sorted(c for d in run.deals[s] for c in d)
        played = sorted(c for seat, c in run.shown if seat == s)
        if opening == "cut" and not keep and s == cutter:
            played.remove(run.drawn)
        assert played == mine
    # Every seat ends with the same public view of every position.
    for p in range(DECK_SIZE):
        assert len({t.peers[s].card_at(p) for s in range(n)}) == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_hidden_cards_stay_hidden_and_the_deal_matches_the_seeds(n: int) -> None:
    seeds = [seed_for("hidden", n, s) for s in range(n)]
    cut = 11
    t = make_table(n, cutter=1, seeds=seeds)
    t.start()
    t.call(1, "cut", cut)
    t.deliver()
    private = {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)}
    t.call_all("open", private, [3 * n, 3 * n + 1])
    t.deliver()
    order = final_order(seeds, cut)
    for s in range(n):
        ev = [e for e in t.events[s] if isinstance(e, StepOpened)]
        assert len(ev) == 1
        assert ev[0].mine == {p: Card(order[p]) for p in private[s]}
        assert ev[0].public == {p: Card(order[p]) for p in (3 * n, 3 * n + 1)}
        for other in range(n):
            for p in private[other]:
                # Only the holder learns a private card.
                assert (t.peers[s].card_at(p) is not None) == (s == other)
        for p in range(3 * n + 2, DECK_SIZE):
            assert t.peers[s].card_at(p) is None
    # A shown card becomes public to everyone, with the card the seeds put there.
    t.call(n - 1, "play", 3 * (n - 1) + 1)
    t.deliver()
    for s in range(n):
        assert t.peers[s].card_at(3 * (n - 1) + 1) == Card(order[3 * (n - 1) + 1])
        if s != n - 1:
            assert CardShown(n - 1, 3 * (n - 1) + 1, Card(order[3 * (n - 1) + 1])) in t.events[s]
    t.call_all("finish", discard=True)
    t.deliver()
    check_verified(t)


def _seeds_with_kings(n: int, table_positions: list[int], cut: int) -> list[bytes]:
    for i in range(100000):
        seeds = [seed_for("kings", n, i, s) for s in range(n)]
        order = final_order(seeds, cut)
        if sum(order[p] in KINGS for p in table_positions) >= 3:
            return seeds
    raise AssertionError("no seed found")


@pytest.mark.parametrize("opening,keep,n", covering(
    [("cut", True), ("cut", False), ("plain", True)], [2, 3, 4]))
def test_three_kings_redeal_uses_a_fresh_instance(n: int, opening: str, keep: bool) -> None:
    cut = 17 if opening == "cut" else 0
    table_positions = [0, 1, 2, 3] if not keep else [3 * n + i for i in range(4)]
    seeds = _seeds_with_kings(n, table_positions, cut)
    run = run_hand(n, dealer=0, opening=opening, keep=keep, cut=cut, seeds=[seeds])
    assert len(run.tables) >= 2
    first = run.tables[0]
    check_verified(first)  # the discarded deck was re-checked too
    kings = [first.peers[0].card_at(p) for p in table_positions]
    assert sum(c is not None and c.value == 10 for c in kings) >= 3
    # The new instance has fresh keys and a fresh deck.
    second = run.tables[1]
    assert second.peers[0].instance == first.peers[0].instance + 1
    assert {p.public_key for p in second.peers}.isdisjoint({p.public_key for p in first.peers})
    assert second.peers[0].deck != first.peers[0].deck
    check_verified(run.tables[-1])
    assert sum(c.value == 10 for c in run.table) < 3


def _run_draw(n: int, seeds: list[bytes] | None = None) -> tuple[FirstDealerDraw, LocalTable]:
    t = make_table(n, seeds=seeds)
    t.start()
    draw = FirstDealerDraw(n)
    while draw.dealer is None:
        positions = draw.next_draw()
        t.call_all("open", public=list(positions.values()))
        t.deliver()
        views = []
        for s in range(n):
            ev = [e for e in t.take_events(s) if isinstance(e, StepOpened)][-1]
            views.append(ev.public)
        assert all(v == views[0] for v in views)
        draw.record({seat: views[0][p] for seat, p in positions.items()})
    t.call_all("finish", discard=True)
    t.deliver()
    check_verified(t)
    return draw, t


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_dealer_draw_lowest_deals(n: int) -> None:
    draw, _ = _run_draw(n)
    last = draw.rounds[-1]
    assert draw.dealer is not None
    assert last[draw.dealer].value == min(c.value for c in last.values())
    assert sum(c.value == last[draw.dealer].value for c in last.values()) == 1


def test_first_dealer_draw_ties_draw_again() -> None:
    n = 4
    for i in range(10000):
        seeds = [seed_for("tie", i, s) for s in range(n)]
        order = final_order(seeds, 0)
        values = [order[p] % 10 for p in range(n)]
        if values.count(min(values)) >= 2:
            break
    draw, _ = _run_draw(n, seeds)
    assert len(draw.rounds) >= 2
    tied = sorted(s for s, c in draw.rounds[0].items()
                  if c.value == min(c.value for c in draw.rounds[0].values()))
    assert sorted(draw.rounds[1]) == tied
    assert [c.id for c in draw.rounds[0].values()] == order[:n]


def _roundtrip(peer: Deal) -> Deal:
    state = msgpack.unpackb(msgpack.packb(peer.to_state()))
    return Deal.from_state(state)


@pytest.mark.parametrize("n", [2, 4])
def test_state_save_and_restore_mid_hand(n: int) -> None:
    t = make_table(n, cutter=1)
    t.call_all("start")
    # Deliver only part of the traffic, then crash-restore everyone (held messages too).
    for seat in range(n):
        if t.inbox[seat]:
            sender, msg = t.inbox[seat].pop(0)
            t.call(seat, "receive", sender, msg)
    t.peers = [_roundtrip(p) for p in t.peers]
    t.deliver()
    t.call(1, "cut", 3)
    t.deliver()
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)}, [3 * n])
    hidden_before = [[t.peers[s].card_at(p) for p in range(DECK_SIZE)] for s in range(n)]
    t.peers = [_roundtrip(p) for p in t.peers]
    t.deliver()
    restored = [_roundtrip(p) for p in t.peers]
    for s in range(n):
        assert restored[s].to_state() == t.peers[s].to_state()
        # Nobody could open anything before the other seats' shares arrived.
        assert hidden_before[s] == [None] * DECK_SIZE
        assert len(t.peers[s].hand_positions()) == 3
    t.peers = restored
    for s in range(n):
        for p in t.peers[s].hand_positions():
            t.call(s, "play", p)
    t.deliver()
    for s in range(n):
        assert all(t.peers[s].card_at(p) is not None for p in range(3 * n + 1))
    t.call_all("finish", discard=True)
    t.deliver()
    check_verified(t)


def test_expecting_gives_the_turn_order() -> None:
    n = 3
    t = make_table(n, cutter=2)
    assert t.peers[0].expecting() == []
    t.call_all("start")
    assert t.peers[0].expecting() == [(1, MSG_KEY), (2, MSG_KEY)]
    # Deliver keys only.
    for seat in range(n):
        keys = [(s, m) for s, m in t.inbox[seat] if m["t"] == MSG_KEY]
        t.inbox[seat] = [(s, m) for s, m in t.inbox[seat] if m["t"] != MSG_KEY]
        for s, m in keys:
            t.call(seat, "receive", s, m)
    # Seat 0 shuffled as soon as it had every key; seats 1 and 2 wait for it.
    assert [m["t"] for m in t.sent[0]] == [MSG_KEY, MSG_SHUFFLE]
    assert t.peers[1].expecting() == [(0, MSG_SHUFFLE)]
    assert t.peers[2].expecting() == [(0, MSG_SHUFFLE)]
    t.deliver()
    assert [m["t"] for s in range(n) for m in t.sent[s]].count(MSG_SHUFFLE) == n
    assert all(p.expecting() == [(2, MSG_CUT)] for p in t.peers if p.seat != 2)
    assert all(p.phase == "cut" for p in t.peers)
    t.call(2, "cut", 0)
    t.deliver()
    for s in range(n):
        assert [type(e) for e in t.events[s]] == [ShuffleDone, CutDone]
    t.call(0, "open", {0: [0]})
    assert t.peers[0].expecting() == [(1, MSG_SHARES), (2, MSG_SHARES)]
    t.call(1, "open", {0: [0]})
    t.call(2, "open", {0: [0]})
    t.deliver()
    assert all(p.expecting() == [] for p in t.peers)
    t.call(0, "play", 0)
    t.deliver()
    t.call_all("finish", discard=True)
    assert t.peers[0].expecting() == [(1, MSG_REVEAL), (2, MSG_REVEAL)]
    t.deliver()
    check_verified(t)


def test_early_messages_are_held_not_answered() -> None:
    """A reveal that comes before this seat finished is kept, never answered with ours."""
    t = make_table(2)
    t.start()
    t.call_all("open", {0: [0], 1: [1]})
    t.deliver()
    t.call(0, "finish", discard=True)
    t.deliver()
    assert t.peers[1].phase == "deal"
    assert [m["t"] for m in t.sent[1]].count(MSG_REVEAL) == 0
    t.call(1, "finish", discard=True)
    t.deliver()
    check_verified(t)


def test_local_misuse_is_a_usage_error() -> None:
    t = make_table(2, cutter=1)
    with pytest.raises(DealUsageError):
        t.peers[0].open({0: [0]})  # before the shuffle
    t.start()
    with pytest.raises(DealUsageError):
        t.peers[0].cut(3)  # not the cutter
    with pytest.raises(DealUsageError):
        t.peers[1].cut(40)
    t.call(1, "cut", 5)
    t.deliver()
    t.call_all("open", {0: [0, 1], 1: [2]})
    t.deliver()
    with pytest.raises(DealUsageError):
        t.peers[0].open({1: [1]})  # already dealt
    with pytest.raises(DealUsageError):
        t.peers[0].open({0: [5, 5]})
    with pytest.raises(DealUsageError):
        t.peers[0].play(2)  # seat 1's card
    with pytest.raises(DealUsageError):
        t.peers[0].play(3)  # not dealt
    with pytest.raises(DealUsageError):
        t.peers[0].finish()  # cards still hidden
    with pytest.raises(DealUsageError):
        t.peers[0].receive(0, {"t": MSG_KEY})  # from itself
    t.call(0, "play", 0)
    with pytest.raises(DealUsageError):
        t.peers[0].play(0)  # twice
    with pytest.raises(DealUsageError):
        Deal(session_id=b"s", hand=0, instance=0, n=5, seat=0)
    with pytest.raises(DealUsageError):
        Deal(session_id=b"", hand=0, instance=0, n=2, seat=0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_all_other_seats_together_cannot_open_a_hidden_card(n: int) -> None:
    """Pool every secret of every seat but P (keys and seeds) and everything on the wire:
    P's hidden cards and the undealt ones still open to no card point; P's own share of
    its hidden positions never travelled."""
    from chkobba_p2p.deal.crypto import POINT_TO_CARD
    from chkobba_p2p.deal.group import mul, sub

    victim = n - 1
    t = make_table(n, cutter=0)
    t.start()
    t.call(0, "cut", 21)
    t.deliver()
    t.call_all("open", {s: [3 * s, 3 * s + 1, 3 * s + 2] for s in range(n)}, [3 * n])
    t.deliver()
    states = [p.to_state() for p in t.peers]
    deck = t.peers[0].deck
    assert deck is not None
    others = [s for s in range(n) if s != victim]
    x_others = sum(int.from_bytes(states[s]["x"], "little") for s in others)
    x_victim = int.from_bytes(states[victim]["x"], "little")
    wire_bytes = b"".join(v for s in range(n) for m in t.sent[s] for v in m.values()
                          if isinstance(v, bytes))
    for p in range(DECK_SIZE):
        c1, c2 = deck[p]
        if p == 3 * n:
            continue  # the public card
        residue = sub(c2, mul(x_others, c1))
        assert residue not in POINT_TO_CARD
        if p in (3 * victim, 3 * victim + 1, 3 * victim + 2):
            assert mul(x_victim, c1) not in wire_bytes
            # ...while the victim, with its own share, does see a card.
            assert sub(residue, mul(x_victim, c1)) in POINT_TO_CARD
