"""The link messages (PROTOCOL.md 5, 12, 13, 17, 18): one frozen class each, parsed and
bounded at the edge.

A link message is any frame but a signed entry (``sig``): the handshake (``host``,
``knock``, ``hello``, ``welcome``, ``watch``, ``watching``), the lobby and its ready check
(``lobby``, ``start``), and what travels beside the transcript (``chat``, ``wait``,
``back``, ``away``, ``rematch``, ``rematch-offer``, ``spectators``, ``ping``, ``pong``,
``error``).  None of
them is a signed entry: what they say is shown, never trusted (the proofs of possession
of ``hello``, ``welcome`` and ``knock`` prove a key, nothing of the game).

Each class has ``to_wire() -> dict`` (``wire.encode`` of it gives exactly the bytes the
peers have always sent: field order is part of it) and ``from_wire(dict)``, which checks
every field it keeps and raises :class:`~chkobba_p2p.wire.codec.ProtocolError` (``bad_field``
unless said otherwise) for one that is off.  :func:`parse_link_message` dispatches on
``t`` (``unknown_type`` for a type that is not a link message).

What a connection carries is a :data:`Frame`: :func:`read_frame` gives a link message, a
:class:`Signed` entry (the transcript's, opened by the session), an :class:`Unknown` type
(a later version's) or a :class:`Malformed` link message (the error its class raised),
and never raises.  The cores take these and dispatch on the class; what a core does with
an unknown or malformed message (ignore it, or refuse it with the code its state table
says) is the core's decision, as it always was.  The only read of ``t`` is here
(:func:`_type_of`), the codec's edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..game.seating import MAX_PLAYERS as SEATS_MAX
from ..observe.vouch import MAX_LEVEL
from ..text import first_invisible
from ..wire.codec import (
    MAX_NAME,
    MAX_STR,
    SUPPORTED_VERSIONS,
    ErrorCode,
    ProtocolError,
    decode,
    encode,
    get_field,
    message_type,
)
from .events import clean_chat

__all__ = [
    "MAX_PLAYERS", "MAX_ERROR_TEXT", "MAX_LIMIT", "MAX_SPECTATORS", "LINK_TYPES",
    "display_name", "clean_text", "read_limits", "read_allowance_left", "read_move_used",
    "read_have",
    "Host", "Hello", "Welcome", "Watch", "Watching", "LobbySeat", "Lobby", "Start", "Chat",
    "Wait", "Back", "Away", "Rematch", "RematchOffer", "Spectators", "Ping", "Pong",
    "ErrorMsg", "Knock",
    "LinkMessage", "parse_link_message",
    "Signed", "Unknown", "Malformed", "Frame", "read_frame", "as_frame", "type_name",
    "Greeting",
    "kind_of",
]

MAX_PLAYERS = SEATS_MAX  # the shapes are seating.py's
#: Longest error text kept from the network, in characters.
MAX_ERROR_TEXT = 200
#: The longest move limit or away allowance a host may announce, in seconds (a day): past
#: it a joining peer keeps its own values (PROTOCOL.md 12.3).
MAX_LIMIT = 86400
#: The most spectators a host may admit (``--spectators``).
MAX_SPECTATORS = 64
_MAX_CAPS = 64


def _bad(detail: str, violation: str, **facts: str | int) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_FIELD, detail, violation=violation, facts=facts)


def _int(value: Any, lo: int, hi: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    return None


def _bounded(msg: dict[str, Any], name: str, lo: int, hi: int) -> int:
    value = _int(msg.get(name), lo, hi)
    if value is None:
        raise _bad(f"{name!r} must be an int in {lo}..{hi}", "field_range", field=name,
                   min=lo, max=hi)
    return value


def display_name(value: Any) -> str:
    """A display name as PROTOCOL.md 5's *Names* says (1 to 32 printable code points,
    none of them invisible: :data:`~chkobba_p2p.text.INVISIBLE_RANGES`), else
    ``bad_field``."""
    if isinstance(value, str) and (ch := first_invisible(value[:MAX_NAME + 1])) is not None:
        raise _bad(f"a display name holds an invisible character (U+{ord(ch):04X}), "
                   f"which would let it pass for another", "invisible_character",
                   value=f"U+{ord(ch):04X}")
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
        raise _bad(f"a display name is 1..{MAX_NAME} printable characters", "bad_name",
                   max=MAX_NAME)
    return value


def clean_text(value: Any, limit: int = MAX_ERROR_TEXT) -> str:
    """A network string made safe to print: non-strings read as empty, characters that
    are not printable become ``?``, at most ``limit`` characters."""
    if not isinstance(value, str):
        return ""
    return "".join(c if c.isprintable() else "?" for c in value[:limit])


def _strs(values: list[Any]) -> tuple[str, ...]:
    return tuple(c for c in values if isinstance(c, str))


def read_limits(value: Any) -> tuple[int, int] | None:
    """A welcome's ``limits``, ``{"move": int, "away": int}`` in whole seconds: the host's
    move limit ``M`` (1 or more) and allowance of time away ``A`` (0 or more), each at
    most :data:`MAX_LIMIT`; None if absent or off (the peer keeps its own)."""
    if not isinstance(value, dict):
        return None
    move = _int(value.get("move"), 1, MAX_LIMIT)
    away = _int(value.get("away"), 0, MAX_LIMIT)
    return None if move is None or away is None else (move, away)


def read_allowance_left(value: Any, away: int) -> int | None:
    """A welcome's ``limits.left`` on a resume: the returning seat's allowance of time
    away still left for the match, whole seconds from 0 to the announced ``away``; None
    if absent or off (PROTOCOL.md 12.3)."""
    if not isinstance(value, dict):
        return None
    return _int(value.get("left"), 0, away)


def read_move_used(value: Any, move: int) -> int | None:
    """A welcome's ``limits.used`` on a resume: how long the move clock of the seat that
    holds the floor at the welcome's ``have`` has run, whole seconds from 0 to the
    announced ``move``; None if absent or off (PROTOCOL.md 12.3)."""
    if not isinstance(value, dict):
        return None
    return _int(value.get("used"), 0, move)


def read_have(welcome: dict[str, Any]) -> int:
    """The host's chain length a ``welcome`` announces (``have``), 0 if the field is off
    (every msgpack integer fits under 2**64)."""
    return _int(welcome.get("have"), 1, 2**64) or 0


# ------------------------------------------------------------------------- handshake


@dataclass(frozen=True)
class Host:
    """``host``: the host's greeting, first on every connection (PROTOCOL.md 5).  Its
    encoded bytes enter the handshake hash.  ``from_wire`` checks the fields' types; the
    joiner's :class:`~chkobba_p2p.link.handshake.ClientHandshake` checks the rest (a
    common version, the ruleset against its hash)."""

    TYPE: ClassVar[str] = "host"
    versions: tuple[int, ...]
    caps: tuple[str, ...]
    key: bytes
    name: str
    nonce: bytes
    players: int
    rules: dict[str, Any]
    rules_hash: bytes

    def to_wire(self) -> dict[str, Any]:
        return {"t": "host", "versions": list(self.versions), "caps": list(self.caps),
                "key": self.key, "name": self.name, "nonce": self.nonce,
                "players": self.players, "rules": dict(self.rules),
                "rules_hash": self.rules_hash}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Host:
        versions = tuple(v for v in get_field(msg, "versions", "list", max_len=_MAX_CAPS)
                         if isinstance(v, int) and not isinstance(v, bool))
        key = get_field(msg, "key", "bytes", size=32)
        caps = _strs(get_field(msg, "caps", "list", max_len=_MAX_CAPS))
        name = display_name(msg.get("name"))
        nonce = get_field(msg, "nonce", "bytes", size=32)
        players = get_field(msg, "players", "int")
        rules = get_field(msg, "rules", "map")
        rules_hash = get_field(msg, "rules_hash", "bytes", size=32)
        return cls(versions, caps, key, name, nonce, players, rules, rules_hash)


@dataclass(frozen=True)
class Hello:
    """``hello``: a joining peer's answer to the greeting; ``pop`` (its proof of
    possession) is the last field.  ``resume``: ``(game id, have)``.  ``secret_proof``:
    at a table whose greeting announced seat-secret/v1, the proof of its secret
    (PROTOCOL.md 5.5); left off the wire when None."""

    TYPE: ClassVar[str] = "hello"
    v: int
    caps: tuple[str, ...]
    key: bytes
    name: str
    nonce: bytes
    resume: tuple[bytes, int] | None = None
    pop: bytes = bytes(64)
    secret_proof: bytes | None = None
    #: A host's bot: ``(level, voucher)``, the host's signature that this key is its bot
    #: (PROTOCOL.md 5.6); left off the wire when None.
    bot: tuple[str, bytes] | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "hello", "v": self.v, "caps": list(self.caps),
                               "key": self.key, "name": self.name, "nonce": self.nonce}
        if self.resume is not None:
            msg["resume"] = {"g": self.resume[0], "have": self.resume[1]}
        if self.secret_proof is not None:
            msg["secret_proof"] = self.secret_proof
        if self.bot is not None:
            msg["bot"] = {"level": self.bot[0], "sig": self.bot[1]}
        msg["pop"] = self.pop
        return msg

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Hello:
        v = get_field(msg, "v", "int")
        if v not in SUPPORTED_VERSIONS:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"peer chose {v}",
                                violation="version_not_offered", facts={"version": v})
        caps = get_field(msg, "caps", "list", max_len=_MAX_CAPS)
        if "deal/v1" not in caps:
            raise _bad("caps must include deal/v1", "needs_deal_v1")
        key = get_field(msg, "key", "bytes", size=32)
        name = display_name(msg.get("name"))
        nonce = get_field(msg, "nonce", "bytes", size=32)
        pop = get_field(msg, "pop", "bytes", size=64)
        resume = None
        r = get_field(msg, "resume", "map", optional=True)
        if r is not None:
            resume = (get_field(r, "g", "bytes", size=16), get_field(r, "have", "int"))
        secret_proof = get_field(msg, "secret_proof", "bytes", size=32, optional=True)
        bot = None
        b = get_field(msg, "bot", "map", optional=True)
        if b is not None:
            level = get_field(b, "level", "str", max_len=MAX_LEVEL)
            if not level:
                raise _bad("bot.level is empty", "empty_bot_level")
            bot = (level, get_field(b, "sig", "bytes", size=64))
        return cls(v, _strs(caps), key, name, nonce, resume, pop, secret_proof, bot)


@dataclass(frozen=True)
class Welcome:
    """``welcome``: the host seats a joiner.  ``limits``: ``(M, A)``, the clocks' limits
    in whole seconds; ``left``: on a resume, the seat's allowance left, and ``used``, how
    long the move clock of the seat holding the floor has run (PROTOCOL.md 12.3).
    ``from_wire`` keeps ``limits``, ``left``, ``used`` and ``have`` only when they check
    out (a joiner then keeps its own values), as it always has."""

    TYPE: ClassVar[str] = "welcome"
    v: int
    seat: int
    caps: tuple[str, ...]
    have: int
    limits: tuple[int, int] | None = None
    left: int | None = None
    pop: bytes = bytes(64)
    used: int | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "welcome", "v": self.v, "seat": self.seat,
                               "caps": list(self.caps), "have": self.have}
        if self.limits is not None:
            msg["limits"] = {"move": self.limits[0], "away": self.limits[1]}
            if self.left is not None:
                msg["limits"]["left"] = self.left
            if self.used is not None:
                msg["limits"]["used"] = self.used
        msg["pop"] = self.pop
        return msg

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Welcome:
        pop = get_field(msg, "pop", "bytes", size=64)
        seat = get_field(msg, "seat", "int")
        if not 0 < seat < MAX_PLAYERS:
            raise _bad("seat out of range", "seat_out_of_range")
        v = _int(msg.get("v"), 0, 2**32)
        caps = msg.get("caps")
        limits = read_limits(msg.get("limits"))
        left = read_allowance_left(msg.get("limits"), limits[1]) if limits else None
        used = read_move_used(msg.get("limits"), limits[0]) if limits else None
        return cls(v if v is not None else 0, seat,
                   _strs(caps) if isinstance(caps, list) else (), read_have(msg),
                   limits, left, pop, used)


@dataclass(frozen=True)
class Knock:
    """``knock`` (PROTOCOL.md 5.4): a seat of a running game proves its key in its first
    frame, before the greeting arrives, so that the host admits the connection at once.
    ``nonce``: a greeting nonce this host sent earlier (on any connection); ``sig``:
    Ed25519 by ``key`` over ``KNOCK_DOMAIN || host key || nonce``."""

    TYPE: ClassVar[str] = "knock"
    key: bytes
    nonce: bytes
    sig: bytes

    def to_wire(self) -> dict[str, Any]:
        return {"t": "knock", "key": self.key, "nonce": self.nonce, "sig": self.sig}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Knock:
        return cls(get_field(msg, "key", "bytes", size=32),
                   get_field(msg, "nonce", "bytes", size=32),
                   get_field(msg, "sig", "bytes", size=64))


@dataclass(frozen=True)
class Watch:
    """``watch``: a spectator's answer to the greeting (PROTOCOL.md 18)."""

    TYPE: ClassVar[str] = "watch"
    v: int
    name: str

    def to_wire(self) -> dict[str, Any]:
        return {"t": "watch", "v": self.v, "name": display_name(self.name)}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Watch:
        version = get_field(msg, "v", "int")
        if version not in SUPPORTED_VERSIONS:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"spectator chose {version}",
                                violation="version_not_offered", facts={"version": version})
        return cls(version, display_name(msg.get("name")))


@dataclass(frozen=True)
class Watching:
    """``watching``: the host admits a spectator: its number, and how many entries follow
    at once.  ``limits``: ``(M, A)``, the table's move limit and allowance of time away in
    whole seconds, as a welcome announces them (PROTOCOL.md 18; optional: a host that
    predates it sends none, and ``from_wire`` keeps them only when they check out)."""

    TYPE: ClassVar[str] = "watching"
    id: int
    have: int
    v: int = max(SUPPORTED_VERSIONS)
    limits: tuple[int, int] | None = None
    #: How long the move being waited for at ``have`` has run (``limits.used``, as a
    #: resume's welcome says it), whole seconds; None when nobody owes or not said.
    used: int | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "watching", "v": self.v, "id": self.id,
                               "have": self.have}
        if self.limits is not None:
            msg["limits"] = {"move": self.limits[0], "away": self.limits[1]}
            if self.used is not None:
                msg["limits"]["used"] = self.used
        return msg

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Watching:
        v = _int(msg.get("v"), 0, 2**32)
        limits = read_limits(msg.get("limits"))
        return cls(get_field(msg, "id", "int"), get_field(msg, "have", "int"),
                   v if v is not None else max(SUPPORTED_VERSIONS), limits,
                   read_move_used(msg.get("limits"), limits[0]) if limits else None)


# ----------------------------------------------------------------------------- lobby


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    key: bytes
    name: str
    #: The host's bot at this seat: ``(level, voucher)`` (PROTOCOL.md 5.6), unchecked
    #: here (the joiner checks it against the greeting's key); None: none, or one that
    #: is not a map of a str and 64 bytes (an older reader ignores the field).
    bot: tuple[str, bytes] | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "key": self.key, "name": self.name}
        if self.bot is not None:
            out["bot"] = {"level": self.bot[0], "sig": self.bot[1]}
        return out


@dataclass(frozen=True)
class Lobby:
    """``lobby``: who sits where before the game (PROTOCOL.md 5, 5.3).  ``from_wire``
    checks the seats (a malformed lobby is ignored by a joiner: its error says what is
    wrong, for people); ``seating``, ``ready`` and ``spectators`` read as 0, () and None
    when off, as they always have."""

    TYPE: ClassVar[str] = "lobby"
    players: int
    seats: tuple[LobbySeat | None, ...]
    seating: int
    ready: tuple[bool, ...]
    spectators: int | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "lobby", "players": self.players,
                               "seats": [s.to_wire() if s else None for s in self.seats],
                               "seating": self.seating, "ready": list(self.ready)}
        if self.spectators is not None:
            msg["spectators"] = self.spectators
        return msg

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Lobby:
        seats = msg.get("seats")
        if not isinstance(seats, list):
            raise _bad("no list of seats", "no_seat_list")
        if not 2 <= len(seats) <= MAX_PLAYERS:
            raise _bad(f"{len(seats)} seats (a table has 2 to {MAX_PLAYERS})", "seat_list_size",
                       size=len(seats), max=MAX_PLAYERS)
        out: list[LobbySeat | None] = []
        for i, s in enumerate(seats):
            if s is None:
                out.append(None)
                continue
            if not isinstance(s, dict):
                raise _bad(f"seat {i} is not a map", "seat_not_map", seat=i)
            key, name = s.get("key"), s.get("name")
            if not isinstance(key, bytes) or len(key) != 32:
                raise _bad(f"seat {i}'s key is not 32 bytes", "seat_key_size", seat=i)
            if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
                raise _bad(f"seat {i}'s name is not 1 to {MAX_NAME} characters",
                           "seat_name_length", seat=i, max=MAX_NAME)
            if not name.isprintable():
                raise _bad(f"seat {i}'s name is not printable", "seat_name_unprintable", seat=i)
            if (ch := first_invisible(name)) is not None:
                raise _bad(f"seat {i}'s name holds an invisible character (U+{ord(ch):04X})",
                           "seat_name_invisible", seat=i, value=f"U+{ord(ch):04X}")
            b = s.get("bot")
            bot = (b["level"], b["sig"]) if isinstance(b, dict) \
                and isinstance(b.get("level"), str) and 0 < len(b["level"]) <= MAX_LEVEL \
                and isinstance(b.get("sig"), bytes) and len(b["sig"]) == 64 else None
            out.append(LobbySeat(i, key, name, bot))
        ready = msg.get("ready")
        flags = tuple(x is True for x in ready) if isinstance(ready, list) \
            and len(ready) == len(seats) else ()
        seating = _int(msg.get("seating"), -2**63, 2**64) or 0
        players = _int(msg.get("players"), 2, MAX_PLAYERS) or len(seats)
        return cls(players, tuple(out), seating, flags,
                   _int(msg.get("spectators"), 0, MAX_SPECTATORS))


@dataclass(frozen=True)
class Start:
    """``start``: a joiner's person confirmed the seating ``seating`` (5.3)."""

    TYPE: ClassVar[str] = "start"
    seating: int

    def to_wire(self) -> dict[str, Any]:
        return {"t": "start", "seating": self.seating}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Start:
        return cls(get_field(msg, "seating", "int"))


# ------------------------------------------------------------------ beside the game


@dataclass(frozen=True)
class Chat:
    """``chat`` (5.2): ``seat`` is None from a joiner (the host sets it from the
    connection), the speaker's seat when the host relays it.  A ``seat`` out of bounds
    reads as None (a line a joiner sends is read whatever its seat field says, which is
    nobody's word; a relayed line without a seat is dropped by whoever reads it)."""

    TYPE: ClassVar[str] = "chat"
    text: str
    seat: int | None = None

    def to_wire(self) -> dict[str, Any]:
        if self.seat is None:
            return {"t": "chat", "text": self.text}
        return {"t": "chat", "seat": self.seat, "text": self.text}

    @classmethod
    def from_wire(cls, msg: dict[str, Any], players: int = MAX_PLAYERS,
                  clean: Callable[[Any], str | None] = clean_chat) -> Chat:
        """A line ``clean`` takes, and its ``seat`` if in 0..players-1 (else None)."""
        return cls(cls._line(msg, clean), _int(msg.get("seat"), 0, players - 1))

    @classmethod
    def from_joiner(cls, msg: dict[str, Any],
                    clean: Callable[[Any], str | None] = clean_chat) -> Chat:
        """A joiner's line: its ``seat`` field, if any, is nobody's word and dropped."""
        return cls(cls._line(msg, clean))

    @staticmethod
    def _line(msg: dict[str, Any], clean: Callable[[Any], str | None]) -> str:
        line = clean(msg.get("text"))
        if line is None:
            raise _bad("a chat line is 1 to 200 printable characters", "bad_chat_line")
        return line


@dataclass(frozen=True)
class Wait:
    """``wait`` (12, 17): ``seat`` is away, ``secs`` of its allowance left; ``away``: it
    stepped away; ``restart``: the host awaits it at a restart."""

    TYPE: ClassVar[str] = "wait"
    seat: int
    secs: int
    away: bool = False
    restart: bool = False

    def to_wire(self) -> dict[str, Any]:
        return ({"t": "wait", "seat": self.seat, "secs": self.secs}
                | ({"away": True} if self.away else {})
                | ({"restart": True} if self.restart else {}))

    @classmethod
    def from_wire(cls, msg: dict[str, Any], players: int = MAX_PLAYERS) -> Wait:
        seat = _bounded(msg, "seat", 0, players - 1)
        secs = _bounded(msg, "secs", 0, 1 << 31)
        away = msg.get("away") is True
        return cls(seat, secs, away, not away and msg.get("restart") is True)


@dataclass(frozen=True)
class Back:
    """``back`` (13): ``seat`` is connected again."""

    TYPE: ClassVar[str] = "back"
    seat: int

    def to_wire(self) -> dict[str, Any]:
        return {"t": "back", "seat": self.seat}

    @classmethod
    def from_wire(cls, msg: dict[str, Any], players: int = MAX_PLAYERS) -> Back:
        return cls(_bounded(msg, "seat", 0, players - 1))


@dataclass(frozen=True)
class Away:
    """``away`` (17): the sender's drop, next, is a step away.  The host's own carries
    ``seat`` 0; a joiner's carries none (the host knows its connection's seat, and reads
    a joiner's ``away`` whatever it holds).  A ``seat`` out of bounds reads as None."""

    TYPE: ClassVar[str] = "away"
    seat: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"t": "away"} if self.seat is None else {"t": "away", "seat": self.seat}

    @classmethod
    def from_wire(cls, msg: dict[str, Any], players: int = MAX_PLAYERS) -> Away:
        return cls(_int(msg.get("seat"), 0, players - 1))


@dataclass(frozen=True)
class Rematch:
    """``rematch`` (17): whether the sender's person plays again at this table."""

    TYPE: ClassVar[str] = "rematch"
    accept: bool

    def to_wire(self) -> dict[str, Any]:
        return {"t": "rematch", "accept": self.accept}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Rematch:
        accept = msg.get("accept")
        if not isinstance(accept, bool):
            raise _bad("'accept' must be bool", "accept_not_bool")
        return cls(accept)


@dataclass(frozen=True)
class RematchOffer:
    """``rematch-offer`` (17): from the host, once the match is over, to a joiner that
    announced ``rematch-offer/v1``: the host's person wants to play again and waits for
    the joiners' answers.  No fields (any it holds are ignored, as in every link
    message); the host's later ``rematch`` still says whether the new table opens."""

    TYPE: ClassVar[str] = "rematch-offer"

    def to_wire(self) -> dict[str, Any]:
        return {"t": "rematch-offer"}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> RematchOffer:
        return cls()


@dataclass(frozen=True)
class Spectators:
    """``spectators`` (18): who is watching, and how many the host admits at most."""

    TYPE: ClassVar[str] = "spectators"
    names: tuple[str, ...]
    max: int

    def to_wire(self) -> dict[str, Any]:
        return {"t": "spectators", "names": list(self.names), "max": self.max}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Spectators:
        names, limit = msg.get("names"), msg.get("max")
        if not isinstance(names, list) or len(names) > MAX_SPECTATORS or \
                not isinstance(limit, int) or isinstance(limit, bool):
            raise _bad(f"names: a list of at most {MAX_SPECTATORS}, max: an int",
                       "bad_spectator_list", max=MAX_SPECTATORS)
        return cls(tuple(display_name(n) for n in names), limit)


@dataclass(frozen=True)
class Ping:
    TYPE: ClassVar[str] = "ping"

    def to_wire(self) -> dict[str, Any]:
        return {"t": "ping"}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Ping:
        return cls()


@dataclass(frozen=True)
class Pong:
    TYPE: ClassVar[str] = "pong"

    def to_wire(self) -> dict[str, Any]:
        return {"t": "pong"}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> Pong:
        return cls()


@dataclass(frozen=True)
class ErrorMsg:
    """``error`` (11): sent before closing a connection.  ``code`` is None when the
    peer's number names no code we know; ``text`` is made safe to print on the way in."""

    TYPE: ClassVar[str] = "error"
    code: ErrorCode | None
    text: str
    #: The code's number as the peer sent it (an int, even one we do not know), else
    #: None: a refusal names it to people.
    number: int | None = field(default=None, compare=False)
    #: The text as the peer sent it (at most a frame's string), for a reader that makes
    #: it safe its own way (:func:`~chkobba_p2p.text.safe_text`); "" if not a string.
    said: str = field(default="", compare=False, repr=False)

    @classmethod
    def of(cls, code: ErrorCode, detail: str = "") -> ErrorMsg:
        """The error we send: the code's sentence, then ``detail``."""
        return cls(code, (code.sentence + (f": {detail}" if detail else ""))[:MAX_STR])

    def to_wire(self) -> dict[str, Any]:
        code = self.code if self.code is not None else ErrorCode.PROTOCOL_VIOLATION
        return {"t": "error", "code": int(code), "name": code.name.lower(), "msg": self.text}

    @classmethod
    def from_wire(cls, msg: dict[str, Any]) -> ErrorMsg:
        """Never raises: an error is read whatever it holds."""
        number = _int(msg.get("code"), -2**63, 2**64)
        said = msg.get("msg")
        return cls(ErrorCode.from_wire(number) if number is not None else None,
                   clean_text(said), number, said if isinstance(said, str) else "")


LinkMessage = (Host | Hello | Welcome | Watch | Watching | Lobby | Start | Chat | Wait | Back
               | Away | Rematch | RematchOffer | Spectators | Ping | Pong | ErrorMsg | Knock)

_CLASSES: dict[str, Any] = {c.TYPE: c for c in (
    Host, Hello, Welcome, Watch, Watching, Lobby, Start, Chat, Wait, Back, Away, Rematch,
    RematchOffer, Spectators, Ping, Pong, ErrorMsg, Knock)}
#: Every link message type, in PROTOCOL.md's order.
LINK_TYPES = tuple(_CLASSES)


def _type_of(msg: dict[str, Any]) -> object:
    # The one read of a frame's type: the codec's edge (every core dispatches on classes).
    return message_type(msg)


def parse_link_message(msg: dict[str, Any], players: int = MAX_PLAYERS) -> LinkMessage:
    """The typed message of a decoded frame: ``unknown_type`` if ``t`` names no link
    message (a signed entry, ``sig``, is the session's), else the class's ``from_wire``
    (``players`` bounds the seats of ``chat``, ``wait``, ``back`` and ``away``)."""
    t = _type_of(msg)
    cls = _CLASSES.get(t) if isinstance(t, str) else None
    if cls is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, repr(t)[:40], violation="unknown_message",
                            facts={"value": repr(t)[:40]})
    if cls in (Chat, Wait, Back, Away):
        result: LinkMessage = cls.from_wire(msg, players)
        return result
    result = cls.from_wire(msg)
    return result


# --------------------------------------------------------------- what a connection carries


@dataclass(frozen=True)
class Signed:
    """A signed entry (``sig``): no link message, the transcript's.  ``body``: the frame's
    exact bytes (what is signed and logged), ``msg`` its decoded map; the session opens
    and checks it (:func:`~chkobba_p2p.wire.codec.open_entry`)."""

    TYPE: ClassVar[str] = "sig"
    body: bytes
    msg: dict[str, Any]


@dataclass(frozen=True)
class Unknown:
    """A type no link message of this version names (a later version's, or junk):
    ``name`` as sent (cut short).  Ignored or refused, as the connection's state says."""

    name: str


@dataclass(frozen=True)
class Malformed:
    """A link message of class ``kind`` whose fields do not check out: ``error`` says
    which.  Unsigned news that is malformed is ignored (as it always was); where a
    message is required (the handshake) its error is the answer."""

    kind: type[LinkMessage]
    error: ProtocolError
    #: The map as read (a spectator reads a greeting leniently: :meth:`Greeting.of`).
    msg: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


#: Whatever a frame read from a connection is.
Frame = LinkMessage | Signed | Unknown | Malformed


def read_frame(body: bytes, msg: dict[str, Any] | None = None) -> Frame:
    """The frame ``body`` (``msg``: its decoded map, if the caller has it) as the cores
    take it; never raises but for a body that is no map with a ``t`` (``decode``'s own
    error).  Seats are bounded by the largest table: a core checks its own table's."""
    if msg is None:
        msg = decode(body)
    t = _type_of(msg)
    if t == Signed.TYPE:
        return Signed(bytes(body), msg)
    try:
        return parse_link_message(msg)
    except ProtocolError as exc:
        cls = _CLASSES.get(t) if isinstance(t, str) else None
        if cls is None:
            return Unknown(t[:40] if isinstance(t, str) else repr(t)[:40])
        return Malformed(cls, exc, msg)


@dataclass(frozen=True)
class Greeting:
    """What a spectator takes of the host's greeting (PROTOCOL.md 18): the versions, the
    host's key and the table's size (checked as a joiner checks them), its name and
    rules only to show (None when off: the genesis, signed by that key, settles the
    table).  A spectator proves nothing, so a greeting a joiner would refuse for its
    name, caps, nonce or rules is still one it watches."""

    versions: tuple[int, ...]
    key: bytes
    players: int
    name: str | None = None
    rules: dict[str, Any] | None = None
    rules_hash: bytes | None = None

    @classmethod
    def of(cls, frame: Frame) -> Greeting:
        """The greeting in ``frame``; ``unknown_type`` if it is none, ``bad_field`` for
        its versions, key or size."""
        if isinstance(frame, Host):
            return cls(frame.versions, frame.key, frame.players, frame.name,
                       frame.rules, frame.rules_hash)
        if not isinstance(frame, Malformed) or frame.kind is not Host:
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected the host's greeting",
                                violation="unexpected_message", facts={"expected": "host"})
        msg = frame.msg
        versions = tuple(v for v in get_field(msg, "versions", "list", max_len=_MAX_CAPS)
                         if isinstance(v, int) and not isinstance(v, bool))
        key = get_field(msg, "key", "bytes", size=32)
        players = get_field(msg, "players", "int")
        try:
            name: str | None = display_name(msg.get("name"))
        except ProtocolError:
            name = None
        rules, rules_hash = msg.get("rules"), msg.get("rules_hash")
        return cls(versions, key, players, name, rules if isinstance(rules, dict) else None,
                   rules_hash if isinstance(rules_hash, bytes) else None)


def as_frame(msg: Frame | dict[str, Any], body: bytes | None = None) -> Frame:
    """``msg`` as a frame: itself if typed, else :func:`read_frame` of the decoded map
    (``body``: its bytes as received, default: encoded again).  For the handshake's
    steps, which callers of the low-level API feed with maps."""
    if isinstance(msg, dict):
        return read_frame(encode(msg) if body is None else bytes(body), msg)
    return msg


def kind_of(frame: Frame) -> type[Any]:
    """The class a frame is, or would be if its fields checked out (:class:`Malformed`)."""
    return frame.kind if isinstance(frame, Malformed) else type(frame)


def type_name(frame: Frame) -> str:
    """The wire type of a frame, as the state tables name it (:mod:`.states`)."""
    if isinstance(frame, Unknown):
        return frame.name
    name: str = kind_of(frame).TYPE
    return name
