"""The host's admission core (PROTOCOL.md 5.4), in memory and with no clock: strangers
share one bounded budget with a deadline, a full budget lets a stranger already held go
(never the newcomer), spectators have their own slots, seats count against nothing, and
an address a transport reports for all its connections is no address at all."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    precondition,
    rule,
)

from chkobba_p2p.link.admission import Admission, AdmissionPolicy, network_of


def test_a_full_budget_lets_the_oldest_stranger_go_never_the_newcomer():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=3, greeting=10))
    for i, name in enumerate("abc"):
        assert a.opened(name, "198.51.100.1", float(i)).evicted == ()
    a.heard("a")  # a byte earns nothing: a returning seat is silent until its hello
    got = a.opened("d", "198.51.100.1", 3.0)
    assert got.evicted == ("a",) and got.deadline == 13.0
    assert a.is_stranger("d") and not a.is_stranger("a") and a.strangers == 3
    assert a.opened("e", "198.51.100.1", 4.0).evicted == ("b",)
    assert a.opened("f", "198.51.100.1", 5.0).evicted == ("c",)
    assert a.opened("g", "198.51.100.1", 6.0).evicted == ("d",)
    assert a.evicted == 4


def test_evictions_fall_on_the_address_holding_the_most_strangers():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=4))
    a.opened("honest", "203.0.113.7", 0.0)
    for i in range(3):
        a.opened(f"flood{i}", "198.51.100.9", 1.0 + i)
    # The honest stranger is the oldest, but its address holds one: the flood pays.
    assert a.opened("x", "192.0.2.1", 9.0).evicted == ("flood0",)
    assert a.opened("y", "192.0.2.1", 9.5).evicted == ("flood1",)
    assert a.is_stranger("honest")


def test_an_address_shared_by_all_connections_spreads_no_blame_on_a_group():
    tor = "127.0.0.1"
    a: Admission[str] = Admission(AdmissionPolicy(strangers=3, shared=frozenset({tor})))
    a.opened("old", tor, 0.0)
    a.opened("mid", tor, 1.0)
    a.opened("lan", "192.0.2.5", 2.0)
    # Behind Tor every connection says 127.0.0.1: each is its own group, so the
    # oldest overall goes, not "the address with two".
    assert a.opened("new", tor, 3.0).evicted == ("old",)
    unshared: Admission[str] = Admission(AdmissionPolicy(strangers=3))
    unshared.opened("old", tor, 0.0)
    unshared.opened("mid", tor, 1.0)
    unshared.opened("lan", "192.0.2.5", 2.0)
    assert unshared.opened("new", "192.0.2.5", 3.0).evicted == ("old",)
    unshared.opened("again", "192.0.2.5", 4.0)  # now 192.0.2.5 holds the most
    assert unshared.is_stranger("mid") and not unshared.is_stranger("lan")


def test_seats_and_spectators_leave_the_strangers_budget():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=2, spectators=1))
    a.opened("seat", "192.0.2.1", 0.0)
    a.opened("watcher", "192.0.2.1", 0.0)
    a.seated("seat")
    assert a.spectating("watcher")
    assert (a.strangers, a.spectators, a.seats) == (0, 1, 1)
    a.opened("w2", "192.0.2.1", 1.0)
    assert not a.spectating("w2")  # the one slot is taken: refused, still a stranger
    assert a.is_stranger("w2")
    for i in range(10):  # strangers come and go: neither the seat nor the watcher moves
        assert set(a.opened(f"s{i}", "192.0.2.1", 2.0 + i).evicted) <= {f"s{i - 2}", "w2"}
    assert (a.spectators, a.seats) == (1, 1)
    assert a.shed() is not None and a.strangers == 1


def test_the_greeting_deadline_expires_strangers_only():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=8, greeting=5))
    a.opened("slow", "192.0.2.1", 0.0)
    a.opened("seat", "192.0.2.1", 0.0)
    a.opened("later", "192.0.2.1", 3.0)
    a.seated("seat")
    assert a.next_deadline() == 5.0
    assert a.expired(4.99) == ()
    assert a.expired(5.0) == ("slow",)
    assert a.next_deadline() == 8.0 and a.deadline("seat") is None
    assert a.expired(100.0) == ("later",) and a.next_deadline() is None
    assert a.expired_count == 2


def test_misuse_is_refused_locally():
    with pytest.raises(ValueError):
        AdmissionPolicy(strangers=0)
    with pytest.raises(ValueError):
        AdmissionPolicy(greeting=0)
    a: Admission[str] = Admission()
    a.opened("x", "192.0.2.1", 0.0)
    with pytest.raises(ValueError):
        a.opened("x", "192.0.2.1", 1.0)


ADDRESSES = st.sampled_from(["127.0.0.1", "192.0.2.1", "192.0.2.2", "2001:db8::1", "?"])


class HostileAdmission(RuleBasedStateMachine):
    """Any connections from any addresses, greeting or not, closing, at any time; a seat
    holds its place whatever the strangers do, and the budgets hold."""

    conns = Bundle("conns")

    def __init__(self) -> None:
        super().__init__()
        self.policy = AdmissionPolicy(strangers=5, greeting=3.0, spectators=2,
                                      shared=frozenset({"127.0.0.1"}))
        self.a: Admission[int] = Admission(self.policy)
        self.now = 0.0
        self.next = 0
        self.live: set[int] = set()  # the shell's view: what it has not closed
        self.seated: set[int] = set()
        self.watching: set[int] = set()

    def _close(self, conns: tuple[int, ...] | list[int]) -> None:
        for c in conns:
            assert c in self.live and c not in self.seated and c not in self.watching, \
                f"admission let go {c}, which is no stranger"
            self.live.discard(c)
            self.a.closed(c)

    @rule(target=conns, address=ADDRESSES)
    def open(self, address):
        self.next += 1
        c = self.next
        got = self.a.opened(c, address, self.now)
        assert got.conn == c and got.deadline == self.now + self.policy.greeting
        assert c not in got.evicted, "the newcomer is never the one let go"
        self.live.add(c)
        self._close(got.evicted)
        return c

    @rule(c=conns)
    def hear(self, c):
        self.a.heard(c)

    @rule(c=conns)
    def seat(self, c):
        if c in self.live and self.a.is_stranger(c):
            self.a.seated(c)
            self.seated.add(c)

    @rule(c=conns)
    def watch(self, c):
        if c in self.live and self.a.is_stranger(c) and self.a.spectating(c):
            self.watching.add(c)

    @rule(c=consumes(conns))
    def close(self, c):
        self.a.closed(c)
        self.live.discard(c)
        self.seated.discard(c)
        self.watching.discard(c)

    @rule(dt=st.floats(min_value=0, max_value=5, allow_nan=False))
    def tick(self, dt):
        self.now += dt
        self._close(self.a.expired(self.now))
        nd = self.a.next_deadline()  # no stranger outlives its deadline past a tick
        assert nd is None or nd > self.now

    @precondition(lambda self: self.a.strangers > 0)
    @rule()
    def out_of_files(self):
        victim = self.a.shed()
        assert victim is not None
        self._close([victim])

    @invariant()
    def budgets_hold(self):
        assert self.a.strangers <= self.policy.strangers
        assert self.a.spectators <= self.policy.spectators == 2
        assert self.a.seats == len(self.seated)
        assert self.a.spectators == len(self.watching)

    @invariant()
    def nobody_seated_was_let_go(self):
        assert self.seated <= self.live and self.watching <= self.live



TestHostileAdmission = HostileAdmission.TestCase


def test_a_transport_that_reports_one_address_for_all_makes_each_connection_its_own():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=3, all_shared=True))
    a.opened("first", "127.0.0.1", 0.0)
    a.opened("second", "127.0.0.1", 1.0)
    a.opened("third", "192.0.2.9", 2.0)
    a.opened("fourth", "192.0.2.9", 2.5)  # not "the busiest address": the oldest goes
    assert not a.is_stranger("first") and a.is_stranger("second")


def test_an_ipv6_64_is_one_party_and_a_mapped_ipv4_address_is_the_ipv4_address():
    assert network_of("2001:db8:1:2::5") == network_of("2001:db8:1:2:ffff::9")
    assert network_of("2001:db8:1:2::5") != network_of("2001:db8:1:3::5")
    assert network_of("::ffff:192.0.2.7") == network_of("192.0.2.7") == "192.0.2.7"
    assert network_of("fe80::1%eth0") == network_of("fe80::2")
    assert network_of("?") == "?"
    a: Admission[str] = Admission(AdmissionPolicy(strangers=3))
    a.opened("honest", "192.0.2.7", 0.0)
    a.opened("v6a", "2001:db8:1:2::1", 1.0)  # one machine, many addresses
    a.opened("v6b", "2001:db8:1:2::2", 2.0)
    assert a.opened("new", "192.0.2.8", 3.0).evicted == ("v6a",)
