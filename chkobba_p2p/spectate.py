"""The spectators' messages (PROTOCOL.md, "Spectators"), sans-IO: build and check them.

A spectator holds no seat and no key: it opens a connection to the host, gets the same
``host`` greeting as a joining peer, answers ``watch`` instead of ``hello``, and is
admitted with ``watching`` (or refused with an ``error``).  It then receives what the seats
receive (the transcript so far, then every entry, and the lobby, wait, back, chat and
``spectators`` messages) and may send nothing but ``ping`` and ``pong``.
"""

from __future__ import annotations

from typing import Any

from .wire import MAX_NAME, SUPPORTED_VERSIONS, ErrorCode, ProtocolError, get_field

__all__ = [
    "MAX_SPECTATORS",
    "watch_message",
    "watch_name",
    "watching_message",
    "check_watching",
    "spectators_message",
    "spectator_names",
]

#: The most spectators a host may admit (``--spectators``).
MAX_SPECTATORS = 64


def _display_name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
        raise ProtocolError(ErrorCode.BAD_FIELD, f"a display name is 1..{MAX_NAME} printable "
                            "characters")
    return value


def watch_message(name: str, version: int) -> dict:
    """The spectator's answer to the host's greeting."""
    return {"t": "watch", "v": version, "name": _display_name(name)}


def watch_name(msg: dict, watching: int, limit: int) -> str:
    """The host's check of a ``watch``: the spectator's name, or :class:`ProtocolError`
    (``spectators_closed`` when the host admits none, or no more than ``limit``)."""
    version = get_field(msg, "v", "int")
    if version not in SUPPORTED_VERSIONS:
        raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"spectator chose {version}")
    name = _display_name(msg.get("name"))
    if limit <= 0:
        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED, "this table admits no spectators")
    if watching >= limit:
        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                            f"{limit} spectator{'s' if limit > 1 else ''} already watching")
    return name


def watching_message(spectator_id: int, have: int) -> dict:
    """The host admits a spectator: its number, and how many entries follow at once."""
    return {"t": "watching", "v": max(SUPPORTED_VERSIONS), "id": spectator_id, "have": have}


def check_watching(msg: dict) -> tuple[int, int]:
    """A spectator's check of the host's answer: ``(id, have)``.  An ``error`` answer is
    raised as :class:`ProtocolError` with its code."""
    if msg.get("t") != "watching":
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected watching")
    return get_field(msg, "id", "int"), get_field(msg, "have", "int")


def spectators_message(names: tuple[str, ...], limit: int) -> dict:
    """Who is watching (sent to every seat and spectator when it changes)."""
    return {"t": "spectators", "names": list(names), "max": limit}


def spectator_names(msg: dict) -> tuple[tuple[str, ...], int] | None:
    """``(names, max)`` from a ``spectators`` message, or None if it is malformed (a
    display message: a bad one is ignored)."""
    names, limit = msg.get("names"), msg.get("max")
    if not isinstance(names, list) or len(names) > MAX_SPECTATORS or \
            not isinstance(limit, int) or isinstance(limit, bool):
        return None
    try:
        return tuple(_display_name(n) for n in names), limit
    except ProtocolError:
        return None
