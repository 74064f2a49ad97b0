"""A seated key never loses its place to strangers (PROTOCOL.md 5.4, 12.3, 12.4), in
memory and with no clock: a ``knock`` proves a seat of the running game from a
connection's first frame, such a connection is never let go for room, a knock that came
while the seat still had allowance holds its flag until its hello is answered, and a
greeting followed by a close is an answer (the seat retries)."""

from __future__ import annotations

import pytest

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.admission import Admission, AdmissionPolicy
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Knocks, Lobby, knock_message
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.transcript.caps import CAP_KNOCK
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError


def _table() -> tuple[Identity, Identity, Lobby, Knocks]:
    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "h", Ruleset(), 2)
    lobby.take_seat(guest.public, "g")
    lobby.game = bytes(16)  # the game runs
    return host, guest, lobby, Knocks(lobby)


def test_a_knock_proves_a_seat_once_and_only_with_a_greeting_nonce_of_ours():
    host, guest, lobby, knocks = _table()
    first, second = knocks.nonce(), knocks.nonce()
    assert knocks.serial(first) == 1 and knocks.serial(second) == 2
    assert knocks.serial(bytes(32)) is None  # not sealed by us
    assert knocks.check(knock_message(guest, host.public, first)) == (1, guest.public)
    # Seen once, never again: the same knock, or one citing an earlier greeting.
    assert knocks.check(knock_message(guest, host.public, first)) is None
    assert knocks.check(knock_message(guest, host.public, second)) == (1, guest.public)
    third = knocks.nonce()
    stranger = Identity.generate()
    assert knocks.check(knock_message(stranger, host.public, third)) is None  # no seat
    assert knocks.check(knock_message(host, host.public, third)) is None  # the host's own
    assert knocks.check(knock_message(guest, stranger.public, third)) is None  # other host
    forged = knock_message(guest, host.public, third) | {"sig": bytes(64)}
    assert knocks.check(forged) is None
    assert knocks.check({"t": "knock", "key": 3}) is None  # malformed: ignored
    assert Knocks(lobby).check(knock_message(guest, host.public, third)) is None  # restarted
    lobby.game = None  # a lobby: nothing to knock for
    assert knocks.check(knock_message(guest, host.public, third)) is None


def test_only_a_running_games_greeting_announces_the_knock_and_a_hello_keeps_its_key():
    host, guest, lobby, knocks = _table()
    assert CAP_KNOCK not in HostHandshake(lobby).greeting()["caps"]  # today's bytes
    hs = HostHandshake(lobby, running=bytes(16), nonce=knocks.nonce())
    greeting = hs.greeting()
    assert CAP_KNOCK in greeting["caps"]
    hs.knocked = guest.public
    other = Identity.generate()
    lobby.take_seat(other.public, "o") if lobby.seat_of(other.public) else None
    hello = ClientHandshake(other, "o", resume=(bytes(16), 0)).on_host(greeting)
    with pytest.raises(ProtocolError) as info:
        hs.on_hello(hello)
    assert info.value.error_code == ErrorCode.PROTOCOL_VIOLATION
    hello = ClientHandshake(guest, "g", resume=(bytes(16), 0)).on_host(greeting)
    assert hs.on_hello(hello)[1] == 1


def test_a_knocking_connection_is_never_let_go_for_room():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=3, greeting=10, all_shared=True))
    a.opened("seat", "127.0.0.1", 0.0)
    assert a.knocked("seat", 1) == ()
    for i in range(500):  # a flood of strangers, reconnecting as fast as they are let go
        got = a.opened(f"s{i}", "127.0.0.1", 0.001 * i)
        assert "seat" not in got.evicted
    assert a.is_knocking("seat") and a.strangers == 3 and a.knocking == 1
    assert a.deadline("seat") == 10.0
    # One place per seat: its newer try takes it, the older is let go.
    a.closed("s499")
    a.opened("seat-again", "127.0.0.1", 1.0)
    assert a.knocked("seat-again", 1) == ("seat",)
    a.seated("seat-again")
    assert a.seats == 1 and a.knocking == 0
    a.opened("late", "127.0.0.1", 2.0)
    a.knocked("late", 1)
    assert a.deadline("late") == 12.0
    assert "late" in a.expired(12.0) and a.knocking == 0


def test_a_greeting_then_a_close_is_an_answer_the_seat_retries():
    """A seat restarted from its saved game, greeted by its host, then closed before the
    welcome (let go for room): it retries within the host's allowance, and knocks next
    time with that greeting's nonce (it used to stop: "no chkobba host answered")."""
    host, guest, lobby, knocks = _table()
    link: SeatLink[str] = SeatLink(guest, "127.0.0.1:1", None, Limits(30, 10))
    link.session = object()  # type: ignore[assignment]  # a saved game (not read here)
    link.host_key = host.public
    assert link.closed_in_handshake() is True  # nobody answered: stop, as before
    link.error_reason = link.error_code = None
    hs = HostHandshake(lobby, running=bytes(16), nonce=knocks.nonce())
    greeting = hs.greeting()
    c = ClientHandshake(guest, "g", resume=(bytes(16), 3))
    c.on_host(greeting)
    link.greeting(c, greeting["nonce"])
    assert link.closed_in_handshake() is False and link.error_reason is None  # retried
    knock = link.knock()
    assert knock is not None and knocks.check(knock) == (1, guest.public)
    # A greeting with another key says nothing of our host.
    other = SeatLink(guest, "127.0.0.1:1", None, Limits(30, 10))
    other.session = object()  # type: ignore[assignment]
    other.host_key = Identity.generate().public
    other.greeting(c, greeting["nonce"])
    assert other.knock() is None and other.closed_in_handshake() is True


def _table_waiting_for_seat_1(allowance: float = 10.0):
    from chkobba_p2p.link.host import HostTable

    host, guest = Identity.generate(), Identity.generate()
    table: HostTable[str] = HostTable(host, "h", Ruleset(), 2, False,
                                      Limits(move=60, allowance=allowance))
    table.lobby.take_seat(guest.public, "g", ("deal/v1",))  # counts as ready at once
    table.links[1] = "old"
    table.confirmed(table.lobby.seating, 0.0)  # the genesis; the readies follow
    assert table.session is not None and table.session.floor == 1  # seat 1 owes
    table.seat_gone("old", 1, 0.0)  # its connection is gone: its allowance runs
    table.take()
    return host, guest, table


def _aborted(table) -> bool:
    return table.session.finished


def test_a_knock_in_time_holds_the_seats_flag_until_its_hello_is_answered():
    host, guest, table = _table_waiting_for_seat_1()
    # Without a knock, the allowance ends the game at 10 s.
    _, _, bare = _table_waiting_for_seat_1()
    bare.tick(10.5)
    assert _aborted(bare)
    # A knock at 9.5 s (its hello due at 19.5 s) holds it past 10 s ...
    hs = table.handshake(lambda seat: 0)
    assert table.knock("new", hs, knock_message(guest, host.public,
                                                 hs.greeting()["nonce"]), 19.5, 9.5) == 1
    table.tick(10.5)
    assert not _aborted(table)
    assert table.next_wake(10.5) <= 19.5
    # ... and the welcome brings the seat back: no flag, ever.
    hello = ClientHandshake(guest, "g", resume=(table.session.table.game, 0)).on_host(
        hs.greeting())
    welcome, seat, resume, replaced = table.on_hello(hs, hello, wire.encode(hello))
    table.seated("new", seat, welcome, False, resume, replaced, 11.0)
    table.tick(30.0)
    assert not _aborted(table) and table.knocking == {}


def test_a_knock_that_fails_or_comes_late_holds_nothing():
    host, guest, table = _table_waiting_for_seat_1()
    hs = table.handshake(lambda seat: 0)
    table.knock("new", hs, knock_message(guest, host.public, hs.greeting()["nonce"]),
                19.5, 9.5)
    table.tick(10.5)
    assert not _aborted(table)
    assert table.knock_gone("new")  # its connection ended before its hello
    table.tick(10.6)
    assert _aborted(table)  # the flag at once
    host, guest, late = _table_waiting_for_seat_1()
    hs = late.handshake(lambda seat: 0)
    late.tick(9.0)
    late.knock("new", hs, knock_message(guest, host.public, hs.greeting()["nonce"]),
               25.0, 15.0)  # allowance spent at 10 s: a knock at 15 s holds nothing
    late.tick(15.1)
    assert _aborted(late)
