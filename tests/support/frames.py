"""The link messages as the maps tests send on raw streams, built from the typed messages
(:mod:`chkobba_p2p.link.messages`), and frames as the cores take them."""

from __future__ import annotations

from typing import Any

from chkobba_p2p.link.messages import Frame, Spectators, Watch, Watching, read_frame
from chkobba_p2p.wire import codec as wire


def watch_message(name: str, version: int) -> dict[str, Any]:
    """A spectator's answer to the host's greeting."""
    return Watch(version, name).to_wire()


def watching_message(spectator_id: int, have: int, limits: tuple[int, int] | None = None,
                     used: int | None = None) -> dict[str, Any]:
    """The host's admission of a spectator."""
    return Watching(spectator_id, have, limits=limits, used=used).to_wire()


def spectators_message(names: tuple[str, ...], limit: int) -> dict[str, Any]:
    """Who is watching."""
    return Spectators(names, limit).to_wire()


def frame(msg: dict[str, Any]) -> Frame:
    """A map as a core takes it once read from a connection (its bytes as encoded)."""
    return read_frame(wire.encode(msg), msg)
