"""The shell's events (the host listening, the router's port mapping, tor), and the one
union of every layer's events that a seat's controller and a spectator are told:
:data:`TableEvent`.

Each layer has its base class (aioquic's way): the rules engine's ``GameEvent`` (a union
of named tuples), :class:`~chkobba_p2p.transcript.events.TranscriptEvent`,
:class:`~chkobba_p2p.link.events.LinkEvent`, :class:`ShellEvent` (:class:`TorEvent`
among them) and :class:`~chkobba_p2p.observe.events.ObserverEvent`.  The deal core's
``DeckEvent`` stays inside the transcript's driver.
"""

from __future__ import annotations

from typing import TypeAlias

from ..game.events import GameEvent
from ..link.events import LinkEvent
from ..observe.events import ObserverEvent
from ..transcript.events import TranscriptEvent
from ..wire.codec import fingerprint

__all__ = [
    "ShellEvent",
    "TorEvent",
    "Listening",
    "TableEvent",
    "GameEvent",
    "TranscriptEvent",
    "LinkEvent",
    "ObserverEvent",
]


class ShellEvent:
    """The base of the shell's events: what the I/O around the cores did (listening, a
    port mapped or not, tor's progress)."""

    __slots__ = ()


class TorEvent(ShellEvent):
    """The base of tor's events (:mod:`chkobba_p2p._shell.tor`)."""

    __slots__ = ()


class Listening(ShellEvent):
    """The host is listening on ``port``; ``key`` is its identity (for fingerprints)."""

    def __init__(self, port: int, key: bytes) -> None:
        self.port = port
        self.key = key

    def __repr__(self) -> str:
        return f"Listening(port={self.port}, key={fingerprint(self.key)})"


TableEvent: TypeAlias = GameEvent | TranscriptEvent | LinkEvent | ShellEvent | ObserverEvent
"""Every event a seat's controller (:meth:`SeatController.on_event`) or a spectator's
callback is told; ``isinstance(event, TableEvent)`` holds for each."""
