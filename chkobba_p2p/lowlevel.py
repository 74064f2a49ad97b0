"""The face for protocol implementers: the sans-IO machines of the protocol, as h11's
whole API is (and as ``trio.lowlevel`` stands beside ``trio``).

Everything here takes values (and the time as ``now``) and gives values back; nothing
imports trio or a socket.  A client of its own, a bot speaking the protocol over a plain
socket (``examples/socket_bot.py``), an audit tool, build on these:

* the wire codec: frames, msgpack with limits, identities, signed entries, ``ErrorCode``;
* the log file: ``read_log`` (the one reader: ``LogFile``, ``LogUnreadable``),
  ``read_header``, ``TranscriptWriter``, ``MAGIC``;
* the transcript machine: :class:`Session` (one peer's view of the signed game), its
  events, the clocks (``Limits``, ``SeatClock``), the entries' bodies (``TurnBody``,
  ``PlayAction``, ``CutAction``, ``DoneBody``, ``AbortBody``...);
* the mental-poker deal: :class:`Deal`, ``LocalTable``, its messages (``parse_item``,
  ``DealItem``);
* the link's cores and messages: ``HostTable`` (the host's table), ``DoorCore`` (the
  host's door: admission, and each connection's handshake as an ``Arrival`` that gives
  ``DoorStep``s, then an ``Admit``), ``SeatLink`` (a joiner's link), ``SpectatorCore``
  (a spectator's), ``SeatCore`` and its effects, the
  handshakes, one class per link message and ``parse_link_message``; ``read_frame``,
  what a connection carries as the cores take it (a link message, a ``Signed`` entry,
  an ``Unknown`` type, a ``Malformed`` message);
* the link's state tables (``HOST``, ``JOINER``, ``SPECTATOR``: a :class:`Machine` each,
  PROTOCOL.md 5.1), ``next_state`` for a message received and ``may_send`` for one to
  send; ``LinkStateError`` (the remote side sent what its state forbids, with the wire
  code) and ``LocalStateError`` (our own code tried to send what its state forbids).

The rules model (:mod:`chkobba_p2p.game`) and the bots (:mod:`chkobba_p2p.bots`) are
public sub-packages of their own; the face for playing at a table is :mod:`chkobba_p2p`.
"""

from __future__ import annotations

from .deal import (
    DEAL_PROBLEMS,
    Deal,
    DealItem,
    DealUsageError,
    FirstDealerDraw,
    JobResult,
    LocalTable,
    PeerMisbehaved,
    ProofJob,
    parse_item,
    run_job,
)
from .link.door import (
    Admit,
    Arrival,
    DoorCore,
    DoorStep,
)
from .link.errors import LINK_PROBLEMS, LinkUsageError
from .link.handshake import (
    CAP_SEAT_SECRET,
    SEAT_SECRET_DOMAIN,
    ClientHandshake,
    HostHandshake,
    Knocks,
    error_message,
    seat_secret_proof,
)
from .link.host import (
    HostTable,
    SeatsMoved,
    Started,
)
from .link.joiner import (
    Committed,
    SeatLink,
)
from .link.messages import (
    LINK_TYPES,
    MAX_ERROR_TEXT,
    MAX_LIMIT,
    MAX_PLAYERS,
    MAX_SPECTATORS,
    Away,
    Back,
    Chat,
    ErrorMsg,
    Frame,
    Greeting,
    Hello,
    Host,
    Knock,
    LinkMessage,
    Lobby,
    LobbySeat,
    Malformed,
    Ping,
    Pong,
    Rematch,
    RematchOffer,
    Signed,
    Spectators,
    Start,
    Unknown,
    Wait,
    Watch,
    Watching,
    Welcome,
    clean_text,
    display_name,
    parse_link_message,
    read_allowance_left,
    read_frame,
    read_have,
    read_limits,
    read_move_used,
)
from .link.seat import (
    AskReady,
    CancelAsk,
    Close,
    Decide,
    Effect,
    Emit,
    Finished,
    RunJob,
    SeatCore,
    Send,
    SendBacklog,
)
from .link.spectator import LogEntry, SpectatorCore
from .link.states import (
    HOST,
    JOINER,
    SPECTATOR,
    LinkStateError,
    LocalStateError,
    Machine,
    may_send,
    next_state,
)
from .transcript.bodies import (
    AbortBody,
    Action,
    ClockDisputeBody,
    CutAction,
    DoneBody,
    GameFault,
    PlayAction,
    ReadyBody,
    TurnBody,
    action_type,
)
from .transcript.caps import (
    BINDING_CAPABILITIES,
    CAP_EARLY_DEAL,
    CAP_LATE_REVEAL,
    CAP_NEXT_DECK,
    CAP_PROOF_APART,
    CAP_SEAT_DEAL,
    CAP_SHARES_RIDE,
    CAP_SHUFFLE_PROOFS,
    CAPABILITIES,
    IMPLEMENTED_CAPABILITIES,
    LINK_CAPABILITIES,
    PROOF_CAPABILITIES,
    SPOKEN,
    TABLE_CAPABILITIES,
    effective_caps,
)
from .transcript.clocks import (
    CLOCK_TOLERANCE,
    ClockReading,
    Clocks,
    Expiry,
    Limits,
    SeatClock,
    clock_reading,
    clock_refutes_flag,
    dispute_contradicts,
    flag_holds,
    flag_winner,
    loser_side,
    make_clock,
)
from .transcript.driver import Decision, DeckInstance, GameDriver
from .transcript.errors import TRANSCRIPT_PROBLEMS, TranscriptUsageError
from .transcript.events import (
    Aborted,
    CardsSeen,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    MatchOver,
    RedealEvent,
    Standing,
    TableReady,
)
from .transcript.session import Session
from .transcript.table import Phase, SeatInfo, TableInfo
from .wire.codec import (
    CHAIN_DOMAIN,
    ENTRY_DOMAIN,
    GENESIS_PREV,
    HANDSHAKE_DOMAIN,
    MAX_DEPTH,
    MAX_ENTRY,
    MAX_ENTRY_OTHER,
    MAX_EVIDENCE,
    MAX_FRAME,
    MAX_HELLO,
    MAX_NAME,
    MAX_STR,
    MAX_TRANSCRIPT,
    MAX_UNKNOWN,
    POP_HOST_DOMAIN,
    POP_JOINER_DOMAIN,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Entry,
    ErrorCode,
    FrameDecoder,
    Identity,
    ProtocolError,
    check_entry_size,
    decode,
    encode,
    entry_id,
    entry_id_of,
    entry_limit,
    fingerprint,
    frame,
    get_field,
    handshake_hash,
    make_entry,
    open_entry,
    same_value,
    seal_pop,
    unsealed,
    verify_signature,
)
from .wire.errors import WIRE_PROBLEMS, WireUsageError
from .wire.logfile import (
    KEY_PROBLEMS,
    LOG_PROBLEMS,
    MAGIC,
    MAX_LOG_BYTES,
    KeyUnusable,
    LogFile,
    LogUnreadable,
    TranscriptWriter,
    read_header,
    read_log,
)

__all__ = [
    "PROTOCOL_VERSION", "SUPPORTED_VERSIONS", "MAX_FRAME", "MAX_STR", "MAX_NAME", "MAX_DEPTH",
    "MAX_ENTRY", "MAX_ENTRY_OTHER", "MAX_UNKNOWN", "MAX_EVIDENCE", "MAX_TRANSCRIPT",
    "MAX_HELLO", "entry_limit", "same_value", "check_entry_size", "entry_id_of",
    "ENTRY_DOMAIN", "CHAIN_DOMAIN", "POP_JOINER_DOMAIN", "POP_HOST_DOMAIN", "HANDSHAKE_DOMAIN",
    "handshake_hash", "seal_pop", "unsealed", "GENESIS_PREV", "ErrorCode", "ProtocolError",
    "frame", "FrameDecoder", "encode", "decode", "Identity", "verify_signature", "fingerprint",
    "entry_id", "Entry", "make_entry", "open_entry", "get_field", "MAGIC", "LogFile",
    "TranscriptWriter", "read_log", "read_header", "LogUnreadable", "LOG_PROBLEMS",
    "KeyUnusable", "KEY_PROBLEMS", "WireUsageError", "WIRE_PROBLEMS", "TranscriptUsageError",
    "TRANSCRIPT_PROBLEMS", "LinkUsageError", "LINK_PROBLEMS",
    "MAX_LOG_BYTES",
    "CAP_SHUFFLE_PROOFS", "CAP_EARLY_DEAL", "CAP_SEAT_SECRET", "SEAT_SECRET_DOMAIN",
    "seat_secret_proof",
    "CAP_PROOF_APART", "CAP_SHARES_RIDE", "CAP_NEXT_DECK", "CAP_SEAT_DEAL",
    "CAP_LATE_REVEAL", "TABLE_CAPABILITIES", "PROOF_CAPABILITIES",
    "BINDING_CAPABILITIES",
    "IMPLEMENTED_CAPABILITIES", "effective_caps", "SeatInfo", "TableInfo", "Session", "Phase",
    "GameFault", "Decision", "Aborted", "Standing", "flag_holds", "flag_winner", "loser_side",
    "CLOCK_TOLERANCE", "clock_reading", "make_clock", "clock_refutes_flag",
    "dispute_contradicts", "MatchDone", "GameDriver", "DeckInstance", "HandStarted",
    "HandScored", "RedealEvent", "CardsSeen", "MatchOver", "FirstDealerDrawn", "TableReady",
    "Limits",
    "SeatClock", "Clocks", "Expiry", "ClockReading", "Deal", "LocalTable", "FirstDealerDraw",
    "PeerMisbehaved", "DealUsageError", "DEAL_PROBLEMS", "ProofJob", "JobResult", "run_job",
    "MAX_PLAYERS",
    "MAX_ERROR_TEXT", "MAX_LIMIT", "MAX_SPECTATORS", "LINK_TYPES", "display_name",
    "clean_text", "read_limits", "read_allowance_left", "read_move_used", "read_have", "Host",
    "Hello", "Welcome", "Watch", "Watching", "LobbySeat", "Lobby", "Start", "Chat", "Wait",
    "Back", "Away", "Rematch", "RematchOffer", "Spectators", "Ping", "Pong", "ErrorMsg",
    "Knock", "LinkMessage", "parse_link_message", "Frame", "Signed", "Unknown", "Malformed",
    "Greeting", "read_frame", "HostHandshake", "ClientHandshake", "Knocks",
    "error_message", "CAPABILITIES", "LINK_CAPABILITIES", "SPOKEN", "SeatCore", "Send",
    "SendBacklog", "Close", "Emit", "Decide", "AskReady", "CancelAsk", "Finished", "RunJob",
    "Effect", "HostTable", "DoorCore", "Arrival", "DoorStep", "Admit", "Started",
    "SeatsMoved", "SeatLink", "Committed", "SpectatorCore",
    "LogEntry", "Machine", "HOST", "JOINER", "SPECTATOR", "next_state", "may_send",
    "LinkStateError", "LocalStateError",
    "ReadyBody", "TurnBody", "PlayAction", "CutAction", "Action", "action_type", "DoneBody",
    "AbortBody", "ClockDisputeBody", "DealItem", "parse_item",
]
