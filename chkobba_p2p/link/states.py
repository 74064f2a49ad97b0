"""The connection states of PROTOCOL.md 5.1 as tables, h11-style.

``HOST[state][type] -> next state`` is what the host does with a message of type ``type``
arriving on one connection in ``state``; ``JOINER`` and ``SPECTATOR`` are the same for
what a joining peer and a spectator receive from the host.  ``*_EVENTS[state][event]``
are the transitions no message causes (the table full, a drop, a timeout).  A machine
that says what its own side may send has ``sends[state][type] -> next state`` (the
host's and the joiner's, h11's "our role" half): :func:`may_send` and :func:`sent_state`
read it, and :class:`LocalStateError` is *our* code sending what its state forbids (a bug
here, never the peer's doing).  :func:`next_state` gives the state after a message or raises
:class:`LinkStateError`, a :class:`~chkobba_p2p.wire.codec.ProtocolError` with the code the
peer is sent (``unknown_type`` or ``protocol_violation``) before the connection closes.

A machine's *lenient* states read any other type and stay put (a joining peer "ignores
any other type" in the game, 5.1: that is how later versions add messages); elsewhere a
type the table does not list is refused.  PROTOCOL.md 5.1's tables are generated from
these (:func:`markdown`, checked by ``tests/link/test_link_states.py``), and the cores
consult them: :class:`~chkobba_p2p.link.door.Arrival` keeps each new connection of the
host in ``HOST`` through the handshake's steps (ACCEPTED, AWAIT_HELLO, KNOCKED, then
SEATED or WATCHING), :class:`~chkobba_p2p.link.host.HostTable` each seat's from then on
(SEATED, IN_GAME; a spectator's stays WATCHING),
:class:`~chkobba_p2p.link.spectator.SpectatorCore` its connection in ``SPECTATOR`` and
:class:`~chkobba_p2p.link.joiner.SeatLink` its connection in ``JOINER``, for every frame
received and every message sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..game.errors import shown
from ..wire.codec import ErrorCode, ProtocolError
from .errors import LinkUsageError
from .messages import LINK_TYPES

__all__ = ["Machine", "LinkStateError", "LocalStateError", "NoSuchEvent", "HOST", "JOINER",
           "SPECTATOR", "MACHINES", "MESSAGE_TYPES", "next_state", "after_event",
           "refusal_of", "may_send", "sent_state", "markdown"]

#: Every type a connection carries: the link messages and the signed entries (``sig``).
MESSAGE_TYPES = (*LINK_TYPES, "sig")


class LinkStateError(ProtocolError):
    """A message the connection's state does not allow (h11's ``RemoteProtocolError``):
    the peer broke the protocol; send it ``error_code`` and close."""

    def __init__(self, code: ErrorCode, role: str, state: str, msg_type: object) -> None:
        super().__init__(code, f"{msg_type!r} in {state}"[:80], violation="out_of_state",
                         facts={"got": repr(msg_type)[:40], "state": state})
        self.role, self.state, self.msg_type = role, state, msg_type


class LocalStateError(LinkUsageError):
    """Our own side sending a message its connection's state forbids (h11's
    ``LocalProtocolError``): a bug in this program, raised before anything leaves
    (code ``may_not_send``)."""

    def __init__(self, role: str, state: str, msg_type: str) -> None:
        super().__init__(f"the {role} may not send {msg_type!r} in {state}",
                         code="may_not_send",
                         data={"role": role, "state": state, "type": shown(msg_type)})
        self.role, self.state, self.msg_type = role, state, msg_type


class NoSuchEvent(LinkUsageError):
    """Our own code reported an event the state has no transition for (a bug here; a
    code of :data:`~chkobba_p2p.link.errors.LINK_PROBLEMS`)."""


@dataclass(frozen=True)
class Machine:
    """One side's states: ``table[state][type]``, ``events[state][event]``, the code a
    refused type gets in each state, and the states that read any other type."""

    role: str
    initial: str
    table: Mapping[str, Mapping[str, str]]
    events: Mapping[str, Mapping[str, str]]
    refusal: Mapping[str, ErrorCode]
    lenient: frozenset[str] = field(default_factory=frozenset)
    #: ``sends[state][type] -> next state``: what this side may send (empty: not kept).
    sends: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def states(self) -> tuple[str, ...]:
        return tuple(self.table)


def _each(types: tuple[str, ...], to: str) -> dict[str, str]:
    return dict.fromkeys(types, to)


_GAME_LINK = ("ping", "pong", "chat", "start", "away", "rematch")
_V = ErrorCode.PROTOCOL_VIOLATION
_U = ErrorCode.UNKNOWN_TYPE

#: The host, per connection.  Before ``welcome`` it reads nothing but the answer to its
#: greeting (a seat of a running game may open with a ``knock`` first, 5.4); a seat
#: reads ``ping``, ``pong``, ``chat``, ``start``, ``away``, ``rematch`` and (once the
#: game has begun) ``sig``; a spectator only ``ping`` and ``pong``.
#: ``error`` is a peer's last word: the connection is gone (a seat in the game is absent).
HOST = Machine(
    role="host",
    initial="ACCEPTED",
    table={
        "ACCEPTED": {},
        "AWAIT_HELLO": {"hello": "SEATED", "watch": "WATCHING", "knock": "KNOCKED",
                        "error": "CLOSED"},
        "KNOCKED": {"hello": "SEATED", "error": "CLOSED"},
        "SEATED": _each(_GAME_LINK, "SEATED") | {"error": "CLOSED"},
        "IN_GAME": _each((*_GAME_LINK, "sig"), "IN_GAME") | {"error": "ABSENT"},
        "ABSENT": {},
        "WATCHING": {"ping": "WATCHING", "pong": "WATCHING", "error": "CLOSED"},
        "CLOSED": {},
    },
    events={
        "ACCEPTED": {},
        "AWAIT_HELLO": {"bad hello": "CLOSED", "timeout": "CLOSED"},
        "KNOCKED": {"bad hello": "CLOSED", "timeout": "CLOSED"},
        "SEATED": {"table full": "IN_GAME", "drop": "CLOSED"},
        "IN_GAME": {"drop": "ABSENT"},
        "ABSENT": {"resume": "IN_GAME", "reconnect timeout": "CLOSED"},
        "WATCHING": {"drop": "CLOSED"},
        "CLOSED": {},
    },
    # A ``sig`` before the genesis is a violation (5.1), as is anything from a spectator
    # but ping and pong (18); a type unknown to a seat is ``unknown_type`` (3).
    refusal={"ACCEPTED": _U, "AWAIT_HELLO": _U, "KNOCKED": _U, "SEATED": _U, "IN_GAME": _U,
             "ABSENT": _V, "WATCHING": _V, "CLOSED": _V},
    # What the host sends each connection: its greeting first; the welcome to a seat
    # (in SEATED, or IN_GAME for a seat resuming its game), the lobby only before the
    # genesis, the entries and the countdowns (``wait``, ``back``) from it on, the
    # rematch question once the game runs (its end is no state of the host's); a
    # spectator its ``watching``, then what the seats get but the rematch.  ``error`` is
    # our last word: the connection is over (a seat in the game is then absent).  The
    # host's keepalive ``ping`` and every ``pong`` may go wherever the peer may answer.
    sends={
        "ACCEPTED": {"host": "AWAIT_HELLO", "error": "CLOSED"},
        "AWAIT_HELLO": {"error": "CLOSED"},
        "KNOCKED": {"error": "CLOSED"},
        "SEATED": _each(("welcome", "lobby", "chat", "spectators", "ping", "pong"),
                        "SEATED") | {"error": "CLOSED"},
        "IN_GAME": _each(("welcome", "sig", "wait", "back", "chat", "spectators", "ping",
                          "pong", "rematch", "rematch-offer"), "IN_GAME")
        | {"error": "ABSENT"},
        "ABSENT": {},
        "WATCHING": _each(("watching", "lobby", "sig", "wait", "back", "chat", "spectators",
                           "ping", "pong"), "WATCHING") | {"error": "CLOSED"},
        "CLOSED": {},
    },
)
#: ``sig`` in SEATED: the game has not started.
_HOST_SIG_EARLY = ("SEATED", "sig")

#: A joining peer: what it reads from the host, and what it may send (``sends``).  Each
#: connection starts in CONNECTING (a seat of a game may knock first, 5.4); the greeting
#: leads to GREETED, where our hello is the one thing to send; its welcome to LOBBY, or
#: on to IN_GAME at once for a seat that resumes its game.  ``rematch-offer`` comes only
#: once the match is over (the host sends it after the end, to a joiner that announced
#: ``rematch-offer/v1``); before, it is one more type the lenient states ignore.  A match
#: over on a live connection (its last entry a ``done`` or an ``abort``) is DONE; ABORTED
#: is our own end of a game while the host is unreachable.
JOINER = Machine(
    role="joiner",
    initial="CONNECTING",
    table={
        "CONNECTING": {"host": "GREETED", "error": "CLOSED"},
        "GREETED": {"error": "CLOSED"},
        "HELLO_SENT": {"welcome": "LOBBY", "error": "CLOSED"},
        "LOBBY": _each(("ping", "pong", "lobby", "wait", "back", "away", "chat",
                        "spectators", "rematch"), "LOBBY")
        | {"sig": "IN_GAME", "error": "CLOSED"},
        "IN_GAME": _each(("ping", "pong", "sig", "lobby", "wait", "back", "away", "chat",
                          "spectators", "rematch"), "IN_GAME") | {"error": "RECONNECTING"},
        "RECONNECTING": {},
        "DONE": _each(("ping", "pong", "sig", "chat", "rematch", "rematch-offer",
                       "spectators"), "DONE")
        | {"error": "CLOSED"},
        "ABORTED": {},
        "CLOSED": {},
    },
    events={
        "CONNECTING": {"drop": "CLOSED", "timeout": "CLOSED"},
        "GREETED": {"wrong key": "CLOSED", "drop": "CLOSED", "timeout": "CLOSED"},
        "HELLO_SENT": {"drop": "CLOSED", "timeout": "CLOSED"},
        "LOBBY": {"resumed": "IN_GAME", "drop": "CLOSED"},
        "IN_GAME": {"drop": "RECONNECTING", "match over": "DONE"},
        "RECONNECTING": {"connected": "CONNECTING", "reconnect timeout": "ABORTED"},
        "DONE": {"drop": "CLOSED"},
        "ABORTED": {},
        "CLOSED": {},
    },
    refusal={"CONNECTING": _U, "GREETED": _U, "HELLO_SENT": _U, "LOBBY": _U,
             "IN_GAME": _U, "RECONNECTING": _V, "DONE": _U, "ABORTED": _V, "CLOSED": _V},
    lenient=frozenset({"LOBBY", "IN_GAME", "DONE"}),
    # Each of these is one the host reads in its matching state (the test checks it):
    # our hello before our seat, ``start`` only before the genesis, our entries (and a
    # late word on the ending, 12.6) from the genesis on, our rematch answer at the end.
    # ``error`` is our last word: the connection is over.
    sends={
        "CONNECTING": {"knock": "CONNECTING", "error": "CLOSED"},
        "GREETED": {"hello": "HELLO_SENT", "error": "CLOSED"},
        "HELLO_SENT": {"error": "CLOSED"},
        "LOBBY": _each(("ping", "pong", "chat", "start"), "LOBBY") | {"error": "CLOSED"},
        "IN_GAME": _each(("ping", "pong", "chat", "away", "sig"), "IN_GAME")
        | {"error": "RECONNECTING"},
        "RECONNECTING": {},
        "DONE": _each(("ping", "pong", "chat", "away", "sig", "rematch"), "DONE")
        | {"error": "CLOSED"},
        "ABORTED": {},
        "CLOSED": {},
    },
)

#: A spectator: what it reads from the host.
SPECTATOR = Machine(
    role="spectator",
    initial="CONNECTING",
    table={
        "CONNECTING": {"host": "WATCH_SENT", "error": "CLOSED"},
        "WATCH_SENT": {"watching": "WATCHING", "error": "CLOSED"},
        "WATCHING": _each(("ping", "pong", "sig", "lobby", "wait", "back", "chat",
                           "spectators"), "WATCHING") | {"error": "CLOSED"},
        "CLOSED": {},
    },
    events={
        "CONNECTING": {"timeout": "CLOSED"},
        "WATCH_SENT": {"timeout": "CLOSED"},
        "WATCHING": {"drop": "CLOSED"},
        "CLOSED": {},
    },
    refusal={"CONNECTING": _U, "WATCH_SENT": _U, "WATCHING": _U, "CLOSED": _V},
    lenient=frozenset({"WATCHING"}),
)

MACHINES = (HOST, JOINER, SPECTATOR)


def next_state(machine: Machine, state: str, msg_type: object) -> str:
    """The state after a message of type ``msg_type`` (any value: it came from the
    network) arrives in ``state``; :class:`LinkStateError` if the state refuses it."""
    row = machine.table.get(state)
    if row is None:
        raise NoSuchEvent(f"{machine.role} has no state {state!r}", code="no_such_state",
                          data={"role": machine.role, "state": shown(state)})
    if isinstance(msg_type, str) and msg_type in row:
        return row[msg_type]
    if state in machine.lenient:
        return state
    code = machine.refusal[state]
    if machine is HOST and (state, msg_type) == _HOST_SIG_EARLY:
        code = ErrorCode.PROTOCOL_VIOLATION
    raise LinkStateError(code, machine.role, state, msg_type)


def after_event(machine: Machine, state: str, event: str) -> str:
    """The state after one of our own events (``drop``, ``table full``...)."""
    try:
        return machine.events[state][event]
    except KeyError:
        raise NoSuchEvent(f"{machine.role} in {state} has no event {event!r}",
                          code="no_such_event", data={"role": machine.role, "state": state,
                                                      "event": shown(event)}) from None


def refusal_of(machine: Machine, state: str, msg_type: object) -> ErrorCode | None:
    """The code ``state`` refuses ``msg_type`` with, None if it takes it."""
    try:
        next_state(machine, state, msg_type)
    except LinkStateError as exc:
        return exc.error_code
    return None


def may_send(machine: Machine, state: str, msg_type: str) -> bool:
    """Whether our side may send a ``msg_type`` in ``state`` (machines that keep
    ``sends``)."""
    return msg_type in machine.sends.get(state, {})


def sent_state(machine: Machine, state: str, msg_type: str) -> str:
    """The state after our side sent a ``msg_type`` in ``state``;
    :class:`LocalStateError` if the state forbids it."""
    try:
        return machine.sends[state][msg_type]
    except KeyError:
        raise LocalStateError(machine.role, state, msg_type) from None


def markdown(machine: Machine) -> str:
    """The machine as PROTOCOL.md 5.1 shows it: a table, one row per state."""
    title = {"host": "Host, per connection", "joiner": "Joining peer, from the host",
             "spectator": "Spectator, from the host"}[machine.role]
    sends = bool(machine.sends)
    lines = [f"{title} (starts in `{machine.initial}`):", "",
             "| state | message -> next state | other events | any other type |"
             + (" it sends |" if sends else ""),
             "|---|---|---|---|" + ("---|" if sends else "")]
    for state in machine.states:
        moves = _moves(machine.table[state])
        events = "; ".join(f"{e} -> {to}" for e, to in machine.events[state].items()) or "-"
        if state in machine.lenient:
            other = "ignored"
        else:
            other = f"`{machine.refusal[state].name.lower()}`"
            if machine is HOST and state == _HOST_SIG_EARLY[0]:
                other += " (`sig`: `protocol_violation`)"
        row = f"| {state} | {moves} | {events} | {other} |"
        if sends:
            row += f" {_moves(machine.sends[state])} |"
        lines.append(row)
    return "\n".join(lines) + "\n"


def _moves(row: Mapping[str, str]) -> str:
    """``row`` (type -> next state) as a cell: the types grouped by where they lead."""
    by_target: dict[str, list[str]] = {}
    for t, to in row.items():
        by_target.setdefault(to, []).append(f"`{t}`")
    return "; ".join(f"{', '.join(ts)} -> {to}" for to, ts in by_target.items()) or "-"
