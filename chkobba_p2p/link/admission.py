"""Who may hold a connection to the host, and for how long (PROTOCOL.md 5.4), sans-IO.

The host cannot tell who a connection is until its greeting (``hello`` or ``watch``)
arrives, one round trip after it opened.  Before that it is a *stranger*, and strangers
share one bounded budget with a short deadline.  After it, a connection is one of:

- a **seat** (a fresh hello for the lobby, or a resume proven by the seat's key): counted
  against nothing here, so nothing a stranger holds can starve it;
- **knocking**: a seat of the running game proved its key in its first frame (a
  ``knock``, signed over a greeting nonce the host sent it before) and its hello is on
  the way.  It leaves the strangers' budget at once and is never let go for room: one
  place per seat (a newer knock of the same seat takes it, the older is let go), with
  the same greeting deadline as a stranger;
- a **spectator**: it leaves the strangers' budget for its own slots;
- refused by the handshake (the shell closes it).

Admission is keyed by an opaque connection label chosen by the shell, never by address:
the address a transport reports is data, used only to spread evictions fairly.  A full
budget never refuses the newcomer (the newcomer may be a returning seat, and from the
outside it looks like any stranger): it evicts a stranger already held, the oldest
one of the address holding the most strangers.  An
address that a transport reports for all its connections (127.0.0.1 behind Tor or a
proxy) is no address at all for this purpose: each of its connections counts as its own.

So a returning seat that knocks is never turned away for room, however many strangers
connect; one that cannot knock (its first connection of a run, an older client) is
turned away only if more than ``strangers`` newer connections reach its address's share
of the budget within the round trip its greeting takes, and never by anything held
(sockets kept silent, spectators watching, seats) however long.

Nothing here reads a clock: ``now`` is an argument (trio's clock in the shell, a fake one
in tests), and deadlines come back as numbers for the shell to arm.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..game.errors import shown
from .errors import LinkArgumentError

__all__ = ["AdmissionPolicy", "Admitted", "Admission", "OutOfFiles", "STRANGERS", "GREETING",
           "FILES_WARNING", "strangers_for_files"]

C = TypeVar("C", bound=Hashable)

#: Strangers held at once by default (lowered by the shell to what its file descriptors
#: allow).
STRANGERS = 64
#: Seconds a stranger has, from the moment it is accepted, to send its greeting.  A
#: round trip over Tor takes a few seconds at worst; an honest joiner answers at once.
GREETING = 10.0
#: File descriptors kept out of the strangers' reach: the seated peers, the log, the
#: runtime's own (each stranger costs about two: its socket and what the runtime holds).
RESERVED_FILES = 48
#: Seconds between two warnings that accept() ran out of file descriptors.
FILES_WARNING = 10.0


def strangers_for_files(maximum: int, files: int | None) -> int:
    """How many strangers to hold when the process may open ``files`` descriptors (None:
    no limit): ``maximum``, or fewer, so that the seated peers, the log and the runtime
    keep room; never fewer than 2."""
    if files is None:
        return maximum
    return max(2, min(maximum, (files - RESERVED_FILES) // 2))


@dataclass(frozen=True)
class AdmissionPolicy:
    """The numbers.  ``spectators``: the table's spectator slots (0: none).
    ``shared``: addresses a transport reports for all its connections; ``all_shared``:
    the transport reports one address for every connection (Tor, a proxy), so no
    address says anything."""

    strangers: int = STRANGERS
    greeting: float = GREETING
    spectators: int = 0
    shared: frozenset[str] = frozenset()
    all_shared: bool = False

    def __post_init__(self) -> None:
        if self.strangers < 1:
            raise LinkArgumentError("the strangers' budget holds at least one connection",
                                    code="strangers_below_one",
                                    data={"strangers": shown(self.strangers)})
        if not self.greeting > 0:
            raise LinkArgumentError("the greeting deadline must be positive",
                                    code="greeting_not_positive",
                                    data={"seconds": shown(self.greeting)})
        if self.spectators < 0:
            raise LinkArgumentError("spectator slots cannot be negative",
                                    code="spectators_negative",
                                    data={"spectators": shown(self.spectators)})


@dataclass(frozen=True)
class Admitted(Generic[C]):
    """A connection accepted as a stranger: its greeting is due by ``deadline``, and the
    shell closes ``evicted`` (strangers let go to make room) at once."""

    conn: C
    deadline: float
    evicted: tuple[C, ...] = ()


@dataclass(frozen=True)
class OutOfFiles(Generic[C]):
    """What to do when the process ran out of file descriptors while accepting: let
    ``victim`` go (None: nobody to let go, the connection being accepted is lost), and
    say so in the developers' log if ``warn`` (at most once per :data:`FILES_WARNING`)."""

    victim: C | None
    warn: bool


@dataclass
class _Stranger:
    address: str
    opened: float
    order: int
    #: Who holds the address, for spreading evictions (None: an address every
    #: connection shares, so each connection counts as its own).
    party: str | None
    heard: bool = False  # a byte arrived: it is saying something


@dataclass
class Admission(Generic[C]):
    """The host's admission state: feed it connections opened, heard, greeted, closed
    and the time; it answers with deadlines and the connections to close."""

    policy: AdmissionPolicy = field(default_factory=AdmissionPolicy)
    _strangers: dict[C, _Stranger] = field(default_factory=dict)
    _spectators: set[C] = field(default_factory=set)
    _seats: set[C] = field(default_factory=set)
    #: Connections whose knock proved a seat, hello pending: conn -> (seat, opened).
    _knocking: dict[C, tuple[Hashable, float]] = field(default_factory=dict)
    _order: int = 0
    #: Strangers let go before their greeting, for room or past their deadline.
    evicted: int = 0
    expired_count: int = 0
    #: Connections lost out of file descriptors with no stranger to let go instead.
    lost: int = 0
    _files_warned: float = float("-inf")

    # ------------------------------------------------------------------ inputs

    def opened(self, conn: C, address: str, now: float) -> Admitted[C]:
        """A connection was accepted from ``address``.  Never refused: when the budget
        is full, strangers already held make room (see the module's docstring)."""
        if conn in self._strangers or conn in self._spectators or conn in self._seats \
                or conn in self._knocking:
            raise LinkArgumentError(f"connection {conn!r} is already admitted",
                                    code="already_admitted")
        evicted: list[C] = []
        while len(self._strangers) >= self.policy.strangers:
            victim = self._victim()
            del self._strangers[victim]
            self.evicted += 1
            evicted.append(victim)
        self._order += 1
        shared = self.policy.all_shared or address in self.policy.shared
        self._strangers[conn] = _Stranger(address, now, self._order,
                                          None if shared else network_of(address))
        return Admitted(conn, now + self.policy.greeting, tuple(evicted))

    def heard(self, conn: C) -> None:
        """Bytes arrived on a stranger.  Recorded for the shell's diagnostics only: it
        earns no protection from eviction (see :meth:`_victim`)."""
        s = self._strangers.get(conn)
        if s is not None:
            s.heard = True

    def knocked(self, conn: C, seat: Hashable) -> tuple[C, ...]:
        """``conn``'s first frame proved ``seat``'s key (a knock, checked by the
        handshake): it leaves the strangers' budget and is never let go for room.  One
        place per seat: returns the older knocking connection of the same seat, for the
        shell to close (the newer is the seat's latest try).  Nothing for a connection
        that is no stranger any more."""
        s = self._strangers.pop(conn, None)
        if s is None:
            return ()
        older = tuple(c for c, (held, _) in self._knocking.items() if held == seat)
        for c in older:
            del self._knocking[c]
        self._knocking[conn] = (seat, s.opened)
        return older

    def seated(self, conn: C) -> None:
        """The handshake admitted ``conn`` to a seat: it leaves the strangers, and no
        budget applies to it from now on."""
        if self._strangers.pop(conn, None) is not None or conn in self._spectators \
                or self._knocking.pop(conn, None) is not None:
            self._spectators.discard(conn)
            self._seats.add(conn)

    def spectating(self, conn: C) -> bool:
        """A stranger greeted as a spectator takes a spectator slot (True), or there is
        none left (False: the shell refuses it, and it stays a stranger until closed)."""
        if conn in self._spectators:
            return True
        if conn not in self._strangers or len(self._spectators) >= self.policy.spectators:
            return False
        del self._strangers[conn]
        self._spectators.add(conn)
        return True

    def closed(self, conn: C) -> None:
        """The connection is gone, whatever it was."""
        self._strangers.pop(conn, None)
        self._knocking.pop(conn, None)
        self._spectators.discard(conn)
        self._seats.discard(conn)

    def expired(self, now: float) -> tuple[C, ...]:
        """Strangers (and knocking connections) whose greeting deadline has passed: the
        shell closes them (with a ``handshake_timeout`` error).  They are forgotten here
        at once."""
        late = tuple(c for c, s in self._strangers.items()
                     if now >= s.opened + self.policy.greeting)
        for c in late:
            del self._strangers[c]
        knocks = tuple(c for c, (_, opened) in self._knocking.items()
                       if now >= opened + self.policy.greeting)
        for c in knocks:
            del self._knocking[c]
        late += knocks
        self.expired_count += len(late)
        return late

    def shed(self) -> C | None:
        """Out of file descriptors: the stranger to let go first, if any (forgotten
        here; the shell closes it)."""
        if not self._strangers:
            return None
        victim = self._victim()
        del self._strangers[victim]
        self.evicted += 1
        return victim

    def out_of_files(self, now: float) -> OutOfFiles[C]:
        """accept() failed for want of file descriptors: the stranger to let go (as
        :meth:`shed`) and whether to warn."""
        victim = self.shed()
        if victim is None:
            self.lost += 1
        warn = now - self._files_warned > FILES_WARNING
        if warn:
            self._files_warned = now
        return OutOfFiles(victim, warn)

    # ----------------------------------------------------------------- queries

    @property
    def refused(self) -> int:
        """Strangers let go before their greeting (for room, or out of descriptors) and
        connections lost with none to let go."""
        return self.evicted + self.lost

    def deadline(self, conn: C) -> float | None:
        """When ``conn``'s greeting is due; None once it is no stranger (nor knocking)."""
        s = self._strangers.get(conn)
        if s is not None:
            return s.opened + self.policy.greeting
        k = self._knocking.get(conn)
        return None if k is None else k[1] + self.policy.greeting

    def next_deadline(self) -> float | None:
        """The earliest greeting deadline, for the shell's timer."""
        opened = [s.opened for s in self._strangers.values()]
        opened += [k[1] for k in self._knocking.values()]
        return min(opened) + self.policy.greeting if opened else None

    def is_stranger(self, conn: C) -> bool:
        return conn in self._strangers

    @property
    def strangers(self) -> int:
        return len(self._strangers)

    @property
    def knocking(self) -> int:
        """Connections whose knock proved a seat, their hello pending."""
        return len(self._knocking)

    def is_knocking(self, conn: C) -> bool:
        return conn in self._knocking

    @property
    def spectators(self) -> int:
        return len(self._spectators)

    @property
    def seats(self) -> int:
        return len(self._seats)

    # ---------------------------------------------------------------- internals

    def _victim(self) -> C:
        """The stranger to let go: the oldest of the group (address) holding the most
        strangers; ties between groups go to the oldest.  Whether a stranger sent bytes
        counts for nothing: a byte costs an attacker nothing, and a returning seat is
        silent until its greeting (a hostile review pushed players out that way).  One
        pass over the strangers."""
        # group -> [size, candidate, its record]
        groups: dict[object, list[Any]] = {}
        for c, s in self._strangers.items():
            key: object = s.party if s.party is not None else ("conn", c)
            g = groups.get(key)
            if g is None:
                groups[key] = [1, c, s]
                continue
            g[0] += 1
            best: _Stranger = g[2]
            if s.order < best.order:
                g[1], g[2] = c, s
        victim = max(groups.values(), key=lambda g: (g[0], -g[2].order))
        chosen: C = victim[1]
        return chosen


def network_of(address: str) -> str:
    """The address as one party holds it: an IPv6 address by its /64 (one home, one
    host: a single machine may have 2**64 of them), an IPv4-mapped IPv6 address as the
    IPv4 address it is; anything else (a name, a label) as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
