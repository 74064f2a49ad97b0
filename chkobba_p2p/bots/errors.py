"""The bots' one error family: :class:`BotError`, a coded local error (see
:data:`BOT_PROBLEMS`), below every bot module so that each raises it (re-exported by
:mod:`chkobba_p2p.bots.levels`, its home for callers).
"""

from __future__ import annotations

from ..errors import CodedLocalError

__all__ = ["BotError", "BotArgumentError", "BOT_PROBLEMS"]

#: Every :attr:`BotError.code`, with the keys of its :attr:`~BotError.data` (``level``:
#: the level asked for; ``choices``: the levels there are, comma-separated; ``move_ms``:
#: the budget given, as text; ``hands``: the hands played; ``count``: the weights a
#: policy model has; ``playout``: the rollout policy asked for; ``level``: ``handseer`` or
#: ``omniscient``, the arena's measuring levels; ``players``, ``games``: the arena's
#: numbers as given, ``choices`` the shapes it seats; ``anchor``: the level asked to
#: anchor the ratings).  A code is never renamed; a client
#: words each (the terminal client: ``bo_`` + the code).
BOT_PROBLEMS: dict[str, tuple[str, ...]] = {
    "unknown_level": ("level", "choices"),
    "move_ms_not_positive": ("move_ms",),
    # An offline match (simulate, the arena) whose bots never reach the target.
    "no_winner": ("hands",),
    # A bot asked what its seat cannot decide (its caller's mistake, as the rules engine
    # says it of a move: the peer asks a bot only on its seat's turn, from its view).
    "not_a_seat_view": (),  # the whole hand, every card open, not a seat's view
    "not_its_turn": (),  # a move asked of a seat whose turn it is not
    "not_the_cutter": (),  # the cut asked of a seat that did not draw
    # The learned policy's weights file shipped with the package (a damaged install).
    "model_unreadable": (),  # not the JSON of a model
    "model_other_features": (),  # fitted for other features than this program's
    "model_weights": ("count",),  # not that many finite weights
    # The expert's arguments and its search's inputs (expert.py): its caller's mistake.
    "no_budget": (),  # neither a time budget (move_ms) nor a sample count
    "unknown_playout": ("playout", "choices"),
    "open_hand_to_determinize": (),  # a world sampled from the open hand, not a view
    "exact_search_needs_a_world": (),  # a view, or a world that does not deal its stock
    "stock_of_a_view": (),  # the stock of a seat's view dealt, not the whole hand's
    # The arena's measuring levels, which see every card: never at a table.
    "seeing_level_at_a_table": ("level",),  # asked a seat's move (choose_play)
    "seeing_level_given_a_view": ("level",),  # given a seat's view, not the whole hand
    # The arena's and the ladder's arguments (arena.py): a BotArgumentError, a ValueError.
    "arena_players": ("players", "choices"),
    "games_below_one": ("games",),
    "ladder_levels": (),  # fewer than two levels, or one named twice
    "anchor_not_playing": ("anchor",),
    "ladder_disconnected": (),  # pairings that do not link every level to the others
}


class BotError(CodedLocalError):
    """Bots that cannot be made, asked what they cannot decide, or an offline match
    between them that cannot end (see :data:`BOT_PROBLEMS`)."""

    CODES = BOT_PROBLEMS
    code = "bot_error"


class BotArgumentError(BotError, ValueError):
    """The arena's or the ladder's arguments out of range: a :class:`BotError` by its
    code, and a ``ValueError`` as it always was."""
