"""The game's signed transcript on disk, and the little a peer keeps to resume after a crash.

A **log file** (extension ``.chklog``) is ``MAGIC`` then frames exactly as on the wire
(4-byte big-endian length, then the body): first a ``log`` header message, then every
signed entry of the game (``sig`` messages) byte for byte as it travelled, in chain
order, including the closing ``abort`` record if the game ended early.  It is appended and
flushed entry by entry, so a crash loses at most the entry being written, and a reader
treats a short last frame as a truncation.  PROTOCOL.md ("The log file") is normative.

A **saved game** is a small msgpack file, readable by its owner only (mode 0600), holding
what the log cannot: the game's *master secret* from which this peer derives every deal
secret (so replaying the log with it rebuilds the exact same state), the host address and
the log's path.  It is deleted when the match ends.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs

from .._version import __version__
from ..errors import CodedLocalError, LocalError, errno_name
from . import codec as wire

__all__ = [
    "MAGIC",
    "data_dir",
    "default_log_path",
    "TranscriptWriter",
    "MAX_LOG_BYTES",
    "MAX_ENTRIES",
    "MAX_HEADER",
    "TRUNCATED",
    "LogUnreadable",
    "LOG_PROBLEMS",
    "LogFile",
    "read_log",
    "read_header",
    "SavedGame",
    "SeatLock",
    "SeatBusy",
    "load_identity",
    "KeyUnusable",
    "KEY_PROBLEMS",
    "write_private",
]

MAGIC = b"CHKLOG\x00\x01"
APP = "chkobba-p2p"


def data_dir() -> Path:
    """The user's data directory for this program (``CHKOBBA_DATA_DIR`` overrides it)."""
    override = os.environ.get("CHKOBBA_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP))


def saved_game_path(fingerprint: str, table: str) -> Path:
    """Where a seat's saved game (its resume state) for one table lives.

    One file per identity *and* table (``table`` is the host's address for a joiner,
    ``host-PORT`` for a host), so that joining a second table never overwrites the
    secrets of a game one can still come back to.
    """
    slug = "".join(c if c.isalnum() or c in "-." else "_" for c in table)
    return data_dir() / "resume" / f"{fingerprint}-{slug}.state"


def default_log_path(label: str = "game") -> Path:
    """A fresh log path under ``<data dir>/logs``: UTC time, a label, a random suffix.
    The label (a player's name, often) keeps its letters, digits, ``-`` and ``_``; any
    other character is a ``_``, so that a name never makes the log a folder's, or
    another folder's (``a/b``, ``../x``)."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    label = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label)
    return data_dir() / "logs" / f"{stamp}-{label}-{os.urandom(3).hex()}.chklog"


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically to a file only its owner can read (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


class TranscriptWriter:
    """Appends frames to a log file, flushing each one.  The file is created (with its
    directory) at the first write; :attr:`path` is known from the start so it can be
    printed before the game begins.  ``resume_at`` reopens an existing log after its last
    complete frame (a frame torn by a crash is cut off)."""

    def __init__(self, path: Path | str, resume_at: int | None = None) -> None:
        self.path = Path(path)
        self._f: BinaryIO | None = None
        self.count = 0
        self._resume_at = resume_at

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._resume_at is not None:
            self._f = log = open(self.path, "r+b")  # noqa: SIM115 - kept open for the game
            log.truncate(self._resume_at)
            log.seek(self._resume_at)
            return
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        self._f = f = open(self.path, "ab")  # noqa: SIM115 - kept open for the whole game
        if fresh:
            f.write(MAGIC)

    def write_header(self, *, game: bytes, seat: int | None, key: bytes | None, name: str,
                     host: str, bots: dict[bytes, tuple[str, bytes]] | None = None) -> None:
        """``seat`` and ``key`` None: a spectator's copy of the log (it holds no seat).
        ``bots``: the host's bots at this table, key -> (level, the host's voucher)
        (PROTOCOL.md 5.6, 14); written only when there are some."""
        header: dict[str, Any] = {"t": "log", "v": 1, "software": f"chkobba-p2p {__version__}",
                        "game": game, "seat": seat, "key": key, "name": name, "host": host,
                        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}
        if seat is None:
            header["spectator"] = True
        if bots:
            header["bots"] = [{"key": k, "level": lv, "sig": sig}
                              for k, (lv, sig) in sorted(bots.items())]
        self.append(wire.encode(header))

    def append(self, body: bytes) -> None:
        if self._f is None:
            self._open()
        assert self._f is not None
        self._f.write(wire.frame(body))
        self._f.flush()
        self.count += 1

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None


#: Largest log file read.  A 4-player match with shuffle proofs writes about 40 KB per
#: hand; this leaves room for the longest matches and refuses a hostile giant at once.
MAX_LOG_BYTES = 64 << 20
#: Largest number of entries read (a long 4-player match has a few thousand).
MAX_ENTRIES = 200_000
#: The largest log header read alone (:func:`read_header`; a header is a few hundred
#: bytes).
MAX_HEADER = 4096
#: :attr:`LogFile.tail` of a file whose last frame is short (a crash, or a cut file).
TRUNCATED = "truncated"


#: Every :attr:`LogUnreadable.code`, with the keys of its data (``path``: the file or
#: folder as given; ``why``: the OS's own words, ``errno`` the name of its error number,
#: ``ENOENT``, ``EACCES``, ``EISDIR``..., or ``""``: :func:`~chkobba_p2p.errors.errno_name`;
#: ``size``, ``limit``, ``max``: numbers).
#: A code is never renamed; a client words each (the terminal client: ``lu_`` + code).
LOG_PROBLEMS: dict[str, tuple[str, ...]] = {
    "log_missing": ("path",),  # no such file
    "log_cannot_read": ("path", "why", "errno"),  # another failure to open or read it
    "log_too_big": ("path", "limit"),  # more than MAX_LOG_BYTES
    "log_not_chkobba": ("path",),  # it does not start with the log's magic bytes
    "log_too_many_entries": ("path", "max"),  # more than MAX_ENTRIES
    "log_no_header": ("path",),  # not one complete frame
    "log_header_not_a_message": ("path",),  # the first frame does not decode
    "log_not_a_header": ("path",),  # the first frame is another message
    "log_bad_frame": ("path",),  # a frame announces more bytes than any frame may hold
    # -- a folder of logs (chkobba_p2p.observe.history.log_paths)
    "folder_missing": ("path",),
    "not_a_folder": ("path",),
    "folder_cannot_read": ("path", "why", "errno"),
}


class LogUnreadable(CodedLocalError):
    """The file is not a chkobba log at all (missing, too big, bad magic, no header);
    ``code`` (one of :data:`LOG_PROBLEMS`) and ``data`` say which for programs."""

    CODES = LOG_PROBLEMS
    code = "log_unreadable"


@dataclass(frozen=True)
class LogFile:
    """A log file split into frames (nothing is verified here).  ``bodies`` are the
    entries after the header, with their byte ``offsets`` in the file.  ``tail`` says
    how the file ends: None (cleanly), :data:`TRUNCATED` (a short last frame: a crash, or
    a cut file) or a sentence describing a frame that cannot be one (an impossible
    length); the frames before it are read all the same."""

    path: str
    header: dict[str, Any]
    bodies: tuple[bytes, ...]
    offsets: tuple[int, ...]
    tail: str | None
    size: int
    #: Bytes up to the end of the last complete frame (where appending may resume).
    valid_length: int = 0

    @property
    def truncated(self) -> bool:
        """The last frame is short (a crash cut it)."""
        return self.tail == TRUNCATED


def _header(path: str | Path, body: bytes) -> dict[str, Any]:
    """The log header a first frame holds; :class:`LogUnreadable` when it holds none."""
    try:
        header: dict[str, Any] = wire.decode(body)
    except wire.ProtocolError as exc:
        raise LogUnreadable(f"{path}: the header frame is not a message ({exc})",
                            code="log_header_not_a_message",
                            data={"path": str(path)}) from None
    if wire.message_type(header) != "log":
        raise LogUnreadable(f"{path}: the first frame is not a log header",
                            code="log_not_a_header", data={"path": str(path)})
    return header


def read_log(path: str | Path) -> LogFile:
    """Split a log file into its header and entry frames (nothing is verified here): the
    one reader of log files, for the audit, a replay and a resume alike.  At most
    :data:`MAX_LOG_BYTES` bytes and :data:`MAX_ENTRIES` entries.

    Raises :class:`LogUnreadable` if it is not a log file."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogUnreadable(f"{path}: {size} bytes, larger than the {MAX_LOG_BYTES}-byte "
                                "limit for a log", code="log_too_big",
                                data={"path": str(path), "limit": MAX_LOG_BYTES})
        with open(p, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise LogUnreadable(f"{path}: {exc.strerror or exc}", code="log_missing",
                                data={"path": str(path)}) from None
        raise LogUnreadable(f"{path}: {exc.strerror or exc}", code="log_cannot_read",
                            data={"path": str(path), "why": str(exc.strerror or exc),
                                  "errno": errno_name(exc)}) from None
    if len(data) > MAX_LOG_BYTES:
        raise LogUnreadable(f"{path}: larger than the {MAX_LOG_BYTES}-byte limit for a log",
                            code="log_too_big", data={"path": str(path), "limit": MAX_LOG_BYTES})
    if not data.startswith(MAGIC):
        raise LogUnreadable(f"{path}: not a chkobba log (it does not start with the log "
                            "file's magic bytes)", code="log_not_chkobba",
                            data={"path": str(path)})
    pos = len(MAGIC)
    bodies: list[bytes] = []
    offsets: list[int] = []
    tail: str | None = None
    while pos < len(data):
        if pos + 4 > len(data):
            tail = TRUNCATED
            break
        n = int.from_bytes(data[pos:pos + 4], "big")
        if n > wire.MAX_FRAME:
            tail = f"a frame at byte {pos} announces {n} bytes, more than any frame may hold"
            break
        if pos + 4 + n > len(data):
            tail = TRUNCATED
            break
        bodies.append(data[pos + 4:pos + 4 + n])
        offsets.append(pos)
        pos += 4 + n
        if len(bodies) > MAX_ENTRIES + 1:
            raise LogUnreadable(f"{path}: more than {MAX_ENTRIES} entries",
                                code="log_too_many_entries",
                                data={"path": str(path), "max": MAX_ENTRIES})
    if not bodies:
        raise LogUnreadable(f"{path}: no header (the file holds no complete frame)",
                            code="log_no_header", data={"path": str(path)})
    header = _header(path, bodies[0])
    return LogFile(str(path), header, tuple(bodies[1:]), tuple(offsets[1:]), tail, len(data),
                   pos)


def read_header(path: Path | str) -> dict[str, Any] | None:
    """A log file's header (its first frame), or None: read alone, at most
    :data:`MAX_HEADER` bytes."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + 4)
            if len(head) < len(MAGIC) + 4 or not head.startswith(MAGIC):
                return None
            n = int.from_bytes(head[len(MAGIC):], "big")
            if n > MAX_HEADER:
                return None
            body = f.read(n)
        return _header(path, body)
    except (OSError, ValueError, LogUnreadable):
        return None


@dataclass
class SavedGame:
    """What a peer needs, beside its log, to resume a game after a crash."""

    game: bytes
    seat: int
    host: str
    master: bytes
    log: str
    #: The table's clocks as its host announced them (move limit, allowance of time
    #: away, whole seconds), shown while coming back, before the host speaks; None when
    #: not known (a host's own save: its configuration says them).
    limits: tuple[int, int] | None = None
    #: A joiner's: the table's seat secret its join code carried (PROTOCOL.md 5.5),
    #: proven again on each return, so that a return without the whole code (a table
    #: picked on the LAN, the bare address) still proves it; None: none.
    seat_secret: str | None = None

    def save(self, path: Path) -> None:
        raw: dict[str, Any] = {"t": "saved", "game": self.game, "seat": self.seat,
                               "host": self.host, "master": self.master, "log": self.log}
        if self.limits is not None:
            raw["limits"] = list(self.limits)
        if self.seat_secret is not None:
            raw["seat_secret"] = self.seat_secret
        write_private(path, wire.encode(raw))

    @classmethod
    def load(cls, path: Path) -> SavedGame | None:
        try:
            raw = wire.decode(Path(path).read_bytes())
            limits = raw.get("limits")
            known = tuple(limits) if isinstance(limits, list) and len(limits) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in limits) \
                else None
            secret = raw.get("seat_secret")
            return cls(raw["game"], raw["seat"], raw["host"], raw["master"], raw["log"],
                       known, secret if isinstance(secret, str) else None)
        except (OSError, KeyError, wire.ProtocolError):
            return None

    @staticmethod
    def file_aside(path: Path) -> Path | None:
        """Move a saved game that can no longer be resumed out of the way of the next
        join (``resume/filed/``, never deleted: its secrets may still open the log's
        hands); where it went, or None if it could not be moved."""
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        target = path.parent / "filed" / f"{path.stem}-{stamp}{path.suffix}"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
        except OSError:
            return None
        return target


class SeatBusy(LocalError):
    """Another process of this identity is already playing (:class:`SeatLock`)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        who = f"pid {pid}" if pid else "another process"
        super().__init__(f"this game is open in another terminal, {who}")
        self.path = path
        self.pid = pid


class SeatLock:
    """One process per seat: an exclusive lock on ``<state>.lock`` beside a seat's saved
    game, holding the owner's pid.  The lock is the kernel's (``flock``), so it dies with
    its process however that ends (``kill -9`` included): a lock file left behind is
    stale by construction and taken over.  Use as a context manager or :meth:`acquire` /
    :meth:`release`; :meth:`acquire` raises :class:`SeatBusy` (with the other pid) at
    once, without waiting."""

    def __init__(self, state_path: Path | str) -> None:
        self.path = Path(str(state_path) + ".lock")
        self._fd: int | None = None

    def acquire(self) -> SeatLock:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                text = os.read(fd, 32).decode("ascii", "replace").strip()
            finally:
                os.close(fd)
            raise SeatBusy(self.path, int(text) if text.isdigit() else None) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            import fcntl

            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> SeatLock:
        return self if self._fd is not None else self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


#: Every :attr:`KeyUnusable.code`, with the keys of its data (``path``: the key file as
#: given).  A code is never renamed; a client words each (the terminal client: ``ik_`` +
#: code).
KEY_PROBLEMS: dict[str, tuple[str, ...]] = {
    "key_readable_by_others": ("path",),  # a group or other permission bit set
    "key_not_an_identity": ("path",),  # not the 32 bytes of a seed
    "key_missing": ("path",),  # no file, and not to be created
}


class KeyUnusable(CodedLocalError):
    """An identity key file that cannot be used (others can read it, it is not one, it
    is missing); ``code`` (one of :data:`KEY_PROBLEMS`) and ``data`` say which."""

    CODES = KEY_PROBLEMS
    code = "key_unusable"


def load_identity(path: Path | str, *, create: bool = True) -> wire.Identity:
    """The Ed25519 identity stored at ``path`` (the raw 32-byte seed, mode 0600), created
    when missing.  Refuses a key file others can read (:class:`KeyUnusable`)."""
    path = Path(path)
    if path.exists():
        mode = path.stat().st_mode & 0o077
        if mode and os.name == "posix":
            raise KeyUnusable(f"{path} is readable by others; chmod 600 it",
                              code="key_readable_by_others", data={"path": str(path)})
        seed = path.read_bytes()
        if len(seed) != 32:
            raise KeyUnusable(f"{path} is not an identity key file",
                              code="key_not_an_identity", data={"path": str(path)})
        return wire.Identity.from_seed(seed)
    if not create:
        raise KeyUnusable(f"no identity key at {path}", code="key_missing",
                          data={"path": str(path)})
    identity = wire.Identity.generate()
    write_private(path, identity.seed)
    return identity
