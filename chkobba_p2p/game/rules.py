"""The rules engine: one pure, immutable model of a Chkobba hand and match.

A :class:`Hand` or :class:`Match` never changes: every action returns a new one (hands
compare by identity; matches, rulesets, moves and events by value).  Nothing does I/O,
reads a clock or touches global random state.  The same code validates peers' moves,
drives bots, replays logs and renders hints.

Seats are numbered ``0..n-1`` in playing order, which is counter-clockwise at the table:
after seat ``s`` plays seat ``(s + 1) % n``.  The *cutter* (who also plays first) is the
player on the dealer's right, ``(dealer + 1) % n``.  At 4 players seats 0 and 2 form side 0,
seats 1 and 3 side 1; otherwise each seat is its own side.

A hand is driven by its :attr:`Hand.pending` step:

* :class:`DealStep`: the next cards from the top of the deck and who receives each
  (a seat, or ``None`` for face up on the table).  Answer with :meth:`Hand.deal`.
* :class:`CutterChoice`: the cutter keeps or places the card he drew
  (:meth:`Hand.choose_cut`).
* :class:`Redeal`: the opening table must be dealt again by the same dealer
  (:meth:`Match.redeal`).
* :class:`Turn`: a seat must play (:meth:`Hand.legal_moves`, :meth:`Hand.play`).
* :class:`HandOver`: the hand is scored (:attr:`Hand.score`); see :meth:`Match.finish_hand`.

A hand can be *omniscient* (``viewer=None``: every card known, as in simulation), seen
from one seat (``viewer=s``): other seats' hands are then unknown placeholders, which is
how peers and bots use it, or seen from no seat (``viewer=SPECTATOR``: every hand
unknown, as a spectator or an auditor sees it).

This module is the game's public face (as python-chess's ``chess/__init__``): it holds no
code of its own and names what the modules of :mod:`chkobba_p2p.game` define --
:mod:`.ruleset` (rulesets, presets and variants), :mod:`._masks` (cards as 40-bit masks
and the capture tables), :mod:`.events` (what a hand's actions did), :mod:`.scoring`
(:class:`HandScore`), :mod:`.hand` (:class:`Hand`, :class:`Move`, the pending steps and
the seats' helpers) and :mod:`.match` (:class:`Match`).
"""

from __future__ import annotations

from ._masks import (
    ALL_CARDS as ALL_CARDS,
)
from ._masks import (
    BIT as BIT,
)
from ._masks import (
    DIAMOND_MASK as DIAMOND_MASK,
)
from ._masks import (
    HAYA_BIT as HAYA_BIT,
)
from ._masks import (
    SEVEN_MASK as SEVEN_MASK,
)
from ._masks import (
    SIX_MASK as SIX_MASK,
)
from ._masks import (
    VALUE as VALUE,
)
from ._masks import (
    bits as bits,
)
from ._masks import (
    capture_masks as capture_masks,
)
from ._masks import (
    capture_options as capture_options,
)
from ._masks import (
    cards_of as cards_of,
)
from ._masks import (
    frozen as frozen,
)
from ._masks import (
    mask_of as mask_of,
)
from ._masks import (
    mask_sum as mask_sum,
)
from .errors import (
    GAME_PROBLEMS as GAME_PROBLEMS,
)
from .errors import (
    GameUsageError as GameUsageError,
)
from .events import (
    CutEvent as CutEvent,
)
from .events import (
    DealEvent as DealEvent,
)
from .events import (
    Event as Event,
)
from .events import (
    GameEvent as GameEvent,
)
from .events import (
    PlayEvent as PlayEvent,
)
from .events import (
    SweepEvent as SweepEvent,
)
from .hand import (
    SPECTATOR as SPECTATOR,
)
from .hand import (
    CutterChoice as CutterChoice,
)
from .hand import (
    DealStep as DealStep,
)
from .hand import (
    Hand as Hand,
)
from .hand import (
    HandOver as HandOver,
)
from .hand import (
    Move as Move,
)
from .hand import (
    Pending as Pending,
)
from .hand import (
    Redeal as Redeal,
)
from .hand import (
    Turn as Turn,
)
from .hand import (
    resolve_first_dealer as resolve_first_dealer,
)
from .hand import (
    side_of as side_of,
)
from .hand import (
    sides_count as sides_count,
)
from .match import (
    HandResult as HandResult,
)
from .match import (
    Match as Match,
)
from .ruleset import (
    PRESETS as PRESETS,
)
from .ruleset import (
    RULESET_PROBLEMS as RULESET_PROBLEMS,
)
from .ruleset import (
    TARGET_RANGE as TARGET_RANGE,
)
from .ruleset import (
    TARGETS as TARGETS,
)
from .ruleset import (
    VARIANTS as VARIANTS,
)
from .ruleset import (
    Opening as Opening,
)
from .ruleset import (
    RedealRule as RedealRule,
)
from .ruleset import (
    Ruleset as Ruleset,
)
from .ruleset import (
    RulesetChanges as RulesetChanges,
)
from .ruleset import (
    RulesetError as RulesetError,
)
from .ruleset import (
    Scoring as Scoring,
)
from .scoring import (
    HandScore as HandScore,
)
from .scoring import (
    primiera_value as primiera_value,
)
from .scoring import (
    score_masks as score_masks,
)
from .scoring import (
    score_piles as score_piles,
)

__all__ = [
    "Opening",
    "RedealRule",
    "Scoring",
    "Ruleset",
    "PRESETS",
    "RulesetError",
    "RULESET_PROBLEMS",
    "GameUsageError",
    "GAME_PROBLEMS",
    "TARGET_RANGE",
    "VARIANTS",
    "RulesetChanges",
    "Move",
    "DealStep",
    "CutterChoice",
    "Redeal",
    "Turn",
    "HandOver",
    "DealEvent",
    "CutEvent",
    "PlayEvent",
    "SweepEvent",
    "GameEvent",
    "HandScore",
    "Hand",
    "Match",
    "SPECTATOR",
    "side_of",
    "sides_count",
    "capture_options",
    "resolve_first_dealer",
    "primiera_value",
    "score_piles",
    "score_masks",
    "capture_masks",
    "bits",
    "mask_of",
    "cards_of",
]
