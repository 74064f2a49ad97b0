"""Glicko-2 (chkobba_p2p.observe.rating): the paper's worked example, the pools, the anchors and
the order of matches."""

from __future__ import annotations

import pytest

from chkobba_p2p.observe.rating import (
    ANCHORS,
    DEFAULT_RD,
    PROVISIONAL_RD,
    RatedMatch,
    Rating,
    Result,
    bot_level,
    bot_seed,
    compute_ratings,
    glicko2_update,
    nearest_level,
)
from chkobba_p2p.wire.codec import Identity


def test_the_papers_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 wins against 1400/30 and
    loses against 1550/100 and 1700/300 (tau 0.5): 1464.06 / 151.52 / 0.05999."""
    after = glicko2_update(Rating(1500, 200, 0.06), [
        Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # the paper: 0.05999 (0.059996)
    assert after.games == 3


def test_a_period_without_games_only_widens_the_deviation():
    after = glicko2_update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.rd > 100


def _key(n: int) -> bytes:
    return Identity.from_seed(bytes([n]) * 32).public


def _match(order: str, winner: int, *keys: bytes) -> RatedMatch:
    n = len(keys)
    sides = ((0,), (1,)) if n == 2 else ((0, 2), (1, 3))
    return RatedMatch((order, order), n, keys, sides, winner)


def test_a_winner_goes_up_a_loser_down_and_both_are_provisional_at_first():
    a, b = _key(1), _key(2)
    pools = compute_ratings([_match("2026-01-01", 0, a, b)])
    ra, rb = pools[2][a], pools[2][b]
    assert ra.rating > 1500 > rb.rating
    assert ra.provisional and ra.show().endswith("?") and ra.rd < DEFAULT_RD
    assert pools[4] == {}


def test_many_games_make_a_rating_established():
    a, b = _key(1), _key(2)
    games = [_match(f"2026-01-{i:02}", i % 3 == 0, a, b) for i in range(1, 29)]
    r = compute_ratings(games)[2][a]
    assert r.rd <= PROVISIONAL_RD and not r.provisional and "?" not in r.show()
    assert r.games == 28


def test_the_same_matches_in_any_order_give_the_same_ratings():
    a, b, c, d = (_key(i) for i in range(1, 5))
    games = [_match("2026-01-03", 0, a, b), _match("2026-01-01", 1, b, c),
             _match("2026-01-02", 0, a, b, c, d), _match("2026-01-04", 1, c, a)]
    one = compute_ratings(games)
    two = compute_ratings(list(reversed(games)))
    assert one == two
    assert set(one[4]) == {a, b, c, d} and set(one[2]) == {a, b, c}
    # Team play: partners share the result.
    assert one[4][a].rating > 1500 and one[4][c].rating > 1500 > one[4][b].rating


def test_a_bot_key_is_an_anchor_never_moved():
    bot = Identity.from_seed(bot_seed("heuristic", 1)).public
    assert bot_level(bot) == "heuristic" and bot_level(_key(1)) is None
    me = _key(1)
    pools = compute_ratings([_match(f"d{i}", 0, me, bot) for i in range(5)])
    assert pools[2][bot].rating == ANCHORS["heuristic"] and pools[2][bot].games == 5
    assert pools[2][bot].anchor == "heuristic" and not pools[2][bot].provisional
    assert pools[2][me].rating > ANCHORS["heuristic"]
    assert nearest_level(ANCHORS["greedy"] + 1) == "greedy"
