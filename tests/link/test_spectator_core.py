"""The spectator's sans-IO core (chkobba_p2p.link.spectator), in memory: what each frame
from the host means for a spectator, which events it shows, when it stops and with
which error; junk or out-of-order frames never raise anything but the named error."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.audit import play
from support.frames import frame, spectators_message, watching_message

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as m
from chkobba_p2p.link.events import (
    STOP_REASONS,
    Chat,
    Lobby,
    OutcomeError,
    Resumed,
    Spectators,
    Waiting,
)
from chkobba_p2p.link.seat import Close, Emit, Send
from chkobba_p2p.link.spectator import HOST, LogEntry, SpectatorCore
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.observe.verdict import INCOMPLETE, VALID, Verdict
from chkobba_p2p.transcript.clocks import ClockReading, Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, ProtocolError

KEY = bytes(range(32))


def _greeting(**fields) -> dict:
    rules = Ruleset()
    return {"t": "host", "versions": [1], "caps": [], "key": KEY, "name": "hana",
            "nonce": bytes(32), "players": 2, "rules": rules.to_dict(),
            "rules_hash": rules.digest()} | fields


def _admitted(limits=(900, 120), used=None, key: bytes = KEY) -> SpectatorCore:
    core = SpectatorCore("amira", announce=5.0)
    watch = core.greeting(frame(_greeting(key=key)))
    assert watch == m.Watch(1, "amira").to_wire()
    core.admitted(frame(watching_message(3, 0, limits, used)))
    return core


def _events(core: SpectatorCore) -> list[object]:
    return [e.event for e in core.take() if isinstance(e, Emit)]


@functools.cache
def _match() -> tuple[tuple[bytes, ...], bytes]:
    """A whole 2-seat match's transcript (greedy bots), and its host's key."""
    played = play(2, rules=Ruleset(target=1), seed=3)
    return tuple(played.sessions[0].bodies), played.identities[0].public


def test_a_stream_that_ends_mid_match_says_how_long_the_players_wait_for_the_host():
    """The host's connection may have dropped (it stepped away) rather than the host
    closing the table: the core does not say who closed it, only, during the match, the
    host's time away left (its allowance, as our copy of the clocks counts it), for a
    client to say how long the players wait (PROTOCOL.md 12.4).  Before the match and
    after its end, nothing is waited for."""
    bodies, host_key = _match()
    core = _admitted(limits=(900, 120), key=host_key)
    core.closed(None, 5.0)
    assert (core.stop_reason, core.stop_data) == ("host_closed", {})  # no match yet
    core = _admitted(limits=(900, 120), key=host_key)
    for body in bodies[:12]:
        assert core.receive(m.read_frame(body), 1.0)
    core.closed(None, 40.0)
    assert core.stop_reason == "host_closed"
    assert core.stop_data == {"host_allowance": "120"}
    assert set(core.stop_data) <= set(STOP_REASONS["host_closed"])
    core = _admitted(limits=(900, 120), key=host_key)
    for body in bodies:
        core.receive(m.read_frame(body), 1.0)
    core.closed(None, 40.0)
    assert core.stop_data == {}  # the match is over: nobody is waited for


def test_the_handshake_reads_the_greeting_and_watching_as_a_spectator_may():
    core = SpectatorCore("amira")
    # A greeting a joiner would refuse for its name and rules is still one to watch.
    watch = core.greeting(frame({"t": "host", "versions": [1, 9], "key": KEY, "players": 4}))
    assert watch == {"t": "watch", "v": 1, "name": "amira"}
    assert (core.players, core.host_key, core.host_name, core.rules) == (4, KEY, "host", None)
    core.admitted(frame(watching_message(7, 12, (900, 120), 30)))
    assert (core.spectator_id, core.backlog, core.limits) == (7, 12, Limits(900, 120))
    assert core.catching_up  # twelve entries to come at once
    named = SpectatorCore("amira")
    named.greeting(frame(_greeting()))
    assert named.host_name == "hana" and named.rules == Ruleset()
    forged = SpectatorCore("amira")  # rules that are not the ones announced: not shown
    forged.greeting(frame(_greeting(rules_hash=bytes(32))))
    assert forged.rules is None


@pytest.mark.parametrize("msg, code", [
    ({"t": "host", "versions": [9], "key": KEY, "players": 2}, ErrorCode.VERSION_MISMATCH),
    ({"t": "host", "versions": [1], "key": KEY, "players": 7}, ErrorCode.BAD_FIELD),
    ({"t": "host", "versions": [1], "key": b"k", "players": 2}, ErrorCode.BAD_FIELD),
    ({"t": "welcome", "seat": 1}, ErrorCode.UNKNOWN_TYPE),
    ({"t": "later"}, ErrorCode.UNKNOWN_TYPE),
])
def test_a_greeting_it_cannot_watch_is_a_named_error(msg, code):
    with pytest.raises(ProtocolError) as info:
        SpectatorCore("amira").greeting(frame(msg))
    assert info.value.error_code == code
    no = SpectatorCore.handshake_failed(info.value)
    assert no.code == code.name.lower()
    # The check's English for logs, and its code and facts for a client's words.
    exc = info.value
    assert exc.violation is not None
    assert no.reason == "handshake_failed" and no.data == {
        "detail": str(exc), "violation": exc.violation, "facts": exc.facts}


def test_a_refusal_is_said_in_our_words_then_the_hosts():
    error = frame({"t": "error", "code": int(ErrorCode.SPECTATORS_CLOSED),
                   "msg": "\x1b[2Jfull " * 40})
    no = SpectatorCore.refused(error)
    assert no.code == "spectators_closed"
    # As data: the code, and the host's own words apart (made safe, cut short).
    assert no.reason == "refused" and no.data["code"] == "spectators_closed"
    assert no.data["number"] == int(ErrorCode.SPECTATORS_CLOSED)
    host_text = str(no.data["host_text"])
    assert "full" in host_text and "\x1b" not in host_text and len(host_text) <= 120
    assert SpectatorCore.refused(None) == (OutcomeError.CONNECTION_CLOSED, "closed", {})
    late = SpectatorCore.handshake_failed(None)
    assert (late.code, late.reason) == (OutcomeError.HANDSHAKE_FAILED, "handshake_timeout")
    core = _admitted()
    greeted = SpectatorCore("x")
    greeted.greeting(frame(_greeting()))
    with pytest.raises(ProtocolError) as info:
        greeted.admitted(frame({"t": "watching", "id": "2", "have": 0}))
    assert info.value.error_code == ErrorCode.BAD_FIELD
    assert core.spectator_id == 3


def test_a_whole_match_is_checked_logged_and_shown_as_an_observer_sees_it():
    bodies, host_key = _match()
    core = _admitted(key=host_key)
    shown: list[object] = []
    logged: list[bytes] = []
    for i, body in enumerate(bodies):
        assert core.receive(m.read_frame(body), float(i))
        for effect in core.take():
            if isinstance(effect, LogEntry):
                logged.append(effect.body)
                assert effect.table.game == core.observer.table.game
            elif isinstance(effect, Emit):
                shown.append(effect.event)
    assert logged == list(bodies)
    reference = Observer(host_key=host_key)
    expected = [ev for body in bodies for ev in reference.feed(body)]
    assert [e for e in shown if not isinstance(e, ClockReading)] == expected
    assert any(isinstance(e, ClockReading) for e in shown)  # the table's clocks, copied
    verdict = core.end()
    assert verdict.verdict == VALID
    shown += _events(core)  # the verdict is shown once, when the observer reaches it
    assert [e for e in shown if isinstance(e, Verdict)] == [verdict]


def test_before_any_entry_the_end_is_incomplete_and_a_lobby_is_shown_as_a_seat_sees_it():
    core = _admitted()
    lobby = {"t": "lobby", "players": 2, "seating": 2, "ready": [True, False],
             "seats": [{"seat": 0, "key": KEY, "name": "imposter name"},
                       {"seat": 1, "key": bytes(32), "name": "amel"}], "spectators": 4}
    assert core.receive(frame(lobby), 0.0)
    [event] = _events(core)
    assert isinstance(event, Lobby) and event.seats[0][0] == "hana"  # the greeting's name
    assert event.limits == Limits(900, 120) and event.spectators == 4 and event.seating == 2
    other = lobby | {"seats": [{"seat": 0, "key": bytes(32), "name": "x"}, None]}
    assert core.receive(frame(other), 0.0) and _events(core) == []  # seat 0 not the host
    assert core.end().verdict == INCOMPLETE


def test_wait_back_and_chat_are_read_for_the_tables_seats_only():
    core = _admitted(limits=(900, 120))
    for msg in ({"t": "wait", "seat": -1, "secs": -5}, {"t": "wait", "seat": 2, "secs": 3},
                {"t": "wait", "seat": True, "secs": 3}, {"t": "back", "seat": 3},
                {"t": "chat", "seat": 2, "text": "hi"}, {"t": "chat", "text": "hi"},
                {"t": "chat", "seat": 1, "text": "\x1b[2J"}):
        assert core.receive(frame(msg), 0.0)
    assert _events(core) == []
    for msg in ({"t": "wait", "seat": 1, "secs": 30, "away": True},
                {"t": "wait", "seat": 1, "secs": 10_000, "restart": True},
                {"t": "back", "seat": 1}, {"t": "chat", "seat": 0, "text": " salam "}):
        assert core.receive(frame(msg), 0.0)
    assert _events(core) == [Waiting(1, 30, True), Waiting(1, 120, False), Resumed(1),
                             Chat(0, "salam")]


def test_who_is_watching_is_shown_at_most_once_a_window_and_the_last_list_comes():
    core = _admitted()
    core.receive(frame(spectators_message(("a",), 4)), 10.0)
    assert _events(core) == [Spectators(("a",), 4)]
    core.receive(frame(spectators_message(("a", "b"), 4)), 11.0)
    core.receive(frame(spectators_message(("a", "b", "c"), 4)), 12.0)
    assert _events(core) == [] and core.next_wake == 15.0
    core.tick(15.0)
    assert _events(core) == [Spectators(("a", "b", "c"), 4)] and core.next_wake is None


def test_a_ping_is_answered_and_what_it_cannot_read_is_ignored():
    core = _admitted()
    assert core.receive(frame({"t": "ping"}), 0.0)
    assert core.take() == [Send(HOST, wire.encode({"t": "pong"}))]
    for msg in ({"t": "pong"}, {"t": "later-version", "x": 1}, {"t": "rematch", "accept": 1},
                {"t": "welcome", "seat": 1}, {"t": "spectators", "names": "ab", "max": 1}):
        assert core.receive(frame(msg), 0.0) and core.take() == []


def test_more_than_a_game_holds_stops_with_the_named_error():
    core = _admitted()
    junk = wire.encode({"t": "sig", "p": b"\0" * (wire.MAX_FRAME - 200), "s": bytes(64)})
    going = True
    for _ in range(wire.MAX_TRANSCRIPT // len(junk) + 2):
        going = core.receive(m.read_frame(junk), 0.0)
        if not going:
            break
    assert not going
    [close] = [e for e in core.take() if isinstance(e, Close)]
    assert close.to == HOST and close.code == ErrorCode.TRANSCRIPT_TOO_LONG
    assert core.stop_reason == "too_long" and core.stop_data["code"] == "transcript_too_long"


def test_why_it_stopped_is_a_named_reason_with_its_data():
    # Codes and data, no sentence: the client words them (cli.event_words.stop_words).
    core = _admitted()
    core.closed(None)
    assert (core.stop_reason, core.stop_data) == ("host_closed", {})
    core.closed(frame({"t": "error", "code": 1, "msg": "bye\x1b"}))
    assert core.stop_reason == "host_closed" and core.stop_data["host_text"] == "bye␛"
    core.silent()
    assert (core.stop_reason, core.stop_data) == ("host_silent", {})
    core.bad_frame(ProtocolError(ErrorCode.FRAME_TOO_LARGE, "9 MB"))
    assert core.stop_reason == "unreadable"
    assert core.stop_data == {"code": "frame_too_large", "detail": "9 MB"}
    assert core.take() == [Close(HOST, ErrorCode.FRAME_TOO_LARGE, "9 MB")]
    for reason in ("host_closed", "host_silent", "unreadable"):  # each one declared
        assert reason in STOP_REASONS


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
_fields = ("seat", "secs", "text", "names", "max", "seats", "seating", "ready", "away",
           "p", "s", "accept", "code", "msg", "id", "have", "v")
_junk = st.builds(lambda t, f: {"t": t, **f},
                  st.sampled_from((*m.LINK_TYPES, "sig", "later")),
                  st.dictionaries(st.sampled_from(_fields), _values, max_size=5))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(_junk, st.integers(0, 40)),
                          st.floats(0, 10, allow_nan=False)), max_size=30))
def test_junk_and_out_of_order_frames_never_raise_but_stop_with_a_named_error(script):
    """Any frames (a hostile host's maps, or the match's entries out of order and
    repeated) at any times: the core takes each one, and stops only with a Close that
    names a wire code and a sentence."""
    bodies, host_key = _match()
    core = _admitted(key=host_key)
    now = 0.0
    for item, dt in script:
        now += dt
        body = bodies[item % len(bodies)] if isinstance(item, int) else wire.encode(item)
        going = core.receive(m.read_frame(body), now)
        core.tick(now)
        closes = [e for e in core.take() if isinstance(e, Close)]
        assert going == (not closes)
        if not going:
            assert isinstance(closes[0].code, ErrorCode)
            assert core.stop_reason in STOP_REASONS
            assert set(core.stop_data) <= set(STOP_REASONS[core.stop_reason])
            break
    assert core.end().verdict in ("valid", "invalid", "incomplete", "unsupported")


def test_the_connection_state_is_the_spectator_table_and_refuses_what_it_says():
    """CONNECTING -> WATCH_SENT -> WATCHING (PROTOCOL.md 5.1): before its admission a
    spectator takes nothing but the greeting and watching (unknown_type); watching, it
    reads any type (a later version's is ignored); once it stopped, nothing more."""
    core = SpectatorCore("amira")
    assert core.state == "CONNECTING"
    with pytest.raises(ProtocolError) as info:
        core.admitted(frame(watching_message(1, 0)))  # before the greeting
    assert info.value.error_code == ErrorCode.UNKNOWN_TYPE
    core.greeting(frame(_greeting()))
    assert core.state == "WATCH_SENT"
    with pytest.raises(ProtocolError) as info:
        core.admitted(frame({"t": "lobby", "seats": [None, None]}))
    assert info.value.error_code == ErrorCode.UNKNOWN_TYPE
    early = SpectatorCore("amira")
    assert not early.receive(frame({"t": "chat", "seat": 0, "text": "hi"}), 0.0)
    assert early.take() == [Close(HOST, ErrorCode.UNKNOWN_TYPE, "'chat' in CONNECTING")]
    core.admitted(frame(watching_message(1, 0)))
    assert core.state == "WATCHING"
    assert core.receive(frame(_greeting()), 0.0) and core.take() == []  # read, ignored
    core.silent()
    assert core.state == "CLOSED" and not core.receive(frame({"t": "ping"}), 1.0)
    assert [e.code for e in core.take()] == [ErrorCode.PROTOCOL_VIOLATION]
