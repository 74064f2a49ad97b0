"""The transcript's events: what a session reports (:meth:`Session.take_events`), in
the order it happens, and how a game ended (:class:`Aborted` and its :class:`Standing`,
:class:`MatchDone`).  Codes and data; the rules engine's own events are in
:mod:`chkobba_p2p.game.events`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from ..game.cards import Card
from ..game.events import GameEvent
from ..wire.codec import (
    ErrorCode,
)
from .base import TranscriptEvent
from .clocks import flag_winner, loser_side
from .table import TableInfo

__all__ = [
    "TranscriptEvent",
    "SessionEvent",
    "Standing",
    "Aborted",
    "MatchDone",
    "TableReady",
    "FirstDealerDrawn",
    "HandStarted",
    "CardsSeen",
    "RedealEvent",
    "HandScored",
    "MatchOver",
]


class Standing:
    """How far the transcript itself supports an abort's accusation (:attr:`Aborted.standing`).

    An ``abort`` is its signer's word; only what the log shows is proven.  A client words
    it for people (the terminal client: ``chkobba_cli.words.event_words.words``)."""

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



@dataclass(frozen=True)
class Aborted(TranscriptEvent):
    """The game ended early: who signed the record, the code, whom it blames, why.

    ``standing`` (a :class:`Standing` value) says what the log shows of the accusation:
    an abort is its signer's claim unless a check convicts the blamed seat.  It is data,
    no sentence: a client words it from these fields (``by_seat``, ``code`` or
    ``unknown_code``, ``blamed_seat``, ``detail``, ``standing``, ``flag``, ``left``,
    ``decided``, ``disputed_by``), showing an unproven accusation as a claim, never as
    a bare "blaming seat N", and ``detail`` (the signer's free text) made safe
    (:func:`~chkobba_p2p.text.safe_text`).

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

    A **conviction** (:attr:`convicted`): an abort whose standing is
    :attr:`Standing.PROVEN` (this peer's own check convicts the blamed seat: an entry it
    signed breaks a rule), taken while the match was played: a loss for the convicted
    seat's side, as a leave (PROTOCOL.md 12.7).  A claim, an ``owed`` standing, a
    refuted or disputed abort convicts nobody.

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
    #: When this peer signed the abort on its own check's finding: the check's code
    #: (:data:`~chkobba_p2p.errors.VIOLATIONS`) and facts, which ``detail`` says in
    #: English.  Not signed (the record carries ``detail`` only): None and ``()`` for an
    #: abort another seat signed, or one read back from a log.
    violation: str | None = None
    facts: tuple[tuple[str, str | int], ...] = ()
    #: The seat this peer's own check convicts (standing :attr:`Standing.PROVEN`)
    #: while the match was played: a cheat loses the match, it does not void it.
    convicted: int | None = None

    @property
    def loser(self) -> int | None:
        """The seat whose side loses the match by this abort: the flagged seat, the
        resigner, the leaver or the convicted seat (None: the abort decides nothing)."""
        if self.decided is not None:
            return None
        if self.flag is not None:
            return self.flag
        if self.resigned or self.left:
            return self.by_seat
        if self.convicted is not None and self.standing == Standing.PROVEN:
            return self.convicted
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

    @property
    def resigned(self) -> bool:
        """The signer resigned (its own seat is the one the record names)."""
        return self.code == ErrorCode.RESIGNED and self.blamed_seat == self.by_seat

    def winner_side(self, players: int) -> int | None:
        """The side that wins the match by this abort: the decided result's winner; after
        a resignation, a leave, a loss on time or a conviction the other side at 2 and 4 players (at
        3, the seat ahead of the two others, or nobody when they are level:
        :func:`flag_winner`); None for any other abort."""
        if self.decided is not None:
            return self.decided
        seat = self.loser
        if seat is None:
            return None
        return flag_winner(seat, players, self.totals)


@dataclass(frozen=True)
class MatchDone(TranscriptEvent):
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


@dataclass(frozen=True)
class TableReady(TranscriptEvent):
    """The genesis is accepted: the table as it signed it, and the local seat (None: a
    session of no seat, an observer's).  The first event of every session (and of a
    resumed one)."""

    table: TableInfo
    seat: int | None


@dataclass(frozen=True)
class FirstDealerDrawn(TranscriptEvent):
    """The first-dealer draw: the card each contender drew (a tie draws again)."""

    draws: dict[int, Card]




@dataclass(frozen=True)
class HandStarted(TranscriptEvent):
    number: int
    dealer: int


@dataclass(frozen=True)
class CardsSeen(TranscriptEvent):
    """This seat's cards of a round, dealt by the rules before every seat's share of
    them was in (``seat-deal/v1``, PROTOCOL.md 6.2): the round's :class:`DealEvent`
    showed them unknown; now they are this seat's to see, in the order dealt."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class RedealEvent(TranscriptEvent):
    dealer: int


@dataclass(frozen=True)
class HandScored(TranscriptEvent):
    number: int
    score: Any  # rules.HandScore
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchOver(TranscriptEvent):
    winner_side: int | None
    totals: tuple[int, ...]


SessionEvent: TypeAlias = GameEvent | TranscriptEvent
"""What a session (and its driver) reports: the rules engine's events and its own."""
