"""A spectator's side of the link, sans-IO (PROTOCOL.md 18).

:class:`SpectatorCore` holds what a spectator decides: whether the host's greeting is
one it can watch and what it answers (``watch``), what the host's ``watching`` tells it
(its number, the entries that come at once, the table's clocks), what each message from
the host means for it (the entries, checked by an
:class:`~chkobba_p2p.observe.observer.Observer` as an auditor checks a log; the lobby,
wait, back, chat and spectators news, shown and never trusted), when to stop and what to
tell people.  It holds no seat and no key, and signs nothing.

The trio shell (:class:`chkobba_p2p._shell.watch.Spectator`) connects, reads frames
within their deadlines, feeds this core the frames and the time, and carries out its
effects: :class:`~chkobba_p2p.link.seat.Send` and :class:`~chkobba_p2p.link.seat.Close`
on the connection (named :data:`HOST`), :class:`~chkobba_p2p.link.seat.Emit` for the
spectator's ``on_event``, :class:`LogEntry` for its copy of the log.  The lobby, chat
and spectators news are read as a joining seat reads them (:func:`.joiner.lobby_event`,
:func:`.joiner.seat_of`, :class:`.spectators.WatchersShown`).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import Facts
from ..game.ruleset import Ruleset
from ..observe.observer import Observer
from ..observe.verdict import INCOMPLETE, Verdict
from ..text import safe_text
from ..transcript.clocks import ClockReading, Clocks, Limits
from ..transcript.table import TableInfo
from ..wire import codec as wire
from ..wire.codec import SUPPORTED_VERSIONS, ErrorCode, ProtocolError
from . import messages as lm
from .events import Chat, LinkEvent, Lobby, OutcomeError, Resumed, Waiting, check_data
from .handshake import greeting_players
from .joiner import code_name, lobby_event, seat_of, their_words
from .seat import Close, Effect, Emit, Send
from .spectators import WatchersShown
from .states import SPECTATOR, LinkStateError, next_state

__all__ = ["SpectatorCore", "LogEntry", "HOST", "NoWatch"]


class NoWatch(NamedTuple):
    """Why there is nothing to watch: ``code`` for programs, ``reason`` (one of
    :data:`~.events.ERROR_REASONS`) and ``data`` for a client's words."""

    code: str
    reason: str
    data: dict[str, str | int | float | Facts]

#: The one connection a spectator has, as its effects name it.
HOST = "host"


@dataclass(frozen=True, slots=True)
class LogEntry(Effect):
    """Append entry ``body`` to the spectator's copy of the log (opened, with a header
    for ``table``, at the first one)."""

    body: bytes
    table: TableInfo


class SpectatorCore:
    """One spectator's decisions.  ``name``: what the players are shown; ``announce``:
    the window within which who-is-watching news is shown at most once."""

    def __init__(self, name: str, announce: float = 5.0) -> None:
        self.name = name
        self.out: list[Effect] = []
        #: The connection's state in :data:`~chkobba_p2p.link.states.SPECTATOR`, which
        #: every frame from the host consults (a type a state refuses raises its code).
        self.state = SPECTATOR.initial
        #: Why the watching stopped, once it did (one of :data:`~.events.STOP_REASONS`),
        #: and what a client's words about it need.
        self.stop_reason: str | None = None
        self.stop_data: dict[str, str | Facts] = {}
        self.observer: Observer | None = None
        self.spectator_id: int | None = None
        #: How many entries the host had when it admitted us (they come at once).
        self.backlog = 0
        self.host_key: bytes | None = None
        #: The table's size as the greeting says it (the genesis settles the seats).
        self.players = 2
        self.host_name = "host"
        #: The terms the host announced: its rules (greeting), its clocks (watching).
        self.rules: Ruleset | None = None
        self.limits: Limits | None = None
        #: Our copy of the table's clocks (as a seat keeps one: shown, never enforced),
        #: once the game runs and the host announced its limits; and what ``watching``
        #: said of the move under way (its ``used``), for the move at ``backlog``.
        self.clock: Clocks | None = None
        self._told_used: int | None = None
        #: Bytes of transcript logged, frames' lengths included: a host cannot fill the
        #: disk, and the log stays one ``chkobba replay`` reads.
        self._logged = 0
        self._log_table: TableInfo | None = None  # the log's table, once it is kept
        self.watchers = WatchersShown(announce)

    def take(self) -> list[Effect]:
        out, self.out = self.out, []
        return out

    @property
    def catching_up(self) -> bool:
        """Still reading the entries the host had when it admitted us (a spectator that
        came in mid-game): a screen shows them at once, not at a person's pace."""
        entries = self.observer.entries if self.observer is not None else 0
        return entries < self.backlog

    # -- the handshake -----------------------------------------------------------------

    def greeting(self, frame: lm.Frame) -> dict[str, Any]:
        """The host's greeting: our ``watch`` to send, or :class:`ProtocolError`.  Its
        versions, key and table size are checked as a joining peer checks them; its name
        and rules are only shown (the genesis, signed by that key, settles the table)."""
        self.state = next_state(SPECTATOR, self.state, lm.type_name(frame))
        host = lm.Greeting.of(frame)
        common = set(host.versions) & set(SUPPORTED_VERSIONS)
        if not common:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"host speaks {list(host.versions)}",
                                violation="no_common_version")
        self.host_key = host.key
        self.players = greeting_players(host.players)
        self.host_name = host.name or "host"
        try:
            self.rules = Ruleset.from_dict(host.rules) if host.rules is not None else None
        except (ValueError, TypeError):
            self.rules = None
        if self.rules is not None and host.rules_hash != self.rules.digest():
            self.rules = None  # rules that are not the ones announced are not shown
        return lm.Watch(max(common), self.name).to_wire()

    def admitted(self, frame: lm.Frame) -> None:
        """The host's answer to our ``watch``: ``watching`` (our number, the entries that
        follow at once, the table's clocks), or :class:`ProtocolError`."""
        state = next_state(SPECTATOR, self.state, lm.type_name(frame))
        if isinstance(frame, lm.Malformed):
            raise frame.error
        if not isinstance(frame, lm.Watching):
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected watching",
                                violation="unexpected_message", facts={"expected": "watching"})
        self.state = state
        self.spectator_id, self.backlog = frame.id, frame.have
        self.limits = Limits(*frame.limits) if frame.limits is not None else None
        self._told_used = frame.used

    @staticmethod
    def refused(error: lm.ErrorMsg | None) -> NoWatch:
        """The host ended the handshake (with ``error``, or without a word): what people
        are told, and the outcome's code.  The host's own words come apart from its
        code, cut short (``host_text``): a hostile host's text never reads as ours."""
        if error is None:
            return NoWatch(OutcomeError.CONNECTION_CLOSED, "closed", {})
        number, _, rest = error.number, *their_words(error.number, error.text)
        data: dict[str, str | int | float | Facts] = {"code": code_name(number), "host_text": rest}
        if isinstance(number, int):
            data["number"] = number
        return NoWatch(code_name(number), "refused", data)

    @staticmethod
    def handshake_failed(exc: ProtocolError | None) -> NoWatch:
        """The handshake broke (``exc``) or did not complete in time (None)."""
        if exc is None:
            return NoWatch(OutcomeError.HANDSHAKE_FAILED, "handshake_timeout", {})
        return NoWatch(exc.error_code.name.lower(), "handshake_failed",
                       {**check_data(exc, str(exc))})

    # -- the host's messages ---------------------------------------------------------------

    def receive(self, frame: lm.Frame, now: float) -> bool:
        """One frame from the host; False once the watching stops (a :class:`Close` with
        the reason is among the effects).  WATCHING reads any type (a later version's
        is ignored): the table refuses nothing here, and says so."""
        try:
            self.state = next_state(SPECTATOR, self.state, lm.type_name(frame))
        except LinkStateError as exc:  # before our admission, or after we stopped
            self._give_up(exc, "out_of_state")
            return False
        match frame:
            case lm.Ping():
                self.out.append(Send(HOST, wire.encode(lm.Pong().to_wire())))
            case lm.Signed():
                try:
                    self._on_entry(frame.body, now)
                except ProtocolError as exc:
                    self._give_up(exc, "too_long")
                    return False
            case lm.Lobby():
                lobby = self.lobby(frame)
                if lobby is not None:
                    self.out.append(Emit(lobby))
            case lm.Spectators():
                self._show(self.watchers.heard(frame, now))
            case lm.Wait():  # read as a seat reads them: a seat of the table
                seat = seat_of(frame.seat, self.seats())
                if seat is not None:
                    secs = frame.secs
                    if self.limits is not None:  # never past the table's allowance
                        secs = min(secs, math.ceil(self.limits.allowance))
                    self.out.append(Emit(Waiting(seat, secs, frame.away)))
                    if self.clock is not None:
                        self.clock.reported_away(seat, secs, now)
                        self._clock_changed(now)
            case lm.Back():
                seat = seat_of(frame.seat, self.seats())
                if seat is not None:
                    self.out.append(Emit(Resumed(seat)))
                    if self.clock is not None:
                        self.clock.back(seat, now)
                        self._clock_changed(now)
            case lm.Chat():
                seat = seat_of(frame.seat, self.seats())
                if seat is not None:
                    self.out.append(Emit(Chat(seat, frame.text)))
            case _:
                pass  # pong, a malformed message, a type added by a later version
        return True

    def bad_frame(self, exc: ProtocolError) -> None:
        """A frame that does not decode (too long, not msgpack...): we stop."""
        self._give_up(exc, "unreadable")

    def silent(self) -> None:
        """Nothing came from the host within the idle timeout."""
        self.state = "CLOSED"
        self.stop_reason, self.stop_data = "host_silent", {}

    def closed(self, error: lm.ErrorMsg | None, now: float | None = None) -> None:
        """The connection to the host closed: with the host's ``error``, or without a
        word (the stream's end: the host may have closed it, or its connection or ours
        dropped -- nothing here says which).  Without a word while the match is under way,
        ``stop_data["host_allowance"]`` is how long the players wait for the host (its
        time away left, seconds as of ``now`` on our copy of the clocks; PROTOCOL.md
        12.4: a joiner spends the host's allowance retrying before it blames it)."""
        self.state = "CLOSED"  # its error, or the end of the stream: nothing more comes
        self.stop_reason, self.stop_data = "host_closed", {}
        if error is not None:
            self.stop_data = {"host_text": safe_text(error.said, 200)}
            if error.code is not None:
                self.stop_data["code"] = error.code.name.lower()
            return
        s = self.observer.session if self.observer is not None else None
        if s is None or s.finished or self.limits is None:
            return
        left = float(self.limits.allowance)
        if self.clock is not None and now is not None:
            left = self.clock.read(now)[0].allowance_left  # seat 0: the host
        self.stop_data["host_allowance"] = str(math.ceil(left))

    def _give_up(self, exc: ProtocolError, reason: str) -> None:
        """The host sent something we stop at (``reason``, one of
        :data:`~.events.STOP_REASONS`): say which, and close with the code."""
        self.state = "CLOSED"
        self.stop_reason = reason
        self.stop_data = {"code": exc.error_code.name.lower(),
                          **check_data(exc, safe_text(exc.detail, 200))}
        self.out.append(Close(HOST, exc.error_code, exc.detail))

    def lobby(self, msg: lm.Lobby) -> Lobby | None:
        """The :class:`Lobby` event of a host's ``lobby`` (None once the game runs, or if
        seat 0 is not the greeting's key), as a seat sees it: names safe and distinct,
        who is ready, and the terms (the rules of the greeting, the clocks of
        ``watching``, the spectators' places)."""
        if self.observer is not None:
            return None  # the seats are in the genesis now
        host = (self.host_key, self.host_name) if self.host_key is not None else None
        lobby = lobby_event(msg, (), host)
        if lobby is None:
            return None
        if lobby.spectators is not None:
            self.watchers.limit = lobby.spectators
        return dataclasses.replace(lobby, shuffle_proofs=None, limits=self.limits,
                                   rules=self.rules)

    def seats(self) -> int:
        """The table's size: the genesis's once it came, else the greeting's."""
        obs = self.observer
        return obs.table.players if obs is not None and obs.table is not None else self.players

    def _show(self, event: LinkEvent | None) -> None:
        if event is not None:
            self.out.append(Emit(event))

    def _on_entry(self, body: bytes, now: float) -> None:
        self._logged += 4 + len(body)
        if self._logged > wire.MAX_TRANSCRIPT:
            # Far beyond any match (PROTOCOL.md 2.1): what is logged stays replayable.
            raise ProtocolError(ErrorCode.TRANSCRIPT_TOO_LONG,
                                f"the transcript is over {wire.MAX_TRANSCRIPT} bytes",
                                violation="transcript_too_long",
                                facts={"max": wire.MAX_TRANSCRIPT})
        if self.observer is None:  # the genesis: the log is kept if it makes a table
            self.observer = Observer(host_key=self.host_key)
            events = self.observer.feed(body)
            self._log_table = self.observer.table
            if self._log_table is not None:
                self.out.append(LogEntry(body, self._log_table))
            self.out.extend(Emit(ev) for ev in events)
            return
        if self._log_table is not None:  # logged before it is checked, as a player logs
            self.out.append(LogEntry(body, self._log_table))
        self.out.extend(Emit(ev) for ev in self.observer.feed(body))
        self._clock_changed(now)

    def _clock_changed(self, now: float) -> None:
        """The floor may have moved, or a seat dropped or came back: move our copy of the
        clocks and report them (:class:`~chkobba_p2p.transcript.clocks.ClockReading`),
        as a seat's peer does, so that a spectator's countdowns are the players'."""
        obs = self.observer
        s = obs.session if obs is not None else None
        if self.limits is None or s is None or obs is None or obs.table is None:
            return
        if self.clock is None:
            self.clock = Clocks(obs.table.players, self.limits, now)
            if self._told_used is not None:  # for the move at the length watching gave
                self.clock.told_move_used(self.backlog, self._told_used, now)
        if self.clock.moved(None if s.finished else s.floor, now, move=s.length):
            self.out.append(Emit(ClockReading(self.clock.read(now), self.clock.limits)))

    # -- time ----------------------------------------------------------------------------

    @property
    def next_wake(self) -> float | None:
        """When :meth:`tick` has news to show (None: nothing pending)."""
        return self.watchers.due

    def tick(self, now: float) -> None:
        self._show(self.watchers.tick(now))

    # -- the end -------------------------------------------------------------------------

    def end(self) -> Verdict:
        """The watching is over: the observer's verdict of what it received (given as an
        event too if the observer had not reached one), or incomplete before any entry."""
        obs = self.observer
        if obs is None:
            return Verdict(INCOMPLETE, "unfinished", "the game had not started when the "
                           "watching stopped", finding="not_started")
        already = obs.verdict
        verdict = obs.end()
        if already is None:
            self.out.append(Emit(verdict))
        return verdict
