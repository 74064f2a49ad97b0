"""Glicko-2 ratings from audited match results: one rating per identity (public key).

The algorithm is Glickman's, as his paper gives it ("Example of the Glicko-2 system",
Mark E. Glickman, 2013, http://www.glicko.net/glicko/glicko2.pdf): :func:`glicko2_update`
is steps 2 to 8 for one player over one rating period, and the paper's worked example
(1500/200/0.06 against 1400/30, 1550/100 and 1700/300, a win and two losses, tau 0.5,
giving 1464.06/151.52/0.05999) is a test.  PyPI's ``glicko2`` (2.1.0) was looked at: it
publishes no type information, keeps its state in mutable player objects and installs a
top-level ``tests`` package, so the forty lines of the paper live here instead.

How matches become rating periods (:func:`compute_ratings`):

* every counted match is its own rating period, in a fixed order (the matches' dates,
  then their game ids), so the same matches always give the same ratings, whichever
  machine computes them and whenever: there is no decay with the calendar;
* each table size (2, 3 and 4 players) is rated separately (:data:`POOLS`);
* at 4 players a seat plays against a *composite* of the two opponents (their mean
  rating, and the root mean square of their deviations), with its side's result; its
  partner does not enter its update;
* at 3 players, each for themselves, a seat meets each other seat as one result of the
  period: the winner beat both, and the two others drew with each other (the record
  names one winner, no order among the rest);
* a rating is **provisional** (shown with "?") while its deviation is above
  :data:`PROVISIONAL_RD`, lichess's threshold (110);
* the bot levels are **anchors**: a seat whose key is a bot level's well-known key
  (:func:`bot_seed`) plays at the level's fixed rating (:data:`ANCHORS`) and is never
  updated, so that a person's rating reads against the bots.

Where the anchors come from: ``chkobba arena`` on this machine, 2 players, tunisian
rules, duplicate deals (seed 1).  ``greedy`` is put at 1500 (a new player's rating), and
each other level is placed by Elo's logistic law, ``400 * log10(p / (1 - p))`` for a match
win rate ``p``: greedy beat random in 0.922 of 400 matches (+429), heuristic beat greedy
in 0.600 of 400 matches (+70), expert beat heuristic in 0.700 of 60 matches (+147; at
``--move-ms 50``, a quarter of the 200 ms ``chkobba play``'s expert thinks, so a floor).
They are rounded to 10.  Measure again with ``chkobba arena --a B --b A --games N --seed 1``.

A bot's key is derived from a public seed, so anyone can sit under it: a result against a
bot's key proves that the game was played as the log says, not that a bot played it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from ..game.seating import MAX_PLAYERS, SHAPES

__all__ = [
    "SCALE",
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_VOLATILITY",
    "TAU",
    "PROVISIONAL_RD",
    "ANCHORS",
    "ANCHOR_RD",
    "POOLS",
    "Rating",
    "Result",
    "glicko2_update",
    "bot_seed",
    "bot_level",
    "compute_ratings",
    "nearest_level",
]

#: Glicko-2's scale factor between the Glicko scale (1500 +- 350) and its own.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant (the paper's example uses 0.5; it suggests 0.3 to 1.2).
TAU = 0.5
#: A deviation above this is provisional (lichess's threshold).
PROVISIONAL_RD = 110.0
#: Convergence tolerance of the volatility iteration (the paper's).
EPSILON = 0.000001

#: The bot levels' fixed ratings (see the module's text for the measurements).
ANCHORS: dict[str, float] = {
    "random": 1070.0,
    "greedy": 1500.0,
    "heuristic": 1570.0,
    "expert": 1720.0,
}
#: The anchors' deviation (a well-measured, fixed strength).
ANCHOR_RD = 30.0
#: Rating pools: table sizes rated separately.
POOLS = SHAPES
#: Bot seats per table whose keys are well known (a 4-player table has at most 3 bots).
BOT_SEATS = MAX_PLAYERS - 1


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating``, deviation ``rd``,
    ``volatility``; ``games`` counted; ``anchor``: a bot level's fixed rating."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    anchor: str | None = None

    @property
    def provisional(self) -> bool:
        return self.anchor is None and self.rd > PROVISIONAL_RD

    def show(self) -> str:
        """``1520`` or ``1520?`` (provisional)."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class Result:
    """One opponent faced in a rating period: its rating and deviation, and the score
    (1 a win, 0 a loss, 0.5 a draw)."""

    rating: float
    rd: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (Glickman's steps
    2 to 8).  No result: only the deviation grows (step 6)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, phi_star * SCALE, sigma, player.games, player.anchor)
    opponents = [((r.rating - DEFAULT_RATING) / SCALE, r.rd / SCALE, r.score) for r in results]
    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    inv_v = 0.0
    total = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    # Step 5: the new volatility (the Illinois algorithm).
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma_new,
                  player.games + len(results), player.anchor)


# ------------------------------------------------------------------------- bots


def bot_seed(level: str, index: int) -> bytes:
    """The well-known 32-byte identity seed of bot number ``index`` (1, 2, 3) of
    ``level``: every bot of that level in that place of a table has the same key, so a
    log shows which seats were bots (see the module's text for what that proves)."""
    return hashlib.sha256(f"chkobba-p2p bot identity/v1/{level}/{index}".encode()).digest()


@cache
def _bot_keys() -> dict[bytes, str]:
    from ..wire.codec import Identity  # the key derivation, only when a log is rated
    return {Identity.from_seed(bot_seed(level, i)).public: level
            for level in ANCHORS for i in range(1, BOT_SEATS + 1)}


def bot_level(key: bytes) -> str | None:
    """The bot level whose well-known key this is, or None (a person, or a bot of an
    older version, whose key was random)."""
    return _bot_keys().get(key)


def nearest_level(rating: float) -> str:
    """The bot level whose anchor is nearest to ``rating`` ("about heuristic")."""
    return min(ANCHORS, key=lambda lv: (abs(ANCHORS[lv] - rating), lv))


# ------------------------------------------------------------------- the ratings


@dataclass(frozen=True)
class RatedMatch:
    """What a rating needs of a match: its table size, the keys by seat, the sides'
    seats, and the winning side.  ``order`` sorts matches (date, then game id)."""

    order: tuple[str, str]
    players: int
    keys: tuple[bytes, ...]
    sides: tuple[tuple[int, ...], ...]
    winner: int | None
    #: The side that lost the match by a flag, a resignation or a leave (at 3 players:
    #: it loses against both others, who are scored as they stand: ``winner``, or a
    #: draw between them when None).
    loser: int | None = None


def _score(me: int, other: int, winner: int | None, loser: int | None) -> float:
    """My result against ``other`` at a table of three or more sides: the winner beats
    everyone, the loser (of a flag, resignation or leave) loses to everyone, any other
    two draw."""
    if me == winner or other == loser:
        return 1.0
    if other == winner or me == loser:
        return 0.0
    return 0.5


def compute_ratings(matches: Iterable[RatedMatch]) -> dict[int, dict[bytes, Rating]]:
    """Every identity's rating in each pool (:data:`POOLS`), from these matches, taken in
    their ``order`` (so the same matches in any order give the same ratings)."""
    pools: dict[int, dict[bytes, Rating]] = {n: {} for n in POOLS}
    for m in sorted(matches, key=lambda m: m.order):
        ratings = pools.setdefault(m.players, {})

        def current(key: bytes, ratings: dict[bytes, Rating] = ratings) -> Rating:
            level = bot_level(key)
            if level is not None:
                return Rating(ANCHORS[level], ANCHOR_RD, DEFAULT_VOLATILITY, 0, level)
            return ratings.get(key, Rating())

        before = {k: current(k) for k in m.keys}
        if len(m.sides) > 2:  # each for themselves: one result against each other seat
            for side, seats in enumerate(m.sides):
                for s in seats:
                    me = before[m.keys[s]]
                    if me.anchor is not None:
                        continue
                    results = [Result(before[m.keys[o]].rating, before[m.keys[o]].rd,
                                      _score(side, i, m.winner, m.loser))
                               for i, ss in enumerate(m.sides) if i != side for o in ss]
                    # One match, whatever the results in it: one game counted.
                    ratings[m.keys[s]] = replace(glicko2_update(me, results),
                                                 games=me.games + 1)
        for side, seats in enumerate(m.sides if len(m.sides) == 2 else ()):
            others = [m.keys[s] for i, ss in enumerate(m.sides) if i != side for s in ss]
            opp = [before[k] for k in others]
            rating = sum(r.rating for r in opp) / len(opp)
            rd = math.sqrt(sum(r.rd * r.rd for r in opp) / len(opp))
            score = 1.0 if side == m.winner or (m.winner is None and side != m.loser) \
                else 0.0
            for s in seats:
                key = m.keys[s]
                me = before[key]
                if me.anchor is not None:
                    continue
                ratings[key] = glicko2_update(me, [Result(rating, rd, score)])
        for key in m.keys:  # a bot's anchor is listed, never updated
            if before[key].anchor is not None:
                old = ratings.get(key)
                ratings[key] = Rating(ANCHORS[before[key].anchor or ""], ANCHOR_RD,
                                      DEFAULT_VOLATILITY, (old.games if old else 0) + 1,
                                      before[key].anchor)
    return pools
