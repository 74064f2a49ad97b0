"""A game from no seat, used wrongly: :class:`ObserveUsageError`, a coded local error (see
:data:`OBSERVE_PROBLEMS`): the coach's review asked what it cannot grade, or the
observer's own replay with every card known going wrong (this library's bug, never a
player's: what the players' bytes break is a verdict's violation, not this).
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["ObserveUsageError", "OBSERVE_PROBLEMS"]

#: Every :attr:`ObserveUsageError.code`, with the keys of its
#: :attr:`~ObserveUsageError.data` (``card``: a card id 0..39; ``samples``, ``limit``:
#: the numbers given).  A code is never renamed; a client words each (the terminal
#: client: ``ob_`` + the code).
OBSERVE_PROBLEMS: dict[str, tuple[str, ...]] = {
    # The observer's replay with every card known, once the deck's seeds are opened
    # (observer.py): each "cannot happen" once the live replay has checked the log.
    "seeds_not_verified": (),  # the deck asked of seeds not checked yet
    "replay_unexpected_event": (),  # an event the rules engine does not make
    "replay_invalid_deal": (),  # the opened deck deals cards that do not fit
    "replay_redeal_not_due": (),
    "replay_hand_not_over": (),
    "replay_disagrees": (),  # its totals are not the live replay's
    # The coach's review (review.py).
    "open_hand_graded": (),  # the open hand given, not a seat's view
    "not_its_turn": (),  # a play graded for a seat whose turn it is not
    "move_not_legal": ("card",),  # a play the rules do not allow here
    "not_choosing_a_cut": (),  # a cut graded for a seat that is not the cutter now
    "drawn_card_unseen": (),  # the cutter's view without the drawn card
    "samples_below_one": ("samples",),
    "negative_limit": ("limit",),
}


class ObserveUsageError(CodedLocalError):
    """The review or the observer used wrongly, or the observer's replay with every card
    known going wrong (see :data:`OBSERVE_PROBLEMS`)."""

    CODES = OBSERVE_PROBLEMS
    code = "observe_misuse"
