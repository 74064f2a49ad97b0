"""The unsigned link messages a joining peer reads from the host, checked field by field.

``lobby``, ``wait``, ``back``, ``chat`` and ``error`` are not signed: the host, or anyone on
the path, can write anything in them.  Each parser returns the typed values or None when
a field is missing or of the wrong type (the message is then ignored); none of them
raises, whatever the message holds.  What they say is shown, never trusted: nothing is
deleted or blamed on the strength of an unsigned message (PROTOCOL.md 5.1, 12, 13).
"""

from __future__ import annotations

from typing import Any

from ..wire.codec import ErrorCode, ProtocolError, fingerprint
from .messages import (
    MAX_ERROR_TEXT,
    MAX_LIMIT,
    MAX_PLAYERS,
    Back,
    Chat,
    ErrorMsg,
    Lobby,
    Wait,
    clean_text,
)
from .messages import read_allowance_left as parse_allowance_left
from .messages import read_have as parse_have
from .messages import read_limits as parse_limits
from .messages import read_move_used as parse_move_used

__all__ = ["clean_text", "parse_lobby", "lobby_problem", "parse_wait", "parse_back", "parse_chat",
           "parse_error", "parse_have", "parse_limits", "parse_allowance_left", "parse_move_used",
           "MAX_PLAYERS",
           "MAX_LIMIT", "MAX_ERROR_TEXT"]

# The typed messages of chkobba_p2p.link.messages parse and bound every field; these are
# their lenient faces for the joiner's display code (None where they raise).


def parse_lobby(msg: dict[str, Any]) -> tuple[tuple[str, str] | None, ...] | None:
    """``{"t": "lobby", "seats": [{"seat", "key": bin 32, "name": str} or nil, ...]}``:
    ``(name, key fingerprint)`` or None per seat; None if any field is off (see
    :func:`lobby_problem` for which)."""
    try:
        lobby = Lobby.from_wire(msg)
    except ProtocolError:
        return None
    return tuple((s.name, fingerprint(s.key)) if s else None for s in lobby.seats)


def lobby_problem(msg: dict[str, Any]) -> str | None:
    """What is wrong with a ``lobby`` message, in a few words for people (``seat 2's
    name is not printable``); None if :func:`parse_lobby` takes it."""
    try:
        Lobby.from_wire(msg)
    except ProtocolError as exc:
        return exc.detail
    return None


def parse_wait(msg: dict[str, Any], players: int) -> tuple[int, int] | None:
    """``{"t": "wait", "seat": int, "secs": int}``: (seat, seconds of allowance left)."""
    try:
        wait = Wait.from_wire(msg, players)
    except ProtocolError:
        return None
    return wait.seat, wait.secs


def parse_back(msg: dict[str, Any], players: int) -> int | None:
    """``{"t": "back", "seat": int}``: the seat."""
    try:
        return Back.from_wire(msg, players).seat
    except ProtocolError:
        return None


def parse_chat(msg: dict[str, Any], players: int, clean: Any) -> tuple[int, str] | None:
    """``{"t": "chat", "seat": int, "text": str}``; ``clean`` checks the line (see
    :func:`chkobba_p2p._shell.peer.clean_chat`)."""
    try:
        chat = Chat.from_wire(msg, players, clean)
    except ProtocolError:
        return None
    assert chat.seat is not None
    return chat.seat, chat.text


def parse_error(msg: dict[str, Any]) -> tuple[ErrorCode | None, str]:
    """``{"t": "error", "code": int, "msg": str}``: the code (None if unknown) and the
    text made safe to print."""
    error = ErrorMsg.from_wire(msg)
    return error.code, error.text
