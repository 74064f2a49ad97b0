"""A home router on loopback, for the port-mapping tests (no tests here).

:class:`FakeIgd` is a UPnP Internet Gateway Device as far as a client can tell: a root
description over HTTP and a SOAP control endpoint for WANIPConnection
(``AddPortMapping``, ``GetExternalIPAddress``, ``DeletePortMapping``).
:class:`FakeNatPmp` answers NAT-PMP (RFC 6886) over UDP.  Both record what they were
asked, and can be told to hold every answer until the test releases them (a slow
router).  Written from the specifications, independently of the client code.
"""

from __future__ import annotations

import contextlib
import re
import socket
import struct

import trio

PUBLIC_IP = "203.0.113.7"

_ROOT = """<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0">
<specVersion><major>1</major><minor>0</minor></specVersion>
<device>
<deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType>
<friendlyName>fake router</friendlyName>
<deviceList><device>
<deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType>
<serviceList><service>
<serviceType>urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANCommonIFC1</serviceId>
<controlURL>/ctl/CmnIfCfg</controlURL><eventSubURL>/evt/CmnIfCfg</eventSubURL>
<SCPDURL>/WANCfg.xml</SCPDURL>
</service></serviceList>
<deviceList><device>
<deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType>
<serviceList><service>
<serviceType>urn:schemas-upnp-org:service:WANIPConnection:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
<controlURL>/ctl/IPConn</controlURL><eventSubURL>/evt/IPConn</eventSubURL>
<SCPDURL>/WANIPCn.xml</SCPDURL>
</service></serviceList>
</device></deviceList>
</device></deviceList>
</device>
</root>
"""

_ENVELOPE = ('<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/'
             'envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">'
             "<s:Body>{}</s:Body></s:Envelope>\r\n")
_SERVICE = "urn:schemas-upnp-org:service:WANIPConnection:1"


def _response(status: str, body: str) -> bytes:
    data = body.encode()
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/xml; charset=\"utf-8\"\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode() + data


class FakeIgd:
    """``calls``: (action, {argument: value}) in order; ``mappings``: external port ->
    (internal client, internal port, lease) currently held."""

    def __init__(self, *, hold: bool = False, public_ip: str = PUBLIC_IP,
                 description_size: int = 0, add_fault: str | None = None,
                 description: str | None = None) -> None:
        self.public_ip = public_ip
        self.description = description if description is not None else _ROOT
        #: a root description of this many bytes (padding made on the fly while it is
        #: sent, never held): ``sent`` counts what actually left
        self.description_size = description_size
        self.sent = 0
        self.add_fault = add_fault  # AddPortMapping answers this UPnPError text
        self.hung_up = trio.Event()  # a client closed its side while held
        self.calls: list[tuple[str, dict[str, str]]] = []
        self.mappings: dict[int, tuple[str, int, int]] = {}
        self.port = 0
        self.hold = hold
        self.release = trio.Event()
        self.asked = trio.Event()  # the first request arrived
        self.deleted = trio.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/rootDesc.xml"

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self)
        await trio.serve_listeners(self._handle, listeners)

    async def _read_request(self, stream: trio.SocketStream) -> tuple[str, dict, bytes]:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = await stream.receive_some(4096)
            if not chunk:
                raise EOFError
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in
                   (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = await stream.receive_some(4096)
            if not chunk:
                raise EOFError
            body += chunk
        return lines[0], headers, body

    async def _handle(self, stream: trio.SocketStream) -> None:
        async with stream:
            try:
                request_line, headers, body = await self._read_request(stream)
            except (EOFError, trio.BrokenResourceError):
                return
            self.asked.set()
            if self.hold:
                async with trio.open_nursery() as held:
                    async def until_released() -> None:
                        await self.release.wait()
                        held.cancel_scope.cancel()

                    held.start_soon(until_released)
                    with contextlib.suppress(trio.BrokenResourceError):
                        while await stream.receive_some(4096):
                            pass
                    self.hung_up.set()  # the client gave up before the answer
                    return
            method, path = request_line.split()[:2]
            if method == "GET" and path == "/rootDesc.xml" and self.description_size:
                await self._send_huge(stream)
                return
            if method == "GET" and path == "/rootDesc.xml":
                reply = _response("200 OK", self.description)
            elif method == "POST" and path == "/ctl/IPConn":
                reply = self._soap(headers.get("soapaction", ""), body.decode())
            else:
                reply = _response("404 Not Found", "")
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await stream.send_all(reply)

    async def _send_huge(self, stream: trio.SocketStream) -> None:
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n"
                f"Content-Length: {self.description_size}\r\nConnection: close\r\n\r\n")
        chunk = b"<!-- " + b"x" * 65526 + b" -->"  # 64 KiB of comment, sent again and again
        try:
            await stream.send_all(head.encode() + _ROOT.encode())
            self.sent = len(_ROOT)
            while self.sent < self.description_size:
                piece = chunk[:self.description_size - self.sent]
                await stream.send_all(piece)
                self.sent += len(piece)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return

    def _soap(self, action_header: str, body: str) -> bytes:
        action = action_header.strip('"').rpartition("#")[2]
        args = dict(re.findall(r"<(New\w+)>([^<]*)</\1>", body))
        self.calls.append((action, args))
        if action == "AddPortMapping" and self.add_fault is not None:
            return self._fault(501, self.add_fault)
        if action == "AddPortMapping":
            port = int(args["NewExternalPort"])
            self.mappings[port] = (args["NewInternalClient"], int(args["NewInternalPort"]),
                                   int(args.get("NewLeaseDuration") or 0))
            out = ""
        elif action == "GetExternalIPAddress":
            out = f"<NewExternalIPAddress>{self.public_ip}</NewExternalIPAddress>"
        elif action == "DeletePortMapping":
            port = int(args["NewExternalPort"])
            if self.mappings.pop(port, None) is None:
                return self._fault(714, "NoSuchEntryInArray")
            self.deleted.set()
            out = ""
        else:
            return self._fault(401, "Invalid Action")
        return _response("200 OK", _ENVELOPE.format(
            f'<u:{action}Response xmlns:u="{_SERVICE}">{out}</u:{action}Response>'))

    @staticmethod
    def _fault(code: int, text: str) -> bytes:
        return _response("500 Internal Server Error", _ENVELOPE.format(
            "<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring>"
            '<detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0">'
            f"<errorCode>{code}</errorCode><errorDescription>{text}</errorDescription>"
            "</UPnPError></detail></s:Fault>"))


class FakeNatPmp:
    """A NAT-PMP gateway on a loopback UDP port.  ``requests``: (opcode, internal port,
    external port, lifetime) of every mapping request; ``mappings``: internal port ->
    lifetime currently held."""

    def __init__(self) -> None:
        self.requests: list[tuple[int, int, int, int]] = []
        self.mappings: dict[int, int] = {}
        self.port = 0
        self.deleted = trio.Event()

    @property
    def gateway(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with sock:
            await sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
            task_status.started(self)
            while True:
                data, peer = await sock.recvfrom(64)
                reply = self._answer(data)
                if reply is not None:
                    await sock.sendto(reply, peer)

    def _answer(self, data: bytes) -> bytes | None:
        if len(data) == 2 and data == b"\x00\x00":
            return struct.pack("!BBHI", 0, 128, 0, 1000) + socket.inet_aton(PUBLIC_IP)
        if len(data) == 12 and data[:2] == b"\x00\x02":
            _, _, _, internal, external, lifetime = struct.unpack("!BBHHHI", data)
            self.requests.append((2, internal, external, lifetime))
            if lifetime == 0:
                self.mappings.pop(internal, None)
                self.deleted.set()
                external = 0
            else:
                self.mappings[internal] = lifetime
                external = external or internal
            return struct.pack("!BBHIHHI", 0, 130, 0, 1000, internal, external, lifetime)
        return struct.pack("!BBHI", 0, 128 + (data[1] if len(data) > 1 else 0), 5, 1000)
