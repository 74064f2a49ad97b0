"""The unsigned link messages a joining peer reads from the host, checked field by field.

``lobby``, ``wait``, ``back``, ``chat`` and ``error`` are not signed: the host, or anyone on
the path, can write anything in them.  Each parser returns the typed values or None when
a field is missing or of the wrong type (the message is then ignored); none of them
raises, whatever the message holds.  What they say is shown, never trusted: nothing is
deleted or blamed on the strength of an unsigned message (PROTOCOL.md 5.1, 12, 13).
"""

from __future__ import annotations

from typing import Any

from .wire import MAX_NAME, ErrorCode, fingerprint

__all__ = ["clean_text", "parse_lobby", "lobby_problem", "parse_wait", "parse_back", "parse_chat",
           "parse_error", "parse_have", "parse_limits", "parse_allowance_left", "MAX_PLAYERS",
           "MAX_LIMIT"]

MAX_PLAYERS = 4
#: Longest error text kept from the network, in characters.
MAX_ERROR_TEXT = 200
#: The longest move limit or away allowance a host may announce, in seconds (a day): past
#: it a joining peer keeps its own values (PROTOCOL.md 12.3).
MAX_LIMIT = 86400


def _int(value: Any, lo: int, hi: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    return None


def clean_text(value: Any, limit: int = MAX_ERROR_TEXT) -> str:
    """A network string made safe to print: non-strings read as empty, characters that
    are not printable become ``?``, at most ``limit`` characters."""
    if not isinstance(value, str):
        return ""
    return "".join(c if c.isprintable() else "?" for c in value[:limit])


def parse_lobby(msg: dict) -> tuple[tuple[str, str] | None, ...] | None:
    """``{"t": "lobby", "seats": [{"seat", "key": bin 32, "name": str} or nil, ...]}``:
    ``(name, key fingerprint)`` or None per seat; None if any field is off (see
    :func:`lobby_problem` for which)."""
    return _lobby(msg)[0]


def lobby_problem(msg: dict) -> str | None:
    """What is wrong with a ``lobby`` message, in a few words for people (``seat 2's
    name is not printable``); None if :func:`parse_lobby` takes it."""
    return _lobby(msg)[1]


def _lobby(msg: dict) -> tuple[tuple[tuple[str, str] | None, ...] | None, str | None]:
    seats = msg.get("seats")
    if not isinstance(seats, list):
        return None, "no list of seats"
    if not 2 <= len(seats) <= MAX_PLAYERS:
        return None, f"{len(seats)} seats (a table has 2 to {MAX_PLAYERS})"
    out: list[tuple[str, str] | None] = []
    for i, s in enumerate(seats):
        if s is None:
            out.append(None)
            continue
        if not isinstance(s, dict):
            return None, f"seat {i} is not a map"
        key, name = s.get("key"), s.get("name")
        if not isinstance(key, bytes) or len(key) != 32:
            return None, f"seat {i}'s key is not 32 bytes"
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            return None, f"seat {i}'s name is not 1 to {MAX_NAME} characters"
        if not name.isprintable():
            return None, f"seat {i}'s name is not printable"
        out.append((name, fingerprint(key)))
    return tuple(out), None


def parse_wait(msg: dict, players: int) -> tuple[int, int] | None:
    """``{"t": "wait", "seat": int, "secs": int}``: (seat, seconds of allowance left)."""
    seat = _int(msg.get("seat"), 0, players - 1)
    secs = _int(msg.get("secs"), 0, 1 << 31)
    return None if seat is None or secs is None else (seat, secs)


def parse_back(msg: dict, players: int) -> int | None:
    """``{"t": "back", "seat": int}``: the seat."""
    return _int(msg.get("seat"), 0, players - 1)


def parse_chat(msg: dict, players: int, clean: Any) -> tuple[int, str] | None:
    """``{"t": "chat", "seat": int, "text": str}``; ``clean`` checks the line (see
    :func:`chkobba_p2p.peer.clean_chat`)."""
    seat = _int(msg.get("seat"), 0, players - 1)
    line = clean(msg.get("text"))
    return None if seat is None or line is None else (seat, line)


def parse_error(msg: dict) -> tuple[ErrorCode | None, str]:
    """``{"t": "error", "code": int, "msg": str}``: the code (None if unknown) and the
    text made safe to print."""
    code = msg.get("code")
    ec = None
    if isinstance(code, int) and not isinstance(code, bool):
        try:
            ec = ErrorCode(code)
        except ValueError:
            ec = None
    return ec, clean_text(msg.get("msg"))


def parse_limits(value: Any) -> tuple[int, int] | None:
    """A welcome's ``limits``, ``{"move": int, "away": int}`` in whole seconds: the host's
    move limit ``M`` (1 or more) and allowance of time away ``A`` (0 or more), each at
    most :data:`MAX_LIMIT`; None if absent or off (the peer keeps its own)."""
    if not isinstance(value, dict):
        return None
    move = _int(value.get("move"), 1, MAX_LIMIT)
    away = _int(value.get("away"), 0, MAX_LIMIT)
    return None if move is None or away is None else (move, away)


def parse_allowance_left(value: Any, away: int) -> int | None:
    """A welcome's ``limits.left`` on a resume: the returning seat's allowance of time
    away still left for the match, whole seconds from 0 to the announced ``away``; None
    if absent or off (PROTOCOL.md 12.3)."""
    if not isinstance(value, dict):
        return None
    return _int(value.get("left"), 0, away)


def parse_have(welcome: dict) -> int:
    """The host's chain length a ``welcome`` announces (``have``), 0 if the field is off
    (every msgpack integer fits under 2**64)."""
    return _int(welcome.get("have"), 1, 2**64) or 0
