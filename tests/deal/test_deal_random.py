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

from chkobba_p2p.deal import Deal, StepOpened, Verified
from chkobba_p2p.deal.crypto import DECK_SIZE, expand_permutation
from chkobba_p2p.deal.local import LocalTable, make_table
from chkobba_p2p.game.cards import Card


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


# -- fuzz: nothing a peer sends can raise anything but PeerMisbehaved --------------------

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**70) | st.binary(max_size=80)
    | st.sampled_from([bytes(32), bytes(64), bytes(2560), bytes([1]) + bytes(31)])
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8)
_fields = ["y", "commit", "proof", "deck", "k", "step", "pos", "d", "dup", "seed"]
_messages = st.fixed_dictionaries(
    {"t": st.sampled_from(["deal/key", "deal/shuffle", "deal/cut", "deal/shares",
                           "deal/play", "deal/complain", "deal/reveal", "deal/other"])},
    optional={f: _values for f in _fields})


def _table_in(phase: str) -> LocalTable:
    t = make_table(3, cutter=1)
    if phase == "new":
        return t
    if phase == "keys":
        t.call(0, "start")
        return t
    t.start()
    if phase == "cut":
        return t
    t.call(1, "cut", 4)
    t.deliver()
    t.call_all("open", {0: [0, 1, 2], 1: [3, 4, 5], 2: [6, 7, 8]}, [9])
    t.deliver()
    return t


_SHAPES = {
    "deal/key": ["y", "commit", "proof"],
    "deal/shuffle": ["deck"],
    "deal/cut": ["k"],
    "deal/shares": ["step", "pos", "d", "proof"],
    "deal/play": ["pos", "d", "proof"],
    "deal/complain": ["pos", "dup", "d", "proof"],
    "deal/reveal": ["seed"],
}
_near = st.sampled_from([None, 0, 1, 3, 4, 5, 9, 39, -1, 40, True, [3], [3, 4], [4, 3],
                         [0, 1, 2, 9], [6, 7, 8, 9], [[3]], [None], bytes(32), bytes(64),
                         bytes(96), bytes(128), bytes(2560), bytes([1]) + bytes(31)]) | _values
_shaped = st.sampled_from(sorted(_SHAPES)).flatmap(
    lambda t: st.fixed_dictionaries({"t": st.just(t), **{f: _near for f in _SHAPES[t]}}))
_messages = _shaped | _shaped | _shaped | _messages  # mostly well-shaped, to reach the checks

_TABLES: dict[str, LocalTable] = {}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phase=st.sampled_from(["new", "keys", "cut", "deal"]), msgs=st.lists(_messages,
                                                                           min_size=1,
                                                                           max_size=3))
def test_garbage_is_blamed_or_held_never_a_crash(phase: str, msgs: list[dict]) -> None:
    from chkobba_p2p.deal import PeerMisbehaved

    if phase not in _TABLES:
        _TABLES[phase] = _table_in(phase)
    state = _TABLES[phase].peers[0].to_state()
    peer = Deal.from_state(state)
    for m in msgs:
        try:
            peer.receive(2, m)
        except PeerMisbehaved as e:
            assert e.blamed_seat == 2
            break


# -- every field of every message, set to every odd value -------------------------------

_ODD = [None, True, -1, 0, 1, 3, 6, 9, 39, 40, 2**64, "x", b"", bytes(31), bytes(32),
        bytes(33), bytes(64), bytes(96), bytes(2560), bytes([1]) + bytes(31), b"\xff" * 32,
        [], [6], [6, 7], [7, 6], [6, 6], [[6]], [None], [-1], {"a": 1}]


def _templates() -> list[tuple[dict, dict]]:
    """(peer 0's state just before it needs the message, seat 2's valid message)."""
    from chkobba_p2p.deal import crypto as dc

    out = []
    t = make_table(3, cutter=2)
    t.call_all("start")
    key2 = t.sent[2][0]
    t.inbox[0] = [(s, m) for s, m in t.inbox[0] if s != 2]
    t.deliver()
    out.append((t.peers[0].to_state(), key2))
    t.peers[0].receive(2, key2)
    t.deliver()
    t = make_table(3, cutter=2)
    t.call_all("start")
    held = None
    while any(t.inbox):
        for r in range(3):
            if t.inbox[r]:
                s, m = t.inbox[r].pop(0)
                if r == 0 and s == 2 and m["t"] == "deal/shuffle":
                    held = (s, m)
                else:
                    t.call(r, "receive", s, m)
    assert held is not None
    out.append((t.peers[0].to_state(), held[1]))
    t.peers[0].receive(*held)
    out.append((t.peers[0].to_state(), {"t": "deal/cut", "k": 5}))
    t.call(2, "cut", 5)
    t.deliver()
    t.call_all("open", {0: [0, 1, 2], 1: [3, 4, 5], 2: [6, 7, 8]}, [9])
    shares2 = [m for m in t.sent[2] if m["t"] == "deal/shares"][0]
    t.inbox[0] = [(s, m) for s, m in t.inbox[0] if s != 2]
    t.deliver()
    out.append((t.peers[0].to_state(), shares2))
    t.peers[0].receive(2, shares2)
    st2 = t.peers[2].to_state()
    x = int.from_bytes(st2["x"], "little")
    deck = t.peers[2].deck
    assert deck is not None
    ds, proof = dc.prove_shares(x, t.peers[2].context_parts() + st2["keys"], 2, b"complain",
                                [6], [deck[6][0]])
    out.append((t.peers[0].to_state(),
                {"t": "deal/complain", "pos": [6], "dup": None, "d": ds[0], "proof": proof}))
    t.call(2, "play", 6)
    out.append((t.peers[0].to_state(), t.sent[2][-1]))
    t.inbox[0].clear()
    t.call(0, "finish", discard=True)
    t.call(2, "finish", discard=True)
    out.append((t.peers[0].to_state(), t.sent[2][-1]))
    return out


def test_every_field_set_to_every_odd_value_is_blamed_never_a_crash() -> None:
    from chkobba_p2p.deal import PeerMisbehaved

    for state, template in _templates():
        # The template itself passes every check (the loop below is not vacuous); an
        # honest peer's complaint is a false one, refused only at the very last check.
        try:
            Deal.from_state(state).receive(2, template)
        except PeerMisbehaved as e:
            assert template["t"] == "deal/complain" and e.code == "false_complaint"
        for field in [f for f in template if f != "t"]:
            for odd in _ODD:
                if odd == template[field] and type(odd) is type(template[field]):
                    continue
                peer = Deal.from_state(state)
                try:
                    peer.receive(2, {**template, field: odd})
                except PeerMisbehaved as e:
                    assert e.blamed_seat == 2
