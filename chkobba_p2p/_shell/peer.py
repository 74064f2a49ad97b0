"""The public high-level API: host a table or join one, with a controller for your seat.

A client (the CLI, the terminal UI, a bot, the example in ``examples/``) implements
:class:`SeatController` and calls :func:`host_match` or :func:`join_match` inside trio::

    outcome = trio.run(join_match, "192.168.1.20:7777", BotController("greedy"))
    print(outcome.log_path, outcome.done)

Everything else -- the handshake, checking every entry against the rules and the deal,
relaying, reconnecting, the log -- happens underneath (:mod:`chkobba_p2p._shell.net`).  The
controller interface, the events and the configuration are defined below the transport
(:mod:`chkobba_p2p.link.events`, :mod:`chkobba_p2p._shell.config`) and re-exported here: import them
from this module.

So is everything else a client of a live table needs, whatever module defines it: the
session's game events (:class:`HandStarted`, :class:`HandScored`, :class:`MatchDone`...),
the table as a client draws it (:class:`TableState`, rebuilt from the events), identities
and their saved games (:func:`load_identity`, :func:`saved_game_path`), addresses and
join codes (:class:`Address`), this machine's reachable addresses, the players already
met (:class:`KnownPlayers`), and the wire's limits and error codes.  A client imports
them from here, never from the modules underneath, which may move.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from ..address import Address, AddressError, parse_port
from ..bots.levels import DEFAULT_EXPERT_MS, make_bot
from ..game.hand import Hand, Move
from ..link.events import (
    MAX_CHAT,
    Chat,
    ChoiceRefused,
    LeftLobby,
    Lobby,
    Notice,
    NoticeKind,
    Outcome,
    OutcomeError,
    ReadyLapsed,
    RematchAnswer,
    RematchOffered,
    Restored,
    Resumed,
    SeatController,
    Spectators,
    Waiting,
    clean_chat,
)
from ..link.handshake import check_name
from ..link.messages import MAX_LIMIT, MAX_SPECTATORS
from ..link.seat import MAX_HOLD
from ..transcript.clocks import ClockReading, Limits, SeatClock
from ..transcript.events import (
    Aborted,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    MatchOver,
    RedealEvent,
    Standing,
    TableReady,
)
from ..wire.codec import MAX_NAME, ErrorCode, Identity, fingerprint
from ..wire.logfile import (
    SavedGame,
    SeatBusy,
    SeatLock,
    data_dir,
    default_log_path,
    load_identity,
    saved_game_path,
)
from .config import (
    DEFAULT_PORT,
    HostConfig,
    JoinConfig,
    Timeouts,
    parse_address,
    parse_fingerprint,
    split_join_code,
)
from .events import (
    GameEvent,
    LinkEvent,
    Listening,
    ObserverEvent,
    ShellEvent,
    TableEvent,
    TorEvent,
    TranscriptEvent,
)
from .known import KnownPlayers, Recognition, config_dir
from .transport import (
    ListenError,
    TcpTransport,
    Transport,
    check_listen,
    global_ipv6,
    lan_address,
)

if TYPE_CHECKING:
    from ..tablestate import TableState
    from .discovery import Announced, AnsweredEndpoints, TableAd, browse_tables
    from .portmap import PortMapOptions, PortMapped, PortMapUnavailable

#: Names of this face imported on first use (PEP 562, :func:`__getattr__`): finding tables
#: on the LAN and mapping a port on the router are a host's or a browser's, the table as
#: a client draws it a client's, and a joiner or a bot peer never loads them (a peer's
#: memory, issue 44).
_DISCOVERY = frozenset({"Announced", "AnsweredEndpoints", "TableAd", "browse_tables"})
_PORTMAP = frozenset({"PortMapOptions", "PortMapped", "PortMapUnavailable"})
#: A client's drawing of the table, which a bot never draws.
_TABLESTATE = frozenset({"TableState"})


def __getattr__(name: str) -> Any:
    module: Any
    if name in _DISCOVERY:
        from . import discovery as module
    elif name in _PORTMAP:
        from . import portmap as module
    elif name in _TABLESTATE:
        from .. import tablestate as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value

__all__ = [
    "MAX_LIMIT",
    "SavedGame",
    "SeatController",
    "BotController",
    "Timeouts",
    "HostConfig",
    "JoinConfig",
    "Transport",
    "TcpTransport",
    "Outcome",
    "OutcomeError",
    "Waiting",
    "ClockReading",
    "SeatClock",
    "Limits",
    "Aborted",
    "Standing",
    "Resumed",
    "Restored",
    "RematchAnswer",
    "RematchOffered",
    "SeatLock",
    "SeatBusy",
    "ChoiceRefused",
    "Lobby",
    "LeftLobby",
    "ReadyLapsed",
    "Spectators",
    "Listening",
    "TableEvent",
    "GameEvent",
    "TranscriptEvent",
    "LinkEvent",
    "ShellEvent",
    "TorEvent",
    "ObserverEvent",
    "Chat",
    "Notice",
    "NoticeKind",
    "MAX_CHAT",
    "clean_chat",
    "host_match",
    "join_match",
    "parse_address",
    "DEFAULT_PORT",
    "PortMapOptions",
    "PortMapped",
    "PortMapUnavailable",
    "Announced",
    "TableAd",
    "browse_tables",
    "AnsweredEndpoints",
    "parse_fingerprint",
    "split_join_code",
    "Joiner",
    # The session's game events, in the order a match sends them.
    "TableReady",
    "FirstDealerDrawn",
    "HandStarted",
    "RedealEvent",
    "HandScored",
    "MatchOver",
    "MatchDone",
    # The table as a client draws it, rebuilt from the events.
    "TableState",
    # Identities, their logs and saved games; the players already met.
    "Identity",
    "fingerprint",
    "load_identity",
    "data_dir",
    "default_log_path",
    "saved_game_path",
    "KnownPlayers",
    "Recognition",
    "config_dir",
    # Addresses: parsing them, checking a host can listen, this machine's own.
    "Address",
    "AddressError",
    "parse_port",
    "ListenError",
    "check_listen",
    "lan_address",
    "global_ipv6",
    # The wire's limits and error codes (an abort's code, a refusal's); a display name
    # checked as the peers check it.
    "MAX_NAME",
    "check_name",
    "MAX_SPECTATORS",
    "ErrorCode",
]


#: What a bot's answer may take beyond its thinking (the worker thread, a loaded machine),
#: in seconds.
BOT_ANSWER_MARGIN = 0.25


class BotController(SeatController):
    """A seat played by one of :mod:`chkobba_p2p.bots.simple`' levels."""

    def __init__(self, level: str = "greedy", seed: int | None = None,
                 move_ms: float | None = None) -> None:
        self.bot = make_bot(level, seed, move_ms=move_ms)
        # A bot answers at once, or within its thinking budget: its deal messages may
        # wait that long for its choice, to travel with it (SeatController.answers_within;
        # the core caps the wait, and a search longer than the cap is not waited for).
        budget = (DEFAULT_EXPERT_MS if move_ms is None else move_ms) / 1000 \
            if level == "expert" else 0.0
        self.answers_within: float | None = \
            budget + BOT_ANSWER_MARGIN if budget + BOT_ANSWER_MARGIN <= MAX_HOLD else None

    # A search bot thinks for up to its time budget: in a worker thread, the peer's event
    # loop keeps answering pings and relaying meanwhile (hands are immutable, so sharing
    # one with the thread is safe).
    async def choose_play(self, hand: Hand) -> Move:
        return await trio.to_thread.run_sync(self.bot.choose_play, hand)

    async def choose_cut(self, hand: Hand) -> bool:
        return await trio.to_thread.run_sync(self.bot.choose_cut, hand)

    def see_match(self, totals: tuple[int, ...], target: int) -> None:
        """The match totals and target before each hand, for a bot that plays for the
        match (:class:`~chkobba_p2p.bots.simple.MatchAware`: the expert); other levels ignore
        them.  Called between choices, never while the bot thinks in its thread."""
        see = getattr(self.bot, "see_match", None)
        if see is not None:
            see(totals, target)


async def host_match(config: HostConfig, controller: SeatController, *,
                     task_status: trio.TaskStatus[int] | None = None) -> Outcome:
    """Host a table and play seat 0 until the match ends.  With trio's
    ``nursery.start``, ``task_status.started(port)`` reports the port listened on."""
    from .hostpeer import HostPeer

    return await HostPeer(config, controller).run(task_status)


async def join_match(config: JoinConfig | str, controller: SeatController) -> Outcome:
    """Join the table at ``config.address`` and play the seat given until the end."""
    return await Joiner(config, controller).run()


class Joiner:
    """A seat about to join a table: :func:`join_match` in two steps, for a client that
    shows where the log goes before it connects.

    Made, it has already looked for a saved game of this identity at this table
    (``config.state_path``): when there is one, the game resumes and :attr:`log_path` is
    that game's log, not ``config.log_path``.
    """

    def __init__(self, config: JoinConfig | str, controller: SeatController) -> None:
        from .net import ClientPeer

        if isinstance(config, str):
            config = JoinConfig(config)
        self._peer = ClientPeer(config, controller)

    @property
    def log_path(self) -> Path:
        """The transcript this seat writes (a resumed game's own log, if it resumes)."""
        return self._peer.log.path

    async def run(self) -> Outcome:
        """Connect, play the seat until the match ends (or stops), and say how."""
        return await self._peer.run()
