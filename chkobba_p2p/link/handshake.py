"""The handshake (PROTOCOL.md 5, 5.3), sans-IO: the host's seating and each side of one
connection's greeting.

Moved here from :mod:`chkobba_p2p.transcript.session`, which keeps the transcript: these classes
check the unsigned ``host``, ``hello`` and ``welcome`` messages (versions, capabilities,
identity keys with proof of possession, names, the ruleset and its hash, a seat) and
build the genesis's :class:`~chkobba_p2p.transcript.session.TableInfo` once the table is full.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from .._digest import equal, hmac_sha256
from ..game.errors import shown
from ..game.ruleset import Ruleset
from ..game.seating import ONLINE
from ..observe.rating import bot_level
from ..observe.vouch import check_voucher, own_bot_number
from ..text import distinct_names
from ..transcript.caps import (
    BINDING_CAPABILITIES,
    CAP_KNOCK,
    CAP_READY_CAPS,
    CAP_READY_CHECK,
    CAP_SHUFFLE_PROOFS,
    LINK_CAPABILITIES,
    PROOF_CAPABILITIES,
    SPOKEN,
    TABLE_CAPABILITIES,
)
from ..transcript.table import SeatInfo, TableInfo
from ..wire import codec as wire
from ..wire.codec import (
    MAX_NAME,
    POP_HOST_DOMAIN,
    POP_JOINER_DOMAIN,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    ErrorCode,
    Identity,
    ProtocolError,
    handshake_hash,
    seal_pop,
    unsealed,
    verify_signature,
)
from .errors import LinkUsageError
from .messages import (
    ErrorMsg,
    Frame,
    Hello,
    Host,
    Knock,
    LobbySeat,
    Malformed,
    Signed,
    Unknown,
    Welcome,
    as_frame,
    display_name,
)
from .messages import Lobby as LobbyMsg

__all__ = [
    "CAP_SEAT_SECRET",
    "SEAT_SECRET_DOMAIN",
    "seat_secret_proof",
    "KNOCK_DOMAIN",
    "Knocks",
    "Lobby",
    "HostHandshake",
    "ClientHandshake",
    "error_message",
    "check_name",
]

#: The domain of a knock's signature: ``KNOCK_DOMAIN || host key || nonce``.
KNOCK_DOMAIN = b"chkobba-p2p/v1/knock\x00"

#: Announced in the greeting of a host whose table has a seat secret (its join code
#: carries it, PROTOCOL.md 5.5): a fresh hello must prove the secret to take a seat.  A
#: link capability of the greeting alone, never in a genesis: a table without a secret
#: greets exactly as before, and any joiner, older ones too, sits there.
CAP_SEAT_SECRET = "seat-secret/v1"
#: The domain of a hello's ``secret_proof``.
SEAT_SECRET_DOMAIN = b"chkobba-p2p/v1/seat-secret\x00"


def seat_secret_proof(secret: str, host_nonce: bytes, key: bytes, nonce: bytes) -> bytes:
    """A hello's proof of the table's seat ``secret`` (its printed form, as
    :func:`~chkobba_p2p.address.parse_secret` gives it): HMAC-SHA256 keyed with its 16
    characters without the dashes (ASCII), over ``SEAT_SECRET_DOMAIN || greeting nonce
    || joiner key || hello nonce``.  The greeting's nonce is fresh for each connection,
    so a proof seen on one connection proves nothing on another; the joiner's key and
    nonce tie it to this hello, whose proof of possession covers it in turn.  The
    secret itself never travels."""
    # The key is the secret as parse_secret prints it, whatever form the caller holds
    # (typed in upper case, in groups parted by spaces): PROTOCOL.md 5.5.
    hmac_key = "".join(ch for ch in secret.lower() if ch not in "- ").encode("ascii")
    return hmac_sha256(hmac_key, SEAT_SECRET_DOMAIN, host_nonce, key, nonce)


def error_message(code: ErrorCode, detail: str = "") -> dict[str, Any]:
    """The unsigned ``error`` message a peer sends before closing a connection."""
    return ErrorMsg.of(code, detail).to_wire()



def check_name(name: str) -> str:
    """This peer's own display name, checked as a peer would check it: one it would
    refuse is the caller's mistake (:class:`LinkUsageError`, one line), not a remote one.
    A client checks a name given to it here before it creates anything (a log, a lock,
    a key); the lobby and the hello check it again."""
    try:
        return display_name(name)
    except ProtocolError as exc:
        facts = dict(exc.facts)
        if exc.violation == "invisible_character":
            raise LinkUsageError(f"the name {ascii(name)} cannot be used: {exc.detail}",
                                 code="name_invisible",
                                 data={"name": str(name), "value": facts["value"]}) from None
        raise LinkUsageError(f"the name {ascii(name)} cannot be used: {exc.detail}",
                             code="name_unusable",
                             data={"name": str(name), "max": MAX_NAME}) from None

class Lobby:
    """The host's seating: who has shaken hands, in which seat.  Seat 0 is the host."""

    def __init__(self, identity: Identity, name: str, rules: Ruleset, players: int,
                 shuffle_proofs: bool = True) -> None:
        if players not in ONLINE:
            raise LinkUsageError(f"a table seats {' or '.join(map(str, ONLINE))} players",
                                 code="players_unsupported",
                                 data={"players": shown(players),
                                       "choices": ", ".join(map(str, ONLINE))})
        self.identity = identity
        self.rules = rules
        self.players = players
        self.seats: list[SeatInfo | None] = [SeatInfo(0, identity.public, check_name(name))]
        self.seats += [None] * (players - 1)
        self.game: bytes | None = None  # set when the table is full and the game starts
        self.caps = TABLE_CAPABILITIES \
            + (PROOF_CAPABILITIES if shuffle_proofs else ())
        #: What each seated joiner announced in its hello (table capabilities that bind
        #: every seat go in the genesis only when every seat speaks them).
        self.seat_caps: dict[int, tuple[str, ...]] = {}
        #: Bumped whenever the seating changes: a ``start`` names the seating its person
        #: confirmed, and one for an older seating does not count.
        self.seating = 0
        #: Seats whose person confirmed the current seating (the ready check).
        self.ready: set[int] = set()
        #: Keys the host's person freed from a seat: refused at this table from then on
        #: (a stranger who took a friend's seat, PROTOCOL.md 5.3).
        self.refused: set[bytes] = set()
        #: The only key fingerprints that may take a seat (a host that takes no commands,
        #: or that knows its friends' keys beforehand); None: anyone (PROTOCOL.md 5.3).
        self.admits: frozenset[str] | None = None
        #: The table's seat secret (printed form), given to friends in the join code: a
        #: fresh hello must prove it to take a seat (PROTOCOL.md 5.5); None: no secret.
        self.secret: str | None = None
        #: The keys that proved :attr:`secret` to this host process when they sat: each
        #: of their hellos proves it again, a resume too (a bot's key is well known, a
        #: key may have been copied; the key alone must not let a stranger take its
        #: seat's connection).  A restarted host has a new secret, which no seat could
        #: have proven: it takes their resumes on their keys alone (PROTOCOL.md 5.5).
        self.proven: set[bytes] = set()
        #: A host restarted from its saved game whose new run has a secret of its own:
        #: the one its seats proved before (:attr:`proven` keys may prove either, the
        #: code they hold or the one the new run shows); None: none.
        self.former_secret: str | None = None
        #: The host's own bots: key -> (level, the host's voucher), as their hellos
        #: carried them (PROTOCOL.md 5.6); the lobby and the log's header show them.
        self.bots: dict[bytes, tuple[str, bytes]] = {}
        #: The host's own bots' numbers (:func:`~chkobba_p2p.observe.vouch.bot_identity`'s
        #: ``index``: bot1, bot2...), by key, as the host derived them when they sat: they
        #: sit in that order whichever connects first (:meth:`take_seat`).
        self.bot_numbers: dict[bytes, int] = {}

    @property
    def full(self) -> bool:
        return all(self.seats)

    def seat_of(self, key: bytes) -> int | None:
        for s in self.seats:
            if s is not None and s.key == key:
                return s.seat
        return None

    def take_seat(self, key: bytes, name: str,
                  caps: tuple[str, ...] = SPOKEN, *, bot_number: int | None = None) -> int:
        """Seat ``key`` at the lowest free seat, under ``name`` made distinct from every
        seated player's (``amel (2)``): nobody appears, or chats, as someone else.
        ``caps``: what its hello announced.

        ``bot_number``: the host's own bot number ``n`` (:func:`own_bot_number`).  The
        host's bots sit in their numbers' order whichever connects first: bot ``n``
        leaves a free seat below it for each lower number not seated yet, and a
        newcomer who is not one of them takes those held seats last."""
        if self.seat_of(key) is not None:
            raise ProtocolError(ErrorCode.ALREADY_SEATED, violation="already_seated")
        if key in self.refused or (self.admits is not None
                                   and wire.fingerprint(key) not in self.admits):
            raise ProtocolError(ErrorCode.SEAT_REFUSED, violation="seat_refused")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise ProtocolError(ErrorCode.TABLE_FULL, violation="table_full")
        if bot_number is not None:
            # Below it, a seat for each lower number still to come.
            i = free[min(self._bots_to_come(bot_number), len(free) - 1)]
            self.bot_numbers[key] = bot_number
        else:
            # The seats held for the host's bots still to come, below one seated already.
            seated = [n for k, n in self.bot_numbers.items() if self.seat_of(k) is not None]
            held = self._bots_to_come(max(seated, default=1))
            i = free[held] if held < len(free) else free[0]
        name = distinct_names([name], MAX_NAME,
                              taken=[t.name for t in self.seats if t])[0] or name
        self.seats[i] = SeatInfo(i, key, name)
        self.seat_caps[i] = tuple(caps)
        self._reseated()
        return i

    def _bots_to_come(self, number: int) -> int:
        """How many of the host's bots numbered below ``number`` are not seated."""
        seated = {n for k, n in self.bot_numbers.items() if self.seat_of(k) is not None}
        return sum(1 for n in range(1, number) if n not in seated)

    def leave(self, seat: int) -> None:
        """Free a seat before the game starts (its peer disconnected)."""
        if self.game is None and seat != 0 and self.seats[seat] is not None:
            self.seats[seat] = None
            self.seat_caps.pop(seat, None)
            self._reseated()

    def refuse(self, seat: int) -> SeatInfo | None:
        """The host's person frees joiner ``seat`` before the game starts and refuses
        its key at this table (:attr:`refused`); who sat there, or None if there is
        nothing to free (seat 0, a free seat, or a game already running)."""
        if self.game is not None or not 0 < seat < self.players:
            return None
        taken = self.seats[seat]
        if taken is None:
            return None
        self.refused.add(taken.key)
        self.leave(seat)
        return taken

    def _reseated(self) -> None:
        # Everyone confirmed the seats and keys they saw: a new face means a new check.
        self.seating += 1
        self.ready.clear()

    def confirms(self, seat: int) -> bool:
        """Whether ``seat``'s person must confirm the seating (the ready check): the host
        and every joiner that announced ready-check/v1; an older joiner counts as ready."""
        return seat == 0 or CAP_READY_CHECK in self.seat_caps.get(seat, ())

    def mark_ready(self, seat: int, seating: object) -> bool:
        """``seat`` confirmed ``seating`` (a ``start`` message, or the host's own person).
        False (ignored) for another seating than the current one or after the start."""
        if self.game is not None or seating != self.seating or self.seats[seat] is None:
            return False
        self.ready.add(seat)
        return True

    @property
    def all_ready(self) -> bool:
        """Every seat taken and every person confirmed: the game may start."""
        return self.full and all(s in self.ready or not self.confirms(s)
                                 for s in range(self.players))

    def ready_flags(self) -> list[bool]:
        return [self.seats[s] is not None and (s in self.ready or not self.confirms(s))
                for s in range(self.players)]

    def lobby_message(self) -> dict[str, Any]:
        return LobbyMsg(self.players, tuple(LobbySeat(s.seat, s.key, s.name,
                                                      self.bots.get(s.key)) if s else None
                                            for s in self.seats),
                        self.seating, tuple(self.ready_flags())).to_wire()

    def table(self) -> TableInfo:
        if not self.full:
            raise LinkUsageError("the table is not full", code="table_not_full")
        if self.game is None:
            self.game = os.urandom(16)
        # A capability that binds every seat goes in only when every seat spoke it and
        # will confirm it in its ready (ready-caps/v1: else it could not be in effect).
        caps = tuple(c for c in self.caps if c not in BINDING_CAPABILITIES
                     or all(c in spoken and CAP_READY_CAPS in spoken
                            for spoken in (self.seat_caps.get(i, SPOKEN)
                                           for i in range(1, self.players))))
        return TableInfo(self.game, PROTOCOL_VERSION, self.players, self.rules,
                         tuple(s for s in self.seats if s is not None), caps)


class Knocks:
    """The host's greeting nonces, and the knocks that cite them (PROTOCOL.md 5.4).

    Every greeting's nonce is numbered and sealed: 8 bytes of serial number (big-endian),
    8 random bytes, then 16 bytes of HMAC-SHA256 under a secret of this host process over
    the first 16.  A seat that was greeted once (even on a connection let go a moment
    later) can then open its next connection with a ``knock`` signed over that nonce and
    be admitted from its first frame, without the round trip of the greeting.  Nothing
    is stored per nonce: the seal shows the nonce is ours, and each seat's knock must
    cite a **later** greeting than its last knock did (a serial above the one it cited),
    so a knock seen once cannot be played again.  The secret dies with the process: a
    restarted host ignores the knocks of before (the seat is then a stranger until its
    hello, as before the capability).  Sans-IO: no clock, no socket."""

    def __init__(self, lobby: Lobby, secret: bytes | None = None) -> None:
        self.lobby = lobby
        self._secret = secret if secret is not None else os.urandom(32)
        self._serial = 0
        #: Each seat's last knock admitted: the serial of the greeting it cited.
        self._cited: dict[int, int] = {}

    def nonce(self) -> bytes:
        """A fresh greeting nonce (32 bytes, unpredictable without our secret)."""
        self._serial += 1
        head = self._serial.to_bytes(8, "big") + os.urandom(8)
        return head + self._seal(head)

    def _seal(self, head: bytes) -> bytes:
        return hmac_sha256(self._secret, head)[:16]

    def serial(self, nonce: bytes) -> int | None:
        """The serial of a nonce this host issued, None for any other bytes."""
        if len(nonce) != 32 or not equal(nonce[16:], self._seal(nonce[:16])):
            return None
        return int.from_bytes(nonce[:8], "big")

    def check(self, msg: Frame | dict[str, Any]) -> tuple[int, bytes] | None:
        """The seat (and key) a ``knock`` proves, or None: a knock that proves nothing
        (malformed, no game running, a key without a seat or the host's own, a nonce not
        ours or not later than the seat's last knock, a bad signature) is ignored, and
        the connection stays a stranger until its hello, as without a knock.  The cheap
        checks come before the signature's."""
        knock = as_frame(msg)
        if not isinstance(knock, Knock):
            return None
        serial = self.serial(knock.nonce)
        seat = self.lobby.seat_of(knock.key)
        if serial is None or self.lobby.game is None or seat is None or seat == 0 \
                or serial <= self._cited.get(seat, 0):
            return None
        if bot_level(knock.key) is not None:
            # A bot level's well-known key: anyone can sign as it, so its knock proves
            # nothing (it would hold an absent bot's flag for a stranger, issue 42).
            return None
        if not verify_signature(knock.key, KNOCK_DOMAIN,
                                self.lobby.identity.public + knock.nonce, knock.sig):
            return None
        self._cited[seat] = serial
        return seat, knock.key


def knock_message(identity: Identity, host_key: bytes, nonce: bytes) -> dict[str, Any]:
    """A seat's ``knock`` to the host of key ``host_key``, citing the ``nonce`` of a
    greeting it received from it (PROTOCOL.md 5.4)."""
    sig = identity.sign(KNOCK_DOMAIN, host_key + nonce)
    return Knock(identity.public, nonce, sig).to_wire()


class HostHandshake:
    """The host's side of one connection's handshake.

    ``greeting()`` is sent first; ``on_hello(msg, body, have)`` checks the peer's hello and
    returns ``(welcome message, seat, resume)``, where ``resume`` is the ``(game, have)``
    pair of a peer coming back to a running game (its seat is then the one its identity
    holds).  Both proofs of possession cover the whole handshake: the joiner's signs the
    greeting and its own hello, the host's signs those and its welcome (PROTOCOL.md 5).
    """

    def __init__(self, lobby: Lobby, running: bytes | None = None,
                 nonce: bytes | None = None, limits: dict[str, int] | None = None,
                 allowance_left: Callable[[int], int] | None = None,
                 move_used: Callable[[], int | None] | None = None,
                 ended: Callable[[bytes, bytes], tuple[int, int] | None] | None = None
                 ) -> None:
        self.lobby = lobby
        self.nonce = nonce if nonce is not None else os.urandom(32)
        self.running = running
        #: The ``limits`` the welcome announces (``{"move": M, "away": A}``, seconds,
        #: PROTOCOL.md 12.3), or None.
        self.limits = limits
        #: A returning seat's allowance of time away left, in whole seconds (the
        #: welcome's ``limits.left`` on a resume), or None.
        self.allowance_left = allowance_left
        #: On a resume, how long the move clock of the seat holding the floor at our
        #: head has run, whole seconds (the welcome's ``limits.used``); None when nobody
        #: owes the next entry.
        self.move_used = move_used
        #: ``ended(game, key)``: the seat ``key`` held in a match this host ended, and
        #: that match's length, or None (PROTOCOL.md 13.1): a resume of it is welcomed.
        self.ended = ended
        #: The key this connection's knock proved (PROTOCOL.md 5.4), None without one: its
        #: hello must then come from that very key.
        self.knocked: bytes | None = None
        self._greeting: bytes | None = None

    def greeting(self) -> dict[str, Any]:
        """The ``host`` message; send it encoded by :func:`wire.encode` (its exact bytes
        are part of the handshake hash)."""
        seat0 = self.lobby.seats[0]
        assert seat0 is not None
        # caps: the capabilities of the table to come (shuffle proofs on or off), so that
        # a joiner knows before it sits down, and the link capabilities the host speaks
        # (the ready check) (PROTOCOL.md section 3); in a running game, knock/v1 (5.4).
        knock = (CAP_KNOCK,) if self.running is not None else ()
        # seat-secret/v1 only at a table that has one: without it, today's greeting.
        secret = (CAP_SEAT_SECRET,) if self.lobby.secret is not None else ()
        msg = Host(tuple(SUPPORTED_VERSIONS),
                   self.lobby.caps + LINK_CAPABILITIES + knock + secret,
                   self.lobby.identity.public, seat0.name, self.nonce, self.lobby.players,
                   self.lobby.rules.to_dict(), self.lobby.rules.digest()).to_wire()
        self._greeting = wire.encode(msg)
        return msg

    def on_hello(self, msg: Frame | dict[str, Any], body: bytes | None = None,
                 have: int = 0) -> tuple[dict[str, Any], int, tuple[bytes, int] | None]:
        """``msg``: the frame read (a decoded map is read as one); ``body``: the hello's
        frame body as received (default: ``msg`` encoded); ``have``: the host's chain
        length, for the welcome."""
        body = _body_of(msg, body)
        hello = _expected(as_frame(msg, body), Hello, "expected hello")
        if self._greeting is None:
            raise LinkUsageError("greeting() first", code="greeting_first")
        key, caps = hello.key, hello.caps
        signed = handshake_hash(self._greeting, unsealed(body, {"pop": hello.pop}))
        if not verify_signature(key, POP_JOINER_DOMAIN, signed, hello.pop):
            raise ProtocolError(ErrorCode.BAD_PROOF_OF_POSSESSION,
                                violation="bad_proof_of_possession")
        if self.knocked is not None and key != self.knocked:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION,
                                "the hello's key is not the one its knock proved",
                                violation="key_not_knocked")
        # A joiner that cannot check shuffle proofs cannot sit at a table with them.
        if CAP_SHUFFLE_PROOFS in self.lobby.caps and CAP_SHUFFLE_PROOFS not in caps:
            raise ProtocolError(ErrorCode.BAD_FIELD, "caps must include shuffle-proof/v1: "
                                "this table's shuffles carry proofs",
                                violation="shuffle_proofs_required")
        if hello.bot is not None:
            level, sig = hello.bot
            # A voucher is this host's own word that the key is its bot: one it did not
            # sign is somebody's claim to be what it is not (PROTOCOL.md 5.6).
            if not check_voucher(self.lobby.identity.public, key, level, sig):
                raise ProtocolError(ErrorCode.SEAT_REFUSED,
                                    "the hello's bot voucher is not this host's",
                                    violation="foreign_bot_voucher")
        resume = None
        over: tuple[int, int] | None = None
        if key in self.lobby.proven:
            self._check_secret(hello, self.lobby.former_secret)  # it sat with it
        if hello.resume is not None:
            game, resume_have = hello.resume
            if self.running is None or game != self.running:
                # A match this host ended while that seat was away: welcomed, to be told
                # its end (PROTOCOL.md 13.1); no clocks run for it.
                over = self.ended(game, key) if self.ended is not None else None
                if over is None:
                    raise ProtocolError(ErrorCode.UNKNOWN_GAME, violation="unknown_game")
                seat: int | None
                seat, have = over
            else:
                seat = self.lobby.seat_of(key)
            if seat is None:
                raise ProtocolError(ErrorCode.UNKNOWN_GAME, "this identity has no seat here",
                                    violation="no_seat_here")
            resume = (game, max(0, resume_have))
        elif self.running is not None:
            seat = self.lobby.seat_of(key)
            if seat is None:
                raise ProtocolError(ErrorCode.TABLE_FULL, "the game has started",
                                    violation="game_started")
            resume = (self.running, 0)
        else:
            self._check_secret(hello)
            number = None if hello.bot is None else \
                own_bot_number(self.lobby.identity, key, hello.bot[0], self.lobby.players)
            seat = self.lobby.take_seat(key, hello.name, caps, bot_number=number)
            if self.lobby.secret is not None:
                self.lobby.proven.add(key)
        if resume is not None and over is None and bot_level(key) is not None \
                and key not in self.lobby.proven:
            # A bot level's well-known key (observe.rating.bot_seed): its private half is
            # public, so a return under it proves nothing about who comes back; only a
            # key that proved the table's seat secret when it sat is taken back (it
            # proved it again above).  The host's own bots sit under keys derived from
            # its identity (vouch.bot_identity) and come back as anyone does.
            raise ProtocolError(ErrorCode.SEAT_REFUSED,
                                "a bot level's well-known key cannot come back to its "
                                "seat: anyone can sign as it", violation="bot_key_cannot_return")
        if hello.bot is not None and over is None:
            self.lobby.bots[key] = hello.bot
        if resume is not None and over is None:
            # A seat of the running game back on a new connection: what this hello
            # announces is what it speaks now (a restarted host knew nothing of it).
            self.lobby.seat_caps[seat] = tuple(caps)
        welcome: dict[str, Any] = {"t": "welcome", "v": hello.v, "seat": seat, "caps": list(SPOKEN),
                   "have": have}
        if self.limits is not None and over is None:
            welcome["limits"] = dict(self.limits)
            if resume is not None and self.allowance_left is not None:
                welcome["limits"]["left"] = max(0, min(self.limits["away"],
                                                       self.allowance_left(seat)))
            used = self.move_used() if resume is not None and self.move_used else None
            if used is not None:
                welcome["limits"]["used"] = max(0, min(self.limits["move"], used))
        identity = self.lobby.identity
        welcome = seal_pop(welcome, lambda zeroed: identity.sign(
            POP_HOST_DOMAIN, handshake_hash(self._greeting, body, zeroed)))
        return welcome, seat, resume

    def _check_secret(self, hello: Hello, former: str | None = None) -> None:
        """At a table with a seat secret, a fresh hello must prove it, over this
        connection's greeting nonce; so must every later hello of a key that proved it
        (:attr:`Lobby.proven`: a resume, a fresh hello in the running game).  Refused
        with a named code: no proof (a stranger, or a joiner given the address without
        the secret), or a wrong one (another secret, or a proof made for another
        connection)."""
        secret = self.lobby.secret
        if secret is None:
            return
        if hello.secret_proof is None:
            raise ProtocolError(ErrorCode.SECRET_REQUIRED,
                                "this table seats only those who have its join code's "
                                "secret: ask the host for the whole join code",
                                violation="secret_required")
        proofs = [seat_secret_proof(other, self.nonce, hello.key, hello.nonce)
                  for other in (secret, former) if other is not None]
        # Each compared in constant time, all of them (which one matched says nothing).
        if not sum(equal(p, hello.secret_proof) for p in proofs):
            raise ProtocolError(ErrorCode.SECRET_WRONG,
                                "the secret in your join code is not this table's: ask "
                                "the host for its join code again", violation="secret_wrong")


_M = TypeVar("_M")


def _body_of(msg: Frame | dict[str, Any], body: bytes | None) -> bytes:
    """A handshake message's bytes as received; by default ``msg`` encoded (a map as it
    is, unknown fields included; a typed message as it sends)."""
    if body is not None:
        return bytes(body)
    if isinstance(msg, dict):
        return wire.encode(msg)
    if isinstance(msg, Signed | Unknown | Malformed):
        return b""  # refused before any hash is taken
    return wire.encode(msg.to_wire())


def _expected(frame: Frame, cls: type[_M], what: str) -> _M:
    """``frame`` if it is a ``cls``; a malformed ``cls`` raises its error, anything else
    ``unknown_type`` (``what`` says what was expected)."""
    if isinstance(frame, cls):
        return frame
    if isinstance(frame, Malformed) and frame.kind is cls:
        raise frame.error
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, what, violation="unexpected_message",
                        facts={"expected": str(getattr(cls, "TYPE", cls.__name__))})


def greeting_players(players: int) -> int:
    """A ``host`` greeting's table size, 2, 3 or 4; else :class:`ProtocolError`
    ``bad_field`` (a joining peer's check, and a spectator's)."""
    if players not in ONLINE:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"a table of {players} players "
                            f"(a table seats {' or '.join(map(str, ONLINE))})",
                            violation="players_unsupported", facts={"players": players})
    return players


class ClientHandshake:
    """A joining peer's side: ``on_host(msg, body) -> hello``, then
    ``on_welcome(msg, body) -> seat``.  Send the hello encoded by :func:`wire.encode`."""

    def __init__(self, identity: Identity, name: str,
                 resume: tuple[bytes, int] | None = None, nonce: bytes | None = None,
                 caps: tuple[str, ...] | None = None, resume_seat: int | None = None,
                 secret: str | None = None, bot: tuple[str, bytes] | None = None
                 ) -> None:
        self.identity = identity
        #: A host's bot: ``(level, voucher)`` from its host, sent in every hello
        #: (PROTOCOL.md 5.6); None: a person, or a bot of no host's.
        self.bot = bot
        #: The table's seat secret from the join code (printed form), proven in the hello
        #: when the greeting asks for it (PROTOCOL.md 5.5); None: none to prove.
        self.secret = secret
        #: On a resume, our seat in that game: the welcome must give it (the host's
        #: greeting may be of another table, a match it ended being told, 13.1).
        self.resume_seat = resume_seat
        #: What the hello announces.  By default every capability but the link-only
        #: ones, which need the caller's own part (``ready-check/v1``: sending ``start``
        #: once the person confirmed the table).
        self.caps = caps if caps is not None else tuple(
            c for c in SPOKEN if c not in LINK_CAPABILITIES)
        self.name = check_name(name)
        self.nonce = nonce if nonce is not None else os.urandom(32)
        self.resume = resume
        self.host_key: bytes | None = None
        self.host_name = ""
        #: The ``host`` greeting's capabilities: the table's to come.
        self.host_caps: tuple[str, ...] = ()
        #: The greeting's nonce (a knock cites it, PROTOCOL.md 5.4).
        self.host_nonce = b""
        self.rules: Ruleset | None = None
        self.players = 0
        self.version = PROTOCOL_VERSION
        self._greeting = b""
        self._hello = b""

    def on_host(self, msg: Frame | dict[str, Any], body: bytes | None = None
                ) -> dict[str, Any]:
        """``msg``: the frame read (a decoded map is read as one); ``body``: the
        greeting's frame body as received (default: ``msg`` encoded)."""
        body = _body_of(msg, body)
        host = _expected(as_frame(msg, body), Host, "expected the host's greeting")
        self._greeting = body
        common = set(host.versions) & set(SUPPORTED_VERSIONS)
        if not common:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"host speaks {list(host.versions)}",
                                violation="no_common_version")
        self.version = max(common)
        self.host_key = host.key
        self.host_name = host.name
        self.host_caps = host.caps
        self.host_nonce = host.nonce
        self.players = greeting_players(host.players)
        try:
            self.rules = Ruleset.from_dict(host.rules)
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"ruleset: {exc}",
                                violation="bad_ruleset") from None
        if host.rules_hash != self.rules.digest():
            raise ProtocolError(ErrorCode.BAD_FIELD, "rules_hash does not match the ruleset",
                                violation="rules_hash_mismatch")
        proof = None
        if CAP_SEAT_SECRET in host.caps and self.secret is not None:
            proof = seat_secret_proof(self.secret, host.nonce, self.identity.public,
                                      self.nonce)
        hello = Hello(self.version, self.caps, self.identity.public, self.name, self.nonce,
                      self.resume, secret_proof=proof, bot=self.bot).to_wire()
        return self.seal_hello(hello)

    def seal_hello(self, hello: dict[str, Any]) -> dict[str, Any]:
        """Sign ``hello`` (every field but ``pop``) into the message to send: its proof of
        possession covers the greeting received and this very hello."""
        sealed = seal_pop(hello, lambda zeroed: self.identity.sign(
            POP_JOINER_DOMAIN, handshake_hash(self._greeting, zeroed)))
        self._hello = wire.encode(sealed)
        return sealed

    def on_welcome(self, msg: Frame | dict[str, Any], body: bytes | None = None) -> int:
        """``msg``: the frame read (a decoded map is read as one); ``body``: the
        welcome's frame body as received (default: ``msg`` encoded)."""
        body = _body_of(msg, body)
        frame = as_frame(msg, body)
        if isinstance(frame, ErrorMsg):
            raise ProtocolError(frame.code if frame.code is not None
                                else ErrorCode.PROTOCOL_VIOLATION, frame.text)
        welcome = _expected(frame, Welcome, "expected welcome")
        assert self.host_key is not None
        signed = handshake_hash(self._greeting, self._hello,
                                unsealed(body, {"pop": welcome.pop}))
        if not verify_signature(self.host_key, POP_HOST_DOMAIN, signed, welcome.pop):
            raise ProtocolError(ErrorCode.BAD_PROOF_OF_POSSESSION,
                                "the host's welcome is not signed by its greeting's key",
                                violation="welcome_unsigned")
        seat = welcome.seat
        if self.resume_seat is not None:
            if seat != self.resume_seat:
                raise ProtocolError(ErrorCode.BAD_FIELD, "not the seat we resume",
                                    violation="wrong_resume_seat")
        elif not 0 < seat < self.players:  # a shape of ONLINE: on_host checked it
            raise ProtocolError(ErrorCode.BAD_FIELD, "seat out of range",
                                violation="seat_out_of_range")
        return seat
