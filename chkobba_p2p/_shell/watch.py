"""Watch a table as a spectator (``chkobba watch HOST[:PORT]``).

A spectator connects to the host, asks to watch (PROTOCOL.md 18), receives the
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

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from ..errors import Facts
from ..link import messages as lm
from ..link.events import OutcomeError
from ..link.seat import Close, Effect, Emit, Send
from ..link.spectator import LogEntry, NoWatch, SpectatorCore
from ..observe.observer import Observer
from ..observe.verdict import Verdict
from ..transcript.clocks import Clocks, Limits
from ..wire import codec as wire
from ..wire.codec import ErrorCode, ProtocolError
from ..wire.logfile import TranscriptWriter, default_log_path
from .config import Timeouts, parse_address
from .events import TableEvent
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
    the host refused or could not be reached: then ``error_code``, ``error_reason`` and
    ``error_data`` say why, as :class:`~chkobba_p2p.Outcome` does, for a client to word),
    the log copy's path (None if no entry arrived) and how many entries it holds;
    ``stop_reason``: why the watching stopped once admitted, one of
    :data:`~chkobba_p2p.link.events.STOP_REASONS` (the host closed the connection, sent a
    message that does not check out, fell silent...), with ``stop_data`` for a client to
    word; None when it never started."""

    verdict: Verdict | None
    log_path: Path | None
    entries: int = 0
    error_code: str | None = None
    stop_reason: str | None = None
    error_reason: str | None = None
    error_data: dict[str, str | int | float | Facts] = field(default_factory=dict)
    stop_data: dict[str, str | Facts] = field(default_factory=dict)


class Spectator:
    """One spectator's connection: the bytes, the deadlines and the log file around a
    :class:`~chkobba_p2p.link.spectator.SpectatorCore`, which decides.  ``on_event``
    gets, in order, every event the observer yields (see
    :mod:`chkobba_p2p.observe.observer`) and the table's unsigned news
    (:class:`~chkobba_p2p.link.events.Lobby`, :class:`~chkobba_p2p.link.events.Spectators`,
    :class:`~chkobba_p2p.link.events.Chat`, :class:`~chkobba_p2p.link.events.Waiting`,
    :class:`~chkobba_p2p.link.events.Resumed`)."""

    def __init__(self, config: WatchConfig,
                 on_event: Callable[[TableEvent], None] | None = None) -> None:
        self.config = config
        self.on_event = on_event or (lambda event: None)
        self.host, self.port = parse_address(config.address)
        self.core = SpectatorCore(config.name, config.timeouts.announce)
        self.log: TranscriptWriter | None = None

    @property
    def observer(self) -> Observer | None:
        return self.core.observer

    @property
    def limits(self) -> Limits | None:
        """The table's clocks as the host announced them (``watching``), or None."""
        return self.core.limits

    @property
    def clock(self) -> Clocks | None:
        """Our copy of the table's clocks, once the game runs (shown, never enforced)."""
        return self.core.clock

    @property
    def stop_reason(self) -> str | None:
        """Why the watching stopped, once it did (:attr:`WatchOutcome.stop_reason`)."""
        return self.core.stop_reason

    @property
    def backlog(self) -> int:
        """How many entries the host had when it admitted us (they come at once)."""
        return self.core.backlog

    @property
    def catching_up(self) -> bool:
        """Still reading the entries the host had when it admitted us: a screen shows
        them at once (:attr:`~chkobba_p2p.link.spectator.SpectatorCore.catching_up`)."""
        return self.core.catching_up

    async def run(self) -> WatchOutcome:
        try:
            stream = await self._connect()
        except OSError as exc:
            refused = nobody_listening(exc)
            where = f"{self.host}:{self.port}"
            return WatchOutcome(None, None, error_code=OutcomeError.CONNECT_FAILED,
                                error_reason="connect_refused" if refused else "connect_failed",
                                error_data={"where": where, "why": str(exc)})
        link = Link(stream, self.config.timeouts)
        error: NoWatch | None = None
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
            return WatchOutcome(None, None, error_code=error.code, error_reason=error.reason,
                                error_data=error.data)
        # The stream's end with no word from the core: the host closed it.
        reason, data = self.core.stop_reason or "host_closed", dict(self.core.stop_data)
        verdict = self.core.end()
        await self._apply(link)
        obs = self.core.observer
        if obs is None:
            return WatchOutcome(verdict, None, stop_reason=reason, stop_data=data)
        return WatchOutcome(verdict, self.log.path if self.log else None, obs.entries,
                            stop_reason=reason, stop_data=data)

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

    async def _handshake(self, link: Link) -> NoWatch | None:
        """None once admitted, else why not."""
        core = self.core
        try:
            with trio.fail_after(self.config.timeouts.handshake):
                _, greeting = await link.receive()
                link.send_msg(core.greeting(greeting))
                _, answer = await link.receive()
                core.admitted(answer)
        except LinkClosed as exc:
            return core.refused(exc.error)
        except ProtocolError as exc:
            await link.fail(exc.error_code, exc.detail)
            return core.handshake_failed(exc)
        except trio.TooSlowError:
            await link.fail(ErrorCode.HANDSHAKE_TIMEOUT)
            return core.handshake_failed(None)
        return None

    async def _read_loop(self, link: Link) -> None:
        core = self.core
        while True:
            try:
                due = core.next_wake
                with trio.move_on_at(due if due is not None else math.inf):
                    _, msg = await link.receive()  # cancelled only between reads
                    due = None
                if due is not None:
                    core.tick(trio.current_time())
                    await self._apply(link)
                    continue
            except trio.TooSlowError:
                core.silent()
                return
            except LinkClosed as exc:
                core.closed(exc.error, trio.current_time())
                return
            except ProtocolError as exc:
                core.bad_frame(exc)
                await self._apply(link)
                return
            going_on = core.receive(msg, trio.current_time())
            await self._apply(link)
            if not going_on:
                return

    async def _apply(self, link: Link) -> None:
        """Carry out what the core decided, in order."""
        for effect in self.core.take():
            await self._effect(link, effect)

    async def _effect(self, link: Link, effect: Effect) -> None:
        if isinstance(effect, Emit):
            self.on_event(effect.event)
        elif isinstance(effect, Send):
            link.send(effect.body)
        elif isinstance(effect, LogEntry):
            if self.log is None:
                self.log = TranscriptWriter(self.config.log_path or default_log_path("watch"))
                self.log.write_header(game=effect.table.game, seat=None, key=None,
                                      name=self.config.name, host=f"{self.host}:{self.port}")
            self.log.append(effect.body)
        elif isinstance(effect, Close):
            await link.fail(effect.code or ErrorCode.PROTOCOL_VIOLATION, effect.detail)


async def _pinger(link: Link) -> None:
    ping = wire.encode(lm.Ping().to_wire())
    while not link.closed:
        await trio.sleep(link.timeouts.idle / 3)
        link.send(ping)


async def watch_match(config: WatchConfig,
                      on_event: Callable[[TableEvent], None] | None = None) -> WatchOutcome:
    """Watch the table at ``config.address`` until the game ends or the host closes."""
    return await Spectator(config, on_event).run()
