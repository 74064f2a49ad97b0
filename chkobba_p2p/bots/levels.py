"""The bot levels by name: the registry above every bot module.

:mod:`chkobba_p2p.bots.simple` holds the levels that decide at once, :mod:`chkobba_p2p.bots.expert`
the ``expert`` (which falls back on the heuristic bot); this module names them all, so
that imports point down from here to both and never between them the other way.
"""

from __future__ import annotations

from typing import Protocol

from .errors import BOT_PROBLEMS, BotError
from .simple import Bot, GreedyBot, HeuristicBot, RandomBot

__all__ = ["LEVELS", "make_bot", "BotFactory", "DEFAULT_EXPERT_MS", "BotError",
           "BOT_PROBLEMS"]

#: The expert's default thinking time per move, in milliseconds.
DEFAULT_EXPERT_MS = 200


class BotFactory(Protocol):
    """Makes a bot of one level: ``(seed, *, move_ms=None)``."""

    def __call__(self, seed: int | None = None, *, move_ms: float | None = None) -> Bot: ...


def _expert(seed: int | None = None, *, move_ms: float | None = None) -> Bot:
    # Imported when an expert is made: its search and the learned policy it samples with
    # are no weight for a peer whose bot is of another level (issue 44).
    from .expert import ExpertBot

    return ExpertBot(seed, move_ms=DEFAULT_EXPERT_MS if move_ms is None else move_ms)


#: Bot levels by name, weakest first.  Each factory takes ``(seed, *, move_ms=None)``.
LEVELS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "expert": _expert,
}


def make_bot(level: str, seed: int | None = None, move_ms: float | None = None) -> Bot:
    """A bot of the named level (see :data:`LEVELS`).

    ``move_ms`` is the time budget per move for the levels that search (``expert``:
    default :data:`DEFAULT_EXPERT_MS`); the others decide at once and ignore it.
    """
    try:
        factory = LEVELS[level]
    except KeyError:
        raise BotError(f"unknown bot level {level!r}; choose among {', '.join(LEVELS)}",
                       code="unknown_level",
                       data={"level": level, "choices": ", ".join(LEVELS)}) from None
    if move_ms is not None and not move_ms > 0:
        raise BotError(f"the time budget per move must be positive, not {move_ms!r} ms",
                       code="move_ms_not_positive", data={"move_ms": repr(move_ms)})
    return factory(seed, move_ms=move_ms)
