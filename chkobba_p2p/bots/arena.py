"""The strength arena: duplicate matches between two bot levels.

Each match is played twice from the same sequence of shuffled decks (and the same first
dealer) with the seats swapped, so whatever luck the cards bring one level in the first
leg they bring the other in the second.  The arena reports the match win rate of level A
with a Wilson 95% interval, and the mean point margin per hand (A's side minus B's) with a
normal 95% interval.

At 4 players level A holds seats 0 and 2 (one team), B seats 1 and 3; the legs swap them.
At 3 players, each for themselves, A holds one seat against two B's, and the match is
played three times, A at each seat in turn (a fair share is then a win rate of 1/3; the
margin is A's points minus the mean of the B seats').
Every bot is handed only its own seat's view (:func:`chkobba_p2p.bots.simulate.play_hand`).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..game.cards import DECK, Card
from ..game.errors import shown
from ..game.hand import CutterChoice, DealStep, Hand, Move, Redeal, Turn
from ..game.match import Match
from ..game.ruleset import Ruleset
from ..game.seating import SHAPES, Seating
from .errors import BotArgumentError
from .expert import ExpertBot, HandSeerBot, OmniscientBot
from .learned import load_model
from .levels import DEFAULT_EXPERT_MS, LEVELS, BotError, make_bot
from .simple import Bot
from .simulate import draw_first_dealer

__all__ = ["ArenaResult", "TimedBot", "arena", "play_duplicate_match", "wilson_interval",
           "MEASUREMENT_LEVELS", "ARENA_LEVELS", "arena_bot",
           "Pairing", "LadderRating", "elo_ratings", "round_robin"]


#: The plays of each playout the ``learned`` level's model chooses (then greedy): none,
#: as measured (the model predicts the expert's moves no better than the greedy rollout
#: policy does, and costs time a world).
LEARNED_PLIES = 0
#: The learned level weighs its worlds with the model's scores times this: sharper than
#: the fitted model (``benchmarks/inference_check.py``: 4 put more weight on the
#: opponent's true cards than 1 or 2, and than the hand-written model).
LEARNED_SHARPNESS = 4.0


def _baseline(seed: int | None = None, *, move_ms: float | None = None) -> ExpertBot:
    """The expert as it was before issue 28 (no inference): the yardstick of its gain."""
    bot = ExpertBot(seed, move_ms=DEFAULT_EXPERT_MS if move_ms is None else move_ms,
                    inference=False, playout="greedy", match_aware=False, exact_reach=False)
    bot.level = "baseline"
    return bot


def _learned(seed: int | None = None, *, move_ms: float | None = None) -> ExpertBot:
    """The expert with the learned model of play (issue 45) weighing its sampled worlds
    (:func:`chkobba_p2p.bots.expert.model_world_weight`) and choosing the first plies of
    its playouts (:data:`LEARNED_PLIES`), its scores sharpened by
    :data:`LEARNED_SHARPNESS`.  A measurement level until it beats the
    expert."""
    bot = ExpertBot(seed, move_ms=DEFAULT_EXPERT_MS if move_ms is None else move_ms,
                    model=load_model().sharpened(LEARNED_SHARPNESS),
                    model_plies=LEARNED_PLIES)
    bot.level = "learned"
    return bot


def _handseer(seed: int | None = None, *, move_ms: float | None = None) -> HandSeerBot:
    """The expert's search seeing every seat's hand but not the stock's order
    (:class:`~chkobba_p2p.bots.expert.HandSeerBot`): the ceiling of inference."""
    return HandSeerBot(seed, move_ms=DEFAULT_EXPERT_MS if move_ms is None else move_ms)


#: Levels only the arena's measurement plays (never offered to players, never in
#: :data:`chkobba_p2p.bots.levels.LEVELS`): ``baseline``, the expert before issue 28, and
#: ``learned``, the expert with the learned model of play (issue 45), ``handseer``, the
#: expert's search seeing every seat's hand but not the stock's order (the ceiling of
#: inference), and ``omniscient``, the expert's search seeing every card (the ceiling the
#: expert is measured against).
MEASUREMENT_LEVELS = {"baseline": _baseline, "learned": _learned,
                      "handseer": _handseer, "omniscient": OmniscientBot}

#: Every level the arena seats: the players' levels, then the measurement ones.
ARENA_LEVELS = (*LEVELS, *MEASUREMENT_LEVELS)


def arena_bot(level: str, seed: int | None = None, move_ms: float | None = None,
              clock: Callable[[], float] | None = None) -> Bot:
    """A bot of any :data:`ARENA_LEVELS` level (the players' through :func:`make_bot`).

    ``clock``: what a searching bot reads its budget on (default: its own, wall time);
    ``time.process_time`` gives each bot its CPU time, so that matches played side by
    side on a shared machine still give every move its budget of one core."""
    factory = MEASUREMENT_LEVELS.get(level)
    if factory is None:
        if level not in LEVELS:
            raise BotError(f"unknown bot level {level!r}; choose among "
                           f"{', '.join(ARENA_LEVELS)}", code="unknown_level",
                           data={"level": level, "choices": ", ".join(ARENA_LEVELS)})
        bot = make_bot(level, seed, move_ms)
    else:
        if move_ms is not None and not move_ms > 0:
            raise BotError(f"the time budget per move must be positive, not {move_ms!r} ms",
                           code="move_ms_not_positive", data={"move_ms": repr(move_ms)})
        bot = factory(seed, move_ms=move_ms)  # type: ignore[assignment]
    if clock is not None:
        for searcher in (bot, getattr(bot, "cut_search", None)):
            if isinstance(searcher, ExpertBot):
                searcher.clock = clock
    return bot


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may count halves)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal 95% interval (mean, low, high)."""
    if not values:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


class TimedBot:
    """A bot with a stopwatch: measures each decision it makes (for the arena's report)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.level = bot.level
        #: A measurement bot that plays from the whole hand (``omniscient``, ``handseer``).
        self.sees_all = bool(getattr(bot, "sees_all", False))
        self.times: list[float] = []
        self.cpu_times: list[float] = []

    def choose_play(self, hand: Hand) -> Move:
        t = time.perf_counter()
        cpu = time.process_time()
        move = self.bot.choose_play(hand)
        self.cpu_times.append(time.process_time() - cpu)
        self.times.append(time.perf_counter() - t)
        return move

    def choose_play_seeing(self, hand: Hand, undealt: Sequence[Card]) -> Move:
        t = time.perf_counter()
        cpu = time.process_time()
        move: Move = self.bot.choose_play_seeing(hand, undealt)  # type: ignore[attr-defined]
        self.cpu_times.append(time.process_time() - cpu)
        self.times.append(time.perf_counter() - t)
        return move

    def choose_cut(self, hand: Hand) -> bool:
        return self.bot.choose_cut(hand)

    def see_match(self, totals: Sequence[int], target: int) -> None:
        see = getattr(self.bot, "see_match", None)
        if see is not None:
            see(totals, target)


def play_hand(hand: Hand, bots: Sequence[Bot], deck: list[Card]) -> Hand:
    """:func:`chkobba_p2p.bots.simulate.play_hand` for the arena: each bot gets its seat's
    view, except a measurement bot that sees all (it gets the hand and the deck's rest)."""
    while True:
        step = hand.pending
        if isinstance(step, Turn):
            seat = step.seat
            bot = bots[seat]
            if getattr(bot, "sees_all", False):
                move = bot.choose_play_seeing(hand, deck[:hand.stock])  # type: ignore[attr-defined]
            else:
                move = bot.choose_play(hand.view(seat))
            hand = hand.play(seat, move.card, move.capture)
        elif isinstance(step, DealStep):
            n = len(step.recipients)
            hand = hand.deal(deck[:n])
            del deck[:n]
        elif isinstance(step, CutterChoice):
            hand = hand.choose_cut(bots[step.seat].choose_cut(hand.view(step.seat)))
        else:  # HandOver or Redeal
            return hand


def _deck_source(seed: int, match: int) -> Callable[[int], list[Card]]:
    """The k-th deck of a match: the same for both legs, whatever happened before."""

    def deck(k: int) -> list[Card]:
        d = list(DECK)
        random.Random(f"arena:{seed}:{match}:{k}").shuffle(d)
        return d

    return deck


def _play_leg(ruleset: Ruleset, bots: Sequence[Bot], first_dealer: int,
              deck: Callable[[int], list[Card]], max_hands: int = 500) -> Match:
    m = Match.new(ruleset, len(bots), first_dealer)
    k = 0
    while not m.is_over:
        if len(m.results) >= max_hands:
            raise BotError(f"no winner after {max_hands} hands", code="no_winner",
                           data={"hands": max_hands})
        assert m.hand is not None
        for bot in bots:
            see = getattr(bot, "see_match", None)
            if see is not None:  # match-aware levels (the expert) learn the totals
                see(m.totals, ruleset.target)
        hand = play_hand(m.hand, bots, deck(k))
        k += 1
        if isinstance(hand.pending, Redeal):
            m = m.with_hand(hand).redeal()
        else:
            m = m.with_hand(hand).finish_hand()
    return m


@dataclass
class ArenaResult:
    """What the duplicate matches between ``level_a`` and ``level_b`` gave, as data (a
    client words it): matches and A's wins, each hand's point margin (A's side minus
    B's), each move's wall and CPU time in seconds per level."""

    level_a: str
    level_b: str
    players: int
    matches: int = 0
    wins_a: int = 0
    margins: list[float] = field(default_factory=list)
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    cpu_a: list[float] = field(default_factory=list)
    cpu_b: list[float] = field(default_factory=list)

    @property
    def legs(self) -> int:
        """Matches per deal: one per side A can hold (2, or 3 at 3 players)."""
        return Seating.of(self.players).sides

    @property
    def win_rate(self) -> float:
        return self.wins_a / self.matches if self.matches else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """A's match win rate's Wilson 95% interval (low, high)."""
        return wilson_interval(self.wins_a, self.matches)

    @property
    def margin(self) -> tuple[float, float, float]:
        """The mean point margin per hand, A's side minus B's, and its normal 95%
        interval (mean, low, high)."""
        return mean_interval([float(x) for x in self.margins])


def play_duplicate_match(ruleset: Ruleset, level_a: str, level_b: str, players: int,
                         seed: int, match: int, move_ms: float | None,
                         result: ArenaResult,
                         clock: Callable[[], float] | None = None) -> None:
    """Both legs of one duplicate match; adds them to ``result`` (``clock``: as
    :func:`arena_bot`'s)."""
    first_dealer = draw_first_dealer(players, random.Random(f"arena-dealer:{seed}:{match}"))
    deck = _deck_source(seed, match)
    seating = Seating.of(players)
    for leg in range(seating.sides):
        # Leg 0: A on side 0 (the even seats at 4); the next legs: the same deals with
        # A on the next side.
        a_side = leg
        bots: list[TimedBot] = []
        for seat in range(players):
            level = level_a if seating.side_of(seat) == a_side else level_b
            bot_seed = hash((seed, match, leg, seat)) & 0xFFFFFFFF
            bots.append(TimedBot(arena_bot(level, bot_seed, move_ms=move_ms, clock=clock)))
        m = _play_leg(ruleset, bots, first_dealer, deck)
        result.matches += 1
        result.wins_a += m.winner == a_side
        for r in m.results:
            pts = r.score.points
            others = [p for side, p in enumerate(pts) if side != a_side]
            result.margins.append(pts[a_side] - others[0] if len(others) == 1
                                  else pts[a_side] - sum(others) / len(others))
        for seat, b in enumerate(bots):
            if seating.side_of(seat) == a_side:
                result.times_a.extend(b.times)
                result.cpu_a.extend(b.cpu_times)
            else:
                result.times_b.extend(b.times)
                result.cpu_b.extend(b.cpu_times)


def arena(level_a: str, level_b: str, games: int, players: int = 2, seed: int = 0,
          move_ms: float | None = None, ruleset: Ruleset | None = None,
          progress: Callable[[ArenaResult], None] | None = None) -> ArenaResult:
    """``games`` duplicate matches (so ``2 * games`` matches) of level A against level B."""
    if players not in SHAPES:
        raise BotArgumentError(f"the arena seats {', '.join(map(str, SHAPES))} players",
                               code="arena_players",
                               data={"players": shown(players),
                                     "choices": ", ".join(map(str, SHAPES))})
    if games < 1:
        raise BotArgumentError("the arena plays at least one game", code="games_below_one",
                               data={"games": shown(games)})
    ruleset = ruleset or Ruleset()
    result = ArenaResult(level_a, level_b, players)
    for i in range(games):
        play_duplicate_match(ruleset, level_a, level_b, players, seed, i, move_ms, result)
        if progress is not None:
            progress(result)
    return result


# --------------------------------------------------------------------------- the ladder
#
# The ladder: a round robin of bot levels in the arena, and an Elo rating for each.
#
# Every pair of levels plays ``games`` duplicate deals (:func:`chkobba_p2p.bots.arena.arena`);
# the match results of the whole round robin are then fitted by Elo's logistic law (the
# Bradley-Terry model: level *i* beats level *j* with probability
# ``1 / (1 + 10 ** ((R_j - R_i) / 400))``) by maximum likelihood, one level held at a fixed
# rating (``greedy`` at 1500, a new player's rating, as :data:`chkobba_p2p.observe.rating.ANCHORS`
# does).  Each rating's 95% interval is ``1.96`` standard errors from the inverse of the
# likelihood's curvature (the Fisher information), relative to the fixed level.
#
# Two levels only: the rating difference is ``400 * log10(p / (1 - p))`` for a win rate
# ``p``, with standard error ``400 / ln 10 / sqrt(n p (1 - p))``.  A ``prior`` of virtual
# matches per pair, half won by each side, keeps a clean sweep finite (default one match).

#: Elo points per natural unit of the logistic law's strength.
_ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Pairing:
    """``a`` won ``wins_a`` of ``matches`` against ``b`` (halves allowed)."""

    a: str
    b: str
    wins_a: float
    matches: int


@dataclass(frozen=True)
class LadderRating:
    level: str
    rating: float
    low: float
    high: float


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """``m x = v`` by Gaussian elimination with partial pivoting (small systems)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[piv][col]) < 1e-12:
            raise BotArgumentError("the ladder's results do not connect every level",
                                   code="ladder_disconnected")
        a[col], a[piv] = a[piv], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                if f:
                    for k in range(col, n + 1):
                        a[r][k] -= f * a[col][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def elo_ratings(pairings: Sequence[Pairing], anchor: str = "greedy",
                anchor_rating: float = 1500.0, prior: float = 1.0,
                z: float = 1.96) -> list[LadderRating]:
    """Maximum-likelihood Elo ratings of the levels in ``pairings``, strongest first,
    ``anchor`` fixed at ``anchor_rating`` (its interval is the point itself)."""
    levels: list[str] = []
    for p in pairings:
        for name in (p.a, p.b):
            if name not in levels:
                levels.append(name)
    if anchor not in levels:
        raise BotArgumentError(f"the anchor {anchor!r} plays in no pairing",
                               code="anchor_not_playing", data={"anchor": str(anchor)})
    free = [x for x in levels if x != anchor]
    index = {x: i for i, x in enumerate(free)}
    games = [(p.a, p.b, p.wins_a + prior / 2, p.matches + prior) for p in pairings]
    theta = dict.fromkeys(levels, 0.0)

    def curvature() -> tuple[list[float], list[list[float]]]:
        k = len(free)
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for a, b, w, n in games:
            pa = 1.0 / (1.0 + math.exp(theta[b] - theta[a]))
            g = w - n * pa
            h = n * pa * (1.0 - pa)
            ia, ib = index.get(a), index.get(b)
            if ia is not None:
                grad[ia] += g
                info[ia][ia] += h
            if ib is not None:
                grad[ib] -= g
                info[ib][ib] += h
            if ia is not None and ib is not None:
                info[ia][ib] -= h
                info[ib][ia] -= h
        return grad, info

    for _ in range(100):
        grad, info = curvature()
        step = _solve(info, grad)
        for x, d in zip(free, step):
            theta[x] += max(-5.0, min(5.0, d))
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    _, info = curvature()
    out = [LadderRating(anchor, anchor_rating, anchor_rating, anchor_rating)]
    for x in free:
        unit = [0.0] * len(free)
        unit[index[x]] = 1.0
        var = _solve(info, unit)[index[x]]
        r = anchor_rating + _ELO * theta[x]
        half = z * _ELO * math.sqrt(var)
        out.append(LadderRating(x, r, r - half, r + half))
    out.sort(key=lambda lr: -lr.rating)
    return out


def round_robin(levels: Sequence[str], games: int, players: int = 2, seed: int = 0,
                move_ms: float | None = None, ruleset: Ruleset | None = None,
                progress: Callable[[ArenaResult], None] | None = None) -> list[ArenaResult]:
    """Every pair of ``levels`` plays ``games`` duplicate deals in the arena."""
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise BotArgumentError("a ladder needs two levels or more, each named once",
                               code="ladder_levels")
    results = []
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            results.append(arena(a, b, games, players, seed, move_ms, ruleset, progress))
    return results
