"""The host's door, sans-IO (chkobba_p2p.link.door): each connection's handshake in the
order chkobba_p2p.link.states.HOST gives, in memory and with no clock.  The greeting
first; then a hello (its checks, the seat secret's among them), a spectator's watch and
its place, or a seat's knock and then its hello; anything out of order, malformed or
late ends the connection with a named code, as the trio shell now only carries the
bytes and the deadline."""

from __future__ import annotations

import gc
import weakref

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.frames import frame, junk_messages, watch_message

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as m
from chkobba_p2p.link import states as s
from chkobba_p2p.link.admission import AdmissionPolicy
from chkobba_p2p.link.door import Arrival, DoorCore, DoorStep
from chkobba_p2p.link.handshake import ClientHandshake, knock_message, seat_secret_proof
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.link.seat import Close, Send, SendBacklog
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

SECRET = "k7m2-x4qa-b3cd-e5fg"


def _door(*, spectators: int = 0, strangers: int = 8, secret: str | None = None
          ) -> DoorCore[str]:
    table: HostTable[str] = HostTable(Identity.generate(), "hedi", Ruleset(), 2, False,
                                      Limits(move=30, allowance=10),
                                      spectator_limit=spectators)
    table.lobby.secret = secret
    return DoorCore(table, AdmissionPolicy(strangers=strangers, greeting=10.0,
                                           spectators=spectators))


def _greeted(door: DoorCore[str], conn: str = "c1", now: float = 0.0
             ) -> tuple[Arrival[str], dict]:
    arrival = door.opened(conn, "192.0.2.1", now).arrival
    greeting = wire.decode(arrival.greeting())
    assert arrival.state == "AWAIT_HELLO" and arrival.handshaking
    return arrival, greeting


def _send(arrival: Arrival[str], msg: dict, now: float = 0.0) -> DoorStep[str]:
    body = wire.encode(msg)
    return arrival.receive(body, m.read_frame(body), now)


def _refused(step: DoorStep[str], arrival: Arrival[str], code: ErrorCode) -> None:
    assert (step.fail, step.over, arrival.state) == (code, True, "CLOSED")
    assert not arrival.handshaking


# ---------------------------------------------------------------- the order


def test_a_fresh_hello_is_welcomed_and_seated_by_the_core():
    door = _door()
    arrival, greeting = _greeted(door)
    guest = ClientHandshake(Identity.generate(), "guest")
    step = _send(arrival, guest.on_host(greeting))
    assert step == DoorStep() and arrival.state == "SEATED" and not arrival.handshaking
    assert door.admission.is_stranger("c1")  # until admitted
    admit = arrival.admit(1.0)
    assert admit.seat == 1 and admit.fail is None and admit.ended is None
    assert admit.max_frame == wire.MAX_FRAME  # a seat's entries, from now on
    out = door.table.take()
    welcome = next(e for e in out if isinstance(e, Send))
    assert guest.on_welcome(wire.decode(welcome.body), welcome.body) == 1
    assert door.admission.seats == 1 and door.admission.strangers == 0
    assert door.table.conn_states["c1"] == "SEATED" and door.table.links == {1: "c1"}


@pytest.mark.parametrize("first", [
    {"t": "welcome", "seat": 1},
    {"t": "lobby", "seats": []},
    {"t": "ping"},
    {"t": "chat", "text": "hi"},
    {"t": "start", "seating": 1},
    {"t": "emoji"},
])
def test_anything_but_hello_watch_or_knock_first_is_unknown_type(first):
    arrival, _ = _greeted(_door())
    step = _send(arrival, first)
    _refused(step, arrival, ErrorCode.UNKNOWN_TYPE)
    assert step.detail == f"{first['t']!r} in AWAIT_HELLO"  # the bytes the peer reads


def test_after_a_knock_only_a_hello_is_read():
    for second in ({"t": "knock", "key": b"k" * 32, "nonce": b"n" * 32, "sig": b"s"},
                   watch_message("Amel", 1), {"t": "ping"}):
        arrival, _ = _greeted(_door(spectators=2))
        junk_knock = {"t": "knock", "key": b"k" * 32, "nonce": b"n" * 32, "sig": b"s"}
        assert _send(arrival, junk_knock) == DoorStep()  # proves nothing: ignored
        assert arrival.state == "KNOCKED"
        _refused(_send(arrival, second), arrival, ErrorCode.UNKNOWN_TYPE)


def test_nothing_is_read_before_the_greeting_left_or_once_the_handshake_is_over():
    door = _door()
    arrival = door.opened("c1", "192.0.2.1", 0.0).arrival
    with pytest.raises(s.NoSuchEvent):
        _send(arrival, {"t": "ping"})
    arrival.greeting()
    _refused(_send(arrival, {"t": "ping"}), arrival, ErrorCode.UNKNOWN_TYPE)
    with pytest.raises(s.NoSuchEvent):
        _send(arrival, {"t": "ping"})


def test_the_deadline_a_bad_frame_and_the_peers_own_error():
    door = _door()
    late, _ = _greeted(door, "late")
    _refused(late.timed_out(), late, ErrorCode.HANDSHAKE_TIMEOUT)
    bad, _ = _greeted(door, "bad")
    step = bad.broken(ProtocolError(ErrorCode.FRAME_TOO_LARGE, "9 > 8 bytes"))
    _refused(step, bad, ErrorCode.FRAME_TOO_LARGE)
    assert step.detail == "9 > 8 bytes"
    quits, _ = _greeted(door, "quits")
    step = _send(quits, {"t": "error", "code": int(ErrorCode.VERSION_MISMATCH), "msg": ""})
    assert step == DoorStep(over=True) and quits.state == "CLOSED"  # nothing to answer
    gone, _ = _greeted(door, "gone")
    assert gone.closed() == DoorStep(over=True) and gone.state == "CLOSED"


def test_a_hello_that_fails_its_checks_is_refused_with_the_checks_code():
    arrival, greeting = _greeted(_door())
    hello = ClientHandshake(Identity.generate(), "guest").on_host(greeting)
    hello["pop"] = bytes(64)  # not signed by its key
    _refused(_send(arrival, hello), arrival, ErrorCode.BAD_PROOF_OF_POSSESSION)
    malformed, _ = _greeted(_door(), "c2")
    _refused(_send(malformed, {"t": "hello", "v": 1}), malformed, ErrorCode.BAD_FIELD)


def test_a_table_closing_admits_nobody_more():
    door = _door()
    arrival, greeting = _greeted(door)
    _send(arrival, ClientHandshake(Identity.generate(), "guest").on_host(greeting))
    admit = arrival.admit(1.0, closing=True)
    assert admit.fail == ErrorCode.SHUTDOWN and admit.seat is None
    assert door.table.links == {} and door.table.take() == []


# ---------------------------------------------------------------- the seat secret


def test_the_seat_secret_is_checked_at_the_door_by_its_codes():
    door = _door(secret=SECRET)
    bare, greeting = _greeted(door, "bare")
    assert "seat-secret/v1" in greeting["caps"]
    _refused(_send(bare, ClientHandshake(Identity.generate(), "g").on_host(greeting)),
             bare, ErrorCode.SECRET_REQUIRED)
    wrong, greeting = _greeted(door, "wrong")
    other = ClientHandshake(Identity.generate(), "g", secret="aaaa-bbbb-cccc-dddd")
    _refused(_send(wrong, other.on_host(greeting)), wrong, ErrorCode.SECRET_WRONG)
    # A proof made on another connection (another greeting nonce) proves nothing here.
    friend = Identity.generate()
    seen, greeting_seen = _greeted(door, "seen")
    replay, greeting_now = _greeted(door, "replay")
    proof = seat_secret_proof(SECRET, greeting_seen["nonce"], friend.public, b"n" * 32)
    cheat = ClientHandshake(friend, "g", nonce=b"n" * 32)
    hello = cheat.on_host(greeting_now)
    hello = cheat.seal_hello({k: v for k, v in hello.items() if k != "pop"}
                             | {"secret_proof": proof})
    _refused(_send(replay, hello), replay, ErrorCode.SECRET_WRONG)
    # The friend with the join code's secret sits.
    step = _send(seen, ClientHandshake(friend, "g", secret=SECRET).on_host(greeting_seen))
    assert step == DoorStep() and seen.admit(1.0).seat == 1
    assert door.table.lobby.seats[1] is not None


# ---------------------------------------------------------------- spectators


def test_a_spectator_takes_a_place_and_gets_the_table_then_the_places_run_out():
    door = _door(spectators=1)
    first, _ = _greeted(door, "s1")
    second, _ = _greeted(door, "s2")
    assert _send(first, watch_message("Amel", 1)) == DoorStep()
    assert first.state == "WATCHING" and door.admission.spectators == 1
    # The second's place is gone before the first is even admitted.
    step = _send(second, watch_message("Sami", 1))
    _refused(step, second, ErrorCode.SPECTATORS_CLOSED)
    assert step.detail == "every spectator's place is taken"
    admit = first.admit(1.0)
    assert admit.spectator == 1 and admit.seat is None
    assert admit.max_frame is None  # a spectator only pings: its frames stay small
    out = door.table.take()
    sent = [e for e in out if isinstance(e, Send) and e.to == "s1"]
    assert isinstance(m.read_frame(sent[0].body), m.Watching)  # first, then the lobby
    assert isinstance(m.read_frame(sent[1].body), m.Lobby)
    assert door.table.spectators == {1: ("Amel", "s1")}
    third, _ = _greeted(door, "s3")  # the table's own count says so too
    _refused(_send(third, watch_message("Lina", 1)), third, ErrorCode.SPECTATORS_CLOSED)


def test_a_table_without_places_refuses_a_watch():
    arrival, _ = _greeted(_door(spectators=0))
    step = _send(arrival, watch_message("Amel", 1))
    _refused(step, arrival, ErrorCode.SPECTATORS_CLOSED)
    bad, _ = _greeted(_door(spectators=2), "bad")
    _refused(_send(bad, {"t": "watch", "v": 1, "name": "a\nb"}), bad, ErrorCode.BAD_FIELD)


# ---------------------------------------------------------------- strangers and knocks


def test_strangers_let_go_for_room_are_told_to_the_shell_and_the_table():
    door = _door(strangers=1)
    first = door.opened("c1", "192.0.2.1", 0.0)
    assert first.let_go == () and first.deadline == 10.0
    assert first.max_frame == wire.MAX_HELLO  # a stranger's frames are small
    door.table.absent.add(1)  # a seat away: any stranger may have been it
    second = door.opened("c2", "192.0.2.2", 1.0)
    assert second.let_go == ("c1",) and door.table.crowded_out == {1}
    assert door.out_of_files(2.0) == ("c2", True)
    assert door.out_of_files(3.0) == (None, False)  # nobody left; warned once a while


def _running() -> tuple[DoorCore[str], Identity, Identity]:
    """A table whose game runs, seat 1 away (its connection gone)."""
    door = _door()
    table = door.table
    guest = Identity.generate()
    table.lobby.take_seat(guest.public, "g", ("deal/v1",))
    table.links[1] = "old"
    table.confirmed(table.lobby.seating, 0.0)
    table.seat_gone("old", 1, 0.0)
    table.take()
    return door, table.identity, guest


def test_a_knock_proves_a_seat_an_older_knock_goes_and_its_hello_must_match():
    door, host, guest = _running()
    table = door.table
    older, greeting = _greeted(door, "k1", 1.0)
    assert "knock/v1" in greeting["caps"]
    assert _send(older, knock_message(guest, host.public, greeting["nonce"]), 1.0) \
        == DoorStep() and older.state == "KNOCKED"
    assert door.admission.is_knocking("k1") and table.knocking[1][0] == "k1"
    newer, greeting2 = _greeted(door, "k2", 2.0)
    step = _send(newer, knock_message(guest, host.public, greeting2["nonce"]), 2.0)
    assert step.let_go == ("k1",)  # one place per seat: the latest try
    # A hello of another key than the knock proved is a violation.
    stranger = ClientHandshake(Identity.generate(), "x",
                               resume=(table.session.table.game, 0)).on_host(greeting2)
    _refused(_send(newer, stranger, 3.0), newer, ErrorCode.PROTOCOL_VIOLATION)
    assert door.closed("k2")  # its flag is held no more
    # The seat's own hello, after its knock, takes its seat back in the game.
    again, greeting3 = _greeted(door, "k3", 4.0)
    _send(again, knock_message(guest, host.public, greeting3["nonce"]), 4.0)
    hello = ClientHandshake(guest, "g", resume=(table.session.table.game, 0)).on_host(
        greeting3)
    assert _send(again, hello, 5.0) == DoorStep() and again.state == "SEATED"
    assert again.admit(5.0).seat == 1
    out = table.take()
    assert isinstance(out[0], Send) and isinstance(m.read_frame(out[0].body), m.Welcome)
    assert any(isinstance(e, SendBacklog) and e.to == "k3" for e in out)
    assert table.conn_states["k3"] == "IN_GAME" and table.knocking == {}
    assert 1 not in table.absent


def test_a_fresh_hello_once_the_game_runs_finds_the_table_full():
    door, _, _ = _running()
    arrival, greeting = _greeted(door)
    step = _send(arrival, ClientHandshake(Identity.generate(), "late").on_host(greeting))
    _refused(step, arrival, ErrorCode.TABLE_FULL)


def test_a_fresh_hello_from_a_seated_identity_is_already_seated():
    door = _door()
    guest = Identity.generate()
    first, greeting = _greeted(door, "c1")
    _send(first, ClientHandshake(guest, "g").on_host(greeting))
    first.admit(0.0)
    again, greeting = _greeted(door, "c2")
    _refused(_send(again, ClientHandshake(guest, "g").on_host(greeting)), again,
             ErrorCode.ALREADY_SEATED)
    assert Close not in [type(e) for e in door.table.take()]  # the seat held is kept


# ---------------------------------------------------------------- junk


_junk = junk_messages(("seat", "v", "name", "caps", "key", "nonce", "pop", "sig", "resume",
                       "secret_proof", "code", "msg"))


@settings(max_examples=150, deadline=None)
@given(st.lists(_junk | st.sampled_from(("hello", "watch", "knock", "timeout")),
                max_size=6),
       st.booleans())
def test_junk_and_out_of_order_frames_only_ever_end_in_named_codes(frames, secret):
    """Whatever a stranger sends, in any order (now and then an honest hello, watch or
    knock), the door raises nothing: each step goes on, or ends the connection with a
    named code; a connection admitted is SEATED or WATCHING."""
    door = _door(spectators=1, secret=SECRET if secret else None)
    arrival, greeting = _greeted(door)
    guest = Identity.generate()
    for raw in frames:
        if raw == "timeout":
            step = arrival.timed_out()
        else:
            if raw == "hello":
                msg = ClientHandshake(guest, "g", secret=SECRET).on_host(greeting)
            elif raw == "watch":
                msg = watch_message("Amel", 1)
            elif raw == "knock":
                msg = knock_message(guest, door.table.identity.public, greeting["nonce"])
            else:
                msg = raw
            try:
                read = frame(msg)
            except ProtocolError as exc:  # the shell's frame reader refuses it
                step = arrival.broken(exc)
            else:
                step = arrival.receive(wire.encode(msg), read, 0.0)
        assert step.fail is None or isinstance(step.fail, ErrorCode)
        assert step.let_go == ()  # nobody else knocked
        if step.over:
            assert arrival.state == "CLOSED"
            return
        if not arrival.handshaking:
            assert arrival.state in ("SEATED", "WATCHING")
            admit = arrival.admit(0.0)
            assert (admit.seat, admit.spectator) in ((1, None), (None, 1))
            return
    assert arrival.state in ("AWAIT_HELLO", "KNOCKED")


def test_a_connection_gone_is_held_by_nothing_without_the_collector():
    """The shell closes a socket when its last reference goes: an arrival and its
    handshake must hold their connection in no reference cycle (one did: 200 spectators
    that came and went kept 200 sockets open until the collector ran)."""

    class Conn:
        pass

    door = _door(spectators=1)
    gc.disable()
    try:
        conn = Conn()
        alive = weakref.ref(conn)
        arrival = door.opened(conn, "192.0.2.1", 0.0).arrival
        greeting = wire.decode(arrival.greeting())
        _send(arrival, ClientHandshake(Identity.generate(), "g").on_host(greeting))
        step = arrival.broken(ProtocolError(ErrorCode.TIMEOUT, "gone"))
        assert step.over
        door.closed(conn)
        del conn, arrival, step
        assert alive() is None
    finally:
        gc.enable()
