"""Table addresses as people type them: ``HOST``, ``HOST:PORT``, ``[V6]:PORT``, ``V6``.

One parser for every command and the library (``chkobba join``, ``chkobba bot``,
:class:`~chkobba_p2p._shell.peer.JoinConfig`), so that they accept and refuse the same things
with the same sentences.  Pure: no DNS, no sockets.  :class:`Address` is a small value
and a join code is one too: an address with the host key's fingerprint after ``#``
(PROTOCOL.md section 15)::

    Address.parse("[::1]:7777")      # Address(host='::1', port=7777)
    Address.parse("::1")             # a bare IPv6 address: the default port
    str(Address("::1", 7777))        # '[::1]:7777'
    Address.parse("203.0.113.7:7777#2935-c4f7-816c-a26c").fingerprint
                                     # '2935-c4f7-816c-a26c': only that host key will do
    Address.parse("203.0.113.7:7777#2935-c4f7-816c-a26c+k7m2-x4qa-b3cd-e5fg").secret
                                     # 'k7m2-x4qa-b3cd-e5fg': the table's seat secret
"""

from __future__ import annotations

import base64
import errno
import ipaddress
import os
import re
from dataclasses import dataclass

from .errors import CodedLocalError, errno_name

__all__ = ["DEFAULT_PORT", "Address", "AddressError", "parse_port", "parse_fingerprint",
           "parse_secret", "new_secret", "listen_problem",
           "ADDRESS_PROBLEMS", "LISTEN_PROBLEMS"]

#: The host's TCP port when an address names none (PROTOCOL.md section 2).
DEFAULT_PORT = 7777
_MAX_HOST = 253  # the longest DNS name
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")
#: A table's seat secret: 16 characters of RFC 4648's base32 alphabet (80 bits), read
#: out in four groups (no 0, 1, 8 or 9 to mistake for a letter).
_SECRET = re.compile(r"^[a-z2-7]{16}$")
_HOSTNAME = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?$")


#: Every :attr:`AddressError.code`, with the keys of its :attr:`~AddressError.data`
#: (``text``: what was typed, as typed; ``port``, ``low``: numbers).  A code is never
#: renamed; a client words each (the terminal client: ``ad_`` + the code).
ADDRESS_PROBLEMS: dict[str, tuple[str, ...]] = {
    "port_empty": (),  # an empty port where one was asked for
    "port_not_a_number": ("text",),
    "port_out_of_range": ("port", "low"),  # a port is low (0 or 1) to 65535
    "not_a_fingerprint": ("text",),  # not 16 hex digits
    "not_a_secret": ("text",),  # not 16 letters and digits 2 to 7
    "not_an_address": ("text",),  # not text at all
    "address_empty": (),
    "bad_ipv6": ("text",),  # colons, but no IPv6 address
    "bad_host": ("text",),  # neither a host name nor an IPv4 address
    "bad_brackets": ("text",),  # "[" without "]", or text after "]" that is no ":PORT"
    "brackets_not_ipv6": ("text",),  # brackets around something that is no IPv6 address
    "port_after_colon_empty": ("text",),  # "HOST:" with nothing after the colon
}

#: Every :attr:`~chkobba_p2p.ListenError.code` (:func:`listen_problem`), with the keys
#: of its data (``where``: the address as ``HOST:PORT``; ``default``: the default port;
#: ``why``: the OS's own words, ``errno`` the name of its error number or ``""``:
#: :func:`~chkobba_p2p.errors.errno_name`).  A client words each (the terminal client:
#: ``ls_``).
LISTEN_PROBLEMS: dict[str, tuple[str, ...]] = {
    "port_in_use": ("port", "where"),
    "port_privileged": ("port", "default"),  # below 1024: the administrator's
    "listen_not_allowed": ("where",),
    "no_such_address": ("where",),  # the bind address is not this machine's
    "listen_failed": ("where", "why", "errno"),  # another failure, in the OS's words
}


class AddressError(CodedLocalError, ValueError):
    """Text that is not a table address (or a port): the message says why, for people;
    ``code`` (one of :data:`ADDRESS_PROBLEMS`) and ``data`` say it for programs."""

    CODES = ADDRESS_PROBLEMS
    code = "bad_address"


def parse_port(text: str | int, *, allow_zero: bool = False) -> int:
    """A TCP port from ``text``: 1..65535 (0 too with ``allow_zero``: any free port when
    listening).  :class:`AddressError` otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and text.strip().isascii() and text.strip().isdigit():
        value = int(text.strip())
    else:
        if text == "":
            raise AddressError("not a port number: an empty port (a port is 1 to 65535)",
                               code="port_empty")
        raise AddressError(f"not a port number: {text!r} (a port is 1 to 65535)",
                           code="port_not_a_number", data={"text": str(text)})
    low = 0 if allow_zero else 1
    if not low <= value <= 65535:
        raise AddressError(f"port {value} is out of range (a port is {low} to 65535)",
                           code="port_out_of_range", data={"port": value, "low": low})
    return value


def parse_fingerprint(text: str) -> str:
    """A host key fingerprint as people read it out: 16 hex digits, in any case, with or
    without the dashes (or spaces); returned in the printed form (``2935-c4f7-816c-a26c``).
    :class:`AddressError` with a sentence otherwise."""
    digits = str(text).strip().lower().replace("-", "").replace(" ", "")
    if not _FINGERPRINT.match(digits):
        raise AddressError(f"not a host key fingerprint: {text!r} (16 hex digits, "
                           "e.g. 2935-c4f7-816c-a26c)",
                           code="not_a_fingerprint", data={"text": str(text)})
    return "-".join(digits[i:i + 4] for i in range(0, 16, 4))


def parse_secret(text: str) -> str:
    """A table's seat secret as people read it out (PROTOCOL.md 5.5): 16 letters and
    digits 2 to 7, in any case, with or without the dashes (or spaces); returned in the
    printed form (``k7m2-x4qa-b3cd-e5fg``).  :class:`AddressError` with a sentence
    otherwise."""
    digits = "".join(ch for ch in str(text).lower() if ch not in "- ")
    if not _SECRET.match(digits):
        raise AddressError(f"not a table secret: {text!r} (16 letters and digits 2 to 7, "
                           "e.g. k7m2-x4qa-b3cd-e5fg)",
                           code="not_a_secret", data={"text": str(text)})
    return "-".join(digits[i:i + 4] for i in range(0, 16, 4))


def new_secret() -> str:
    """A fresh random seat secret, in its printed form."""
    # 80 bits from the system's CSPRNG, in RFC 4648 base32: its alphabet is the secret's
    # (a-z, 2-7), 5 bits a letter, 16 letters, each equally likely.
    return parse_secret(base64.b32encode(os.urandom(10)).decode("ascii").lower())


def _check_host(host: str, original: str) -> str:
    if ":" in host:
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise AddressError(f"not an address: {original!r} (an IPv6 address is written "
                               "like ::1, or [::1]:7777 with a port)",
                               code="bad_ipv6", data={"text": original}) from None
        return host
    if len(host) > _MAX_HOST or not _HOSTNAME.match(host):
        raise AddressError(f"not an address: {original!r} (expected HOST or HOST:PORT, "
                           "e.g. 192.168.1.20:7777)",
                           code="bad_host", data={"text": original})
    return host


@dataclass(frozen=True)
class Address:
    """A host (a name, an IPv4 address or an IPv6 address, without brackets), a TCP
    port and, for a join code, the fingerprint the host's key must have.  ``str()``
    gives the form to type back (``[V6]:PORT``, ``HOST:PORT#FINGERPRINT``)."""

    host: str
    port: int = DEFAULT_PORT
    #: A join code's pinned host key (``2935-c4f7-816c-a26c``); None: any key.
    fingerprint: str | None = None
    #: A join code's seat secret (``k7m2-x4qa-b3cd-e5fg``, after the fingerprint and a
    #: ``+``): a table that has one seats only joiners who prove it; None: none.
    secret: str | None = None

    @classmethod
    def parse(cls, text: str, default_port: int = DEFAULT_PORT) -> Address:
        """``HOST``, ``HOST:PORT``, ``[V6]``, ``[V6]:PORT`` or a bare IPv6 address
        (``::1``: the default port; an IPv6 address with a port needs the brackets).
        ``:PORT`` alone means this machine.  :class:`AddressError` for anything else
        (an empty port, ``nonsense:::``, a port out of range).  Any of these may be
        followed by ``#FINGERPRINT`` (a join code): :attr:`fingerprint`, itself
        followed by ``+SECRET`` at a table with a seat secret: :attr:`secret`."""
        if not isinstance(text, str):
            raise AddressError(f"not an address: {text!r}", code="not_an_address",
                               data={"text": str(text)})
        raw, hash_mark, fp = text.strip().partition("#")
        address = cls._parse(raw.strip(), text, default_port)
        if hash_mark:
            fp, plus, secret = fp.partition("+")
            return cls(address.host, address.port, parse_fingerprint(fp),
                       parse_secret(secret) if plus else None)
        return address

    @classmethod
    def _parse(cls, raw: str, text: str, default_port: int) -> Address:
        if not raw:
            raise AddressError("empty address (expected HOST or HOST:PORT)",
                               code="address_empty")
        if raw.startswith("["):
            inside, bracket, rest = raw[1:].partition("]")
            if not bracket or not inside:
                raise AddressError(f"not an address: {text!r} (expected [IPv6]:PORT)",
                                   code="bad_brackets", data={"text": text})
            if rest and not rest.startswith(":"):
                raise AddressError(f"not an address: {text!r} (expected [IPv6]:PORT)",
                                   code="bad_brackets", data={"text": text})
            port = parse_port(rest[1:]) if rest else default_port
            if ":" not in inside:
                raise AddressError(f"not an address: {text!r} (brackets hold an IPv6 "
                                   "address)", code="brackets_not_ipv6", data={"text": text})
            return cls(_check_host(inside, text), port)
        if raw.count(":") >= 2:  # a bare IPv6 address, without a port
            return cls(_check_host(raw, text), default_port)
        host, colon, port_text = raw.partition(":")
        if colon and not port_text:
            raise AddressError(f"not an address: {text!r} (the port after ':' is empty)",
                               code="port_after_colon_empty", data={"text": text})
        port = parse_port(port_text) if colon else default_port
        return cls(_check_host(host, text) if host else "127.0.0.1", port)

    @property
    def endpoint(self) -> str:
        """``HOST:PORT`` (``[V6]:PORT``), without the fingerprint."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def __str__(self) -> str:
        if not self.fingerprint:
            return self.endpoint
        secret = f"+{self.secret}" if self.secret else ""
        return f"{self.endpoint}#{self.fingerprint}{secret}"


def listen_problem(exc: OSError, bind: str, port: int
                   ) -> tuple[str, str, dict[str, str | int]]:
    """A failed attempt to listen on ``bind:port`` as an English sentence, a code of
    :data:`LISTEN_PROBLEMS` and its data."""
    where = str(Address(bind or "0.0.0.0", port))
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is already in use ({where}: another host, or another "
                "program, listens there); choose another with --port",
                "port_in_use", {"port": port, "where": where})
    if exc.errno in (errno.EACCES, errno.EPERM):
        if 0 < port < 1024:
            return (f"port {port} is a privileged port (below 1024) that only the "
                    "administrator may listen on; choose another with --port (default "
                    f"{DEFAULT_PORT})", "port_privileged",
                    {"port": port, "default": DEFAULT_PORT})
        return (f"not allowed to listen on {where}; choose another port with --port",
                "listen_not_allowed", {"where": where})
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return (f"cannot listen on {where}: this machine has no such address (see --bind)",
                "no_such_address", {"where": where})
    why = str(exc.strerror or exc)
    return (f"cannot listen on {where}: {why}", "listen_failed",
            {"where": where, "why": why, "errno": errno_name(exc)})
