"""Tables as Tor onion services: :class:`TorTransport` behind the transport seam.

Both sides only connect outward, to Tor: the host publishes an ephemeral v3 onion
service through Tor's control port (``ADD_ONION``) that leads to a listener on
127.0.0.1; a joiner reaches ``<56 letters>.onion:PORT`` through Tor's SOCKS5 port.
Nothing else of the game changes: the join code still pins the host's game key after
``#`` (PROTOCOL.md section 15), and the onion address is itself the service's public
key, so only the holder of :func:`new_onion_key`'s key can answer there.

Tor itself (:class:`Tor`): a running tor when its control port answers (cookie
authentication; ``CHKOBBA_TOR_CONTROL`` / ``CHKOBBA_TOR_SOCKS`` / ``CHKOBBA_TOR_COOKIE``
or the arguments),
else a private tor started from the system's ``tor`` binary, with its own data
directory under the user's data directory, ``SocksPort auto`` and ``ControlPort auto``,
owned by this process (it exits when this process or its control connection ends).
Without tor: :class:`TorUnavailable`, whose message says how to install it.

Both protocols are spoken directly, with trio (docs/tor.md says why): the control
protocol (control-spec.txt: PROTOCOLINFO, AUTHENTICATE with the cookie or
SAFECOOKIE, ADD_ONION, DEL_ONION, GETINFO) and SOCKS5 (RFC 1928, CONNECT to a domain
name, no authentication).
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import dataclasses
import enum
import logging
import math
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import trio
from cryptography.hazmat.primitives import hashes

from .._digest import equal, hmac_sha256
from ..errors import LocalError
from .config import Timeouts
from .events import TorEvent
from .transport import TcpTransport, Transport

__all__ = [
    "Tor", "TorTransport", "TorError", "TorUnavailable", "TOR_INSTALL_HINT",
    "new_onion_key", "onion_address", "is_onion", "load_onion_key", "SocksError",
    "over_tor", "TOR_HANDSHAKE", "TOR_BOOTSTRAP_TIMEOUT", "TorFailure", "TorBootstrap",
    "TorStarting", "TorFailed", "OnionPublished", "SocksFailed",
]

log = logging.getLogger(__name__)

#: The one line a person without tor reads.
TOR_INSTALL_HINT = ("tor is not installed: install it (Debian/Ubuntu: sudo apt install tor; "
                    "Fedora: sudo dnf install tor; macOS: brew install tor) or start Tor "
                    "Browser and pass --tor-control 127.0.0.1:9151 --tor-socks 127.0.0.1:9150")
_ONION = re.compile(r"^[a-z2-7]{56}\.onion$")


class TorFailure(enum.StrEnum):
    """Why tor could not be used: the code of :class:`TorError` and :class:`TorFailed`
    (a client words it; the error's message is the library's own, for logs)."""

    #: No tor binary and no control port named (:data:`TOR_INSTALL_HINT`).
    NOT_INSTALLED = "not_installed"
    #: The private tor exited at once, or opened no control port in time.
    START_FAILED = "start_failed"
    #: Nothing answers at the control port named.
    NO_CONTROL = "no_control"
    #: The control port is not a tor this program trusts, or asks for a password.
    CONTROL_REFUSED = "control_refused"
    #: Tor closed its control connection (it stopped).
    CONTROL_CLOSED = "control_closed"
    #: Tor did not reach the Tor network within its time (``bootstrap``: how far).
    NO_NETWORK = "no_network"
    #: Tor's network is turned off (``DisableNetwork 1``), so it never reached it.
    NETWORK_DISABLED = "network_disabled"
    #: Tor has no SOCKS port, or nothing answers at the one named.
    NO_SOCKS = "no_socks"
    #: Tor refused to publish the onion service.
    PUBLISH_FAILED = "publish_failed"
    #: The onion key kept for the table cannot be used (its file's mode or size).
    ONION_KEY = "onion_key"


class TorError(LocalError, OSError):
    """Tor could not be reached, started or asked (the message says why, for people;
    ``code``: a :class:`TorFailure`; ``bootstrap``: tor's last progress, when known)."""

    def __init__(self, message: str, code: TorFailure = TorFailure.START_FAILED, *,
                 bootstrap: TorBootstrap | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.bootstrap = bootstrap


class TorUnavailable(TorError):
    """No tor here: no control port answers and no ``tor`` binary to start."""

    def __init__(self, message: str = "", code: TorFailure = TorFailure.NOT_INSTALLED, *,
                 bootstrap: TorBootstrap | None = None) -> None:
        super().__init__(message or TOR_INSTALL_HINT, code, bootstrap=bootstrap)


class SocksError(OSError):
    """Tor's SOCKS5 port refused a connection (``code``: the RFC 1928 / Tor reply)."""

    def __init__(self, code: int, where: str) -> None:
        self.code = code
        self.where = where
        super().__init__(f"Tor could not reach {where}: {_SOCKS_REPLIES.get(code, code)}")


class _SocksRefused(SocksError, ConnectionRefusedError):
    """Reply 5: the service answered that nobody listens on that port."""


#: Replies after which tor may hold a stale descriptor: host unreachable, circuit timed
#: out, and the onion service's own failures (not found, introduction, rendezvous).
_STALE = {4, 6, 0xF0, 0xF2, 0xF3, 0xF7}

_SOCKS_REPLIES = {
    1: "general failure", 2: "not allowed", 3: "network unreachable",
    4: "host unreachable", 5: "connection refused", 6: "circuit timed out",
    7: "command not supported", 8: "address type not supported",
    0xF0: "onion service not found (not published, or gone)",
    0xF1: "onion service descriptor is invalid", 0xF2: "onion service introduction failed",
    0xF3: "onion service rendezvous failed", 0xF4: "onion service needs client authorization",
    0xF5: "onion service client authorization refused", 0xF6: "not a valid onion address",
    0xF7: "onion service introduction timed out",
}


#: Seconds for a handshake (and to finish a frame) over Tor.  The handshake takes three
#: one-way trips after the connection opens: the library's default of 10 s fails from a
#: round trip of 7 s on (a slow circuit); 30 s holds up to 20 s (docs/tor.md).
TOR_HANDSHAKE = 30.0

#: Seconds a first connection through Tor keeps being tried (``connect_patience``).
TOR_CONNECT_PATIENCE = 60.0

#: Seconds to wait for tor's answer to a SOCKS CONNECT.  Tor's own limit is 120 s
#: (``SocksTimeout``); a try at a stale descriptor's gone introduction points can use all
#: of it, while a live service answers within seconds, even over a slow circuit.
#: Past this the try fails as "circuit timed out" and tor forgets what it held.
TOR_SOCKS_REPLY = 40.0


def over_tor(timeouts: Timeouts) -> Timeouts:
    """``timeouts`` for a table reached through Tor: the handshake and frame timeouts at
    least :data:`TOR_HANDSHAKE` (the others already hold: pings every ``idle / 3``, and
    the move and away clocks count in minutes)."""
    return dataclasses.replace(timeouts, handshake=max(timeouts.handshake, TOR_HANDSHAKE),
                               frame=max(timeouts.frame, TOR_HANDSHAKE))


#: Seconds tor may take to reach the Tor network (bootstrap to 100%) before the command
#: gives up with :data:`TorFailure.NO_NETWORK`: a tor started for the first time on a
#: slow network needs a minute or two; one that cannot reach the network never ends.
TOR_BOOTSTRAP_TIMEOUT = 180.0


# -- what tor says while it starts: events of the table's, data and codes --------------

@dataclasses.dataclass(frozen=True)
class TorBootstrap(TorEvent):
    """How far tor got in reaching the Tor network: its bootstrap status (control-spec,
    "Bootstrap status events", and ``GETINFO status/bootstrap-phase``).

    ``progress`` 0 to 100; ``tag`` the phase's name ("conn", "loading_descriptors",
    "done"...); ``summary`` tor's own words for it; when something went wrong on the
    way (a ``WARN`` status), ``warning`` (tor's words), ``reason`` (its code:
    "CONNECTREFUSED", "NOROUTE", "TIMEOUT", "DONE", ...), ``count`` (how many times) and
    ``host`` (the relay's address it tried)."""

    progress: int
    tag: str
    summary: str = ""
    warning: str = ""
    reason: str = ""
    count: int = 0
    host: str = ""

    @property
    def trouble(self) -> bool:
        """Tor said something went wrong on the way."""
        return bool(self.warning or self.reason)


_STATUS_FIELD = re.compile(r'([A-Za-z_]+)=("(?:[^"\\]|\\.)*"|\S*)')


def parse_bootstrap(text: str) -> TorBootstrap | None:
    """A :class:`TorBootstrap` from a line tor wrote: a ``STATUS_CLIENT`` event's text
    (``STATUS_CLIENT NOTICE BOOTSTRAP PROGRESS=...``) or ``status/bootstrap-phase``'s value
    (``NOTICE BOOTSTRAP PROGRESS=...``); None for another status, or a line without a
    progress.  Tor is local but its words are bounded here (a tag and summary of 80
    characters, a warning of 200, a progress from 0 to 100)."""
    words = text.split(None, 3)
    if words and words[0] == "STATUS_CLIENT":
        words = words[1:]
    if len(words) < 2 or words[0] not in ("NOTICE", "WARN", "ERR") \
            or words[1] != "BOOTSTRAP":
        return None
    rest = text.split("BOOTSTRAP", 1)[1]
    fields: dict[str, str] = {}
    for key, value in _STATUS_FIELD.findall(rest):
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        fields.setdefault(key.upper(), value)
    try:
        progress = max(0, min(100, int(fields["PROGRESS"])))
    except (KeyError, ValueError):
        return None
    try:
        count = max(0, int(fields.get("COUNT", "0")))
    except ValueError:
        count = 0
    warn = words[0] != "NOTICE"
    return TorBootstrap(progress, fields.get("TAG", "")[:80], fields.get("SUMMARY", "")[:80],
                        fields.get("WARNING", "")[:200] if warn else "",
                        fields.get("REASON", "")[:40] if warn else "", count,
                        fields.get("HOSTADDR", "")[:80] if warn else "")


@dataclasses.dataclass(frozen=True)
class TorStarting(TorEvent):
    """The command reaches for tor: ``private`` True when it starts a tor of its own
    (``where``: ""), else the port of the running tor it uses (``where``: its control
    port, or its SOCKS port when that is all it was given)."""

    private: bool
    where: str = ""


@dataclasses.dataclass(frozen=True)
class OnionPublished(TorEvent):
    """The table's onion service is published: friends anywhere can join at
    ``onion:port`` (with the host key's fingerprint: a join code)."""

    onion: str
    port: int


@dataclasses.dataclass(frozen=True)
class TorFailed(TorEvent):
    """Tor could not be used (``code``; ``detail``: the library's sentence, for logs;
    ``bootstrap``: how far tor got; ``timeout``: the seconds it had to reach the Tor
    network).  Reported once; a host goes on over TCP without its onion service, a
    joiner's tries through Tor fail."""

    code: TorFailure
    detail: str
    bootstrap: TorBootstrap | None = None
    timeout: float = 0.0


@dataclasses.dataclass(frozen=True)
class SocksFailed(TorEvent):
    """Tor's SOCKS port answered a connection to ``where`` with ``reply`` (RFC 1928's
    codes 1 to 8, Tor's onion service codes 0xF0 to 0xF7; 6 also when tor said nothing
    within :data:`TOR_SOCKS_REPLY`).  A joiner tries again for a while."""

    where: str
    reply: int


# -- onion keys ------------------------------------------------------------------------

def new_onion_key() -> bytes:
    """A fresh onion service key: the 32-byte ed25519 seed (keep it to keep the address)."""
    return os.urandom(32)


def load_onion_key(path: Path) -> bytes:
    """The onion key kept at ``path``; a new one written there (owner-only) if none.

    A key file there must be the owner's alone (no group or other permission bits) and
    exactly 32 bytes: anything else is refused with :class:`TorError` (one line), never
    replaced, since a new key is a new onion address for the table."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        fd = None
    except OSError as exc:
        raise TorError(f"cannot read the onion key {path}: {exc.strerror or exc}",
                       TorFailure.ONION_KEY) from exc
    if fd is not None:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise TorError(f"the onion key {path} is not a regular file",
                               TorFailure.ONION_KEY)
            if info.st_mode & 0o077:
                raise TorError(f"the onion key {path} can be read by others (mode "
                               f"{stat.S_IMODE(info.st_mode):04o}): run chmod 600 {path}",
                               TorFailure.ONION_KEY)
            data = os.read(fd, 33) if info.st_size == 32 else b""
        finally:
            os.close(fd)
        if len(data) != 32:
            raise TorError(f"the onion key {path} is {info.st_size} bytes, not 32: not an "
                           f"onion key (move it away to start at a new onion address)",
                           TorFailure.ONION_KEY)
        return data
    key = new_onion_key()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def _public(seed: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def onion_address(seed: bytes) -> str:
    """``<56 letters>.onion`` for the key ``seed`` (rend-spec-v3: key, checksum, version)."""
    pub = _public(seed)
    check = _hash(hashes.SHA3_256(), b".onion checksum" + pub + b"\x03")[:2]
    return base64.b32encode(pub + check + b"\x03").decode().lower() + ".onion"


def _hash(algorithm: hashes.HashAlgorithm, data: bytes) -> bytes:
    """``data``'s digest by cryptography (not hashlib: a peer's memory, issue 44)."""
    h = hashes.Hash(algorithm)
    h.update(data)
    return h.finalize()


def _expanded_key(seed: bytes) -> str:
    """The key as ADD_ONION takes it: the 64-byte expanded ed25519 secret, base64."""
    h = bytearray(_hash(hashes.SHA512(), seed))
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    return base64.b64encode(bytes(h)).decode()


def is_onion(host: str) -> bool:
    """True for a v3 onion address (``<56 letters>.onion``, any case)."""
    return bool(_ONION.match(host.lower()))


# -- the control port -------------------------------------------------------------------

def _split_where(where: str) -> tuple[str, int]:
    host, _, port = where.rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


#: The control port tried when none is named (``Tor(probe=True)``): any local user can
#: listen there, so what answers is not trusted with a cookie's bytes.
PROBED_CONTROL = "127.0.0.1:9051"

#: Where a system tor keeps its cookie (Debian's /run/tor/control.authcookie, the data
#: directories of the usual packages): the only cookies read for a *probed* port.
SYSTEM_TOR_DIRS = (Path("/run/tor"), Path("/var/run/tor"), Path("/var/lib/tor"),
                   Path("/usr/local/var/lib/tor"), Path("/opt/homebrew/var/lib/tor"))

#: The size of Tor's control cookie (control-spec section 3.5).
COOKIE_SIZE = 32


class _ControlRefused(TorError):
    """Something answered on the control port, and was not trusted with our cookie."""

    def __init__(self, message: str) -> None:
        super().__init__(message, TorFailure.CONTROL_REFUSED)


def _inside(path: Path, places: Sequence[Path]) -> bool:
    """Whether ``path`` (resolved) is one of ``places`` or inside one of them (resolved)."""
    real = Path(os.path.realpath(path))
    for place in places:
        where = Path(os.path.realpath(place.expanduser()))
        if real == where or where in real.parents:
            return True
    return False


def _read_cookie(named: str, allowed: Sequence[Path] | None) -> bytes:
    """The 32 bytes of Tor's control cookie at ``named`` (the path the control port
    gave).  Read only if its real path (symbolic links followed) is inside ``allowed``
    (None: anywhere) and it is a regular file of exactly 32 bytes (by ``fstat``, before
    reading; at most 33 bytes are read): a port that names a key file, a device or a
    pipe gets a refusal, not the file."""
    path = Path(named)
    if not path.is_absolute():
        raise _ControlRefused(f"Tor's control port names a cookie file by a relative path "
                              f"({named}): not read")
    if allowed is not None and not _inside(path, allowed):
        raise _ControlRefused(f"Tor's control port names a cookie file outside any Tor "
                              f"data directory named here ({named}): not read (name it "
                              f"with --tor-cookie or $CHKOBBA_TOR_COOKIE)")
    try:
        fd = os.open(os.path.realpath(path),
                     os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TorError(f"cannot read Tor's control cookie {named}: {exc.strerror or exc} "
                       f"(is this user in the tor group?)",
                       TorFailure.CONTROL_REFUSED) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != COOKIE_SIZE:
            raise _ControlRefused(f"the file Tor's control port names as its cookie "
                                  f"({named}) is not a {COOKIE_SIZE}-byte file: not read")
        cookie = os.read(fd, COOKIE_SIZE + 1)
    finally:
        os.close(fd)
    if len(cookie) != COOKIE_SIZE:
        raise _ControlRefused(f"Tor's control cookie {named} changed while read: not used")
    return cookie


class _Control:
    """One authenticated control connection (commands one at a time)."""

    def __init__(self, stream: trio.abc.Stream, where: str = "") -> None:
        self.stream = stream
        self.where = where
        self._buffer = bytearray()
        self._lock = trio.Lock()
        self.events: list[str] = []

    @classmethod
    async def open(cls, where: str,
                   prefer: Sequence[str] = ("SAFECOOKIE", "COOKIE"), *,
                   probed: bool = False, trusted: Sequence[Path] = ()) -> _Control:
        """An authenticated connection to the control port at ``where`` (``HOST:PORT``,
        or a socket's path), by the first method of ``prefer`` that Tor offers.

        ``trusted``: the Tor data directories (or cookie files) named by the user, or
        the private tor's own folder.  Plain COOKIE (the cookie's bytes sent as they
        are) only with a cookie inside those, and never to a ``probed`` port (one tried
        because nobody named it: any local program may sit there).  SAFECOOKIE sends
        nothing derived from the cookie before the port proves it knows it; for a
        probed port its cookie too must be in ``trusted`` or a system tor's folder."""
        try:
            if "/" in where:
                stream: trio.abc.Stream = await trio.open_unix_socket(where)
            else:
                stream = await trio.open_tcp_stream(*_split_where(where))
        except (OSError, ValueError) as exc:
            # No cause kept: a refused connection to tor is no refusal by a table.
            raise TorError(f"no Tor control port answers at {where}: {exc}",
                           TorFailure.NO_CONTROL) from None
        control = cls(stream, where)
        try:
            await control._authenticate(prefer, probed, trusted)
        except BaseException:
            await control.aclose()
            raise
        return control

    async def _line(self) -> str:
        while b"\r\n" not in self._buffer:
            chunk = await self.stream.receive_some(65536)
            if not chunk:
                raise TorError("Tor closed its control connection",
                               TorFailure.CONTROL_CLOSED)
            self._buffer += chunk
        line, _, rest = bytes(self._buffer).partition(b"\r\n")
        self._buffer = bytearray(rest)
        return line.decode("utf-8", "replace")

    async def _reply(self, event: bool = False) -> tuple[str, list[str]]:
        """One reply: its status code and its lines (data lines of ``+`` included).
        Asynchronous events (650) go to :attr:`events`; with ``event``, the first one
        returns ("650", [])."""
        lines: list[str] = []
        while True:
            line = await self._line()
            code, sep, text = line[:3], line[3:4], line[4:]
            if code == "650":  # an asynchronous event
                self.events.append(text)
                while sep == "+" and (await self._line()) != ".":
                    pass
                if event and sep == " ":
                    return code, []
                continue
            lines.append(text)
            if sep == "+":
                while (data := await self._line()) != ".":
                    lines.append(data[1:] if data.startswith("..") else data)
            elif sep == " ":
                return code, lines

    async def command(self, line: str, ok: bool = True) -> list[str]:
        async with self._lock:
            await self.stream.send_all(line.encode() + b"\r\n")
            code, lines = await self._reply()
        if ok and code != "250":
            verb = line.split(" ", 1)[0]
            raise TorError(f"Tor refused {verb}: {code} {' '.join(lines)}",
                           TorFailure.PUBLISH_FAILED if verb == "ADD_ONION"
                           else TorFailure.CONTROL_REFUSED)
        return lines

    async def wait_event(self, match: str, timeout: float) -> str | None:
        """The first event (already received or to come) starting with ``match``."""
        with trio.move_on_after(timeout):
            while True:
                for i, event in enumerate(self.events):
                    if event.startswith(match):
                        del self.events[i]
                        return event
                async with self._lock:
                    await self._reply(event=True)  # only events come unasked
        return None

    async def _authenticate(self, prefer: Sequence[str], probed: bool = False,
                            trusted: Sequence[Path] = ()) -> None:
        """PROTOCOLINFO, then AUTHENTICATE: with nothing when Tor asks for nothing, else
        with its cookie file, SAFECOOKIE first (the cookie never crosses the connection,
        and Tor proves it knows it: a program squatting on the port learns nothing).
        Plain COOKIE only as :meth:`open` says."""
        info = " ".join(await self.command("PROTOCOLINFO 1"))
        found = re.search(r"METHODS=(\S+)", info)
        methods = set(found.group(1).split(",")) if found else set()
        m = re.search(r'COOKIEFILE="((?:[^"\\]|\\.)*)"', info)
        cookie_file = m.group(1).replace('\\"', '"').replace("\\\\", "\\") if m else None
        if "NULL" in methods:
            await self.command("AUTHENTICATE")
            return
        usable = [x for x in prefer if x in methods and (x != "COOKIE" or not probed)]
        if not usable and "COOKIE" in methods and "COOKIE" in prefer:
            raise _ControlRefused(
                f"the program on {self.where} offers only plain COOKIE authentication, "
                f"which would hand it the bytes of a file it names: nothing sent to a port "
                f"that was only probed (name the port with --tor-control and its cookie "
                f"with --tor-cookie to use it)")
        if cookie_file is None or not usable:
            raise TorError("Tor's control port asks for a password: configure it with "
                           "CookieAuthentication 1", TorFailure.CONTROL_REFUSED)
        if usable[0] == "COOKIE":
            cookie = _read_cookie(cookie_file, list(trusted))
            await self.command(f"AUTHENTICATE {cookie.hex()}")
            return
        cookie = _read_cookie(cookie_file,
                              [*trusted, *SYSTEM_TOR_DIRS] if probed else None)
        nonce = os.urandom(32)
        reply = " ".join(await self.command(f"AUTHCHALLENGE SAFECOOKIE {nonce.hex()}"))
        fields = dict(re.findall(r"(SERVERHASH|SERVERNONCE)=([0-9A-Fa-f]+)", reply))
        if set(fields) != {"SERVERHASH", "SERVERNONCE"}:
            raise TorError(f"Tor's AUTHCHALLENGE answer is not understood: {reply}",
                           TorFailure.CONTROL_REFUSED)
        try:
            server_nonce = bytes.fromhex(fields["SERVERNONCE"])
            server_hash = bytes.fromhex(fields["SERVERHASH"])
        except ValueError as exc:
            raise TorError(f"Tor's AUTHCHALLENGE answer is not understood: {reply}",
                           TorFailure.CONTROL_REFUSED) from exc
        material = cookie + nonce + server_nonce
        expected = hmac_sha256(b"Tor safe cookie authentication server-to-controller hash",
                               material)
        if not equal(expected, server_hash):
            raise _ControlRefused(f"the program on {self.where} does not know Tor's cookie: "
                                  f"it is not that tor (nothing sent to it)")
        digest = hmac_sha256(b"Tor safe cookie authentication controller-to-server hash",
                             material).hex()
        await self.command(f"AUTHENTICATE {digest}")

    async def getinfo(self, key: str) -> str:
        lines = await self.command(f"GETINFO {key}")
        first = lines[0].partition("=")[2]
        return "\n".join([first, *lines[1:-1]]).strip()

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            await self.stream.aclose()


# -- tor itself -------------------------------------------------------------------------

def _default_data_root() -> Path:
    from ..wire.logfile import data_dir

    return data_dir() / "tor"


class Tor:
    """The tor this program uses: a running one (``control``, ``socks``: where its ports
    are; None: ``CHKOBBA_TOR_CONTROL`` / ``CHKOBBA_TOR_SOCKS``, else the usual
    127.0.0.1:9051 when ``probe`` is true; ``cookie``: its cookie file or data directory,
    None: ``CHKOBBA_TOR_COOKIE``), or a private one started from ``binary``
    (default: ``tor`` on the PATH) in ``data_dir`` (default: ``<data dir>/tor/N``, the
    first not in use) with ``extra_config`` torrc lines added (a test network's).
    :meth:`ready` connects (or starts) it once; it stays for the program's lifetime.

    What happens meanwhile goes to ``on_event`` (data, no words): :class:`TorStarting`,
    each :class:`TorBootstrap` as tor reports it (``STATUS_CLIENT`` events), and once
    :class:`TorFailed` if tor cannot be used; a failure stays (the next :meth:`ready`
    raises it again at once, without starting another tor).  ``bootstrap_timeout``: the
    seconds tor may take to reach the Tor network.  Given ``socks`` and no ``control``,
    joining needs no control port at all: connections go straight to that SOCKS port."""

    def __init__(self, control: str | None = None, socks: str | None = None, *,
                 data_dir: Path | None = None, extra_config: Sequence[str] = (),
                 binary: str | None = None, probe: bool = True,
                 bootstrap_timeout: float = TOR_BOOTSTRAP_TIMEOUT,
                 cookie: str | Path | None = None,
                 on_event: Callable[[TorEvent], None] | None = None) -> None:
        self.control_address = control or os.environ.get("CHKOBBA_TOR_CONTROL") or None
        self.socks_address = socks or os.environ.get("CHKOBBA_TOR_SOCKS") or None
        cookie = cookie or os.environ.get("CHKOBBA_TOR_COOKIE") or None
        #: The cookie file or Tor data directory the user named (plain COOKIE
        #: authentication sends only a cookie from there, or from a private tor's folder).
        self.cookie = Path(cookie).expanduser() if cookie is not None else None
        self.data_dir = data_dir
        self.extra_config = list(extra_config)
        self.binary = binary
        self.probe = probe and not extra_config
        self.bootstrap_timeout = bootstrap_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.control: _Control | None = None
        self._lock_file: int | None = None
        self._ready: trio.Event | None = None
        self._forgot = -math.inf
        #: Where :class:`TorStarting`, :class:`TorBootstrap` and :class:`TorFailed` go.
        self.on_event = on_event
        #: The last progress tor reported (None: none yet).
        self.bootstrap: TorBootstrap | None = None
        #: Why tor could not be used, once it failed (raised again by :meth:`ready`).
        self.failure: TorError | None = None
        #: Whether :meth:`ready` needs no control port (a SOCKS port named alone).
        self.socks_only = self.socks_address is not None and self.control_address is None
        self._told_socks = False

    def _emit(self, event: TorEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def available(self) -> bool:
        """Whether tor can be used at all: a control port or a SOCKS port named, or a
        binary to start (a probe of a running tor happens in :meth:`ready`)."""
        return (self.control_address is not None or self.socks_address is not None
                or self._binary() is not None)

    def _binary(self) -> str | None:
        return self.binary if self.binary else shutil.which("tor")

    async def ready(self) -> _Control:
        """The control connection, authenticated, with tor bootstrapped."""
        if self.control is not None:
            return self.control
        if self.failure is not None:
            raise self.failure
        if self._ready is not None:
            await self._ready.wait()
            if self.control is None:
                raise self.failure or TorError("tor could not be started")
            return self.control
        self._ready = event = trio.Event()
        try:
            self.control = await self._connect()
            await self._bootstrapped(self.control)
            if self.socks_address is None:
                listeners = (await self.control.getinfo("net/listeners/socks")).split()
                if not listeners:
                    raise TorError("this tor has no SOCKS port (set SocksPort, or pass "
                                   "--tor-socks)", TorFailure.NO_SOCKS)
                self.socks_address = listeners[0].strip('"')
        except BaseException as exc:
            with trio.CancelScope(shield=True):
                await self.aclose()  # a private tor started stops too
            if isinstance(exc, TorError):
                self.failure = exc
                self._emit(TorFailed(exc.code, str(exc), exc.bootstrap or self.bootstrap,
                                     self.bootstrap_timeout))
            event.set()
            raise
        event.set()
        return self.control

    def _trusted(self) -> list[Path]:
        return [self.cookie] if self.cookie is not None else []

    async def _connect(self) -> _Control:
        if self.control_address is not None:
            self._emit(TorStarting(False, self.control_address))
            return await _Control.open(self.control_address, trusted=self._trusted())
        if self.probe:
            refused: _ControlRefused | None = None
            with trio.move_on_after(2):
                try:
                    return await _Control.open(PROBED_CONTROL, probed=True,
                                               trusted=self._trusted())
                except _ControlRefused as exc:
                    refused = exc
                    log.warning("%s", exc)
                except TorError:
                    pass  # nobody there
            if refused is not None and self._binary() is None:
                raise refused
        self._emit(TorStarting(True))
        return await self._start()

    async def _start(self) -> _Control:
        binary = self._binary()
        if binary is None:
            raise TorUnavailable()
        folder = self.data_dir or self._free_data_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
        port_file = folder / "control.port"
        port_file.unlink(missing_ok=True)
        torrc = folder / "torrc"
        torrc.write_text("\n".join([
            f"DataDirectory {folder}", "SocksPort auto", "ControlPort auto",
            f"ControlPortWriteToFile {port_file}", "CookieAuthentication 1",
            f"CookieAuthFile {folder / 'control_auth_cookie'}",
            f"__OwningControllerProcess {os.getpid()}", f"Log notice file {folder / 'notice.log'}",
            "AvoidDiskWrites 1", *self.extra_config, ""]))
        # Its first lines (before it opens its log) go to a file: a pipe nobody reads
        # would fill up and stop it.
        with open(folder / "tor.out", "wb") as out:
            self.process = subprocess.Popen(
                [binary, "-f", str(torrc), "--ignore-missing-torrc"],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        atexit.register(self._stop)
        with trio.move_on_after(30) as waited:
            while not port_file.exists() or not port_file.read_text().strip():
                if self.process.poll() is not None:
                    said = (folder / "tor.out").read_text(errors="replace").splitlines()
                    # Its first warning says why ("Unknown option..."), the last line
                    # only that it failed.
                    why = [x for x in said if "[warn]" in x] or said[-1:] or ["?"]
                    raise TorError(f"tor exited at once: {why[0].partition('] ')[2] or why[0]}")
                await trio.sleep(0.05)
        if waited.cancelled_caught:
            self._stop()
            raise TorError("tor did not open its control port within 30 s")
        where = port_file.read_text().split("=", 1)[-1].strip()
        control = await _Control.open(where, trusted=[folder])
        await control.command("TAKEOWNERSHIP")  # tor exits when this connection closes
        await control.command("RESETCONF __OwningControllerProcess")
        return control

    def _free_data_dir(self) -> Path:
        import fcntl

        root = _default_data_root()
        root.mkdir(parents=True, exist_ok=True)
        for n in range(64):
            folder = root / str(n)
            folder.mkdir(exist_ok=True, mode=0o700)
            fd = os.open(folder / "chkobba.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self._lock_file = fd  # held while this process lives
            return folder
        raise TorError(f"every private tor folder under {root} is in use")

    async def _bootstrapped(self, control: _Control) -> None:
        """Return once tor reached the Tor network; each step it reports on the way is
        an event (:class:`TorBootstrap`); past ``bootstrap_timeout``, TorError
        (:data:`TorFailure.NO_NETWORK`, with the last step)."""
        deadline = trio.current_time() + self.bootstrap_timeout
        # Subscribed first: a step taken while the phase is asked arrives as an event.
        await control.command("SETEVENTS STATUS_CLIENT")
        try:
            phase = await control.getinfo("status/bootstrap-phase")
            self._progress(parse_bootstrap(phase))
            while self.bootstrap is None or self.bootstrap.progress < 100:
                said = await control.wait_event("STATUS_CLIENT ",
                                                deadline - trio.current_time())
                if said is None:
                    last = self.bootstrap
                    if await self._network_disabled(control):
                        raise TorError(
                            f"the tor at {control.where} has its network turned off "
                            f"(DisableNetwork 1)", TorFailure.NETWORK_DISABLED,
                            bootstrap=last)
                    raise TorError(
                        f"tor did not connect to the Tor network within "
                        f"{self.bootstrap_timeout:g} s (last: "
                        f"{last.summary if last else 'nothing'}"
                        f"{f', {last.warning}' if last and last.warning else ''})",
                        TorFailure.NO_NETWORK, bootstrap=last)
                self._progress(parse_bootstrap(said))
        finally:
            with contextlib.suppress(TorError, trio.BrokenResourceError,
                                     trio.ClosedResourceError):
                await control.command("SETEVENTS")
            control.events.clear()

    @staticmethod
    async def _network_disabled(control: _Control) -> bool:
        """Whether tor's network is turned off (``DisableNetwork 1``: Tor Browser's tor
        until its Connect button is pressed), which no wait mends."""
        try:
            lines = await control.command("GETCONF DisableNetwork", ok=False)
        except TorError:
            return False
        return any(line.strip() == "DisableNetwork=1" for line in lines)

    def _progress(self, step: TorBootstrap | None) -> None:
        """A step tor reported: an event when it says something new.  The same warning
        again, counted up, is kept but not said again (tor repeats it every second); a
        step behind the last one known (an event older than the phase asked) is
        dropped."""
        last = self.bootstrap
        if step is None or (last is not None and step.progress < last.progress):
            return
        if last is not None and dataclasses.replace(last, count=step.count) == step:
            if step.count > last.count:
                self.bootstrap = step
            return
        self.bootstrap = step
        self._emit(step)

    def _stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    async def aclose(self) -> None:
        """Close the control connection (a private tor exits with it) and stop it."""
        if self.control is not None:
            await self.control.aclose()
            self.control = None
        self._ready = None
        self._forgot = -math.inf  # the next run's trio clock is another
        self._stop()
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None

    async def add_onion(self, key: bytes, virtual_port: int, target: str,
                        publish_timeout: float = 120.0) -> str:
        """Publish the onion service of ``key``: ``virtual_port`` leads to ``target``
        (``127.0.0.1:PORT``).  Returns once its descriptor is uploaded (or after
        ``publish_timeout``).  The service lasts as long as the control connection."""
        control = await self.ready()
        await control.command("SETEVENTS HS_DESC")
        try:
            lines = await control.command(
                f"ADD_ONION ED25519-V3:{_expanded_key(key)} Flags=DiscardPK "
                f"Port={virtual_port},{target}")
            service = next(x.partition("=")[2] for x in lines if x.startswith("ServiceID="))
            if await control.wait_event(f"HS_DESC UPLOADED {service}",
                                        publish_timeout) is None:
                log.warning("onion service %s: no descriptor uploaded yet", service)
        finally:
            await control.command("SETEVENTS")
            control.events.clear()
        return service

    async def del_onion(self, service: str) -> None:
        if self.control is not None:
            with contextlib.suppress(TorError, trio.BrokenResourceError,
                                     trio.ClosedResourceError):
                await self.control.command(f"DEL_ONION {service}", ok=False)

    async def _forget_onions(self) -> None:
        """Make tor forget the onion service descriptors it has (``SIGNAL NEWNYM``, at
        most every 10 s, as tor allows): after a host restarts at the same address, a
        tor that fetched its descriptor meanwhile holds the old one (its introduction
        points gone) and would not ask the directories again for a quarter of an hour.
        New connections of other programs on that tor get new circuits too."""
        now = trio.current_time()
        if self.control is None or now - self._forgot < 10.0:
            return
        self._forgot = now
        with contextlib.suppress(TorError, trio.BrokenResourceError,
                                 trio.ClosedResourceError):
            await self.control.command("SIGNAL NEWNYM", ok=False)

    async def open_socks(self, host: str, port: int) -> trio.SocketStream:
        """A stream to ``host:port`` through Tor's SOCKS5 port (RFC 1928).  A SOCKS port
        named alone is used as it is (no control port asked); a refusal is reported
        (:class:`SocksFailed`) and raised (:class:`SocksError`)."""
        if not self.socks_only:
            await self.ready()
        elif not self._told_socks:  # the tor asked is that port's: said once
            self._told_socks = True
            self._emit(TorStarting(False, self.socks_address or ""))
        assert self.socks_address is not None
        try:
            stream = await trio.open_tcp_stream(*_split_where(self.socks_address))
        except OSError as exc:
            # No cause kept: tor's port refused, not the table (nobody_listening).
            error = TorError(f"nothing answers at Tor's SOCKS port {self.socks_address}: "
                             f"{exc.strerror or exc}", TorFailure.NO_SOCKS)
            if self.failure is None:
                self.failure = error
                self._emit(TorFailed(error.code, str(error)))
            raise error from None
        try:
            name = host.encode("idna")
            # greeting: version 5, one method, "no authentication"
            await stream.send_all(b"\x05\x01\x00")
            if await _exactly(stream, 2) != b"\x05\x00":
                raise OSError("Tor's SOCKS port wants authentication")
            # CONNECT, reserved, address type 3 (a domain name), the name, the port
            await stream.send_all(b"\x05\x01\x00\x03" + bytes([len(name)]) + name
                                  + port.to_bytes(2, "big"))
            head = b""
            with trio.move_on_after(TOR_SOCKS_REPLY):
                head = await _exactly(stream, 4)
            if not head:
                head = b"\x05\x06"  # "circuit timed out", as tor itself would say
            if head[1] != 0:
                where = f"{host}:{port}"
                self._emit(SocksFailed(where, head[1]))
                if head[1] in _STALE and is_onion(host):
                    await self._forget_onions()
                raise (_SocksRefused if head[1] == 5 else SocksError)(head[1], where)
            size = {1: 4, 4: 16}.get(head[3])
            if size is None:  # a domain name: its length first
                size = (await _exactly(stream, 1))[0]
            await _exactly(stream, size + 2)  # the bound address and port
        except BaseException:
            await stream.aclose()
            raise
        return stream


async def _exactly(stream: trio.abc.ReceiveStream, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = await stream.receive_some(n - len(data))
        if not chunk:
            raise OSError("Tor's SOCKS port closed the connection")
        data += chunk
    return bytes(data)


# -- the transport ----------------------------------------------------------------------

class _TorStream(trio.abc.Stream):
    """A stream through Tor: not half-closeable (Tor ends the whole stream at the first
    end of file), so it offers no ``send_eof``."""

    def __init__(self, inner: trio.SocketStream) -> None:
        self.inner = inner
        self.socket = inner.socket

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


class _OnionListener(trio.abc.Listener[trio.abc.Stream]):
    """The local listener an onion service leads to.  Its service is published by
    :meth:`publish`: at once by :meth:`TorTransport.listen` when the table has no other
    listener, else by the first :meth:`accept` (the LAN is served meanwhile, and what
    tor says on the way are events).  One that could not be published accepts nothing:
    the table goes on without it (:class:`TorFailed` said why)."""

    def __init__(self, transport: TorTransport, local: trio.SocketListener,
                 virtual_port: int) -> None:
        self.tor = transport.tor
        self.key = transport.key
        self.local = local
        self.service: str | None = None
        self.virtual_port = virtual_port

    @property
    def onion(self) -> str:
        return onion_address(self.key)

    async def publish(self) -> None:
        """Tor ready (started, bootstrapped) and the onion service published;
        :class:`OnionPublished` once it is; TorError (reported once as
        :class:`TorFailed`) if not."""
        tor = self.tor
        local_port = int(self.local.socket.getsockname()[1])
        try:
            await tor.ready()
            self.service = await tor.add_onion(self.key, self.virtual_port,
                                               f"127.0.0.1:{local_port}")
        except (OSError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            error = exc if isinstance(exc, TorError) else TorError(
                f"Tor's control connection failed: {exc}", TorFailure.CONTROL_CLOSED)
            if tor.failure is None:  # ready() reported its own
                tor.failure = error
                tor._emit(TorFailed(error.code, str(error), tor.bootstrap,
                                    tor.bootstrap_timeout))
            raise error from None
        tor._emit(OnionPublished(self.onion, self.virtual_port))

    async def accept(self) -> trio.abc.Stream:
        if self.service is None:
            try:
                await self.publish()
            except TorError:
                await trio.sleep_forever()  # said (TorFailed): the table goes on without
        return _TorStream(await self.local.accept())

    async def aclose(self) -> None:
        if self.service is not None:
            with trio.CancelScope(shield=True):
                await self.tor.del_onion(self.service)
        await self.local.aclose()


class TorTransport:
    """Listens on an onion service (and on ``tcp`` too when given: the LAN still
    reaches the table directly) and connects to ``.onion`` addresses through Tor's
    SOCKS5 port (other addresses through ``tcp`` when given, else through Tor too).

    ``key``: the onion service's key (:func:`new_onion_key`; keep it with the table's
    saved state so that a restarted host is at the same address); None: a fresh one.
    The onion service's port is the table's port (the TCP listeners' when ``port`` is 0).
    Every peer that comes through Tor is "onion" to admission (``shared_address``).

    With ``tcp``, :meth:`listen` returns at once: the TCP listeners serve while tor
    starts and the service is published (events to ``tor.on_event``, or ``on_event``:
    :class:`TorStarting`, :class:`TorBootstrap`, then :class:`OnionPublished` or
    :class:`TorFailed`).  Without, it returns once the service is published."""

    shared_address = True
    #: A friend's first try at a fresh table may find no descriptor yet, or a restarted
    #: host's stale one (tor is then made to forget it): tried again for a minute.
    connect_patience = TOR_CONNECT_PATIENCE

    def __init__(self, tor: Tor, key: bytes | None = None,
                 tcp: Transport | None = None,
                 on_event: Callable[[TorEvent], None] | None = None) -> None:
        self.tor = tor
        self.key = key if key is not None else new_onion_key()
        self.tcp = tcp
        self._local_ports: set[int] = set()
        if on_event is not None:
            tor.on_event = on_event

    @property
    def onion(self) -> str:
        """This transport's onion address (``<56 letters>.onion``)."""
        return onion_address(self.key)

    async def listen(self, port: int, bind: str) -> list[trio.abc.Listener[trio.abc.Stream]]:
        listeners: list[trio.abc.Listener[trio.abc.Stream]] = []
        if self.tcp is not None:
            listeners = await self.tcp.listen(port, bind)
            port = self.tcp.port_of(listeners[0])
        try:
            [local] = await trio.open_tcp_listeners(0, host="127.0.0.1")
            local_port = int(local.socket.getsockname()[1])
            onion = _OnionListener(self, local, port or local_port)
            if self.tcp is None:  # nothing else listens: published before returning
                try:
                    await onion.publish()
                except BaseException:
                    await local.aclose()
                    raise
        except BaseException:
            for listener in listeners:
                await listener.aclose()
            raise
        self._local_ports.add(local_port)
        listeners.append(onion)
        return listeners

    def port_of(self, listener: trio.abc.Listener[trio.abc.Stream]) -> int:
        if isinstance(listener, _OnionListener):
            return listener.virtual_port
        assert self.tcp is not None
        return self.tcp.port_of(listener)

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        if self.tcp is not None and not is_onion(host):
            return await self.tcp.connect(host, port)
        return _TorStream(await self.tor.open_socks(host, port))

    def peer_address(self, stream: trio.abc.Stream) -> str:
        try:
            local = int(stream.socket.getsockname()[1])  # type: ignore[attr-defined]
        except (OSError, AttributeError, IndexError):
            return "?"
        if local in self._local_ports:
            return "onion"
        return self.tcp.peer_address(stream) if self.tcp is not None else "?"

    def close_now(self, stream: trio.abc.Stream) -> None:
        TcpTransport().close_now(stream)

    async def aclose(self) -> None:
        """Done with Tor: its onion services end, a private tor stops."""
        await self.tor.aclose()
