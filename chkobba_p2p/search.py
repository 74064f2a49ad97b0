"""Search for the ``expert`` bot: determinized Monte Carlo with an exact 2-player endgame.

The expert sees only its seat's view.  From it, :func:`determinize` deals the cards unseen
from that seat (``view.unseen_cards()``) at random into the other hands (whose sizes the
view knows) and the stock; nothing else is assumed.  Each of the bot's legal moves is then
played out to the end of the hand in every sampled world by a cheap greedy policy for all
seats, and the move with the best mean point margin for the bot's *side* wins (partners
play for the team at 4 players).  Every move is tried in the same sampled worlds, so the
comparison between moves is not drowned by the luck of the deal.

Once the stock is empty at 2 players every card is accounted for: the unseen cards are
exactly the opponent's hand, so the rest of the hand is searched exactly (alpha-beta over
the final point margin).

The public rules engine (:mod:`chkobba_p2p.rules`) validates and logs every action, which
is right for peers but too slow to play thousands of rollouts within a move's budget.  So
this module plays rollouts on :class:`FastState`, a mutable, bitmask-based copy of the
same rules (cards are their wire ids, the table and the captured piles are 40-bit masks).
The tests check it against the engine move for move.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from .bots import HeuristicBot
from .cards import Card
from .errors import LocalError
from .rules import Hand, Move, Scoring, side_of, sides_count

__all__ = [
    "FastState",
    "determinize",
    "exact_endgame",
    "ExpertBot",
    "capture_masks",
    "score_masks",
]

# --------------------------------------------------------------------------- card tables

VALUE = tuple(i % 10 + 1 for i in range(40))
BIT = tuple(1 << i for i in range(40))
DIAMOND_MASK = sum(BIT[20:30])
SEVEN_MASK = BIT[6] | BIT[16] | BIT[26] | BIT[36]
SIX_MASK = BIT[5] | BIT[15] | BIT[25] | BIT[35]
HAYA_BIT = BIT[26]
SUIT_MASKS = tuple(sum(BIT[s * 10:(s + 1) * 10]) for s in range(4))
_PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
# Per suit, the card ids from best to worst primiera value.
_PRIMIERA_ORDER = tuple(
    tuple(sorted(range(s * 10, s * 10 + 10), key=lambda c: -_PRIMIERA[VALUE[c]]))
    for s in range(4)
)

#: Rollout worth of capturing one card, in tenths of a point (a rough marginal value:
#: carta is one point over 40 cards, dinari one over 10 diamonds, barmila one over 4 sevens
#: with sixes as tie-break, the haya a point of its own on top of its diamond and seven).
WORTH = tuple(
    1.0 + 2.0 * (20 <= i < 30) + 3.0 * (VALUE[i] == 7) + 1.0 * (VALUE[i] == 6)
    + 10.0 * (i == 26)
    for i in range(40)
)


def bits(mask: int) -> list[int]:
    """The card ids set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c.id]
    return m


# Rollouts meet many tables; the caches are cleared when full, which keeps memory bounded
# (and the clearing cheap enough to fit in a move's budget).
_CACHE_LIMIT = 200_000
_CAPTURE_CACHE: dict[int, tuple[int, ...]] = {}
_MASK_SUM: dict[int, int] = {}
_MASK_WORTH: dict[int, float] = {}


def capture_masks(value: int, table: int) -> tuple[int, ...]:
    """Every capture (as a mask) a card of ``value`` may make on ``table`` (a mask).

    The same contract as :func:`chkobba_p2p.rules.capture_options`: rank first, else every
    group of two or more cards summing to the value; empty when nothing can be taken.
    """
    key = (table << 4) | value
    found = _CAPTURE_CACHE.get(key)
    if found is not None:
        return found
    cards = bits(table)
    same = tuple(BIT[c] for c in cards if VALUE[c] == value)
    if same:
        result = same
    else:
        smaller = [c for c in cards if VALUE[c] < value]
        groups: list[int] = []
        if len(smaller) >= 2:
            _sum_groups(smaller, 0, value, 0, 0, groups)
        result = tuple(groups)
    if len(_CAPTURE_CACHE) > _CACHE_LIMIT:
        _CAPTURE_CACHE.clear()
    _CAPTURE_CACHE[key] = result
    return result


def _sum_groups(cards: list[int], start: int, remaining: int, chosen: int, size: int,
                out: list[int]) -> None:
    # A plain function, not a closure: a recursive closure is a reference cycle, garbage
    # that only the cycle collector frees (and its pauses would eat into a move's budget).
    for i in range(start, len(cards)):
        c = cards[i]
        v = VALUE[c]
        if v == remaining:
            if size:
                out.append(chosen | BIT[c])
        elif v < remaining:
            _sum_groups(cards, i + 1, remaining - v, chosen | BIT[c], size + 1, out)


def mask_sum(mask: int) -> int:
    found = _MASK_SUM.get(mask)
    if found is None:
        found = sum(VALUE[c] for c in bits(mask))
        if len(_MASK_SUM) > _CACHE_LIMIT:
            _MASK_SUM.clear()
        _MASK_SUM[mask] = found
    return found


def mask_worth(mask: int) -> float:
    found = _MASK_WORTH.get(mask)
    if found is None:
        found = sum(WORTH[c] for c in bits(mask))
        if len(_MASK_WORTH) > _CACHE_LIMIT:
            _MASK_WORTH.clear()
        _MASK_WORTH[mask] = found
    return found


def _strict_winner(values: Sequence[int | None]) -> int | None:
    present = [v for v in values if v is not None]
    if not present:
        return None
    top = max(present)
    winners = [i for i, v in enumerate(values) if v == top]
    return winners[0] if len(winners) == 1 else None


def _primiera(mask: int) -> int | None:
    total = 0
    for order in _PRIMIERA_ORDER:
        for c in order:
            if mask & BIT[c]:
                total += _PRIMIERA[VALUE[c]]
                break
        else:
            return None
    return total


def score_masks(piles: Sequence[int], chkobbas: Sequence[int],
                primiera: bool = False) -> list[int]:
    """Points per side for a finished hand, from each side's captured-cards mask.

    The same scoring as :func:`chkobba_p2p.rules.score_piles` (tested against it).
    """
    points = list(chkobbas)
    categories = [
        _strict_winner([m.bit_count() for m in piles]),
        _strict_winner([(m & DIAMOND_MASK).bit_count() for m in piles]),
    ]
    if primiera:
        categories.append(_strict_winner([_primiera(m) for m in piles]))
    else:
        sevens = [(m & SEVEN_MASK).bit_count() for m in piles]
        barmila = _strict_winner(sevens)
        if barmila is None and max(sevens) > 0:
            top = max(sevens)
            barmila = _strict_winner([(m & SIX_MASK).bit_count() if s == top else None
                                      for m, s in zip(piles, sevens)])
        categories.append(barmila)
    categories.append(next((i for i, m in enumerate(piles) if m & HAYA_BIT), None))
    for w in categories:
        if w is not None:
            points[w] += 1
    return points


# --------------------------------------------------------------------------- fast state


class FastState:
    """A mutable, omniscient hand in play, on bitmasks: for rollouts and exact search.

    ``hands`` are lists of card ids per seat, ``table`` a mask, ``stock`` the card ids still
    to be dealt (dealt from the front in the engine's order: 3 to each seat starting with
    the one to play), ``piles`` and ``chkobbas`` per *side*, ``last`` the side that
    captured last (-1: nobody).
    """

    __slots__ = ("players", "sides", "hands", "table", "table_sum", "stock", "piles",
                 "chkobbas", "turn", "last", "forced", "primiera", "over")

    players: int
    sides: int
    hands: list[list[int]]
    table: int
    table_sum: int
    stock: list[int]
    piles: list[int]
    chkobbas: list[int]
    turn: int
    last: int
    forced: bool
    primiera: bool
    over: bool

    @classmethod
    def opening(cls, hand: Hand, hands: Sequence[Sequence[int]], table: Sequence[int],
                stock: Sequence[int]) -> FastState:
        """A fresh hand's first turn: ``hands`` and ``table`` dealt, nothing captured yet."""
        s = object.__new__(cls)
        n = hand.players
        s.players = n
        s.sides = sides_count(n)
        s.hands = [list(h) for h in hands]
        s.table = 0
        for c in table:
            s.table |= BIT[c]
        s.table_sum = sum(VALUE[c] for c in table)
        s.stock = list(stock)
        s.piles = [0] * s.sides
        s.chkobbas = [0] * s.sides
        s.turn = hand.cutter
        s.last = -1
        s.forced = hand.ruleset.forced_capture
        s.primiera = hand.ruleset.scoring is Scoring.PRIMIERA
        s.over = False
        return s

    @classmethod
    def from_hand(cls, hand: Hand, hidden: Sequence[Sequence[int]] | None = None,
                  stock: Sequence[int] = ()) -> FastState:
        """The state of ``hand`` (a view or omniscient) waiting for a play.

        ``hidden``, if given, replaces every seat's hand (card ids; a view's own seat must
        be given as it is); ``stock`` is the undealt cards in dealing order.
        """
        s = object.__new__(cls)
        n = hand.players
        s.players = n
        s.sides = sides_count(n)
        if hidden is None:
            hidden = [[c.id for c in h] for h in hand.hands]  # type: ignore[union-attr]
        s.hands = [list(h) for h in hidden]
        s.table = mask_of(hand.table)
        s.table_sum = sum(c.value for c in hand.table)
        s.stock = list(stock)
        if len(s.stock) != hand.stock:
            raise LocalError(f"the stock holds {hand.stock} cards, not {len(s.stock)}")
        piles = [0] * s.sides
        chk = [0] * s.sides
        for seat in range(n):
            side = side_of(seat, n)
            piles[side] |= mask_of(hand.piles[seat])
            chk[side] += hand.chkobbas[seat]
        s.piles = piles
        s.chkobbas = chk
        s.turn = hand.turn
        s.last = -1 if hand.last_capturer is None else side_of(hand.last_capturer, n)
        s.forced = hand.ruleset.forced_capture
        s.primiera = hand.ruleset.scoring is Scoring.PRIMIERA
        s.over = False
        return s

    def copy(self) -> FastState:
        s = object.__new__(FastState)
        s.players = self.players
        s.sides = self.sides
        s.hands = [h[:] for h in self.hands]
        s.table = self.table
        s.table_sum = self.table_sum
        s.stock = self.stock[:]
        s.piles = self.piles[:]
        s.chkobbas = self.chkobbas[:]
        s.turn = self.turn
        s.last = self.last
        s.forced = self.forced
        s.primiera = self.primiera
        s.over = self.over
        return s

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def moves(self) -> list[tuple[int, int]]:
        """Legal moves for the seat to play: (card id, capture mask; 0 = the card stays)."""
        out: list[tuple[int, int]] = []
        table = self.table
        for c in self.hands[self.turn]:
            opts = capture_masks(VALUE[c], table)
            if opts:
                out.extend((c, o) for o in opts)
            else:
                out.append((c, 0))
        if self.forced and any(o for _, o in out):
            out = [m for m in out if m[1]]
        return out

    def is_last_play(self) -> bool:
        """True when the seat to play holds the very last card of the hand."""
        if self.stock:
            return False
        return sum(len(h) for h in self.hands) == 1

    def play(self, card: int, capture: int) -> None:
        """Play ``card`` taking ``capture`` (trusted legal); deal or finish as the rules say."""
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        if capture:
            side = self.side_of(seat)
            self.table ^= capture
            self.table_sum -= mask_sum(capture)
            self.piles[side] |= capture | BIT[card]
            self.last = side
            if not self.table and (self.stock or any(self.hands)):
                self.chkobbas[side] += 1
        else:
            self.table |= BIT[card]
            self.table_sum += VALUE[card]
        n = self.players
        self.turn = (seat + 1) % n
        if any(self.hands):
            return
        if self.stock:
            first = self.turn
            stock = self.stock
            for i in range(n):
                self.hands[(first + i) % n] = stock[3 * i:3 * i + 3]
            del stock[:3 * n]
            return
        if self.last >= 0:
            self.piles[self.last] |= self.table
            self.table = 0
            self.table_sum = 0
        self.over = True

    def points(self) -> list[int]:
        """Points per side; only meaningful once :attr:`over`."""
        return score_masks(self.piles, self.chkobbas, self.primiera)

    def margin(self, side: int) -> int:
        """``side``'s points minus the best other side's, once the hand is over."""
        pts = self.points()
        mine = pts[side]
        return mine - max(p for i, p in enumerate(pts) if i != side)

    # ------------------------------------------------------------------ rollout policy

    def greedy_move(self) -> tuple[int, int]:
        """The rollout policy: best immediate worth, fearing a sweepable table."""
        table = self.table
        tsum = self.table_sum
        last_play = not self.stock and sum(len(h) for h in self.hands) == 1
        best = None
        best_score = -1e9
        any_capture = False
        drops: list[int] = []
        for c in self.hands[self.turn]:
            v = VALUE[c]
            opts = capture_masks(v, table)
            if not opts:
                drops.append(c)
                continue
            any_capture = True
            for o in opts:
                score = WORTH[c] + mask_worth(o)
                left = table ^ o
                if not left:
                    if not last_play:
                        score += 10.0
                elif tsum - mask_sum(o) <= 10:
                    score -= 4.0
                if score > best_score:
                    best_score = score
                    best = (c, o)
        if drops and not (self.forced and any_capture):
            for c in drops:
                score = -0.5 * WORTH[c] - 0.01 * VALUE[c]
                if tsum + VALUE[c] <= 10:
                    score -= 4.0
                if score > best_score:
                    best_score = score
                    best = (c, 0)
        assert best is not None
        return best

    def rollout(self) -> None:
        """Play the hand out with :meth:`greedy_move` for every seat."""
        while not self.over:
            c, o = self.greedy_move()
            self.play(c, o)


# --------------------------------------------------------------------------- sampling


def determinize(view: Hand, rng: random.Random) -> FastState:
    """One world consistent with ``view``: the unseen cards dealt at random.

    Other seats get as many unseen cards as the view says they hold; the rest is the
    stock.  Only ``view`` (a seat's view) is read.
    """
    me = view.viewer
    if me is None:
        raise LocalError("determinize a seat's view, not an omniscient hand")
    unseen = [c.id for c in sorted(view.unseen_cards())]
    rng.shuffle(unseen)
    hidden: list[list[int]] = []
    k = 0
    for seat in range(view.players):
        held = view.hand_of(seat)
        if seat == me:
            hidden.append([c.id for c in held])  # type: ignore[union-attr]
        else:
            hidden.append(unseen[k:k + len(held)])
            k += len(held)
    stock = unseen[k:]
    return FastState.from_hand(view, hidden, stock)


# --------------------------------------------------------------------------- exact endgame


def exact_endgame(state: FastState, side: int) -> tuple[tuple[int, int], int]:
    """Best move and its final margin for ``side`` with every card known and no stock.

    Alpha-beta over the rest of the hand: ``side`` maximizes its margin, the others
    minimize it (exact at 2 players, where the margin is zero-sum).
    """
    if state.stock:
        raise LocalError("the exact endgame needs an empty stock")

    def search(s: FastState, alpha: float, beta: float) -> float:
        if s.over:
            return s.margin(side)
        maximizing = s.side_of(s.turn) == side
        moves = s.moves()
        if maximizing:
            value = -1e9
            for c, o in moves:
                child = s.copy()
                child.play(c, o)
                value = max(value, search(child, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        else:
            value = 1e9
            for c, o in moves:
                child = s.copy()
                child.play(c, o)
                value = min(value, search(child, alpha, beta))
                beta = min(beta, value)
                if alpha >= beta:
                    break
        return value

    best_move = None
    best = -1e9
    alpha = -1e9
    for c, o in state.moves():
        child = state.copy()
        child.play(c, o)
        value = search(child, alpha, 1e9)
        if value > best:
            best, best_move = value, (c, o)
            alpha = value
    assert best_move is not None
    return best_move, int(best)


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


class ExpertBot:
    """Determinized Monte Carlo over its own moves, exact endgame at 2 players.

    ``move_ms`` bounds the thinking time per move (default 200 ms); ``samples``, if set,
    caps the number of sampled worlds per move (with ``move_ms=None`` the bot is then fully
    deterministic for a given seed, which tests rely on).  ``clock`` reads the time in
    seconds (``time.perf_counter`` by default): a test passes a clock of its own to check
    the budget logic without timing anything.
    """

    level = "expert"

    def __init__(self, seed: int | None = None, *, move_ms: float | None = 200,
                 samples: int | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if move_ms is None and samples is None:
            raise LocalError("the expert needs a time budget (move_ms) or a sample count")
        self._rng = random.Random(seed)
        self.move_ms = move_ms
        self.samples = samples
        self._clock = clock
        self._fallback = HeuristicBot(seed)
        #: Sampled worlds used for the last decision (0: decided without sampling).
        self.last_samples = 0

    def choose_cut(self, hand: Hand) -> bool:
        """Keep or place the drawn card: whichever does better over sampled deals.

        Both choices are played out (greedy rollouts) from the same shuffles of the 39
        cards unseen from the cutter's seat.
        """
        view = hand
        if view.viewer is None:
            raise LocalError("bots play from a seat's view: pass hand.view(seat)")
        cutter = view.cutter
        drawn = view.hand_of(cutter)[0]
        if drawn is None or view.viewer != cutter:
            raise LocalError("only the cutter, who sees the drawn card, chooses")
        start = self._clock()
        deadline = None if self.move_ms is None else start + _BUDGET_SHARE * self.move_ms / 1e3
        n = view.players
        side = side_of(cutter, n)
        order = [(cutter + i) % n for i in range(n)]
        unseen = [c.id for c in sorted(view.unseen_cards())]
        keep_total = place_total = 0
        samples = 0
        with _no_cycle_collection():
            while True:
                if self.samples is not None and samples >= self.samples:
                    break
                if deadline is not None and samples > 0:
                    now = self._clock()
                    if now + 1.5 * (now - start) / samples > deadline:
                        break
                self._rng.shuffle(unseen)
                # Keep: 2 more for the cutter, 3 to each other seat, then 4 to the table.
                hands: list[list[int]] = [[] for _ in range(n)]
                hands[cutter] = [drawn.id, *unseen[:2]]
                k = 2
                for seat in order[1:]:
                    hands[seat] = unseen[k:k + 3]
                    k += 3
                keep = FastState.opening(view, hands, unseen[k:k + 4], unseen[k + 4:])
                # Place: the card and 3 more on the table, then 3 to each seat.
                hands = [[] for _ in range(n)]
                k = 3
                for seat in order:
                    hands[seat] = unseen[k:k + 3]
                    k += 3
                place = FastState.opening(view, hands, [drawn.id, *unseen[:3]], unseen[k:])
                keep.rollout()
                place.rollout()
                keep_total += keep.margin(side)
                place_total += place.margin(side)
                samples += 1
        self.last_samples = samples
        if keep_total == place_total:
            return self._fallback.choose_cut(hand)
        return keep_total > place_total

    def choose_play(self, hand: Hand) -> Move:
        view = hand
        if view.viewer is None:
            raise LocalError("bots play from a seat's view: pass hand.view(seat)")
        start = self._clock()
        self.last_samples = 0
        moves = view.legal_moves()
        if not moves:
            raise LocalError("no legal move: it is not this seat's turn to play")
        if len(moves) == 1:
            return moves[0]
        me = view.viewer
        side = side_of(me, view.players)
        if view.stock == 0 and view.players == 2:
            # Every card is accounted for: the unseen cards are the opponent's hand.
            state = determinize(view, self._rng)
            (c, o), _ = exact_endgame(state, side)
            return _to_move(view, c, o)
        options = [(m.card.id, mask_of(m.capture)) for m in moves]
        totals = [0.0] * len(options)
        # Plan to stop a little short of the budget (the estimate of a sample's cost can
        # be wrong, the machine may be shared), and abandon a sample that would overrun it.
        if self.move_ms is None:
            deadline = hard_stop = None
        else:
            deadline = start + _BUDGET_SHARE * self.move_ms / 1e3
            hard_stop = start + _HARD_SHARE * self.move_ms / 1e3
        n = 0
        with _no_cycle_collection():
            while True:
                if self.samples is not None and n >= self.samples:
                    break
                if deadline is not None and n > 0:
                    now = self._clock()
                    if now + 1.5 * (now - start) / n > deadline:
                        break
                world = determinize(view, self._rng)
                margins = []
                for c, o in options:
                    s = world.copy()
                    s.play(c, o)
                    s.rollout()
                    margins.append(s.margin(side))
                    if hard_stop is not None and n > 0 and self._clock() > hard_stop:
                        break
                if len(margins) < len(options):
                    break  # every move must be judged on the same worlds
                for i, m in enumerate(margins):
                    totals[i] += m
                n += 1
        self.last_samples = n
        best = max(totals)
        # Ties (equal mean margins): the heuristic's preference among them.
        tied = [moves[i] for i, t in enumerate(totals) if t == best]
        if len(tied) == 1:
            return tied[0]
        return self._fallback.choose_among(view, tied)
