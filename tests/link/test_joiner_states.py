"""A joining seat's connection state (chkobba_p2p.link.states.JOINER), as the core keeps
it: what it sends agrees with what the host reads, every state refuses the unexpected by
name, and the handshake runs in memory, sans-IO (SeatLink.connect / receive_handshake /
host_closed), as the shell now only carries its bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.errors import LocalError
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as m
from chkobba_p2p.link import states as s
from chkobba_p2p.link.events import OutcomeError
from chkobba_p2p.link.handshake import HostHandshake, Lobby
from chkobba_p2p.link.joiner import HandshakeStep, SeatLink
from chkobba_p2p.link.seat import Close, Send
from chkobba_p2p.transcript.caps import SPOKEN
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

#: Where the host is while the joiner is in each state (PROTOCOL.md 5.1): what the
#: joiner sends there must be a type the host reads there.
HOST_SIDE = {
    "CONNECTING": ("AWAIT_HELLO",),  # a knock, before the greeting is read
    "GREETED": ("AWAIT_HELLO", "KNOCKED"),  # our hello
    "HELLO_SENT": ("SEATED", "WATCHING"),  # our error, after the host's answer
    "LOBBY": ("SEATED",),
    "IN_GAME": ("IN_GAME",),
    "DONE": ("IN_GAME",),
}


def _frame(msg: dict) -> m.Frame:
    return m.read_frame(wire.encode(msg))


def _link(pinned: str | None = None) -> SeatLink[str]:
    return SeatLink(Identity.generate(), "host:7777", pinned, Limits(move=30, allowance=10))


class Host:
    """An honest host's handshake, in memory."""

    def __init__(self) -> None:
        self.identity = Identity.generate()
        self.hs = HostHandshake(Lobby(self.identity, "hedi", Ruleset(), 2))
        self.greeting = self.hs.greeting()

    def welcome(self, hello: dict) -> dict:
        welcome, _seat, _resume = self.hs.on_hello(hello, wire.encode(hello))
        return welcome


def _welcomed(link: SeatLink[str], host: Host) -> None:
    assert link.connect("guest", SPOKEN) == []  # nothing to knock with
    step = link.receive_handshake("host", wire.encode(host.greeting),
                                  _frame(host.greeting), 0.0)
    assert step.over is None and len(step.send) == 1 and link.state == "HELLO_SENT"
    welcome = host.welcome(step.send[0])
    step = link.receive_handshake("host", wire.encode(welcome), _frame(welcome), 0.0)
    assert step == HandshakeStep() and not link.handshaking


# ---------------------------------------------------------------- the table


def test_what_the_joiner_sends_the_host_reads_in_its_matching_state():
    for state, row in s.JOINER.sends.items():
        for t in row:
            for host_state in HOST_SIDE.get(state, ()):
                if t == "error" or host_state != "WATCHING":
                    assert s.refusal_of(s.HOST, host_state, t) is None, (state, t, host_state)
    # Nothing is sent where no connection is.
    assert not any(s.JOINER.sends[x] for x in ("RECONNECTING", "ABORTED", "CLOSED"))


def test_may_send_and_sent_state_agree_and_refuse_by_name():
    for state in s.JOINER.states:
        for t in s.MESSAGE_TYPES:
            if s.may_send(s.JOINER, state, t):
                assert s.sent_state(s.JOINER, state, t) in s.JOINER.table
            else:
                with pytest.raises(s.LocalStateError) as info:
                    s.sent_state(s.JOINER, state, t)
                # Our own bug, not the peer's: a LocalError, never a ProtocolError.
                assert isinstance(info.value, LocalError)
                assert not isinstance(info.value, ProtocolError)
                assert (info.value.state, info.value.msg_type) == (state, t)


def test_the_handshake_order_is_in_the_table():
    assert s.sent_state(s.JOINER, "CONNECTING", "knock") == "CONNECTING"
    assert s.next_state(s.JOINER, "CONNECTING", "host") == "GREETED"
    assert s.sent_state(s.JOINER, "GREETED", "hello") == "HELLO_SENT"
    assert s.next_state(s.JOINER, "HELLO_SENT", "welcome") == "LOBBY"
    for early in ("hello", "start", "sig", "chat"):
        assert not s.may_send(s.JOINER, "CONNECTING", early)  # the greeting comes first
    assert not s.may_send(s.JOINER, "LOBBY", "sig")  # no entry before the genesis
    assert not s.may_send(s.JOINER, "IN_GAME", "rematch")  # only once the match is over


# ---------------------------------------------------------------- the core


@pytest.mark.parametrize("frame, code", [
    ({"t": "welcome", "seat": 1}, ErrorCode.UNKNOWN_TYPE),  # before the greeting
    ({"t": "lobby", "seats": []}, ErrorCode.UNKNOWN_TYPE),
    ({"t": "ping"}, ErrorCode.UNKNOWN_TYPE),
    ({"t": "emoji"}, ErrorCode.UNKNOWN_TYPE),
])
def test_connecting_refuses_all_but_the_greeting_with_its_code(frame, code):
    link = _link()
    link.connect("guest", SPOKEN)
    step = link.receive_handshake("host", wire.encode(frame), _frame(frame), 0.0)
    assert step.fail == code and step.over is True and link.state == "CLOSED"
    assert link.error_reason == "handshake_failed" and link.error_data["detail"]
    assert link.error_code == code.name.lower()


def test_hello_sent_refuses_all_but_the_welcome_with_its_code():
    host, link = Host(), _link()
    link.connect("guest", SPOKEN)
    link.receive_handshake("host", wire.encode(host.greeting), _frame(host.greeting), 0.0)
    lobby = {"t": "lobby", "seats": [], "ready": [], "seating": 0}
    step = link.receive_handshake("host", wire.encode(lobby), _frame(lobby), 0.0)
    assert (step.fail, step.over, link.state) == (ErrorCode.UNKNOWN_TYPE, True, "CLOSED")
    # A second greeting is no welcome either.
    link2 = _link()
    link2.connect("guest", SPOKEN)
    link2.receive_handshake("host", wire.encode(host.greeting), _frame(host.greeting), 0.0)
    step = link2.receive_handshake("host", wire.encode(host.greeting),
                                   _frame(host.greeting), 0.0)
    assert step.fail == ErrorCode.UNKNOWN_TYPE and link2.state == "CLOSED"


@pytest.mark.parametrize("state, code", [
    ("RECONNECTING", ErrorCode.PROTOCOL_VIOLATION),
    ("ABORTED", ErrorCode.PROTOCOL_VIOLATION),
])
def test_a_frame_where_no_connection_is_closes_it_with_its_code(state, code):
    link = _link()
    link.state = state
    link.message("host", _frame({"t": "ping"}), 0.0)
    assert link.take() == [Close("host", code, "'ping' in " + state)]
    assert link.state == "CLOSED"
    link.message("host", _frame({"t": "ping"}), 0.0)  # closed: nothing more is read
    assert link.take() == []


def test_the_handshake_in_memory_then_the_lobby_reads_and_sends_by_the_table():
    host, link = Host(), _link()
    _welcomed(link, host)
    assert link.state == "LOBBY" and link.host == "host"
    link.take()  # what the welcome tells people
    link.message("host", _frame({"t": "ping"}), 1.0)
    assert link.take() == [Send("host", wire.encode({"t": "pong"}))]
    assert link.state == "LOBBY"
    assert link.answer_rematch(True) is False  # no rematch before a match
    link.confirmed(0)
    assert link.state == "LOBBY" and [type(e) for e in link.take()] == [Send]
    with pytest.raises(s.LocalStateError):  # an entry before the genesis: our bug
        link._entry_out(b"\x00")
    # The host's error ends the lobby: our seat was not held.
    bye = _frame({"t": "error", "code": int(ErrorCode.SHUTDOWN), "msg": "bye"})
    assert isinstance(bye, m.ErrorMsg)
    link.closed_in_lobby(bye)
    link.lost()
    assert link.state == "CLOSED" and link.error_code == OutcomeError.HOST_CLOSED


def test_a_drop_in_the_game_is_reconnecting_and_the_next_connection_starts_over():
    host, link = Host(), _link()
    _welcomed(link, host)
    link.state = "IN_GAME"  # the genesis came (the cores' own tests play it)
    link.lost()
    assert link.state == "RECONNECTING" and link.host is None and not link.handshaking
    assert link.connect("guest", SPOKEN) == [] and link.state == "CONNECTING"
    assert link.handshaking


def test_the_host_closing_in_the_handshake_is_a_refusal_or_a_silence():
    host, link = Host(), _link()
    link.connect("guest", SPOKEN)
    link.receive_handshake("host", wire.encode(host.greeting), _frame(host.greeting), 0.0)
    full = _frame({"t": "error", "code": int(ErrorCode.TABLE_FULL), "msg": "full"})
    assert isinstance(full, m.ErrorMsg)
    step = link.host_closed(full)
    assert step == HandshakeStep(over=True) and link.state == "CLOSED"
    assert link.error_code == "table_full" and link.error_reason == "refused"
    assert link.error_data == {"code": "table_full", "host_text": "full",
                               "number": int(ErrorCode.TABLE_FULL)}
    silent = _link()
    silent.connect("guest", SPOKEN)
    assert silent.host_closed(None) == HandshakeStep(over=True)
    assert silent.state == "CLOSED" and silent.error_code == OutcomeError.CONNECTION_CLOSED


def test_a_timeout_and_a_bad_frame_are_answered_with_their_codes():
    link = _link()
    link.connect("guest", SPOKEN)
    step = link.handshake_broken(None)
    assert (step.fail, step.over, link.state) == (ErrorCode.HANDSHAKE_TIMEOUT, True, "CLOSED")
    assert link.error_code == OutcomeError.HANDSHAKE_FAILED
    bad = _link()
    bad.connect("guest", SPOKEN)
    step = bad.handshake_broken(ProtocolError(ErrorCode.FRAME_TOO_LARGE, "9 > 8 bytes"))
    assert (step.fail, step.over) == (ErrorCode.FRAME_TOO_LARGE, True)
    assert bad.error_code == "frame_too_large"


def test_a_host_that_is_not_the_pinned_one_is_left_at_its_greeting():
    host = Host()
    other = wire.fingerprint(Identity.generate().public)
    link = _link(pinned=other)
    link.connect("guest", SPOKEN)
    step = link.receive_handshake("host", wire.encode(host.greeting),
                                  _frame(host.greeting), 0.0)
    # No hello leaves for a host that is not the one the join code names.
    assert step == HandshakeStep(over=True) and link.state == "CLOSED"
    assert link.error_code == OutcomeError.HOST_KEY_MISMATCH


_values = st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=6) \
    | st.binary(max_size=40) | st.lists(st.integers(0, 3), max_size=5)
# a type no peer would send, but any integer msgpack can carry (int64 to uint64)
_odd_type = st.text(max_size=8) | st.integers(-(2**63), 2**64 - 1)
_junk = st.builds(lambda t, f: {"t": t, **f},
                  st.sampled_from(s.MESSAGE_TYPES) | _odd_type,
                  st.dictionaries(st.sampled_from(("seat", "secs", "text", "v", "name",
                                                   "caps", "key", "nonce", "pop", "have",
                                                   "seating", "code", "players")),
                                  _values, max_size=6))


@settings(max_examples=150, deadline=None)
@given(st.lists(_junk | st.sampled_from(("greeting", "welcome")), max_size=8))
def test_junk_and_out_of_order_frames_only_ever_end_in_named_codes(frames):
    """Whatever a hostile host sends, in any order (now and then its honest greeting or
    welcome), the core raises nothing: each step goes on, or ends the connection with a
    named code, and past a welcome the lenient states read on."""
    host, link = Host(), _link()
    link.connect("guest", SPOKEN)
    hello = welcome = None
    for raw in frames:
        if raw == "greeting":
            msg = host.greeting
        elif raw == "welcome":
            if hello is None:
                continue
            welcome = welcome or host.welcome(hello)  # its one seat, taken once
            msg = welcome
        else:
            msg = raw
        try:
            frame = _frame(msg)
        except ProtocolError as exc:  # the shell's frame reader refuses it
            if not link.handshaking:
                continue  # past the welcome, the shell's own reader answers it
            step = link.handshake_broken(exc)
        else:
            if not link.handshaking:
                link.message("host", frame, 0.0)
                assert link.state in ("LOBBY", "IN_GAME", "CLOSED")  # CLOSED: its error
                continue
            step = link.receive_handshake("host", wire.encode(msg), frame, 0.0)
        assert step.fail is None or isinstance(step.fail, ErrorCode)
        if step.over is not None:
            assert link.state == "CLOSED" and link.error_code is not None
            return
        hello = next(iter(step.send), hello)
        assert link.state in ("HELLO_SENT", "LOBBY")
