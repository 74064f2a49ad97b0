"""What a seat's controller is asked and told: the controller interface, the events the
peer reports besides the rules engine's and the session's, and the outcome of a match.

Shared by the transport (:mod:`chkobba_p2p._shell.net`) and the public API
(:mod:`chkobba_p2p._shell.peer`, which re-exports everything here); it sits below both so that
imports point down.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import CodedLocalError, Facts, IllegalMove, RemoteError
from ..game.hand import Hand, Move
from ..game.ruleset import Ruleset
from ..text import safe_text
from ..transcript.clocks import Limits
from ..transcript.events import Aborted, HandStarted, MatchDone
from ..transcript.table import TableInfo

if TYPE_CHECKING:  # the union names every layer's events, the shell's too
    from .._shell.events import TableEvent

__all__ = [
    "LinkEvent",
    "SeatController",
    "Outcome",
    "OutcomeError",
    "ERROR_REASONS",
    "STOP_REASONS",
    "Waiting",
    "Resumed",
    "Restored",
    "ChoiceRefused",
    "RematchAnswer",
    "RematchOffered",
    "Lobby",
    "LeftLobby",
    "ReadyLapsed",
    "Spectators",
    "Chat",
    "Notice",
    "NoticeKind",
    "MAX_CHAT",
    "clean_chat",
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


class LinkEvent:
    """The base of the link's events: the table's connections as a seat sees them (a seat
    away or back, the lobby, chat, spectators, the library's notices...).  Every one of
    them is in the face's ``TableEvent`` union."""

    __slots__ = ()


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

    def see_match(self, totals: tuple[int, ...], target: int) -> None:
        """The match so far, before this seat's first choice of each hand (and again after
        a resume): ``totals`` by side before the hand in progress (a side is a seat at 2
        and 3 players; at 4, side 0 is seats 0 and 2, side 1 seats 1 and 3) and the
        ``target``.  The totals are the ones this peer's own rules engine computed from
        the signed transcript, never a peer's claim.  The default ignores them;
        :class:`~chkobba_p2p._shell.peer.BotController` hands them to a bot that plays for the
        match (:class:`~chkobba_p2p.bots.simple.MatchAware`)."""

    async def ready_to_start(self, lobby: Lobby) -> None:
        """The table is full (``lobby``): return when this seat's person has checked the
        names and fingerprints and wants to start (the ready check, PROTOCOL.md 5.3).
        The default returns at once (a bot is ready at once).  Cancelled, and asked
        again, if the seating changes meanwhile (someone left, someone else sat)."""

    #: The longest this controller takes to answer a choice, in seconds, when that is
    #: known to be short (a bot that answers at once); None (the default): a person, who
    #: thinks as long as the clocks allow.  With a bound, the seat's turn that would
    #: carry only its deal messages waits that long for the choice (at most
    #: :data:`~chkobba_p2p.link.seat.MAX_HOLD`), so both travel in one turn: a round
    #: of the floor less per round of cards at a distance (PROTOCOL.md 6.2).  Never set
    #: it for a person: the others' cards would wait for its thinking.
    answers_within: float | None = None

    #: Set by the running peer (host or joining): sends one chat line.
    _chat_sink: Callable[[str], bool] | None = None
    #: Set by the running peer: resigns, and marks this seat as stepping away.
    _resign_sink: Callable[[], bool] | None = None
    _away_sink: Callable[[], bool] | None = None
    #: Set by a running host: frees a joiner's seat in the lobby.
    _free_sink: Callable[[int], bool] | None = None
    #: Set by a running host: tells the joiners its person wants a rematch.
    _offer_sink: Callable[[], bool] | None = None

    def attach(self, *, chat: Callable[[str], bool] | None = None,
               resign: Callable[[], bool] | None = None,
               away: Callable[[], bool] | None = None,
               free: Callable[[int], bool] | None = None,
               offer: Callable[[], bool] | None = None) -> None:
        """Called by the running peer (host or joining) that plays for this controller:
        what :meth:`send_chat`, :meth:`resign`, :meth:`step_away`, and at a host
        :meth:`free_seat` and :meth:`offer_rematch`, do from now on.  Each one given
        replaces the one before; one not given is left as it was.  A program that plays
        through the peers never calls it."""
        if chat is not None:
            self._chat_sink = chat
        if resign is not None:
            self._resign_sink = resign
        if away is not None:
            self._away_sink = away
        if free is not None:
            self._free_sink = free
        if offer is not None:
            self._offer_sink = offer

    def on_event(self, event: TableEvent) -> None:
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

    def free_seat(self, seat: int) -> bool:
        """At the host, before the game starts: free joiner ``seat`` (someone sat in a
        friend's place) and refuse that key at this table; its peer is told
        ``seat_refused`` and the seat is free for whoever comes next (reported as
        :class:`LeftLobby`).  Call it from the peer's trio thread.  False at a joining
        seat, once the game started, or when the seat is free."""
        sink = self._free_sink
        return sink(seat) if sink is not None else False

    def resign(self) -> bool:
        """Resign the match (call it from the peer's trio thread): a signed resignation
        goes to the table and the match ends at once with a loss for this seat's side
        (reported as :class:`~chkobba_p2p.transcript.session.Aborted` with ``resigned`` true).
        False when no game is running or the match is already decided."""
        sink = self._resign_sink
        return sink() if sink is not None else False

    async def after_match(self, outcome: Outcome) -> bool | None:
        """The match is over (``outcome``: completed, resigned or aborted) and the
        connections are still open: return True if this seat's person wants to play
        again at the same table, False if not, None for no answer (the default, at once:
        a bot).  A joining seat's answer goes to the host (PROTOCOL.md 17), which reports
        it as :class:`RematchAnswer`; the host keeps the connections open until its own
        controller returns, so that the joiners' answers reach it meanwhile."""
        return None

    def offer_rematch(self) -> bool:
        """At the host, while :meth:`after_match` is pending: this seat's person wants to
        play again and now waits for the joiners' answers.  Every joining peer still
        connected that speaks ``rematch-offer/v1`` and has not answered yet is told at once
        (it reports :class:`RematchOffered`), so that its person answers knowing it;
        the host's ``after_match`` answer still decides whether a new table opens.
        Call it from the peer's trio thread.  True when the offer went out (once a
        match); False at a joining seat, before the match is over or after the answer."""
        sink = self._offer_sink
        return sink() if sink is not None else False

    def step_away(self) -> bool:
        """Say this seat steps away (call it from the peer's trio thread, then cancel the
        peer): on the way out the peer tells the table, which shows the seat as away with
        its allowance of time counting down, and waits; running the peer again with the
        same identity and saved state comes back.  Nothing is signed.  False when no
        game is running."""
        sink = self._away_sink
        return sink() if sink is not None else False


@dataclass(frozen=True)
class Waiting(LinkEvent):
    """A seat is away (its connection dropped): ``seconds`` of its allowance of time away
    are left for the match (PROTOCOL.md 12) -- "amel stepped away: 4:32 left".  Sent
    about once a second while it is away; :class:`~chkobba_p2p.transcript.clocks.ClockReading`
    gives every clock.  ``away``: it said it was stepping away
    (:meth:`SeatController.step_away`) rather than losing its connection (the peer's
    word, unsigned: display only).  ``awaited``: the host restarted from its log and has
    not seen this seat since -- nothing is known of its connection, it is simply waited
    for ("waiting for amel to come back: 4:32 left"), not said to have lost it."""

    seat: int
    seconds: int
    away: bool = False
    awaited: bool = False


@dataclass(frozen=True)
class LeftLobby(LinkEvent):
    """At the host, before the game: the player at ``seat`` (``name``) left the table (its
    connection closed, whatever the reason); the seat is free again."""

    seat: int
    name: str


@dataclass(frozen=True)
class ReadyLapsed(LinkEvent):
    """At the host, before the game: the player at ``seat`` (``name``) did not confirm the
    full table within the ready check (``waited`` seconds); its seat was freed (its
    connection told ``ready_timeout``), and its key may come back (PROTOCOL.md 5.3)."""

    seat: int
    name: str
    waited: int


@dataclass(frozen=True)
class RematchAnswer(LinkEvent):
    """Once the match is over, at the host: the joining ``seat``'s person accepts
    (``accept``) or declines playing again at the same table; at a joining peer (``seat``
    0): the host opens a new table at the same address, or not.  The peer's word,
    unsigned: display only.  ``left``: at the host, the seat's connection closed
    without an answer (a bot, an older client, a crash): it will not be at a new table."""

    seat: int
    accept: bool
    left: bool = False


@dataclass(frozen=True)
class RematchOffered(LinkEvent):
    """Once the match is over, at a joining peer: the host's person (``seat`` 0) wants
    to play again and waits for our answer (PROTOCOL.md 17, ``rematch-offer``).  The
    host's word, unsigned: display only; whether a new table opens is still the host's
    :class:`RematchAnswer`.  Reported at most once a match."""

    seat: int = 0


@dataclass(frozen=True)
class ChoiceRefused(LinkEvent):
    """The controller's choice was refused; it is asked again.  Data, for a client to
    word: ``rule``, the rule the move broke (an :class:`~chkobba_p2p.errors.IllegalMove`'s
    ``rule``: ``capture_required``, ``not_your_turn``...), or ``""`` when the choice broke
    no rule but the API's use; then ``family`` is the coded local error's family (its
    class's default :attr:`~chkobba_p2p.errors.CodedLocalError.code`:
    ``transcript_misuse``, ``game_misuse``...), ``code`` its code and ``data`` its data
    (``""`` and ``()`` for an error of no code)."""

    rule: str = ""
    family: str = ""
    code: str = ""
    data: Facts = ()

    @classmethod
    def of(cls, exc: Exception) -> ChoiceRefused:
        """The refusal of a choice that raised ``exc``."""
        if isinstance(exc, IllegalMove):
            return cls(rule=exc.rule)
        if isinstance(exc, CodedLocalError):
            return cls(family=type(exc).code, code=exc.code, data=tuple(exc.data.items()))
        return cls()


@dataclass(frozen=True)
class Chat(LinkEvent):
    """A chat line from ``seat`` (this seat's own lines too).  Unsigned: the host sets
    ``seat`` from the connection and could alter the text; display only."""

    seat: int
    text: str


@dataclass(frozen=True)
class Resumed(LinkEvent):
    """A seat that had dropped is back (``seat``), or this peer resumed (``entries``
    replayed from its log)."""

    seat: int
    entries: int = 0


@dataclass(frozen=True)
class Restored(LinkEvent):
    """This peer resumed a game from its log after a crash or a step-away: reported once,
    before anything else of the game, so that a client rebuilds its whole picture (hand,
    table, captures, scores, the current hand's events, whose turn) without reading the
    log itself.  ``events`` are every event the replayed log produced, in order, as this
    seat saw them (the same objects :meth:`SeatController.on_event` receives during a
    game); :meth:`~chkobba_p2p.tablestate.TableState.apply` takes the whole event at once.
    """

    table: TableInfo
    seat: int
    events: tuple[object, ...]

    @property
    def hand_events(self) -> tuple[object, ...]:
        """The events of the hand in progress (from its ``HandStarted`` on)."""
        start = 0
        for i, ev in enumerate(self.events):
            if isinstance(ev, HandStarted):
                start = i
        return self.events[start:]


@dataclass(frozen=True)
class Lobby(LinkEvent):
    """Seats filling before the game starts: (name, fingerprint) or None per seat.  A
    joining peer's names come from the host: made safe to display
    (:func:`~chkobba_p2p.text.safe_text`) and distinct.  ``shuffle_proofs``: whether the
    table's shuffles will carry zero-knowledge proofs (False: the host turned them off;
    a stacked deck is then caught only by the end-of-hand audit); None if unknown.
    ``ready``: per seat, whether its person confirmed this seating (the ready check);
    ``seating``: the host's number for this seating (it changes whenever a seat does)."""

    seats: tuple[tuple[str, str] | None, ...]
    shuffle_proofs: bool | None = None
    ready: tuple[bool, ...] = ()
    seating: int = 0
    #: Each seat's identity key (None: free), e.g. to check it against known players.
    keys: tuple[bytes | None, ...] = ()
    #: The table's move limit and allowance of time away (the host's, as its welcome
    #: announced them: PROTOCOL.md 12.3); None if the host did not say.
    limits: Limits | None = None
    #: The table's rules (the host's greeting announces them), None if not known.
    rules: Ruleset | None = None
    #: How many spectators the host admits (0: none), None if the host did not say.
    spectators: int | None = None
    #: Per seat, the bot level the host vouched for it (PROTOCOL.md 5.6; None: no
    #: voucher, or one that does not check under the host's key).
    bots: tuple[str | None, ...] = ()

    @property
    def full(self) -> bool:
        """Every seat is taken: the game starts once every person is ready."""
        return bool(self.seats) and all(s is not None for s in self.seats)


@dataclass(frozen=True)
class Spectators(LinkEvent):
    """Who is watching the table now (display names, as each spectator chose it; the
    host's word, unsigned), and how many spectators the host admits at most."""

    names: tuple[str, ...]
    limit: int = 0


class NoticeKind(enum.StrEnum):
    """What a :class:`Notice` is about: a code for programs (a client words it in its own
    language); the fields of the notice that each kind fills are named here."""

    #: The saved game at ``path`` could not be resumed (``detail``: why): the peer
    #: starts afresh (a host opens a new table, a joiner joins as a newcomer).
    RESUME_FAILED = "resume_failed"
    #: The table could not be announced on the LAN (``detail``: why, e.g. no multicast);
    #: it is open all the same, joined by address.
    ANNOUNCE_FAILED = "announce_failed"
    #: In a game, the handshake with the host's address failed (``code``: the wire
    #: code's name, ``handshake_timeout`` when it stalled; ``detail``: the failed
    #: check's own words, or ""); the peer keeps trying within the host's allowance of
    #: time away.
    HANDSHAKE_RETRY = "handshake_retry"
    #: In a game, the host refused our resume (``code``: the wire code's name,
    #: ``number``: the code's number as sent, ``detail``: the host's words past the code's
    #: own sentence, unsigned, or ""); retried within its allowance of time away.
    RESUME_REFUSED = "resume_refused"
    #: In a game, a peer with another identity answers at the host's address; retried.
    OTHER_HOST = "other_host"
    #: The port mapping the router made could not be removed (``detail``: why): it lapses
    #: at the end of its lease (an hour at most).
    PORT_MAPPING_KEPT = "port_mapping_kept"
    #: The saved game for this table is of a match already over (its log at ``path``
    #: holds the end): it is removed, and the peer joins afresh (PROTOCOL.md 13.1).
    SAVED_GAME_OVER = "saved_game_over"


@dataclass(frozen=True)
class Notice(LinkEvent):
    """Something a person should know that is not part of the game: a saved game that
    could not be resumed, a table not announced on the LAN, a connection retried.
    ``kind`` says what (:class:`NoticeKind`); ``detail`` is the cause as a lower layer
    or the host worded it (the OS's or a check's words, or the host's unsigned words:
    display it made safe, :func:`~chkobba_p2p.text.safe_text`); ``path``, ``code`` and
    ``number`` as the kind says.  The
    library never prints: what a person need not see goes to :mod:`logging`
    (the ``chkobba_p2p`` loggers)."""

    kind: NoticeKind
    detail: str = ""
    path: Path | None = None
    code: str | None = None
    number: int | None = None
    #: For a check of ours that failed (``handshake_retry``): its code
    #: (:data:`~chkobba_p2p.errors.VIOLATIONS`) and facts, which ``detail`` says in English.
    violation: str | None = None
    facts: Facts = ()

    def __str__(self) -> str:
        """The notice in English, for developers and logs: a client words it in its own
        languages from :attr:`kind` and the data (the client's catalog)."""
        k, why = self.kind, safe_text(self.detail, 300)
        if k is NoticeKind.RESUME_FAILED:
            return f"cannot resume from {self.path}: {why}; starting afresh"
        if k is NoticeKind.ANNOUNCE_FAILED:
            return f"cannot announce the table on the LAN: {why}"
        if k is NoticeKind.HANDSHAKE_RETRY:
            return f"handshake failed ({self.code}{': ' + why if why else ''}); retrying"
        if k is NoticeKind.RESUME_REFUSED:
            return (f"the host refused our resume ({self.code}{': ' + why if why else ''}); "
                    "retrying within its allowance of time away")
        if k is NoticeKind.OTHER_HOST:
            return "a peer with another identity answers at the host's address; retrying"
        if k is NoticeKind.SAVED_GAME_OVER:
            return (f"the saved game for this table is already over (its log: {self.path}); "
                    "joining afresh")
        return (f"could not remove the UPnP port mapping ({why}); it lapses when its "
                "lease ends")


class OutcomeError(enum.StrEnum):
    """Why a peer got no game, or how its game ended early (:attr:`Outcome.error_code`).
    A refusal by the host carries the wire code's name instead (``table_full``,
    ``version_mismatch``, ``already_seated``...: :class:`~chkobba_p2p.wire.codec.ErrorCode`)."""

    CONNECT_FAILED = "connect_failed"  # the host could not be reached
    CONNECTION_CLOSED = "connection_closed"  # closed during the handshake, no reason given
    HANDSHAKE_FAILED = "handshake_failed"  # the host's messages did not check out
    HOST_CHANGED = "host_changed"  # the host's identity key changed on a reconnection
    #: The host's key is not the one the join code pins (another machine, or a man in
    #: the middle): refused before anything was written.
    HOST_KEY_MISMATCH = "host_key_mismatch"
    BAD_GENESIS = "bad_genesis"  # the host's genesis entry did not check out
    #: The host welcomed us, then sent a lobby (its table) that does not check out.
    BAD_LOBBY = "bad_lobby"
    ABORTED = "aborted"  # the game ended with an abort (see Outcome.aborted.code)
    #: This identity holds a seat in the host's running game, but the game's saved state
    #: (its secrets) is not here: nothing was signed; come back from the machine played on.
    SAVED_GAME_MISSING = "saved_game_missing"
    #: The host closed its table before the game started (it said so: ``shutdown``).
    HOST_CLOSED = "host_closed"
    #: Our saved game's host (its key) no longer has that game, not even as one it
    #: ended: nothing was signed, the saved game is filed aside (PROTOCOL.md 13.1).
    GAME_UNKNOWN = "game_unknown"


#: Every :attr:`Outcome.error_reason`, with the keys of :attr:`Outcome.error_data` it
#: carries (``why``, ``detail``: a lower layer's own words, the OS's or a check's;
#: ``violation`` and ``facts``: the check's code and data, :func:`check_data`).
ERROR_REASONS: dict[str, tuple[str, ...]] = {
    "host_key_mismatch": ("where", "actual", "pinned"),  # not the pinned key
    "game_unknown": ("where", "filed"),  # ``filed``: where the saved game went, if it did
    "refused": ("code", "number", "host_text"),  # the host refused our hello
    "closed_in_handshake": (),  # closed before its welcome, without a word
    "handshake_failed": ("detail", "violation", "facts"),  # garbled or stalled
    "host_changed": (),
    "connect_refused": ("where", "why"),  # a fresh join: nobody listening there
    "connect_failed": ("where", "why"),  # a fresh join: another failure to connect
    "unreachable_closed": ("where",),  # a saved game: nobody listening
    "unreachable": ("where", "why"),  # a saved game: another failure
    "no_host_answered": ("where",),  # accepted, but no chkobba host answered
    #: A host's own bot: its host stayed away past its allowance; nothing signed, the
    #: saved game kept for the host's return (JoinConfig.claims_host_gone).
    "host_away_kept": ("where",),
    "lobby_shutdown": (),  # the host closed the table before the game (it said so)
    "lobby_ended": ("code", "host_text"),  # the host ended us before the game, with a code
    "lobby_closed": (),  # closed before the game, without a word
    # welcomed, no usable table (``detail``: the last lobby's flaw, with its check's code)
    "no_table": ("seconds", "detail", "violation", "facts"),
    "bad_genesis": ("detail", "violation", "facts"),
    "saved_game_missing": (),
    "already_over": (),  # the log already holds the end: nothing to rejoin
    # A spectator's (WatchOutcome): also refused, handshake_failed, connect_*.
    "closed": (),  # the host closed the connection before admitting us, without a word
    "handshake_timeout": (),  # the handshake did not complete in time
}


#: Why a spectator's watching stopped once admitted (``WatchOutcome.stop_reason``, the
#: spectator core's ``stop_reason``), with the keys of its ``stop_data``: ``code`` is
#: the protocol error code's name, ``detail`` the check's own words and ``host_text``
#: the host's free text (its claim, never ours).  A client words them.
STOP_REASONS: dict[str, tuple[str, ...]] = {
    # The connection to the host closed: the host's error message, or none (the stream
    # ended: who or what closed it is not known); with none during the match,
    # "host_allowance": the seconds the players wait for the host to come back.
    "host_closed": ("code", "host_text", "host_allowance"),
    "host_silent": (),  # nothing from the host within the idle timeout
    "unreadable": ("code", "detail", "violation", "facts"),  # a frame that does not decode
    "out_of_state": ("code", "detail", "violation", "facts"),  # a message its state refuses
    "too_long": ("code", "detail", "violation", "facts"),  # more entries than a game holds
}


def check_data(exc: RemoteError, detail: str) -> dict[str, str | Facts]:
    """A failed check as a reason's data: ``detail`` (its English, for logs), and when
    the check has a code, ``violation`` and ``facts`` (:data:`~chkobba_p2p.errors.
    VIOLATIONS`), which a client words in its reader's language."""
    data: dict[str, str | Facts] = {"detail": detail}
    if exc.violation is not None:
        data["violation"], data["facts"] = exc.violation, exc.facts
    return data


@dataclass
class Outcome:
    """How a match ended for this peer, as data for a client to word: ``done`` (every
    seat signed the result: winner side, totals, hands), ``aborted`` (the abort that
    ended it, with :attr:`resigned`, :attr:`left`, :attr:`on_time` and
    :attr:`winner_side` read from it), ``table`` for the names.  ``error_code`` says why
    there was no game for programs: an :class:`OutcomeError` or the name of a wire
    :class:`~chkobba_p2p.wire.codec.ErrorCode` the host refused us with (``table_full``);
    None when the match completed.  ``error_reason`` names the case finer (one of
    :data:`ERROR_REASONS`) and ``error_data`` holds what a sentence about it needs
    (``where``, ``seconds``, ``code``, ``host_text``: a host's own free text, its claim,
    never ours...): a client words these; the library has no sentence for them."""

    seat: int | None
    table: TableInfo | None
    log_path: Path | None
    done: MatchDone | None = None
    aborted: Aborted | None = None
    error_code: str | None = None
    error_reason: str | None = None
    error_data: dict[str, str | int | float | Facts] = field(default_factory=dict)
    #: Bytes this peer sent and received on the wire (all its connections).
    bytes_sent: int = 0
    bytes_received: int = 0

    @property
    def completed(self) -> bool:
        return self.done is not None

    @property
    def resigned(self) -> int | None:
        """The seat that resigned the match, if one did."""
        a = self.aborted
        return a.by_seat if a is not None and a.resigned else None

    @property
    def on_time(self) -> int | None:
        """The seat that lost the match on time (the host's flag on the seat to play,
        :func:`~chkobba_p2p.transcript.session.flag_holds`), if one did."""
        a = self.aborted
        return a.flag if a is not None else None

    @property
    def convicted(self) -> int | None:
        """The seat whose side loses the match because this peer's own check convicts
        it (:attr:`~chkobba_p2p.transcript.events.Aborted.convicted`), if one does."""
        a = self.aborted
        return a.convicted if a is not None and a.convicted is not None \
            and a.loser == a.convicted else None

    @property
    def left(self) -> int | None:
        """The seat that left the match while it was played (a loss for its side), if
        one did."""
        a = self.aborted
        return a.by_seat if a is not None and a.left else None

    @property
    def decided(self) -> bool:
        """The match has a result: completed, resigned, left, lost on time, lost by a
        seat this peer's own check convicts (:attr:`convicted`), or decided before every
        seat signed it."""
        return self.winner_side is not None

    @property
    def concluded(self) -> bool:
        """The match has a result: :attr:`decided`, or at 3 players a seat that lost it
        (it resigned, left or lost on time) while the two others are level, so that
        nobody wins (PROTOCOL.md 17)."""
        return self.decided or (self.aborted is not None and self.aborted.loser is not None)

    @property
    def winner_side(self) -> int | None:
        """The side that won: by the result every seat signed, by a resignation, a leave,
        on time, or by a conviction of the other side's seat."""
        if self.done is not None:
            return self.done.winner_side
        if self.aborted is not None and self.table is not None:
            return self.aborted.winner_side(self.table.players)
        return None
