"""Tables on the LAN: DNS-SD over multicast DNS (RFC 6763, RFC 6762), via ``zeroconf``.

A host announces its table as a service of type ``_chkobba._tcp`` while seats are free;
a joining peer browses for a few seconds and lists what it found.  Any DNS-SD browser
sees them too (``avahi-browse -r _chkobba._tcp``, ``dns-sd -B _chkobba._tcp``).  The TXT
record carries the table's facts (PROTOCOL.md section 15): ``v`` (protocol version),
``name``, ``players``, ``free``, ``rules``, ``spectators`` and ``fp``, the host key's
fingerprint, so a table found here is joined with its key pinned like a join code; and
``secret=1`` for a table with a seat secret (a join needs the host's whole code).

``zeroconf`` runs its own thread and asyncio loop, imported as on a Python without
:mod:`ssl` when nothing imported them before (:func:`_import_zeroconf`: asyncio's TLS,
which zeroconf never uses, is then unavailable in the process).  Everything that
blocks (starting, registering, which probes for about 1.5 s, resolving, closing) runs
in a trio worker thread; the browser's callbacks hand names to trio with
``TrioToken.run_sync_soon``, which never blocks the zeroconf thread.  The trio loop
never waits on zeroconf.

**Why a small part of our own.**  Everything in an announcement is the announcer's word,
so the limits that keep one neighbour from filling the list must be keyed on something it
does not write: the source address of the packet that carried the announcement (which the
LAN's switch and the announcer's own address give, not its text).  ``zeroconf``'s browser
hands on names and resolved records, never the packet's source.  So beside it a browse
sends its own one-shot query (RFC 6762 section 6.7, a "legacy unicast" query from a port
other than 5353, which responders answer by unicast, with the SRV, TXT and address records
as additionals) from a socket of its own, and reads the answers' source addresses.  The
packets are still built and parsed by ``zeroconf`` (``DNSOutgoing``, ``DNSIncoming``);
only the socket and the few lines that turn records into tables are ours.  Tables heard
only through ``zeroconf``'s browser (a lost unicast answer) count as one source, "unseen",
listed after those whose source was seen (PROTOCOL.md section 15).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import socket
import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from ..address import Address
from .events import ShellEvent

__all__ = ["SERVICE_TYPE", "TableFacts", "TableAd", "Announcer", "Announced", "browse_tables",
           "LanHeard", "UNSEEN", "SourceListener", "merge_tables", "AnsweredEndpoints",
           "host_addresses"]

SERVICE_TYPE = "_chkobba._tcp.local."
_MAX_TABLES = 64  # a LAN flooding us with announcements gets no more than this listed
#: No packet source (one machine, as far as the LAN tells them apart) lists more than this
#: many tables, so that one neighbour cannot fill the list before the others are heard.
_PER_SOURCE = 8
#: Sources heard in one browse: a flood of forged sources stops being read there.
_MAX_SOURCES = 256
#: Addresses one source may add to one table (key): its own, and a few more (a host on
#: several interfaces announces each).
_PER_SOURCE_ENDPOINTS = 4
#: Names heard and resolved at most in one browse (a flood stops being read there).
_MAX_NAMES = 1024
#: A name's resolution tries, in milliseconds each (a lost answer is asked again).
_RESOLVE_TRIES_MS = (1500, 3000, 3000, 6000)
#: Addresses one table (key) is listed with: at most this many, two per address.
_MAX_ENDPOINTS = 16
#: When the own query is sent, in seconds from the start of a browse (a lost packet is
#: asked again).
_QUERY_AT = (0.0, 1.0, 3.0)
#: Packets read in one browse, packets read from one source, and records read from one
#: source.  Packets are counted per source before they are parsed, so that one sender of
#: junk (it can read our port and query id off the multicast query) stops being read
#: after a few dozen and cannot use up the browse's budget; past that budget, only the
#: addresses of remembered endpoints are still read.
_MAX_PACKETS = 4096
_MAX_PACKETS_PER_SOURCE = 32
_MAX_RECORDS_PER_SOURCE = 512
#: The source of a table heard through ``zeroconf``'s browser only (its packet unseen).
UNSEEN = "unseen"
_MDNS_V4 = "224.0.0.251"
_MDNS_V6 = "ff02::fb"
_MDNS_PORT = 5353
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
    #: The table has a seat secret (PROTOCOL.md 5.5): its join code carries it, and a
    #: table found here cannot be sat at without it.
    secret: bool = False

    def txt(self) -> dict[str, str]:
        txt = {"v": str(self.version), "name": self.name, "players": str(self.players),
               "free": str(self.free), "rules": self.rules,
               "spectators": str(self.spectators), "fp": self.fingerprint}
        if self.secret:  # a table without one announces exactly as before
            txt["secret"] = "1"
        return txt

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
    #: The announcement says the table has a seat secret (``secret=1``): only the host's
    #: whole join code seats anyone there (the announcer's word, like everything here).
    secret: bool = False

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
        secret = ", needs the code with its secret" if self.secret else ""
        return (f"{self.name} at {self.target}{also}: {seats} players, {free} free, "
                f"{self.rules} rules, key {self.fingerprint or '?'}{secret}")

    @classmethod
    def from_info(cls, info: Any) -> TableAd | None:
        addresses = list(info.parsed_scoped_addresses())
        return cls.from_records(info.properties or {}, addresses, info.port)

    @classmethod
    def from_records(cls, properties: dict[Any, Any], addresses: Iterable[str],
                     port: Any) -> TableAd | None:
        """A table from an announcement's TXT properties, its addresses and its SRV port
        (None without an address or a port)."""
        props = {(k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)): v
                 for k, v in properties.items()}
        ordered = sorted(set(addresses), key=lambda a: (":" in a, a))
        if not ordered or not isinstance(port, int) or not 0 < port < 65536:
            return None
        fp = _text(props.get("fp"), 19)
        return cls(name=_text(props.get("name")), addresses=tuple(ordered),
                   port=port, players=_count(props.get("players")),
                   free=_count(props.get("free")), rules=_text(props.get("rules")),
                   spectators=_count(props.get("spectators")),
                   fingerprint=fp if _FINGERPRINT.match(fp) else None,
                   secret=_text(props.get("secret"), 2) == "1")


@dataclass(frozen=True)
class LanHeard:
    """One announcement as heard: the table it describes, and the source address of the
    packet that carried it (:data:`UNSEEN`: heard through ``zeroconf``'s browser, whose
    packets' sources stay out of sight)."""

    source: str
    ad: TableAd


class AnsweredEndpoints:
    """Endpoints whose host key answered a join before: ``(fingerprint, address, port)``,
    kept in a small file (``<data dir>/lan_answered``, one ``FINGERPRINT ADDRESS PORT`` a
    line, the newest last, at most :attr:`LIMIT`).  A table heard at a remembered endpoint
    with its remembered key keeps a place in the LAN list even when a flood of sources
    fills it (:func:`merge_tables`), and that endpoint is tried first.

    The file is read as untrusted: a line that is not one is skipped, a file too big or
    unreadable counts as empty; writing it is best effort (a read-only disk costs the
    remembering, never the join)."""

    LIMIT = 64
    _MAX_BYTES = 16384

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            from ..wire.logfile import data_dir

            path = data_dir() / "lan_answered"
        self.path = path
        self._entries: list[tuple[str, str, int]] = self._read()

    def _read(self) -> list[tuple[str, str, int]]:
        try:
            with open(self.path, "rb") as f:
                data = f.read(self._MAX_BYTES + 1)
        except OSError:
            return []
        if len(data) > self._MAX_BYTES:
            return []
        entries: list[tuple[str, str, int]] = []
        for line in data.decode("utf-8", "replace").splitlines():
            if (entry := self._parse(line)) is not None and entry not in entries:
                entries.append(entry)
        return entries[-self.LIMIT:]

    @staticmethod
    def _parse(line: str) -> tuple[str, str, int] | None:
        parts = line.split()
        if len(parts) != 3 or not _FINGERPRINT.match(parts[0]) or not parts[2].isdigit() \
                or not 0 < int(parts[2]) < 65536:
            return None
        try:
            Address(parts[1], int(parts[2]))
        except ValueError:
            return None
        return parts[0], parts[1], int(parts[2])

    def __contains__(self, entry: object) -> bool:
        return entry in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def addresses(self) -> set[str]:
        """The addresses remembered."""
        return {address for _, address, _ in self._entries}

    def endpoints(self) -> set[tuple[str, int]]:
        """The endpoints remembered, ``(address, port)``."""
        return {(address, port) for _, address, port in self._entries}

    def remember(self, fingerprint: str, address: str, port: int) -> None:
        """Note that ``fingerprint`` answered at ``address``:``port`` (written at once)."""
        entry = (fingerprint, address.partition("%")[0], port)
        line = f"{entry[0]} {entry[1]} {entry[2]}"
        if self._parse(line) is None:
            raise ValueError(f"not an endpoint to remember: {line!r}")
        if entry in self._entries:
            self._entries.remove(entry)
        self._entries = [*self._entries, entry][-self.LIMIT:]
        text = "".join(f"{fp} {a} {p}\n" for fp, a, p in self._entries)
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".new")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self.path)


def _import_zeroconf() -> None:
    """Import ``zeroconf``, and the asyncio it runs on, as on a Python without :mod:`ssl`
    (issue 44, a beaconing host's memory: ``ssl`` with the system's OpenSSL, 4.6 MB).

    asyncio imports ``ssl`` only for its TLS transports, and is written for a Python
    built without it (``try: import ssl`` / ``except ImportError: ssl = None``);
    ``zeroconf`` speaks plain multicast DNS and never asks for TLS.  So while zeroconf
    and asyncio are first imported, ``ssl`` in :data:`sys.modules` is ``None`` (an
    ``import ssl`` raises :class:`ImportError`), then the entry is removed: a later
    ``import ssl`` anywhere gets the real module.  What changes for the rest of the
    process is asyncio's TLS only: ``loop.create_connection(..., ssl=...)`` and its
    kin raise asyncio's own ``RuntimeError("stdlib ssl module not available")``.  A
    program that needs asyncio's TLS as well imports asyncio (or ssl) before it
    announces or browses: when either is already imported, nothing is changed."""
    if "zeroconf" in sys.modules:
        return
    absent = "asyncio" not in sys.modules and "ssl" not in sys.modules
    if absent:
        sys.modules["ssl"] = None  # type: ignore[assignment]
    try:
        import zeroconf  # noqa: F401
    finally:
        if absent and "ssl" in sys.modules and sys.modules["ssl"] is None:
            del sys.modules["ssl"]


def _bare(address: str) -> str:
    return address.partition("%")[0]


def merge_tables(heard: Sequence[LanHeard],
                 answered: AnsweredEndpoints | None = None) -> list[TableAd]:
    """Each table once, by host key, from announcements in the order heard.

    Announcements of one key (the same table heard on several interfaces, under a second
    name, or a neighbour announcing that key with an address of its own) become one table
    whose :attr:`~TableAd.endpoints` hold every (address, port) heard, each its own entry,
    tried in turn by a join: first an endpoint remembered in ``answered`` for that key,
    then those whose address is the source of the packet that announced them, then the
    rest, each group in the order heard.  The table's name and counts are those of the
    announcement of its first endpoint.

    Every limit is keyed on the packet's source, which the announcer does not write:
    at most ``_PER_SOURCE`` tables listed for one source, ``_PER_SOURCE_ENDPOINTS``
    addresses one source adds to a table, ``_MAX_SOURCES`` sources read (the others are
    dropped), ``_MAX_TABLES`` tables listed, ``_MAX_ENDPOINTS`` entries for a table (two
    per address).  Announcements whose source was seen count before those heard only
    through the browser (:data:`UNSEEN`, one source).  A table at a remembered endpoint
    of its remembered key is listed whatever the flood (beside the others, not counted
    against them)."""
    ordered = [h for h in heard if h.source != UNSEEN] + [h for h in heard if h.source == UNSEEN]
    remembered = answered if answered is not None else ()
    #: Per key: candidate endpoints as (rank, order heard, endpoint, announcement).
    candidates: dict[str, list[tuple[int, int, tuple[str, int], TableAd]]] = {}
    listed: list[str] = []
    kept: set[str] = set()  # keys listed for a remembered endpoint
    per_source: dict[str, int] = {}
    added: dict[tuple[str, str], set[tuple[str, int]]] = {}  # (source, key): endpoints
    for order, item in enumerate(ordered):
        ad, source = item.ad, _bare(item.source)
        key = ad.fingerprint or f"{ad.name}@{ad.target}"
        known = ad.fingerprint is not None and any(
            (ad.fingerprint, _bare(a), p) in remembered for a, p in ad.all_endpoints)
        if source not in per_source:
            if len(per_source) >= _MAX_SOURCES and not known:
                continue
            per_source[source] = 0
        if key not in candidates:
            if known and len(kept) < AnsweredEndpoints.LIMIT:
                kept.add(key)
            elif len(listed) - len(kept) >= _MAX_TABLES or per_source[source] >= _PER_SOURCE:
                continue
            else:
                per_source[source] += 1
            candidates[key] = []
            listed.append(key)
        mine = added.setdefault((source, key), set())
        for endpoint in ad.all_endpoints:
            # A link-local address keeps its zone (``fe80::1%eth0``) to be joined at; it
            # is compared without it.
            bare = (_bare(endpoint[0]), endpoint[1])
            if bare in mine:
                continue
            if len(mine) >= _PER_SOURCE_ENDPOINTS:
                break
            mine.add(bare)
            # Remembered first, then the packet's own source; among announcements of one
            # endpoint, the one its own address sent gives the table's name and counts.
            rank = (0 if ad.fingerprint is not None and (ad.fingerprint, *bare) in remembered
                    else 2) + (0 if bare[0] == source else 1)
            candidates[key].append((rank, order, endpoint, ad))
    tables: list[TableAd] = []
    for key in listed:
        endpoints: list[tuple[str, int]] = []
        first: TableAd | None = None
        for _, _, endpoint, ad in sorted(candidates[key], key=lambda c: (c[0], c[1])):
            if endpoint in endpoints or len(endpoints) >= _MAX_ENDPOINTS or \
                    sum(_bare(a) == _bare(endpoint[0]) for a, _ in endpoints) >= 2:
                continue
            endpoints.append(endpoint)
            first = first or ad
        if first is None:
            continue
        port = endpoints[0][1]
        addresses = tuple(dict.fromkeys(a for a, p in endpoints if p == port))
        tables.append(dataclasses.replace(first, addresses=addresses, port=port,
                                          endpoints=tuple(endpoints)))
    return tables


def _txt_properties(text: bytes) -> dict[bytes, bytes | None]:
    """A TXT record's ``key=value`` strings (RFC 6763 section 6): each string a length
    byte and its bytes; a key without ``=`` has no value; the first of a key counts."""
    props: dict[bytes, bytes | None] = {}
    i = 0
    while i < len(text):
        length = text[i]
        item = text[i + 1:i + 1 + length]
        i += 1 + length
        key, eq, value = item.partition(b"=")
        if key and key.lower() not in props:
            props[key.lower()] = value if eq else None
    return props


class _SourceRecords:
    """The records one source answered with, across its packets (bounded), and the
    tables they make, built again only when a record came in since."""

    def __init__(self) -> None:
        self.count = 0
        #: Tables built from these records so far (each announcement read, every time
        #: it was read): what a check costs, counted.
        self.built = 0
        self._tables: list[TableAd] | None = None  # None: a record came in since
        self.instances: dict[str, None] = {}  # in the order heard
        self.services: dict[str, tuple[int, str]] = {}  # instance: (port, host name)
        self.texts: dict[str, bytes] = {}
        self.addresses: dict[str, dict[str, None]] = {}  # host name: addresses

    def add(self, record: Any, scope: int | None = None) -> bool:
        """Take one record in (``scope``: the interface it came in on, for an IPv6
        link-local address); False once this source has said enough."""
        # zeroconf exports its record classes without naming them in ``__all__``:
        # ``mypy --strict`` (no implicit re-export) needs the ignore, plain mypy does not.
        _import_zeroconf()
        from zeroconf import (  # type: ignore[attr-defined, unused-ignore]
            DNSAddress,
            DNSPointer,
            DNSService,
            DNSText,
        )

        if self.count >= _MAX_RECORDS_PER_SOURCE:
            return False
        self.count += 1
        self._tables = None
        name = str(record.name).lower()
        if isinstance(record, DNSPointer) and name == SERVICE_TYPE.lower():
            self.instances.setdefault(str(record.alias).lower())
        elif isinstance(record, DNSService):
            self.services[name] = (int(record.port), str(record.server).lower())
        elif isinstance(record, DNSText):
            self.texts[name] = bytes(record.text)
        elif isinstance(record, DNSAddress):
            packed = bytes(record.address)
            family = socket.AF_INET6 if len(packed) == 16 else socket.AF_INET
            with contextlib.suppress(ValueError, OSError):
                text = socket.inet_ntop(family, packed)
                if scope is not None and text.lower().startswith("fe80:"):
                    text = f"{text}%{scope}"  # reachable only through that interface
                self.addresses.setdefault(name, {})[text] = None
        return True

    def tables(self, remembered: Collection[tuple[str, int]] = ()) -> list[TableAd]:
        """The tables announced, in the order heard: the first ``_PER_SOURCE`` only, as
        no more are listed for one source (:func:`merge_tables`), and beyond them, those
        at an endpoint in ``remembered`` (``(address, port)``, at most
        ``AnsweredEndpoints.LIMIT``), which may keep a place whatever the flood.  A
        source may say 512 records, about 160 tables: building them all at every check
        let 186 crafted sources cost 1.5 s of CPU a check (issue 42).  Kept until a
        record comes in."""
        if self._tables is not None:
            return self._tables
        found: list[TableAd] = []
        beyond = 0
        for instance in self.instances:
            service = self.services.get(instance)
            if service is None:
                continue
            port, host = service
            addresses = self.addresses.get(host)
            # Only a whole announcement (an address, a port) is built, and counted: one
            # that is not yet whole costs a look-up, not a read of its TXT.
            if not addresses or not 0 < port < 65536:
                continue
            if len(found) - beyond >= _PER_SOURCE:
                if beyond >= AnsweredEndpoints.LIMIT or not any(
                        (_bare(a), port) in remembered for a in addresses):
                    continue
                beyond += 1
            self.built += 1
            ad = TableAd.from_records(_txt_properties(self.texts.get(instance, b"")),
                                      addresses, port)
            if ad is not None:
                found.append(ad)
        self._tables = found
        return found


class SourceListener:
    """What the own query's answers said, by the source address of each packet
    (:meth:`feed` takes one packet; :meth:`heard` the tables so far)."""

    def __init__(self, query_id: int, answered: AnsweredEndpoints | None = None) -> None:
        self.query_id = query_id
        self.packets = 0
        #: Packets read by source address (at most ``_MAX_PACKETS`` sources, plus the
        #: remembered ones).
        self._read: dict[str, int] = {}
        self._sources: dict[str, _SourceRecords] = {}
        #: Read beyond ``_MAX_SOURCES``: the addresses of remembered endpoints, so that a
        #: flood of forged sources heard first cannot keep the table that answered
        #: before from being heard at all.
        self._remembered = answered.addresses() if answered is not None else set()
        self._endpoints = answered.endpoints() if answered is not None else set()

    def feed(self, data: bytes, source: tuple[Any, ...]) -> None:
        """One packet from ``source`` (as ``recvfrom`` gives it): taken in if it is an
        answer to our query; anything else, or garbage, is dropped without a word."""
        _import_zeroconf()
        from zeroconf import DNSIncoming  # type: ignore[attr-defined, unused-ignore]

        address = _bare(str(source[0]))
        read = self._read.get(address, 0)
        if read >= _MAX_PACKETS_PER_SOURCE or (
                self.packets >= _MAX_PACKETS and address not in self._remembered):
            return
        self._read[address] = read + 1
        self.packets += 1
        scope = int(source[3]) if len(source) > 3 and source[3] else None
        try:
            packet = DNSIncoming(data, (address, int(source[1])), scope)
        except Exception:  # zeroconf's parser on a stranger's bytes: any failure is a drop
            return
        if not packet.valid or not packet.is_response() or packet.id != self.query_id:
            return
        records = self._sources.get(address)
        if records is None:
            if len(self._sources) >= _MAX_SOURCES and (
                    address not in self._remembered
                    or len(self._sources) >= _MAX_SOURCES + AnsweredEndpoints.LIMIT):
                return
            records = self._sources[address] = _SourceRecords()
        for record in packet.answers():
            if not records.add(record, scope):
                break

    @property
    def built(self) -> int:
        """Tables built from the records heard so far, every time one was built: the
        work of the checks (:meth:`heard`), counted.  A check builds only the first
        tables of a source that said something since the last (bounded by the number
        of such sources), never those of a source that did not."""
        return sum(records.built for records in self._sources.values())

    def heard(self) -> list[LanHeard]:
        return [LanHeard(source, ad) for source, records in self._sources.items()
                for ad in records.tables(self._endpoints)]


def query_packets(query_id: int) -> list[bytes]:
    """Our one-shot query: a PTR question for the service type, from an ephemeral port
    (RFC 6762 section 6.7: answered by unicast, with the records as additionals)."""
    _import_zeroconf()
    from zeroconf import DNSOutgoing, DNSQuestion  # type: ignore[attr-defined, unused-ignore]
    from zeroconf.const import _CLASS_IN, _FLAGS_QR_QUERY, _TYPE_PTR

    out = DNSOutgoing(_FLAGS_QR_QUERY, multicast=False, id_=query_id)
    out.add_question(DNSQuestion(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN))
    return list(out.packets())


def _query_interfaces(interfaces: Sequence[str] | None) -> tuple[list[str], list[int]]:
    """The IPv4 addresses and the IPv6 interface indexes to send our query on."""
    import ifaddr

    adapters = list(ifaddr.get_adapters())
    if interfaces is None:  # as zeroconf's browser: every IPv4 interface
        return ([str(ip.ip) for adapter in adapters for ip in adapter.ips
                 if isinstance(ip.ip, str)], [])
    v4 = [i for i in interfaces if ":" not in i]
    v6 = [int(adapter.index) for adapter in adapters for ip in adapter.ips
          if not isinstance(ip.ip, str) and ip.ip[0] in {_bare(i) for i in interfaces}
          and adapter.index is not None]
    return v4, v6


async def _listen_sources(listener: SourceListener, interfaces: Sequence[str] | None,
                          on_packet: Callable[[], None]) -> None:
    """Send our query on each interface, then again (``_QUERY_AT``), and feed every
    answer to ``listener`` (then call ``on_packet``), until cancelled."""
    v4, v6 = _query_interfaces(interfaces)
    packets = query_packets(listener.query_id)
    sockets: list[tuple[trio.socket.SocketType, list[tuple[Any, ...]]]] = []
    # A socket that cannot be opened costs the sources, not the browse: zeroconf's
    # browser still hears the tables (as UNSEEN).
    if v4:
        with contextlib.suppress(OSError):
            sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sockets.append((sock, [(i,) for i in v4]))
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            await sock.bind(("0.0.0.0", 0))
    if v6:
        with contextlib.suppress(OSError):
            sock6 = trio.socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
            sockets.append((sock6, [(i,) for i in v6]))
            sock6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_LOOP, 1)
            await sock6.bind(("::", 0))

    async def send(sock: trio.socket.SocketType, targets: list[tuple[Any, ...]]) -> None:
        start = trio.current_time()
        for at in _QUERY_AT:
            await trio.sleep_until(start + at)
            for (target,) in targets:
                with contextlib.suppress(OSError):  # an interface gone: the others still
                    if sock.family == socket.AF_INET:
                        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                                        socket.inet_aton(target))
                        destination: tuple[Any, ...] = (_MDNS_V4, _MDNS_PORT)
                    else:
                        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF,
                                        target)
                        destination = (_MDNS_V6, _MDNS_PORT, 0, target)
                    for packet in packets:
                        await sock.sendto(packet, destination)

    async def read(sock: trio.socket.SocketType) -> None:
        while True:
            try:
                data, source = await sock.recvfrom(9000)
            except OSError:  # an ICMP error surfacing here: the next packet
                continue
            listener.feed(data, source)
            on_packet()

    try:
        async with trio.open_nursery() as nursery:
            for sock, targets in sockets:
                nursery.start_soon(read, sock)
                nursery.start_soon(send, sock, targets)
    finally:
        for sock, _ in sockets:
            sock.close()


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    _import_zeroconf()
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
        _import_zeroconf()
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
                        until: Callable[[list[TableAd]], bool] | None = None,
                        answered: AnsweredEndpoints | None = None) -> list[TableAd]:
    """Browse the LAN for ``seconds`` (less once ``until(tables)`` is true); the tables
    found, each once (a table seen on several interfaces, or under several names, is
    listed once: by host key), as :func:`merge_tables` lists them, with a place kept for
    an endpoint in ``answered``.  ``interfaces``: the addresses of the interfaces to use
    (None: all)."""
    _import_zeroconf()
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

    listener = SourceListener(int.from_bytes(os.urandom(2), "big") or 1, answered)
    #: The latest resolution of each name through zeroconf, in the order first heard.
    found: dict[str, TableAd] = {}

    def tables() -> list[TableAd]:
        return merge_tables([*listener.heard(), *(LanHeard(UNSEEN, ad) for ad in found.values())],
                            answered)

    done = trio.Event()

    def check() -> None:
        if until is not None and not done.is_set() and until(tables()):
            done.set()

    heard_more = trio.Event()

    def on_packet() -> None:
        heard_more.set()

    async def check_packets() -> None:
        # A merge per packet would let a flood spend our CPU (4096 packets of 256
        # sources); the packets of a tenth of a second are looked at together.
        nonlocal heard_more
        while until is not None:
            await heard_more.wait()
            heard_more = trio.Event()
            check()
            await trio.sleep(0.1)

    zc = await trio.to_thread.run_sync(_zeroconf, interfaces)
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
                        check()
                        if name not in again:
                            return
            finally:
                resolving.discard(name)

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
                    listening.start_soon(_listen_sources, listener, interfaces, on_packet)
                    listening.start_soon(check_packets)
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
    return tables()


def host_addresses(bind: str) -> list[str]:
    """The addresses a host on ``bind`` announces: its LAN address and global IPv6
    address for a wildcard bind, else ``bind`` itself."""
    from .transport import global_ipv6, lan_address

    if bind in ("0.0.0.0", "::", ""):
        return [lan_address()] + ([v6] if (v6 := global_ipv6()) else [])
    return [bind]
