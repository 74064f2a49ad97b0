"""The deal's two error families: a peer's misbehaviour, and the caller's own misuse.

Both derive from the library-wide families of :mod:`chkobba_p2p.errors`.
"""

from __future__ import annotations

from typing import Any

from ..errors import VIOLATIONS, CodedLocalError, RemoteError

__all__ = ["PeerMisbehaved", "DealUsageError", "DealArgumentError", "DEAL_PROBLEMS"]

#: Every :attr:`DealUsageError.code`, with the keys of its :attr:`~DealUsageError.data`
#: (``name``: an argument's name; ``players``, ``seat``, ``cut``, ``position``: the value
#: given, its ``repr`` when it is no number; ``action``: ``cut``, ``deal``, ``play`` or
#: ``finish``; ``phase``: the deal's phase, as the deal names it; ``step``: a dealing
#: step's number; ``count``: a number of generators asked for).  A code is never
#: renamed; a client words each (the terminal client: ``du_`` + the code).
DEAL_PROBLEMS: dict[str, tuple[str, ...]] = {
    # A deal's arguments (Deal()).
    "bad_session_id": (),
    "not_a_count": ("name",),  # the hand's or the instance's number
    "players_unsupported": ("players",),
    "seat_out_of_range": ("seat",),  # this seat, a recipient or a sender
    "cutter_out_of_range": ("seat",),
    "bad_seed": (),
    "bad_secret_key": (),
    # Its steps, asked out of order or of what this seat does not hold.
    "observer_has_no_key": (),  # start() of a deal seen from no seat
    "already_started": (),
    "not_the_cutter": (),
    "wrong_phase": ("action", "phase"),
    "bad_cut": ("cut",),
    "no_such_position": ("position",),
    "empty_step": (),
    "position_dealt": ("position",),
    "position_twice": (),
    "step_not_early": ("step",),
    "unknown_job": (),  # proof work that is not this deal's, or done already
    "position_not_held": ("position",),
    "position_shown": ("position",),
    "cards_hidden": (),  # finished with cards still hidden, without discarding them
    "step_incomplete": (),
    "deal_failed": (),  # a deal that blamed a peer, asked to go on
    # A deal's saved state (from_state: the saved game on disk).
    "unknown_state_version": (),
    "corrupt_state": (),
    # The first dealer's draw (schedule.py).
    "dealer_decided": (),
    "draw_exhausted": (),  # no card left to draw: draw again on a fresh instance
    "draw_cards": (),  # not one card per contender of the current draw
    # A shuffle proof's own arguments (shuffle_proof.py: the caller's deck, key and
    # witness; a DealArgumentError, a ValueError).  What a shuffler sends wrong is a
    # ShuffleProofError, then a peer's misbehaviour.
    "lengths_differ": (),  # scalars and points, or decks, permutation and randomizers
    "negative_count": ("count",),
    "empty_shuffle": (),
    "not_a_permutation": (),
    "randomizer_range": (),  # a randomizer outside 1..L-1
    "commit_rands_range": (),  # not one commitment scalar in 1..L-1 per ciphertext
    "bad_public_key": (),
    "bad_inputs": (),  # the verifier's own input deck is not points
    "witness_misfit": (),  # an opened witness that does not fit the decks
}


class PeerMisbehaved(RemoteError):
    """Another peer broke the deal protocol.

    ``blamed_seat`` is the seat at fault, ``code`` a short wire code (``bad_share_proof``,
    ``shuffle_mismatch``...; ``docs/deal.md`` lists them all), ``reason`` a sentence for
    developers (its ``violation``, ``"deal_"`` + ``code``, is what a client words for
    people) and ``evidence`` the offending message exactly as received (the signed log
    carries the same message, so anyone can re-check the verdict).
    """

    def __init__(self, blamed_seat: int, code: str, reason: str, evidence: Any) -> None:
        violation = f"deal_{code}"
        super().__init__(f"seat {blamed_seat}: {reason} [{code}]", code=code,
                         blamed_seat=blamed_seat, evidence=evidence,
                         violation=violation if violation in VIOLATIONS else None)
        self.blamed_seat: int = blamed_seat
        self.reason = reason


class DealUsageError(CodedLocalError):
    """The local caller used the deal API wrongly (wrong phase, a position it does not
    hold...; see :data:`DEAL_PROBLEMS`).

    Nothing another peer sends can raise this.
    """

    CODES = DEAL_PROBLEMS
    code = "deal_misuse"


class DealArgumentError(DealUsageError, ValueError):
    """A shuffle proof's arguments that are not valid (see :data:`DEAL_PROBLEMS`): a
    :class:`DealUsageError` by its code, and a ``ValueError`` as it always was."""
