"""Seats belong to the host's friends (issue 42, item 5; PROTOCOL.md 5.3): a stranger who
knows the table's address takes the free seat; the host's person frees it and refuses
that key at the table, or the ready check's time frees it, and the friend sits.  In
memory, on the cores, time as a number."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from test_link_cores import Table

from chkobba_p2p.link.events import LeftLobby, ReadyLapsed
from chkobba_p2p.link.host import READY_WAIT
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.link.seat import AskReady, Close, Send
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError


def _hello(table: Table, link: SeatLink, name: str):
    hs = table.host.handshake(lambda s: 0)
    ch = link.hello_for(link._identity, name, ("deal/v1", "ready-check/v1"))
    hello = ch.on_host(hs.greeting())
    return hs, hello


def test_the_host_frees_a_squatted_seat_and_the_friend_sits():
    table = Table(players=3)
    host = table.host
    seat = table.join("mallory")  # a stranger with the address
    squatter = table.seats[seat]
    assert not host.free_seat(0, table.now)  # the host's own seat: nothing to free
    assert not host.free_seat(2, table.now)  # a free seat: nothing either
    assert host.free_seat(seat, table.now)
    effects = host.take()
    closes = [e for e in effects if isinstance(e, Close)]
    assert [(c.to, c.code) for c in closes] == [(f"c{seat}", ErrorCode.SEAT_REFUSED)]
    assert any(getattr(e, "event", None) == LeftLobby(seat, "mallory") for e in effects)
    assert host.lobby.seats[seat] is None and seat not in host.links
    # Whatever the freed connection still says (a start for the old seating) counts
    # for no seat.
    start = {"t": "start", "seating": host.lobby.seating}
    assert host.seat_message(f"c{seat}", seat, read_frame(wire.encode(start), start),
                             table.now) is False
    # The same key again: refused at this table, with its own code.
    again = SeatLink(squatter._identity, "host:7777", None, Limits(60, 30))
    hs, hello = _hello(table, again, "mallory")
    with pytest.raises(ProtocolError) as info:
        host.on_hello(hs, hello, wire.encode(hello))
    assert info.value.error_code == ErrorCode.SEAT_REFUSED
    # The friend takes the seat.
    assert table.join("sami") == seat
    assert host.lobby.seats[seat] is not None and host.lobby.seats[seat].name == "sami"


def test_no_seat_is_freed_once_the_game_runs():
    table = Table(players=2)
    table.fill()
    assert table.host.session is not None
    assert not table.host.free_seat(1, table.now)
    assert table.host.lobby.refused == set()


# -- the ready check's time (PROTOCOL.md 5.3) ----------------------------------------------


@dataclass
class QuietTable(Table):
    """A table whose seats in ``quiet`` never confirm the full table (a stranger who took
    a friend's seat and only answers pings); the others confirm at once."""

    quiet: set[int] = field(default_factory=set)

    def _carry(self, seat, core, effect) -> None:
        if isinstance(effect, AskReady) and seat in self.quiet:
            return
        super()._carry(seat, core, effect)


def _ping(table: Table, seat: int) -> None:
    ping = {"t": "ping"}
    assert table.host.seat_message(f"c{seat}", seat, read_frame(wire.encode(ping), ping),
                                   table.now)
    assert any(e.to == f"c{seat}" and wire.decode(e.body) == {"t": "pong"}
               for e in table.host.take() if isinstance(e, Send))


def test_a_squatter_who_never_confirms_loses_the_seat_when_the_check_runs_out():
    table = QuietTable(players=2, quiet={1})
    host = table.host
    start = table.now
    seat = table.join("mallory")  # a stranger with the address: the table is full
    squatter = table.seats[seat]
    assert host.lobby.full and host.session is None
    # The shell sleeps until the check's end at the latest (never past it).
    assert host.next_wake(start + READY_WAIT - 0.5) == start + READY_WAIT
    table.now = start + READY_WAIT - 1  # it answers pings all along: alive, not ready
    _ping(table, seat)
    host.tick(table.now)
    table.run()
    assert f"c{seat}" not in table.closed and host.lobby.seats[seat] is not None
    table.now = start + READY_WAIT
    host.tick(table.now)
    table.run()
    assert table.closed[f"c{seat}"] == ErrorCode.READY_TIMEOUT
    assert ReadyLapsed(seat, "mallory", 60) in table.events[0]
    assert LeftLobby(seat, "mallory") not in table.events[0]  # one line for the host
    assert host.lobby.seats[seat] is None and seat not in host.links
    # Its ping afterwards speaks for no seat; its key is not refused (it may have been a
    # slow friend): only the host's person's explicit free refuses a key.
    assert host.seat_message(f"c{seat}", seat, read_frame(wire.encode({"t": "ping"}),
                                                          {"t": "ping"}), table.now) is False
    assert host.lobby.refused == set()
    assert squatter._identity.public not in host.lobby.refused
    # The friend takes the seat, confirms, and the game is played.
    table.quiet.clear()
    host.seat_gone(f"c{seat}", seat, table.now)  # the shell saw the connection end
    del table.closed[f"c{seat}"]  # (the harness names a connection by its seat)
    assert table.join("sami") == seat
    assert host.session is not None and host.finished


def test_a_friend_who_confirms_in_time_keeps_the_seat_and_a_slow_one_may_come_back():
    table = QuietTable(players=3, quiet={2})
    host = table.host
    start = table.now
    assert table.join("sami") == 1  # confirms at once (a full table is asked only)
    table.now += 30  # a second seat, later: the check starts when the table is full
    assert table.join("lina") == 2
    full_at = table.now
    assert host.next_wake(full_at + READY_WAIT - 0.5) == full_at + READY_WAIT
    table.now = start + READY_WAIT + 1  # past 60 s after the first join: nothing yet
    host.tick(table.now)
    table.run()
    assert not table.closed
    # lina confirms at 59 s: kept, and the game starts.
    table.now = full_at + READY_WAIT - 1
    start_msg = {"t": "start", "seating": host.lobby.seating}
    assert host.seat_message("c2", 2, read_frame(wire.encode(start_msg), start_msg),
                             table.now)
    table.run()
    assert host.session is not None
    host.tick(full_at + READY_WAIT)
    assert not table.closed and host.lobby.refused == set()


def test_only_the_unconfirmed_seats_are_freed_and_a_slow_friend_sits_again():
    table = QuietTable(players=3, quiet={2})
    host = table.host
    table.join("sami")
    lina = table.join("lina")
    slow = table.seats[lina]
    table.now += READY_WAIT
    host.tick(table.now)
    table.run()
    assert table.closed == {"c2": ErrorCode.READY_TIMEOUT}  # sami confirmed: kept
    assert host.lobby.seats[1] is not None and host.lobby.seats[2] is None
    # lina was only slow: the same key sits again, confirms this time, and plays.
    table.quiet.clear()
    del table.closed["c2"]
    again = SeatLink(slow._identity, "host:7777", None, Limits(60, 30))
    hs, hello = _hello(table, again, "lina")
    welcome, seat, resume, replaced = host.on_hello(hs, hello, wire.encode(hello))
    assert seat == 2 and replaced is None


def test_a_host_that_admits_only_named_keys_refuses_a_stranger_and_seats_the_friend():
    """The headless host has nobody to free a seat: ``admits`` names the keys that may
    sit (``chkobba host --allow FINGERPRINT``); any other key is refused at its hello."""
    table = Table(players=2)
    host = table.host
    friend, stranger = Identity.generate(), Identity.generate()
    host.lobby.admits = frozenset({friend.fingerprint})
    link = SeatLink(stranger, "host:7777", None, Limits(60, 30))
    hs, hello = _hello(table, link, "mallory")
    with pytest.raises(ProtocolError) as info:
        host.on_hello(hs, hello, wire.encode(hello))
    assert info.value.error_code == ErrorCode.SEAT_REFUSED
    assert host.lobby.seats[1] is None
    link = SeatLink(friend, "host:7777", None, Limits(60, 30))
    hs, hello = _hello(table, link, "sami")
    _, seat, _, _ = host.on_hello(hs, hello, wire.encode(hello))
    assert seat == 1 and host.lobby.seats[1].key == friend.public
