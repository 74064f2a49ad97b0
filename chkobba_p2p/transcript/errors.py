"""The signed game's misuse: :class:`TranscriptUsageError`, a coded local error (see
:data:`TRANSCRIPT_PROBLEMS`) for a session or a game driver used wrongly by its own
caller.  Nothing another peer sends raises it: their misbehaviour is a
:class:`~chkobba_p2p.errors.RemoteError` with a violation of
:data:`~chkobba_p2p.errors.VIOLATIONS`.
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["TranscriptUsageError", "TRANSCRIPT_PROBLEMS"]

#: Every :attr:`TranscriptUsageError.code`, with the keys of its
#: :attr:`~TranscriptUsageError.data` (``card``: a card id 0..39).  A code is never
#: renamed; a client words each (the terminal client: ``tu_`` + the code).
TRANSCRIPT_PROBLEMS: dict[str, tuple[str, ...]] = {
    # A session (session.py).
    "not_our_seat": (),  # the identity given does not hold the seat given
    "no_seat_of_its_own": (),  # an observer's session asked for its seat
    "observer_signs_nothing": (),  # an observer's session asked to sign
    "no_decision_pending": (),  # a choice made when nothing is asked
    "match_already_over": (),  # a resignation once the match is over or decided
    # The game driver (driver.py).
    "card_not_held": ("card",),  # a card this seat's hand does not hold
    "play_takes_a_move": (),  # a play decision answered with something else
    "round_not_opened_early": (),  # a round of the deal that was not opened early
    "card_unknown_at_end": (),  # a hand's card still unknown once the hand is over
}


class TranscriptUsageError(CodedLocalError):
    """A session or a game driver used wrongly by its caller (see
    :data:`TRANSCRIPT_PROBLEMS`)."""

    CODES = TRANSCRIPT_PROBLEMS
    code = "transcript_misuse"
