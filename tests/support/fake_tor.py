"""Tor's side of the control and SOCKS5 protocols, faked on loopback for the tests
(written from Tor's control-spec and RFC 1928; none of our code is replaced).

:class:`FakeTor` is a control port (no authentication: ``METHODS=NULL``) whose bootstrap
follows a script: ``phase`` is what ``GETINFO status/bootstrap-phase`` answers, then each
line of ``steps`` goes out as a ``STATUS_CLIENT`` event once the client subscribed and
asked the phase (and,
with ``hold`` set, the rest only once ``hold`` is set).  ``ADD_ONION`` answers a
``ServiceID`` and an ``HS_DESC UPLOADED`` event.  :class:`FakeSocks` answers every
``CONNECT`` with one reply code.  Both keep what they received.
"""

from __future__ import annotations

import functools

import trio

#: Bootstrap lines as tor 0.4.9 writes them (seen from a tor whose only directory
#: authority is a closed port on 127.0.0.1).
STARTING = 'NOTICE BOOTSTRAP PROGRESS=0 TAG=starting SUMMARY="Starting"'
REFUSED = ('WARN BOOTSTRAP PROGRESS=5 TAG=conn SUMMARY="Connecting to a relay" '
           'WARNING="Connection refused" REASON=CONNECTREFUSED COUNT={n} RECOMMENDATION=ignore '
           'HOSTID="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" HOSTADDR="127.0.0.1:9"')
LOADING = ('NOTICE BOOTSTRAP PROGRESS=50 TAG=loading_descriptors '
           'SUMMARY="Loading relay descriptors"')
DONE = 'NOTICE BOOTSTRAP PROGRESS=100 TAG=done SUMMARY="Done"'


class FakeTor:
    def __init__(self, phase: str = STARTING, steps: list[str] | None = None,
                 socks: str = "127.0.0.1:9", disable_network: bool = False) -> None:
        self.disable_network = disable_network
        self.phase = phase
        self.steps = list(steps or [])
        self.socks = socks
        self.hold: trio.Event | None = None
        self.lines: list[str] = []
        self.connections = 0
        self.address = ""
        self.onions: list[str] = []

    async def serve(self, nursery: trio.Nursery) -> None:
        listeners = await nursery.start(
            functools.partial(trio.serve_tcp, self._handle, 0, host="127.0.0.1"))
        self.address = f"127.0.0.1:{listeners[0].socket.getsockname()[1]}"

    async def _handle(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        buffer = b""
        sending = trio.Lock()  # answers and events take turns on the stream
        async with stream, trio.open_nursery() as nursery:
            while True:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    nursery.cancel_scope.cancel()
                    return
                buffer += chunk
                while b"\r\n" in buffer:
                    raw, buffer = buffer.split(b"\r\n", 1)
                    line = raw.decode()
                    self.lines.append(line)
                    async with sending:
                        await stream.send_all(self._answer(line).encode())
                    if line == "GETINFO status/bootstrap-phase" and \
                            "SETEVENTS STATUS_CLIENT" in self.lines:
                        nursery.start_soon(self._steps, stream, sending)

    async def _steps(self, stream: trio.SocketStream, sending: trio.Lock) -> None:
        for i, step in enumerate(self.steps):
            if self.hold is not None and i > 0:
                await self.hold.wait()
            self.phase = step
            async with sending:
                await stream.send_all(f"650 STATUS_CLIENT {step}\r\n".encode())

    def _answer(self, line: str) -> str:
        verb, _, rest = line.partition(" ")
        if verb == "PROTOCOLINFO":
            return ('250-PROTOCOLINFO 1\r\n250-AUTH METHODS=NULL\r\n'
                    '250-VERSION Tor="0.4.9.11"\r\n250 OK\r\n')
        if verb in ("AUTHENTICATE", "SETEVENTS", "DEL_ONION", "SIGNAL"):
            return "250 OK\r\n"
        if verb == "GETINFO" and rest == "status/bootstrap-phase":
            return f"250-status/bootstrap-phase={self.phase}\r\n250 OK\r\n"
        if verb == "GETINFO" and rest == "net/listeners/socks":
            return f'250-net/listeners/socks="{self.socks}"\r\n250 OK\r\n'
        if verb == "GETCONF" and rest == "DisableNetwork":
            return f"250 DisableNetwork={int(self.disable_network)}\r\n"
        if verb == "ADD_ONION":
            service = "a" * 56
            self.onions.append(rest)
            return (f"250-ServiceID={service}\r\n250 OK\r\n"
                    f"650 HS_DESC UPLOADED {service} UNKNOWN x\r\n")
        return "510 Unrecognized command\r\n"


class FakeSocks:
    """A SOCKS5 port answering every CONNECT with ``reply`` (0: granted, then silence)."""

    def __init__(self, reply: int) -> None:
        self.reply = reply
        self.requests: list[bytes] = []
        self.address = ""

    async def serve(self, nursery: trio.Nursery) -> None:
        listeners = await nursery.start(
            functools.partial(trio.serve_tcp, self._handle, 0, host="127.0.0.1"))
        self.address = f"127.0.0.1:{listeners[0].socket.getsockname()[1]}"

    async def _handle(self, stream: trio.SocketStream) -> None:
        async with stream:
            got = b""
            while len(got) < 3:
                got += await stream.receive_some(3 - len(got))
            await stream.send_all(b"\x05\x00")  # no authentication
            request = b""
            while len(request) < 5 or len(request) < 7 + request[4]:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    return
                request += chunk
            self.requests.append(request)
            await stream.send_all(bytes([5, self.reply, 0, 1, 0, 0, 0, 0, 0, 0]))
