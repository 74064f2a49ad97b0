"""How a peer is set up: the host's and a joining peer's configuration, timeouts, addresses.

Shared by the transport (:mod:`chkobba_p2p.net`) and the public API
(:mod:`chkobba_p2p.peer`, which re-exports everything here); it sits below both so that
imports point down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .rules import Ruleset
from .wire import Identity

__all__ = ["Timeouts", "HostConfig", "JoinConfig", "parse_address", "DEFAULT_PORT"]

DEFAULT_PORT = 7777


@dataclass(frozen=True)
class Timeouts:
    """Seconds.  ``handshake``: to complete the handshake; ``frame``: to finish a frame
    once its first byte arrived (slow loris); ``idle``: with no frame at all (pings go
    every ``idle / 3``); ``reconnect``: each seat's allowance of time away (disconnected)
    for the whole match, spent across drops; ``turn``: the move limit, connected time a
    seat may hold the floor at one move.  No seat delays a match by more than
    ``turn + reconnect`` at one move (PROTOCOL.md 12)."""

    handshake: float = 10.0
    frame: float = 10.0
    idle: float = 30.0
    reconnect: float = 120.0
    turn: float = 900.0


@dataclass
class HostConfig:
    players: int = 2
    rules: Ruleset = field(default_factory=Ruleset)
    port: int = DEFAULT_PORT
    bind: str = "0.0.0.0"
    name: str = "host"
    identity: Identity | None = None
    log_path: Path | None = None
    beacon: bool = True
    beacon_port: int = 0  # 0: the default LAN port
    #: Every shuffle step carries a zero-knowledge proof (a table capability).
    shuffle_proofs: bool = True
    timeouts: Timeouts = field(default_factory=Timeouts)
    #: Where to keep the resume state (with a persistent identity and a fixed port, a
    #: crashed host restarts its game); None: no crash resume.
    state_path: Path | None = None
    #: When the peer is cancelled (the user pressed Ctrl-C) during a game, sign an
    #: ``abort`` (``peer_left``, blaming this seat) and send it before closing, so the
    #: others learn it at once.  Off by default: a cancelled peer may mean to resume.
    leave_on_cancel: bool = False


@dataclass
class JoinConfig:
    address: str
    name: str = "guest"
    identity: Identity | None = None
    #: Where to keep the resume state (identity-specific); None: no crash resume.
    state_path: Path | None = None
    log_path: Path | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    #: Seconds to keep retrying the first connection while it is refused (a bot started
    #: together with its host); 0: fail at once.
    connect_retry: float = 0.0
    #: See :attr:`HostConfig.leave_on_cancel`.
    leave_on_cancel: bool = False



def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` into (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = int(rest[1:]) if rest.startswith(":") else default_port
        return host, port
    if text.count(":") == 1:
        host, port_s = text.split(":")
        return host or "127.0.0.1", int(port_s)
    return text, default_port
