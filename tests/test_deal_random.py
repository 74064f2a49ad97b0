"""Property tests of the deal: arbitrary dealing schedules, arbitrary interleavings of
local actions and message deliveries (each sender's messages stay in order, as on one TCP
stream), crash-restores at arbitrary moments.  Whatever happens, every seat learns exactly
its own cards and the public ones, and they are the cards the seeds put there."""

from __future__ import annotations

import hashlib
import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba_p2p.cards import Card
from chkobba_p2p.deal import Deal, StepOpened, Verified
from chkobba_p2p.deal.crypto import DECK_SIZE, expand_permutation
from chkobba_p2p.deal.local import LocalTable, make_table


def final_order(seeds: list[bytes], cut: int) -> list[int]:
    deck = list(range(DECK_SIZE))
    for seed in seeds:
        perm = expand_permutation(seed)
        deck = [deck[perm[i]] for i in range(DECK_SIZE)]
    return deck[cut:] + deck[:cut]


def deliver_one(t: LocalTable, rng: random.Random) -> bool:
    """Deliver one message: a random recipient's oldest message from a random sender."""
    choices = []
    for r in range(t.n):
        heads = {}
        for i, (s, _) in enumerate(t.inbox[r]):
            heads.setdefault(s, i)
        choices += [(r, i) for i in heads.values()]
    if not choices:
        return False
    r, i = rng.choice(choices)
    sender, msg = t.inbox[r].pop(i)
    t.call(r, "receive", sender, msg)
    return True


def some_deliveries(t: LocalTable, rng: random.Random) -> None:
    for _ in range(rng.randrange(4)):
        if not deliver_one(t, rng):
            return


def maybe_restore(t: LocalTable, rng: random.Random) -> None:
    if rng.random() < 0.15:
        s = rng.randrange(t.n)
        t.peers[s] = Deal.from_state(msgpack.unpackb(msgpack.packb(t.peers[s].to_state())))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), cut=st.integers(0, 39), rseed=st.integers(0, 2**32),
       sizes=st.lists(st.integers(1, 9), min_size=1, max_size=12))
def test_any_schedule_any_interleaving(n: int, cut: int, rseed: int, sizes: list[int]) -> None:
    rng = random.Random(rseed)
    seeds = [hashlib.sha256(f"{rseed} {s}".encode()).digest() for s in range(n)]
    order = final_order(seeds, cut)
    cutter = rng.randrange(n)
    t = make_table(n, cutter=cutter, seeds=seeds)
    for s in rng.sample(range(n), n):
        t.call(s, "start")
        some_deliveries(t, rng)
    while any(t.inbox):
        deliver_one(t, rng)
    t.call(cutter, "cut", cut)
    while any(t.inbox):  # a seat deals once it has the cut (its CutDone event)
        deliver_one(t, rng)
    # Split the deck into steps; each position goes to a random seat or face up.
    steps = []
    top = 0
    for size in sizes:
        if top >= DECK_SIZE:
            break
        size = min(size, DECK_SIZE - top)
        who = [rng.choice([None, *range(n)]) for _ in range(size)]
        steps.append((list(range(top, top + size)), who))
        top += size
    if top < DECK_SIZE:
        steps.append((list(range(top, DECK_SIZE)), [None] * (DECK_SIZE - top)))
    for positions, who in steps:
        private: dict[int, list[int]] = {}
        for p, w in zip(positions, who, strict=True):
            if w is not None:
                private.setdefault(w, []).append(p)
        public = [p for p, w in zip(positions, who, strict=True) if w is None]
        for s in rng.sample(range(n), n):
            some_deliveries(t, rng)
            maybe_restore(t, rng)
            t.call(s, "open", private, public)
        while any(t.inbox):
            deliver_one(t, rng)
        for s in range(n):
            ev = [e for e in t.take_events(s) if isinstance(e, StepOpened)]
            assert len(ev) == 1
            assert ev[0].public == {p: Card(order[p]) for p in public}
            assert ev[0].mine == {p: Card(order[p]) for p in private.get(s, [])}
        # Some seats show some of their cards, deliveries interleaved.
        for s in range(n):
            for p in t.peers[s].hand_positions():
                if rng.random() < 0.5:
                    t.call(s, "play", p)
                    some_deliveries(t, rng)
        while any(t.inbox):
            deliver_one(t, rng)
    # Every seat knows exactly its own hidden cards and every public card.
    for s in range(n):
        for p in range(DECK_SIZE):
            holder = t.peers[s].holder(p)
            visible = holder is None or holder == s or t.peers[s].is_played(p)
            assert t.peers[s].card_at(p) == (Card(order[p]) if visible else None)
    for s in range(n):
        for p in t.peers[s].hand_positions():
            t.call(s, "play", p)
    while any(t.inbox):
        deliver_one(t, rng)
    for s in rng.sample(range(n), n):
        t.call(s, "finish")
        some_deliveries(t, rng)
    while any(t.inbox):
        deliver_one(t, rng)
    for s in range(n):
        assert t.peers[s].phase == "done"
        assert any(isinstance(e, Verified) for e in t.events[s])
