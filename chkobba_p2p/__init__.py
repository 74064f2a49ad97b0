"""chkobba-p2p: Chkobba played peer to peer, with a deal nobody controls and signed logs.

This module is the face for playing at a table: host, join or watch a match, the
controller a seat answers, the events it is told, the configuration, identities,
addresses, transports, and :class:`Observer` (a game checked from no seat, exactly as the
players check it).  Its names are imported on first use, so that ``import chkobba_p2p``
stays cheap for the command line.

The library is a house with one folder per layer, lowest first (``docs/architecture.md``):
``game`` (the rules model), ``wire`` (bytes and values), ``deal`` (the mental-poker
deal), ``bots``, ``transcript`` (the signed game), ``observe`` (a game from no seat),
``link`` (the link protocol's cores), ``_shell`` (the only folder that imports trio,
sockets or zeroconf; private).  Beside this face, :mod:`chkobba_p2p.lowlevel` is the
face for protocol implementers (the sans-IO machines, the link messages, the wire codec,
the log file) and :mod:`chkobba_p2p.testing` the kit for tests.  The public modules are
named once: :data:`PUBLIC_MODULES`.

The library never prints: what a person should see reaches the seat's controller as an
event (:class:`Notice` among them); developers' diagnostics go to :mod:`logging`, under
the ``chkobba_p2p`` logger, which is silent (a ``NullHandler``) until the application
configures logging.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from ._shell.peer import (
        DEFAULT_PORT,
        MAX_CHAT,
        MAX_LIMIT,
        MAX_NAME,
        MAX_SPECTATORS,
        Aborted,
        Address,
        AddressError,
        Announced,
        AnsweredEndpoints,
        BotController,
        Chat,
        ChoiceRefused,
        ClockReading,
        ErrorCode,
        FirstDealerDrawn,
        GameEvent,
        HandScored,
        HandStarted,
        HostConfig,
        Identity,
        JoinConfig,
        Joiner,
        KnownPlayers,
        LeftLobby,
        Limits,
        LinkEvent,
        ListenError,
        Listening,
        Lobby,
        MatchDone,
        MatchOver,
        Notice,
        NoticeKind,
        ObserverEvent,
        Outcome,
        OutcomeError,
        PortMapOptions,
        PortMapped,
        PortMapUnavailable,
        ReadyLapsed,
        Recognition,
        RedealEvent,
        RematchAnswer,
        RematchOffered,
        Restored,
        Resumed,
        SavedGame,
        SeatBusy,
        SeatClock,
        SeatController,
        SeatLock,
        ShellEvent,
        Spectators,
        Standing,
        TableAd,
        TableEvent,
        TableReady,
        TableState,
        TcpTransport,
        Timeouts,
        TorEvent,
        TranscriptEvent,
        Transport,
        Waiting,
        browse_tables,
        check_listen,
        check_name,
        clean_chat,
        config_dir,
        data_dir,
        default_log_path,
        fingerprint,
        global_ipv6,
        host_match,
        join_match,
        lan_address,
        load_identity,
        parse_address,
        parse_fingerprint,
        parse_port,
        saved_game_path,
        split_join_code,
    )
    from ._shell.tor import (
        TOR_BOOTSTRAP_TIMEOUT,
        TOR_HANDSHAKE,
        TOR_INSTALL_HINT,
        OnionPublished,
        SocksError,
        SocksFailed,
        Tor,
        TorBootstrap,
        TorError,
        TorFailed,
        TorFailure,
        TorStarting,
        TorTransport,
        TorUnavailable,
        is_onion,
        load_onion_key,
        new_onion_key,
        onion_address,
        over_tor,
    )
    from ._shell.transport import (
        nobody_listening,
    )
    from ._shell.watch import (
        Spectator,
        WatchConfig,
        WatchOutcome,
        watch_match,
    )
    from .observe.observer import Observer

__all__ = [
    "MAX_LIMIT", "SavedGame", "SeatController", "BotController", "Timeouts", "HostConfig",
    "JoinConfig", "Transport", "TcpTransport", "Outcome", "OutcomeError", "Waiting",
    "ClockReading", "SeatClock", "Limits", "Aborted", "Standing", "Resumed", "Restored",
    "RematchAnswer", "RematchOffered", "SeatLock", "SeatBusy", "ChoiceRefused", "Lobby",
    "LeftLobby", "ReadyLapsed", "Spectators", "Listening", "TableEvent", "GameEvent",
    "TranscriptEvent", "LinkEvent", "ShellEvent", "TorEvent", "ObserverEvent", "Chat",
    "Notice", "NoticeKind", "MAX_CHAT", "clean_chat",
    "host_match", "join_match", "parse_address", "DEFAULT_PORT", "PortMapOptions",
    "PortMapped", "PortMapUnavailable", "Announced", "TableAd", "browse_tables",
    "AnsweredEndpoints",
    "parse_fingerprint", "split_join_code", "Joiner", "TableReady", "FirstDealerDrawn",
    "HandStarted", "RedealEvent", "HandScored", "MatchOver", "MatchDone", "TableState",
    "Identity", "fingerprint", "load_identity", "data_dir", "default_log_path",
    "saved_game_path", "KnownPlayers", "Recognition", "config_dir", "Address", "AddressError",
    "parse_port", "ListenError", "check_listen", "lan_address", "global_ipv6", "MAX_NAME",
    "check_name",
    "MAX_SPECTATORS", "ErrorCode", "WatchConfig", "WatchOutcome", "Spectator", "watch_match",
    "Tor", "TorTransport", "TorError", "TorUnavailable", "TOR_INSTALL_HINT", "new_onion_key",
    "onion_address", "is_onion", "load_onion_key", "SocksError", "over_tor", "TOR_HANDSHAKE",
    "TOR_BOOTSTRAP_TIMEOUT", "TorFailure", "TorBootstrap", "TorStarting", "TorFailed",
    "OnionPublished", "SocksFailed",
    "nobody_listening", "Observer", "PUBLIC_MODULES", "__version__",
]

#: The library's public modules and sub-packages (under ``chkobba_p2p.``), the one
#: list: the faces (this package, ``lowlevel`` for protocol implementers, ``testing``);
#: the errors, safe text, addresses; a seat's picture of the table and a log's pictures
#: (tablestate, timeline); the rules model (``game``), the bots (``bots``) and what sees
#: a game from no seat (``observe``: observer, audit, review, luck, history, rating).  The
#: folders ``wire``, ``deal``, ``transcript``, ``link`` are reached through ``lowlevel``,
#: ``_shell`` through this face.  ``tests/test_import_graph.py`` holds the client to it.
PUBLIC_MODULES: tuple[str, ...] = (
    "lowlevel", "testing", "errors", "text", "address", "tablestate", "timeline", "game",
    "bots", "observe",
)

# A library adds no handler of its own but this one: without it, Python's last-resort
# handler would write the library's warnings to stderr (that is, print).
logging.getLogger(__name__).addHandler(logging.NullHandler())

#: Where each name of the face is defined (a module of ``_shell``).
_HOMES: dict[str, frozenset[str]] = {
    "peer": frozenset({
        "MAX_LIMIT", "SavedGame", "SeatController", "BotController", "Timeouts", "HostConfig",
        "JoinConfig", "Transport", "TcpTransport", "Outcome", "OutcomeError", "Waiting",
        "ClockReading", "SeatClock", "Limits", "Aborted", "Standing", "Resumed", "Restored",
        "RematchAnswer", "RematchOffered", "SeatLock", "SeatBusy", "ChoiceRefused", "Lobby",
        "LeftLobby", "ReadyLapsed", "Spectators", "Listening", "TableEvent", "GameEvent",
        "TranscriptEvent", "LinkEvent", "ShellEvent", "TorEvent", "ObserverEvent", "Chat",
        "Notice", "NoticeKind", "MAX_CHAT", "clean_chat",
        "host_match", "join_match", "parse_address", "DEFAULT_PORT", "PortMapOptions",
        "PortMapped", "PortMapUnavailable", "Announced", "TableAd", "browse_tables",
        "AnsweredEndpoints",
        "parse_fingerprint", "split_join_code", "Joiner", "TableReady", "FirstDealerDrawn",
        "HandStarted", "RedealEvent", "HandScored", "MatchOver", "MatchDone", "TableState",
        "Identity", "fingerprint", "load_identity", "data_dir", "default_log_path",
        "saved_game_path", "KnownPlayers", "Recognition", "config_dir", "Address",
        "AddressError", "parse_port", "ListenError", "check_listen", "lan_address",
        "global_ipv6", "MAX_NAME", "MAX_SPECTATORS", "ErrorCode", "check_name",
    }),
    "watch": frozenset({
        "WatchConfig", "WatchOutcome", "Spectator", "watch_match",
    }),
    "tor": frozenset({
        "Tor", "TorTransport", "TorError", "TorUnavailable", "TOR_INSTALL_HINT",
        "new_onion_key", "onion_address", "is_onion", "load_onion_key", "SocksError",
        "over_tor", "TOR_HANDSHAKE", "TOR_BOOTSTRAP_TIMEOUT", "TorFailure", "TorBootstrap",
        "TorStarting", "TorFailed", "OnionPublished", "SocksFailed",
    }),
    "transport": frozenset({
        "nobody_listening",
    }),
}


def __getattr__(name: str) -> Any:
    # Imported on first use, and kept: ``import chkobba_p2p`` stays cheap for the command line.
    value: Any
    if name in _HOMES["peer"]:
        from ._shell import peer
        value = getattr(peer, name)
    elif name in _HOMES["watch"]:
        from ._shell import watch
        value = getattr(watch, name)
    elif name in _HOMES["tor"]:
        from ._shell import tor
        value = getattr(tor, name)
    elif name in _HOMES["transport"]:
        from ._shell import transport
        value = getattr(transport, name)
    elif name == "Observer":
        from .observe.observer import Observer
        value = Observer
    else:
        raise AttributeError(f"module 'chkobba_p2p' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
