"""A joining seat's side of the link, sans-IO (PROTOCOL.md 5, 12, 13, 17, 18).

:class:`SeatLink` holds what a joiner decides: whether a host that answered is ours (the
pinned key, the key of the game we resume), what the host's welcome tells us (our seat,
its limits, what we have left of our allowance), the host's unsigned messages (lobby,
wait, back, chat, spectators, rematch and its offer: checked field by field, shown, never
trusted), the entries it relays (checked, and blamed on the host when bad), when the host counts as
gone (its allowance of time away, spent across drops) or as stalling the game (the
bound it enforces on every seat), and what we tell people when a connection fails.
Each connection's state is kept in :data:`~chkobba_p2p.link.states.JOINER`, consulted for
every frame from the host and every message we send (one the state forbids is our bug:
:class:`~chkobba_p2p.link.states.LocalStateError`).

The handshake's order is here too, sans-IO: :meth:`SeatLink.connect` says what a new
connection sends first, :meth:`SeatLink.receive_handshake` takes each of the host's frames
until its welcome (:class:`HandshakeStep`: what to send, and whether the connection is
over), :meth:`SeatLink.host_closed` and :meth:`SeatLink.handshake_broken` its refusal, its
silence, a bad frame or the deadline.  The trio shell
(:class:`chkobba_p2p._shell.net.ClientPeer`) connects, moves the bytes within their
deadlines, feeds this core, and carries out the :mod:`~chkobba_p2p.link.seat` effects.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from ..address import parse_fingerprint
from ..game.ruleset import Ruleset
from ..observe.vouch import check_voucher
from ..text import distinct_names, safe_text
from ..transcript.bodies import GameFault
from ..transcript.caps import CAP_KNOCK, CAP_READY_CHECK, CAP_REMATCH, CAP_SHUFFLE_PROOFS
from ..transcript.clocks import CLOCK_TOLERANCE, Clocks, Limits
from ..transcript.session import Session
from ..transcript.table import Phase
from ..wire import codec as wire
from ..wire.codec import ErrorCode, ProtocolError
from . import messages as lm
from .events import (
    Chat,
    Lobby,
    Notice,
    NoticeKind,
    OutcomeError,
    RematchAnswer,
    RematchOffered,
    Resumed,
    Spectators,
    Waiting,
    check_data,
    clean_chat,
)
from .handshake import ClientHandshake, knock_message
from .seat import C, ChatBucket, Close, Effect, Emit, SeatCore, Send, SendBacklog
from .spectators import WatchersShown
from .states import (
    JOINER,
    LinkStateError,
    NoSuchEvent,
    after_event,
    may_send,
    next_state,
    sent_state,
)

__all__ = ["SeatLink", "Committed", "HandshakeStep", "lobby_event", "code_name",
           "pinned_fingerprint", "RETRY_FIRST", "RETRY_MOST"]

#: Seconds before a joiner's first try again at its host, doubling to RETRY_MOST.
RETRY_FIRST = 0.05
RETRY_MOST = 1.0


def pinned_fingerprint(in_code: str | None, configured: str | None) -> str | None:
    """The fingerprint the host's key must have: a join code's (``in_code``) or the one
    configured (as people write it), or None; ValueError if they are two."""
    if configured is None:
        return in_code
    wanted = parse_fingerprint(configured)
    if in_code is not None and in_code != wanted:
        raise ValueError(f"two different host fingerprints: {in_code} (in the code) "
                         f"and {wanted}")
    return wanted


@dataclass(frozen=True, slots=True)
class Committed(Effect):
    """Our seat's part starts: the shell writes the log's header and the saved game
    (for a crash resume) before anything of ours leaves."""


@dataclass(frozen=True, slots=True)
class HandshakeStep:
    """What one step of a connection's handshake asks of the shell: send ``send`` (in
    order); then, if ``over`` is not None, the connection is over: send an error with
    code ``fail`` (if any) and close, then stop (``over`` True) or try again (False).
    Once :attr:`SeatLink.handshaking` is False with ``over`` None, the host welcomed us."""

    send: tuple[dict[str, Any], ...] = ()
    fail: ErrorCode | None = None
    over: bool | None = None


#: The states of a connection before the host's welcome.
_HANDSHAKE = frozenset({"CONNECTING", "GREETED", "HELLO_SENT"})


def code_name(code: object) -> str:
    """A wire error code's name (``table_full``), or ``connection_closed``."""
    known = ErrorCode.from_wire(code)
    return known.name.lower() if known is not None else OutcomeError.CONNECTION_CLOSED


#: How much of a host's own words (its text past its code's sentence) a refusal shows.
_HOST_WORDS = 120


def their_words(code: object, text: str) -> tuple[str, str]:
    """``(our sentence for code, the rest of the host's text, cut short)``."""
    known = ErrorCode.from_wire(code)
    if known is not None:
        ours = known.sentence
        if text.startswith(ours):
            text = text[len(ours):].lstrip(":; ").strip()
    else:
        ours = "an error code this program does not know " \
            f"({code if isinstance(code, int) else '?'})"
    return ours, text if len(text) <= _HOST_WORDS else text[:_HOST_WORDS - 1] + "…"


def lobby_event(msg: lm.Lobby, host_caps: tuple[str, ...],
                host: tuple[bytes, str] | None = None) -> Lobby | None:
    """The :class:`Lobby` event of a ``lobby`` message from the host: names made distinct
    and safe to display (the host could send anything), and whether shuffle proofs are
    on (from the host's greeting).  ``host``: the key and name the host's greeting gave
    (its proof of possession covers them): seat 0 must be that key, and keeps that name
    whatever a lobby says (None if not)."""
    seats = tuple((s.name, wire.fingerprint(s.key)) if s else None for s in msg.seats)
    if host is not None:
        first = msg.seats[0]
        if first is None or first.key != host[0]:
            return None
        seats = ((host[1], seats[0][1] if seats[0] else wire.fingerprint(host[0])),
                 *seats[1:])
    names = distinct_names([safe_text(x[0], wire.MAX_NAME) if x else None for x in seats],
                           wire.MAX_NAME)
    # The ready check (PROTOCOL.md 5.3): who confirmed this seating, and its number; how
    # many spectators the host admits (section 18): shown, never acted on.
    return Lobby(tuple((name, x[1]) if x and name else None
                       for x, name in zip(seats, names, strict=True)),
                 shuffle_proofs=CAP_SHUFFLE_PROOFS in host_caps, ready=msg.ready,
                 seating=msg.seating, keys=tuple(s.key if s else None for s in msg.seats),
                 spectators=msg.spectators,
                 bots=tuple(s.bot[0] if s is not None and s.bot is not None and host
                            is not None and check_voucher(host[0], s.key, *s.bot) else None
                            for s in msg.seats))


def seat_of(seat: int | None, players: int) -> int | None:
    """A seat an unsigned message names, if the table has it (a message's own bounds are
    the largest table's: :func:`~chkobba_p2p.link.messages.read_frame`)."""
    return seat if seat is not None and seat < players else None


class SeatLink(SeatCore[C]):
    """A joiner's link to its host, as decisions.  ``where``: the host's address as
    people read it; ``pinned``: the fingerprint a join code requires, or None;
    ``limits``: our own configuration's, until the host announces its own."""

    def __init__(self, identity: wire.Identity, where: str, pinned: str | None,
                 limits: Limits, *,
                 announce: float = 5.0, handshake: float = 10.0, idle: float = 30.0,
                 connect_retry: float = 0.0) -> None:
        super().__init__(limits)
        self._identity = identity
        #: The connection's state in :data:`~chkobba_p2p.link.states.JOINER` (the last
        #: connection's, between connections).
        self.state = JOINER.initial
        self.where = where
        self.pinned = pinned
        #: The table's seat secret from the join code (printed form), proven in each
        #: hello whose greeting asks for it (PROTOCOL.md 5.5); None: none.
        self.secret: str | None = None
        #: We are a host's bot: ``(level, the host's voucher)``, sent in each hello
        #: (PROTOCOL.md 5.6); None: a person.
        self.bot: tuple[str, bytes] | None = None
        #: Past the host's allowance of time away, sign a claim against it (False: stop
        #: signing nothing, the saved game kept for its return: a host's own bot, see
        #: :attr:`~chkobba_p2p._shell.config.JoinConfig.claims_host_gone`).
        self.claims_host_gone = True
        #: The host's bots the lobby showed with a voucher that checks under the
        #: greeting's key: key -> (level, voucher), for the log's header.
        self.vouched: dict[bytes, tuple[str, bytes]] = {}
        self.handshake_timeout = handshake
        self.idle = idle
        self.connect_retry = connect_retry
        #: The handshake under way on the connection (None past its welcome or end).
        self._hs: ClientHandshake | None = None
        #: The connection to the host past its welcome, None between connections.
        self.host: C | None = None
        self.host_key: bytes | None = None
        self.host_caps: tuple[str, ...] = ()
        #: What our hello announced (``hello.caps``): our ready lists the genesis's
        #: capabilities among them (PROTOCOL.md 3), whatever the host put in the genesis.
        self.hello_caps: tuple[str, ...] | None = None
        self.host_name = ""  # as the greeting gave it
        #: The move limit and allowance the host announced in its welcome (None: not
        #: announced, or out of bounds): our clocks and conclusions use them.
        self.host_limits: Limits | None = None
        #: What a welcome said of the clocks, (our allowance left, the move's time run,
        #: the host's chain length, when), until our clocks take it (_take_host_said).
        self._host_said: tuple[int | None, int | None, int, float] | None = None
        #: The rules the host's greeting announced (checked against their hash).
        self.host_rules: Ruleset | None = None
        self.welcome_seat = -1
        self.resumed_entries = 0
        #: The log and the saved game are written (a resumed game's from the start).  A
        #: fresh join to a running game holds them back, and every entry of its own,
        #: until the host's chain as of the welcome (``replay_to`` entries) is in: if our
        #: seat signed any of it, the game's secrets are on another machine.
        self.committed = False
        self.replay_to = 0
        #: On a resume, the host's chain length as its welcome said: our seat acts once
        #: it is in (:meth:`_host_chain_in`).
        self._resume_to = 0
        #: Some connection of this run got past its welcome: only then may a lost host
        #: spend its allowance and be blamed (PROTOCOL.md 12.4).
        self.ever_connected = False
        self.was_connected = False  # the last connection got past its welcome
        #: Our host greeted us in this run (a ``host`` greeting with its key): a chkobba
        #: host answered, so a close before its welcome is retried within its
        #: allowance, never read as nobody answering (PROTOCOL.md 12.4).
        self.greeted = False
        #: The nonce of our host's last greeting that announced knock/v1: our next
        #: connection knocks with it (PROTOCOL.md 5.4); None: it cannot.
        self.knock_nonce: bytes | None = None
        self._retry = RETRY_FIRST  # seconds before the next try (see retry_delay)
        #: The wire code of the host's last refusal of our resume (-1: not a known code),
        #: None once it welcomes us: the claim we sign if its allowance runs out says so.
        self.refusal: int | None = None
        #: Our host said it has no such game, not even ended (see :meth:`refused`).
        self.game_unknown = False
        self.host_away = False  # the host said it steps away
        self._host_rematch = False  # the host's rematch answer came (once is enough)
        self._host_offer = False  # the host's person wants a rematch (shown once)
        self._relayed_chat: dict[int, ChatBucket] = {}
        self._own_chat = ChatBucket()
        #: Who is watching, shown at most once a window whatever the host sends.
        self.watchers = WatchersShown(announce)
        #: A usable lobby (or the genesis) came; else what was wrong with the last lobby:
        #: its check's error (code, facts and English detail; :meth:`no_table` says it).
        self.table_seen = False
        self.lobby_problem: ProtocolError | None = None
        self._said: set[Notice] = set()  # retry notices already reported
        # The host's allowance of time away, spent across every drop of the match.
        self._host_away_spent = 0.0
        self._away_since: float | None = None
        #: This run's first welcome: our own clocks measure only what came after it (a
        #: process restarted from its saved game knows nothing of the time before).
        self._first_welcome_at: float | None = None
        #: Our allowance left as of that welcome (the host's word, or the whole
        #: allowance), and our time away measured by then: the base of our own reading.
        self._base_left: float | None = None
        self._base_spent = 0.0
        self._away_deadline: float | None = None
        self._first_deadline: float | None = None
        # The stalled-host rule: the last (length, floor) seen, and since when.
        self._seen: tuple[int, int] = (-1, -1)
        self._since: float | None = None

    # -- state -----------------------------------------------------------------------------

    def resumed(self, session: Session, host_key: bytes) -> None:
        """A game rebuilt from our log and saved secrets (before any connection)."""
        self.session = session
        self.host_key = host_key
        self.resumed_entries = len(session.bodies)
        self.committed = True

    def limits(self) -> Limits:
        """The host's limits once it announced them, else our own configuration's."""
        return self.host_limits if self.host_limits is not None else super().limits()

    def catching_up(self) -> bool:
        """A fresh join to a running game that has not yet read the host's chain as of
        its welcome: it signs nothing yet (see :meth:`entry`)."""
        return not self.committed and self.session is not None

    def stalled_host_limit(self) -> float:
        """Seconds without a new entry, while connected to the host and another seat
        holds the floor, after which this peer concludes the host stops the game: the
        bound the host enforces on any seat (move limit + allowance, PROTOCOL.md 12) plus
        the idle timeout for its verdict to arrive."""
        return self.limits().bound + self.idle

    def _host_chain_in(self) -> bool:
        """On a resume, the host's chain as of its welcome is in (or the game is over):
        only then does our seat act on it (:meth:`welcomed`)."""
        s = self.session
        return s is None or s.finished or s.length >= self._resume_to

    def commit(self) -> None:
        if not self.committed:
            self.committed = True
            self.out.append(Committed())

    # -- the connection's state ------------------------------------------------------------

    def _sync(self) -> None:
        """The transitions the game's facts make, no message: a welcome that resumes our
        game is the game at once; a match over (its last entry signed) is DONE."""
        s = self.session
        if self.state == "LOBBY" and s is not None:
            self.state = after_event(JOINER, self.state, "resumed")
        if self.state == "IN_GAME" and s is not None and s.finished:
            self.state = after_event(JOINER, self.state, "match over")

    def _sent(self, msg_type: str) -> None:
        """We send a ``msg_type``: the state must allow it (else
        :class:`~chkobba_p2p.link.states.LocalStateError`, before anything leaves)."""
        self._sync()
        self.state = sent_state(JOINER, self.state, msg_type)

    def _send(self, conn: C, msg: lm.Pong | lm.Chat | lm.Start | lm.Rematch | lm.Away
              | lm.ErrorMsg) -> None:
        self._sent(msg.TYPE)
        self.out.append(Send(conn, wire.encode(msg.to_wire())))

    def _may_send(self, msg_type: str) -> bool:
        self._sync()
        return may_send(JOINER, self.state, msg_type)

    # -- the handshake ---------------------------------------------------------------------

    @property
    def handshaking(self) -> bool:
        """A connection is open and the host has not welcomed us yet (nor ended it)."""
        return self._hs is not None and self.state in _HANDSHAKE

    def connect(self, name: str, caps: tuple[str, ...]) -> list[dict[str, Any]]:
        """A new connection to the host, our hello to announce ``name`` and ``caps``:
        what it sends first (a seat's knock, 5.4, or nothing: the host greets first)."""
        self.state = after_event(JOINER, self.state, "connected") \
            if self.state == "RECONNECTING" else JOINER.initial
        self._hs = self.hello_for(self._identity, name, caps)
        knock = self.knock()
        if knock is None:
            return []
        self._sent(lm.Knock.TYPE)
        return [knock]

    def receive_handshake(self, conn: C, body: bytes, frame: lm.Frame, now: float
                          ) -> HandshakeStep:
        """One frame from the host before its welcome (``body``: as received; its bytes
        are in the handshake's hash).  Its greeting is answered with our hello; its
        welcome, proven by our host's key, makes ``conn`` our link to it; its refusal,
        or anything the state or the checks refuse, ends the connection."""
        hs = self._hs
        if hs is None or not self.handshaking:
            raise NoSuchEvent(f"no handshake under way (the joiner is in {self.state})",
                              code="no_handshake", data={"state": self.state})
        if isinstance(frame, lm.ErrorMsg):
            return self.host_closed(frame)
        try:
            state = next_state(JOINER, self.state, lm.type_name(frame))
            if state == "GREETED":
                self.state = state
                hello = hs.on_host(frame, body)
                if self.refuse_host_key(hs.host_key):
                    self._hs = None
                    self.state = after_event(JOINER, self.state, "wrong key")
                    return HandshakeStep(over=True)
                self.greeting(hs, hs.host_nonce)
                self._sent(lm.Hello.TYPE)
                return HandshakeStep(send=(hello,))
            seat = hs.on_welcome(frame, body)
        except ProtocolError as exc:
            return self.handshake_broken(exc)
        self._hs = None
        other = self.other_host(hs.host_key)
        if other is not None:  # someone else's welcome: we close, say nothing
            self.state = after_event(JOINER, state, "drop")
            return HandshakeStep(over=other)
        assert isinstance(frame, lm.Welcome)  # on_welcome took it
        self.welcomed(conn, hs, frame, seat, now)
        return HandshakeStep()

    def host_closed(self, error: lm.ErrorMsg | None) -> HandshakeStep:
        """The host ended the connection before its welcome: with ``error`` (a refusal),
        or without a word."""
        greeted_by = self._hs.host_key if self._hs is not None else None
        self._hs = None
        if error is not None:
            self.state = next_state(JOINER, self.state, lm.ErrorMsg.TYPE)
            return HandshakeStep(over=self.refused(error, greeted_by))
        self.state = after_event(JOINER, self.state, "drop")
        return HandshakeStep(over=self.closed_in_handshake())

    def handshake_broken(self, exc: ProtocolError | None) -> HandshakeStep:
        """The handshake broke (``exc``: a frame that does not decode or check out) or
        did not complete within its deadline (None): we say why with our error."""
        self._hs = None
        self._sent(lm.ErrorMsg.TYPE)
        if exc is None:
            return HandshakeStep(fail=ErrorCode.HANDSHAKE_TIMEOUT, over=self.handshake_failed(
                "timeout", OutcomeError.HANDSHAKE_FAILED, ErrorCode.HANDSHAKE_TIMEOUT))
        return HandshakeStep(fail=exc.error_code, over=self.handshake_failed(
            str(exc), exc.error_code.name.lower(), exc.error_code, exc.detail, exc))

    def hello_for(self, identity: wire.Identity, name: str, caps: tuple[str, ...]
                  ) -> ClientHandshake:
        s = self.session
        resume = (s.table.game, s.length) if s is not None else None
        return ClientHandshake(identity, name, resume, caps=caps,
                               resume_seat=s.own_seat if s is not None else None,
                               secret=self.secret, bot=self.bot)

    def knock(self) -> dict[str, Any] | None:
        """The ``knock`` our next connection opens with (before the greeting), or None:
        only a seat of a game, to the host whose greeting (in this run) announced
        knock/v1, citing that greeting's nonce (PROTOCOL.md 5.4)."""
        if self.session is None or self.host_key is None or self.knock_nonce is None:
            return None
        return knock_message(self._identity, self.host_key, self.knock_nonce)

    def greeting(self, hs: ClientHandshake, nonce: bytes) -> None:
        """A greeting came (``hs.on_host`` took it; ``nonce``: its nonce): from our host's
        key, it is an answer (12.4) and, if it announces knock/v1, what our next
        connection knocks with.  A greeting with another key says nothing of our host."""
        if self.host_key is None or hs.host_key != self.host_key:
            return
        self.greeted = True
        self.knock_nonce = nonce if CAP_KNOCK in hs.host_caps else None

    def refuse_host_key(self, key: bytes | None) -> bool:
        """True (and the error set) when the host's key is not the pinned one."""
        if self.pinned is None or key is None:
            return False
        actual = wire.fingerprint(key)
        if actual == self.pinned:
            return False
        self.stop(OutcomeError.HOST_KEY_MISMATCH, "host_key_mismatch",
                  where=self.where, actual=actual, pinned=self.pinned)
        return True

    def refused(self, error: lm.ErrorMsg, greeted_by: bytes | None = None) -> bool:
        """The host answered our hello with an error: True when we stop.  ``greeted_by``:
        the key the connection's greeting gave (None: no greeting came)."""
        code, text = error.number, error.text
        if self.session is not None and code == ErrorCode.UNKNOWN_GAME \
                and greeted_by is not None and greeted_by == self.host_key:
            self._game_unknown()
            return True
        if self.session is not None:
            # A refusal while we are in a game (unknown_game, shutdown...) is an unsigned
            # message that anyone at the host's address can send: it deletes nothing and
            # proves nothing.  It counts as the host being unreachable: retried within
            # the host's allowance of time away, after which our own timer ends the game
            # (PROTOCOL.md 13).  Said once: the countdown (Waiting) is the client's.
            self.refusal = code if isinstance(code, int) else -1
            # The notice names the code, and the host's own words past the code's
            # sentence (cut; "" when it said only the code's): a client words the code.
            _, rest = their_words(code, text)
            self.say_once(Notice(NoticeKind.RESUME_REFUSED, rest, code=code_name(code),
                                 number=code if isinstance(code, int) else None))
            return False
        _, rest = their_words(code, text)
        self.said(code_name(code), "refused",
                  code=code_name(code), host_text=rest,
                  **({"number": code} if isinstance(code, int) else {}))
        return code not in (ErrorCode.ALREADY_SEATED,)

    def _game_unknown(self) -> None:
        """Our host (its greeting gave its key) no longer has our game, not even as a
        match it ended (it would have told us its end, PROTOCOL.md 13.1): restarted
        without that game's log, or on another machine.  Waiting changes nothing, and an
        ending of our own could contradict one it signed: we sign nothing, stop, and the
        shell files the saved game aside so that the next join sits at its new table."""
        self.game_unknown = True
        self.stop(OutcomeError.GAME_UNKNOWN, "game_unknown", where=self.where)

    def closed_in_handshake(self) -> bool:
        """The host closed during the handshake without a word: True when we stop."""
        if self.session is None:
            self.said(OutcomeError.CONNECTION_CLOSED, "closed_in_handshake")
            return True
        return self.no_host_answered()

    def handshake_failed(self, why: str, code: str, wire_code: ErrorCode,
                         detail: str = "", exc: ProtocolError | None = None) -> bool:
        """A garbled or stalled handshake (``wire_code``, and the check's ``detail``):
        True when we stop."""
        if self.session is not None:
            if self.no_host_answered():
                return True
            # In a game, a stalled or garbled handshake (a bad path, an impostor at the
            # host's address) is one more failed connection: retried within the host's
            # allowance of time away, never a reason to give up the game.
            self.say_once(Notice(NoticeKind.HANDSHAKE_RETRY, detail,
                                 code=wire_code.name.lower(),
                                 violation=exc.violation if exc is not None else None,
                                 facts=exc.facts if exc is not None else ()))
            return False
        self.said(code, "handshake_failed",
                  **(check_data(exc, why) if exc is not None else {"detail": why}))
        return True

    def other_host(self, key: bytes | None) -> bool | None:
        """None when ``key`` is our host's (or we know none yet); else True to stop,
        False to retry (someone else proves its own key at the host's address: ours may
        come back within its allowance)."""
        if self.host_key is None or key == self.host_key:
            return None
        if self.session is not None:
            self.say_once(Notice(NoticeKind.OTHER_HOST))
            return False
        self.said(OutcomeError.HOST_CHANGED, "host_changed")
        return True

    def welcomed(self, conn: C, hs: ClientHandshake, welcome: lm.Welcome, seat: int,
                 now: float) -> None:
        """The host's welcome, proven by our host's key: only now is anything in it our
        host's word (an impostor at the address must not shorten our wait, 13)."""
        s = self.session
        # The welcome ends the handshake (receive_handshake, or a test's by hand).
        self.state = next_state(JOINER, "HELLO_SENT", lm.Welcome.TYPE)
        self.welcome_seat = seat
        limits = welcome.limits
        own_left = move_used = None
        relimited = False
        if limits is not None:
            self.host_limits = Limits(*limits)
            own_left, move_used = welcome.left, welcome.used
            if self.clock is not None and self.clock.limits != self.host_limits:
                # A host restarted with other limits: our countdowns are the ones it
                # enforces now, not the ones our clocks started with (PROTOCOL.md 12.3).
                self.clock.relimit(self.host_limits, now)
                relimited = True
        if not self.committed:
            # A fresh hello may be taken back as a resume from have = 0 (PROTOCOL.md 5):
            # the host's chain, as long as it says, comes first; we act once it is in.
            self.replay_to = max(self.replay_to, welcome.have)
        self.refusal = None
        self.host_key = hs.host_key
        self.host_caps = hs.host_caps
        self.hello_caps = hs.caps
        self.host_name = hs.host_name
        self.host_rules = hs.rules
        self.host = conn
        if self._first_welcome_at is None:
            self._first_welcome_at = now
            self._base_left = float(own_left) if own_left is not None else None
            self._base_spent = self._host_away_spent
        self.was_connected = self.ever_connected = True
        self.host_away = False
        self._since = now
        if self.clock is not None:
            self.clock.back(0, now)
        self.reconnected(now)
        if own_left is not None or move_used is not None:
            # On a resume the host tells us what our seat has left of its allowance, and
            # how long the move being waited for has run: our clocks show those (and our
            # step-away dialog counts them), not a full allowance and a fresh move.  A
            # join with no saved game has no clocks yet: they take it when they start.
            self._host_said = (own_left, move_used, welcome.have, now)
            if s is not None:
                if self.clock is None:
                    self.clock = self.new_clocks(now)  # takes what the host said
                else:
                    self._take_host_said(self.clock)
                relimited = True
        if relimited and s is not None:
            self.clock_changed(now, force=True)  # the countdowns shown change
        if s is not None and hs.resume is not None and self.committed:
            self.out.append(Emit(Resumed(s.own_seat, self.resumed_entries)))
            if 0 < welcome.have < s.length:
                self._sent(lm.Signed.TYPE)
                # An abort of ours still owed (a resume that signed a verdict) is the
                # last body: pump() sends it, once, after the backlog.
                end = len(s.bodies) - 1 if s.owes_abort else len(s.bodies)
                self.out.append(SendBacklog(conn, welcome.have, end))
            # What the host has past our copy comes first (it may be the match's signed
            # end, PROTOCOL.md 13.1): nothing of ours is signed for a position it passed.
            self._resume_to = welcome.have
        if self.committed and self._host_chain_in():
            self.pump(now)  # a resumed session may hold the floor already

    def new_clocks(self, now: float) -> Clocks:
        clock = super().new_clocks(now)
        self._take_host_said(clock)
        return clock

    def _take_host_said(self, clock: Clocks) -> None:
        """What the host's last welcome said of our allowance and of the move being
        waited for (PROTOCOL.md 12.3), into our clocks, once."""
        said, self._host_said = self._host_said, None
        s = self.session
        if said is None or s is None:
            return
        own_left, used, have, at = said
        if own_left is not None:
            clock.told_allowance(s.own_seat, own_left, at)
        if used is not None and s.length <= have:  # a chain past it: that move is played
            clock.told_move_used(have, used, at)

    def reconnected(self, now: float) -> None:
        """Our host is back (its welcome proven): its time away ends here, kept for the
        match (its allowance is spent across every drop)."""
        if self._away_since is not None:
            self._host_away_spent += now - self._away_since
            self._away_since = self._away_deadline = None

    def lost(self) -> None:
        """The connection to the host ended (its error, if any, was fed first)."""
        self.host = None
        self._sync()
        drop = JOINER.events[self.state].get("drop")
        if drop is not None:
            self.state = drop

    # -- after a connection --------------------------------------------------------------------

    def connect_failed(self, why: str, nobody_listening: bool, now: float) -> bool | None:
        """No connection to the host: True to stop, False to try again at once (within
        the first ``connect_retry`` seconds), None to go on to the allowance check."""
        # A saved game, but no connection yet in this run: the host may simply have
        # closed the table.  Nothing proves it left the game, so nothing is signed
        # against it; the saved state stays for another try (12.4).
        if self.session is not None and self.ever_connected:
            return None
        if self._first_deadline is None:
            self._first_deadline = now + self.connect_retry
        if now < self._first_deadline:
            return False
        if self.session is None:
            # Refused is said as such (the tries' own words, "all attempts to connect to
            # ... failed", name no cause; a refusal is what a closed port answers).
            self.said(OutcomeError.CONNECT_FAILED,
                      "connect_refused" if nobody_listening else "connect_failed",
                      where=self.where, why=why)
        elif nobody_listening:
            self.said(OutcomeError.CONNECT_FAILED, "unreachable_closed", where=self.where)
        else:
            self.said(OutcomeError.CONNECT_FAILED, "unreachable", where=self.where, why=why)
        self._finish()
        return True

    def unreachable(self, now: float) -> bool:
        """Between connections to the host: True when we stop (no game to wait for, or
        the host's allowance of time away is spent: a signed claim against it)."""
        s = self.session
        if s is None or s.finished:
            self._finish()
            return True
        if self._away_deadline is None:
            self._away_since = now
            self._away_deadline = now + max(0.0, self.limits().allowance
                                            - self._host_away_spent)
            left = self._away_deadline - now
            self.out.append(Emit(Waiting(0, max(0, math.ceil(left)), self.host_away)))
            if self.clock is not None:
                self.clock.reported_away(0, left, now)
        if now < self._away_deadline:
            return False
        if not self.claims_host_gone:
            # A host's own bot: its host comes back to this game however late (its
            # restart starts the bot again from the saved game, which stays): nothing
            # is signed, nobody is blamed, the game is not over (PROTOCOL.md 12.4).
            self.stop(OutcomeError.CONNECT_FAILED, "host_away_kept", where=self.where)
            return True
        # The claim says what happened: an answer is not unreachability.
        if self.refusal == ErrorCode.UNKNOWN_GAME:
            why = "the host answered that it no longer has this game"
        elif self.refusal is not None:
            why = ("the host refused our resume past its allowance of time away "
                   f"({code_name(self.refusal)})")
        elif self.greeted and not self.ever_connected:
            why = ("the host greeted us but closed our connections before its welcome, "
                   "past its allowance of time away")
        else:
            why = "the host stayed unreachable past its allowance of time away"
        if self.state == "RECONNECTING":
            self.state = after_event(JOINER, self.state, "reconnect timeout")
        self.blame(ProtocolError(ErrorCode.PEER_LEFT, why), 0, None, now)
        return True

    def retry_delay(self) -> float:
        """Seconds to wait before trying the host again: RETRY_FIRST, doubling up to
        RETRY_MOST; RETRY_FIRST again after a connection that got past its welcome."""
        if self.was_connected:
            self.was_connected = False
            self._retry = RETRY_FIRST
        delay = self._retry
        self._retry = min(delay * 2, RETRY_MOST)
        return delay

    def no_host_answered(self) -> bool:
        """A connection to a saved game's host closed, or silent, before any answer of a
        chkobba host (its welcome, a refusal, or its greeting with its key), in a run our
        host never welcomed: like nobody listening (a port
        forward with nothing behind it, another program), we stop, sign nothing and keep
        the saved state (PROTOCOL.md 12.4).  True when we stop."""
        if self.ever_connected or self.refusal is not None or self.greeted:
            return False  # an answer: our host's welcome, refusal or greeting
        self.said(OutcomeError.CONNECT_FAILED, "no_host_answered", where=self.where)
        return True

    def closed_in_lobby(self, error: lm.ErrorMsg | None) -> None:
        """The host ended our connection before the game: there is no game to come back
        to (a seat in a lobby is not held), so this is the end, said as the host said it."""
        if error is not None and self.state in ("LOBBY", "IN_GAME", "DONE"):
            self._sync()
            self.state = next_state(JOINER, self.state, lm.ErrorMsg.TYPE)
        if self.session is not None or self.error_reason is not None:
            return
        code = error.number if error is not None else None
        if code == ErrorCode.SHUTDOWN:
            self.said(OutcomeError.HOST_CLOSED, "lobby_shutdown")
        elif error is not None:
            self.said(code_name(code), "lobby_ended",
                      code=code_name(code), host_text=error.text)
        else:
            self.said(OutcomeError.CONNECTION_CLOSED, "lobby_closed")

    def no_table(self) -> bool:
        """The host welcomed us but sent no usable table within the handshake timeout:
        True when we stop for it (PROTOCOL.md 5)."""
        if self.table_seen or self.session is not None or self.finished:
            return False
        problem = self.lobby_problem
        self.said(OutcomeError.BAD_LOBBY, "no_table", seconds=self.handshake_timeout,
                  **(check_data(problem, problem.detail) if problem is not None else {}))
        if self.host is not None:
            detail = f"lobby: {problem.detail}" if problem is not None else "no lobby"
            self._send(self.host, lm.ErrorMsg(ErrorCode.BAD_FIELD, detail[:80]))
        self._finish()
        return True

    def say_once(self, notice: Notice) -> None:
        """A notice of a retry, once per kind and cause per run (not once a second)."""
        if notice not in self._said:
            self._said.add(notice)
            self.out.append(Emit(notice))

    # -- the host's messages -------------------------------------------------------------------

    def message(self, conn: C, msg: lm.Frame, now: float) -> None:
        """One frame from the host.  The unsigned messages (lobby, wait, back, chat...)
        are checked field by field and only shown; a malformed one is ignored, as is a
        type this version does not know (a later version's)."""
        if self.state == "CLOSED":
            return  # our side closed it (its error is sent): nothing more is read
        try:
            self.state = next_state(JOINER, self.state, lm.type_name(msg))
        except LinkStateError as exc:  # a frame where no connection should be: closed
            self.state = "CLOSED"
            self.out.append(Close(conn, exc.error_code, exc.detail))
            return
        try:
            self._take(conn, msg, now)
        finally:
            self._sync()

    def _take(self, conn: C, msg: lm.Frame, now: float) -> None:
        s = self.session
        players = s.table.players if s is not None else lm.MAX_PLAYERS
        match msg:
            case lm.Ping():
                self._send(conn, lm.Pong())
            case lm.Signed():
                self.entry(msg.body, msg.msg, now)
            case lm.Lobby() if s is None:  # after the genesis, its seats are the table
                host = (self.host_key, self.host_name) if self.host_key is not None \
                    else None
                lobby = lobby_event(msg, self.host_caps, host)
                if lobby is not None:
                    hk, me = self.host_key, self._identity.public
                    # Never a voucher for our own key unless we are that bot: a host
                    # cannot make a person an anchor in the person's own log.
                    self.vouched = {x.key: x.bot for x in msg.seats if x is not None
                                    and x.bot is not None and hk is not None
                                    and (x.key != me or self.bot == x.bot)
                                    and check_voucher(hk, x.key, *x.bot)}
                    self._on_lobby(lobby)
                else:  # ignored, as a malformed lobby is; remembered for people
                    self.lobby_problem = ProtocolError(
                        ErrorCode.BAD_FIELD, "seat 0 is not the host",
                        violation="host_not_seat_0")
            case lm.Malformed(kind=lm.Lobby) if s is None:
                self.lobby_problem = msg.error  # ignored; remembered for people
            case lm.Wait():
                self._on_wait(msg, players, now)
            case lm.Away(seat=0):
                self.host_away = True  # the host's drop, next, is a step away
            case lm.Back():
                self._on_back(msg, players, now)
            case lm.Spectators():  # shown at most once a window, whatever the host sends
                self._show(self.watchers.heard(msg, now))
            case lm.Rematch():  # the host's answer to playing again (PROTOCOL.md 17)
                if s is not None and s.finished and not self._host_rematch:
                    self._host_rematch = True
                    self.out.append(Emit(RematchAnswer(0, msg.accept)))
            case lm.RematchOffer():  # the host's person wants a rematch (PROTOCOL.md 17)
                # Only after the end, once, and not once the host's answer came: an
                # early or repeated offer is ignored, as any news out of place.
                if s is not None and s.finished and not self._host_offer \
                        and not self._host_rematch:
                    self._host_offer = True
                    self.out.append(Emit(RematchOffered(0)))
            case lm.Chat():
                self._on_chat(msg, players, now)
            case _:
                pass  # pong, a malformed message, a type added by a later version

    def _on_wait(self, msg: lm.Wait, players: int, now: float) -> None:
        """A seat is away (never ours: our own return is reported by the welcome)."""
        seat = seat_of(msg.seat, players)
        if seat is not None and seat != self.welcome_seat:
            self.out.append(Emit(Waiting(seat, msg.secs, msg.away, msg.restart)))
            if self.clock is not None:
                self.clock.reported_away(seat, msg.secs, now)

    def _on_back(self, msg: lm.Back, players: int, now: float) -> None:
        """A seat is back; our own return was reported when the welcome came (once)."""
        seat = seat_of(msg.seat, players)
        if seat is not None and seat != self.welcome_seat:
            self.out.append(Emit(Resumed(seat)))
            if self.clock is not None:
                self.clock.back(seat, now)

    def _on_chat(self, msg: lm.Chat, players: int, now: float) -> None:
        """A line the host relays.  The host's own limit on each seat's lines, mirrored:
        a host that floods (or attributes a flood to others) cannot bury the game's
        events."""
        seat = seat_of(msg.seat, players)
        if seat is not None and self._relayed_chat.setdefault(seat, ChatBucket()).take(now):
            self.out.append(Emit(Chat(seat, msg.text)))

    def _show(self, event: Spectators | None) -> None:
        if event is not None:
            self.out.append(Emit(event))

    def _on_lobby(self, event: Lobby) -> None:
        """A lobby from the host: show it; once the table is full, the ready check asks
        our person (PROTOCOL.md 5.3)."""
        self.table_seen = True
        event = dataclasses.replace(event, limits=self.host_limits, rules=self.host_rules)
        self.out.append(Emit(event))
        if event.full and CAP_READY_CHECK in self.host_caps:
            self.ask_ready(event)
        else:
            self.cancel_ask()

    def entry(self, body: bytes, msg: dict[str, Any], now: float) -> None:
        """A signed entry the host relays (or makes)."""
        s = self.session
        if s is None and self.finished:
            return  # we stopped before the game (a seat held elsewhere): nothing more
        if s is None:
            self.cancel_ask()  # the game starts: the seating is final
        before = self.clocks(now) if s is not None and not s.finished else ()
        try:
            entry = wire.open_entry(body, msg)
            if s is None:
                assert self.host_key is not None
                self.session = s = Session.join(self._identity, entry, self.host_key, None,
                                                speaks=self.hello_caps)
                self.table_seen = True
            elif s.finished:
                if entry.kind == "abort" and self.committed:
                    # A word on the ending that came after it (a dispute of a flag, the
                    # host's or a relayed one): it belongs in our log too, so that every
                    # copy tells the same story (PROTOCOL.md 12.6).
                    with contextlib.suppress(ProtocolError, GameFault):
                        s.receive(entry)
                    self.out.extend(Emit(ev) for ev in s.take_events())
                return
            elif self.committed:
                s.receive(entry)
            else:
                s.check(entry)
                if entry.seat == s.own_seat:  # signed with our key, on another machine
                    self._seat_held_elsewhere()
                    return
                s.receive(entry, checked=True)
        except GameFault as fault:
            self.blame_out(fault, fault.blamed_seat, body, now)
            return
        except ProtocolError as exc:
            if s is None:
                self.stop(OutcomeError.BAD_GENESIS, "bad_genesis",
                          **check_data(exc, str(exc)))
                return
            # The host relays only entries it checked: a bad one is the host's doing.
            self.blame_out(exc, 0, body, now)
            return
        except Exception as exc:  # noqa: BLE001 - never a traceback out of the shell
            if self.session is None:
                self.stop(OutcomeError.BAD_GENESIS, "bad_genesis", detail=repr(exc))
                return
            self.internal_error(exc, body, now)
            return
        if not self.committed:
            if s.length < self.replay_to and not s.finished:
                return  # the host's chain is still coming
            self.commit()
        if s.finished and before and self.committed and len(s.bodies) > self.replay_to:
            # A flag on us, signed while we were here (not one the host had already
            # signed when it welcomed us back: we measured none of that): disputed when
            # our own clock belies it (PROTOCOL.md 12.6).
            self.dispute_flag(before, now)
        if self._host_chain_in():
            self.pump(now)

    def own_away_spent(self, now: float) -> float:
        """Our time without the host this match, as we measured it: while the link is
        down, the host counts our seat away (PROTOCOL.md 12.6).  What came before this
        run's first welcome is the host's word of then (its ``left``)."""
        spent = self._host_away_spent - self._base_spent
        if self._away_since is not None:
            spent += max(0.0, now - self._away_since)
        if self._base_left is not None:
            spent += max(0.0, self.limits().allowance - self._base_left)
        return spent

    def measured(self, now: float) -> bool:
        """Our own clocks saw the move under way from its start: it began after this
        run's first welcome (a process restarted mid-move measured none of it, and
        disputes nothing)."""
        start = self.clock.move_started if self.clock is not None else None
        return self._first_welcome_at is not None and start is not None \
            and start >= self._first_welcome_at

    def _seat_held_elsewhere(self) -> None:
        """The host's chain holds an entry our seat signed, but this run joined afresh:
        the game's secrets (and every entry we would sign) are on another machine.  We
        stop without signing or writing anything and blame no one; the host keeps the
        seat away (we say so), its allowance running, for the machine that holds it."""
        self.session = None
        if self.host is not None:
            self._send(self.host, lm.Away())
        self.stop(OutcomeError.SAVED_GAME_MISSING, "saved_game_missing")

    # -- our person ----------------------------------------------------------------------------

    def chat(self, text: str, now: float) -> bool:
        """Our chat line, only on a connection past its welcome."""
        line = clean_chat(text)
        s = self.session
        if line is None or self.host is None or self.finished \
                or not self._may_send(lm.Chat.TYPE) or not self._own_chat.take(now):
            return False
        self._send(self.host, lm.Chat(line))
        # Before the genesis our seat is the one the welcome gave.
        self.out.append(Emit(Chat(s.own_seat if s is not None else self.welcome_seat, line)))
        return True

    def confirmed(self, seating: int) -> None:
        if self.host is not None and self.session is None \
                and self._may_send(lm.Start.TYPE):
            self._send(self.host, lm.Start(seating))

    def answer_rematch(self, answer: bool | None) -> bool:
        """Our person's answer to playing again, for the host if it speaks rematch: True
        when it was sent (and the host's own answer is then worth waiting for)."""
        if answer is None or self.host is None or CAP_REMATCH not in self.host_caps \
                or not self._may_send(lm.Rematch.TYPE):
            return False
        self._send(self.host, lm.Rematch(bool(answer)))
        return True

    # -- time ------------------------------------------------------------------------------

    def next_wake(self, now: float) -> float:
        """When :meth:`tick` has something to check next."""
        wake = min(now + min(1.0, self.stalled_host_limit() / 4),
                   max(now, self.hold_until()))
        due = self.watchers.due
        return wake if due is None else min(wake, due)

    def tick(self, now: float) -> None:
        """A host that stops the game (sits on the floor, or no longer relays) is not
        waited for forever.  The host enforces every seat's clocks, so no move of an
        honest table lasts longer than the move limit plus the seat's allowance: past that
        plus the idle timeout without any new entry while another seat holds the floor,
        the game ends here with a signed record blaming the host.  A seat the host reports
        away changes nothing: its allowance is inside that bound.  Only time connected to
        the host counts (while it is unreachable, :meth:`unreachable` decides)."""
        self._show(self.watchers.tick(now))
        self.hold_tick(now)
        s = self.session
        if s is None or s.finished or self.finished:
            return
        key = (s.length, s.floor)
        if self._since is None or key != self._seen or self.host is None \
                or (s.floor == s.seat and not self.catching_up()):
            self._seen, self._since = key, now
        elif s.floor == 0 and s.phase == Phase.PLAYING and not self.catching_up() \
                and now - self._since > (move := self.limits().move + CLOCK_TOLERANCE):
            # The host itself holds the floor on a live link: its move clock is the one
            # clock a joiner runs itself.  Past it (and the tolerance for the entry's
            # way here) we flag the host, as it flags a seat (PROTOCOL.md 12.6); the
            # host may dispute it with its own clock.
            fault = ProtocolError(ErrorCode.TIMEOUT, f"the host held the floor for more "
                                  f"than {move:.0f} s")
            self.blame_out(fault, 0, None, now, flag=0)
        elif now - self._since > (limit := self.stalled_host_limit()):
            fault = ProtocolError(ErrorCode.TIMEOUT, f"no progress for {limit:.0f} s")
            self.blame_out(fault, 0, None, now)

    def _entry_out(self, body: bytes) -> None:
        if self.host is not None:
            self._sent(lm.Signed.TYPE)
            self.out.append(Send(self.host, body))
