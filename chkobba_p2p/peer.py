"""The public high-level API: host a table or join one, with a controller for your seat.

A client (the CLI, the terminal UI, a bot, the example in ``examples/``) implements
:class:`SeatController` and calls :func:`host_match` or :func:`join_match` inside trio::

    outcome = trio.run(join_match, "192.168.1.20:7777", BotController("greedy"))
    print(outcome.log_path, outcome.done)

Everything else -- the handshake, checking every entry against the rules and the deal,
relaying, reconnecting, the log -- happens underneath (:mod:`chkobba_p2p.net`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from .address import DEFAULT_PORT, Address
from .bots import make_bot
from .rules import Hand, Move, Ruleset
from .session import Aborted, MatchDone, TableInfo
from .text import safe_text
from .wire import Identity, fingerprint

__all__ = [
    "SeatController",
    "BotController",
    "Timeouts",
    "HostConfig",
    "JoinConfig",
    "Outcome",
    "OutcomeError",
    "Waiting",
    "Resumed",
    "ChoiceRefused",
    "Lobby",
    "Listening",
    "Chat",
    "MAX_CHAT",
    "clean_chat",
    "host_match",
    "join_match",
    "parse_address",
    "DEFAULT_PORT",
]


#: Longest chat line, in Unicode code points (after stripping).
MAX_CHAT = 200


def clean_chat(text: object) -> str | None:
    """A chat line as it may travel: ``text`` stripped, 1 to :data:`MAX_CHAT` code
    points, all printable (no control characters or line breaks); None otherwise."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHAT or not text.isprintable():
        return None
    return text


class SeatController:
    """Plays one seat.  Subclass and override the ``choose_*`` coroutines; ``on_event``
    receives everything that happens (rules-engine events such as ``rules.PlayEvent``,
    ``session.HandScored``, :class:`Waiting`, :class:`Lobby`, :class:`MatchDone`,
    :class:`Aborted`...), for display."""

    async def choose_play(self, hand: Hand) -> Move:
        """Return one of ``hand.legal_moves()``; ``hand`` is this seat's view."""
        raise NotImplementedError

    async def choose_cut(self, hand: Hand) -> bool:
        """As cutter, the drawn card is in ``hand.hand_of(hand.cutter)``: True keeps it."""
        raise NotImplementedError

    #: Set by the running peer (host or joining): sends one chat line.
    _chat_sink: Callable[[str], bool] | None = None

    def on_event(self, event: object) -> None:
        """Called for every event; the default ignores them."""

    def send_chat(self, text: str) -> bool:
        """Send a chat line to the table (call it from the peer's trio thread, e.g. via
        ``TrioToken.run_sync_soon``).  Chat is unsigned and display-only: the host relays
        it and could alter it; it is not in the log.  Returns True when it was sent (it
        is also reported to :meth:`on_event` as :class:`Chat` with this seat); False
        when no game connection is up yet, ``text`` is not a valid line
        (:func:`clean_chat`) or more than 5 lines went in the last 10 s."""
        sink = self._chat_sink
        return sink(text) if sink is not None else False


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


@dataclass(frozen=True)
class Timeouts:
    """Seconds.  ``handshake``: to complete the handshake; ``frame``: to finish a frame
    once its first byte arrived (slow loris); ``idle``: with no frame at all (pings go
    every ``idle / 3``); ``reconnect``: for a dropped seat to come back; ``turn``: for
    the seat holding the floor to speak."""

    handshake: float = 10.0
    frame: float = 10.0
    idle: float = 30.0
    reconnect: float = 60.0
    turn: float = 900.0


@dataclass
class HostConfig:
    players: int = 2
    rules: Ruleset = field(default_factory=Ruleset)
    port: int = DEFAULT_PORT
    bind: str = "0.0.0.0"
    name: str = "host"
    identity: Identity | None = None
    log_path: Path | None = None
    beacon: bool = True
    beacon_port: int = 0  # 0: the default LAN port
    #: Every shuffle step carries a zero-knowledge proof (a table capability).
    shuffle_proofs: bool = True
    timeouts: Timeouts = field(default_factory=Timeouts)
    #: Where to keep the resume state (with a persistent identity and a fixed port, a
    #: crashed host restarts its game); None: no crash resume.
    state_path: Path | None = None
    #: When the peer is cancelled (the user pressed Ctrl-C) during a game, sign an
    #: ``abort`` (``peer_left``, blaming this seat) and send it before closing, so the
    #: others learn it at once.  Off by default: a cancelled peer may mean to resume.
    leave_on_cancel: bool = False


@dataclass
class JoinConfig:
    address: str
    name: str = "guest"
    identity: Identity | None = None
    #: Where to keep the resume state (identity-specific); None: no crash resume.
    state_path: Path | None = None
    log_path: Path | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    #: Seconds to keep retrying the first connection while it is refused (a bot started
    #: together with its host); 0: fail at once.
    connect_retry: float = 0.0
    #: See :attr:`HostConfig.leave_on_cancel`.
    leave_on_cancel: bool = False


@dataclass(frozen=True)
class Waiting:
    """A seat dropped; the game waits ``seconds`` more for it to reconnect."""

    seat: int
    seconds: int


@dataclass(frozen=True)
class ChoiceRefused:
    """The controller's choice broke a rule (``reason``); it is asked again."""

    reason: str


@dataclass(frozen=True)
class Chat:
    """A chat line from ``seat`` (this seat's own lines too).  Unsigned: the host sets
    ``seat`` from the connection and could alter the text; display only."""

    seat: int
    text: str


@dataclass(frozen=True)
class Resumed:
    """A seat that had dropped is back (``seat``), or this peer resumed (``entries``
    replayed from its log)."""

    seat: int
    entries: int = 0


class Listening:
    """The host is listening on ``port``; ``key`` is its identity (for fingerprints)."""

    def __init__(self, port: int, key: bytes) -> None:
        self.port = port
        self.key = key

    def __repr__(self) -> str:
        return f"Listening(port={self.port}, key={fingerprint(self.key)})"


@dataclass(frozen=True)
class Lobby:
    """Seats filling before the game starts: (name, fingerprint) or None per seat.  A
    joining peer's names come from the host: made safe to display
    (:func:`~chkobba_p2p.text.safe_text`) and distinct.  ``shuffle_proofs``: whether the
    table's shuffles will carry zero-knowledge proofs (False: the host turned them off;
    a stacked deck is then caught only by the end-of-hand audit); None if unknown."""

    seats: tuple[tuple[str, str] | None, ...]
    shuffle_proofs: bool | None = None


class OutcomeError(enum.StrEnum):
    """Why a peer got no game, or how its game ended early (:attr:`Outcome.error_code`).
    A refusal by the host carries the wire code's name instead (``table_full``,
    ``version_mismatch``, ``already_seated``...: :class:`~chkobba_p2p.wire.ErrorCode`)."""

    CONNECT_FAILED = "connect_failed"  # the host could not be reached
    CONNECTION_CLOSED = "connection_closed"  # closed during the handshake, no reason given
    HANDSHAKE_FAILED = "handshake_failed"  # the host's messages did not check out
    HOST_CHANGED = "host_changed"  # the host's identity key changed on a reconnection
    BAD_GENESIS = "bad_genesis"  # the host's genesis entry did not check out
    ABORTED = "aborted"  # the game ended with an abort (see Outcome.aborted.code)


@dataclass
class Outcome:
    """How a match ended for this peer.  ``error`` is a sentence for people;
    ``error_code`` the same thing for programs: an :class:`OutcomeError` or the name of a
    wire :class:`~chkobba_p2p.wire.ErrorCode` the host refused us with (``table_full``);
    None when the match completed."""

    seat: int | None
    table: TableInfo | None
    log_path: Path | None
    done: MatchDone | None = None
    aborted: Aborted | None = None
    error: str | None = None
    error_code: str | None = None
    #: Bytes this peer sent and received on the wire (all its connections).
    bytes_sent: int = 0
    bytes_received: int = 0

    @property
    def completed(self) -> bool:
        return self.done is not None

    def describe(self) -> str:
        if self.done is not None:
            d = self.done
            return (f"match over after {d.hands} hands: side {d.winner_side} wins "
                    f"{'-'.join(map(str, d.totals))}")
        if self.aborted is not None:
            a = self.aborted
            who = "nobody" if a.blamed_seat is None else f"seat {a.blamed_seat}"
            # ``detail`` is the aborting peer's own words: shown, never obeyed.
            return (f"game aborted by seat {a.by_seat}: {a.code.name.lower()} "
                    f"({a.code.sentence}), blaming {who}: {safe_text(a.detail, 1000)}")
        return f"no game: {safe_text(self.error or 'unknown error', 1000)}"


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port``, ``[v6]:port`` or a bare IPv6 address into (host, port);
    :class:`~chkobba_p2p.address.AddressError` (a ``ValueError``) if it is none of these.
    See :class:`~chkobba_p2p.address.Address`."""
    address = Address.parse(text, default_port)
    return address.host, address.port


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
