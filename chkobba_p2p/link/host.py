"""The host's side of the link, sans-IO: the table (PROTOCOL.md 5, 12, 17, 18).

:class:`HostTable` holds what the host decides about people and time: who sits where
in the lobby and the ready check, whose connection is live, who stepped away or is
waited for after a restart, the clocks and their verdicts, chat and its limit, the
spectators and the coalesced news of them, the rematch question (and its offer).  The
trio shell (:class:`chkobba_p2p._shell.hostpeer.HostPeer` and its door,
:class:`chkobba_p2p._shell.accept.Door`) feeds it connections that finished their
greeting, their messages and the time, and carries out the
:mod:`~chkobba_p2p.link.seat` effects it returns.  Connections are the shell's opaque
values (``C``).

Each seated connection has its state in :data:`~chkobba_p2p.link.states.HOST` (SEATED,
then IN_GAME once the genesis is made), and the host consults that table for every
message: its row is the host's whole answer to what a seat may say; anything else is
refused with the table's code (``unknown_type``; a ``sig`` before the genesis,
``protocol_violation``) and ends that connection (PROTOCOL.md 5.1).  A spectator's
connection is WATCHING (``ping`` and ``pong`` only).  Every frame the table sends is
checked against the same table's ``sends`` column first (:meth:`HostTable._send`): a
lobby after the genesis or an entry before it is a
:class:`~chkobba_p2p.link.states.LocalStateError`, our bug, raised before anything leaves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game.ruleset import Ruleset
from ..transcript.bodies import GameFault
from ..transcript.caps import CAP_REMATCH_OFFER, CAP_SHUFFLE_PROOFS
from ..transcript.clocks import CLOCK_TOLERANCE, Limits
from ..transcript.ended import EndedMatch, ended_match
from ..transcript.session import Session
from ..transcript.table import Phase
from ..wire import codec as wire
from ..wire.codec import ErrorCode, Identity, ProtocolError
from . import messages as lm
from .events import (
    Chat,
    LeftLobby,
    Lobby,
    ReadyLapsed,
    RematchAnswer,
    Restored,
    Resumed,
    Spectators,
    Waiting,
    clean_chat,
)
from .handshake import HostHandshake, Knocks
from .handshake import Lobby as SeatLobby
from .seat import C, ChatBucket, Close, Effect, Emit, SeatCore, Send, SendBacklog
from .spectators import Announcement, SpectatorAnnouncer
from .states import HOST, LinkStateError, after_event, next_state, sent_state

__all__ = ["HostTable", "Started", "SeatsMoved", "SEAT_MESSAGES", "SPECTATOR_MESSAGES",
           "WATCH_PERIOD", "READY_WAIT"]

#: Seconds between the countdowns of dropped seats (and between the clock checks when
#: nothing is due sooner).
WATCH_PERIOD = 1.0


@dataclass(frozen=True, slots=True)
class Started(Effect):
    """The table is full and everyone ready: the genesis is made (the shell writes the
    log's header and the saved game before the genesis leaves)."""


@dataclass(frozen=True, slots=True)
class SeatsMoved(Effect):
    """The lobby's seats changed (the LAN announcement follows)."""


#: What a seated connection may send, by type (PROTOCOL.md 5.1, 6, 17): what the host's
#: state table reads from a seat in the game (an ``error``, a peer's last word, ends the
#: connection before it reaches the table: :class:`~chkobba_p2p._shell.stream.Link`).
SEAT_MESSAGES = frozenset(HOST.table["IN_GAME"]) - {"error"}
#: What a spectator may send (PROTOCOL.md 18): ping and pong, by the same table.
SPECTATOR_MESSAGES = frozenset(HOST.table["WATCHING"]) - {"error"}


#: The typed messages the host's table sends (the welcome and the lobby are the
#: handshake's dictionaries, the entries signed bodies: :meth:`HostTable._send_body`).
HostMessage = (lm.Watching | lm.Chat | lm.Wait | lm.Back | lm.Spectators | lm.Ping
               | lm.Pong | lm.Rematch | lm.RematchOffer)


#: How long a host that flagged a connected seat waits for that seat's dispute before it
#: closes the table (PROTOCOL.md 12.6): twice the clocks' tolerance, a round trip on any
#: link that stays up.
DISPUTE_WAIT = 2 * CLOCK_TOLERANCE

#: How long a full table's ready check waits for each joiner's confirmation before the
#: seats still unconfirmed are freed (PROTOCOL.md 5.3): time enough to read four groups
#: of a fingerprint aloud, short enough that a stranger who took a friend's seat and
#: answers pings cannot hold it for long.
READY_WAIT = 60.0


class HostTable(SeatCore[C]):
    """Seat 0's table: seats, spectators, clocks, chat and rematch, as decisions.

    ``is_closed(conn)`` tells whether the shell's connection is already closing (a dead
    one not yet noticed); ``limits`` are the move limit and allowance the host enforces;
    ``announce`` the spectator news window; ``spectator_limit`` the places for
    spectators; ``ready_wait`` how long the ready check waits for a joiner's confirmation
    before its seat is freed (None: forever); ``admits`` the only key fingerprints that
    may take a seat (None: anyone; any other key is refused ``seat_refused``)."""

    def __init__(self, identity: Identity, name: str, rules: Ruleset, players: int,
                 shuffle_proofs: bool, limits: Limits, *, spectator_limit: int = 0,
                 announce: float = 5.0, is_closed: Callable[[C], bool] = lambda c: False,
                 ready_wait: float | None = READY_WAIT,
                 admits: frozenset[str] | None = None) -> None:
        super().__init__(limits)
        self.identity = identity
        self.name = name
        self.lobby = SeatLobby(identity, name, rules, players, shuffle_proofs)
        self.lobby.admits = admits
        self.spectator_limit = spectator_limit
        self.is_closed = is_closed
        self.links: dict[int, C] = {}
        self.absent: set[int] = set()  # seats of a running game with no connection
        #: Spectators watching now: id -> (name, connection).  They hold no seat.
        self.spectators: dict[int, tuple[str, C]] = {}
        self._spectator_ids = 0
        self.announcer = SpectatorAnnouncer(announce)
        self.away_seats: set[int] = set()  # seats that said they step away
        #: Seats a restarted host has not seen since its restart: waited for, not known
        #: to have lost their connection (Waiting.awaited, ``wait`` with ``restart``).
        self.awaited_seats: set[int] = set()
        #: Once the match is over: each joining seat's answer to playing again.
        self.rematch_answers: dict[int, bool] = {}
        self.asking_rematch = False  # the host's own controller decides (after_match)
        self.rematch_offered = False  # the joiners were told our person wants one
        self._buckets: dict[C, ChatBucket] = {}
        self._own_chat = ChatBucket()
        self._next_watch = -math.inf
        #: When we signed a flag on a connected seat: its dispute may follow (12.6).
        self._flagged_at: float | None = None
        #: The matches this host ended before, by game id (the shell's lookup: kept in
        #: memory, found in its logs), told to a seat that comes back to one (13.1).
        self.ended: Callable[[bytes], EndedMatch | None] = lambda game: None
        #: The greeting nonces, and the knocks that cite them (PROTOCOL.md 5.4).
        self.knocks = Knocks(self.lobby)
        #: Each seat's connection whose knock proved its key, its hello pending:
        #: seat -> (connection, when its greeting is due, knocked while the seat still
        #: had allowance left).  Such a knock holds the seat's flag (12.3) until then.
        self.knocking: dict[int, tuple[C, float, bool]] = {}
        #: Absent seats during whose absence the door let strangers go for room: any of
        #: those connections may have been the seat coming back, so its time away
        #: ending is no flag (PROTOCOL.md 12.3).  Cleared when the seat is back.
        self.crowded_out: set[int] = set()
        #: Connections whose seat the host's person freed (free_seat): closing.
        self._freed: set[C] = set()
        #: Each seated connection's state in :data:`~chkobba_p2p.link.states.HOST`
        #: (SEATED, IN_GAME once the genesis is made): what it may send is what its
        #: state's row reads, and anything else is refused with that table's code.
        self.conn_states: dict[C, str] = {}
        self.ready_wait = ready_wait
        #: The ready check under way: the seating it is for, and when the joiners that
        #: have not confirmed it by then lose their seats (PROTOCOL.md 5.3).
        self._ready_check: tuple[int, float] | None = None

    # -- the handshake -------------------------------------------------------------------

    def handshake(self, allowance_left: Callable[[int], int],
                  move_used: Callable[[], int | None] | None = None) -> HostHandshake:
        """A connection's greeting and the check of its hello (PROTOCOL.md 3, 5)."""
        running = self.session.table.game if self.session else None
        return HostHandshake(self.lobby, running, nonce=self.knocks.nonce(),
                             limits=self.announced_limits(),
                             allowance_left=allowance_left, move_used=move_used,
                             ended=self._ended_seat)

    def ended_match(self, game: bytes) -> EndedMatch | None:
        """The match ``game`` if this host ended it: its own, over and not yet closed,
        or an earlier one (:attr:`ended`); None if it runs or is unknown here."""
        s = self.session
        if s is not None and s.table.game == game:
            return ended_match(s.bodies) if s.finished else None
        return self.ended(game)

    def _ended_seat(self, game: bytes, key: bytes) -> tuple[int, int] | None:
        match = self.ended_match(game)
        seat = match.seat_of(key) if match is not None else None
        return None if match is None or seat is None else (seat, len(match.bodies))

    def ended_backlog(self, resume: tuple[bytes, int] | None
                      ) -> tuple[tuple[bytes, ...], int] | None:
        """For a resume welcomed to a match this host ended (PROTOCOL.md 13.1): its
        transcript and where the entries the seat lacks begin, the signed end among
        them; the shell sends them after the welcome, then closes.  None otherwise."""
        match = self.ended_match(resume[0]) if resume is not None else None
        if resume is None or match is None:
            return None
        return match.bodies, match.start_for(resume[1])

    def knock(self, conn: C, hs: HostHandshake, msg: lm.Frame | dict[str, Any], due: float,
              now: float) -> int | None:
        """A connection's first frame is a ``knock`` (PROTOCOL.md 5.4): the seat whose key
        it proves (its hello must then be that key's: ``hs.knocked``), or None (it proves
        nothing and is ignored: a stranger until its hello).  ``due``: when its greeting
        deadline passes.  A knock while the seat still has allowance left holds the
        seat's flag until its hello is answered or ``due``; one from a seat whose
        allowance is spent holds nothing."""
        proven = self.knocks.check(msg)
        if proven is None:
            return None
        seat, hs.knocked = proven
        in_time = self.clock is None or self.clock.read(now)[seat].allowance_left > 0
        self.knocking[seat] = (conn, due, in_time)
        return seat

    def knock_gone(self, conn: C) -> bool:
        """A connection ended: if it was a seat's knocking one, that seat's flag is held
        no more (True: the shell applies, and the clocks are looked at again)."""
        for seat, held in list(self.knocking.items()):
            if held[0] == conn:
                del self.knocking[seat]
                return True
        return False

    def strangers_let_go(self) -> None:
        """The door let strangers go for room (a flood of connections, or no file
        descriptors left): any of them may have been an absent seat coming back, before
        its first frame could say so.  The flag for such a seat's time away will not
        stand (PROTOCOL.md 12.3): its allowance still ends the game, for nobody."""
        self.crowded_out |= self.absent

    def _held(self, seat: int, now: float) -> float | None:
        """Until when ``seat``'s flag for time away is held by a knock of its that came
        in time (PROTOCOL.md 12.3), None if it is not."""
        held = self.knocking.get(seat)
        if held is None or not held[2] or now >= held[1]:
            return None
        return held[1]

    def announced_limits(self) -> dict[str, int]:
        """The clocks' limits this host enforces, for the welcome (PROTOCOL.md 12.3), in
        whole seconds (the wire has no floats), rounded up: a joiner that waits for them
        never concludes before the host does."""
        limits = self.limits()
        return {"move": math.ceil(limits.move), "away": math.ceil(limits.allowance)}

    def allowance_left_of(self, seat: int, now: float) -> int:
        """A returning seat's allowance of time away left, for its welcome (whole
        seconds, rounded up as every figure this host announces)."""
        if self.clock is None:
            return math.ceil(self.limits().allowance)
        return math.ceil(self.clock.read(now)[seat].allowance_left)

    def move_used_of(self, now: float) -> int | None:
        """How long the move clock of the seat holding the floor has run at our head, for
        a resume's welcome (whole seconds, rounded up: the joiner then never shows more
        time than this host allows); None when nobody owes the next entry."""
        s = self.session
        if self.clock is None or s is None or s.finished:
            return None
        for c in self.clock.read(now):
            if c.owes:
                return math.ceil(max(0.0, self.clock.limits.move - c.move_left))
        return None

    def on_hello(self, hs: HostHandshake, hello: lm.Frame | dict[str, Any], body: bytes
                 ) -> tuple[dict[str, Any], int, tuple[bytes, int] | None, C | None]:
        """A seat's hello: ``(welcome, seat, resume, replaced)``, where ``replaced`` is the
        seat's old connection a proven resume takes over (a half-open socket), or a
        :class:`ProtocolError` to refuse it with."""
        welcome, seat, resume = hs.on_hello(hello, body,
                                            self.session.length if self.session else 0)
        if self.ended_backlog(resume) is not None:
            return welcome, seat, resume, None  # told the end: no seat's connection taken
        held = self.links.get(seat)
        if held is None or self.is_closed(held):
            return welcome, seat, resume, None
        if not isinstance(hello := lm.as_frame(hello, body), lm.Hello) \
                or hello.resume is None:
            # A fresh join with an identity already connected (a fresh hello never
            # takes a seat that is held).
            raise ProtocolError(ErrorCode.ALREADY_SEATED, violation="already_seated")
        return welcome, seat, resume, held

    def seated(self, conn: C, seat: int, welcome: dict[str, Any], fresh: bool,
               resume: tuple[bytes, int] | None, replaced: C | None, now: float) -> None:
        """``conn`` passed its handshake for ``seat``: welcome it, show the lobby or bring
        it back into the running game (what it missed streamed at its pace)."""
        if replaced is not None and self.links.get(seat) == replaced:
            del self.links[seat]  # its read loop ends without counting the seat as gone
            self.out.append(Close(replaced))
        self.conn_states[conn] = self._seat_state()
        self._send_body(conn, lm.Welcome.TYPE, wire.encode(welcome))
        self.links[seat] = conn
        if seat in self.knocking and self.knocking[seat][0] == conn:
            del self.knocking[seat]  # its knock is answered
        self._buckets[conn] = ChatBucket()
        s = self.session
        if s is None:
            self._tell_watchers(conn)
            self._lobby_changed(now)
            return
        if resume is not None:  # PROTOCOL.md 18
            self._send_backlog(conn, resume[1], len(s.bodies))
        self._tell_watchers(conn)
        # A fresh hello for a seat that already signed entries cannot play them on
        # (the game's secrets are elsewhere; it stops once it reads the chain,
        # PROTOCOL.md 5): the seat stays away, its allowance running.
        elsewhere = fresh and s.chain.next_seq[seat] > 0
        if not elsewhere:
            self.away_seats.discard(seat)
            self.awaited_seats.discard(seat)  # seen: a later drop is a drop
        if seat in self.absent and not elsewhere:
            self.absent.discard(seat)
            self.crowded_out.discard(seat)
            if self.clock is not None:
                self.clock.back(seat, now)
            self._broadcast(lm.Back(seat))
            self.out.append(Emit(Resumed(seat)))
            self.clock_changed(now, force=True)

    # -- a seated connection's messages --------------------------------------------------

    def seat_message(self, conn: C, seat: int, msg: lm.Frame, now: float) -> bool:
        """One frame from ``seat`` on ``conn``; False once the connection must end (a
        :class:`Close` with the reason is among the effects).  A type the seat's state
        does not read ends it; a malformed message of a type it reads is dropped."""
        if conn in self._freed or not self._open(conn):
            return False  # its seat was freed, or our error went: it is closing
        state = self.conn_states.get(conn, self._seat_state())
        try:
            self.conn_states[conn] = next_state(HOST, state, lm.type_name(msg))
        except LinkStateError as exc:  # unknown_type; a sig before the genesis: a violation
            self._close(conn, exc.error_code, exc.detail)
            return False
        match msg:
            case lm.Ping():
                self._send(conn, lm.Pong())
            case lm.Signed():
                return self._on_entry(conn, seat, msg.body, msg.msg, now)
            case lm.Chat():  # the connection's seat, never the sender's word
                self._on_chat(conn, seat, msg.text, now)
            case lm.Start():
                # The ready check (before the game; afterwards it changes nothing).
                if self.session is None and self.lobby.mark_ready(seat, msg.seating):
                    self._lobby_changed(now)
            case lm.Away():
                self.away_seats.add(seat)  # its drop, next, is a step away
            case lm.Rematch():
                self._on_rematch(seat, msg.accept)
            case _:
                pass  # pong; an invalid chat, start or rematch is dropped
        return True

    def seat_gone(self, conn: C, seat: int, now: float, closing: bool = False) -> None:
        """``seat``'s connection ``conn`` ended.  ``closing``: our own side is closing the
        table (cancelled): nobody left us."""
        self._buckets.pop(conn, None)
        self._freed.discard(conn)
        self.conn_states.pop(conn, None)
        if self.links.get(seat) == conn:
            del self.links[seat]
            self._dropped(seat, now, closing)

    def _on_entry(self, conn: C, seat: int, body: bytes, msg: dict[str, Any],
                  now: float) -> bool:
        s = self.session
        try:
            entry = wire.open_entry(body, msg)
            if s is None:
                raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "the game has not started",
                                    violation="game_not_started")
            if entry.seat != seat:
                raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION,
                                    "an entry signed for another seat",
                                    violation="entry_for_other_seat")
            s.check(entry)
        except ProtocolError as exc:
            if s is not None and s.finished:
                return True  # late traffic after the end: ignored
            self._close(conn, exc.error_code, exc.detail)
            return False
        # Forward first: the other peers check the game content while we do.  A checked
        # entry always joins the transcript (a game fault included): at this index.
        index, mark = len(s.bodies), len(self.out)
        self._relay(seat, body, index)
        before = self.clocks(now) if not s.finished else ()
        try:
            s.receive(entry, checked=True)
        except GameFault as fault:
            self._relayed(body, index, mark)
            self.blame_out(fault, fault.blamed_seat, body, now)
            return True
        except Exception as exc:  # noqa: BLE001 - never a traceback out of the shell
            self._relayed(body, index, mark)
            self.internal_error(exc, body, now)
            return True
        self._relayed(body, index, mark)
        self.dispute_flag(before, now)  # a joiner's flag on us that our clock belies
        self.pump(now)
        return True

    def _on_chat(self, conn: C, seat: int, line: str, now: float) -> None:
        """Relay a seated peer's chat line to the others, with the connection's seat
        (never the sender's word); over-limit lines are dropped."""
        bucket = self._buckets.setdefault(conn, ChatBucket())
        if not bucket.take(now):
            return
        self._broadcast(lm.Chat(line, seat), but=seat)
        self.out.append(Emit(Chat(seat, line)))

    def chat(self, text: str, now: float) -> bool:
        """The host's own chat line (the same limit it holds the others to)."""
        line = clean_chat(text)
        if line is None or self.finished or not self._own_chat.take(now):
            return False
        self._broadcast(lm.Chat(line, 0))
        self.out.append(Emit(Chat(0, line)))
        return True

    def _on_rematch(self, seat: int, accept: bool) -> None:
        """A joiner's answer to playing again (PROTOCOL.md 17): once the match is over,
        once per seat, reported; anything else is ignored."""
        s = self.session
        if s is None or not s.finished or seat in self.rematch_answers:
            return
        self.rematch_answers[seat] = accept
        self.out.append(Emit(RematchAnswer(seat, accept)))

    # -- the lobby ------------------------------------------------------------------------

    def opened(self, now: float) -> None:
        """The table listens: its lobby (the host alone, the terms: rules, clocks,
        spectators' places) for the host's own screen, before anyone joins."""
        if self.session is None:
            self._lobby_changed(now)

    def free_seat(self, seat: int, now: float) -> bool:
        """The host's person frees joiner ``seat`` in the lobby (a stranger sat in a
        friend's place) and refuses its key at this table: its connection is closed with
        ``seat_refused`` and the seat is free for whoever comes next (PROTOCOL.md 5.3).
        False when there is nothing to free (no such seat taken, or the game started)."""
        taken = self.lobby.refuse(seat) if self.session is None else None
        if taken is None:
            return False
        conn = self.links.pop(seat, None)
        if conn is not None:
            self._freed.add(conn)
            self._buckets.pop(conn, None)
            self._close(conn, ErrorCode.SEAT_REFUSED)
        self.out.append(Emit(LeftLobby(seat, taken.name)))
        self._lobby_changed(now)
        return True

    def _ready_lapsed(self, now: float) -> None:
        """The ready check's time is up (PROTOCOL.md 5.3): every joiner that must confirm
        and has not is freed, told ``ready_timeout``.  Its key is not refused: a friend
        who was slow may come back; a stranger holding a friend's seat loses it."""
        self._ready_check = None
        waited = math.ceil(self.ready_wait or 0)
        lapsed = [s for s in range(1, self.lobby.players)
                  if self.lobby.seats[s] is not None and self.lobby.confirms(s)
                  and s not in self.lobby.ready]
        for seat in lapsed:
            taken = self.lobby.seats[seat]
            assert taken is not None
            self.lobby.leave(seat)
            conn = self.links.pop(seat, None)
            if conn is not None:
                self._freed.add(conn)
                self._buckets.pop(conn, None)
                self._close(conn, ErrorCode.READY_TIMEOUT,
                            f"no confirmation within {waited} s")
            self.out.append(Emit(ReadyLapsed(seat, taken.name, waited)))
        if lapsed:
            self._lobby_changed(now)

    def confirmed(self, seating: int, now: float) -> None:
        """The host's own person confirmed ``seating`` (the ready check)."""
        if self.lobby.mark_ready(0, seating):
            self._lobby_changed(now)

    def lobby_message(self) -> dict[str, Any]:
        msg = self.lobby.lobby_message()
        msg["spectators"] = self.spectator_limit
        return msg

    def _lobby_changed(self, now: float) -> None:
        self.out.append(SeatsMoved())
        lobby = self.lobby
        self._broadcast_body(lm.Lobby.TYPE, wire.encode(self.lobby_message()))
        event = Lobby(tuple((s.name, s.fingerprint) if s else None for s in lobby.seats),
                      shuffle_proofs=CAP_SHUFFLE_PROOFS in lobby.caps,
                      ready=tuple(lobby.ready_flags()), seating=lobby.seating,
                      keys=tuple(s.key if s else None for s in lobby.seats),
                      limits=self.limits(), rules=lobby.rules,
                      spectators=self.spectator_limit,
                      bots=tuple(b[0] if s and (b := lobby.bots.get(s.key)) else None
                                 for s in lobby.seats))
        self.out.append(Emit(event))
        if self.session is not None:
            return
        if not lobby.full:
            self._ready_check = None
            self.cancel_ask()
        elif not lobby.all_ready:
            if self.ready_wait is not None and (self._ready_check is None
                                                or self._ready_check[0] != lobby.seating):
                self._ready_check = (lobby.seating, now + self.ready_wait)
            if 0 not in lobby.ready:
                self.ask_ready(event)
        else:
            self._ready_check = None
            self.cancel_ask()
            self.session, genesis = Session.create(self.identity, lobby.table())
            for conn, state in self.conn_states.items():
                self.conn_states[conn] = after_event(HOST, state, "table full")
            self.out.append(Started())
            self._entry_out(genesis.body)
            self.pump(now)

    # -- a running game --------------------------------------------------------------------

    def restored(self, session: Session, replayed: int, now: float) -> None:
        """A restarted host's game, rebuilt from its log: every other seat must come back
        (waited for, not known to be gone)."""
        self.session = session
        self.lobby.seats = list(session.table.seats)
        self.lobby.game = session.table.game
        self.out.append(Emit(Restored(session.table, session.own_seat, session.replayed)))
        self.out.append(Emit(Resumed(0, replayed)))
        self.clock_changed(now)
        for seat in range(1, session.table.players):
            self.awaited_seats.add(seat)
            self._dropped(seat, now)
        self.pump(now)

    def _dropped(self, seat: int, now: float, closing: bool = False) -> None:
        if self.finished:
            if self.asking_rematch and seat not in self.rematch_answers:
                # Gone without an answer (a bot, an older client, a crash): it cannot
                # hear of a new table, so it will not be at one.
                self.rematch_answers[seat] = False
                self.out.append(Emit(RematchAnswer(seat, False, left=True)))
            return
        if self.session is None:
            left = self.lobby.seats[seat]
            self.lobby.leave(seat)
            if left is not None and not closing:
                self.out.append(Emit(LeftLobby(seat, left.name)))
            self._lobby_changed(now)
            return
        self.absent.add(seat)
        if self.clock is not None:
            self.clock.drop(seat, now)
        self._announce_wait(seat, now)
        self.clock_changed(now, force=True)

    def _announce_wait(self, seat: int, now: float) -> None:
        """A dropped seat's countdown: the allowance of time away it has left."""
        left = 0
        if self.clock is not None:
            left = max(0, math.ceil(self.clock.read(now)[seat].allowance_left))
        away = seat in self.away_seats
        awaited = seat in self.awaited_seats and not away
        self._broadcast(lm.Wait(seat, left, away, awaited))
        self.out.append(Emit(Waiting(seat, left, away, awaited)))

    def next_wake(self, now: float) -> float:
        """When :meth:`tick` has something to do next (at the latest a period from
        now): a clock's deadline, the next countdown, the pending spectator news, the end
        of the ready check's wait."""
        wake = max(now, self._next_watch) if self._next_watch > now else \
            now + self._period()
        if self.clock is not None and not self.finished:
            deadline = self.clock.next_deadline(now)
            if deadline is not None:
                owner = next((c.seat for c in self.clock.read(now) if c.owes), None)
                held = None if owner is None else self._held(owner, now)
                wake = min(wake, max(deadline + 0.01, held or -math.inf))
        due = self.announcer.due
        if due is not None:
            wake = min(wake, due)
        if self.session is None and self._ready_check is not None:
            wake = min(wake, max(now, self._ready_check[1]))
        return min(wake, max(now, self.hold_until()))

    def _period(self) -> float:
        return WATCH_PERIOD if self.limits().allowance >= 3 else 0.1

    def tick(self, now: float) -> None:
        """The clocks (PROTOCOL.md 12): the end of the game, with a signed record, when
        the seat that owes the next message runs out of time (its move clock, or its
        allowance while away), countdowns for dropped seats once a period; and the
        spectator news that is due; in the lobby, the end of the ready check's wait
        (PROTOCOL.md 5.3).  The host times out its own seat too, so that every log
        records the same verdict."""
        self._show_spectators(self.announcer.tick(now))
        self.hold_tick(now)
        s, clock = self.session, self.clock
        if s is None and self._ready_check is not None and now >= self._ready_check[1]:
            self._ready_lapsed(now)
        if s is None or s.finished or clock is None or self.finished:
            self._next_watch = now + self._period()
            return
        expiry = clock.expired(now)
        if expiry is not None and expiry.code == "peer_left" \
                and self._held(expiry.seat, now) is not None:
            # A connection proving the seat's key knocked before its allowance ran out
            # and its hello is on the way: no flag until it is answered (PROTOCOL.md
            # 12.3), at most the greeting deadline.
            expiry = None
        if expiry is not None:
            code = ErrorCode.TIMEOUT if expiry.code == "timeout" else ErrorCode.PEER_LEFT
            # The seat to play ran out of its clocks: a flag, the match lost on time
            # (PROTOCOL.md 12.3) -- once the match is being played; before (the ready
            # round) it is only the stop it always was.
            flag = expiry.seat if s.phase == Phase.PLAYING and s.floor == expiry.seat \
                else None
            detail = expiry.detail
            if flag is not None and expiry.code == "peer_left" \
                    and expiry.seat in self.crowded_out:
                # Strangers were let go for room while the seat was away: one of them may
                # have been the seat coming back.  Its time is up, but no flag stands.
                flag = None
                detail += "; strangers crowded the door meanwhile: no flag"
            self.blame_out(ProtocolError(code, detail), expiry.seat, None, now,
                           flag=flag)
            if flag is not None and flag in self.links:
                self._flagged_at = now
            return
        if now >= self._next_watch:
            self._next_watch = now + self._period()
            for seat in sorted(self.absent):
                self._announce_wait(seat, now)

    def dispute_deadline(self) -> float | None:
        """Until when the shell keeps the table open for the flagged seat's dispute
        (PROTOCOL.md 12.6) before it asks about a rematch and closes: a round trip's
        tolerance after our flag, while the flag stands and the seat is connected (a
        dispute that comes is logged and relayed: every copy tells one story).  None
        when nothing is awaited."""
        s, at = self.session, self._flagged_at
        if s is None or at is None or s.aborted is None or s.aborted.flag is None \
                or s.aborted.flag not in self.links:
            return None
        return at + DISPUTE_WAIT

    def match_over(self) -> None:
        """The host's person is asked to play again: a joiner already gone (it left as
        the match ended) will hear of no new table either, so it answers no, as one
        leaving now."""
        self.asking_rematch = True
        for seat in range(1, self.lobby.players):
            if seat not in self.links and seat not in self.rematch_answers:
                self.rematch_answers[seat] = False
                self.out.append(Emit(RematchAnswer(seat, False, left=True)))

    def offer_rematch(self) -> bool:
        """The host's own person wants to play again and waits for the joiners' answers
        (PROTOCOL.md 17): each joiner still connected whose hello announced
        ``rematch-offer/v1`` and that has not answered yet is told so, once, before it
        answers (one that answered already waits for our ``rematch``).  An older joiner
        hears nothing new (its ``rematch`` from us keeps its meaning: the new table
        opens now).  False when no rematch is being asked about, or the offer already
        went."""
        if not self.asking_rematch or self.rematch_offered:
            return False
        self.rematch_offered = True
        for seat, conn in self.links.items():
            if CAP_REMATCH_OFFER in self.lobby.seat_caps.get(seat, ()) \
                    and seat not in self.rematch_answers \
                    and not self.is_closed(conn):
                self._send(conn, lm.RematchOffer())
        return True

    def answered(self, answer: bool | None) -> None:
        """The host's own answer to playing again, sent to every joiner still here."""
        self.asking_rematch = False
        if answer is None:
            return
        for conn in self.links.values():
            if not self.is_closed(conn):
                self._send(conn, lm.Rematch(answer))

    # -- spectators -------------------------------------------------------------------

    def spectator_name(self, watch: lm.Frame | dict[str, Any]) -> str:
        """A ``watch``'s name, or a :class:`ProtocolError` (a malformed ``watch``, or
        ``spectators_closed``: no place for spectators, or no more than the limit)."""
        frame = lm.as_frame(watch)
        if isinstance(frame, lm.Malformed):
            raise frame.error
        if not isinstance(frame, lm.Watch):
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected watch",
                                violation="unexpected_message", facts={"expected": "watch"})
        limit = self.spectator_limit
        if limit <= 0:
            raise ProtocolError(ErrorCode.SPECTATORS_CLOSED, "this table admits no spectators",
                                violation="no_spectators")
        if len(self.spectators) >= limit:
            raise ProtocolError(ErrorCode.SPECTATORS_CLOSED,
                                f"{limit} spectator{'s' if limit > 1 else ''} already watching",
                                violation="spectators_limit", facts={"max": limit})
        return frame.name

    def spectator_arrived(self, conn: C, name: str, now: float) -> int:
        """Admit a spectator: its number, the transcript so far (or the lobby), then all
        the seats get.  Nothing relayed from now on is missed or doubled."""
        self._spectator_ids += 1
        sid = self._spectator_ids
        s = self.session
        limits = self.announced_limits()
        used = self.move_used_of(now)  # the move under way, as a resume's welcome says it
        self._send(conn, lm.Watching(
            sid, s.length if s is not None else 0, limits=(limits["move"], limits["away"]),
            used=None if used is None else min(used, limits["move"])), "WATCHING")
        if s is None:
            self._send_body(conn, lm.Lobby.TYPE, wire.encode(self.lobby_message()),
                            "WATCHING")
        else:
            self._send_backlog(conn, 0, len(s.bodies), "WATCHING")
        self.spectators[sid] = (name, conn)
        self._spectators_changed(now)
        return sid

    @staticmethod
    def spectator_message(conn: C, msg: lm.Frame) -> tuple[list[Send[C]],
                                                           ProtocolError | None]:
        """A spectator may only ping: the pong, or the error that ends it."""
        t = lm.type_name(msg)
        try:
            next_state(HOST, "WATCHING", t)  # a spectator's connection stays WATCHING
        except LinkStateError as exc:
            return [], ProtocolError(exc.error_code,
                                     f"a spectator sends only ping and pong, not {t!r}"[:80])
        if isinstance(msg, lm.Ping):
            sent_state(HOST, "WATCHING", lm.Pong.TYPE)  # the table's word, as for a seat
            return [Send(conn, wire.encode(lm.Pong().to_wire()))], None
        return [], None

    def spectator_gone(self, sid: int, now: float) -> None:
        del self.spectators[sid]
        if not self.finished:
            self._spectators_changed(now)

    def _spectators_changed(self, now: float) -> None:
        """Who is watching changed: told to everyone, coalesced, at most once a window,
        the last state always (PROTOCOL.md 18)."""
        names = tuple(n for n, _ in self.spectators.values())
        self._show_spectators(self.announcer.changed(names, now))

    def _tell_watchers(self, conn: C) -> None:
        """A seat just welcomed: who is watching, as last announced (PROTOCOL.md 18).
        The announcements go out on a change only, so a seat that comes after the
        spectators would otherwise never hear of them."""
        if self.announcer.shown:
            self._send(conn, lm.Spectators(self.announcer.shown, self.spectator_limit))

    def _show_spectators(self, news: Announcement) -> None:
        if news.names is None:
            return
        self._broadcast(lm.Spectators(news.names, self.spectator_limit))
        self.out.append(Emit(Spectators(news.names, self.spectator_limit)))

    # -- where frames go -----------------------------------------------------------------

    def _send(self, conn: C, msg: HostMessage, state: str | None = None) -> None:
        """Queue ``msg`` on ``conn`` if its state's ``sends`` row allows it (else
        :class:`~chkobba_p2p.link.states.LocalStateError`, nothing queued)."""
        self._send_body(conn, msg.TYPE, wire.encode(msg.to_wire()), state)

    def _send_body(self, conn: C, msg_type: str, body: bytes, state: str | None = None
                   ) -> None:
        """Queue ``body``, a ``msg_type`` frame, on ``conn``, as :meth:`_send`.  ``state``:
        the connection's when the table keeps none for it (a spectator's, WATCHING)."""
        self._sent(conn, msg_type, state)
        self.out.append(Send(conn, body))

    def _send_backlog(self, conn: C, start: int, end: int, state: str | None = None
                      ) -> None:
        """Stream the entries ``start:end`` on ``conn`` (each a ``sig``), as :meth:`_send`."""
        self._sent(conn, lm.Signed.TYPE, state)
        self.out.append(SendBacklog(conn, start, end))

    def _sent(self, conn: C, msg_type: str, state: str | None) -> None:
        """The host's ``sends`` column consulted before ``msg_type`` leaves on ``conn``:
        the connection's next state, or :class:`~chkobba_p2p.link.states.LocalStateError`
        (our bug: nothing is queued).  ``state``: a spectator's (WATCHING, kept nowhere
        else); a seat's is :attr:`conn_states`'."""
        if state is not None:
            sent_state(HOST, state, msg_type)
            return
        state = self.conn_states.get(conn, self._seat_state())
        self.conn_states[conn] = sent_state(HOST, state, msg_type)

    def _seat_state(self) -> str:
        """A seated connection's state when none is kept yet: SEATED before the genesis,
        IN_GAME from it."""
        return "SEATED" if self.session is None else "IN_GAME"

    def _close(self, conn: C, code: ErrorCode, detail: str = "") -> None:
        """Send ``conn`` our ``error`` (its state must allow our last word) and close it:
        it hears nothing more from the table (:meth:`_broadcast` passes it by)."""
        state = self.conn_states.get(conn)
        if state is not None:
            self.conn_states[conn] = sent_state(HOST, state, lm.ErrorMsg.TYPE)
        self.out.append(Close(conn, code, detail))

    def _open(self, conn: C) -> bool:
        """Whether the table may still send ``conn`` anything: not once our ``error``
        went (its state then sends nothing, CLOSED, or the seat is ABSENT)."""
        state = self.conn_states.get(conn)
        return state is None or bool(HOST.sends[state])

    def _entry_out(self, body: bytes) -> None:
        self._broadcast_body(lm.Signed.TYPE, body)

    def _relayed(self, body: bytes, index: int, mark: int) -> None:
        """After a relayed entry was applied: if it is not at ``index`` in the transcript
        after all, the spectators' cursors to it (queued since ``mark``) become the frame
        itself."""
        s = self.session
        if s is not None and len(s.bodies) > index and s.bodies[index] == body:
            return
        self.out[mark:] = [Send(e.to, body) if isinstance(e, SendBacklog)
                           and e.start == index else e for e in self.out[mark:]]

    def _relay(self, from_seat: int, body: bytes, index: int) -> None:
        """A seat's entry, checked, to everyone else; ``index``: its place in the
        transcript once applied."""
        self._broadcast_body(lm.Signed.TYPE, body, but=from_seat, index=index)

    def _broadcast(self, msg: HostMessage, but: int | None = None) -> None:
        """``msg`` to every seated connection (but ``but``'s) and every spectator."""
        self._broadcast_body(msg.TYPE, wire.encode(msg.to_wire()), but)

    def _broadcast_body(self, msg_type: str, body: bytes, but: int | None = None,
                        index: int | None = None) -> None:
        """``body``, a ``msg_type`` frame, to every seated connection still open (but
        ``but``'s) and every spectator, each send consulting the connection's state.
        ``index``: an entry's place in the transcript (default: the last entry's, if it
        is ``body``)."""
        for seat, conn in self.links.items():
            if seat != but and self._open(conn):
                self._send_body(conn, msg_type, body)
        s = self.session
        if msg_type == lm.Signed.TYPE and index is None and s is not None and s.bodies \
                and s.bodies[-1] == body:
            index = len(s.bodies) - 1
        for _, conn in self.spectators.values():
            # An entry goes to a spectator as a cursor into the transcript: a spectator
            # that reads slowly falls behind in the transcript, not in a queue of frames
            # (PROTOCOL.md 18, "A slow spectator").
            if msg_type != lm.Signed.TYPE or index is None:
                self._send_body(conn, msg_type, body, "WATCHING")
            else:
                self._send_backlog(conn, index, index + 1, "WATCHING")
