"""The session: a sans-IO state machine for one peer at one table.

No sockets, no clock.  The transport (:mod:`chkobba_p2p._shell.net`) feeds it what arrives and
sends what it returns; the same code runs at the host and at every joining peer.

Three layers, as PROTOCOL.md describes them:

* **Handshake** (unsigned link messages, host <-> one peer): not here, in the link
  core (:mod:`chkobba_p2p.link.handshake`), which builds the genesis's
  :class:`~chkobba_p2p.transcript.table.TableInfo` this session checks.
* **The transcript** (signed entries in one hash chain): :class:`Session`, here.  Every
  entry names the previous entry's id; exactly one seat (the one holding the *floor*)
  may extend the chain at any time, so every honest peer holds the same sequence and any
  dropped, altered, reordered or forked entry shows at the next entry.  How a game ends
  early is judged here too (aborts, flags on time, disputes: :meth:`Session.abort`).
* **The game** inside the transcript: the rules engine (:mod:`chkobba_p2p.game.rules`) and the
  deal protocol (:mod:`chkobba_p2p.deal`), driven by
  :class:`~chkobba_p2p.transcript.driver.GameDriver`.

Beside it in this folder: the table (:mod:`.table`), the capabilities (:mod:`.caps`), the
clocks and flags (:mod:`.clocks`), the events (:mod:`.events`) and the game driver
(:mod:`.driver`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..deal.core import JobResult, ProofJob
from ..errors import Facts
from ..game.seating import Seating
from ..wire import codec as wire
from ..wire.codec import (
    ENTRY_DOMAIN,
    GENESIS_PREV,
    Entry,
    ErrorCode,
    Identity,
    ProtocolError,
    make_entry,
    verify_signature,
)
from .bodies import (
    AbortBody,
    Action,
    ClockDisputeBody,
    DoneBody,
    GameFault,
    ReadyBody,
    TurnBody,
)
from .caps import (
    IMPLEMENTED_CAPABILITIES,
    LATE_FIELDS,
    NEXT_FIELDS,
    RIDE_FIELDS,
    effective_caps,
)
from .clocks import clock_reading, dispute_contradicts, flag_holds
from .driver import Decision, GameDriver
from .errors import TranscriptUsageError
from .events import Aborted, MatchDone, SessionEvent, Standing, TableReady
from .table import Phase, TableInfo

__all__ = ["Session"]


@dataclass
class _Chain:
    head: bytes = GENESIS_PREV
    length: int = 0
    next_seq: list[int] = field(default_factory=list)


class Session:
    """One peer's view of one game's transcript.  Use :meth:`create` at the host (it makes
    the genesis entry) and :meth:`join` at a joining peer (from the genesis it received).

    Feed every signed entry that arrives to :meth:`receive`; when :meth:`next_entry`
    returns an entry, send it; when :attr:`decision` is set, ask the seat's controller and
    call :meth:`decide`.  :meth:`take_events` drains what happened, for display.

    :meth:`observe` makes a session of no seat (``seat`` None): it runs every check on
    every seat's entries and never makes one (:mod:`chkobba_p2p.observe.observer` builds on it).

    ``speaks``: the table capabilities this seat plays (default
    :data:`IMPLEMENTED_CAPABILITIES`); its ``ready`` lists those of the genesis
    (:meth:`ready_caps`), and :attr:`caps` says which are in effect once every ready is in.
    """

    def __init__(self, identity: Identity | None, table: TableInfo, seat: int | None,
                 genesis: Entry, master: bytes | None = None, *,
                 game: GameDriver | None = None,
                 speaks: Sequence[str] | None = None) -> None:
        if seat is not None and (identity is None or table.seats[seat].key != identity.public):
            raise TranscriptUsageError("this identity does not hold that seat",
                                       code="not_our_seat")
        self.identity = identity
        self.table = table
        self.seat = seat
        self.speaks = tuple(IMPLEMENTED_CAPABILITIES if speaks is None else speaks)
        #: The table capabilities in effect: the genesis's until every seat's ready is in,
        #: then :func:`effective_caps` of the readies (before any deal message).
        self.caps: tuple[str, ...] = table.caps
        #: Each seat's ``ready.caps`` so far, in seat order (None: no such field).
        self.readies: list[tuple[str, ...] | None] = []
        self.phase = Phase.READY
        self.chain = _Chain(next_seq=[0] * table.players)
        #: Every accepted entry's frame body, in chain order (for logs and resumes).
        self.bodies: list[bytes] = []
        self.aborted: Aborted | None = None
        #: Every abort seen, in order, as ``(signer, blamed)`` (:func:`flag_holds`).
        self._abort_claims: list[tuple[int, int | None]] = []
        #: The bytes of the flag that ended the game while it stands (a dispute cites it).
        self._flag_body: bytes | None = None
        self.done: MatchDone | None = None
        self._events: list[SessionEvent] = []
        self._floor = 0
        self._closing_seen = 0
        self._empty_run = 0
        self._transcript_bytes = 0  # the chain's frames, lengths included (MAX_TRANSCRIPT)
        #: The secret every deal secret of this seat derives from (kept for crash resume).
        self.master = master if master is not None else os.urandom(32)
        self.game = game if game is not None else GameDriver(table, seat, self.master)
        self._decided: Action | None = None
        #: This seat's controller answers at once (a bot): while the game waits for its
        #: choice, the early-deal turn that would carry its deal messages alone waits for
        #: that choice, so both travel in one turn (:attr:`holding`, PROTOCOL.md 6.2).
        #: Only with shares-ride/v1 in effect; the caller bounds the wait
        #: (:meth:`release_hold`).
        self.hold_for_choice = False
        self._hold_released = False
        self._unsent_abort: Entry | None = None
        #: After :meth:`resume`: every event the replayed log produced, in order (this
        #: seat's view), for a client to rebuild its picture of the table.
        self.replayed: tuple[object, ...] = ()
        self._accept(genesis)
        self._events.append(TableReady(table, seat))

    # -------------------------------------------------------------- construction

    @classmethod
    def create(cls, identity: Identity, table: TableInfo, master: bytes | None = None, *,
               speaks: Sequence[str] | None = None) -> tuple[Session, Entry]:
        """The host's session and the genesis entry to broadcast."""
        genesis = make_entry(identity, game=table.game, seat=0, seq=0, prev=GENESIS_PREV,
                             kind="table", body=table.to_body())
        return cls(identity, table, 0, genesis, master, speaks=speaks), genesis

    @classmethod
    def resume(cls, identity: Identity, bodies: list[bytes], host_key: bytes,
               master: bytes, *, speaks: Sequence[str] | None = None) -> Session:
        """Rebuild a session from the entries of a log (genesis first), with the master
        secret of the crashed run: every entry is checked again, and this seat's deal
        secrets come out the same, so its own logged entries match what it would send.

        The replay does every check in line.  One that refuses another seat's entry
        (a shuffle proof whose check was still out when we crashed, proof-apart/v1)
        makes the session what a live peer would have made of it (PROTOCOL.md 13,
        "Checks owed at an ending"): the entries after it, accepted live before the
        crash, are linked as the chain says (signatures, ``prev`` and sequence checked,
        their game not applied), and our abort for the fault (``deal_failure`` against
        the prover, proven, the entry that carried the proof as evidence) is signed and
        waits for :meth:`next_entry` (:attr:`owes_abort`); an abort of ours already in
        the log is that ending instead.  A fault blaming this very seat, or a log whose
        chain does not hold, raises as before (an unusable log)."""
        session = cls.join(identity, wire.open_entry(bodies[0]), host_key, master,
                           speaks=speaks)
        fault: GameFault | None = None
        ours: Entry | None = None
        for body in bodies[1:]:
            entry = wire.open_entry(body)
            if fault is not None:
                if session._relink(entry, fault):
                    ours = entry
                continue
            if entry.seat == session.seat and entry.kind != "abort":
                # Already sent: it is this very entry.
                session.game.drop_sent(entry.fields.get("d"))
                session._decided = None
            try:
                session.receive(entry)
            except GameFault as exc:
                if exc.blamed_seat is not None and exc.blamed_seat == session.seat:
                    raise  # our own entry refused: the log is not ours to trust
                fault = exc
        session.replayed = tuple(session.take_events())
        session._events.append(TableReady(session.table, session.seat))
        if fault is not None and ours is None and not session.finished:
            # The verdict our crash kept us from signing: now, sent once we reconnect.
            session._unsent_abort = session._abort_for(fault)
        return session

    def _relink(self, entry: Entry, fault: GameFault) -> bool:
        """A logged entry after the one whose replay raised ``fault`` (:meth:`resume`):
        accepted live before the crash, while that check was out.  Its envelope is
        checked (signature, game, sequence, ``prev``: not the floor, which the refused
        entry's game no longer tells) and it is linked, its game not applied; another
        seat's abort is recorded as a claim that ends nothing (as live, :meth:`receive`).
        True: it is an abort of ours, the ending already signed (taken here)."""
        t = self.table
        if entry.game != t.game or entry.seat >= t.players or not verify_signature(
                t.seats[entry.seat].key, ENTRY_DOMAIN, entry.payload, entry.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, f"entry from seat {entry.seat}",
                                violation="bad_signature", facts={"seat": entry.seat})
        if entry.kind == "abort":
            if entry.seat != self.seat or self.aborted is not None:
                self._on_abort(entry, ends=False)
                return False
            f = entry.fields
            own = (f.get("code"), f.get("blamed")) == (int(fault.error_code),
                                                        fault.blamed_seat)
            self._on_abort(entry, Standing.PROVEN if own and fault.blamed_seat is not None
                           else None, (fault.violation, fault.facts) if own else (None, ()))
            return True
        if self.finished:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "the game is over",
                                violation="game_over")
        if entry.prev != self.chain.head or entry.seq != self.chain.next_seq[entry.seat]:
            raise ProtocolError(ErrorCode.BAD_CHAIN, "prev is not the transcript head",
                                violation="chain_broken")
        self._link(entry)
        return False

    @classmethod
    def observe(cls, genesis: Entry, host_key: bytes | None = None,
                game: GameDriver | None = None) -> Session:
        """A session from no seat (a spectator's, an auditor's): the genesis is checked
        (signed by ``host_key``, default: the key it gives seat 0), then every entry fed to
        :meth:`receive` gets every check a seat runs; it never has a decision nor an entry
        to send.  ``game``: a driver of no seat (default ``GameDriver(table, None, ...)``),
        for an observer that also wants the hooks of :class:`GameDriver`."""
        table = TableInfo.from_entry(genesis)
        key = table.seats[0].key if host_key is None else host_key
        if table.seats[0].key != key:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "seat 0 is not the host",
                                blamed_seat=0, violation="host_not_seat_0")
        if not verify_signature(key, ENTRY_DOMAIN, genesis.payload, genesis.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, "genesis", blamed_seat=0,
                                violation="genesis_signature")
        return cls(None, table, None, genesis, bytes(32), game=game)

    @classmethod
    def join(cls, identity: Identity, genesis: Entry, host_key: bytes,
             master: bytes | None = None, *, speaks: Sequence[str] | None = None) -> Session:
        """A joining peer's session from the genesis the host sent, signed by ``host_key``."""
        if not verify_signature(host_key, ENTRY_DOMAIN, genesis.payload, genesis.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, "genesis", blamed_seat=0,
                                violation="genesis_signature")
        table = TableInfo.from_entry(genesis)
        if table.seats[0].key != host_key:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "seat 0 is not the host",
                                blamed_seat=0, violation="host_not_seat_0")
        seat = next((s.seat for s in table.seats if s.key == identity.public), None)
        if seat is None:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "no seat for us", blamed_seat=0,
                                violation="no_seat_for_us")
        return cls(identity, table, seat, genesis, master, speaks=speaks)

    # ------------------------------------------------------------------- reading

    @property
    def head(self) -> bytes:
        return self.chain.head

    @property
    def length(self) -> int:
        return self.chain.length

    @property
    def floor(self) -> int:
        """The seat that may extend the transcript next."""
        return self._floor

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.DONE, Phase.ABORTED)

    @property
    def own_seat(self) -> int:
        """This session's seat; LocalError for a session of no seat (an observer's)."""
        if self.seat is None:
            raise TranscriptUsageError("a session of no seat (an observer) has no seat of "
                                       "its own", code="no_seat_of_its_own")
        return self.seat

    def _sign(self, kind: str, body: dict[str, Any]) -> Entry:
        """A new entry of this seat's, signed; a session of no seat signs nothing."""
        if self.identity is None:
            raise TranscriptUsageError("a session of no seat (an observer) signs nothing",
                                       code="observer_signs_nothing")
        seat = self.own_seat
        return make_entry(self.identity, game=self.table.game, seat=seat,
                          seq=self.chain.next_seq[seat], prev=self.chain.head,
                          kind=kind, body=body)

    def take_events(self) -> list[SessionEvent]:
        out, self._events = self._events, []
        return out

    def ready_caps(self) -> tuple[str, ...] | None:
        """What this seat's ``ready`` lists in ``caps``: the genesis's table capabilities
        that this seat plays (:attr:`speaks`), in the genesis's order.  (None: no ``caps``
        field at all, as a peer of before the field; only a test's stand-in for one.)"""
        return tuple(c for c in self.table.caps if c in self.speaks)

    def effective_caps(self) -> tuple[str, ...]:
        """The table capabilities in effect, from the genesis and every seat's ready
        (:func:`effective_caps`); :attr:`caps` once the last ready is in."""
        return effective_caps(self.table.caps, self.readies)

    @property
    def decision(self) -> Decision | None:
        """The local seat's pending choice, when it must choose (and, without the table
        capability early-deal/v1, holds the floor).  With early-deal/v1 a seat may choose
        while the floor is elsewhere (it sent its deal messages first): the choice goes
        out with its next turn."""
        if self.phase != Phase.PLAYING or self._decided or self.seat is None:
            return None
        if self._floor != self.seat and not self.game.early_deal:
            return None
        return self.game.decision()

    # ------------------------------------------------------------------ receiving

    def check(self, entry: Entry) -> None:
        """Envelope checks of an entry received from the network (not applied).  Raises
        :class:`ProtocolError` naming the first rule broken."""
        t = self.table
        if entry.game != t.game:
            raise ProtocolError(ErrorCode.WRONG_GAME, violation="wrong_game")
        if entry.seat >= t.players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "no such seat", violation="no_such_seat")
        key = t.seats[entry.seat].key
        if not verify_signature(key, ENTRY_DOMAIN, entry.payload, entry.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, f"entry from seat {entry.seat}",
                                violation="bad_signature", facts={"seat": entry.seat})
        if entry.kind == "abort":
            return
        if self.finished:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "the game is over",
                                violation="game_over")
        if entry.seq < self.chain.next_seq[entry.seat]:
            raise ProtocolError(ErrorCode.BAD_SEQUENCE, "an old entry replayed",
                                violation="replayed_entry")
        if entry.prev != self.chain.head:
            raise ProtocolError(ErrorCode.BAD_CHAIN, "prev is not the transcript head",
                                violation="chain_broken")
        if entry.seat != self._floor:
            raise ProtocolError(ErrorCode.OUT_OF_TURN,
                                f"seat {entry.seat} spoke; seat {self._floor} holds the floor",
                                violation="out_of_turn",
                                facts={"seat": entry.seat, "floor": self._floor})
        if entry.seq != self.chain.next_seq[entry.seat]:
            raise ProtocolError(ErrorCode.BAD_SEQUENCE,
                                f"expected {self.chain.next_seq[entry.seat]}",
                                violation="wrong_sequence",
                                facts={"expected": self.chain.next_seq[entry.seat]})

    def receive(self, entry: Entry, *, checked: bool = False) -> None:
        """Check and apply one entry from another seat.  :class:`ProtocolError`: refused,
        nothing changed.  :class:`GameFault`: accepted into the transcript but the game
        refuses it -- call :meth:`abort` and end the game.  ``checked``: :meth:`check`
        already passed (a relay forwards first, then applies).

        An ``abort`` that arrives while proof checks of ours are out has them finished
        first (:meth:`_owed_fault`): if one refuses a proof, the abort is only recorded
        and ours, proven, is signed: :meth:`next_entry` returns it (send it)."""
        if not checked:
            self.check(entry)
        if entry.kind == "abort":
            fault = self._owed_fault()
            if fault is None:
                self._on_abort(entry)
                return
            # The checks our chain owed before this abort refuse a proof: that decides
            # the ending, as the auditor finds it (issue 44).  The abort is recorded,
            # as a claim that ends nothing here; ours, proven, goes out next.
            self._on_abort(entry, ends=False)
            self._unsent_abort = self._abort_for(fault)
            return
        self._accept(entry)

    def _owed_fault(self) -> GameFault | None:
        """The game is about to end (an abort, ours or another seat's) while this seat's
        proof checks run apart (proof-apart/v1, :meth:`jobs`): the checks that the chain
        before it owes are finished here and now (:meth:`GameDriver.settle`), the jobs
        still out computed again, so that the ending is the one an auditor finds in the
        same chain: a refused proof (``deal_failure`` against its prover, at the entry
        that carried it) is an earlier violation than anything the ending says.  The
        refusal of the earliest entry, or None (none owed, or all pass; always None for
        a replay or an observer, whose checks are done in each call)."""
        if self.seat is None or self.phase != Phase.PLAYING or self.aborted is not None:
            return None
        faults = self._settled()
        return min(faults or (), key=lambda f: self._chain_index(f.evidence), default=None)

    def _settled(self) -> list[GameFault] | None:
        """:meth:`GameDriver.settle`, guarded: None if it failed unexpectedly (never
        expected: the same pure checks the worker runs; then nothing here proves anyone
        at fault, and nothing is refuted either)."""
        try:
            return self.game.settle()
        except Exception:  # noqa: BLE001 - the ending must still be signed
            return None
        finally:
            self._events.extend(self.game.take_events())

    def _chain_index(self, evidence: bytes | None) -> int:
        """Where an abort's ``evidence`` sits in our transcript (after its end when it
        is not in it: an entry refused, as the auditor checks it "as the next one")."""
        return self.bodies.index(evidence) if evidence is not None \
            and evidence in self.bodies else len(self.bodies)

    def _abort_for(self, fault: GameFault) -> Entry:
        """Our signed abort for ``fault``, found by our own checks."""
        return self.abort(fault.error_code, fault.blamed_seat, fault.detail,
                          fault.evidence, proven=True, violation=fault.violation,
                          facts=fault.facts)

    def _accept(self, entry: Entry) -> None:
        try:
            self._link(entry)
            self._apply(entry)
        finally:
            self._events.extend(self.game.take_events())

    def _link(self, entry: Entry) -> None:
        """Put ``entry`` at the head of the chain (its game is applied apart)."""
        c = self.chain
        c.head = entry.id
        c.length += 1
        c.next_seq[entry.seat] = entry.seq + 1
        self.bodies.append(entry.body)
        self._transcript_bytes += 4 + len(entry.body)
        if self._transcript_bytes > wire.MAX_TRANSCRIPT:
            # Far beyond any honest match (PROTOCOL.md 2.1): whoever padded, the table
            # stops here, at the same entry for everyone, and blames nobody.
            raise GameFault(ErrorCode.TRANSCRIPT_TOO_LONG,
                            f"over {wire.MAX_TRANSCRIPT} bytes", None, entry.body,
                            violation="transcript_too_long", facts={"max": wire.MAX_TRANSCRIPT})

    def _apply(self, entry: Entry) -> None:
        n = self.table.players
        kind, seat, f = entry.kind, entry.seat, entry.fields
        if self.chain.length == 1:  # the genesis: every seat says ready, in seat order
            self._floor = 0
            return
        if self.phase == Phase.READY:
            if kind != "ready":
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"expected ready, got {kind}",
                                seat, entry.body, violation="unexpected_kind",
                                facts={"expected": "ready", "got": kind[:32]})
            self.readies.append(ReadyBody.from_wire(f, seat, entry.body).caps)
            self._floor = (seat + 1) % n
            if seat == n - 1:
                # Every seat said which of the genesis's capabilities it plays: the binding
                # ones are settled before the first deck exists (PROTOCOL.md 3).
                self.caps = self.effective_caps()
                self.game.set_caps(self.caps)
                self.phase = Phase.PLAYING
                self.game.start()
            return
        if self.phase == Phase.PLAYING:
            if kind != "turn":
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"expected turn, got {kind}",
                                seat, entry.body, violation="unexpected_kind",
                                facts={"expected": "turn", "got": kind[:32]})
            ride, build = self.game.shares_ride, self.game.build_next
            late = self.game.late_reveal
            unknown = (RIDE_FIELDS if not ride else frozenset()) \
                | (NEXT_FIELDS if not build else frozenset()) \
                | (LATE_FIELDS if not late else frozenset())
            if unknown & f.keys():
                # Without shares-ride/v1 (next-deck/v1) in effect ``p`` (``b``) is an
                # unknown field: ignored, but counted in the unknown fields' budget, as a
                # peer of before it counts it.  Otherwise a peer could send a ``p`` the
                # new peers pass on and the old ones refuse, and an old joiner blames
                # the host that relayed it.
                try:
                    wire.check_entry_size(entry, wire.decode(entry.body),
                                          also_unknown=unknown)
                except wire.ProtocolError as exc:
                    raise GameFault(exc.error_code, str(exc), seat, entry.body,
                                    violation=exc.violation, facts=dict(exc.facts)) from None
            turn = TurnBody.from_wire(f, seat, entry.body, ride, build, late)
            self.game.entry_body = entry.body
            try:
                if turn.next is not None and seat == self.seat:
                    # Replaying our own log (a resume): what our deal made for the next
                    # deck and this entry carried was sent (before the entry's items
                    # can end the hand and move the rest to ``d``).
                    self.game.drop_sent_next(turn.next)
                progress = self.game.apply(seat, turn.items, turn.action,
                                           reveals=bool(turn.reveal))
                if turn.after is not None:
                    if seat == self.seat:
                        # Replaying our own log (a resume): what our deal made again
                        # while applying the action is what this entry carried.
                        self.game.drop_sent(turn.after)
                    progress = self.game.apply_after(seat, turn.after) or progress
                if turn.next is not None:
                    progress = self.game.apply_next(seat, turn.next) or progress
                if turn.reveal is not None:
                    if seat == self.seat:
                        # Replaying our own log (a resume): our reveal this entry
                        # carried was sent.
                        self.game.drop_sent_reveal(turn.reveal)
                    progress = self.game.apply_reveal(seat, turn.reveal) or progress
            except GameFault as exc:
                if exc.evidence is None:
                    exc.evidence = entry.body
                raise
            self._after_turn(seat, progress, entry)
            return
        if self.phase == Phase.CLOSING:
            result = self.game.result_body()
            if kind != "done":
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"expected done, got {kind}",
                                seat, entry.body, violation="unexpected_kind",
                                facts={"expected": "done", "got": kind[:32]})
            done = DoneBody.from_wire(f, seat, entry.body)
            if not wire.same_value(done.result, result):  # exact: `true` is not `1`
                raise GameFault(ErrorCode.RESULT_MISMATCH, f"seat {seat} signed another "
                                "result", seat, entry.body, violation="result_differs",
                                facts={"seat": seat})
            self._closing_seen += 1
            self._floor = (seat + 1) % n
            if self._closing_seen == n:
                self.phase = Phase.DONE
                self.done = self.game.match_done()
                self._events.append(self.done)
            return
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "entry after the end", seat, entry.body,
                        violation="entry_after_end")

    def _after_turn(self, seat: int, progress: bool, entry: Entry) -> None:
        """The floor and the stall count after ``seat``'s turn, once its game is applied."""
        if progress:
            self._empty_run = 0
        else:
            # Items held for a step that is not open yet are no progress: a seat that
            # withholds what it owes cannot keep the count low with them.
            self._empty_run += 1
            if self._empty_run > 2 * self.table.players:
                self._stalled(seat, entry)
        self._floor = (seat + 1) % self.table.players
        if self.game.over:
            self.phase = Phase.CLOSING

    def _stalled(self, seat: int, entry: Entry) -> None:
        """More than ``2n`` turns in a row without progress: every seat has held the floor
        twice with everything in the chain, so a seat that still owes a deal message is
        withholding it.  Blame the first such seat in seat order (the same at every
        peer: a peer's own messages are all sent by then); only if none owes anything
        the last sender.  Never this peer's own seat: its own messages are sent."""
        own = self.seat
        owing = [s for s in self.game.owed() if s != own]
        if owing:
            blamed = owing[0]
            detail = (f"the game stalls: seat {blamed} owes its deal message and "
                      f"{self._empty_run} turns passed without progress")
            violation, facts = "stalled_owing", {"seat": blamed, "turns": self._empty_run}
        elif seat != own:
            blamed, detail = seat, "the game stalls: nobody acts"
            violation, facts = "stalled", {}
        else:
            return  # nothing proves anyone at fault here; the next entry will tell
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, detail, blamed, entry.body,
                        violation=violation, facts=facts)

    @property
    def owing(self) -> int | None:
        """The seat that owes the next message now: the one holding the floor (every deal
        message a seat owes and its play travel in its own turn).  None once the game is
        over.  (:meth:`GameDriver.owed` lists whose deal messages or choice the game
        itself waits for.)"""
        return None if self.finished else self._floor

    def standing_of(self, blamed: int | None, by_seat: int,
                    evidence: bytes | None = None) -> str:
        """What this transcript shows of an accusation against ``blamed`` (a
        :class:`Standing` value), for an abort signed by ``by_seat``."""
        if blamed is None:
            return Standing.CLAIMED
        if blamed == by_seat:
            return Standing.SELF
        if evidence is not None and evidence in self.bodies[:self.length] \
                and self._settled() == []:
            # It cites an entry of this transcript, which passed every check here: the
            # claim is refuted (as an auditor finds it, PROTOCOL 12.5).  A shuffle proof
            # still being checked apart (the entry is in the transcript before its
            # proof's verdict) is checked first, as the auditor will: one standing on
            # every screen and in every replay.  A proof refused here refutes nothing
            # (and ends the game as our own finding: :meth:`_owed_fault`).
            return Standing.REFUTED
        if by_seat != 0 and blamed != 0:
            # A joiner sees only its own link to the host, never another joiner's: its
            # word that one was too slow or away has no ground, whoever held the floor
            # (PROTOCOL.md 12.5).
            return Standing.CLAIMED
        if blamed == self.owing:
            return Standing.OWED
        return Standing.CLAIMED

    def _on_abort(self, entry: Entry, standing: str | None = None,
                  violation: tuple[str | None, Facts] = (None, ()), *,
                  ends: bool = True) -> None:
        """Take an abort, ours or another seat's.  ``ends`` False: only recorded (the
        transcript and the claims a flag is judged by), for an abort whose ending our
        own checks overrule (:meth:`_owed_fault`)."""
        f = entry.fields
        code = ErrorCode.from_wire(f.get("code"))
        unknown = None
        if code is None:
            code = ErrorCode.PROTOCOL_VIOLATION
            unknown = repr(f.get("code"))  # as the auditor writes it (observer)
        blamed = AbortBody.read_blamed(f, self.table.players)
        why = AbortBody.read_why(f)
        if ends and self.aborted is None and self.phase != Phase.DONE:
            if standing is None:
                standing = self.standing_of(blamed, entry.seat, AbortBody.read_evidence(f))
            flag = flag_holds(f, entry.seat, players=self.table.players, phase=self.phase,
                              floor=self._floor, earlier=self._abort_claims)
            decided = None
            if self.phase == Phase.CLOSING:
                # Every seat is signing the result: it stands, whoever stops now.
                decided = self.game.result_body().get("winner")
                if not isinstance(decided, int) or isinstance(decided, bool):
                    decided = None
            left = (code is ErrorCode.PEER_LEFT and blamed == entry.seat
                    and self.phase == Phase.PLAYING)
            m, sides = self.game.match, Seating.of(self.table.players).sides
            totals = () if self.phase != Phase.PLAYING else \
                tuple(m.totals) if m is not None else (0,) * sides
            # Our own check convicts the blamed seat while the match is played: a loss
            # for its side (a cheat must not void a match its side was losing).
            convicted = blamed if standing == Standing.PROVEN and blamed is not None \
                and self.phase == Phase.PLAYING else None
            self.aborted = Aborted(entry.seat, code, blamed, why, standing, flag, unknown,
                                   left=left, decided=decided, totals=totals,
                                   violation=violation[0], facts=violation[1],
                                   convicted=convicted)
            self._flag_body = entry.body if flag is not None else None
            self.phase = Phase.ABORTED
            self._events.append(self.aborted)
        elif self._disputes(entry, code):
            a = self.aborted
            assert a is not None and a.flag is not None
            self.aborted = dataclasses.replace(
                a, flag=None, standing=Standing.DISPUTED, disputed_by=a.flag,
                disputed_flag=a.by_seat)
            self._flag_body = None
            # One story: a flag not yet reported (our own dispute, signed as the flag
            # came) is reported as disputed, never first as a loss.
            self._events = [e for e in self._events if e is not a]
            self._events.append(self.aborted)
        self._abort_claims.append((entry.seat, blamed))
        self.bodies.append(entry.body)

    def _disputes(self, entry: Entry, code: ErrorCode) -> bool:
        """``entry`` is the flagged seat's dispute of the flag that ended the game: code
        ``clock_dispute``, signed by the flagged seat, blaming the flag's signer, citing
        the flag itself as its evidence, with a clock reading that contradicts it by more
        than :data:`CLOCK_TOLERANCE` (PROTOCOL.md 12.6)."""
        a, flag_body = self.aborted, self._flag_body
        if a is None or a.flag is None or flag_body is None:
            return False
        f = entry.fields
        if code is not ErrorCode.CLOCK_DISPUTE or entry.seat != a.flag \
                or f.get("blamed") != a.by_seat or isinstance(f.get("blamed"), bool) \
                or f.get("evidence") != flag_body:
            return False
        flag_fields = wire.open_entry(flag_body).fields
        return dispute_contradicts(a.code, clock_reading(flag_fields.get("clock")),
                                   clock_reading(f.get("clock")))

    def flag_to_dispute(self) -> Entry | None:
        """The flag that ended the game, if it flags this very seat and stands: the
        entry a dispute cites (:meth:`dispute`)."""
        a = self.aborted
        if a is None or a.flag is None or a.flag != self.seat or self._flag_body is None:
            return None
        return wire.open_entry(self._flag_body)

    def dispute(self, clock: dict[str, int], detail: str = "") -> Entry | None:
        """Dispute the flag that ended the game on this seat (PROTOCOL.md 12.6): sign an
        ``abort`` ``clock_dispute`` blaming the flag's signer, citing the flag, with this
        seat's own clock reading (:func:`make_clock`).  Send the entry returned.  None
        when there is no such flag; the dispute voids the flag only when the reading
        contradicts it (:func:`dispute_contradicts`): the caller checks first."""
        flag = self.flag_to_dispute()
        if flag is None:
            return None
        body = ClockDisputeBody(flag.seat, (detail or "my own clock showed time left")[:1000],
                                flag.body, clock)
        entry = self._sign("abort", body.to_wire())
        self._on_abort(entry)
        return entry

    # ------------------------------------------------------------------- sending

    def decide(self, choice: Any) -> None:
        """Answer :attr:`decision`: a ``rules.Move`` for ``play``, a bool (keep) for ``cut``.
        Raises the rules engine's IllegalMove (a LocalError-like misuse) if not legal."""
        d = self.decision
        if d is None:
            raise TranscriptUsageError("no decision is pending", code="no_decision_pending")
        self._decided = self.game.action_for(d, choice)

    def next_entry(self) -> Entry | None:
        """The entry to send now, if this seat holds the floor and has it ready.

        When this seat's own entry convicts another seat (it ended a hand whose re-check
        finds an illegal play), the entry is returned all the same and the session
        signs an ``abort``: the next call returns it (send both, in that order)."""
        if self._unsent_abort is not None:
            entry, self._unsent_abort = self._unsent_abort, None
            return entry
        if self.finished or self._floor != self.seat:
            return None
        body: ReadyBody | TurnBody | DoneBody
        if self.phase == Phase.READY:
            kind, body = "ready", ReadyBody(self.ready_caps())
        elif self.phase == Phase.PLAYING:
            action = self._decided
            if action is None and self.game.working and (
                    not self.game.has_outbox or self.game.outbox_waits_for_work):
                # Our deal's proof work runs elsewhere (jobs): its result (our proof, the
                # shares it releases) goes in this turn, not an empty one (which would
                # send the floor round for nothing, and count towards a stall).
                # Messages the others can do nothing with before that result wait for
                # it too (at 3 and 4 players our deck waits for its proof): sent alone,
                # the result would follow a pass of the floor later.
                return None
            if action is None and self.game.decision() is not None \
                    and not (self.game.early_deal and self.game.has_outbox):
                return None  # waiting for the controller
            if self.holding:
                return None  # our controller answers at once: our messages wait for it
            self._hold_released = False
            # With early-deal/v1 a seat that must still choose sends the deal messages it
            # owes now, without its action: the others get their cards while it thinks.
            self._decided = None
            items = self.game.outbox()
            nxt = self.game.next_outbox() if not self._near_the_bound() else []
            act = None if action is None else action.to_wire()
            if self.game.shares_ride and not self._near_the_bound():
                return self._ride_turn(items, act, nxt)
            body = TurnBody(items, act, None, nxt, self.game.reveal_outbox())
            kind = "turn"
        elif self.phase == Phase.CLOSING:
            kind, body = "done", DoneBody(self.game.result_body())
        else:
            return None
        entry = self._sign(kind, body.to_wire())
        try:
            self._accept(entry)
        except GameFault as fault:
            if fault.blamed_seat == self.seat:
                raise  # our own engine refuses what we signed: local misuse
            # Our own entry completed something that convicts another seat (the end of a
            # hand re-checks every play): it is in the transcript and goes out, so that
            # every peer reaches the same verdict at it; our abort goes out next.
            self._unsent_abort = self.abort(fault.error_code, fault.blamed_seat,
                                            fault.detail, fault.evidence or entry.body,
                                            proven=True, violation=fault.violation,
                                            facts=fault.facts)
        return entry

    @property
    def owes_abort(self) -> bool:
        """An abort of ours is signed and not yet handed out by :meth:`next_entry` (the
        session may be finished already: send it all the same)."""
        return self._unsent_abort is not None

    @property
    def holding(self) -> bool:
        """This seat holds the floor, owes deal messages and its choice, and keeps its
        turn for that choice (:attr:`hold_for_choice`; only with shares-ride/v1): the
        choice's answer, or :meth:`release_hold`, lets it go.  Not a rule of the wire
        (any peer may send its messages first, or with its choice), the sender's own
        policy for a controller that answers at once: PROTOCOL.md 6.2 bounds it."""
        return (self.hold_for_choice and not self._hold_released
                and self.phase == Phase.PLAYING and self._decided is None
                and self._floor == self.seat and self._unsent_abort is None
                and self.game.shares_ride and self.game.early_deal
                and self.game.has_outbox and self.game.decision() is not None)

    def release_hold(self) -> None:
        """The choice took longer than its bound: our next turn carries our deal messages
        without it (early deal), as a person's does."""
        self._hold_released = True

    def _near_the_bound(self) -> bool:
        """Our next turn, whatever it carries, may take the transcript past
        :data:`MAX_TRANSCRIPT`.  Every receiver then stops at its link, before applying its
        game (PROTOCOL.md 2.1); a ``p`` is made by applying the entry before it is signed,
        so near the bound we send the old way (link, then apply; our messages in our next
        turn) and our game stays the one every receiver holds: no hand scored here that
        nobody else scored."""
        return self._transcript_bytes + 4 + wire.entry_limit("turn") > wire.MAX_TRANSCRIPT

    def _ride_turn(self, items: list[Any], action: dict[str, Any] | None,
                   nxt: list[Any]) -> Entry:
        """Our turn under shares-ride/v1 (PROTOCOL.md 6.2): apply ``items`` and
        ``action`` first, then the deal messages that made (our shares of the step the
        action opens, our reveal, our next key) ride in the same entry as ``p``, applied
        after the action: every peer applies them at the very point of the chain where
        our deal made them, so none is released earlier than without the field, only a
        turn sooner.  ``nxt``: our messages for the next hand's deck (next-deck/v1, the
        field ``b``), applied last.  Then sign it, and put it in the chain without
        applying it again."""
        seat = self.own_seat
        self.game.entry_body = None
        after: list[Any] = []
        rev: list[Any] = []
        fault: GameFault | None = None
        progress = False
        try:
            try:
                progress = self.game.apply(seat, items, action)
                after = self.game.outbox()
                progress = self.game.apply_after(seat, after) or progress
                progress = self.game.apply_next(seat, nxt) or progress
                # late-reveal/v1: our reveal of the deck scored before its reveals, made
                # earlier or by this very entry (it ended the hand), applied last.
                rev = self.game.reveal_outbox()
                progress = self.game.apply_reveal(seat, rev) or progress
            except GameFault as exc:
                # What we send convicts another seat (the end of a hand re-checks every
                # play): every peer reaches the same verdict at this entry, which goes
                # out all the same (with what it carries up to that point); our abort next.
                fault = exc
            entry = self._sign("turn", TurnBody(items, action, after, nxt, rev).to_wire())
            try:
                self._link(entry)
                if fault is None:
                    self._after_turn(seat, progress, entry)
            except GameFault as exc:
                fault = exc
            if fault is not None and fault.blamed_seat == seat:
                # Our own engine refuses what we signed: local misuse (as without the
                # capability, the entry is in our transcript, and not for anyone else).
                raise fault
        finally:
            self._events.extend(self.game.take_events())
        if fault is not None:
            self._unsent_abort = self.abort(fault.error_code, fault.blamed_seat,
                                            fault.detail, fault.evidence or entry.body,
                                            proven=True, violation=fault.violation,
                                            facts=fault.facts)
        return entry

    @property
    def defer_work(self) -> bool:
        """The deal's proof work is handed out (:meth:`jobs`) instead of done in each call
        (default off: every call does it, as a replay does).  Only a table with the
        capability proof-apart/v1 has such work."""
        return not self.game.work_inline

    @defer_work.setter
    def defer_work(self, value: bool) -> None:
        self.game.work_inline = not value

    def jobs(self) -> list[ProofJob]:
        """With :attr:`defer_work`: the proof work to do now, each a :class:`ProofJob` of
        immutable inputs; compute it anywhere with :func:`chkobba_p2p.deal.core.run_job`
        (another thread: it touches nothing of this session) and give the result to
        :meth:`job_done`, here.  Each job is handed out once."""
        if self.phase != Phase.PLAYING:
            return []
        return self.game.take_jobs()

    def job_done(self, job: ProofJob, result: JobResult) -> None:
        """The result of a job of :meth:`jobs`; then :meth:`next_entry` may have a turn.
        A job of an instance that is over (or a game that is) is ignored.  Raises
        :class:`GameFault` when a shuffle proof is refused: blame its prover (``abort``,
        with the fault's evidence: the entry that carried the proof)."""
        if self.phase != Phase.PLAYING:
            return
        try:
            self.game.job_done(job, result)
        finally:
            self._events.extend(self.game.take_events())

    def leave(self, detail: str = "the player left") -> Entry | None:
        """Leave the game on purpose: sign an ``abort`` with code ``peer_left`` blaming
        this very seat, so that the others learn it at once (send the entry returned).
        None if the game is already over."""
        if self.finished:
            return None
        return self.abort(ErrorCode.PEER_LEFT, self.seat, detail)

    def resign(self, detail: str = "") -> Entry:
        """Resign the match: sign an ``abort`` with code ``resigned`` against this very
        seat (send the entry returned).  The match ends at once with a loss for this
        seat's side (:attr:`Aborted.resigned`).  Raises :class:`LocalError` once the
        match is over or decided (every seat is signing the result)."""
        if self.finished or self.phase == Phase.CLOSING:
            raise TranscriptUsageError("the match is already over",
                                       code="match_already_over")
        return self.abort(ErrorCode.RESIGNED, self.seat, detail or "the player resigned")

    def abort(self, code: ErrorCode, blamed_seat: int | None, detail: str,
              evidence: bytes | None = None, *, proven: bool = False,
              flag: int | None = None, clock: dict[str, int] | None = None,
              violation: str | None = None, facts: Facts = ()) -> Entry:
        """End the game with a signed record (off the chain): the code, whom it blames,
        why, and the offending entry's bytes as evidence.  ``proven``: this peer's own
        checks convict ``blamed_seat`` (a game fault); otherwise the record's
        :class:`Standing` is what the transcript shows (the seat owed, or a claim).
        ``flag``: the host's clocks flag that seat (``timeout``, ``peer_left``: a loss
        on time if :func:`flag_holds`); ``clock``: the signer's clock reading
        (:func:`make_clock`), which a flag carries so that a reader can bound it
        (PROTOCOL.md 12.6).  ``violation``, ``facts``: the code and data of the check
        ``detail`` words in English, for this peer's :class:`Aborted` (never signed).

        With proof checks handed out (:attr:`defer_work`) and some still out, they are
        finished first; a refused proof is then the ending whatever was asked (the
        abort signed is ``deal_failure`` against its prover, proven, as the auditor
        finds it: PROTOCOL.md 9, "Checks owed at an ending")."""
        fault = self._owed_fault()
        if fault is not None:
            # A proof the chain before this ending owed us a check of is refused: that
            # is the ending (the auditor's verdict), whatever we meant to sign (issue 44).
            code, blamed_seat, detail = fault.error_code, fault.blamed_seat, fault.detail
            evidence, proven, flag, clock = fault.evidence, True, None, None
            violation, facts = fault.violation, fault.facts
        carried = evidence is not None and len(evidence) <= wire.MAX_EVIDENCE
        body = AbortBody(int(code), blamed_seat, detail[:1000], flag, clock,
                         evidence if carried else None,
                         wire.entry_id_of(evidence) if evidence is not None and not carried
                         else None)
        entry = self._sign("abort", body.to_wire())
        standing = Standing.PROVEN if proven and blamed_seat is not None else None
        if standing is None:
            # Our own accusation: never called refuted here (the entry we cite may be
            # one of the chain that a peer misused, e.g. relayed again).
            standing = self.standing_of(blamed_seat, self.own_seat)
        self._on_abort(entry, standing, (violation, facts))
        return entry
