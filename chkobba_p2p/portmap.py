"""Asking the home router to forward the host's port: UPnP IGD and NAT-PMP.

Friends beyond the LAN reach a host behind a home router only if the router forwards
the table's TCP port to it.  A host asks, in the background, the way the P2P programs
people trust do:

* **UPnP IGD** through ``miniupnpc`` (the library most of them use): SSDP discovery of
  the router on the LAN (multicast), then SOAP calls ``AddPortMapping``,
  ``GetExternalIPAddress`` and, when the table closes, ``DeletePortMapping``.
  miniupnpc blocks, so it runs in a worker thread.
* **NAT-PMP** (RFC 6886), a two-message UDP exchange with the default gateway.  The one
  Python package for it (``py-natpmp``) is a 2008 code base that finds the gateway by
  running ``netstat``, reaches it only on the fixed port 5351 through a module global,
  blocks in ``select`` and implements part of the draft; the protocol is small enough
  that a sans-IO codec of our own (below, ~60 lines) and a trio shell are the smaller,
  testable thing.  PCP (RFC 6887) is not spoken.

Nothing here may delay a game: :class:`PortMapper` runs as a background task with a
short overall timeout, reports :class:`PortMapped` or :class:`PortMapUnavailable` to the
host's controller, renews the lease while the table is open and removes the mapping
when it closes (also when it is cancelled: Ctrl-C).  A host that crashes leaves its
mapping until the lease ends (one hour at most); restarted on the same port (crash
resume) it maps the same port again and removes it at the end.

The discovery targets are injectable (:class:`PortMapOptions` ``igd_url`` and
``natpmp_gateway``): tests point them at a fake router on loopback; a user may point
them at a router that discovery does not find.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import threading
from dataclasses import dataclass
from typing import Any

import trio

__all__ = [
    "PortMapOptions",
    "PortMapped",
    "PortMapUnavailable",
    "PortMapper",
    "NatPmpError",
    "natpmp_address_request",
    "natpmp_map_request",
    "natpmp_parse_address",
    "natpmp_parse_map",
    "default_gateway",
    "lan_address",
    "global_ipv6",
    "NATPMP_PORT",
]

NATPMP_PORT = 5351
#: A router whose own address is in one of these sits behind another NAT.
_BEHIND_NAT = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7", "fe80::/10"))
_DESCRIPTION = "chkobba table"


@dataclass(frozen=True)
class PortMapOptions:
    """How a host asks its router to forward its port (:attr:`HostConfig.port_mapping`).

    ``igd_url``: the router's UPnP root description URL (``http://192.168.1.1:5000/
    rootDesc.xml``); None: find the router by SSDP multicast for ``discover_ms``.
    ``natpmp_gateway``: ``HOST`` or ``HOST:PORT`` of a NAT-PMP gateway; None: this
    machine's default gateway, port 5351.  ``timeout``: seconds for the whole attempt
    (the game goes on meanwhile).  ``lease``: seconds a mapping lives, renewed at half."""

    upnp: bool = True
    natpmp: bool = True
    igd_url: str | None = None
    natpmp_gateway: str | None = None
    discover_ms: int = 2000
    timeout: float = 8.0
    lease: int = 3600


@dataclass(frozen=True)
class PortMapped:
    """The router forwards TCP ``external_port`` on its public address ``external_ip``
    (None if it did not say) to this host's port; ``method`` is ``"UPnP"`` or
    ``"NAT-PMP"``.  Friends on the internet use ``external_ip:external_port``."""

    external_ip: str | None
    external_port: int
    method: str

    @property
    def public(self) -> bool:
        """Whether the router's own address is a public one.  A private or shared
        (100.64.0.0/10) address means another NAT sits in front of the router (a second
        router, or the provider's carrier-grade NAT): the mapping opens nothing that
        friends on the internet can reach."""
        if self.external_ip is None:
            return True  # unknown: the router did not say
        try:
            ip = ipaddress.ip_address(self.external_ip)
        except ValueError:
            return False
        return not any(ip in net for net in _BEHIND_NAT if net.version == ip.version)

    @property
    def address(self) -> str | None:
        if self.external_ip is None:
            return None
        ip = self.external_ip
        return f"[{ip}]:{self.external_port}" if ":" in ip else f"{ip}:{self.external_port}"


@dataclass(frozen=True)
class PortMapUnavailable:
    """No router forwarded the port: ``reason`` says what was tried; :attr:`hint` is the
    line to show (how to forward ``port`` to ``lan_ip`` by hand)."""

    reason: str
    port: int
    lan_ip: str

    @property
    def hint(self) -> str:
        return (f"no router opened the port ({self.reason}); for friends on the internet, "
                f"forward TCP port {self.port} to {self.lan_ip} in your router's settings")


class NatPmpError(Exception):
    """A NAT-PMP gateway answered with an error, or with something that is not NAT-PMP."""


# ------------------------------------------------------------------ NAT-PMP codec

_RESULTS = {1: "unsupported version", 2: "refused (not authorized)",
            3: "network failure", 4: "out of resources", 5: "unsupported opcode"}


def natpmp_address_request() -> bytes:
    """RFC 6886 3.2: version 0, opcode 0."""
    return b"\x00\x00"


def natpmp_map_request(internal_port: int, external_port: int, lifetime: int) -> bytes:
    """RFC 6886 3.3: map a TCP port (opcode 2); ``lifetime`` 0 with ``external_port`` 0
    deletes the mapping."""
    return struct.pack("!BBHHHI", 0, 2, 0, internal_port, external_port, lifetime)


def _check(data: bytes, opcode: int, size: int) -> None:
    if len(data) < size or data[0] != 0 or data[1] != 128 + opcode:
        raise NatPmpError(f"not a NAT-PMP answer ({len(data)} bytes)")
    result = struct.unpack("!H", data[2:4])[0]
    if result:
        raise NatPmpError(_RESULTS.get(result, f"error {result}"))


def natpmp_parse_address(data: bytes) -> str:
    """The public IPv4 address from an answer to :func:`natpmp_address_request`."""
    _check(data, 0, 12)
    return socket.inet_ntoa(data[8:12])


def natpmp_parse_map(data: bytes, internal_port: int) -> tuple[int, int]:
    """(external port, lifetime) from an answer to :func:`natpmp_map_request`."""
    _check(data, 2, 16)
    internal, external, lifetime = struct.unpack("!HHI", data[8:16])
    if internal != internal_port:
        raise NatPmpError(f"an answer for port {internal}, not {internal_port}")
    return external, lifetime


def default_gateway() -> str | None:
    """This machine's IPv4 default gateway (Linux: from ``/proc/net/route``), or None."""
    try:
        with open("/proc/net/route") as f:
            lines = f.read(65536).splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 3 and fields[1] == "00000000":
            with contextlib.suppress(ValueError):
                if int(fields[3], 16) & 2:  # RTF_GATEWAY
                    return socket.inet_ntoa(struct.pack("<I", int(fields[2], 16)))
    return None


def lan_address() -> str:
    """This machine's IPv4 address on its LAN (the one friends nearby type), or
    127.0.0.1.  Sends nothing: a UDP "connect" only picks the route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        return str(s.getsockname()[0])
    return "127.0.0.1"


def global_ipv6() -> str | None:
    """This machine's global IPv6 address (reachable from the internet unless a firewall
    says no, with no port mapping), or None.  Sends nothing."""
    with contextlib.suppress(OSError, ValueError), \
            socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
        s.connect(("2001:4860::1", 9))  # a route to the internet, if any
        ip = ipaddress.IPv6Address(s.getsockname()[0].split("%", 1)[0])
        if ip.is_global:
            return str(ip)
    return None


def _split_gateway(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    return host, int(port) if port else NATPMP_PORT


async def _natpmp_exchange(gateway: tuple[str, int], request: bytes) -> bytes:
    """Send ``request``, wait 250 ms, 500 ms, 1 s for an answer (RFC 6886 3.1, cut
    short); an ICMP "port unreachable" ends it at once."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with sock:
        await sock.connect(gateway)  # only the gateway's answers reach us
        wait = 0.25
        for _ in range(3):
            await sock.send(request)
            with trio.move_on_after(wait):
                return await sock.recv(64)
            wait *= 2
    raise NatPmpError("no answer")


# ------------------------------------------------------------------------- UPnP


class _Upnp:
    """One router found by miniupnpc.  Blocking: call from a worker thread only."""

    def __init__(self, igd_url: str | None, discover_ms: int) -> None:
        import miniupnpc  # a C extension: loaded only when a host maps a port

        self.u: Any = miniupnpc.UPnP()
        if igd_url:
            self.u.selectigd(igd_url)
        else:
            self.u.discoverdelay = discover_ms
            self.u.discover()  # SSDP multicast; raises when nothing answers
            self.u.selectigd()
        self.lan_ip = str(self.u.lanaddr) or lan_address()

    def add(self, port: int, lease: int) -> tuple[int, int]:
        """Map TCP ``port`` to ours; returns (external port, lease granted)."""
        try:
            self.u.addportmapping(port, "TCP", self.lan_ip, port, _DESCRIPTION, "", lease)
            return port, lease
        except Exception as exc:
            if "OnlyPermanentLeasesSupported" in str(exc) and lease:
                self.u.addportmapping(port, "TCP", self.lan_ip, port, _DESCRIPTION, "", 0)
                return port, 0
            if "ConflictInMappingEntry" not in str(exc):
                raise
        # The port is another machine's on this router: ask for any free one (IGD v2).
        external = self.u.addanyportmapping(port, "TCP", self.lan_ip, port, _DESCRIPTION,
                                            "", lease)
        return int(external), lease

    def external_ip(self) -> str | None:
        try:
            ip = str(self.u.externalipaddress())
        except Exception:
            return None
        return ip if ip and ip != "0.0.0.0" else None

    def delete(self, external_port: int) -> None:
        self.u.deleteportmapping(external_port, "TCP")


class _UpnpJob:
    """A UPnP mapping made in a worker thread that the trio side may abandon (timeout,
    cancellation): whatever the thread achieves after that is still known here, under
    the lock, so that it is removed, never left on the router."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.abandoned = False
        self.router: _Upnp | None = None
        self.external_port = 0

    def run(self, options: PortMapOptions, port: int) -> tuple[str | None, int, int, str]:
        router = _Upnp(options.igd_url, options.discover_ms)
        external, lease = router.add(port, options.lease)
        with self.lock:
            self.router, self.external_port = router, external
            if self.abandoned:
                self.router = None
                router.delete(external)
                raise RuntimeError("abandoned")
        return router.external_ip(), external, lease, router.lan_ip

    def take(self) -> tuple[_Upnp, int] | None:
        """Abandon the job; the mapping it made, if any, for the caller to remove."""
        with self.lock:
            self.abandoned = True
            router, self.router = self.router, None
        return (router, self.external_port) if router is not None else None


# ------------------------------------------------------------------------ mapper


def _why(exc: BaseException) -> str:
    text = str(exc).strip()
    if isinstance(exc, (ConnectionRefusedError, ConnectionResetError)):
        return "no answer"
    return text or type(exc).__name__


class PortMapper:
    """Maps one TCP port for as long as :meth:`run` runs; :meth:`remove` undoes it.

    ``emit`` receives one :class:`PortMapped` or :class:`PortMapUnavailable`."""

    def __init__(self, options: PortMapOptions, port: int, emit: Any) -> None:
        self.options = options
        self.port = port
        self.emit = emit
        self.mapped: PortMapped | None = None
        self._upnp: tuple[_Upnp, int] | None = None
        self._natpmp: tuple[str, int] | None = None  # the gateway holding our mapping
        self._jobs: list[_UpnpJob] = []
        self._lan_ip: str | None = None  # as the router saw us (UPnP)
        self.done = trio.Event()  # the outcome was reported

    async def run(self) -> None:
        """Try each method in turn within ``options.timeout``; report; then renew the
        lease until cancelled.  Never raises (a router is no reason to stop a game)."""
        reasons: list[str] = []
        lease = self.options.lease
        with trio.move_on_after(self.options.timeout) as scope:
            if self.options.natpmp:
                lease = await self._try_natpmp(reasons)
            if self.mapped is None and self.options.upnp:
                lease = await self._try_upnp(reasons)
        if scope.cancelled_caught:
            reasons.append(f"no answer within {self.options.timeout:g} s")
        if self.mapped is None:
            self.emit(PortMapUnavailable("; ".join(reasons) or "nothing tried", self.port,
                                         self._lan_ip or lan_address()))
            self.done.set()
            return
        self.emit(self.mapped)
        self.done.set()
        while lease > 0:
            await trio.sleep(max(30, lease // 2))
            with contextlib.suppress(Exception), trio.move_on_after(self.options.timeout):
                lease = await self._renew(lease)

    async def _try_natpmp(self, reasons: list[str]) -> int:
        gw_text = self.options.natpmp_gateway or default_gateway()
        if gw_text is None:
            reasons.append("NAT-PMP: no default gateway")
            return 0
        gateway = _split_gateway(gw_text)
        try:
            request = natpmp_map_request(self.port, self.port, self.options.lease)
            self._natpmp = gateway  # from here on, a mapping may exist: remove() asks
            external, lease = natpmp_parse_map(await _natpmp_exchange(gateway, request),
                                               self.port)
            try:
                ip: str | None = natpmp_parse_address(
                    await _natpmp_exchange(gateway, natpmp_address_request()))
            except (NatPmpError, OSError):
                ip = None
            if ip == "0.0.0.0":  # RFC 6886 3.2: the router has no public address yet
                ip = None
        except (NatPmpError, OSError) as exc:
            self._natpmp = None
            reasons.append(f"NAT-PMP: {_why(exc)}")
            return 0
        self.mapped = PortMapped(ip, external, "NAT-PMP")
        return lease

    async def _try_upnp(self, reasons: list[str]) -> int:
        job = _UpnpJob()
        self._jobs.append(job)
        try:
            ip, external, lease, lan = await trio.to_thread.run_sync(
                job.run, self.options, self.port, abandon_on_cancel=True)
        except Exception as exc:
            reasons.append(f"UPnP: {_why(exc)}")
            return 0
        self._lan_ip = lan
        self._upnp = job.take()
        self._jobs.remove(job)
        self.mapped = PortMapped(ip, external, "UPnP")
        return lease

    async def _renew(self, lease: int) -> int:
        if self._natpmp is not None:
            external = self.mapped.external_port if self.mapped else self.port
            data = await _natpmp_exchange(
                self._natpmp, natpmp_map_request(self.port, external, self.options.lease))
            return natpmp_parse_map(data, self.port)[1]
        if self._upnp is not None:
            router, _ = self._upnp
            return (await trio.to_thread.run_sync(router.add, self.port, lease,
                                                  abandon_on_cancel=True))[1]
        return 0

    async def remove(self, timeout: float = 3.0) -> str | None:
        """Remove the mapping (and any an abandoned attempt made), within ``timeout``
        seconds, even when the caller is being cancelled.  Returns why a UPnP mapping
        could not be removed (the host reports it to its controller: it lapses at the
        end of its lease), None when nothing is left behind."""
        kept: str | None = None
        held = [self._upnp] + [job.take() for job in self._jobs]
        self._upnp = None
        self._jobs = []
        natpmp, self._natpmp = self._natpmp, None
        with trio.CancelScope(shield=True), trio.move_on_after(timeout):
            for item in held:
                if item is not None:
                    router, external = item
                    try:
                        await trio.to_thread.run_sync(router.delete, external,
                                                      abandon_on_cancel=True)
                    except Exception as exc:
                        kept = _why(exc)
            if natpmp is not None:
                with contextlib.suppress(NatPmpError, OSError):
                    await _natpmp_exchange(natpmp, natpmp_map_request(self.port, 0, 0))
        return kept
