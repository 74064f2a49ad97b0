"""Watch a table as a spectator (``chkobba watch HOST[:PORT]``).

A spectator connects to the host, asks to watch (:mod:`chkobba_p2p.link.spectate`), receives the
transcript so far and then every entry as the seats do, and checks each one with an
:class:`~chkobba_p2p.observe.observer.Observer`, exactly as an auditor would: it sees what the
table shows in public (never a card in a hand before it is shown), each hand's cards once
its seeds open, and a cheat the moment it is caught.  It keeps its own copy of the log
(which ``chkobba replay`` audits like a player's) and may leave at any time: the game
does not depend on it.

    outcome = trio.run(watch_match, WatchConfig("192.168.1.20:7777"), print)
    print(outcome.verdict, outcome.log_path)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from ..game.ruleset import Ruleset
from ..link.events import Chat, Lobby, OutcomeError, Resumed, Spectators, Waiting, clean_chat
from ..link.handshake import greeting_players
from ..link.joiner import code_name, lobby_event, refusal_words
from ..link.linkmsg import parse_back, parse_chat, parse_wait
from ..link.messages import Watching, clean_text, display_name
from ..link.spectate import check_watching, spectator_names, watch_message, watching_limits
from ..link.spectators import SpectatorAnnouncer
from ..observe.observer import Observer
from ..observe.verdict import INCOMPLETE, Verdict
from ..text import safe_text
from ..transcript.clocks import ClockReading, Clocks, Limits
from ..wire import codec as wire
from ..wire.codec import SUPPORTED_VERSIONS, ErrorCode, ProtocolError, get_field
from ..wire.logfile import TranscriptWriter, default_log_path
from .config import Timeouts, parse_address
from .stream import Link, LinkClosed
from .transport import TcpTransport, Transport, nobody_listening

__all__ = ["WatchConfig", "WatchOutcome", "Spectator", "watch_match"]


@dataclass
class WatchConfig:
    """``address``: the host's ``HOST[:PORT]``; ``name``: shown to the players;
    ``log_path``: where to keep the spectator's copy of the log (default: a fresh file in
    the data directory); ``connect_retry``: seconds to keep retrying a refused connection."""

    address: str
    name: str = "spectator"
    log_path: Path | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    connect_retry: float = 0.0
    #: How to reach the host (:mod:`chkobba_p2p._shell.transport`; TCP by default).
    transport: Transport = field(default_factory=TcpTransport)


@dataclass(frozen=True)
class WatchOutcome:
    """How the watching ended: the observer's ``verdict`` of what it received (None if
    the host refused or could not be reached: then ``error``/``error_code`` say why),
    the log copy's path (None if no entry arrived) and how many entries it holds;
    ``stopped``: why the watching stopped, one sentence for people (the host closed the
    connection, sent a message that does not check out, fell silent...)."""

    verdict: Verdict | None
    log_path: Path | None
    entries: int = 0
    error: str | None = None
    error_code: str | None = None
    stopped: str | None = None


class Spectator:
    """One spectator's connection.  ``on_event`` gets, in order, every event the
    observer yields (see :mod:`chkobba_p2p.observe.observer`) and the table's unsigned news
    (:class:`~chkobba_p2p.link.events.Lobby`, :class:`~chkobba_p2p.link.events.Spectators`,
    :class:`~chkobba_p2p.link.events.Chat`, :class:`~chkobba_p2p.link.events.Waiting`,
    :class:`~chkobba_p2p.link.events.Resumed`)."""

    def __init__(self, config: WatchConfig,
                 on_event: Callable[[object], None] | None = None) -> None:
        self.config = config
        self._spectator_limit = 0  # the host's spectator places, as it last said
        self.on_event = on_event or (lambda event: None)
        self.host, self.port = parse_address(config.address)
        self.observer: Observer | None = None
        self.stopped: str | None = None  # why the read loop ended (WatchOutcome.stopped)
        self.log: TranscriptWriter | None = None
        self.spectator_id: int | None = None
        #: How many entries the host had when it admitted us (they come at once).
        self.backlog = 0
        self.host_key: bytes | None = None
        #: The table's size as the greeting says it (the genesis settles the seats).
        self.players = 2
        #: Our copy of the table's clocks (as a seat keeps one: shown, never enforced),
        #: once the game runs and the host announced its limits; and what ``watching``
        #: said of the move under way (its ``used``), for the move at ``backlog``.
        self.clock: Clocks | None = None
        self._told_used: int | None = None
        #: Bytes of transcript written to the log, frames' lengths included: a host
        #: cannot fill the disk, and the log stays one ``chkobba replay`` reads.
        self._logged = 0
        self.host_name = "host"
        #: The terms the host announced: its rules (greeting), its clocks (watching).
        self.rules: Ruleset | None = None
        self.limits: Limits | None = None

    @property
    def catching_up(self) -> bool:
        """Still reading the entries the host had when it admitted us (a spectator that
        came in mid-game): a screen shows them at once, not at a person's pace."""
        entries = self.observer.entries if self.observer is not None else 0
        return entries < self.backlog

    def _emit(self, events: list[object]) -> None:
        for ev in events:
            self.on_event(ev)

    async def run(self) -> WatchOutcome:
        try:
            stream = await self._connect()
        except OSError as exc:
            why = "connection refused" if nobody_listening(exc) else str(exc)
            return WatchOutcome(None, None, error=f"cannot connect to {self.host}:{self.port}: "
                                f"{why}", error_code=OutcomeError.CONNECT_FAILED)
        link = Link(stream, self.config.timeouts)
        error: tuple[str, str] | None = None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            try:
                error = await self._handshake(link)
                if error is None:
                    nursery.start_soon(_pinger, link)
                    await self._read_loop(link)
            finally:
                link.finish()
                nursery.cancel_scope.cancel()
        with trio.CancelScope(shield=True):
            await stream.aclose()
        if self.log is not None:
            self.log.close()
        if error is not None:
            return WatchOutcome(None, None, error=error[0], error_code=error[1],
                                stopped=error[0])
        stopped = self.stopped or "the host closed the connection"
        obs = self.observer
        if obs is None:
            verdict = Verdict(INCOMPLETE, "unfinished", "the game had not started when the "
                              "watching stopped")
            return WatchOutcome(verdict, None, stopped=stopped)
        already = obs.verdict
        verdict = obs.end()
        if already is None:
            self.on_event(verdict)
        return WatchOutcome(verdict, self.log.path if self.log else None, obs.entries,
                            stopped=stopped)

    async def _connect(self) -> trio.abc.Stream:
        deadline = trio.current_time() + max(self.config.connect_retry,
                                             self.config.transport.connect_patience)
        while True:
            try:
                return await self.config.transport.connect(self.host, self.port)
            except OSError:
                if trio.current_time() >= deadline:
                    raise
                await trio.sleep(0.05)

    async def _handshake(self, link: Link) -> tuple[str, str] | None:
        """None once admitted, else (sentence, error code)."""
        try:
            with trio.fail_after(self.config.timeouts.handshake):
                _, greeting = await link.receive()
                if greeting.get("t") != "host":
                    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "expected the host's greeting")
                versions = [v for v in get_field(greeting, "versions", "list", max_len=64)
                            if isinstance(v, int) and not isinstance(v, bool)]
                common = set(versions) & set(SUPPORTED_VERSIONS)
                if not common:
                    raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"host speaks {versions}")
                self.host_key = get_field(greeting, "key", "bytes", size=32)
                self.players = greeting_players(greeting)  # as a joining peer checks it
                self._greeting(greeting)
                link.send_msg(watch_message(self.config.name, max(common)))
                _, answer = await link.receive()
                self.spectator_id, self.backlog = check_watching(answer)
                limits = watching_limits(answer)
                self.limits = Limits(*limits) if limits is not None else None
                self._told_used = Watching.from_wire(answer).used
        except LinkClosed as exc:
            if exc.error is not None:
                # Our sentence for its code, then the host's own words, quoted and cut
                # short: a hostile host's text never reads as this program's.
                code = exc.error.get("code")
                return refusal_words(code, clean_text(exc.error.get("msg"))), code_name(code)
            return "the host closed the connection", OutcomeError.CONNECTION_CLOSED
        except ProtocolError as exc:
            await link.fail(exc.error_code, exc.detail)
            return f"handshake failed: {exc}", exc.error_code.name.lower()
        except trio.TooSlowError:
            await link.fail(ErrorCode.HANDSHAKE_TIMEOUT)
            return "the handshake did not complete in time", OutcomeError.HANDSHAKE_FAILED
        return None

    def _greeting(self, greeting: dict[str, Any]) -> None:
        """What the host's greeting says of the table, for the lobby: its name (its
        proof of possession is a seat's business: the genesis, signed by this key,
        settles who sits where) and the rules (shown; the genesis is what is checked)."""
        try:
            self.host_name = display_name(greeting.get("name"))
        except ProtocolError:
            self.host_name = "host"
        rules = greeting.get("rules")
        try:
            self.rules = Ruleset.from_dict(rules) if isinstance(rules, dict) else None
        except (ValueError, TypeError):
            self.rules = None
        if self.rules is not None and greeting.get("rules_hash") != self.rules.digest():
            self.rules = None  # rules that are not the ones announced are not shown

    async def _read_loop(self, link: Link) -> None:
        # Who else is watching, shown at most once a window however often a host says
        # it (PROTOCOL.md 18): the last list still arrives when the window ends.
        watching = SpectatorAnnouncer(self.config.timeouts.announce)
        while True:
            try:
                due = watching.due
                with trio.move_on_at(due if due is not None else math.inf):
                    body, msg = await link.receive()  # cancelled only between reads
                    due = None
                if due is not None:
                    news = watching.tick(trio.current_time())
                    if news.names is not None:
                        self.on_event(Spectators(news.names, self._spectator_limit))
                    continue
            except trio.TooSlowError:
                self.stopped = "the host fell silent (no message within the idle timeout)"
                return
            except LinkClosed as exc:
                said = exc.error.get("msg") if exc.error is not None else None
                self.stopped = "the host closed the connection" + (
                    f": {safe_text(said, 200)}" if isinstance(said, str) and said else "")
                return
            except ProtocolError as exc:
                await self._give_up(link, exc, "a message that does not check out")
                return
            t = msg["t"]
            if t == "ping":
                link.send_msg({"t": "pong"})
            elif t == "sig":
                try:
                    self._on_entry(body)
                except ProtocolError as exc:
                    await self._give_up(link, exc, "more than a game holds")
                    return
            elif t == "lobby":
                lobby = self.lobby(msg)
                if lobby is not None:
                    self.on_event(lobby)
            elif t == "spectators":
                names = spectator_names(msg)
                if names is not None:
                    self._spectator_limit = names[1]
                    news = watching.changed(names[0], trio.current_time())
                    if news.names is not None:
                        self.on_event(Spectators(news.names, names[1]))
            elif t == "wait":  # read as a seat reads them: a seat of the table, bounded
                wait = parse_wait(msg, self._seats())
                if wait is not None:
                    away_seat, secs = wait
                    if self.limits is not None:  # never past the table's allowance
                        secs = min(secs, math.ceil(self.limits.allowance))
                    self.on_event(Waiting(away_seat, secs, msg.get("away") is True))
                    if self.clock is not None:
                        self.clock.reported_away(away_seat, secs, trio.current_time())
                        self._clock_changed()
            elif t == "back":
                seat = parse_back(msg, self._seats())
                if seat is not None:
                    self.on_event(Resumed(seat))
                    if self.clock is not None:
                        self.clock.back(seat, trio.current_time())
                        self._clock_changed()
            elif t == "chat":
                chat = parse_chat(msg, self._seats(), clean_chat)
                if chat is not None:
                    self.on_event(Chat(*chat))
            # Anything else (pong, types added by later versions) is ignored.

    async def _give_up(self, link: Link, exc: ProtocolError, what: str) -> None:
        """The host sent ``what``: say so, and close with the code."""
        self.stopped = (f"the host sent {what} ({exc.error_code.name.lower()}: "
                        f"{safe_text(exc.detail, 200)}); the connection was closed")
        await link.fail(exc.error_code, exc.detail)

    def lobby(self, msg: dict[str, Any]) -> Lobby | None:
        """The :class:`Lobby` event of a host's ``lobby`` (None if it does not check
        out), as a seat sees it: names safe and distinct, who is ready, and the terms
        (the rules of the greeting, the clocks of ``watching``, the spectators' places)."""
        if self.observer is not None:
            return None  # the seats are in the genesis now
        host = (self.host_key, self.host_name) if self.host_key is not None else None
        lobby = lobby_event(msg, (), host)
        if lobby is None:
            return None
        if lobby.spectators is not None:
            self._spectator_limit = lobby.spectators
        return dataclasses.replace(lobby, shuffle_proofs=None, limits=self.limits,
                                   rules=self.rules)

    def _seats(self) -> int:
        obs = self.observer
        return obs.table.players if obs is not None and obs.table is not None else self.players

    def _on_entry(self, body: bytes) -> None:
        self._logged += 4 + len(body)
        if self._logged > wire.MAX_TRANSCRIPT:
            # Far beyond any match (PROTOCOL.md 2.1): what is logged stays replayable.
            raise ProtocolError(ErrorCode.TRANSCRIPT_TOO_LONG,
                                f"the transcript is over {wire.MAX_TRANSCRIPT} bytes")
        if self.observer is None:
            self.observer = Observer(host_key=self.host_key)
            events = self.observer.feed(body)
            table = self.observer.table
            if table is not None:
                self.log = TranscriptWriter(self.config.log_path or default_log_path("watch"))
                self.log.write_header(game=table.game, seat=None, key=None,
                                      name=self.config.name, host=f"{self.host}:{self.port}")
                self.log.append(body)
            self._emit(events)
            return
        if self.log is not None:
            self.log.append(body)
        self._emit(self.observer.feed(body))
        self._clock_changed()

    def _clock_changed(self) -> None:
        """The floor may have moved, or a seat dropped or came back: move our copy of the
        clocks and report them (:class:`~chkobba_p2p.transcript.liveness.ClockReading`), as a seat's
        peer does, so that a spectator's countdowns are the players'."""
        obs = self.observer
        s = obs.session if obs is not None else None
        if self.limits is None or s is None or obs is None or obs.table is None:
            return
        now = trio.current_time()
        if self.clock is None:
            self.clock = Clocks(obs.table.players, self.limits, now)
            if self._told_used is not None:  # for the move at the length watching gave
                self.clock.told_move_used(self.backlog, self._told_used, now)
        if self.clock.moved(None if s.finished else s.floor, now, move=s.length):
            self.on_event(ClockReading(self.clock.read(now), self.clock.limits))


async def _pinger(link: Link) -> None:
    ping = wire.encode({"t": "ping"})
    while not link.closed:
        await trio.sleep(link.timeouts.idle / 3)
        link.send(ping)


async def watch_match(config: WatchConfig,
                      on_event: Callable[[object], None] | None = None) -> WatchOutcome:
    """Watch the table at ``config.address`` until the game ends or the host closes."""
    return await Spectator(config, on_event).run()
