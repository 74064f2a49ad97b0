"""Search for the ``expert`` bot: determinized Monte Carlo with an exact 2-player endgame.

The expert sees only its seat's view.  From it, :func:`determinize` deals the cards unseen
from that seat (``view.unseen_cards()``) at random into the other hands (whose sizes the
view knows) and the stock; nothing else is assumed.  Each of the bot's legal moves is then
played out to the end of the hand in every sampled world by a cheap greedy policy for all
seats, and the move with the best mean point margin for the bot's *side* wins (partners
play for the team at 4 players).  Every move is tried in the same sampled worlds, so the
comparison between moves is not drowned by the luck of the deal.

**Inference** (issue 28).  Each sampled world is weighed by how likely the other seats'
plays of the current round are in it (:func:`round_plays`, :func:`world_weight`): a seat
that put a card on the table while, in that world, another of its cards could capture is
less likely to hold that card.  The model of their play is a softmax of the rollout
policy's worths (:data:`INFERENCE_TEMPERATURE`) mixed with a share of uniform choice
(:data:`INFERENCE_UNIFORM`).  Only this round's plays inform: every card a seat held in
an earlier round has been played since, so those plays constrain no card hidden now.  It
reads the view's public events only (the cards played, what they took).

**Match-aware play.**  Told the match totals (:meth:`ExpertBot.see_match`, which the
arena and every real table call before each hand: a table's bot seat through
:class:`~chkobba_p2p._shell.peer.BotController`, with the totals its own session computed from
the signed transcript), once a side is within :data:`MATCH_REACH` points of the
target the expert values a finished world by its chance to win the match
(:func:`match_value`) instead of the hand's margin.

**Playouts.**  ``greedy`` (:func:`rollout`) is the default; ``sharp``
(:func:`rollout_sharp`) fears a table only if the next seat, in that world, holds a card
that sweeps it (measured no better, so not the default).

**Exact search near the end** (issue 28).  Once the stock is empty at 2 players every
card is accounted for: the unseen cards are exactly the opponent's hand, so the rest of
the hand is searched exactly (alpha-beta over the final point margin, or the match value).
Before that, from :data:`EXACT_STOCK_2P` cards left in the stock at 2 players and from the
last deal at 4, each sampled world is searched exactly instead of played out
(:func:`exact_values`; at 4 players the partner maximizes with the seat): the values are
then exact in every world, the sampling and the inference weights stay, and no greedy
playout misjudges the last captures, the last chkobba or who takes the table's rest.

There is one model of the game: a sampled world is a :class:`~chkobba_p2p.game.rules.Hand`
(omniscient, holding its undealt cards so that it deals itself), played by the engine's
own move generation, transition and scoring, on the masks the engine keeps inside (cards
are their wire ids, a set of cards a 40-bit mask).  The search skips only the checks a
move it generated itself cannot fail, and a world keeps no log of its own plays.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import cast

from ..game._masks import (
    _BELOW_MASK,
    _RANK_MASK,
    _SAME_MASKS,
    ALL_CARDS,
    BIT,
    VALUE,
    bits,
    capture_masks,
    cards_of,
    mask_of,
)
from ..game.cards import Card
from ..game.events import PlayEvent
from ..game.hand import _OVER, Hand, Move, side_of
from ..game.ruleset import Scoring
from ..game.scoring import score_masks
from ..game.seating import Seating
from .errors import BotError
from .learned import PolicyModel
from .simple import HeuristicBot

__all__ = [
    "determinize",
    "exact_endgame",
    "exact_values",
    "EXACT_STOCK_2P",
    "ExpertBot",
    "capture_masks",
    "score_masks",
    "bits",
    "mask_of",
    "moves",
    "play",
    "margin",
    "rollout",
    "rollout_sharp",
    "undealt",
    "cut_margins",
    "round_plays",
    "world_weight",
    "model_round_plays",
    "model_world_weight",
    "rollout_model",
    "OmniscientBot",
    "HandSeerBot",
    "deal_stock",
]

#: Rollout worth of capturing one card, in tenths of a point (a rough marginal value:
#: carta is one point over 40 cards, dinari one over 10 diamonds, barmila one over 4 sevens
#: with sixes as tie-break, the haya a point of its own on top of its diamond and seven).
WORTH = tuple(
    1.0 + 2.0 * (20 <= i < 30) + 3.0 * (VALUE[i] == 7) + 1.0 * (VALUE[i] == 6)
    + 10.0 * (i == 26)
    for i in range(40)
)

_CACHE_LIMIT = 200_000
_MASK_WORTH: dict[int, float] = {}


def mask_worth(mask: int) -> float:
    found = _MASK_WORTH.get(mask)
    if found is None:
        found = sum(WORTH[c] for c in bits(mask))
        if len(_MASK_WORTH) > _CACHE_LIMIT:
            _MASK_WORTH.clear()
        _MASK_WORTH[mask] = found
    return found


# --------------------------------------------------------------------------- on the engine


def moves(hand: Hand) -> list[tuple[int, int]]:
    """The seat to play's legal moves as (card id, capture mask; 0: the card stays)."""
    return [(c, o) for _, c, o in hand._move_masks()]


def play(hand: Hand, card: int, capture: int) -> Hand:
    """``hand`` after the seat to play plays ``card`` (an id) taking ``capture`` (a mask):
    a move :func:`moves` generated (trusted: not checked again)."""
    seat = hand.turn
    held = _held(hand)
    i = held.index(card)
    return hand._play_trusted(seat, i, held[i], capture)


def undealt(world: Hand) -> tuple[Card, ...]:
    """The cards a sampled world will deal, in dealing order (empty for other hands)."""
    return world._deck or ()


def _held(hand: Hand) -> tuple[Card, ...]:
    """The hand of the seat to play in a world (every card known)."""
    return cast(tuple[Card, ...], hand.hands[hand.turn])


def margin(hand: Hand, side: int) -> int:
    """``side``'s points minus the best other side's, once the hand is over."""
    pts = score_masks(hand._side_masks(), hand.side_chkobbas(),
                      hand.ruleset.scoring is Scoring.PRIMIERA)
    mine = pts[side]
    return mine - max(p for i, p in enumerate(pts) if i != side)


#: Match-aware play starts when a side is this close to the target (a hand rarely
#: brings more), and the points still to make are read through this spread.
MATCH_REACH = 7
_MATCH_SPREAD = 3.0


def match_value(hand: Hand, side: int, totals: Sequence[int], target: int) -> float:
    """``side``'s chance to win the match once ``hand`` is over, from the match totals
    before it: 1 or 0 when the hand ends the match (a side at the target, the strictly
    highest total winning; equal totals play on: a half), else a logistic guess from the
    points each side still needs; plus a thousandth of the hand's margin, so that a
    decided match still prefers the larger win."""
    pts = score_masks(hand._side_masks(), hand.side_chkobbas(),
                      hand.ruleset.scoring is Scoring.PRIMIERA)
    new = [t + p for t, p in zip(totals, pts)]
    mine = new[side]
    other = max(p for i, p in enumerate(new) if i != side)
    tie = 0.001 * (pts[side] - max(p for i, p in enumerate(pts) if i != side))
    if max(new) >= target and mine != other:
        return (1.0 if mine > other else 0.0) + tie
    # Equal totals at or above the target play another hand: the guess, an even chance.
    return 1.0 / (1.0 + math.exp((other - mine) / _MATCH_SPREAD)) + tie


#: Every table sum from 1 to 10 (bits 1..10): the greedy fear, "any table of 10 or less
#: can be swept".
_ANY_SWEEP = 0x7FE


def _greedy_move(hand: Hand, held: tuple[Card, ...]) -> tuple[int, Card, int]:
    """The rollout policy: best immediate worth, fearing a sweepable table.
    Returns (index in ``held``, card, capture mask)."""
    last_play = not hand.stock and sum(map(len, hand.hands)) == 1
    return _best_move(hand, held, _ANY_SWEEP, 4.0, last_play)


def _sharp_move(hand: Hand, held: tuple[Card, ...]) -> tuple[int, Card, int]:
    """The better rollout policy: :func:`_greedy_move`'s worths, but a table left behind
    is feared only if the next seat holds a card that sweeps it, as it does in this world
    (a group summing to the card's value takes the whole table exactly when the table
    adds up to a value the next seat holds: a table of one card, its rank)."""
    nxt = hand.hands[(hand.turn + 1) % hand.players]
    if nxt:
        sweeps = 0
        for c in nxt:
            sweeps |= 1 << VALUE[c]  # type: ignore[index]
        return _best_move(hand, held, sweeps, 10.0, False)
    last_play = not hand.stock and sum(map(len, hand.hands)) == 1
    # The round ends with this play: the next seat's cards are not dealt yet (the
    # greedy fear of a table of 10 or less).
    return _best_move(hand, held, _ANY_SWEEP if hand.stock else 0, 4.0, last_play)


def _best_move(hand: Hand, held: tuple[Card, ...], sweeps: int, fear: float,
               last_play: bool) -> tuple[int, Card, int]:
    """The play of ``held`` of best immediate worth: a sweep earns 10 (not on the hand's
    last play), a table left behind whose sum is a bit of ``sweeps`` costs ``fear``."""
    table = hand._tm
    tsum = hand._tsum
    best: tuple[int, Card, int] | None = None
    best_score = -1e9
    any_capture = False
    drops: list[tuple[int, Card]] = []
    for i, c in enumerate(held):
        v = VALUE[c]
        same = table & _RANK_MASK[v]
        if same:
            opts = _SAME_MASKS[same]
        else:
            smaller = table & _BELOW_MASK[v]
            opts = capture_masks(v, table) if smaller & (smaller - 1) else ()
        if not opts:
            drops.append((i, c))
            continue
        any_capture = True
        for o in opts:
            w = _MASK_WORTH.get(o)
            score = WORTH[c] + (mask_worth(o) if w is None else w)
            if not table ^ o:
                if not last_play:
                    score += 10.0
            else:
                rest = tsum - v  # what is left (a capture adds up to the card's value)
                if rest <= 10 and sweeps >> rest & 1:
                    score -= fear
            if score > best_score:
                best_score = score
                best = (i, c, o)
    if drops and not (any_capture and hand.ruleset.forced_capture):
        for i, d in drops:
            score = -0.5 * WORTH[d] - 0.01 * VALUE[d]
            rest = tsum + VALUE[d]
            if rest <= 10 and sweeps >> rest & 1:
                score -= fear
            if score > best_score:
                best_score = score
                best = (i, d, 0)
    assert best is not None
    return best


def rollout_sharp(hand: Hand) -> Hand:
    """Play a sampled world out with :func:`_sharp_move` for every seat."""
    advance = Hand._play_trusted
    policy = _sharp_move
    over = _OVER
    while hand._stage != over:
        seat = hand.turn
        i, c, o = policy(hand, hand.hands[seat])  # type: ignore[arg-type]
        hand = advance(hand, seat, i, c, o)
    return hand


def rollout(hand: Hand) -> Hand:
    """Play a sampled world out with the greedy policy for every seat."""
    advance = Hand._play_trusted
    greedy = _greedy_move
    over = _OVER
    while hand._stage != over:
        seat = hand.turn
        i, c, o = greedy(hand, hand.hands[seat])  # type: ignore[arg-type]
        hand = advance(hand, seat, i, c, o)
    return hand


# --------------------------------------------------------------------------- sampling


def determinize(view: Hand, rng: random.Random) -> Hand:
    """One world consistent with ``view``: the unseen cards dealt at random.

    Other seats get as many unseen cards as the view says they hold; the rest is the
    stock (in dealing order: the world deals it itself).  Only ``view`` (a seat's view)
    is read.
    """
    me = view.viewer
    if me is None:
        raise BotError("determinize a seat's view, not an omniscient hand",
                       code="open_hand_to_determinize")
    unseen = list(cards_of(ALL_CARDS ^ view._known))  # by id, as sorted(unseen_cards())
    rng.shuffle(unseen)
    hidden: list[tuple[Card, ...]] = []
    k = 0
    for seat in range(view.players):
        held = view.hand_of(seat)
        if seat == me:
            hidden.append(held)  # type: ignore[arg-type]
        else:
            hidden.append(tuple(unseen[k:k + len(held)]))
            k += len(held)
    return view._world(hidden, unseen[k:])


def cut_margins(view: Hand, drawn: Card, unseen: Sequence[Card]) -> tuple[int, int]:
    """One sampled deal of the cut, from the cutter's ``view``: the cutter's side's margin
    if it keeps ``drawn`` and if it places it, both worlds dealt from the same order of
    ``unseen`` (the cards it has not seen, shuffled by the caller) and played out
    greedily.  The expert's cut and the coach's grade of a cut both sample this way."""
    n = view.players
    cutter = view.cutter
    order = [(cutter + i) % n for i in range(n)]
    # Keep: 2 more for the cutter, 3 to each other seat, then 4 to the table.
    hands: list[tuple[Card, ...]] = [() for _ in range(n)]
    hands[cutter] = (drawn, *unseen[:2])
    k = 2
    for seat in order[1:]:
        hands[seat] = tuple(unseen[k:k + 3])
        k += 3
    keep = view._opening_world(hands, unseen[k:k + 4], unseen[k + 4:])
    # Place: the card and 3 more on the table, then 3 to each seat.
    hands = [() for _ in range(n)]
    k = 3
    for seat in order:
        hands[seat] = tuple(unseen[k:k + 3])
        k += 3
    place = view._opening_world(hands, [drawn, *unseen[:3]], unseen[k:])
    side = side_of(cutter, n)
    return margin(rollout(keep), side), margin(rollout(place), side)



# --------------------------------------------------------------------------- inference

#: The opponents' model: a softmax of the rollout policy's worths (tenths of a point) at
#: this temperature, mixed with a share of uniform choice (nobody plays like our model).
INFERENCE_TEMPERATURE = 2.0
INFERENCE_UNIFORM = 0.1


def _policy_scores(table: int, tsum: int, held: Sequence[int], forced: bool
                   ) -> list[tuple[int, int, float]]:
    """Every legal move of ``held`` on ``table`` with the rollout policy's worth of it
    (the worths :func:`_greedy_move` maximizes; never on a hand's last play)."""
    out: list[tuple[int, int, float]] = []
    drops: list[int] = []
    for c in held:
        v = VALUE[c]
        opts = capture_masks(v, table)
        if not opts:
            drops.append(c)
            continue
        for o in opts:
            score = WORTH[c] + mask_worth(o)
            left = table ^ o
            if not left:
                score += 10.0
            elif tsum - v <= 10:
                score -= 4.0
            out.append((c, o, score))
    if drops and not (out and forced):
        for d in drops:
            score = -0.5 * WORTH[d] - 0.01 * VALUE[d]
            if tsum + VALUE[d] <= 10:
                score -= 4.0
            out.append((d, 0, score))
    return out


def round_plays(view: Hand) -> list[tuple[int, int, int, int, int]]:
    """The plays of the current round (since the last deal of three cards to everyone) by
    the seats other than the viewer: (seat, card, capture mask, the table's mask before
    the play, the mask of the cards that seat played later in the round).

    Read from the view's public events only: the plays of a finished round tell nothing
    about the cards hidden now (every card held then has been played since), so only
    this round's plays constrain what the other seats hold.
    """
    me = view.viewer
    played = sum(3 - len(h) for h in view.hands)
    if played <= 0:
        return []
    recent: list[PlayEvent] = []
    for e in reversed(view.events):
        if type(e) is PlayEvent:
            recent.append(e)
            if len(recent) == played:
                break
    table = view._tm
    later = [0] * view.players
    out: list[tuple[int, int, int, int, int]] = []
    for seat, card, capture, _ in recent:  # latest first: undo each play
        taken = mask_of(capture)
        before = table | taken if taken else table ^ BIT[card]
        if seat != me:
            out.append((seat, card, taken, before, later[seat]))
        later[seat] |= BIT[card]
        table = before
    return out


def world_weight(world: Hand, plays: Sequence[tuple[int, int, int, int, int]],
                 temperature: float = INFERENCE_TEMPERATURE,
                 uniform: float = INFERENCE_UNIFORM) -> float:
    """How likely the other seats' plays of this round (:func:`round_plays`) are in
    ``world`` under the opponents' model: the product of each play's probability, the
    seat then holding the card it played, the cards it played later in the round and the
    cards ``world`` gives it now."""
    if not plays:
        return 1.0
    forced = world.ruleset.forced_capture
    weight = 1.0
    for seat, card, taken, before, later in plays:
        held = [card, *bits(later), *cast(tuple[Card, ...], world.hands[seat])]
        tsum = sum(VALUE[c] for c in bits(before))
        scored = _policy_scores(before, tsum, held, forced)
        if len(scored) <= 1:
            continue
        top = max(s for _, _, s in scored)
        total = 0.0
        mine = 0.0
        for c, o, s in scored:
            e = math.exp((s - top) / temperature)
            total += e
            if c == card and o == taken:
                mine = e
        weight *= (1.0 - uniform) * mine / total + uniform / len(scored)
    return weight


def model_round_plays(view: Hand) -> list[tuple[int, int, int, int, int, int]]:
    """:func:`round_plays` for the learned model (issue 45): each play also carries the
    mask of the cards nobody had shown yet when it was made (the cards the viewer has
    seen, minus its own hand and minus every card played since)."""
    me = view.viewer
    assert me is not None
    mine = mask_of(c for c in view.hand_of(me) if c is not None)
    public = view._known & ~mine
    out = []
    for seat, card, taken, before, later in round_plays(view):  # latest first
        out.append((seat, card, taken, before, later, ALL_CARDS ^ public))
        public &= ~BIT[card]
    # The cards played since a play were all unseen then: undo the latest ones first.
    return out


def model_world_weight(world: Hand, plays: Sequence[tuple[int, int, int, int, int, int]],
                       model: PolicyModel, uniform: float = INFERENCE_UNIFORM) -> float:
    """:func:`world_weight` with the learned model as the opponents' model: the product,
    over the other seats' plays of the round, of the model's probability of the play
    (mixed with a share of uniform choice), the seat holding in ``world`` what it then
    held."""
    forced = world.ruleset.forced_capture
    stock = world.stock
    weight = 1.0
    for seat, card, taken, before, later, unseen in plays:
        held: list[int] = [card, *bits(later), *cast(tuple[Card, ...], world.hands[seat])]
        own = 0
        for c in held:
            own |= BIT[c]
        probs = model.probabilities(before, held, unseen & ~own, stock, forced)
        if len(probs) <= 1:
            continue
        mine = 0.0
        for c, o, p in probs:
            if c == card and o == taken:
                mine = p
                break
        weight *= (1.0 - uniform) * mine + uniform / len(probs)
    return weight


def _gone(hand: Hand) -> int:
    """The cards every seat has seen leave play or lie on the table."""
    gone = hand._tm
    pm = hand._pm
    while pm:
        gone |= pm & ALL_CARDS
        pm >>= 40
    return gone


def rollout_model(hand: Hand, model: PolicyModel, plies: int) -> Hand:
    """Play a sampled world out: the learned model's most likely move for each seat in the
    first ``plies`` plays, then the greedy policy (the model is slower to evaluate)."""
    advance = Hand._play_trusted
    forced = hand.ruleset.forced_capture
    while plies > 0 and hand._stage != _OVER:
        seat = hand.turn
        held = cast(tuple[Card, ...], hand.hands[seat])
        if len(held) == 1:
            i, _, o = _greedy_move(hand, held)
        else:
            unseen = ALL_CARDS ^ (_gone(hand) | mask_of(held))
            c, o = model.best(hand._tm, held, unseen, hand.stock, forced)
            i = held.index(c)
        hand = advance(hand, seat, i, held[i], o)
        plies -= 1
    return rollout(hand)


# --------------------------------------------------------------------------- exact endgame


#: At 2 players the expert searches each sampled world exactly once the stock holds at
#: most this many cards (the current round and one more deal: a few thousand positions,
#: ~3 ms a world; 12 cards cost ten times as much, and fewer worlds fit the budget).
EXACT_STOCK_2P = 6


def _exact_reach(view: Hand) -> bool:
    """Whether the expert values its options by exact search in each sampled world:
    at 2 players once the stock holds :data:`EXACT_STOCK_2P` cards or fewer, at 4
    players once it is empty (each seat's last cards); at 3 players never (the other
    seats' interests are not one side's)."""
    seating = Seating.of(view.players)
    if seating.teams:
        return view.stock == 0
    return seating.sides == 2 and view.stock <= EXACT_STOCK_2P


def _check_exact(state: Hand) -> None:
    if state.viewer is not None:
        raise BotError("the exact search needs every card known (determinize a view)",
                       code="exact_search_needs_a_world")
    if state.stock and not state._deck:
        raise BotError("the exact search needs a world that deals its stock itself "
                       "(determinize a view)", code="exact_search_needs_a_world")


def _solve(s: Hand, side: int, alpha: float, beta: float,
           value_of: Callable[[Hand], float] | None) -> float:
    """Alpha-beta over the rest of a world: ``side``'s seats (at 4 players, the partner
    too) maximize its value, the others minimize it (exact at 2 players, where the margin
    is zero-sum; at 4 players the two teams' margin is zero-sum as well)."""
    if s.is_over:
        return margin(s, side) if value_of is None else value_of(s)
    seat = s.turn
    if side_of(seat, s.players) == side:
        value = -1e9
        for i, c, o in s._move_masks():
            value = max(value, _solve(s._play_trusted(seat, i, c, o), side, alpha, beta,
                                      value_of))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    else:
        value = 1e9
        for i, c, o in s._move_masks():
            value = min(value, _solve(s._play_trusted(seat, i, c, o), side, alpha, beta,
                                      value_of))
            beta = min(beta, value)
            if alpha >= beta:
                break
    return value


def exact_values(state: Hand, side: int, options: Sequence[tuple[int, Card, int]],
                 value_of: Callable[[Hand], float] | None = None) -> list[float]:
    """The exact value for ``side`` of each option ``(index in the hand, card, capture
    mask)`` of the seat to play in an omniscient world (a world with a stock deals it
    itself, as :func:`determinize` makes them): each option's full search, so that the
    values of many sampled worlds can be summed."""
    _check_exact(state)
    seat = state.turn
    return [_solve(state._play_trusted(seat, i, c, o), side, -1e9, 1e9, value_of)
            for i, c, o in options]


def exact_endgame(state: Hand, side: int,
                  value_of: Callable[[Hand], float] | None = None
                  ) -> tuple[tuple[int, int], float]:
    """Best move (card id, capture mask) and its value for ``side`` (the final margin, or
    ``value_of`` the finished hand) in an omniscient hand in play: with no stock, or a
    world that deals its stock itself.

    Alpha-beta over the rest of the hand (:func:`_solve`), the window narrowing from one
    root move to the next.
    """
    _check_exact(state)
    best_move = None
    best = -1e9
    alpha = -1e9
    seat = state.turn
    for i, c, o in state._move_masks():
        value = _solve(state._play_trusted(seat, i, c, o), side, alpha, 1e9, value_of)
        if value > best:
            best, best_move = value, (c, o)
            alpha = value
    assert best_move is not None
    return best_move, int(best) if value_of is None else best


# --------------------------------------------------------------------------- the bot


#: The share of the time budget the expert plans to use (the rest is a safety margin),
#: and the share after which it abandons the sample in progress.
_BUDGET_SHARE = 0.75
_HARD_SHARE = 0.85


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """No cycle-collector pause inside a timed search (the search makes no cycles; what
    others left is collected once the move is chosen)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _to_move(view: Hand, card: int, capture: int) -> Move:
    return Move(Card(card), frozenset(Card(c) for c in bits(capture)))


_PLAYOUTS: dict[str, Callable[[Hand], Hand]] = {"greedy": rollout, "sharp": rollout_sharp}


class ExpertBot:
    """Determinized Monte Carlo over its own moves, exact search near the end.

    ``move_ms`` bounds the thinking time per move (default 200 ms); ``samples``, if set,
    caps the number of sampled worlds per move (with ``move_ms=None`` the bot is then fully
    deterministic for a given seed, which tests rely on).  ``clock`` reads the time in
    seconds (``time.perf_counter`` by default): a test passes a clock of its own to check
    the budget logic without timing anything.  ``inference`` weighs the sampled worlds by
    the other seats' plays of the round, ``playout`` names the rollout policy ("greedy"
    or "sharp"), ``match_aware`` plays for the match near its target, ``exact_reach``
    searches each sampled world exactly near the end of the hand (:func:`_exact_reach`);
    the arena's ``baseline`` level turns all four back to the expert before issue 28.
    """

    level = "expert"

    def __init__(self, seed: int | None = None, *, move_ms: float | None = 200,
                 samples: int | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 inference: bool = True, playout: str = "greedy",
                 match_aware: bool = True, exact_reach: bool = True,
                 model: PolicyModel | None = None, model_plies: int = 0) -> None:
        if move_ms is None and samples is None:
            raise BotError("the expert needs a time budget (move_ms) or a sample count",
                           code="no_budget")
        self._rng = random.Random(seed)
        self.move_ms = move_ms
        self.samples = samples
        #: Reads the time in seconds for the budget (the arena passes a CPU clock so
        #: that bots sharing a machine each get their own core's worth).
        self.clock = clock
        #: Weigh each sampled world by how likely the other seats' plays of this round
        #: are in it (False: every world counts the same, the expert before issue 28).
        self.inference = inference
        #: Play for the match near its target (False: for the hand's margin always).
        self.match_aware = match_aware
        #: Near the end of a hand (:func:`_exact_reach`), value each option by exact
        #: search in every sampled world instead of a playout (False: playouts until the
        #: stock is empty at 2 players, the expert before issue 28).
        self.exact_reach = exact_reach
        if playout not in _PLAYOUTS:
            raise BotError(f"no playout policy {playout!r}; choose among "
                           f"{', '.join(_PLAYOUTS)}", code="unknown_playout",
                           data={"playout": str(playout), "choices": ", ".join(_PLAYOUTS)})
        #: The rollout policy: "sharp" (:func:`rollout_sharp`) or "greedy" (:func:`rollout`,
        #: the expert before issue 28).
        self.playout = playout
        self._rollout = _PLAYOUTS[playout]
        #: The learned model of play (issue 45), if any: it replaces the rollout
        #: policy's softmax as the opponents' model in the inference, and chooses the
        #: first ``model_plies`` plays of every playout.
        self.model = model
        self.model_plies = model_plies if model is not None else 0
        if self.model_plies:
            plies = self.model_plies
            assert model is not None
            self._rollout = lambda h: rollout_model(h, model, plies)
        self._fallback = HeuristicBot(seed)
        #: Sampled worlds used for the last decision (0: decided without sampling).
        self.last_samples = 0
        #: The match totals before this hand and the target (:meth:`see_match`).
        self._match: tuple[tuple[int, ...], int] | None = None

    def see_match(self, totals: Sequence[int], target: int) -> None:
        """The match totals by side before the hand about to be played, and the target:
        near it the expert plays for the match (its chance to win it), not for the hand's
        margin (at 10-9, a sure point beats a likely two).  A driver that never calls this
        gets margin play throughout."""
        self._match = (tuple(totals), target)

    def _objective(self, side: int) -> Callable[[Hand], float] | None:
        """The value of a finished world for ``side``: None for the margin."""
        if self._match is None or not self.match_aware:
            return None
        totals, target = self._match
        if max(totals) + MATCH_REACH < target:
            return None
        return lambda h: match_value(h, side, totals, target)

    def choose_cut(self, hand: Hand) -> bool:
        """Keep or place the drawn card: whichever does better over sampled deals.

        Both choices are played out (greedy rollouts) from the same shuffles of the 39
        cards unseen from the cutter's seat.
        """
        view = hand
        if view.viewer is None:
            raise BotError("bots play from a seat's view: pass hand.view(seat)",
                           code="not_a_seat_view")
        cutter = view.cutter
        drawn = view.hand_of(cutter)[0]
        if drawn is None or view.viewer != cutter:
            raise BotError("only the cutter, who sees the drawn card, chooses",
                           code="not_the_cutter")
        start = self.clock()
        deadline = None if self.move_ms is None else start + _BUDGET_SHARE * self.move_ms / 1e3
        unseen = sorted(view.unseen_cards())
        keep_total = place_total = 0
        samples = 0
        with _no_cycle_collection():
            while True:
                if self.samples is not None and samples >= self.samples:
                    break
                if deadline is not None and samples > 0:
                    now = self.clock()
                    if now + 1.5 * (now - start) / samples > deadline:
                        break
                self._rng.shuffle(unseen)
                kept, placed = cut_margins(view, drawn, unseen)
                keep_total += kept
                place_total += placed
                samples += 1
        self.last_samples = samples
        if keep_total == place_total:
            return self._fallback.choose_cut(hand)
        return keep_total > place_total

    def sample_world(self, view: Hand) -> Hand:
        """One world the search plays out from ``view``, the bot's seat's view: the
        cards unseen from that seat dealt at random (:func:`determinize`).  The
        ``handseer`` measurement level deals only the stock (:class:`HandSeerBot`)."""
        return determinize(view, self._rng)

    def choose_play(self, hand: Hand) -> Move:
        if hand.viewer is None:
            raise BotError("bots play from a seat's view: pass hand.view(seat)",
                           code="not_a_seat_view")
        return self._search(hand)

    def _search(self, view: Hand) -> Move:
        """The move for the viewer of ``view``, over the worlds :meth:`sample_world`
        deals."""
        start = self.clock()
        self.last_samples = 0
        moves = view.legal_moves()
        if not moves:
            raise BotError("no legal move: it is not this seat's turn to play",
                           code="not_its_turn")
        if len(moves) == 1:
            return moves[0]
        me = view.viewer
        assert me is not None
        side = side_of(me, view.players)
        if view.stock == 0 and view.players == 2:
            # Every card is accounted for: the unseen cards are the opponent's hand.
            state = self.sample_world(view)
            (c, o), _ = exact_endgame(state, side, self._objective(side))
            return _to_move(view, c, o)
        held = view.hand_of(me)
        options = [(held.index(m.card), m.card, mask_of(m.capture)) for m in moves]
        totals = [0.0] * len(options)
        # Plan to stop a little short of the budget (the estimate of a sample's cost can
        # be wrong, the machine may be shared), and abandon a sample that would overrun it.
        if self.move_ms is None:
            deadline = hard_stop = None
        else:
            deadline = start + _BUDGET_SHARE * self.move_ms / 1e3
            hard_stop = start + _HARD_SHARE * self.move_ms / 1e3
        model = self.model
        plays: Sequence[tuple[int, ...]] = []
        if self.inference:
            plays = model_round_plays(view) if model is not None else round_plays(view)
        play_out = self._rollout
        objective = self._objective(side)
        exact = self.exact_reach and _exact_reach(view)
        n = 0
        with _no_cycle_collection():
            while True:
                if self.samples is not None and n >= self.samples:
                    break
                if deadline is not None and n > 0:
                    now = self.clock()
                    if now + 1.5 * (now - start) / n > deadline:
                        break
                world = self.sample_world(view)
                margins: list[float] = []
                if exact:
                    # One world's exact search takes a few ms: the deadline's estimate
                    # of a sample's cost keeps it inside the budget.
                    margins = exact_values(world, side, options, objective)
                else:
                    for i, c, o in options:
                        end = play_out(world._play_trusted(me, i, c, o))
                        margins.append(margin(end, side) if objective is None
                                       else objective(end))
                        if hard_stop is not None and n > 0 and self.clock() > hard_stop:
                            break
                if len(margins) < len(options):
                    break  # every move must be judged on the same worlds
                if not plays:
                    w = 1.0
                elif model is not None:
                    w = model_world_weight(world, plays, model)  # type: ignore[arg-type]
                else:
                    w = world_weight(world, plays)  # type: ignore[arg-type]
                for i, m in enumerate(margins):
                    totals[i] += w * m
                n += 1
        self.last_samples = n
        best = max(totals)
        # Ties (equal mean margins): the heuristic's preference among them.
        tied = [moves[i] for i, t in enumerate(totals) if t == best]
        if len(tied) == 1:
            return tied[0]
        return self._fallback.choose_among(view, tied)


def deal_stock(hand: Hand, rng: random.Random) -> Hand:
    """One world of ``hand`` (omniscient, in play) in which every seat keeps its true
    hand and only the stock's cards are shuffled (in dealing order: the world deals it
    itself): what a seat would know with perfect inference of the others' hands."""
    if hand.viewer is not None:
        raise BotError("deal the stock of the whole hand, not a seat's view",
                       code="stock_of_a_view")
    hands = cast(tuple[tuple[Card, ...], ...], hand.hands)
    held = 0
    for h in hands:
        held |= mask_of(h)
    stock = list(cards_of(ALL_CARDS ^ (_gone(hand) | held)))
    rng.shuffle(stock)
    return hand._world(hands, stock)


class HandSeerBot(ExpertBot):
    """The expert's search given every seat's hand but not the stock: for measurement
    only (issue 45).

    The same sampling, budget, playouts, match-aware play and exact search near the end
    as the expert (it is one), but each sampled world keeps every seat's true hand and
    shuffles only the stock's cards (:func:`deal_stock`); once the stock is empty that
    world is the true one and the rest of the hand is searched exactly, at any table
    size.  Its win rate against the expert is the ceiling of inference (a perfect model
    of the opponents' hands); what :class:`OmniscientBot` gains beyond it is the
    stock's order, which no seat can know.  Like the omniscient level it plays only in
    the arena (:meth:`choose_play_seeing`) and refuses a seat's view.  The inference
    weights are off: every world holds the true hands, so they would weigh every world
    the same and only cost time.
    """

    level = "handseer"
    #: The arena hands this bot the whole hand and the undealt cards, not a seat's view.
    sees_all = True

    def __init__(self, seed: int | None = None, *, move_ms: float | None = 200,
                 samples: int | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(seed, move_ms=move_ms, samples=samples, clock=clock,
                         inference=False)
        #: The whole hand of the move being chosen (:meth:`choose_play_seeing`).
        self._seen: Hand | None = None

    def choose_play(self, hand: Hand) -> Move:
        raise BotError("the handseer level plays only in the arena's measurement, "
                       "from the whole hand (choose_play_seeing)",
                       code="seeing_level_at_a_table", data={"level": "handseer"})

    def sample_world(self, view: Hand) -> Hand:
        """A world with every seat's true hand, the stock shuffled (:func:`deal_stock`)."""
        assert self._seen is not None and view.viewer == self._seen.turn
        return deal_stock(self._seen, self._rng)

    def choose_play_seeing(self, hand: Hand, undealt_cards: Sequence[Card]) -> Move:
        """The move for the seat to play in ``hand`` (omniscient); ``undealt_cards``
        (the stock in dealing order) is not read: only which cards the stock holds."""
        if hand.viewer is not None:
            raise BotError("the handseer level plays from the whole hand",
                           code="seeing_level_given_a_view", data={"level": "handseer"})
        seat = hand.turn
        view = hand.view(seat)
        if hand.stock == 0:
            moves = view.legal_moves()
            if len(moves) == 1:
                return moves[0]
            # Every card is known: the true world, searched exactly to the hand's end.
            self.last_samples = 0
            side = side_of(seat, hand.players)
            world = hand._world(cast(tuple[tuple[Card, ...], ...], hand.hands), ())
            (c, o), _ = exact_endgame(world, side, self._objective(side))
            return _to_move(view, c, o)
        self._seen = hand
        try:
            return self._search(view)
        finally:
            self._seen = None


class OmniscientBot:
    """The expert's search given every card: for measurement only.

    It plays from the omniscient hand and the undealt cards in dealing order
    (:meth:`choose_play_seeing`), so every sampled world of the expert would be the true
    one: each move is played out once by the rollout policy, and once the stock is empty
    the rest of the hand is searched exactly, at any table size.  It is the ceiling the
    arena measures the expert against (the value of the information the expert lacks).
    It is no level a player can meet: :data:`chkobba_p2p.bots.levels.LEVELS` does not list it,
    and :meth:`choose_play` refuses a seat's view, which is all the wire and ``chkobba
    play`` ever give a bot.
    """

    level = "omniscient"
    #: The arena hands this bot the whole hand and the undealt cards, not a seat's view.
    sees_all = True

    def __init__(self, seed: int | None = None, *, move_ms: float | None = None) -> None:
        #: The expert that chooses its cuts (with the expert's budget and clock).
        self.cut_search = ExpertBot(seed, move_ms=move_ms if move_ms is not None else 200)

    def choose_play(self, hand: Hand) -> Move:
        raise BotError("the omniscient level plays only in the arena's measurement, "
                       "from the whole hand (choose_play_seeing)",
                       code="seeing_level_at_a_table", data={"level": "omniscient"})

    def choose_play_seeing(self, hand: Hand, undealt_cards: Sequence[Card]) -> Move:
        """The move for the seat to play in ``hand`` (omniscient), whose next deals are
        ``undealt_cards`` in dealing order."""
        if hand.viewer is not None:
            raise BotError("the omniscient level plays from the whole hand",
                           code="seeing_level_given_a_view", data={"level": "omniscient"})
        moves = hand.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seat = hand.turn
        side = side_of(seat, hand.players)
        world = hand._world(cast(tuple[tuple[Card, ...], ...], hand.hands),
                            list(undealt_cards)[:hand.stock])
        if world.stock == 0:
            (c, o), _ = exact_endgame(world, side)
            return _to_move(hand, c, o)
        best: Move | None = None
        best_margin = -1e9
        held = world.hands[seat]
        for m in moves:
            after = world._play_trusted(seat, held.index(m.card), m.card, mask_of(m.capture))
            value = margin(rollout(after), side)
            if value > best_margin:
                best, best_margin = m, value
        assert best is not None
        return best

    def choose_cut(self, hand: Hand) -> bool:
        """The cut as the expert chooses it (from the cutter's view)."""
        return self.cut_search.choose_cut(hand)
