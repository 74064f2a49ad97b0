"""Seats belong to the host's friends (issue 42, item 5; PROTOCOL.md 5.3): a stranger who
knows the table's address takes the free seat; the host's person frees it and refuses
that key at the table, and the friend sits.  In memory, on the cores."""

from __future__ import annotations

import pytest
from test_link_cores import Table

from chkobba_p2p.link.events import LeftLobby
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.link.seat import Close
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, ProtocolError


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
