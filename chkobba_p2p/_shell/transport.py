"""Where streams come from: the :class:`Transport` seam, and TCP (IPv4 and IPv6) behind it.

The trio shell (:mod:`chkobba_p2p._shell.net`, :mod:`chkobba_p2p._shell.watch`) only ever sees
``trio.abc.Stream`` and ``trio.abc.Listener``: a transport listens, connects, and says
where a stream's other end is, as the transport knows it (an opaque label for admission;
for TCP the peer's IP).  Adding a transport (Tor, a relay, memory for tests:
:class:`chkobba_p2p.testing.MemoryTransport`) is one new file implementing this
protocol; :func:`chkobba_p2p.testing.check_transport` is its conformance check.

Errors: :meth:`Transport.listen` raises ``OSError`` when it cannot listen (the shell
turns it into :class:`ListenError`); :meth:`Transport.connect` raises
``OSError`` when it cannot connect, ``ConnectionRefusedError`` (possibly inside an
exception group or as a cause) when nobody listens there.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from typing import Protocol, runtime_checkable

import trio

from ..address import LISTEN_PROBLEMS, listen_problem, parse_port
from ..errors import CodedLocalError

__all__ = ["Transport", "TcpTransport", "ListenError", "check_listen", "nobody_listening",
           "lan_address", "global_ipv6"]


@runtime_checkable
class Transport(Protocol):
    """Listens and connects, giving trio streams.

    ``shared_address``: True when every connection reports the same peer address (a
    Tor or proxy transport reports 127.0.0.1 for all): admission must then not apply
    any per-address limit to it.

    ``connect_patience``: seconds a first connection keeps being tried when it fails
    (0: one try).  Over TCP a failure is an answer (nobody listens there); over Tor a
    freshly published onion service is often not found on the first try (its
    descriptor is still reaching the directories) and a stale one needs a second."""

    shared_address: bool
    connect_patience: float

    async def listen(self, port: int, bind: str) -> list[trio.abc.Listener[trio.abc.Stream]]:
        """Listeners on ``port`` (0: one chosen by the transport, the same for all of
        them) at ``bind`` ("" : everywhere this transport can)."""
        ...

    def port_of(self, listener: trio.abc.Listener[trio.abc.Stream]) -> int:
        """The port a listener of :meth:`listen` listens on."""
        ...

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        """A stream to ``host:port``."""
        ...

    def peer_address(self, stream: trio.abc.Stream) -> str:
        """The other end's address as this transport reports it ("?" if unknown)."""
        ...

    def close_now(self, stream: trio.abc.Stream) -> None:
        """Close a stream at once, without awaiting (to release its file descriptor
        when the process runs out of them)."""
        ...


class TcpTransport:
    """TCP over IPv4 and IPv6 (trio's sockets)."""

    shared_address = False
    connect_patience = 0.0

    async def listen(self, port: int, bind: str) -> list[trio.abc.Listener[trio.abc.Stream]]:
        """TCP listeners on ``bind``; on every address, IPv4 and IPv6 on the same port,
        when ``bind`` is empty (a machine without IPv6 gets IPv4 only)."""
        if bind:
            return list(await trio.open_tcp_listeners(port, host=bind))
        # trio would bind each family to its own random port for port 0: pick it once.
        listeners = list(await trio.open_tcp_listeners(port, host="0.0.0.0"))
        port = listeners[0].socket.getsockname()[1]
        with contextlib.suppress(OSError):  # no IPv6 here
            listeners += await trio.open_tcp_listeners(port, host="::")  # IPV6_V6ONLY set
        return listeners  # type: ignore[return-value]

    def port_of(self, listener: trio.abc.Listener[trio.abc.Stream]) -> int:
        return int(listener.socket.getsockname()[1])  # type: ignore[attr-defined]

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        return await trio.open_tcp_stream(host, port)

    def peer_address(self, stream: trio.abc.Stream) -> str:
        try:
            return str(stream.socket.getpeername()[0])  # type: ignore[attr-defined]
        except (OSError, AttributeError, IndexError):
            return "?"

    def close_now(self, stream: trio.abc.Stream) -> None:
        with contextlib.suppress(Exception):
            stream.socket.close()  # type: ignore[attr-defined]


class ListenError(CodedLocalError):
    """The host cannot listen where it was asked to (the port is in use, privileged, or
    the bind address is not this machine's); the message says which, for people;
    ``code`` (one of :data:`~chkobba_p2p.address.LISTEN_PROBLEMS`) and ``data`` say it
    for programs."""

    CODES = LISTEN_PROBLEMS
    code = "cannot_listen"

    @classmethod
    def from_os(cls, exc: OSError, bind: str, port: int) -> ListenError:
        """The error for the OS's refusal ``exc`` to listen on ``bind:port``."""
        message, code, data = listen_problem(exc, bind, port)
        return cls(message, code=code, data=data)


def check_listen(bind: str, port: int) -> None:
    """Raise :class:`ListenError` now if a host could not listen on ``bind:port`` (a
    command line checks this before it opens its screen).  The port may still be taken
    between this check and the host's start; the host says so then too."""
    parse_port(port, allow_zero=True)
    family = socket.AF_INET6 if ":" in (bind or "") else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            if os.name == "posix":  # as trio's listeners do: a TIME_WAIT port is free
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((bind or "0.0.0.0", port))
            sock.listen(1)
    except OSError as exc:
        raise ListenError.from_os(exc, bind, port) from None


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


def nobody_listening(exc: BaseException) -> bool:
    """Whether a failed connect was refused (nobody listening), looking through the
    causes and groups ``trio.open_tcp_stream`` wraps its attempts' errors in."""
    seen: list[BaseException] = [exc]
    while seen:
        e = seen.pop()
        if isinstance(e, ConnectionRefusedError):
            return True
        if isinstance(e, BaseExceptionGroup):
            seen.extend(e.exceptions)
        if e.__cause__ is not None:
            seen.append(e.__cause__)
    return False
