"""Exception types shared by the whole library.

Two families, as in h11: :class:`LocalError` is *your* misuse (calling an API in the wrong
state, a move your own seat may not make); :class:`RemoteError` is another peer's
misbehaviour, with a wire ``code`` and the seat to blame.  Rules violations are
:class:`IllegalMove` subclasses; the session layer turns a peer's illegal move into a
remote error blaming that peer.
"""

from __future__ import annotations

__all__ = [
    "ChkobbaError",
    "LocalError",
    "RemoteError",
    "IllegalMove",
    "WrongPhase",
    "NotYourTurn",
    "CardNotInHand",
    "CaptureNotOnTable",
    "GroupDoesNotSum",
    "RankMatchRequired",
    "CaptureRequired",
    "ForcedCaptureRequired",
    "InvalidDeal",
]


class ChkobbaError(Exception):
    """Base class of every error this library raises on purpose."""


class LocalError(ChkobbaError):
    """The caller misused the API (local misbehaviour)."""


class RemoteError(ChkobbaError):
    """Another peer misbehaved.

    ``code`` is the short wire code, ``blamed_seat`` the seat at fault (None if unknown),
    ``evidence`` the offending message when there is one.
    """

    code = "remote_error"

    def __init__(self, message: str, *, code: str | None = None,
                 blamed_seat: int | None = None, evidence: object = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.blamed_seat = blamed_seat
        self.evidence = evidence


class IllegalMove(ChkobbaError, ValueError):
    """A move the rules forbid.  ``rule`` is a short stable name for the rule broken."""

    rule = "illegal_move"


class WrongPhase(IllegalMove):
    """The hand is not waiting for this kind of action (a play while cards are dealt...)."""

    rule = "wrong_phase"


class NotYourTurn(IllegalMove):
    rule = "not_your_turn"


class CardNotInHand(IllegalMove):
    rule = "card_not_in_hand"


class CaptureNotOnTable(IllegalMove):
    rule = "capture_not_on_table"


class GroupDoesNotSum(IllegalMove):
    rule = "group_does_not_sum"


class RankMatchRequired(IllegalMove):
    """A sum was taken while a table card of the same value could be taken."""

    rule = "rank_match_required"


class CaptureRequired(IllegalMove):
    """The card played can capture, so it must."""

    rule = "capture_required"


class ForcedCaptureRequired(IllegalMove):
    """Forced-capture variant: a capturing card had to be played."""

    rule = "forced_capture"


class InvalidDeal(ChkobbaError, ValueError):
    """Cards given to the engine as dealt do not fit the state (duplicate, wrong count...)."""
