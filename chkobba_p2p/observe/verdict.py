"""What an observer finds: the verdict on a game (:class:`Verdict`: valid, invalid with
the seat to blame, incomplete, unsupported) and the aborts it read (:class:`AbortClaim`,
each a seat's claim with what the log shows of it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
    "FINDINGS",
    "WARNINGS",
    "Note",
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


#: The observer's own findings about a file it cannot read to the end (what it says in
#: no check's words): each :attr:`Verdict.finding` with the keys of its
#: :attr:`Verdict.facts` (``last``: the last entry read; ``phase``: the transcript's
#: phase then; ``tail``: the log reader's words for the damage; ``detail``: a check's
#: own words; ``error``: the class name of an exception the observer met, whose message
#: (a developer's English) stays in :attr:`Verdict.reason`; ``seat``, ``signer``: seat
#: numbers).  A client words them.
FINDINGS: dict[str, tuple[str, ...]] = {
    "no_entry": (),  # not even the genesis
    "empty_log": (),  # a log file with no entry, not even the genesis
    "not_started": (),  # a spectator's watching stopped before the genesis came
    "stops_after": ("last", "phase"),  # the transcript stops before the match is complete
    "torn_after": ("last",),  # the file ends in the middle of a frame
    "damaged_after": ("last", "tail"),  # the file is damaged past repair
    "short_of_signed": (),  # the full-knowledge replay does not reach the signed result
    "short_of_decided": (),  # ... nor the decided one
    "cannot_process": ("error",),  # an entry the observer cannot process
    "not_an_entry": ("detail",),  # bytes that are not a signed entry
    "genesis_refused": ("detail",),
    "genesis_not_host": (),  # the genesis does not seat the host in seat 0
    "genesis_unsigned": (),  # not signed by the key it gives the host
    "signed_by_other": ("seat", "signer"),  # an entry in seat's name, signer's signature
    "signature_altered": ("seat",),  # an entry in seat's name, altered after signing
    "not_extending": (),  # an entry before it is missing, reordered or replaced
}


#: What an auditor notes without a verdict of its own (:class:`Note`): each code with
#: the keys of its facts (``seat``: a seat number).  A client words them.
WARNINGS: dict[str, tuple[str, ...]] = {
    "evidence_in_transcript": ("seat",),  # an abort cites an entry that passes every check
    "evidence_not_entry": ("seat",),  # an abort's evidence is not a signed entry
    "evidence_refused": ("seat",),  # an abort's evidence (an entry we lack) is refused
    "evidence_passes": ("seat",),  # ... passes every check: the claim is not supported
    "torn_after_end": (),  # a torn frame after the end of the match, ignored
    "header_other_game": (),  # the log's (unsigned) header names another game
    "header_seat_mismatch": (),  # the header's seat and key are not the genesis's
}


class Note(str):
    """An auditor's warning: the English sentence itself (a ``str``, for logs and JSON,
    as warnings always were) with its ``code`` (one of :data:`WARNINGS`) and ``facts``
    for a client's words."""

    code: str
    facts: tuple[tuple[str, str | int], ...]

    def __new__(cls, sentence: str, code: str,
                facts: tuple[tuple[str, str | int], ...] = ()) -> Note:
        assert code in WARNINGS and {k for k, _ in facts} <= set(WARNINGS[code]), code
        note = super().__new__(cls, sentence)
        note.code, note.facts = code, facts
        return note


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
    it).  Data: a client words it from ``by_seat``, ``code``, ``blamed``, ``why`` (the
    signer's reason, cut short), ``standing`` and ``on_time``, an unproven accusation as a
    claim (the terminal client: ``chkobba_cli.words.event_words.words``)."""

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
    #: For a ``proven`` claim against the seat an :data:`INVALID` verdict blames: the
    #: violation the observer's own check found (the verdict's, with its ``facts``),
    #: which a client words in place of ``why`` (the signer's English); else None.
    violation: str | None = None
    facts: tuple[tuple[str, str | int], ...] = ()


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
    ``blamed`` None: nobody is blamed).  ``reason``: the observer's own sentence, in
    seat numbers (for logs and JSON); a client words the verdict for people from the
    fields below, in its players' names and language (the terminal client:
    ``chkobba_cli.words.event_words.words``)."""

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
    #: players there may be a loser and no winner: the two others were level).  For an
    #: :data:`INVALID` verdict that convicts ``blamed`` (an entry that seat signed breaks
    #: a rule) while the match was played: that seat's side, with ``winner`` the other
    #: side's (at 3 players the one ahead of the two others, if either is): a cheat
    #: loses the match, it does not void it (PROTOCOL.md 12.7).
    loser: int | None = None
    #: For an :data:`UNSUPPORTED` verdict: the table capabilities the observer does not
    #: know (as the genesis spells them), the reason it cannot audit the match.
    unknown_caps: tuple[str, ...] = ()
    #: For what the observer finds in no check's words (a file that stops, tears or is
    #: damaged, a genesis it refuses...): one of :data:`FINDINGS`, with its ``facts``
    #: (``(key, value)`` pairs); ``reason`` says the same in English for developers.
    finding: str | None = None
    facts: tuple[tuple[str, str | int], ...] = ()
    #: For an :data:`INVALID` verdict a check found: the check's own code (one of
    #: :data:`~chkobba_p2p.errors.VIOLATIONS`), with its data in ``facts`` (after the
    #: finding's, when there is one: a finding's ``detail`` is that check's English);
    #: None when the check has no code (``reason`` then holds its only words).
    violation: str | None = None


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
