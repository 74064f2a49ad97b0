"""Tables on the LAN: DNS-SD over multicast DNS (RFC 6763, RFC 6762), via ``zeroconf``.

A host announces its table as a service of type ``_chkobba._tcp`` while seats are free;
a joining peer browses for a few seconds and lists what it found.  Any DNS-SD browser
sees them too (``avahi-browse -r _chkobba._tcp``, ``dns-sd -B _chkobba._tcp``).  The TXT
record carries the table's facts (PROTOCOL.md section 15): ``v`` (protocol version),
``name``, ``players``, ``free``, ``rules``, ``spectators`` and ``fp``, the host key's
fingerprint, so a table found here is joined with its key pinned like a join code.

``zeroconf`` runs its own thread and asyncio loop.  Everything that blocks (starting,
registering, which probes for about 1.5 s, resolving, closing) runs in a trio worker
thread; the browser's callbacks hand names to trio with ``TrioToken.run_sync_soon``,
which never blocks the zeroconf thread.  The trio loop never waits on zeroconf.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from ..address import Address
from .events import ShellEvent

__all__ = ["SERVICE_TYPE", "TableFacts", "TableAd", "Announcer", "Announced", "browse_tables",
           "unique_tables", "host_addresses"]

SERVICE_TYPE = "_chkobba._tcp.local."
_MAX_TABLES = 64  # a LAN flooding us with announcements gets no more than this listed
#: No announcer (as far as one can tell them apart: by the address it announces, the
#: packet's source being out of sight behind zeroconf) lists more than this many tables,
#: so one cannot fill the list before the others are heard.
_PER_ADDRESS = 8
#: Names heard and resolved at most in one browse (a flood stops being read there).
_MAX_NAMES = 1024
#: A name's resolution tries, in milliseconds each (a lost answer is asked again).
_RESOLVE_TRIES_MS = (1500, 3000, 3000, 6000)
#: Addresses one table (key) is listed with: at most this many, two per address.
_MAX_ENDPOINTS = 16
_FINGERPRINT = re.compile(r"^[0-9a-f]{4}(?:-[0-9a-f]{4}){3}$")


@dataclass(frozen=True)
class Announced(ShellEvent):
    """The host's table is announced on the LAN (DNS-SD), for ``port``."""

    port: int


@dataclass(frozen=True)
class TableFacts:
    """What a host announces: its TXT record, and the instance name ``name (fp)``."""

    name: str
    players: int
    free: int
    rules: str
    fingerprint: str
    spectators: int = 0
    version: int = 1

    def txt(self) -> dict[str, str]:
        return {"v": str(self.version), "name": self.name, "players": str(self.players),
                "free": str(self.free), "rules": self.rules,
                "spectators": str(self.spectators), "fp": self.fingerprint}

    def instance(self) -> str:
        # A DNS label holds 63 bytes: the fingerprint must survive, the name may shrink.
        suffix = f" ({self.fingerprint})"
        name = self.name
        while len((name + suffix).encode()) > 63:
            name = name[:-1]
        return (name + suffix).replace(".", " ")


def _text(value: Any, limit: int = 32) -> str:
    """A TXT value from the network, safe to print: decoded, printable, short."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return "?"
    return "".join(ch if ch.isprintable() else "?" for ch in value[:limit]) or "?"


def _count(value: Any) -> int | None:
    """A small count (seats, spectators) from a TXT value; None if it is not one."""
    text = _text(value, 4)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


@dataclass(frozen=True)
class TableAd:
    """A table found on the LAN.  Unauthenticated: anyone can announce anything; the
    handshake checks the host's key against :attr:`fingerprint` (:attr:`code`)."""

    name: str
    addresses: tuple[str, ...]  # IPv4 first
    port: int
    players: int | None
    free: int | None
    rules: str
    spectators: int | None
    fingerprint: str | None
    #: Every (address, port) announced for this table's key, each its own entry, in the
    #: order heard: anyone on the LAN may announce a key with an address of theirs, so a
    #: join tries them in turn until the host's key matches (:attr:`codes`).  Empty: the
    #: one announcement's ``addresses`` at ``port``.
    endpoints: tuple[tuple[str, int], ...] = ()

    @property
    def all_endpoints(self) -> tuple[tuple[str, int], ...]:
        return self.endpoints or tuple((a, self.port) for a in self.addresses)

    @property
    def codes(self) -> tuple[str, ...]:
        """A join code for each of :attr:`all_endpoints`, to try in turn (each pins the
        key: a wrong machine is refused before anything is written)."""
        return tuple(str(Address(a, p, self.fingerprint)) for a, p in self.all_endpoints)

    @property
    def target(self) -> str:
        """``HOST:PORT`` (``[V6]:PORT``) of the first address."""
        return Address(self.addresses[0], self.port).endpoint

    @property
    def code(self) -> str:
        """The join code: :attr:`target` with the fingerprint, ``HOST:PORT#FP``."""
        return str(Address(self.addresses[0], self.port, self.fingerprint))

    def __str__(self) -> str:
        seats = "?" if self.players is None else str(self.players)
        free = "?" if self.free is None else str(self.free)
        more = len(self.all_endpoints) - 1
        also = f" (and {more} other address{'es' if more > 1 else ''})" if more > 0 else ""
        return (f"{self.name} at {self.target}{also}: {seats} players, {free} free, "
                f"{self.rules} rules, key {self.fingerprint or '?'}")

    @classmethod
    def from_info(cls, info: Any) -> TableAd | None:
        props = {(k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)): v
                 for k, v in (info.properties or {}).items()}
        addresses = sorted(set(info.parsed_scoped_addresses()),
                           key=lambda a: (":" in a, a))
        if not addresses or not info.port:
            return None
        fp = _text(props.get("fp"), 19)
        return cls(name=_text(props.get("name")), addresses=tuple(addresses),
                   port=int(info.port), players=_count(props.get("players")),
                   free=_count(props.get("free")), rules=_text(props.get("rules")),
                   spectators=_count(props.get("spectators")),
                   fingerprint=fp if _FINGERPRINT.match(fp) else None)


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    if interfaces is None:
        return Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
    v6 = any(":" in i for i in interfaces)
    v4 = any(":" not in i for i in interfaces)
    version = IPVersion.All if v4 and v6 else (IPVersion.V6Only if v6 else IPVersion.V4Only)
    return Zeroconf(interfaces=list(interfaces), ip_version=version)


async def _close(zc: Any) -> None:
    """Close a Zeroconf instance (its goodbye packets), shielded, within 3 s."""
    with trio.CancelScope(shield=True), trio.move_on_after(3):
        await trio.to_thread.run_sync(zc.close, abandon_on_cancel=True)


class Announcer:
    """Announces one table; :meth:`update` changes its TXT record, :meth:`close`
    withdraws it (goodbye packets)."""

    def __init__(self, port: int, addresses: Sequence[str],
                 interfaces: Sequence[str] | None = None) -> None:
        self.port = port
        self.addresses = list(addresses)
        self.interfaces = interfaces
        self._zc: Any = None
        self._info: Any = None

    def _service(self, facts: TableFacts) -> Any:
        from zeroconf import ServiceInfo

        return ServiceInfo(SERVICE_TYPE, f"{facts.instance()}.{SERVICE_TYPE}",
                           port=self.port, properties=facts.txt(),
                           server=f"chkobba-{facts.fingerprint.replace('-', '')}.local.",
                           parsed_addresses=self.addresses)

    async def start(self, facts: TableFacts) -> None:
        info = self._service(facts)

        def register() -> Any:
            zc = _zeroconf(self.interfaces)
            try:
                zc.register_service(info, allow_name_change=True)
            except BaseException:
                zc.close()
                raise
            return zc

        self._zc = await trio.to_thread.run_sync(register, abandon_on_cancel=False)
        self._info = info

    async def update(self, facts: TableFacts) -> None:
        if self._zc is None or self._info is None:
            return
        info = self._service(facts)
        info.name = self._info.name  # keep a name changed by a conflict
        await trio.to_thread.run_sync(self._zc.update_service, info)
        self._info = info

    async def close(self) -> None:
        zc, self._zc = self._zc, None
        if zc is None:
            return
        info, self._info = self._info, None

        def withdraw() -> None:
            with contextlib.suppress(Exception):
                if info is not None:
                    zc.unregister_service(info)
            zc.close()

        with trio.CancelScope(shield=True), trio.move_on_after(3):
            await trio.to_thread.run_sync(withdraw, abandon_on_cancel=True)


async def browse_tables(seconds: float, *, interfaces: Sequence[str] | None = None,
                        until: Callable[[list[TableAd]], bool] | None = None
                        ) -> list[TableAd]:
    """Browse the LAN for ``seconds`` (less once ``until(tables)`` is true); the tables
    found, each once (a table seen on several interfaces, or under several names, is
    listed once: by host key and port).  ``interfaces``: the addresses of the interfaces
    to use (None: all)."""
    from zeroconf import ServiceBrowser, ServiceStateChange

    token = trio.lowlevel.current_trio_token()
    send, receive = trio.open_memory_channel[str](_MAX_NAMES)

    def offer(name: str) -> None:  # in trio, via run_sync_soon
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            send.send_nowait(name)

    def on_change(zeroconf: Any, service_type: str, name: str,
                  state_change: Any) -> None:  # in zeroconf's thread: never block here
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(offer, name)

    zc = await trio.to_thread.run_sync(_zeroconf, interfaces)
    #: The latest resolution of each name, in the order first heard.
    found: dict[str, TableAd] = {}
    names: set[str] = set()
    resolving: set[str] = set()
    again: set[str] = set()  # names updated while their resolution was under way
    try:
        browser = await trio.to_thread.run_sync(
            lambda: ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change]))

        limiter = trio.CapacityLimiter(16)  # threads resolving at once

        async def resolve(name: str) -> None:
            # A resolution can miss its answer (a lost multicast packet, a busy
            # responder): ask again, longer each time, rather than drop the table from
            # this browse; the browse's own deadline ends the tries.
            resolving.add(name)
            try:
                for timeout_ms in _RESOLVE_TRIES_MS:
                    again.discard(name)
                    info = await trio.to_thread.run_sync(
                        zc.get_service_info, SERVICE_TYPE, name, timeout_ms,
                        abandon_on_cancel=True, limiter=limiter)
                    ad = TableAd.from_info(info) if info is not None else None
                    if ad is not None:
                        found[name] = ad
                        if until is not None and until(unique_tables(list(found.values()))):
                            done.set()
                        if name not in again:
                            return
            finally:
                resolving.discard(name)

        done = trio.Event()

        async def collect() -> None:
            async for name in receive:
                if name in resolving:
                    again.add(name)  # updated: its resolution reads it once more
                elif name in names:
                    nursery.start_soon(resolve, name)  # heard again: read it again
                elif name not in names and len(names) < _MAX_NAMES:
                    names.add(name)
                    nursery.start_soon(resolve, name)

        async with trio.open_nursery() as nursery:
            with trio.move_on_after(seconds):
                async with trio.open_nursery() as listening:
                    listening.start_soon(collect)
                    await done.wait()
                    listening.cancel_scope.cancel()
            if done.is_set():
                nursery.cancel_scope.cancel()
            # Names heard just before the end get 2 s more to resolve.
            nursery.cancel_scope.deadline = trio.current_time() + 2
        with contextlib.suppress(Exception):
            await trio.to_thread.run_sync(browser.cancel)
    finally:
        send.close()
        await _close(zc)
    return unique_tables(list(found.values()))


def unique_tables(tables: Sequence[TableAd]) -> list[TableAd]:
    """Each table once, by host key: announcements of one key (the same table heard on
    several interfaces, under a second name, or a neighbour announcing that key with an
    address of its own) become one table whose :attr:`~TableAd.endpoints` hold every
    (address, port) heard, each its own entry, in the order heard (at most
    ``_MAX_ENDPOINTS``, two per address); the join tries them in turn.  No announced
    address lists more than ``_PER_ADDRESS`` tables, and the list holds at most
    ``_MAX_TABLES``."""
    merged: dict[str, TableAd] = {}
    per_address: dict[str, int] = {}
    for ad in tables:
        key = ad.fingerprint or f"{ad.name}@{ad.target}"
        heard = ad.all_endpoints
        if key in merged:
            first = merged[key]
            endpoints = list(first.all_endpoints)
            for endpoint in heard:
                if endpoint not in endpoints and len(endpoints) < _MAX_ENDPOINTS and \
                        sum(a == endpoint[0] for a, _ in endpoints) < 2:
                    endpoints.append(endpoint)
            addresses = tuple(sorted({a for a, p in endpoints if p == first.port},
                                     key=lambda a: (":" in a, a)))
            merged[key] = dataclasses.replace(first, addresses=addresses,
                                              endpoints=tuple(endpoints))
            continue
        announcer = ad.addresses[0]
        if len(merged) >= _MAX_TABLES or per_address.get(announcer, 0) >= _PER_ADDRESS:
            continue
        per_address[announcer] = per_address.get(announcer, 0) + 1
        merged[key] = dataclasses.replace(ad, endpoints=heard[:_MAX_ENDPOINTS])
    return list(merged.values())


def host_addresses(bind: str) -> list[str]:
    """The addresses a host on ``bind`` announces: its LAN address and global IPv6
    address for a wildcard bind, else ``bind`` itself."""
    from .portmap import global_ipv6, lan_address

    if bind in ("0.0.0.0", "::", ""):
        return [lan_address()] + ([v6] if (v6 := global_ipv6()) else [])
    return [bind]
