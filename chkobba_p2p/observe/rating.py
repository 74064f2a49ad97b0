"""Glicko-2 ratings from audited match results: one rating per identity (public key).

The algorithm is Glickman's, as his paper gives it ("Example of the Glicko-2 system",
Mark E. Glickman, 2013, http://www.glicko.net/glicko/glicko2.pdf): :func:`glicko2_update`
is steps 2 to 8 for one player over one rating period, and the paper's worked example
(1500/200/0.06 against 1400/30, 1550/100 and 1700/300, a win and two losses, tau 0.5,
giving 1464.06/151.52/0.05999) is a test.  PyPI's ``glicko2`` (2.1.0) was looked at: it
publishes no type information, keeps its state in mutable player objects and installs a
top-level ``tests`` package, so the forty lines of the paper live here instead.

How matches become ratings (:func:`compute_ratings`): **one batch, ordered by nothing.**

* The logs carry no signed time: a log header's date is its writer's word, and the
  genesis and ready entries sign the table, the seats and the deal, not when (the game
  id is signed, but the host draws it: an order by it would be the host's choice).  Rated
  period by period, whoever supplies the logs would choose the order (issue 42: 13
  matches with their dates reversed moved a seat by 230 points; 280 in
  benchmarks/ratings_attacks.py).  So the ratings are the *maximum a posteriori*
  estimate of every rating at once from the set of counted matches: Glicko's logistic
  model (each result against its opponents' ratings, weighed by ``g`` of their
  deviations), a prior of 1500 +- 350 on each person, solved by Newton steps (one player
  at a time in the order of their keys, over-relaxed, a fixed cap on rounds) until
  nothing moves; a rating's deviation is ``1 / sqrt(information)`` there.  The matches
  enter the sums in an order of their signed contents (game id, keys, result), so the
  same set gives the same numbers bit for bit, whoever supplies it, in whatever order,
  with whatever dates. There is no decay with the calendar, and no volatility (it is
  reported at its default); :func:`glicko2_update`, the paper's period update, stays as
  the reference the batch model is checked against (one match between new players moves
  both the same way).
* each table size (2, 3 and 4 players) is rated separately (:data:`POOLS`);
* at 4 players a seat plays against a *composite* of the two opponents (their mean
  rating, and the root mean square of their deviations), with its side's result; its
  partner does not enter its update;
* at 3 players, each for themselves, a seat meets each other seat as one result of the
  period: the winner beat both, and the two others drew with each other (the record
  names one winner, no order among the rest);
* a rating is **provisional** (shown with "?") while its deviation is above
  :data:`PROVISIONAL_RD`, lichess's threshold (110);
* the bot levels are **anchors**: a seat its table's host vouched for as its bot of a
  level (``RatedMatch.anchors``: a voucher in the log that verifies under the host's
  key, PROTOCOL.md 5.6, :mod:`.vouch`) plays at the level's fixed rating
  (:data:`ANCHORS`) and is never updated, so that a person's rating reads against the
  bots.  A bot level's well-known key (:func:`bot_seed`) with no voucher is no anchor:
  anyone can sit under it and lose on purpose (issue 42: 26 wins of 30 against the
  "expert" key gave 2011, "about expert"), so it is rated as whoever it was.  A caller
  that passes no ``anchors`` gets the well-known keys as anchors, as before.

Where the anchors come from: ``chkobba arena`` on this machine, 2 players, tunisian
rules, duplicate deals (seed 1).  ``greedy`` is put at 1500 (a new player's rating), and
each other level is placed by Elo's logistic law, ``400 * log10(p / (1 - p))`` for a match
win rate ``p``: greedy beat random in 0.922 of 400 matches (+429), heuristic beat greedy
in 0.600 of 400 matches (+70), expert beat heuristic in 0.700 of 60 matches (+147; at
``--move-ms 50``, a quarter of the 200 ms ``chkobba play``'s expert thinks, so a floor).
They are rounded to 10.  Measure again with ``chkobba arena --a B --b A --games N --seed 1``.

A well-known bot key is derived from a public seed, so anyone can sit under it: a result
against it proves that the game was played as the log says, not that a bot played it.
A vouched bot's key is derived from its host's identity: only that host could have
seated it, and the voucher says which level it played (the host's word, which is why a
viewer counts a bot anchor at a table it did not host as unmet, history.standings).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .._digest import sha256
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
    return sha256(f"chkobba-p2p bot identity/v1/{level}/{index}".encode())


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
    seats, and the winning side.  ``order``: (date, game id); only the game id is used
    (the date is unsigned: it orders nothing, see the module's text)."""

    order: tuple[str, str]
    players: int
    keys: tuple[bytes, ...]
    sides: tuple[tuple[int, ...], ...]
    winner: int | None
    #: The side that lost the match by a flag, a resignation or a leave (at 3 players:
    #: it loses against both others, who are scored as they stand: ``winner``, or a
    #: draw between them when None).
    loser: int | None = None
    #: By seat, the bot level the table's host vouched for (PROTOCOL.md 5.6), None for
    #: a seat without a voucher.  None for the whole match: a caller that says nothing
    #: of vouchers, whose bot levels' well-known keys are the anchors (as before).
    anchors: tuple[str | None, ...] | None = None


def _score(me: int, other: int, winner: int | None, loser: int | None) -> float:
    """My result against ``other`` at a table of three or more sides: the winner beats
    everyone, the loser (of a flag, resignation or leave) loses to everyone, any other
    two draw."""
    if me == winner or other == loser:
        return 1.0
    if other == winner or me == loser:
        return 0.0
    return 0.5


#: Glicko's constant between the rating scale and the logistic's: ``ln(10) / 400``.
Q = math.log(10.0) / 400.0
#: The batch estimate stops when no rating moves by more than this, or after
#: :data:`MAX_ROUNDS` rounds (a fixed number: the same matches, the same numbers).
CONVERGED = 1e-9
MAX_ROUNDS = 500
#: A round moves a rating by at most this (a Newton step far from the optimum is damped).
MAX_STEP = 200.0
#: Over-relaxation of each step: the ratings' common level is held only by the prior, a
#: slow mode that plain steps take hundreds of rounds to settle (2,000 random matches
#: between 100 keys: 1.9 s at 1.0, 0.8 s at 1.5, the same numbers to 1e-8).
OVER = 1.5


def _canonical(m: RatedMatch) -> tuple[object, ...]:
    """A match's place in the sums: by what is signed (game id, keys, sides, result),
    never by the supplier's order or a header's date."""
    return (m.order[1], m.players, m.keys, m.sides,
            -1 if m.winner is None else m.winner, -1 if m.loser is None else m.loser,
            tuple("" if a is None else a for a in m.anchors or ()))


def _results(m: RatedMatch) -> list[tuple[bytes, tuple[bytes, ...], float]]:
    """A match as results: (seat's key, the opponents it met as one, its score)."""
    out: list[tuple[bytes, tuple[bytes, ...], float]] = []
    if len(m.sides) > 2:  # each for themselves: one result against each other seat
        for side, seats in enumerate(m.sides):
            for s in seats:
                for i, ss in enumerate(m.sides):
                    if i != side:
                        out.extend((m.keys[s], (m.keys[o],),
                                    _score(side, i, m.winner, m.loser)) for o in ss)
        return out
    for side, seats in enumerate(m.sides):
        others = tuple(m.keys[s] for i, ss in enumerate(m.sides) if i != side for s in ss)
        score = 1.0 if side == m.winner or (m.winner is None and side != m.loser) else 0.0
        out.extend((m.keys[s], others, score) for s in seats)
    return out


def _anchors(matches: Sequence[RatedMatch]) -> dict[bytes, str]:
    """The keys that play at a level's fixed rating: a key is an anchor only when every
    match of it in the pool makes it one, at one level (a key vouched for in one log and
    not in another, or at two levels, is rated as anyone is)."""
    seen: dict[bytes, set[str | None]] = {}
    for m in matches:
        levels = m.anchors if m.anchors is not None else tuple(bot_level(k) for k in m.keys)
        for key, level in zip(m.keys, levels, strict=True):
            seen.setdefault(key, set()).add(level if level in ANCHORS else None)
    return {k: lv for k, v in seen.items() if len(v) == 1 and (lv := next(iter(v))) is not None}


def _pool(matches: Sequence[RatedMatch]) -> dict[bytes, Rating]:
    """One pool's ratings: the maximum a posteriori estimate of every rating at once."""
    games: dict[bytes, int] = {}
    mine: dict[bytes, list[tuple[tuple[bytes, ...], float]]] = {}
    for m in matches:
        for key in m.keys:
            games[key] = games.get(key, 0) + 1
        for key, others, score in _results(m):
            mine.setdefault(key, []).append((others, score))
    anchors = _anchors(matches)
    rating = {k: ANCHORS[anchors[k]] if k in anchors else DEFAULT_RATING for k in games}
    rd = {k: ANCHOR_RD if k in anchors else DEFAULT_RD for k in games}
    people = sorted(k for k in games if k not in anchors)
    prior = 1.0 / (DEFAULT_RD * DEFAULT_RD)
    for _ in range(MAX_ROUNDS):
        moved = 0.0
        for k in people:  # in key order, each step from the newest numbers (Gauss-Seidel)
            grad = -(rating[k] - DEFAULT_RATING) * prior
            info = prior
            for others, score in mine.get(k, ()):
                opp = sum(rating[o] for o in others) / len(others)
                opp_rd = math.sqrt(sum(rd[o] * rd[o] for o in others) / len(others))
                g = _g(opp_rd / SCALE)
                e = 1.0 / (1.0 + math.exp(-Q * g * (rating[k] - opp)))
                grad += Q * g * (score - e)
                info += Q * Q * g * g * e * (1.0 - e)
            step = max(-MAX_STEP, min(MAX_STEP, OVER * grad / info))
            new_rd = 1.0 / math.sqrt(info)
            moved = max(moved, abs(step), abs(new_rd - rd[k]))
            rating[k] += step
            rd[k] = new_rd
        if moved < CONVERGED:
            break
    return {k: Rating(rating[k], rd[k], DEFAULT_VOLATILITY, games[k], anchors.get(k))
            for k in sorted(games)}


def compute_ratings(matches: Iterable[RatedMatch]) -> dict[int, dict[bytes, Rating]]:
    """Every identity's rating in each pool (:data:`POOLS`), from this *set* of matches:
    one batch estimate, so neither the order the matches come in nor a log header's date
    (unsigned: the supplier's word) can move a rating (see the module's text)."""
    by_pool: dict[int, list[RatedMatch]] = {n: [] for n in POOLS}
    for m in sorted(matches, key=_canonical):
        by_pool.setdefault(m.players, []).append(m)
    return {n: _pool(ms) for n, ms in by_pool.items()}
