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
Every bot is handed only its own seat's view (:func:`chkobba_p2p.simulate.play_hand`).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots import Bot
from .cards import DECK, Card
from .levels import make_bot
from .rules import Hand, Match, Move, Redeal, Ruleset
from .seating import SHAPES, Seating
from .simulate import draw_first_dealer, play_hand

__all__ = ["ArenaResult", "TimedBot", "arena", "play_duplicate_match", "wilson_interval"]


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
        self.times: list[float] = []
        self.cpu_times: list[float] = []

    def choose_play(self, hand: Hand) -> Move:
        t = time.perf_counter()
        cpu = time.process_time()
        move = self.bot.choose_play(hand)
        self.cpu_times.append(time.process_time() - cpu)
        self.times.append(time.perf_counter() - t)
        return move

    def choose_cut(self, hand: Hand) -> bool:
        return self.bot.choose_cut(hand)


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
            raise RuntimeError(f"no winner after {max_hands} hands")
        assert m.hand is not None
        hand = play_hand(m.hand, bots, deck(k))
        k += 1
        if isinstance(hand.pending, Redeal):
            m = m.with_hand(hand).redeal()
        else:
            m = m.with_hand(hand).finish_hand()
    return m


@dataclass
class ArenaResult:
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

    def lines(self) -> list[str]:
        lo, hi = wilson_interval(self.wins_a, self.matches)
        m, mlo, mhi = mean_interval([float(x) for x in self.margins])
        out = [
            f"arena: {self.level_a} (A) vs {self.level_b} (B), {self.players} players, "
            "duplicate deals",
            f"matches: {self.matches} ({self.matches // self.legs} deals x {self.legs} "
            "seatings)",
            f"hands: {len(self.margins)}",
            f"match win rate A: {self.win_rate:.3f} (95% CI {lo:.3f}..{hi:.3f})",
            f"mean point margin per hand A-B: {m:+.3f} (95% CI {mlo:+.3f}..{mhi:+.3f})",
        ]
        for name, times, cpu in (("A", self.times_a, self.cpu_a),
                                 ("B", self.times_b, self.cpu_b)):
            if times:
                # Wall time includes waiting for a shared CPU; CPU time is the bot's own.
                out.append(f"move time {name}: mean {1000 * statistics.fmean(times):.1f} ms, "
                           f"max {1000 * max(times):.1f} ms wall, "
                           f"max {1000 * max(cpu):.1f} ms CPU over {len(times)} moves")
        return out


def play_duplicate_match(ruleset: Ruleset, level_a: str, level_b: str, players: int,
                         seed: int, match: int, move_ms: float | None,
                         result: ArenaResult) -> None:
    """Both legs of one duplicate match; adds them to ``result``."""
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
            bots.append(TimedBot(make_bot(level, bot_seed, move_ms=move_ms)))
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
        raise ValueError(f"the arena seats {', '.join(map(str, SHAPES))} players")
    if games < 1:
        raise ValueError("--games must be at least 1")
    ruleset = ruleset or Ruleset()
    result = ArenaResult(level_a, level_b, players)
    for i in range(games):
        play_duplicate_match(ruleset, level_a, level_b, players, seed, i, move_ms, result)
        if progress is not None:
            progress(result)
    return result
