"""The session: a sans-IO state machine for one peer at one table.

No sockets, no clock.  The transport (:mod:`chkobba_p2p._shell.net`) feeds it what arrives and
sends what it returns; the same code runs at the host and at every joining peer.

Three layers, as PROTOCOL.md describes them:

* **Handshake** (unsigned link messages, host <-> one peer): not here, in the link
  core (:mod:`chkobba_p2p.link.handshake`), which builds the genesis's
  :class:`TableInfo` this module checks.
* **The transcript** (signed entries in one hash chain): :class:`Session`.  Every entry
  names the previous entry's id; exactly one seat (the one holding the *floor*) may
  extend the chain at any time, so every honest peer holds the same sequence and any
  dropped, altered, reordered or forked entry shows at the next entry.
* **The game** inside the transcript: the rules engine (:mod:`chkobba_p2p.game.rules`) and the
  deal protocol (:mod:`chkobba_p2p.deal`), driven by :class:`GameDriver`.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..deal import (
    MSG_PROOF,
    MSG_REVEAL,
    CardShown,
    Deal,
    FirstDealerDraw,
    PeerMisbehaved,
    StepOpened,
    Verified,
)
from ..deal.core import JobResult, ProofJob, run_job
from ..deal.group import hash_bytes, hash_to_scalar
from ..errors import IllegalMove, InvalidDeal, LocalError, RemoteError
from ..game.cards import Card
from ..game.events import CutEvent, DealEvent, PlayEvent
from ..game.hand import SPECTATOR, CutterChoice, DealStep, Hand, HandOver, Move, Redeal, Turn
from ..game.match import Match
from ..game.ruleset import Opening, Ruleset
from ..game.seating import ONLINE, Seating
from ..text import distinct_names, safe_text
from ..wire import codec as wire
from ..wire.codec import (
    ENTRY_DOMAIN,
    GENESIS_PREV,
    MAX_NAME,
    SUPPORTED_VERSIONS,
    Entry,
    ErrorCode,
    Identity,
    ProtocolError,
    get_field,
    make_entry,
    verify_signature,
)

__all__ = [
    "CAP_SHUFFLE_PROOFS",
    "CAP_EARLY_DEAL",
    "CAP_PROOF_APART",
    "TABLE_CAPABILITIES",
    "BINDING_CAPABILITIES",
    "IMPLEMENTED_CAPABILITIES",
    "effective_caps",
    "SeatInfo",
    "TableInfo",
    "Session",
    "Phase",
    "GameFault",
    "Decision",
    "Aborted",
    "Standing",
    "flag_holds",
    "flag_winner",
    "loser_side",
    "CLOCK_TOLERANCE",
    "clock_reading",
    "make_clock",
    "clock_refutes_flag",
    "dispute_contradicts",
    "MatchDone",
    "GameDriver",
    "DeckInstance",
    "HandStarted",
    "HandScored",
    "RedealEvent",
    "MatchOver",
    "FirstDealerDrawn",
    "TableReady",
]

#: Table capability (in the genesis): a seat the game waits for may send the deal
#: messages it owes in a ``turn`` without its action, and choose on a later pass, so that
#: the others get their cards while it thinks (PROTOCOL.md 6.2).  The host puts it in
#: the genesis only when every seated peer announced it in its ``hello``; binding: in
#: effect only when every seat's ``ready`` lists it too (:func:`effective_caps`).
CAP_EARLY_DEAL = "early-deal/v1"
#: The table capabilities of a genesis by default (without shuffle proofs).  The link
#: capabilities (the ready check, rematch), which the genesis never lists, are the link
#: core's (:mod:`chkobba_p2p.link.handshake`).
TABLE_CAPABILITIES = ("deal/v1", "resume/v1", CAP_EARLY_DEAL)
#: Table capability (in the genesis): every shuffle step carries a zero-knowledge proof.
CAP_SHUFFLE_PROOFS = "shuffle-proof/v1"
#: Table capability (in the genesis, only beside shuffle-proof/v1): a shuffler sends its
#: deck in ``deal/shuffle`` at once and its shuffle proof after it, in ``deal/proof``; every
#: seat shuffles on top at once and checks the proofs alongside, and no seat releases a
#: decryption share of the instance before every proof of it verified there (PROTOCOL.md
#: Appendix A 4.1).  The host puts it in the genesis only when every seated peer announced
#: it in its ``hello``; binding: in effect only when every seat's ``ready`` lists it too.
CAP_PROOF_APART = "proof-apart/v1"
#: The table capabilities that change how every seat plays: one of them is in effect only
#: when the genesis holds it and every seat's ``ready`` lists it (:func:`effective_caps`),
#: so that a host cannot impose one on a seat that does not speak it (only the host sees
#: the hellos).
BINDING_CAPABILITIES = (CAP_EARLY_DEAL, CAP_PROOF_APART)
#: Every table capability this implementation plays (a seat's ``ready.caps`` is the
#: genesis's ``caps`` that it holds).
IMPLEMENTED_CAPABILITIES = TABLE_CAPABILITIES + (CAP_SHUFFLE_PROOFS, CAP_PROOF_APART)


def effective_caps(genesis: Sequence[str], readies: Sequence[Sequence[str] | None]
                   ) -> tuple[str, ...]:
    """The table capabilities in effect (PROTOCOL.md 3): those of the ``genesis``, less
    each binding one (:data:`BINDING_CAPABILITIES`) that some seat's ready does not list.
    ``readies``: each seat's ``ready.caps`` (None: the ready has no ``caps``, a peer of
    before the field).  When no ready has the field (a log made before it), the genesis
    alone decides, as it did then.  A cap a ready lists and the genesis lacks counts
    for nothing."""
    if all(r is None for r in readies):
        return tuple(genesis)
    return tuple(c for c in genesis if c not in BINDING_CAPABILITIES
                 or all(r is not None and c in r for r in readies))


def _ready_caps(fields: dict[str, Any], seat: int, body: bytes) -> tuple[str, ...] | None:
    """A ``ready``'s ``caps`` (None: absent); a value that is not an array of str is the
    game fault ``protocol_violation`` of its signer."""
    caps = fields.get("caps")
    if caps is None and "caps" not in fields:
        return None
    if not isinstance(caps, list) or not all(isinstance(c, str) for c in caps):
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "ready.caps is an array of str", seat,
                        body)
    return tuple(caps)


class GameFault(RemoteError):
    """A well-formed, correctly signed entry that the game refuses (an illegal move, a
    failed proof...).  Ends the game for everyone with a signed blame of ``blamed_seat``."""

    #: The offending entry's bytes (set by whoever knows them).
    evidence: bytes | None

    def __init__(self, code: ErrorCode, detail: str, blamed_seat: int | None,
                 evidence: bytes | None = None) -> None:
        super().__init__(f"{code.sentence}: {detail}", code=code.name.lower(),
                         blamed_seat=blamed_seat, evidence=evidence)
        self.error_code = code
        self.detail = detail


# ------------------------------------------------------------------------------ tables


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    key: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return wire.fingerprint(self.key)

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "key": self.key, "name": self.name}


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
        raise ProtocolError(ErrorCode.BAD_FIELD, f"a display name is 1..{MAX_NAME} printable "
                            "characters")
    return value


@dataclass(frozen=True)
class TableInfo:
    """What the genesis entry fixes: the game id, version, ruleset and who sits where.
    Seat 0 is the host; the sides are :attr:`seating`'s (at 4 players seats 0 and 2 play
    against 1 and 3; at 3 each plays for themselves)."""

    game: bytes
    version: int
    players: int
    rules: Ruleset
    seats: tuple[SeatInfo, ...]
    caps: tuple[str, ...] = TABLE_CAPABILITIES

    @property
    def seating(self) -> Seating:
        """The shape of this table."""
        return Seating.of(self.players)

    @property
    def rules_hash(self) -> bytes:
        return self.rules.digest()

    @property
    def shuffle_proofs(self) -> bool:
        """Whether every shuffle carries a zero-knowledge proof (a table capability)."""
        return CAP_SHUFFLE_PROOFS in self.caps

    @property
    def proof_apart(self) -> bool:
        """Whether the genesis has shuffle proofs travel apart from their decks
        (``deal/proof``).  Binding: in effect only if every seat's ready lists it too
        (:attr:`Session.caps`, :func:`effective_caps`)."""
        return self.shuffle_proofs and CAP_PROOF_APART in self.caps

    def display_names(self) -> tuple[str, ...]:
        """The seats' names as they may be shown: safe for a terminal and distinct
        (``amel``, ``amel (2)``), whatever the host put in the genesis."""
        names = distinct_names([safe_text(s.name, MAX_NAME) for s in self.seats], MAX_NAME)
        return tuple(n or "?" for n in names)

    def to_body(self) -> dict[str, Any]:
        return {"v": self.version, "players": self.players, "rules": self.rules.to_dict(),
                "rules_hash": self.rules_hash, "seats": [s.to_wire() for s in self.seats],
                "caps": list(self.caps)}

    @classmethod
    def from_entry(cls, entry: Entry) -> TableInfo:
        """Parse and check a genesis entry (kind ``table``).  Its signature is checked by
        the caller against the host key it shook hands with (seat 0's key here)."""
        f = entry.fields
        if entry.kind != "table" or entry.seq != 0 or entry.prev != GENESIS_PREV \
                or entry.seat != 0:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "not a genesis entry")
        version = get_field(f, "v", "int")
        if version not in SUPPORTED_VERSIONS:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"version {version}")
        players = get_field(f, "players", "int")
        if players not in ONLINE:
            raise ProtocolError(ErrorCode.BAD_FIELD,
                                f"players must be one of {', '.join(map(str, ONLINE))}")
        try:
            rules = Ruleset.from_dict(get_field(f, "rules", "map"))
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"ruleset: {exc}") from None
        if get_field(f, "rules_hash", "bytes", size=32) != rules.digest():
            raise ProtocolError(ErrorCode.BAD_FIELD, "rules_hash does not match the ruleset")
        raw_seats = get_field(f, "seats", "list", max_len=players)
        if len(raw_seats) != players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "one entry per seat")
        seats = []
        for i, s in enumerate(raw_seats):
            if not isinstance(s, dict) or get_field(s, "seat", "int") != i:
                raise ProtocolError(ErrorCode.BAD_FIELD, "seats in order")
            seats.append(SeatInfo(i, get_field(s, "key", "bytes", size=32), _name(s.get("name"))))
        if len({s.key for s in seats}) != players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "an identity holds two seats")
        caps = tuple(c for c in get_field(f, "caps", "list", optional=True) or ()
                     if isinstance(c, str))
        return cls(entry.game, version, players, rules, tuple(seats), caps)


# ---------------------------------------------------------------------------- session


class Phase:
    READY = "ready"  # genesis accepted, waiting for every seat's ready
    PLAYING = "playing"
    CLOSING = "closing"  # the match is decided; each seat signs the result in turn
    DONE = "done"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Decision:
    """A choice the local seat must make now.  ``kind`` is ``"play"`` (pick one of
    ``hand.legal_moves()``) or ``"cut"`` (keep the drawn card or place it).

    The match around it, as this session's rules engine computed it from the signed
    transcript (never a peer's word): ``number``, the hand in progress (1-based);
    ``totals``, the match totals by side before that hand (at 4 players side 0 is seats 0
    and 2); ``target``, the points that win the match."""

    kind: str
    seat: int
    hand: Any  # rules.Hand, this seat's view
    number: int = 0
    totals: tuple[int, ...] = ()
    target: int = 0


class Standing:
    """How far the transcript itself supports an abort's accusation (:attr:`Aborted.standing`).

    An ``abort`` is its signer's word; only what the log shows is proven.  Wording for
    people: :meth:`Aborted.describe`."""

    #: A check of this peer's (or the auditor's) own convicts the blamed seat: an entry it
    #: signed breaks a rule.
    PROVEN = "proven"
    #: The blamed seat owed the next message when the game ended (it held the floor, or
    #: the game waited for its deal message or its choice); that it stayed silent too long
    #: is the signer's word.
    OWED = "owed"
    #: The signer blames itself (a player who leaves on purpose): its signature proves it.
    SELF = "self"
    #: Nothing in the log shows it (no evidence, and the blamed seat owed nothing).
    CLAIMED = "claimed"
    #: The entry the abort cites as evidence passes every check.
    REFUTED = "refuted"
    #: A flag that the flagged seat disputes with its own signed clock reading, which
    #: contradicts it (PROTOCOL.md 12.6): one seat's word against the other's, so the
    #: match counts for nobody.
    DISPUTED = "disputed"


#: How far behind the flag's signer a flagged seat's own clock may run and still agree
#: with it (PROTOCOL.md 12.6): the floor's entry reaches the seat after it left the
#: signer, and the flag after it was signed -- one round trip on a link that stays up,
#: Tor included.  A dispute stands only when its reading is further from the flag than
#: this.
CLOCK_TOLERANCE = 5.0


def clock_reading(value: object) -> dict[str, int] | None:
    """An abort's ``clock`` field (PROTOCOL.md 12.6), as whole milliseconds: ``move``
    (the move limit), ``away`` (the allowance), ``used`` (how long the move clock of the
    move at the abort's head ran) and ``left`` (the seat's allowance left), each an int
    from 0 to a day's milliseconds; None when absent or anything else (it is then
    ignored, as an older peer's)."""
    if not isinstance(value, dict) or len(value) > 8:
        return None
    out: dict[str, int] = {}
    for k in ("move", "away", "used", "left"):
        v = value.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 86_400_000:
            return None
        out[k] = v
    return out


def make_clock(move: float, away: float, used: float, left: float) -> dict[str, int]:
    """The ``clock`` field of an abort from seconds (rounded to the millisecond)."""
    def ms(x: float) -> int:
        return max(0, min(86_400_000, round(x * 1000)))
    return {"move": ms(move), "away": ms(away), "used": ms(used), "left": ms(left)}


def clock_refutes_flag(code: ErrorCode | None, clock: dict[str, int] | None) -> bool:
    """The flag's own signer's reading shows time left: the move clock had not run out
    (``timeout``) or the allowance was not spent (``peer_left``).  A flag that carries
    no reading (an older host's) is not refuted by this."""
    if clock is None:
        return False
    if code is ErrorCode.TIMEOUT:
        return clock["used"] < clock["move"]
    return clock["left"] > 0


def dispute_contradicts(flag_code: ErrorCode | None, flag_clock: dict[str, int] | None,
                        mine: dict[str, int] | None) -> bool:
    """A flagged seat's own reading (``mine``) contradicts the flag by more than
    :data:`CLOCK_TOLERANCE`: its move clock was short of the move limit as the seat
    knew it (the one the host announced; a flag that states a smaller one is itself
    part of the disagreement), or, for a flag that says it stayed away, its allowance
    was far from spent.  ``flag_clock`` is not needed to decide: the flag's figures
    are its signer's word, shown beside the seat's."""
    del flag_clock  # shown by readers, never weighed: both are words
    if mine is None:
        return False
    tol = round(CLOCK_TOLERANCE * 1000)
    if flag_code is ErrorCode.TIMEOUT:
        return mine["used"] + tol < mine["move"]
    return mine["left"] > tol


def flag_winner(flagged: int, players: int,
                totals: Sequence[int] = ()) -> int | None:
    """The side that wins when ``flagged`` loses the match (on time, by resigning or by
    leaving): the other side at 2 players (the other seat) and at 4 (the other pair).
    **At 3 players** (RULES.md): the seat that loses the match this way loses, and the
    two others are scored as they stand -- the one ahead on the match ``totals`` (by
    seat) wins; level (or no totals), nobody wins and only the loss counts
    (:func:`loser_side`)."""
    seating = Seating.of(players)
    won = seating.winner_on_resignation(flagged)
    if won is not None or players != 3:
        return won
    others = [s for s in range(players) if s != flagged]
    if len(totals) != players:
        return None
    a, b = others
    if totals[a] == totals[b]:
        return None
    return a if totals[a] > totals[b] else b


def loser_side(seat: int, players: int) -> int:
    """The side of ``seat`` (the one that loses by a flag, a resignation or a leave)."""
    return Seating.of(players).side_of(seat)


def flag_holds(fields: dict[str, Any], signer: int, *, players: int, phase: str,
               floor: int, earlier: Sequence[tuple[int, int | None]] = ()) -> int | None:
    """The seat a ``timeout`` or ``peer_left`` abort **flags** (PROTOCOL.md 12.3, 12.6),
    if the flag stands; else None.  A flag is one seat's word that the seat to play ran
    out of its move clock or its allowance: it stands only when

    * the host (seat 0, which keeps the clocks) flags the seat to play, or a joining
      seat flags the host while the host is to play (the one seat whose move clock a
      joiner can run itself), with code ``timeout`` or ``peer_left``, ``blamed`` equal
      to ``flag`` and ``flag`` a seat;
    * the match is being played (PLAYING: not before the ready round is over, nor once
      the result is decided) and the flagged seat holds the floor: it owes the next
      message, as the transcript itself shows;
    * the flag's own clock reading, when it carries one (``clock``), shows the time
      ran out: a signer whose own figures show time left refutes itself;
    * no abort of the flagged seat blaming the signer precedes it (``earlier``: every
      abort seen before, as ``(signer, blamed)``): a seat that signed first that the
      other went silent disputes the clock, and the game stays a disputed stop.

    A flag that does not stand is an ordinary abort (its code, its blame, its
    standing); one that stands is a loss on time for the flagged seat's side
    (:func:`flag_winner` says who wins).  The flagged seat may still dispute it
    (:func:`dispute_contradicts`, :attr:`Standing.DISPUTED`)."""
    flag = fields.get("flag")
    if not isinstance(flag, int) or isinstance(flag, bool) or not 0 <= flag < players:
        return None
    code = ErrorCode.from_wire(fields.get("code"))
    blamed = fields.get("blamed")
    if code not in (ErrorCode.TIMEOUT, ErrorCode.PEER_LEFT) \
            or isinstance(blamed, bool) or blamed != flag:
        return None
    if signer != 0 and flag != 0:
        return None  # a joiner cannot run another joiner's clocks
    if phase != Phase.PLAYING or floor != flag:
        return None
    if clock_refutes_flag(code, clock_reading(fields.get("clock"))):
        return None
    if any(by == flag and said == signer for by, said in earlier):
        return None  # the flagged seat said first that the signer went silent
    return flag


@dataclass(frozen=True)
class Aborted:
    """The game ended early: who signed the record, the code, whom it blames, why.

    ``standing`` (a :class:`Standing` value) says what the log shows of the accusation:
    an abort is its signer's claim unless a check convicts the blamed seat.  Show it with
    :meth:`describe`, never as a bare "blaming seat N".

    A **resignation** is an abort with code ``resigned`` that its signer signs against its
    own seat (:meth:`Session.resign`): the match ends with a loss for the resigner's side
    (:attr:`resigned`, :meth:`winner_side`).  The same code blaming another seat is only a
    claim, like any other abort.

    A **loss on time**: the ``timeout`` or ``peer_left`` abort that flags the seat to
    play (:func:`flag_holds`); ``flag`` is that seat when the flag stands and gives the
    other side the win (:attr:`on_time`, :meth:`winner_side`), else None.  A flag the
    flagged seat disputed (:attr:`disputed_by`) no longer stands: ``flag`` is None and
    the standing :attr:`Standing.DISPUTED`.

    A **leave** (:attr:`left`): a ``peer_left`` its signer signs against its own seat
    while the match is played: a loss for the leaver's side, as a resignation.

    A match already **decided** (:attr:`decided`: every seat was signing the result)
    keeps its result whatever ends it: no seat escapes a lost match by withholding its
    ``done``."""

    by_seat: int
    code: ErrorCode
    blamed_seat: int | None
    detail: str
    standing: str = Standing.CLAIMED
    flag: int | None = None
    #: The code as signed when it is none this program knows (``code`` is then
    #: ``PROTOCOL_VIOLATION``), as an auditor writes it: ``"12345"``; else None.
    unknown_code: str | None = None
    #: The signer left the match while it was played (``peer_left`` against itself).
    left: bool = False
    #: The winning side when the match was already decided (CLOSING), else None.
    decided: int | None = None
    #: The match totals by seat when the game ended (at 3 players they score the two
    #: seats that remain after one loses the match: :func:`flag_winner`).
    totals: tuple[int, ...] = ()
    #: The flagged seat that disputed the flag with its own clock reading (PROTOCOL.md
    #: 12.6); the flag then counts for nobody.
    disputed_by: int | None = None
    #: The seat whose flag was disputed (the flag's signer), with :attr:`disputed_by`.
    disputed_flag: int | None = None

    @property
    def loser(self) -> int | None:
        """The seat whose side loses the match by this abort: the flagged seat, the
        resigner or the leaver (None: the abort decides nothing)."""
        if self.decided is not None:
            return None
        if self.flag is not None:
            return self.flag
        if self.resigned or self.left:
            return self.by_seat
        return None

    def loser_side(self, players: int) -> int | None:
        """The side that loses the match by this abort (see :attr:`loser`); for a
        decided match, every side but the winner's is in its result, not here."""
        seat = self.loser
        return None if seat is None else loser_side(seat, players)

    @property
    def on_time(self) -> bool:
        """The match is lost on time by the :attr:`flag` seat's side (the host's word on
        the time, the transcript's on whose turn it was)."""
        return self.flag is not None

    @property
    def proven(self) -> bool:
        """The log itself convicts the blamed seat (or it blamed itself)."""
        return self.standing in (Standing.PROVEN, Standing.SELF)

    def describe(self, name: Any = None) -> str:
        """One sentence for people; ``name(seat) -> str`` names seats (default "seat N").
        An unproven accusation is worded as a claim."""
        def who(seat: int) -> str:
            return name(seat) if name is not None else f"seat {seat}"
        code = self.code.name.lower() if self.unknown_code is None \
            else f"code {safe_text(self.unknown_code, 40)}"
        # The signer's own words: shown, never obeyed by a terminal.
        why = f": {safe_text(self.detail, 1000)}" if self.detail else ""
        by, blamed = who(self.by_seat), self.blamed_seat
        if blamed is None:
            return f"{by} ended the game ({code}{why}), blaming nobody"
        if self.resigned:
            return f"{by} resigned"
        if self.flag is not None:
            # The transcript shows whose turn it was; the time itself is the signer's word.
            return (f"{who(self.flag)} lost on time ({code}{why}); the time is "
                    f"{by}'s word, the log shows {who(self.flag)} was to play")
        if self.disputed_by is not None and self.disputed_flag is not None:
            return (f"{by} flagged {who(self.disputed_by)} ({code}{why}) and "
                    f"{who(self.disputed_by)} disputes it: its own clock showed time left; "
                    "one word against the other, the match counts for nobody")
        if self.decided is not None:
            return (f"{by} ended the game ({code}{why}) after the match was decided: "
                    "the result stands")
        if self.standing == Standing.SELF:
            if self.code is ErrorCode.TIMEOUT:
                return f"{by} ran out of time ({code}{why})"
            return f"{by} left the game ({code}{why})"
        if self.standing == Standing.PROVEN:
            return f"{by} ended the game: {who(blamed)} broke the rules ({code}{why})"
        said = f"{by} says {who(blamed)} is at fault ({code}{why})"
        if self.standing == Standing.OWED:
            return (f"{said}; the log shows {who(blamed)} owed the next message, the delay "
                    "is the signer's word")
        if self.standing == Standing.REFUTED:
            return f"{said}; the entry it cites passes every check: the claim is refuted"
        return f"{said}; nothing in the log shows it"

    @property
    def resigned(self) -> bool:
        """The signer resigned (its own seat is the one the record names)."""
        return self.code == ErrorCode.RESIGNED and self.blamed_seat == self.by_seat

    def winner_side(self, players: int) -> int | None:
        """The side that wins the match by this abort: the decided result's winner; after
        a resignation, a leave or a loss on time the other side at 2 and 4 players (at
        3, the seat ahead of the two others, or nobody when they are level:
        :func:`flag_winner`); None for any other abort."""
        if self.decided is not None:
            return self.decided
        seat = self.loser
        if seat is None:
            return None
        return flag_winner(seat, players, self.totals)


@dataclass(frozen=True)
class MatchDone:
    """The match completed and every seat signed the same result."""

    winner_side: int
    totals: tuple[int, ...]
    hands: int

    @property
    def score(self) -> str:
        """The score as people say it, the winner's total first, then the others' in
        side order: ``"14-9"``, ``"11-8-6"``."""
        order = [self.winner_side, *(i for i in range(len(self.totals))
                                     if i != self.winner_side)]
        return "-".join(str(self.totals[i]) for i in order)


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
            raise LocalError("this identity does not hold that seat")
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
        self._events: list[object] = []
        self._floor = 0
        self._closing_seen = 0
        self._empty_run = 0
        self._transcript_bytes = 0  # the chain's frames, lengths included (MAX_TRANSCRIPT)
        #: The secret every deal secret of this seat derives from (kept for crash resume).
        self.master = master if master is not None else secrets.token_bytes(32)
        self.game = game if game is not None else GameDriver(table, seat, self.master)
        self._decided: dict[str, Any] | None = None
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
        secrets come out the same, so its own logged entries match what it would send."""
        session = cls.join(identity, wire.open_entry(bodies[0]), host_key, master,
                           speaks=speaks)
        for body in bodies[1:]:
            entry = wire.open_entry(body)
            if entry.seat == session.seat and entry.kind != "abort":
                # Already sent: it is this very entry.
                session.game.drop_sent(entry.fields.get("d"))
                session._decided = None
            session.receive(entry)
        session.replayed = tuple(session.take_events())
        session._events.append(TableReady(session.table, session.seat))
        return session

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
                                blamed_seat=0)
        if not verify_signature(key, ENTRY_DOMAIN, genesis.payload, genesis.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, "genesis", blamed_seat=0)
        return cls(None, table, None, genesis, bytes(32), game=game)

    @classmethod
    def join(cls, identity: Identity, genesis: Entry, host_key: bytes,
             master: bytes | None = None, *, speaks: Sequence[str] | None = None) -> Session:
        """A joining peer's session from the genesis the host sent, signed by ``host_key``."""
        if not verify_signature(host_key, ENTRY_DOMAIN, genesis.payload, genesis.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, "genesis", blamed_seat=0)
        table = TableInfo.from_entry(genesis)
        if table.seats[0].key != host_key:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "seat 0 is not the host",
                                blamed_seat=0)
        seat = next((s.seat for s in table.seats if s.key == identity.public), None)
        if seat is None:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "no seat for us", blamed_seat=0)
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
            raise LocalError("a session of no seat (an observer) has no seat of its own")
        return self.seat

    def _sign(self, kind: str, body: dict[str, Any]) -> Entry:
        """A new entry of this seat's, signed; a session of no seat signs nothing."""
        if self.identity is None:
            raise LocalError("a session of no seat (an observer) signs nothing")
        seat = self.own_seat
        return make_entry(self.identity, game=self.table.game, seat=seat,
                          seq=self.chain.next_seq[seat], prev=self.chain.head,
                          kind=kind, body=body)

    def take_events(self) -> list[object]:
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
            raise ProtocolError(ErrorCode.WRONG_GAME)
        if entry.seat >= t.players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "no such seat")
        key = t.seats[entry.seat].key
        if not verify_signature(key, ENTRY_DOMAIN, entry.payload, entry.signature):
            raise ProtocolError(ErrorCode.BAD_SIGNATURE, f"entry from seat {entry.seat}")
        if entry.kind == "abort":
            return
        if self.finished:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "the game is over")
        if entry.seq < self.chain.next_seq[entry.seat]:
            raise ProtocolError(ErrorCode.BAD_SEQUENCE, "an old entry replayed")
        if entry.prev != self.chain.head:
            raise ProtocolError(ErrorCode.BAD_CHAIN, "prev is not the transcript head")
        if entry.seat != self._floor:
            raise ProtocolError(ErrorCode.OUT_OF_TURN,
                                f"seat {entry.seat} spoke; seat {self._floor} holds the floor")
        if entry.seq != self.chain.next_seq[entry.seat]:
            raise ProtocolError(ErrorCode.BAD_SEQUENCE,
                                f"expected {self.chain.next_seq[entry.seat]}")

    def receive(self, entry: Entry, *, checked: bool = False) -> None:
        """Check and apply one entry from another seat.  :class:`ProtocolError`: refused,
        nothing changed.  :class:`GameFault`: accepted into the transcript but the game
        refuses it -- call :meth:`abort` and end the game.  ``checked``: :meth:`check`
        already passed (a relay forwards first, then applies)."""
        if not checked:
            self.check(entry)
        if entry.kind == "abort":
            self._on_abort(entry)
            return
        self._accept(entry)

    def _accept(self, entry: Entry) -> None:
        c = self.chain
        c.head = entry.id
        c.length += 1
        c.next_seq[entry.seat] = entry.seq + 1
        self.bodies.append(entry.body)
        self._transcript_bytes += 4 + len(entry.body)
        try:
            if self._transcript_bytes > wire.MAX_TRANSCRIPT:
                # Far beyond any honest match (PROTOCOL.md 2.1): whoever padded, the table
                # stops here, at the same entry for everyone, and blames nobody.
                raise GameFault(ErrorCode.TRANSCRIPT_TOO_LONG,
                                f"over {wire.MAX_TRANSCRIPT} bytes", None, entry.body)
            self._apply(entry)
        finally:
            self._events.extend(self.game.take_events())

    def _apply(self, entry: Entry) -> None:
        n = self.table.players
        kind, seat, f = entry.kind, entry.seat, entry.fields
        if self.chain.length == 1:  # the genesis: every seat says ready, in seat order
            self._floor = 0
            return
        if self.phase == Phase.READY:
            if kind != "ready":
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"expected ready, got {kind}",
                                seat, entry.body)
            self.readies.append(_ready_caps(f, seat, entry.body))
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
                                seat, entry.body)
            items = f.get("d", [])
            action = f.get("a")
            if not isinstance(items, list) or (action is not None
                                               and not isinstance(action, dict)):
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "turn fields", seat, entry.body)
            self.game.entry_body = entry.body
            try:
                progress = self.game.apply(seat, items, action)
            except GameFault as exc:
                if exc.evidence is None:
                    exc.evidence = entry.body
                raise
            if progress:
                self._empty_run = 0
            else:
                # Items held for a step that is not open yet are no progress: a seat that
                # withholds what it owes cannot keep the count low with them.
                self._empty_run += 1
                if self._empty_run > 2 * n:
                    self._stalled(seat, entry)
            self._floor = (seat + 1) % n
            if self.game.over:
                self.phase = Phase.CLOSING
            return
        if self.phase == Phase.CLOSING:
            result = self.game.result_body()
            if kind != "done":
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"expected done, got {kind}",
                                seat, entry.body)
            if not isinstance(f.get("result"), dict):
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "done.result is a map", seat,
                                entry.body)
            if not wire.same_value(f["result"], result):  # exact: `true` is not `1`
                raise GameFault(ErrorCode.RESULT_MISMATCH, f"seat {seat} signed another "
                                "result", seat, entry.body)
            self._closing_seen += 1
            self._floor = (seat + 1) % n
            if self._closing_seen == n:
                self.phase = Phase.DONE
                self.done = self.game.match_done()
                self._events.append(self.done)
            return
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "entry after the end", seat, entry.body)

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
        elif seat != own:
            blamed, detail = seat, "the game stalls: nobody acts"
        else:
            return  # nothing proves anyone at fault here; the next entry will tell
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, detail, blamed, entry.body)

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
        if evidence is not None and evidence in self.bodies[:self.length]:
            # It cites an entry of this transcript, which passed every check here: the
            # claim is refuted (as an auditor finds it, PROTOCOL 12.5).  A shuffle proof
            # still being checked apart (the entry is in the transcript before its
            # proof's verdict) is checked now, as the auditor will: one standing on every
            # screen and in every replay.  A proof refused here refutes nothing.
            try:
                self.game.settle()
            except GameFault:
                pass
            else:
                return Standing.REFUTED
        if by_seat != 0 and blamed != 0:
            # A joiner sees only its own link to the host, never another joiner's: its
            # word that one was too slow or away has no ground, whoever held the floor
            # (PROTOCOL.md 12.5).
            return Standing.CLAIMED
        if blamed == self.owing:
            return Standing.OWED
        return Standing.CLAIMED

    def _on_abort(self, entry: Entry, standing: str | None = None) -> None:
        f = entry.fields
        code = ErrorCode.from_wire(f.get("code"))
        unknown = None
        if code is None:
            code = ErrorCode.PROTOCOL_VIOLATION
            unknown = repr(f.get("code"))  # as the auditor writes it (observer)
        blamed = f.get("blamed")
        # A bool is an int to Python, not on the wire: `true` blames nobody (as an
        # auditor reads it), never seat 1.
        if not (isinstance(blamed, int) and not isinstance(blamed, bool)
                and 0 <= blamed < self.table.players):
            blamed = None
        why = f.get("why")
        if not isinstance(why, str):
            why = ""
        if self.aborted is None and self.phase != Phase.DONE:
            if standing is None:
                ev = f.get("evidence")
                standing = self.standing_of(blamed, entry.seat,
                                            ev if isinstance(ev, bytes) else None)
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
            self.aborted = Aborted(entry.seat, code, blamed, why, standing, flag, unknown,
                                   left=left, decided=decided, totals=totals)
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
        body: dict[str, Any] = {"code": int(ErrorCode.CLOCK_DISPUTE), "blamed": flag.seat,
                                "why": (detail or "my own clock showed time left")[:1000],
                                "evidence": flag.body, "clock": dict(clock)}
        entry = self._sign("abort", body)
        self._on_abort(entry)
        return entry

    # ------------------------------------------------------------------- sending

    def decide(self, choice: Any) -> None:
        """Answer :attr:`decision`: a ``rules.Move`` for ``play``, a bool (keep) for ``cut``.
        Raises the rules engine's IllegalMove (a LocalError-like misuse) if not legal."""
        d = self.decision
        if d is None:
            raise LocalError("no decision is pending")
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
        body: dict[str, Any]
        if self.phase == Phase.READY:
            caps = self.ready_caps()
            kind, body = "ready", ({} if caps is None else {"caps": list(caps)})
        elif self.phase == Phase.PLAYING:
            action = self._decided
            if action is None and not self.game.has_outbox and self.game.working:
                # Our deal's proof work runs elsewhere (jobs): its result (our proof, the
                # shares it releases) goes in this turn, not an empty one (which would
                # send the floor round for nothing, and count towards a stall).
                return None
            if action is None and self.game.decision() is not None \
                    and not (self.game.early_deal and self.game.has_outbox):
                return None  # waiting for the controller
            # With early-deal/v1 a seat that must still choose sends the deal messages it
            # owes now, without its action: the others get their cards while it thinks.
            self._decided = None
            body = {"d": self.game.outbox()}
            if action is not None:
                body["a"] = action
            kind = "turn"
        elif self.phase == Phase.CLOSING:
            kind, body = "done", {"result": self.game.result_body()}
        else:
            return None
        entry = self._sign(kind, body)
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
                                            proven=True)
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
            raise LocalError("the match is already over")
        return self.abort(ErrorCode.RESIGNED, self.seat, detail or "the player resigned")

    def abort(self, code: ErrorCode, blamed_seat: int | None, detail: str,
              evidence: bytes | None = None, *, proven: bool = False,
              flag: int | None = None, clock: dict[str, int] | None = None) -> Entry:
        """End the game with a signed record (off the chain): the code, whom it blames,
        why, and the offending entry's bytes as evidence.  ``proven``: this peer's own
        checks convict ``blamed_seat`` (a game fault); otherwise the record's
        :class:`Standing` is what the transcript shows (the seat owed, or a claim).
        ``flag``: the host's clocks flag that seat (``timeout``, ``peer_left``: a loss
        on time if :func:`flag_holds`); ``clock``: the signer's clock reading
        (:func:`make_clock`), which a flag carries so that a reader can bound it
        (PROTOCOL.md 12.6)."""
        body: dict[str, Any] = {"code": int(code), "blamed": blamed_seat,
                                "why": detail[:1000]}
        if flag is not None:
            body["flag"] = flag
        if clock is not None:
            body["clock"] = dict(clock)
        if evidence is not None and len(evidence) <= wire.MAX_EVIDENCE:
            body["evidence"] = evidence
        elif evidence is not None and (eid := wire.entry_id_of(evidence)) is not None:
            body["evidence_id"] = eid
        entry = self._sign("abort", body)
        standing = Standing.PROVEN if proven and blamed_seat is not None else None
        if standing is None:
            # Our own accusation: never called refuted here (the entry we cite may be
            # one of the chain that a peer misused, e.g. relayed again).
            standing = self.standing_of(blamed_seat, self.own_seat)
        self._on_abort(entry, standing)
        return entry


# ------------------------------------------------------------------------------ game


def _card(value: Any, seat: int) -> Card:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 40:
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"not a card id: {value!r}", seat)
    return Card(value)


def _pos(value: Any, seat: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 40:
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"not a deck position: {value!r}", seat)
    return value


_SECRET_TAG = b"chkobba-p2p/v1/deal-secret"


class DeckInstance:
    """One deal instance (:class:`chkobba_p2p.deal.Deal`) as the game driver uses it.

    The seat's secrets for the instance (shuffle seed, secret key, cut) are derived from the
    seat's master secret, the game id, the hand and the instance: the same inputs give the
    same secrets, which is what lets a crashed peer replay its log and carry on.
    """

    def __init__(self, table: TableInfo, seat: int | None, master: bytes, hand: int,
                 instance: int, cutter: int | None, outbox: list[dict[str, Any]], *,
                 caps: Sequence[str] | None = None) -> None:
        """``caps``: the table capabilities in effect (:attr:`Session.caps`; default the
        genesis's)."""
        caps = table.caps if caps is None else caps
        ctx = (table.game, hand.to_bytes(8, "big"), instance.to_bytes(8, "big"))
        seed: bytes | None = None
        x: int | None = None
        self._cut_k = 0
        if seat is not None:  # no seat (an observer): no secrets
            seed = hash_bytes(_SECRET_TAG, master, *ctx, b"seed")[:32]
            x = hash_to_scalar(_SECRET_TAG, master, *ctx, b"key") or 1
            self._cut_k = hash_to_scalar(_SECRET_TAG, master, *ctx, b"cut") % 40
        #: This seat's shuffle seed for the instance: its reveal is the one that opens it.
        self.own_seed = seed
        self.seat = seat
        self.cutter = cutter
        # The first-dealer draw deck is revealed right after the draw, which checks every
        # shuffle before any card is played and hides nothing: commit-reveal is enough there.
        proofs = CAP_SHUFFLE_PROOFS in caps and hand > 0
        # proof-apart/v1: the proof travels after its deck (deal/proof) and a seat's proof
        # work is deferred: done in each call while :attr:`inline`, else handed out as jobs.
        apart = proofs and CAP_PROOF_APART in caps
        self.deal = Deal(session_id=table.game, hand=hand, instance=instance, n=table.players,
                         seat=seat, cutter=cutter, shuffle_proofs=proofs,
                         seed=seed, secret_key=x, proof_apart=apart,
                         defer_work=apart and seat is not None)
        #: Do the deal's deferred proof work in each call (the default, and a replay's);
        #: False: :meth:`take_jobs` hands it out.
        self.inline = True
        #: Per seat and proof, the body of the last entry that carried that
        #: ``deal/proof`` (the evidence when that proof is refused, or when a second
        #: proof is: the entry of that very proof).
        self.proof_entries: dict[int, dict[bytes, bytes]] = {}
        self._out = outbox  # shared with the driver: it outlives the instance
        self._opened: dict[int, StepOpened] = {}
        self._requested: dict[tuple[int, ...], int] = {}
        self.shown_now: dict[int, tuple[int, Card]] = {}  # pos -> (seat, card), this entry
        self.verified = False
        self.finishing = False
        #: Our own reveal has gone out in an entry of the chain (not just queued).
        self.reveal_sent = seat is None  # no seat: no reveal of its own to wait for
        if seat is not None:
            self._run(self.deal.start)

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        try:
            self._take(fn(*args, **kwargs))
            while self.inline and self.deal.defer_work and self.deal.has_work:
                self._take(self.deal.work())
        except PeerMisbehaved as exc:
            proof = exc.evidence.get("proof") if isinstance(exc.evidence, dict) \
                and exc.evidence.get("t") == MSG_PROOF else None
            raise GameFault(ErrorCode.DEAL_FAILURE, f"{exc.code}: {exc.reason}",
                            exc.blamed_seat,
                            self.proof_entries.get(exc.blamed_seat, {}).get(proof)
                            if isinstance(proof, bytes) else None) from None

    def take_jobs(self) -> list[ProofJob]:
        """The deal's proof work to hand out now (none while :attr:`inline`)."""
        jobs: list[ProofJob] = []
        if self.inline or self.deal.phase == "failed":
            return jobs
        while (job := self.deal.take_job()) is not None:
            jobs.append(job)
        return jobs

    def settle(self) -> None:
        """Do every proof check still owed here and now, as a replay does: the jobs
        handed out and not back (computed again here; their results, when they come,
        are ignored), then the work waiting.  For a verdict that cannot wait for them (an
        abort citing an entry whose proof is being checked).  Raises :class:`GameFault`
        when a proof is refused, as :meth:`job_done` does."""
        if self.deal.phase == "failed":
            return
        for job in self.deal.jobs_out:
            self._run(self.deal.job_done, job, run_job(job))
        while self.deal.defer_work and self.deal.has_work:
            self._run(self.deal.work)

    @property
    def working(self) -> bool:
        """Proof work is handed out or waiting to be (never while :attr:`inline`)."""
        return not self.inline and self.deal.phase != "failed" \
            and (self.deal.busy or self.deal.has_work)

    def job_done(self, job: ProofJob, result: JobResult) -> bool:
        """Apply a job's result; False if it is not a job of this instance in flight."""
        if self.deal.phase == "failed" or not self.deal.handed_out(job):
            return False
        self._run(self.deal.job_done, job, result)
        return True

    def _take(self, out: Any) -> None:
        self._out.extend(out.messages)
        for ev in out.events:
            if isinstance(ev, StepOpened):
                self._opened[ev.step] = ev
            elif isinstance(ev, CardShown):
                self.shown_now[ev.pos] = (ev.seat, ev.card)
            elif isinstance(ev, Verified):
                self.verified = True

    def receive(self, seat: int, item: dict[str, Any]) -> None:
        self._run(self.deal.receive, seat, item)

    @property
    def ready(self) -> bool:
        """Shuffled (and cut, when there is a cutter): cards can be opened."""
        if self.deal.phase == "cut" and self.cutter == self.seat:
            self._run(self.deal.cut, self._cut_k)
        return self.deal.phase == "deal"

    def open(self, positions: list[int], recipients: tuple[int | None, ...]
             ) -> list[Card | None] | None:
        """Open ``positions`` to ``recipients`` (None: face up); the cards this seat may
        see once every share has arrived, else None (call again later)."""
        key = tuple(positions)
        if key not in self._requested:
            private: dict[int, list[int]] = {}
            public: list[int] = []
            for p, r in zip(positions, recipients, strict=True):
                if r is None:
                    public.append(p)
                else:
                    private.setdefault(r, []).append(p)
            self._requested[key] = len(self._requested)
            self._run(self.deal.open, private, public)
        ev = self._opened.get(self._requested[key])
        if ev is None:
            return None
        return [ev.public[p] if r is None else ev.mine.get(p) if r == self.seat else None
                for p, r in zip(positions, recipients, strict=True)]

    def show(self, pos: int, *, replaying: bool = False) -> None:
        """Show this seat's own position (play it or place it).  ``replaying``: the entry
        that showed it is already in the transcript (a resume replays our own log), so the
        message this makes again is not to be sent."""
        if not self.deal.is_played(pos):
            mark = len(self._out)
            self._run(self.deal.play, pos)
            if replaying:
                del self._out[mark:]

    def position_of(self, card: Card) -> int:
        for p in self.deal.hand_positions():
            if self.deal.card_at(p) == card:
                return p
        raise LocalError(f"{card} is not in this seat's hand")

    def shown(self, seat: int, pos: int) -> Card:
        """The card ``seat`` showed at ``pos`` in the entry being applied."""
        got = self.shown_now.get(pos)
        if got is None or got[0] != seat:
            raise GameFault(ErrorCode.DEAL_FAILURE,
                            f"seat {seat} did not show position {pos} with its action", seat)
        return got[1]

    def finish(self, discard: bool) -> bool:
        """Reveal this seat's seed (once) and report whether every seat's shuffle has been
        re-checked."""
        if not self.finishing:
            self.finishing = True
            self._run(self.deal.finish, discard=discard)
        return self.verified


class GameDriver:
    """The match inside the transcript, from one seat's view.

    The rules engine says what the hand waits for; the deal (one :class:`DeckInstance`
    per shuffle) turns deck positions into cards.  What the deal wants sent waits in
    :meth:`outbox` until the seat holds the floor; a seat's own choices become the
    entry's action.

    ``seat`` None: the match from no seat (a spectator's, an auditor's), every hand masked
    (``rules.SPECTATOR``).  An observer overrides the three hooks :meth:`make_deck`,
    :meth:`on_engine_event` and :meth:`on_deck_finished`; a seat uses them as they are.
    """

    def __init__(self, table: TableInfo, seat: int | None, master: bytes) -> None:
        self.table = table
        self.seat = seat
        self.master = master
        self.n = table.players
        self.match: Match | None = None
        self.over = False
        self.hand_no = 0  # 0: the first-dealer draw
        self.instance = 0
        self.deck: DeckInstance | None = None
        self.top = 0  # next undealt deck position
        self.draw: FirstDealerDraw | None = FirstDealerDraw(self.n)
        self._events: list[object] = []
        self._engine_events = 0
        self._finishing: str | None = None  # "draw", "redeal" or "hand"
        #: This hand's engine events with the deck positions each deal used.
        self._hand_trace: list[tuple[object, tuple[int, ...]]] = []
        self._out: list[dict[str, Any]] = []
        #: The table capabilities in effect (:meth:`set_caps`; the genesis's until then).
        self.caps: tuple[str, ...] = table.caps
        #: The table capability early-deal/v1: a turn may carry deal messages without the
        #: action the game waits for (PROTOCOL.md 6.2).
        self.early_deal = CAP_EARLY_DEAL in table.caps
        self._work_inline = True
        #: The body of the entry being applied (set by the session).
        self.entry_body: bytes | None = None

    # ------------------------------------------------------------------ running

    def set_caps(self, caps: Sequence[str]) -> None:
        """The table capabilities in effect (:attr:`Session.caps`), set by the session
        once every ready is in, before :meth:`start`: every deck follows them."""
        self.caps = tuple(caps)
        self.early_deal = CAP_EARLY_DEAL in self.caps

    @property
    def proof_apart(self) -> bool:
        """proof-apart/v1 is in effect (with shuffle-proof/v1)."""
        return CAP_SHUFFLE_PROOFS in self.caps and CAP_PROOF_APART in self.caps

    def start(self) -> None:
        self._new_deck(cutter=None)
        self._advance()

    def take_events(self) -> list[object]:
        out, self._events = self._events, []
        return out

    def outbox(self) -> list[Any]:
        out = self._out[:]
        self._out.clear()
        return out

    def drop_sent(self, items: object) -> None:
        """Replaying our own log (a resume): ``items``, the deal items of an entry of ours,
        were sent; they leave the outbox.  A replay does the proof work in each call, so
        with proof-apart/v1 it has made our ``deal/proof`` (and the shares that follow)
        ahead of the live run, which sent them in a later turn: those stay, matched at that
        later entry, or sent after the resume if the log ends first.  (Proof and share
        bytes differ between runs, their nonces being fresh: matched by type, step and
        position.)"""
        if not self.proof_apart or not isinstance(items, list):
            self._out.clear()  # every message we make goes in our next turn
            return
        def key(m: object) -> object:
            return (m.get("t"), m.get("step"), m.get("pos")) if isinstance(m, dict) else m
        for item in items:
            k = key(item)
            for i, m in enumerate(self._out):
                if key(m) == k:
                    del self._out[i]
                    break

    @property
    def work_inline(self) -> bool:
        """The deal's proof work is done in each call (default); False: handed out as
        jobs (:meth:`take_jobs`, :meth:`job_done`)."""
        return self._work_inline

    @work_inline.setter
    def work_inline(self, value: bool) -> None:
        self._work_inline = value
        if self.deck is not None:
            self.deck.inline = value

    @property
    def working(self) -> bool:
        """Proof work of the current deck is under way or waiting (never inline)."""
        return self.deck is not None and not self.over and self.deck.working

    def settle(self) -> None:
        """The current deck's proof checks, all done here and now (:meth:`DeckInstance.
        settle`); raises :class:`GameFault` for a refused proof."""
        if self.deck is not None and not self.over:
            self.deck.settle()

    def take_jobs(self) -> list[ProofJob]:
        """The current deck's proof work to hand out now."""
        if self.deck is None or self.over:
            return []
        return self.deck.take_jobs()

    def job_done(self, job: ProofJob, result: JobResult) -> None:
        """A job's result (ignored if not the current deck's); then advance."""
        if self.deck is None or self.over or not self.deck.job_done(job, result):
            return
        self._advance()

    @property
    def has_outbox(self) -> bool:
        """Deal messages of this seat wait to be sent."""
        return bool(self._out)

    @property
    def hand(self) -> Hand | None:
        return self.match.hand if self.match is not None else None

    def decision(self) -> Decision | None:
        hand = self.hand
        if hand is None or self.over or self._finishing or self.deck is None:
            return None
        p = hand.pending
        if isinstance(p, Turn) and p.seat == self.seat:
            kind = "play"
        elif isinstance(p, CutterChoice) and p.seat == self.seat:
            kind = "cut"
        else:
            return None
        m = self.match
        assert m is not None
        return Decision(kind, self.seat, hand, m.hand_number, m.totals, m.ruleset.target)

    def action_for(self, d: Decision, choice: Any) -> dict[str, Any]:
        """Check the local choice and turn it into the entry's action (showing the card)."""
        assert self.deck is not None
        hand = d.hand
        if d.kind == "play":
            if not isinstance(choice, Move):
                raise LocalError("a play decision takes a rules.Move")
            hand.play(self.seat, choice.card, choice.capture)  # raises IllegalMove
            pos = self.deck.position_of(choice.card)
            self.deck.show(pos)
            return {"t": "play", "pos": pos, "card": choice.card.id,
                    "take": sorted(c.id for c in choice.capture)}
        if bool(choice):
            return {"t": "cut", "keep": True}
        pos = self.top - 1  # the drawn card
        self.deck.show(pos)
        return {"t": "cut", "keep": False, "pos": pos}

    def apply(self, seat: int, items: list[Any], action: dict[str, Any] | None) -> bool:
        """Apply one turn of ``seat``.  Returns whether it made progress: an action, or a
        deal item used at once (an item held for a step not open yet is none)."""
        assert self.deck is not None
        self.deck.shown_now = {}
        progress = action is not None
        if seat == self.seat:  # our own items were made by our own deal object
            # An entry may carry the previous deck's reveal and then the next deck's key
            # (the last seat to reveal a discarded deck starts the next one at once): a
            # reveal counts for the deck whose seed it opens, never for the current one
            # by position.  (Marking the wrong deck let this seat end a later hand before
            # its own reveal was in the chain, and sign ``done`` while others waited.)
            for i in items:
                if isinstance(i, dict) and i.get("t") == MSG_REVEAL \
                        and i.get("seed") == self.deck.own_seed:
                    self.deck.reveal_sent = True
            progress = progress or bool(items)
        else:
            for item in items:
                if not isinstance(item, dict):
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item is a map", seat)
                if self.deck is None:
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item after the end",
                                    seat)
                held = self.deck.deal.held
                proof = item.get("proof")
                if item.get("t") == MSG_PROOF and isinstance(proof, bytes) \
                        and self.entry_body is not None:
                    self.deck.proof_entries.setdefault(seat, {})[proof] = self.entry_body
                self.deck.receive(seat, item)
                progress = progress or self.deck.deal.held <= held
                # An item may complete an instance; the next item may belong to the next.
                self._advance()
        if action is not None:
            self._act(seat, action)
        elif self.waits_for(seat) and not self._out and not (items and self.early_deal):
            # Every deal message this seat made is in the transcript, so the sender had
            # everything we have (its own items are applied too): it knew it had to
            # choose.  (With messages of ours still unsent, the sender may lack them: a
            # step that is complete here may not be complete there yet.)  Under
            # early-deal/v1 it may still send the deal messages it owes first.
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "an empty turn while the game "
                            f"waits for seat {seat}'s choice", seat)
        self._advance()
        return progress

    def owed(self) -> tuple[int, ...]:
        """Seats whose message the game waits for now: a deal message (key, shuffle, cut,
        shares, reveal: as this seat's deal expects them, plus this seat itself while its
        own are unsent) or a choice (a play or the cut)."""
        seats: set[int] = set()
        if self.deck is not None and not self.over:
            seats.update(s for s, _ in self.deck.deal.expecting())
            if self._out and self.seat is not None:
                seats.add(self.seat)
        seats.update(s for s in range(self.n) if self.waits_for(s))
        return tuple(sorted(s for s in seats if isinstance(s, int) and 0 <= s < self.n))

    def waits_for(self, seat: int) -> bool:
        """Whether the game waits for ``seat``'s choice (a play or the cut) now."""
        hand = self.hand
        if hand is None or self.over or self._finishing or self.deck is None:
            return False
        p = hand.pending
        return isinstance(p, Turn | CutterChoice) and p.seat == seat

    # ------------------------------------------------------------------ engine

    def _act(self, seat: int, action: dict[str, Any]) -> None:
        hand = self.hand
        deck = self.deck
        if hand is None or self.over or self._finishing or deck is None:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "no action is due", seat)
        p = hand.pending
        t = action.get("t")
        if t not in ("play", "cut"):
            # New action types come only with a table capability that announces them.
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"unknown action type {t!r}", seat)
        try:
            if t == "play" and isinstance(p, Turn) and p.seat == seat:
                card = _card(action.get("card"), seat)
                pos = _pos(action.get("pos"), seat)
                take = action.get("take")
                if not isinstance(take, list) or len(take) > 10:
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "take is a list", seat)
                capture = [_card(c, seat) for c in take]
                if len(set(capture)) != len(capture):
                    # A set on the wire: the engine would merge repeats silently.
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "take names a card twice",
                                    seat)
                if seat == self.seat:
                    deck.show(pos, replaying=True)  # a no-op unless replaying our log
                elif deck.shown(seat, pos) != card:
                    raise GameFault(ErrorCode.DEAL_FAILURE,
                                    f"seat {seat} names {card} but showed "
                                    f"{deck.shown(seat, pos)}", seat)
                self._set_hand(hand.play(seat, card, capture))
            elif t == "cut" and isinstance(p, CutterChoice) and p.seat == seat:
                keep = action.get("keep")
                if not isinstance(keep, bool):
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "keep is a bool", seat)
                placed = None
                if keep and "pos" in action:
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a kept card has no pos",
                                    seat)
                if not keep:
                    pos = _pos(action.get("pos"), seat)
                    if pos != self.top - 1:
                        raise GameFault(ErrorCode.ILLEGAL_MOVE, "only the drawn card may be "
                                        "placed", seat)
                    if seat == self.seat:
                        deck.show(pos, replaying=True)
                    else:
                        placed = deck.shown(seat, pos)
                self._set_hand(hand.choose_cut(keep, placed))
            else:
                raise GameFault(ErrorCode.ILLEGAL_MOVE,
                                f"action {t!r} while the hand waits for {p}", seat)
        except IllegalMove as exc:
            raise GameFault(ErrorCode.ILLEGAL_MOVE, f"{exc.rule}: {exc}", seat) from None
        except InvalidDeal as exc:
            raise GameFault(ErrorCode.DEAL_FAILURE, str(exc), seat) from None

    def _set_hand(self, hand: Hand) -> None:
        assert self.match is not None
        new = hand.events[self._engine_events:]
        self._engine_events = len(hand.events)
        self._events.extend(new)
        for ev in new:
            positions: tuple[int, ...] = ()
            if isinstance(ev, DealEvent):
                positions = tuple(range(self.top - len(ev.recipients), self.top))
            self._hand_trace.append((ev, positions))
            self.on_engine_event(ev, positions)
        self.match = self.match.with_hand(hand)

    # ------------------------------------------------------------------ hooks

    def make_deck(self, cutter: int | None) -> DeckInstance:
        """The deck instance of the next shuffle (:attr:`hand_no`, :attr:`instance`)."""
        return DeckInstance(self.table, self.seat, self.master, self.hand_no,
                            self.instance, cutter, self._out, caps=self.caps)

    def on_engine_event(self, event: object, positions: tuple[int, ...]) -> None:
        """Called for every rules-engine event of the hand (a deal, the cut, a play, the
        last sweep), with the deck positions a deal used; nothing for a seat."""

    def on_deck_finished(self, kind: str) -> Sequence[object]:
        """Called once a deck instance's seeds are open and verified, before the match
        moves on: ``kind`` is ``"draw"``, ``"redeal"`` or ``"hand"`` (then the hand is over
        and not scored yet); :attr:`deck` still holds that instance.  Returns events to
        report then; none for a seat."""
        return ()

    def _new_deck(self, cutter: int | None) -> None:
        self.deck = self.make_deck(cutter)
        self.deck.inline = self._work_inline
        self.top = 0
        self._engine_events = 0
        self._finishing = None

    def _start_hand(self) -> None:
        assert self.match is not None and self.match.hand is not None
        hand = self.match.hand
        cutter = hand.cutter if hand.ruleset.opening is Opening.CUT_AND_DRAW else None
        self._new_deck(cutter)
        self._hand_trace = []

    def _recheck_hand(self) -> None:
        """The forced-capture variant, checked once every card is known.

        During the hand a peer cannot check another seat's play against that seat's hidden
        cards.  At its end every card has been shown, so the hand is re-driven with every
        hand known (an omniscient engine) and each play checked again; a play the rules
        forbid is blamed on its player (``illegal_move``), at every peer at this same
        entry."""
        assert self.match is not None and self.deck is not None
        rules = self.table.rules
        if not rules.forced_capture:
            return  # every other rule depends only on what everyone sees
        deal = self.deck.deal
        hand = Hand.new(rules, self.n, self.match.dealer)
        plays = 0
        for ev, positions in self._hand_trace:
            try:
                if isinstance(ev, DealEvent):
                    cards = [deal.card_at(p) for p in positions]
                    if None in cards:
                        raise LocalError("a card of the hand is still unknown at its end")
                    hand = hand.deal(cards)
                elif isinstance(ev, CutEvent):
                    hand = hand.choose_cut(ev.keep, ev.card)
                elif isinstance(ev, PlayEvent):
                    plays += 1
                    hand = hand.play(ev.seat, ev.card, ev.capture)
            except IllegalMove as exc:
                seat = getattr(ev, "seat", 0)
                raise GameFault(ErrorCode.ILLEGAL_MOVE,
                                f"{exc.rule}: {exc} (play {plays} of hand "
                                f"{self.match.hand_number}, found once every card was "
                                "known)", seat) from None

    def _advance(self) -> None:
        """Take every step that needs no one's choice and no message not yet received."""
        while not self.over and self.deck is not None:
            deck = self.deck
            if self._finishing is not None:
                if not deck.finish(discard=self._finishing != "hand"):
                    return
                # Every instance (draw, redeal, hand) ends at the same entry for
                # everyone: the one that carries the last reveal, ours included.  (Our
                # reveal counts once the entry carrying it is in the chain, not when
                # our deal makes it.)
                if not deck.reveal_sent:
                    return
                self._after_finish()
                continue
            if not deck.ready:
                return
            if self.draw is not None:
                if not self._first_dealer():
                    return
                continue
            hand = self.hand
            assert hand is not None and self.match is not None
            p = hand.pending
            if isinstance(p, DealStep):
                positions = list(range(self.top, self.top + len(p.recipients)))
                cards = deck.open(positions, p.recipients)
                if cards is None:
                    return
                self.top += len(positions)
                self._set_hand(hand.deal(cards))
            elif isinstance(p, Redeal):
                self._finishing = "redeal"
            elif isinstance(p, HandOver):
                self._finishing = "hand"
            else:
                return  # a seat's choice

    def _after_finish(self) -> None:
        assert self.match is not None
        kind = self._finishing
        assert kind is not None
        self._events.extend(self.on_deck_finished(kind))
        self._finishing = None
        if kind == "draw":
            self.hand_no, self.instance = 1, 0
            self._events.append(HandStarted(1, self.match.dealer))
            self._start_hand()
            return
        if kind == "redeal":
            self._events.append(RedealEvent(self.match.dealer))
            self.match = self.match.redeal()
            self.instance += 1
            self._start_hand()
            return
        number = self.match.hand_number
        self._recheck_hand()
        self.match = self.match.finish_hand()
        res = self.match.results[-1]
        self._events.append(HandScored(number, res.score, res.totals))
        if self.match.is_over:
            self.over = True
            self.deck = None
            self._events.append(MatchOver(self.match.winner, self.match.totals))
            return
        self.hand_no += 1
        self.instance = 0
        self._events.append(HandStarted(self.match.hand_number, self.match.dealer))
        self._start_hand()

    def _first_dealer(self) -> bool:
        fd, deck = self.draw, self.deck
        assert fd is not None and deck is not None
        draw = fd.next_draw()
        seats = sorted(draw)
        positions = [draw[s] for s in seats]
        cards = deck.open(positions, (None,) * len(seats))
        if cards is None:
            return False
        drawn = {s: c for s, c in zip(seats, cards, strict=True) if c is not None}
        self._events.append(FirstDealerDrawn(dict(drawn)))
        dealer = fd.record(drawn)
        if dealer is None:
            return True  # a tie: the tied seats draw again
        self.draw = None
        self.match = Match.new(self.table.rules, self.n, dealer,
                               viewer=SPECTATOR if self.seat is None else self.seat)
        # The draw deck is abandoned: reveal it, then the first hand gets a fresh deck.
        self._finishing = "draw"
        return True

    # ------------------------------------------------------------------ result

    def result_body(self) -> dict[str, Any]:
        assert self.match is not None
        return {"winner": self.match.winner, "totals": list(self.match.totals),
                "hands": len(self.match.results)}

    def match_done(self) -> MatchDone:
        assert self.match is not None and self.match.winner is not None
        return MatchDone(self.match.winner, self.match.totals, len(self.match.results))


@dataclass(frozen=True)
class TableReady:
    """The genesis is accepted: the table as it signed it, and the local seat (None: a
    session of no seat, an observer's).  The first event of every session (and of a
    resumed one)."""

    table: TableInfo
    seat: int | None


@dataclass(frozen=True)
class FirstDealerDrawn:
    """The first-dealer draw: the card each contender drew (a tie draws again)."""

    draws: dict[int, Card]




@dataclass(frozen=True)
class HandStarted:
    number: int
    dealer: int


@dataclass(frozen=True)
class RedealEvent:
    dealer: int


@dataclass(frozen=True)
class HandScored:
    number: int
    score: Any  # rules.HandScore
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchOver:
    winner_side: int | None
    totals: tuple[int, ...]
