"""The public high-level API: host a table or join one, with a controller for your seat.

A client (the CLI, the terminal UI, a bot, the example in ``examples/``) implements
:class:`SeatController` and calls :func:`host_match` or :func:`join_match` inside trio::

    outcome = trio.run(join_match, "192.168.1.20:7777", BotController("greedy"))
    print(outcome.log_path, outcome.done)

Everything else -- the handshake, checking every entry against the rules and the deal,
relaying, reconnecting, the log -- happens underneath (:mod:`chkobba_p2p.net`).  The
controller interface, the events and the configuration are defined below the transport
(:mod:`chkobba_p2p.events`, :mod:`chkobba_p2p.config`) and re-exported here: import them
from this module.
"""

from __future__ import annotations

import trio

from .config import (
    DEFAULT_PORT,
    HostConfig,
    JoinConfig,
    Timeouts,
    parse_address,
    parse_fingerprint,
    split_join_code,
)
from .discovery import Announced, TableAd, browse_tables
from .events import (
    MAX_CHAT,
    Chat,
    ChoiceRefused,
    Listening,
    Lobby,
    Outcome,
    OutcomeError,
    Restored,
    Resumed,
    SeatController,
    Spectators,
    Waiting,
    clean_chat,
)
from .levels import make_bot
from .liveness import ClockReading, Limits, SeatClock
from .portmap import PortMapOptions, PortMapped, PortMapUnavailable
from .rules import Hand, Move
from .session import Aborted, Standing
from .transcript import SeatBusy, SeatLock

__all__ = [
    "SeatController",
    "BotController",
    "Timeouts",
    "HostConfig",
    "JoinConfig",
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
    "SeatLock",
    "SeatBusy",
    "ChoiceRefused",
    "Lobby",
    "Spectators",
    "Listening",
    "Chat",
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
    "parse_fingerprint",
    "split_join_code",
]


class BotController(SeatController):
    """A seat played by one of :mod:`chkobba_p2p.bots`' levels."""

    def __init__(self, level: str = "greedy", seed: int | None = None,
                 move_ms: float | None = None) -> None:
        self.bot = make_bot(level, seed, move_ms=move_ms)

    # A search bot thinks for up to its time budget: in a worker thread, the peer's event
    # loop keeps answering pings and relaying meanwhile (hands are immutable, so sharing
    # one with the thread is safe).
    async def choose_play(self, hand: Hand) -> Move:
        return await trio.to_thread.run_sync(self.bot.choose_play, hand)

    async def choose_cut(self, hand: Hand) -> bool:
        return await trio.to_thread.run_sync(self.bot.choose_cut, hand)


async def host_match(config: HostConfig, controller: SeatController, *,
                     task_status=None) -> Outcome:
    """Host a table and play seat 0 until the match ends.  With trio's
    ``nursery.start``, ``task_status.started(port)`` reports the port listened on."""
    from .net import HostPeer

    return await HostPeer(config, controller).run(task_status)


async def join_match(config: JoinConfig | str, controller: SeatController) -> Outcome:
    """Join the table at ``config.address`` and play the seat given until the end."""
    from .net import ClientPeer

    if isinstance(config, str):
        config = JoinConfig(config)
    return await ClientPeer(config, controller).run()
