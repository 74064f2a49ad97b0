"""The connection states of PROTOCOL.md 5.1 (chkobba_p2p.link.states): every (state,
message type) pair is in the table or refused with a named error (h2's state-machine
tests), hostile sequences raise nothing else, and PROTOCOL.md's tables are generated from
them.  ``REGENERATE_PROTOCOL_STATES=1 pytest tests/link/test_link_states.py`` rewrites them."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from support.net import REPO_ROOT

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link import messages as m
from chkobba_p2p.link import states as s
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Lobby
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

PROTOCOL = REPO_ROOT / "PROTOCOL.md"
BEGIN = re.compile(r"<!-- BEGIN link states:[^\n]*-->\n")
END = "<!-- END link states -->"
TYPES = st.sampled_from(s.MESSAGE_TYPES) | st.text(max_size=12) | st.integers() | st.none()


def generated() -> str:
    return "\n" + "\n".join(s.markdown(machine) for machine in s.MACHINES) + "\n"


def test_protocol_5_1_tables_are_generated_from_the_states():
    text = PROTOCOL.read_text(encoding="utf-8")
    begin = BEGIN.search(text)
    assert begin is not None and END in text, "PROTOCOL.md 5.1 lost its generated tables"
    end = text.index(END)
    if os.environ.get("REGENERATE_PROTOCOL_STATES") == "1":
        PROTOCOL.write_text(text[:begin.end()] + generated() + text[end:], encoding="utf-8")
        return
    assert text[begin.end():end] == generated(), \
        "PROTOCOL.md 5.1 differs from chkobba_p2p/link/states.py: run with " \
        "REGENERATE_PROTOCOL_STATES=1"


def test_every_machine_is_whole():
    for machine in s.MACHINES:
        assert machine.initial in machine.table
        assert set(machine.events) == set(machine.table) == set(machine.refusal)
        assert machine.lenient <= set(machine.table)
        targets = {to for row in machine.table.values() for to in row.values()}
        targets |= {to for row in machine.events.values() for to in row.values()}
        targets |= {to for row in machine.sends.values() for to in row.values()}
        assert targets <= set(machine.table), machine.role
        assert not machine.sends or set(machine.sends) == set(machine.table)
        for row in machine.table.values():
            assert set(row) <= set(s.MESSAGE_TYPES), (machine.role, row)
        # Every state is reachable from the initial one.
        seen, todo = {machine.initial}, [machine.initial]
        while todo:
            state = todo.pop()
            for to in (*machine.table[state].values(), *machine.events[state].values(),
                       *machine.sends.get(state, {}).values()):
                if to not in seen:
                    seen.add(to)
                    todo.append(to)
        assert seen == set(machine.table), (machine.role, set(machine.table) - seen)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(s.MACHINES), st.data(), TYPES)
def test_each_state_and_type_is_in_the_table_or_refused_by_name(machine, data, t):
    state = data.draw(st.sampled_from(machine.states))
    row = machine.table[state]
    try:
        after = s.next_state(machine, state, t)
    except s.LinkStateError as exc:
        assert not (isinstance(t, str) and t in row) and state not in machine.lenient
        assert exc.error_code in (ErrorCode.UNKNOWN_TYPE, ErrorCode.PROTOCOL_VIOLATION)
        assert isinstance(exc, ProtocolError) and exc.state == state
        return
    assert after == (row[t] if isinstance(t, str) and t in row else state)
    assert after == state or (isinstance(t, str) and t in row)


@pytest.mark.parametrize("machine, state, t, code", [
    # What net.py has always answered (PROTOCOL.md 5, 5.1, 18).
    (s.HOST, "AWAIT_HELLO", "ping", ErrorCode.UNKNOWN_TYPE),  # nothing but a hello first
    (s.HOST, "SEATED", "sig", ErrorCode.PROTOCOL_VIOLATION),  # the game has not started
    (s.HOST, "IN_GAME", "lobby", ErrorCode.UNKNOWN_TYPE),
    (s.HOST, "IN_GAME", "hello", ErrorCode.UNKNOWN_TYPE),
    (s.HOST, "WATCHING", "chat", ErrorCode.PROTOCOL_VIOLATION),  # spectators only ping
    (s.JOINER, "CONNECTING", "welcome", ErrorCode.UNKNOWN_TYPE),
    (s.JOINER, "GREETED", "welcome", ErrorCode.UNKNOWN_TYPE),  # our hello comes first
    (s.JOINER, "HELLO_SENT", "lobby", ErrorCode.UNKNOWN_TYPE),
    (s.SPECTATOR, "WATCH_SENT", "sig", ErrorCode.UNKNOWN_TYPE),
])
def test_the_refusals_are_the_codes_the_peers_send(machine, state, t, code):
    assert s.refusal_of(machine, state, t) == code


def test_a_joiner_in_the_game_ignores_what_a_later_version_adds():
    assert s.next_state(s.JOINER, "IN_GAME", "emoji") == "IN_GAME"
    assert s.next_state(s.JOINER, "IN_GAME", "error") == "RECONNECTING"
    assert s.after_event(s.JOINER, "RECONNECTING", "connected") == "CONNECTING"
    with pytest.raises(s.NoSuchEvent):
        s.after_event(s.HOST, "CLOSED", "drop")


# ---------------------------------------------------------------- hostile sequences


_values = st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=6) \
    | st.binary(max_size=40) | st.lists(st.integers(0, 3), max_size=5)
_frames = st.builds(lambda t, f: {"t": t, **f}, TYPES,
                    st.dictionaries(st.sampled_from(("seat", "secs", "text", "v", "name",
                                                     "caps", "key", "nonce", "pop", "have",
                                                     "seating", "accept", "names", "max")),
                                    _values, max_size=6))


class HostileHandshake(RuleBasedStateMachine):
    """A host's and a joiner's connection fed by a hostile peer: any frame, in any order,
    now and then an honest handshake message.  The tables, the typed messages and the
    handshakes raise nothing but ProtocolError (named errors), and never leave a state
    for one the table does not give."""

    @initialize()
    def setup(self) -> None:
        self.lobby = Lobby(Identity.generate(), "host", Ruleset(), 2)
        self.host = HostHandshake(self.lobby)
        self.greeting = self.host.greeting()
        self.joiner = ClientHandshake(Identity.generate(), "guest")
        self.host_state = s.sent_state(s.HOST, "ACCEPTED", "host")  # our greeting, sent
        self.joiner_state = s.JOINER.initial
        self.closed: set[str] = set()

    def _feed(self, side: str, frame: dict) -> None:
        if side in self.closed:
            return
        machine = s.HOST if side == "host" else s.JOINER
        state = self.host_state if side == "host" else self.joiner_state
        try:
            after = s.next_state(machine, state, frame.get("t"))
            typed = m.parse_link_message(frame) if frame.get("t") != "sig" else None
            if side == "host" and state == "AWAIT_HELLO" and isinstance(typed, m.Hello):
                self.host.on_hello(frame)
            if side == "joiner" and state == "CONNECTING" and isinstance(typed, m.Host):
                self.joiner.on_host(frame)
                after = s.sent_state(s.JOINER, after, "hello")  # our answer, sent
            if side == "joiner" and state == "HELLO_SENT" and frame.get("t") in (
                    "welcome", "error"):
                self.joiner.on_welcome(frame)
        except ProtocolError as exc:
            assert isinstance(exc.error_code, ErrorCode)
            if machine.table[state].get(frame.get("t")) is None and state in machine.lenient:
                return  # a malformed message a lenient state ignores
            self.closed.add(side)
            return
        assert after in machine.table
        if side == "host":
            self.host_state = after
        else:
            self.joiner_state = after
        if after in ("CLOSED", "ABSENT"):
            self.closed.add(side)

    @rule(frame=_frames)
    def hostile_to_host(self, frame: dict) -> None:
        self._feed("host", frame)

    @rule(frame=_frames)
    def hostile_to_joiner(self, frame: dict) -> None:
        self._feed("joiner", frame)

    @rule()
    def honest_greeting(self) -> None:
        self._feed("joiner", wire.decode(wire.encode(self.greeting)))

    @rule()
    def honest_hello(self) -> None:
        joiner = ClientHandshake(Identity.generate(), "guest")
        self._feed("host", joiner.on_host(self.greeting))

    @invariant()
    def states_are_known(self) -> None:
        if hasattr(self, "host_state"):
            assert self.host_state in s.HOST.table
            assert self.joiner_state in s.JOINER.table


HostileHandshake.TestCase.settings = settings(max_examples=60, stateful_step_count=20,
                                              deadline=None)
test_hostile_sequences_raise_only_named_errors = HostileHandshake.TestCase
