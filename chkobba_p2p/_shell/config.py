"""How a peer is set up: the host's and a joining peer's configuration, timeouts, addresses.

Shared by the transport (:mod:`chkobba_p2p._shell.net`) and the public API
(:mod:`chkobba_p2p._shell.peer`, which re-exports everything here); it sits below both so that
imports point down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..address import DEFAULT_PORT, Address, parse_fingerprint
from ..game.ruleset import Ruleset
from ..wire.codec import Identity
from .transport import TcpTransport, Transport

if TYPE_CHECKING:  # annotations only: a joiner never loads discovery or port mapping
    from .discovery import AnsweredEndpoints
    from .portmap import PortMapOptions

__all__ = ["Timeouts", "HostConfig", "JoinConfig", "parse_address", "DEFAULT_PORT",
           "parse_fingerprint", "split_join_code"]



@dataclass(frozen=True)
class Timeouts:
    """Seconds.  ``handshake``: to complete the handshake; ``frame``: to finish a frame
    once its first byte arrived (slow loris); ``idle``: with no frame at all (pings go
    every ``idle / 3``); ``reconnect``: each seat's allowance of time away (disconnected)
    for the whole match, spent across drops; ``turn``: the move limit, connected time a
    seat may hold the floor at one move.  No seat delays a match by more than
    ``turn + reconnect`` at one move (PROTOCOL.md 12).  ``announce``: the least time
    between two announcements of who is watching, sent by a host or shown by a joiner
    (PROTOCOL.md 18; ``link.spectators.ANNOUNCE_WINDOW``).  ``ready``: at a host, how
    long a full table's ready check waits for each joiner's confirmation before freeing
    the seats still unconfirmed (PROTOCOL.md 5.3; None: forever)."""

    handshake: float = 10.0
    frame: float = 10.0
    idle: float = 30.0
    reconnect: float = 120.0
    turn: float = 900.0
    announce: float = 5.0
    ready: float | None = 60.0


@dataclass
class HostConfig:
    players: int = 2
    rules: Ruleset = field(default_factory=Ruleset)
    port: int = DEFAULT_PORT
    #: The address to listen on; "" (the default): every address, IPv4 and IPv6.
    bind: str = ""
    name: str = "host"
    identity: Identity | None = None
    log_path: Path | None = None
    #: Announce the table on the LAN (DNS-SD over multicast DNS, PROTOCOL.md section
    #: 15) while seats are free.
    beacon: bool = True
    #: The addresses of the interfaces to announce on (None: all of them) and the
    #: addresses to announce (None: the LAN address, and the global IPv6 one if any).
    announce_interfaces: tuple[str, ...] | None = None
    announce_addresses: tuple[str, ...] | None = None
    #: Every shuffle step carries a zero-knowledge proof (a table capability).
    shuffle_proofs: bool = True
    #: How many spectators may watch at once (``chkobba watch``); 0: none (the default).
    spectators: int = 0
    timeouts: Timeouts = field(default_factory=Timeouts)
    #: The only key fingerprints (as :func:`fingerprint` writes them) that may take a
    #: seat; any other key is refused ``seat_refused`` (PROTOCOL.md 5.3).  None: anyone.
    #: For a host with no person to free a seat (headless), or friends known beforehand.
    admits: tuple[str, ...] | None = None
    #: The table's seat secret (``k7m2-x4qa-b3cd-e5fg``, see
    #: :func:`~chkobba_p2p.address.new_secret`), given to friends in the join code
    #: (``HOST:PORT#FINGERPRINT+SECRET``): only a joiner that proves it takes a seat; a
    #: stranger who knows the address is refused ``secret_required`` (PROTOCOL.md 5.5).
    #: Spectators are not asked for it (``spectators`` says whether any may watch).
    #: None: no secret, the greeting as before.
    secret: str | None = None
    #: Where to keep the resume state (with a persistent identity and a fixed port, a
    #: crashed host restarts its game); None: no crash resume.
    state_path: Path | None = None
    #: When the peer is cancelled (the user pressed Ctrl-C) during a game, sign an
    #: ``abort`` (``peer_left``, blaming this seat) and send it before closing, so the
    #: others learn it at once.  Off by default: a cancelled peer may mean to resume.
    leave_on_cancel: bool = False
    #: Ask the home router (UPnP IGD, NAT-PMP) to forward the port, in the background;
    #: reported as :class:`~chkobba_p2p._shell.portmap.PortMapped` or
    #: :class:`~chkobba_p2p._shell.portmap.PortMapUnavailable`, removed when the table closes.
    #: None (the default): do not ask.
    port_mapping: PortMapOptions | None = None
    #: Where the listeners and connections come from (:mod:`chkobba_p2p._shell.transport`).
    transport: Transport = field(default_factory=TcpTransport)
    #: At a table with proof-apart/v1: make and check the shuffle proofs in a worker
    #: thread, off the event loop; False: in the event loop's thread, between messages (a
    #: table in memory under trio's ``MockClock``, whose autojump must not run while a
    #: thread works).  Either way off the deal's serial path.
    proof_thread: bool = True


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
    #: The host key's fingerprint the host must have (``2935-c4f7-816c-a26c``), as a join
    #: code carries it (``address`` may be a code too: ``HOST:PORT#FINGERPRINT``); a
    #: host with another key is refused before anything is written.  None: any key.
    host_fingerprint: str | None = None
    #: The table's seat secret, as a join code carries it after its fingerprint
    #: (``address`` may carry it too: ``HOST:PORT#FINGERPRINT+SECRET``); proven, never
    #: sent, when the host's greeting asks for it (PROTOCOL.md 5.5).  None: the code's.
    secret: str | None = None
    #: We are a host's bot: ``(level, voucher)``, the host's signature that our key is
    #: its bot (:func:`chkobba_p2p.observe.vouch.voucher`), sent in every hello so that the
    #: lobby and every log show it (PROTOCOL.md 5.6).  None: a person.
    bot: tuple[str, bytes] | None = None
    #: When the host stays unreachable past its allowance of time away, sign an
    #: ``abort`` (``peer_left``) blaming it in our log (PROTOCOL.md 12.4).  False: stop
    #: signing nothing and keep the saved game (``state_path``) for the host's return,
    #: however late -- a host's own bot (``bot``), whose host restarts its game and
    #: starts its bots again to resume it; a claim of the bot against its own host would
    #: end the bot's copy of the match with the host, not the bot, to blame for nothing.
    claims_host_gone: bool = True
    #: How to reach the host (:mod:`chkobba_p2p._shell.transport`; TCP by default).
    transport: Transport = field(default_factory=TcpTransport)
    #: See :attr:`HostConfig.proof_thread`.
    proof_thread: bool = True
    #: Where to remember the endpoint once the pinned key (:attr:`host_fingerprint`)
    #: proved itself there: its welcome, signed over this connection's own nonce.  At
    #: once, not when the join returns, so a join ended by Ctrl-C in the lobby still
    #: keeps the table's place in a later LAN list (PROTOCOL.md section 15).  Only an IP
    #: address is remembered (not a name, not an onion); None: nothing is.
    answered: AnsweredEndpoints | None = None


def split_join_code(text: str) -> tuple[str, str | None]:
    """A join code ``ADDRESS#FINGERPRINT`` into (``HOST:PORT``, the fingerprint in its
    printed form); (``HOST:PORT``, None) for a plain address (PROTOCOL.md section 15).
    :class:`~chkobba_p2p.address.AddressError` (a ``ValueError``) for anything else.
    See :class:`~chkobba_p2p.address.Address`."""
    address = Address.parse(text)
    return address.endpoint, address.fingerprint


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port``, ``[v6]:port`` or a bare IPv6 address into (host, port);
    :class:`~chkobba_p2p.address.AddressError` (a ``ValueError``) if it is none of these.
    See :class:`~chkobba_p2p.address.Address`."""
    address = Address.parse(text, default_port)
    return address.host, address.port
