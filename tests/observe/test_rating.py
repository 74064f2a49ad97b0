"""Glicko-2 (chkobba_p2p.observe.rating): the paper's worked example, the pools, the anchors and
the order of matches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_one_match_between_new_players_moves_both_as_the_papers_update_does():
    a, b = _key(1), _key(2)
    pools = compute_ratings([_match("g", 0, a, b)])
    ra, rb = pools[2][a], pools[2][b]
    paper = glicko2_update(Rating(), [Result(1500, DEFAULT_RD, 1.0)])
    # Symmetric about 1500, the same way as the paper's update and no further.
    assert ra.rating - 1500 == pytest.approx(1500 - rb.rating)
    assert 1500 < ra.rating <= paper.rating and ra.rd == pytest.approx(rb.rd)


def test_a_streak_weighs_the_same_early_or_late():
    """Issue 42, case 3: rated period by period, a streak early or late moved a seat by
    hundreds of points; as one batch, only what was won counts."""
    a, b, c = _key(1), _key(2), _key(3)
    wins = [_match(f"w{i}", 0, a, b) for i in range(6)]
    losses = [_match(f"l{i}", 1, a, c) for i in range(6)]
    early = compute_ratings([RatedMatch((f"2026-01-{i + 1:02}", m.order[1]), *_rest(m))
                             for i, m in enumerate(wins + losses)])
    late = compute_ratings([RatedMatch((f"2026-01-{i + 1:02}", m.order[1]), *_rest(m))
                            for i, m in enumerate(losses + wins)])
    assert early == late
    assert early[2][b].rating < early[2][a].rating < early[2][c].rating


def _rest(m: RatedMatch) -> tuple[int, tuple[bytes, ...], tuple[tuple[int, ...], ...],
                                  int | None]:
    return m.players, m.keys, m.sides, m.winner


_PEOPLE = [_key(i) for i in range(1, 7)]
_BOTS = [Identity.from_seed(bot_seed(lv, 1)).public for lv in ("greedy", "expert")]


@st.composite
def _matches(draw: st.DrawFn) -> list[RatedMatch]:
    out = []
    for i in range(draw(st.integers(1, 14))):
        n = draw(st.sampled_from((2, 3, 4)))
        keys = draw(st.lists(st.sampled_from(_PEOPLE + _BOTS), min_size=n, max_size=n,
                             unique=True))
        sides = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}[n]
        winner = draw(st.none() | st.integers(0, len(sides) - 1))
        loser = None if winner is not None else draw(st.integers(0, len(sides) - 1))
        out.append(RatedMatch(("", f"game-{i}"), n, tuple(keys), sides, winner, loser))
    return out


@settings(max_examples=60, deadline=None)
@given(_matches(), st.data())
def test_any_order_and_any_dates_give_identical_ratings(matches, data):
    """The same set of matches, shuffled and each with any header date, gives the very
    same ratings, bit for bit (issue 42, case 3)."""
    shuffled = data.draw(st.permutations(matches))
    dates = data.draw(st.lists(st.text(max_size=25), min_size=len(matches),
                               max_size=len(matches)))
    redated = [RatedMatch((d, m.order[1]), *_rest(m), m.loser)
               for d, m in zip(dates, shuffled, strict=True)]
    assert compute_ratings(redated) == compute_ratings(matches)
