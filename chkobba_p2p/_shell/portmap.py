"""Asking the home router to forward the host's port: UPnP IGD and NAT-PMP.

Friends beyond the LAN reach a host behind a home router only if the router forwards
the table's TCP port to it.  A host asks, in the background, the way the P2P programs
people trust do:

* **UPnP IGD**: SSDP discovery of the router on the LAN (multicast), its root
  description read, then SOAP calls ``AddPortMapping``, ``GetExternalIPAddress`` and,
  when the table closes, ``DeletePortMapping``.  Spoken here in trio over a small HTTP
  exchange that reads at most 64 KiB of any answer (:data:`UPNP_ANSWER_LIMIT`): the
  router is a stranger's box as far as the code knows.  (``miniupnpc``, used before,
  blocks in C, reads a description of any size into memory and cannot be stopped: a
  timeout abandoned its thread, which went on reading a 300 MB description.)
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
import re
import socket
import struct
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from .events import ShellEvent
from .transport import global_ipv6, lan_address

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

# The XML modules are imported when a router is asked, not with this module: every peer
# imports it (for its options and addresses), few map a port, and xml.sax.saxutils pulls
# in urllib.request, http.client and email (some 1.5 MB a peer, issue 44).

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
    "UPNP_ANSWER_LIMIT",
    "UpnpError",
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
class PortMapped(ShellEvent):
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
class PortMapUnavailable(ShellEvent):
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

#: The most a router's answer (a root description, a SOAP reply, an SSDP datagram) may
#: hold, head and body together: a real one is a few KiB; a larger one is refused.
UPNP_ANSWER_LIMIT = 64 * 1024
_SSDP = ("239.255.255.250", 1900)
_IGD = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"
_WAN_SERVICES = ("urn:schemas-upnp-org:service:WANIPConnection:2",
                 "urn:schemas-upnp-org:service:WANIPConnection:1",
                 "urn:schemas-upnp-org:service:WANPPPConnection:1")


class UpnpError(Exception):
    """A UPnP router answered with an error (``code``, from its SOAP fault), or with
    something that is not a UPnP answer."""

    def __init__(self, text: str, code: int = 0) -> None:
        super().__init__(text)
        self.code = code


def _clip(text: str, limit: int = 120) -> str:
    """A router's text, cut to a length a message may quote (shown through the display
    filter by whoever shows it)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _dechunk(body: bytes) -> bytes:
    out = bytearray()
    while True:
        size_line, sep, body = body.partition(b"\r\n")
        if not sep:
            raise UpnpError("a truncated chunked answer")
        try:
            size = int(size_line.split(b";")[0].strip() or b"x", 16)
        except ValueError:
            raise UpnpError("a malformed chunked answer") from None
        if size == 0:
            return bytes(out)
        out += body[:size]
        body = body[size + 2:]


async def _http(url: str, body: bytes = b"", headers: dict[str, str] | None = None
                ) -> tuple[int, bytes, str]:
    """One HTTP/1.1 exchange with a router: (status, body, our own address as the router
    sees it).  A POST when ``body`` is given, else a GET.  Reads at most
    :data:`UPNP_ANSWER_LIMIT` bytes: a larger answer raises :class:`UpnpError` at once.
    Pure trio, so the caller's deadline stops it (no thread is left reading)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise UpnpError(f"not an http URL: {_clip(url)}")
    port = parts.port or 80
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    lines = [f"{'POST' if body else 'GET'} {path} HTTP/1.1", f"Host: {host}:{port}",
             "Connection: close", f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    stream = await trio.open_tcp_stream(parts.hostname, port)
    async with stream:
        lan_ip = str(stream.socket.getsockname()[0])
        await stream.send_all("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
        data = bytearray()
        length: int | None = None
        while True:
            chunk = await stream.receive_some(16384)
            if not chunk:
                break
            data += chunk
            if len(data) > UPNP_ANSWER_LIMIT:
                raise UpnpError(f"an answer larger than {UPNP_ANSWER_LIMIT // 1024} KiB")
            if length is None and b"\r\n\r\n" in data:
                head = bytes(data).partition(b"\r\n\r\n")[0].lower()
                found = re.search(rb"\r\ncontent-length:\s*(\d+)", head)
                length = len(head) + 4 + int(found.group(1)) if found else -1
            if length is not None and length >= 0 and len(data) >= length:
                break
    head, sep, rest = bytes(data).partition(b"\r\n\r\n")
    status = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    if not sep or status is None:
        raise UpnpError("not an HTTP answer")
    if re.search(rb"\r\ntransfer-encoding:\s*chunked", head.lower()):
        rest = _dechunk(rest)
    elif length is not None and length >= 0:
        rest = rest[:length - len(head) - 4]
    return int(status.group(1)), rest, lan_ip


def _children(element: ET.Element) -> dict[str, str]:
    """The text of ``element``'s children by local name (namespaces dropped)."""
    return {child.tag.rpartition("}")[2]: (child.text or "").strip() for child in element}


#: What a router's XML may not hold: a document type declaration or an entity
#: declaration (a billion-laughs description expands a few hundred bytes into
#: gigabytes; expat's amplification limit refuses it only after some 50 MB).  A
#: description or a SOAP answer needs neither.
_DTD = re.compile(rb"<!\s*(?:doctype|entity)", re.IGNORECASE)
#: The encodings in which that check sees the document's bytes as they are.
_ASCII_LIKE = {b"utf-8", b"utf8", b"us-ascii", b"ascii", b"iso-8859-1", b"latin-1",
               b"latin1"}


def _xml(data: bytes) -> ET.Element:
    """A router's XML answer parsed, or :class:`UpnpError`.  Refused before any parsing:
    more than :data:`UPNP_ANSWER_LIMIT` bytes, a DTD or an entity declaration
    (``<!DOCTYPE``, ``<!ENTITY``, any case), and an encoding in which those would not
    show as ASCII bytes (UTF-16 or UTF-32: a NUL byte; EBCDIC: no ``<`` first; a
    declared encoding other than UTF-8, ASCII or Latin-1)."""
    if len(data) > UPNP_ANSWER_LIMIT:
        raise UpnpError(f"an answer larger than {UPNP_ANSWER_LIMIT // 1024} KiB")
    if b"\x00" in data or not data.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<"):
        raise UpnpError("XML not in UTF-8: refused unparsed")
    declared = re.match(rb"(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*[\"']([^\"']*)",
                        data)
    if declared is not None and declared.group(1).strip().lower() not in _ASCII_LIKE:
        raise UpnpError("XML not in UTF-8: refused unparsed")
    if _DTD.search(data):
        raise UpnpError("XML with a DTD or an entity declaration: refused unparsed")
    import xml.etree.ElementTree as ET

    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise UpnpError(f"not XML ({exc})") from None


def _control_url(description: bytes, base_url: str) -> tuple[str, str]:
    """(control URL, service type) of the router's WAN connection service, from its root
    description."""
    root = _xml(description)
    base = next((e.text.strip() for e in root.iter() if e.tag.rpartition("}")[2] == "URLBase"
                 and e.text and e.text.strip()), base_url)
    found: dict[str, str] = {}
    for element in root.iter():
        if element.tag.rpartition("}")[2] == "service":
            fields = _children(element)
            if fields.get("serviceType") in _WAN_SERVICES and fields.get("controlURL"):
                found.setdefault(fields["serviceType"], fields["controlURL"])
    for service in _WAN_SERVICES:
        if service in found:
            return urllib.parse.urljoin(base, found[service]), service
    raise UpnpError("no WAN connection service in the router's description")


async def _ssdp_locations(discover_ms: int) -> list[str]:
    """The description URLs of the Internet Gateway Devices that answer an SSDP search on
    the LAN within ``discover_ms``."""
    search = ("M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\n"
              f'MAN: "ssdp:discover"\r\nMX: {max(1, discover_ms // 1000)}\r\n'
              f"ST: {_IGD}\r\n\r\n").encode()
    found: list[str] = []
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
        await sock.bind(("0.0.0.0", 0))
        await sock.sendto(search, _SSDP)
        with trio.move_on_after(discover_ms / 1000):
            while True:
                data = (await sock.recvfrom(UPNP_ANSWER_LIMIT))[0]
                where = re.search(rb"\r\nlocation:[ \t]*([^\r\n]+)", data.lower())
                if where is not None:
                    # the URL as sent (its case matters), at the place the search found
                    start = where.start(1)
                    url = data[start:where.end(1)].decode("latin-1").strip()
                    if url not in found:
                        found.append(url)
    return found


class _Upnp:
    """One UPnP Internet Gateway Device: its WANIPConnection (or WANPPPConnection) control
    URL, spoken to in SOAP over bounded HTTP (:func:`_http`)."""

    def __init__(self, control_url: str, service: str, lan_ip: str) -> None:
        self.control_url = control_url
        self.service = service
        self.lan_ip = lan_ip

    @classmethod
    async def find(cls, options: PortMapOptions) -> _Upnp:
        urls = [options.igd_url] if options.igd_url else \
            await _ssdp_locations(options.discover_ms)
        if not urls:
            raise UpnpError("no UPnP router answered on the LAN")
        why: Exception = UpnpError("no UPnP router")
        for url in urls:
            try:
                status, description, lan_ip = await _http(url)
                if status != 200:
                    raise UpnpError(f"HTTP {status} for the description")
                return cls(*_control_url(description, url), lan_ip)
            except (UpnpError, OSError) as exc:
                why = exc
        raise why

    async def _call(self, action: str, **args: object) -> dict[str, str]:
        from xml.sax.saxutils import escape as xml_escape

        inner = "".join(f"<{k}>{xml_escape(str(v))}</{k}>" for k, v in args.items())
        body = ('<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/'
                'soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">'
                f'<s:Body><u:{action} xmlns:u="{self.service}">{inner}</u:{action}>'
                "</s:Body></s:Envelope>\r\n").encode()
        status, data, _ = await _http(self.control_url, body, {
            "Content-Type": 'text/xml; charset="utf-8"',
            "SOAPAction": f'"{self.service}#{action}"'})
        root = _xml(data)
        for element in root.iter():
            name = element.tag.rpartition("}")[2]
            if name == "UPnPError":
                fields = _children(element)
                code = int(fields.get("errorCode", "0")) if \
                    fields.get("errorCode", "").isdigit() else 0
                raise UpnpError(_clip(f"{code} {fields.get('errorDescription', '')}".strip()),
                                code)
            if name == f"{action}Response":
                return _children(element)
        raise UpnpError(f"HTTP {status} with no answer to {action}")

    async def add(self, port: int, lease: int) -> tuple[int, int]:
        """Map TCP ``port`` to ours; returns (external port, lease granted)."""
        args = {"NewRemoteHost": "", "NewExternalPort": port, "NewProtocol": "TCP",
                "NewInternalPort": port, "NewInternalClient": self.lan_ip, "NewEnabled": 1,
                "NewPortMappingDescription": _DESCRIPTION, "NewLeaseDuration": lease}
        try:
            await self._call("AddPortMapping", **args)
            return port, lease
        except UpnpError as exc:
            if exc.code == 725 and lease:  # OnlyPermanentLeasesSupported
                await self._call("AddPortMapping", **{**args, "NewLeaseDuration": 0})
                return port, 0
            if exc.code != 718:  # ConflictInMappingEntry
                raise
        # The port is another machine's on this router: ask for any free one (IGD v2).
        answer = await self._call("AddAnyPortMapping", **args)
        try:
            return int(answer.get("NewReservedPort", "")), lease
        except ValueError:
            raise UpnpError("no port in the answer to AddAnyPortMapping") from None

    async def external_ip(self) -> str | None:
        try:
            ip = (await self._call("GetExternalIPAddress")).get("NewExternalIPAddress", "")
        except (UpnpError, OSError):
            return None
        return _clip(ip, 64) if ip and ip != "0.0.0.0" else None

    async def delete(self, external_port: int) -> None:
        try:
            await self._call("DeletePortMapping", NewRemoteHost="",
                             NewExternalPort=external_port, NewProtocol="TCP")
        except UpnpError as exc:
            if exc.code != 714:  # NoSuchEntryInArray: nothing to remove
                raise


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
        self._upnp: tuple[_Upnp, int] | None = None  # the router holding our mapping
        self._natpmp: tuple[str, int] | None = None  # the gateway holding our mapping
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
        try:
            router = await _Upnp.find(self.options)
            self._lan_ip = router.lan_ip
            self._upnp = (router, self.port)  # from here on, a mapping may exist
            external, lease = await router.add(self.port, self.options.lease)
            self._upnp = (router, external)
            ip = await router.external_ip()
        except (UpnpError, OSError, ValueError) as exc:
            reasons.append(f"UPnP: {_why(exc)}")
            return 0
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
            return (await router.add(self.port, lease))[1]
        return 0

    async def remove(self, timeout: float = 3.0) -> str | None:
        """Remove the mapping (and any an abandoned attempt made), within ``timeout``
        seconds, even when the caller is being cancelled.  Returns why a UPnP mapping
        could not be removed (the host reports it to its controller: it lapses at the
        end of its lease), None when nothing is left behind."""
        kept: str | None = None
        upnp, self._upnp = self._upnp, None
        natpmp, self._natpmp = self._natpmp, None
        with trio.CancelScope(shield=True), trio.move_on_after(timeout):
            if upnp is not None:
                router, external = upnp
                try:
                    await router.delete(external)
                except (UpnpError, OSError, ValueError) as exc:
                    kept = _why(exc)
            if natpmp is not None:
                with contextlib.suppress(NatPmpError, OSError):
                    await _natpmp_exchange(natpmp, natpmp_map_request(self.port, 0, 0))
        return kept
