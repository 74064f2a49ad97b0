"""The spectators' messages (PROTOCOL.md, "Spectators"), sans-IO: build and check them.

A spectator holds no seat and no key: it opens a connection to the host, gets the same
``host`` greeting as a joining peer, answers ``watch`` instead of ``hello``, and is
admitted with ``watching`` (or refused with an ``error``).  It then receives what the seats
receive (the transcript so far, then every entry, and the lobby, wait, back, chat and
``spectators`` messages) and may send nothing but ``ping`` and ``pong``.
"""

from __future__ import annotations

from typing import Any

from ..wire.codec import ErrorCode, ProtocolError
from .messages import MAX_SPECTATORS, Spectators, Watch, Watching

__all__ = [
    "MAX_SPECTATORS",
    "watch_message",
    "watch_name",
    "watching_message",
    "check_watching",
    "watching_limits",
    "spectators_message",
    "spectator_names",
]

# Thin faces of the typed messages of chkobba_p2p.link.messages (which parse and bound).


def watch_message(name: str, version: int) -> dict[str, Any]:
    """The spectator's answer to the host's greeting."""
    return Watch(version, name).to_wire()


def watch_name(msg: dict[str, Any], watching: int, limit: int) -> str:
    """The host's check of a ``watch``: the spectator's name, or :class:`ProtocolError`
    (``spectators_closed`` when the host admits none, or no more than ``limit``)."""
    name = Watch.from_wire(msg).name
    if limit <= 0:
        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED, "this table admits no spectators")
    if watching >= limit:
        raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                            f"{limit} spectator{'s' if limit > 1 else ''} already watching")
    return name


def watching_message(spectator_id: int, have: int,
                     limits: tuple[int, int] | None = None,
                     used: int | None = None) -> dict[str, Any]:
    """The host admits a spectator: its number, how many entries follow at once, the
    table's clocks (``(move, away)`` whole seconds, or None to say nothing of them) and,
    if a seat owes the next entry, how long its move has run (``used``, seconds)."""
    return Watching(spectator_id, have, limits=limits, used=used).to_wire()


def check_watching(msg: dict[str, Any]) -> tuple[int, int]:
    """A spectator's check of the host's answer: ``(id, have)``.  An ``error`` answer is
    raised as :class:`ProtocolError` with its code."""
    watching = Watching.from_wire(msg)
    return watching.id, watching.have


def watching_limits(msg: dict[str, Any]) -> tuple[int, int] | None:
    """The table's clocks a ``watching`` announces, ``(move, away)``, or None (a host
    that predates them, or values that do not check out)."""
    return Watching.from_wire(msg).limits


def spectators_message(names: tuple[str, ...], limit: int) -> dict[str, Any]:
    """Who is watching (sent to every seat and spectator when it changes)."""
    return Spectators(names, limit).to_wire()


def spectator_names(msg: dict[str, Any]) -> tuple[tuple[str, ...], int] | None:
    """``(names, max)`` from a ``spectators`` message, or None if it is malformed (a
    display message: a bad one is ignored)."""
    try:
        spectators = Spectators.from_wire(msg)
    except ProtocolError:
        return None
    return spectators.names, spectators.max
