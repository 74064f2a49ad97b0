"""The rules model's misuse: :class:`GameUsageError`, a coded local error (see
:data:`GAME_PROBLEMS`), below every module of the model so that each raises it.  A move
the rules forbid is no misuse of the API but an :class:`~chkobba_p2p.errors.IllegalMove`;
cards that do not fit a hand, an :class:`~chkobba_p2p.errors.InvalidDeal`.
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["GameUsageError", "GAME_PROBLEMS"]

#: Every :attr:`GameUsageError.code`, with the keys of its :attr:`~GameUsageError.data`
#: (``players``: the table's shape, or what was given for one, its ``repr`` when it is
#: no number; ``seat``, ``side``, ``dealer``, ``viewer``: the number given, the same
#: way; ``sides``: how many sides the table has; ``stock``: the undealt cards of the
#: hand).  A code is never renamed; a client words each (the terminal client: ``gm_`` +
#: the code).
GAME_PROBLEMS: dict[str, tuple[str, ...]] = {
    # The shape of the table (seating.py).
    "players_unsupported": ("players",),  # not 2, 3 or 4 players
    "seat_out_of_range": ("seat", "players"),
    "side_out_of_range": ("side", "sides"),
    # A hand (hand.py).
    "nobody_drew": (),  # the first dealer's draw with no card drawn
    "dealer_out_of_range": ("dealer", "players"),
    "viewer_out_of_range": ("viewer", "players"),
    "chkobba_counts": ("players",),  # a position without one count per seat
    "view_of_another_view": (),  # a seat's view turned into another seat's
    "hand_not_over": (),  # scored, or the match moved on, before its last card
    "no_own_cards": (),  # the open hand or a spectator's asked for its own cards
    "drawn_card_unnamed": (),  # an unseen drawn card placed without naming it
    "world_not_in_play": ("stock",),  # a determinized world of a hand not in play
    # The match (match.py).
    "match_over": (),
    "hand_of_another_match": (),  # another ruleset, table or dealer
    "no_redeal_due": (),
}


class GameUsageError(CodedLocalError):
    """The rules model used wrongly: a seat or a table shape that does not exist, a hand
    asked what it cannot answer yet, a match moved on out of turn (see
    :data:`GAME_PROBLEMS`)."""

    CODES = GAME_PROBLEMS
    code = "game_misuse"


def shown(value: object) -> str | int:
    """A number given as one, as data: itself when it is an ``int``, else its ``repr``
    cut short (what was given where a seat or a count was wanted)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
