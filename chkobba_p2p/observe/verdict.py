"""What an observer finds: the verdict on a game (:class:`Verdict`: valid, invalid with
the seat to blame, incomplete, unsupported) and the aborts it read (:class:`AbortClaim`,
each a seat's claim with what the log shows of it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game.seating import SHAPES, Seating
from ..transcript.caps import IMPLEMENTED_CAPABILITIES
from ..transcript.events import Standing
from ..wire.codec import Entry, ErrorCode
from .events import ObserverEvent

__all__ = [
    "VALID",
    "INVALID",
    "INCOMPLETE",
    "UNSUPPORTED",
    "ON_TIME",
    "LEFT",
    "DECIDED",
    "DISPUTED",
    "UNKNOWN_CAPABILITY",
    "unknown_capabilities",
    "Verdict",
    "AbortClaim",
    "abort_claim",
]

VALID = "valid"
INVALID = "invalid"
INCOMPLETE = "incomplete"
#: The code of a VALID verdict whose match was lost on time: the host's flag on the seat
#: to play (:func:`~chkobba_p2p.transcript.clocks.flag_holds`).
ON_TIME = "on_time"
#: The code of a VALID verdict whose match a seat left while it was played (a signed
#: ``peer_left`` against itself): a loss for the leaver's side.
LEFT = "left"
#: The code of a VALID verdict whose match was decided (every hand played, the result
#: being signed) when the log stops: the result stands without every ``done``.
DECIDED = "decided"
#: The code of an INCOMPLETE verdict whose flag the flagged seat disputed with its own
#: clock reading (PROTOCOL.md 12.6): counted for nobody.
DISPUTED = "disputed"
#: The verdict of an observer that meets a table capability it does not know
#: (:func:`unknown_capabilities`): it cannot audit that match, and blames no one
#: (PROTOCOL.md 3).  Its code is :data:`UNKNOWN_CAPABILITY`, its
#: :attr:`Verdict.unknown_caps` the capabilities.
UNSUPPORTED = "unsupported"
UNKNOWN_CAPABILITY = "unknown_capability"


def unknown_capabilities(genesis: Sequence[str], readies: Sequence[Sequence[str] | None],
                         knows: Sequence[str] = IMPLEMENTED_CAPABILITIES) -> tuple[str, ...]:
    """The table capabilities that may be in effect and that an observer implementing
    ``knows`` does not know (PROTOCOL.md 3): an observer that plays on without them would
    read the seats' new way as a violation and blame an honest seat.  A capability it does
    not know counts as a binding one (every table capability after ``proof-apart/v1`` is):
    in effect when the ``genesis`` holds it and every seat's ``ready.caps`` lists it, or,
    in a log of before ``ready.caps`` (no ready has the field), when the genesis holds
    it.  ``readies``: each seat's ``ready.caps`` (None: no such field)."""
    legacy = all(r is None for r in readies)
    return tuple(dict.fromkeys(
        c for c in genesis
        if c not in knows and (legacy or all(r is not None and c in r for r in readies))))


@dataclass(frozen=True)
class AbortClaim:
    """An ``abort`` entry: who signed it and what it says (a claim: the log cannot prove
    it)."""

    index: int
    by_seat: int
    code: str
    blamed: int | None
    why: str
    #: What the transcript shows of the accusation (a
    #: :class:`~chkobba_p2p.transcript.events.Standing`): ``proven`` (the observer's own checks
    #: convict that seat), ``owed`` (the blamed seat owed the next message), ``self`` (a
    #: seat that left), ``claimed`` (nothing shows it), ``refuted`` (its evidence passes
    #: every check).
    standing: str = Standing.CLAIMED
    #: The host's flag on the seat to play, which stands (:func:`~chkobba_p2p.transcript.session.
    #: flag_holds`): the blamed seat lost on time.
    on_time: bool = False

    def describe(self, label: Any = None) -> str:
        """The abort in one sentence, an unproven accusation worded as a claim
        (``label(seat) -> str`` names seats; default "seat N")."""
        by = label(self.by_seat) if label else f"seat {self.by_seat}"
        why = f": {self.why}" if self.why else ""
        if self.blamed is None:
            return f"{by} ended the game ({self.code}{why}), blaming nobody"
        who = label(self.blamed) if label else f"seat {self.blamed}"
        if self.code == "resigned" and self.blamed == self.by_seat:
            return f"{by} resigned"
        if self.on_time:
            return (f"{who} lost on time ({self.code}{why}); the time is {by}'s word, the "
                    f"log shows {who} was to play")
        if self.standing == Standing.SELF:
            if self.code == ErrorCode.TIMEOUT.name.lower():
                return f"{by} ran out of time ({self.code}{why})"
            return f"{by} left the game ({self.code}{why})"
        if self.standing == Standing.PROVEN:
            return f"{by} blames {who} ({self.code}{why}); the log proves it"
        said = f"{by} says {who} is at fault ({self.code}{why})"
        if self.standing == Standing.OWED:
            return f"{said}; the log shows {who} owed the next message"
        if self.standing == Standing.REFUTED:
            return f"{said}; the entry it cites passes every check: the claim is refuted"
        if self.standing == Standing.DISPUTED:
            if self.code == ErrorCode.CLOCK_DISPUTE.name.lower():
                return (f"{by} disputes {who}'s flag ({self.code}{why}): its own clock "
                        "showed time left; one word against the other")
            return (f"{by} flagged {who} ({self.code}{why}), who disputes it with its own "
                    "clock; one word against the other")
        return f"{said}; nothing in the log shows it"


@dataclass(frozen=True)
class Verdict(ObserverEvent):
    """The observer's finding.  ``verdict``: :data:`VALID` (complete and correct),
    :data:`INVALID` (``entry``: index of the first offending entry, 0 = the genesis;
    ``code``: the wire code name such as ``illegal_move``; ``blamed``: the seat to blame,
    or None when no signature pins it on a seat), :data:`INCOMPLETE` (``code``
    ``aborted``, ``truncated`` or ``unfinished``; ``blamed``: whom an abort's claim
    blames) or :data:`UNSUPPORTED` (``code`` :data:`UNKNOWN_CAPABILITY`: the table plays
    :attr:`unknown_caps`, which this observer does not know, so it cannot audit the
    match; ``entry``: the last ``ready``, where the table's capabilities were settled;
    ``blamed`` None: nobody is blamed).  ``reason``: a sentence."""

    verdict: str
    code: str | None
    reason: str
    blamed: int | None = None
    entry: int | None = None
    #: For an aborted transcript: the standing of the abort that ended it (``blamed`` is
    #: set only when the transcript supports it: ``owed`` or ``self``).
    standing: str | None = None
    #: For an abort or a resignation: the seat that signed it (its :class:`AbortClaim`
    #: says more); lets a client word the verdict in its players' names and language.
    by_seat: int | None = None
    #: For a VALID match: the winning side (0 or 1) and the sides' totals (empty after a
    #: resignation), the same data as ``reason``'s sentence.
    winner: int | None = None
    totals: tuple[int, ...] = ()
    #: For a match lost by a flag, a resignation or a leave: the losing side (at 3
    #: players there may be a loser and no winner: the two others were level).
    loser: int | None = None
    #: For an :data:`UNSUPPORTED` verdict: the table capabilities the observer does not
    #: know (as the genesis spells them), the reason it cannot audit the match.
    unknown_caps: tuple[str, ...] = ()

    def describe(self, names: Sequence[str]) -> str:
        """:attr:`reason` in the players' words: ``names`` are the seats' names (the table's
        order), sides at 4 players are "ali & sami".  "bob resigned (entry #115): alice wins
        the match by resignation"; "alice wins 11-7"; for what no name changes (a
        violation's reason), :attr:`reason` as it is."""
        def who(seat: int | None) -> str:
            if seat is not None and 0 <= seat < len(names):
                return names[seat]
            return "nobody" if seat is None else f"seat {seat}"

        def side(s: int) -> str:
            n = len(names)
            seating = Seating.of(n) if n in SHAPES else None
            return " & ".join(names[x] for x in seating.seats_of(s)) \
                if seating is not None and seating.teams else who(s)

        def wins(s: int) -> str:  # the verb agrees: "ali & sami win", "alice wins"
            n = len(names)
            two = n in SHAPES and Seating.of(n).teams
            return f"{side(s)} {'win' if two else 'wins'}"

        at = f" (entry #{self.entry})" if self.entry is not None else ""
        if self.verdict == VALID and self.code == ON_TIME:
            role = " (the host)" if self.by_seat == 0 else ""
            word = "the host" if self.by_seat == 0 else who(self.by_seat)
            won = f"{wins(self.winner)} the match on time" if self.winner is not None \
                else "the two others are level, nobody wins"
            return (f"{who(self.blamed)} lost on time{at}, as {who(self.by_seat)}{role} "
                    f"says: {won}; the log shows {who(self.blamed)} was to play, the time "
                    f"is {word}'s word (its signed clock reading, in the log, is its own)")
        if self.verdict == VALID and self.code == LEFT and self.by_seat is not None:
            won = f"{wins(self.winner)} the match" if self.winner is not None \
                else "the two others are level, nobody wins"
            return f"{who(self.by_seat)} left the match{at}: {won}"
        if self.verdict == VALID and self.code == DECIDED and self.winner is not None:
            score = "-".join(map(str, sorted(self.totals, reverse=True)))
            return (f"decided: {wins(self.winner)} {score} (the game stopped while the "
                    "result was being signed; the result stands)")
        if self.verdict == INCOMPLETE and self.code == DISPUTED and self.blamed is not None \
                and self.by_seat is not None:
            return (f"{who(self.by_seat)} flagged {who(self.blamed)}{at} and "
                    f"{who(self.blamed)} disputes it with its own clock, which showed time "
                    "left: one word against the other, the match counts for nobody")
        if self.verdict == VALID and self.code == "resigned" and self.winner is None \
                and self.by_seat is not None:
            return f"{who(self.by_seat)} resigned{at}: the two others are level, nobody wins"
        if self.verdict == VALID and self.code == "resigned" and self.winner is not None:
            return f"{who(self.by_seat)} resigned{at}: {wins(self.winner)} the match " \
                "by resignation"
        if self.verdict == VALID and self.winner is not None and self.totals:
            score = "-".join(map(str, sorted(self.totals, reverse=True)))
            return f"complete: {wins(self.winner)} {score}"
        if self.verdict == INCOMPLETE and self.code == "aborted" and self.by_seat is not None:
            by = who(self.by_seat)
            if self.standing == Standing.SELF:
                what = f"{by} left the game"
            elif self.standing == Standing.OWED and self.blamed is not None:
                what = f"{by} ended the game; the log shows {who(self.blamed)} owed the next " \
                    "message"
            elif self.standing == Standing.REFUTED:
                what = f"{by} ended the game; the entry its abort cites passes every check, " \
                    "which refutes its claim"
            else:
                what = f"{by} ended the game"
            return f"{what}; no violation in the entries before it"
        return self.reason


def abort_claim(index: int, entry: Entry, players: int,
                 standing: str = Standing.CLAIMED) -> AbortClaim:
    f = entry.fields
    known = ErrorCode.from_wire(f.get("code"))
    code = known.name.lower() if known is not None else f"code {f.get('code')!r}"
    blamed = f.get("blamed")
    if not (isinstance(blamed, int) and not isinstance(blamed, bool) and 0 <= blamed < players):
        blamed = None
    why = f.get("why")
    if not isinstance(why, str):
        why = ""
    return AbortClaim(index, entry.seat, code, blamed, why[:1000], standing)
