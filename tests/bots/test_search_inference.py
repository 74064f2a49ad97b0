"""Issue 28: the expert's inference reads only its seat's view, the omniscient level is
for the arena's measurement only, the ladder's arithmetic, and the budget by its own
clock."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chkobba_p2p import errors
from chkobba_p2p.bots.arena import (
    ARENA_LEVELS,
    MEASUREMENT_LEVELS,
    Pairing,
    arena,
    arena_bot,
    elo_ratings,
)
from chkobba_p2p.bots.expert import ExpertBot, OmniscientBot, round_plays, world_weight
from chkobba_p2p.bots.levels import LEVELS, make_bot
from chkobba_p2p.bots.simple import RandomBot
from chkobba_p2p.game.cards import DECK, card, cards
from chkobba_p2p.game.rules import DealStep, Hand, Move, Ruleset, Turn, mask_of

TUNISIAN = Ruleset()


def _dropped_beside_a_capture() -> Hand:
    """Seat 1 put 2H on the table while its 4C could take 4D; seat 0 to play."""
    hand = Hand.from_position(TUNISIAN, 2, 0, hands=(cards("1D 5S 9H"), cards("4C 2H 8S")),
                              table=cards("4D 6C 9S 10S"), turn=1)
    return hand.play(1, card("2H"))


def _world(view: Hand, theirs: list) -> Hand:
    """A world of ``view`` (seat 0's) in which seat 1 holds ``theirs``."""
    mine = list(view.hand_of(0))
    used = set(mine) | set(theirs) | set(view.table) | {c for p in view.piles for c in p}
    return view._world([mine, theirs], [c for c in DECK if c not in used])


def test_round_plays_are_the_other_seats_plays_of_this_round_from_the_view():
    view = _dropped_beside_a_capture().view(0)
    assert round_plays(view) == [(1, card("2H"), 0, mask_of(cards("4D 6C 9S 10S")), 0)]
    # The seat's own plays tell it nothing: seat 1, after seat 0 plays, sees its own
    # drop and seat 0's play only.
    after = _dropped_beside_a_capture().play(0, card("9H"), cards("9S"))
    plays = round_plays(after.view(1))
    assert [(s, c) for s, c, *_ in plays] == [(0, card("9H"))]


def test_a_drop_beside_a_capture_makes_the_capturing_hand_unlikely():
    hand = _dropped_beside_a_capture()
    view = hand.view(0)
    plays = round_plays(view)
    world = _world(view, cards("4C 8S"))  # the truth
    other = _world(view, cards("5H 8S"))
    capturing, not_capturing = world_weight(world, plays), world_weight(other, plays)
    assert capturing < 0.5 * not_capturing
    # By hand: with 5H 8S nothing captures, three drops, and the policy's worths
    # (-0.5 * worth - 0.01 * value, -4 for a table of 10 or less: never here, 29 on it).
    drops = {"2H": -0.52, "5H": -0.55, "8S": -0.58}
    e = {k: math.exp(v / 2.0) for k, v in drops.items()}
    expected = 0.9 * e["2H"] / sum(e.values()) + 0.1 / 3
    assert not_capturing == pytest.approx(expected)


def _replayed(seed: int, players: int) -> tuple[Hand, Hand, int] | None:
    """One hand played by random bots to a turn, and the same public play from a deck in
    which the cards the seat to play has not seen are shuffled again."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    ruleset = TUNISIAN.with_variant("plain").with_variant("no-redeal")
    hand = Hand.new(ruleset, players, 0)
    bots = [RandomBot(seed + s) for s in range(players)]
    stop = rng.randrange(1, 30)
    played: list[Move] = []
    rest = list(deck)
    while not (isinstance(hand.pending, Turn) and len(played) >= stop):
        step = hand.pending
        if isinstance(step, Turn):
            move = bots[step.seat].choose_play(hand.view(step.seat))
            hand = hand.apply(move)
            played.append(move)
        elif isinstance(step, DealStep):
            k = len(step.recipients)
            hand = hand.deal(rest[:k])
            del rest[:k]
        else:
            return None
    seat = hand.turn
    unseen = hand.view(seat).unseen_cards()
    places = [i for i, c in enumerate(deck) if c in unseen]
    moved = [deck[i] for i in places]
    random.Random(seed + 1).shuffle(moved)
    other_deck = list(deck)
    for i, c in zip(places, moved):
        other_deck[i] = c
    other = Hand.new(ruleset, players, 0)
    rest = list(other_deck)
    moves = iter(played)
    while other.events != () and len(other.events) < len(hand.events) or not other.events:
        step = other.pending
        if isinstance(step, Turn):
            other = other.apply(next(moves))
        elif isinstance(step, DealStep):
            k = len(step.recipients)
            other = other.deal(rest[:k])
            del rest[:k]
        if len(other.events) >= len(hand.events) and isinstance(other.pending, Turn):
            break
    return hand, other, seat


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4]))
def test_the_expert_s_inference_is_a_function_of_the_seat_s_view(seed, players):
    """Two hands with the same public play whose hidden cards differ: the seat's views
    are equal, and so are the inferred plays and the expert's decision."""
    found = _replayed(seed, players)
    assume(found is not None)
    assert found is not None
    hand, other, seat = found
    a, b = hand.view(seat), other.view(seat)
    assert a.hands == b.hands and a.table == b.table and a.events == b.events
    assume(hand.stock > 0)  # the exact endgame at 2 players needs no inference
    assert round_plays(a) == round_plays(b)
    assume(round_plays(a))
    decide = [ExpertBot(seed, move_ms=None, samples=4).choose_play(v) for v in (a, b)]
    assert decide[0] == decide[1]
    assert decide[0] in hand.legal_moves()


class TickingClock:
    """Time with no real time in it: each reading moves it on by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_expert_with_inference_stays_within_its_budget_by_its_own_clock():
    view = _dropped_beside_a_capture().view(0)
    assert round_plays(view)
    for step in (0.0002, 0.002, 0.02):
        clock = TickingClock(step)
        bot = ExpertBot(0, move_ms=200, clock=clock)
        bot.choose_play(view)
        assert bot.last_samples >= 1
        assert clock.now <= 0.85 * 0.200 + 2 * step


# --------------------------------------------------------------------------- omniscient


def test_the_omniscient_level_is_offered_to_no_player():
    from chkobba_cli.main import build_parser
    from chkobba_cli.options import peer as options

    assert "omniscient" not in LEVELS and "baseline" not in LEVELS
    assert "omniscient" not in options.LEVELS
    with pytest.raises(errors.LocalError, match="unknown bot level"):
        make_bot("omniscient", 1)
    for command in ("play", "bot", "host"):
        with pytest.raises(SystemExit):
            build_parser(command).parse_args([command, "--level", "omniscient"]
                                             if command != "play" else
                                             [command, "--bots", "omniscient"])
    # Handed a seat's view, which is all a seat's controller ever has, it refuses.
    view = _dropped_beside_a_capture().view(0)
    with pytest.raises(errors.LocalError, match="arena"):
        OmniscientBot(0).choose_play(view)
    # Only the arena seats it.
    assert "omniscient" in ARENA_LEVELS and "omniscient" in MEASUREMENT_LEVELS
    assert isinstance(arena_bot("omniscient", 1), OmniscientBot)


def test_the_omniscient_level_plays_the_true_world_in_the_arena():
    hand = _dropped_beside_a_capture()
    true = _world(hand.view(0), cards("4C 8S"))
    move = OmniscientBot(0).choose_play_seeing(hand, true._deck or ())
    assert move in hand.legal_moves()
    r = arena("omniscient", "greedy", 1, 2, seed=3, move_ms=5)
    assert r.matches == 2 and r.times_a


# --------------------------------------------------------------------------- the ladder


def test_elo_of_two_levels_is_the_logistic_law_by_hand():
    [x, g] = elo_ratings([Pairing("x", "greedy", 30, 40)], prior=0.0)
    assert (g.level, g.rating) == ("greedy", 1500.0)
    # 30 of 40: 400 log10(0.75 / 0.25) = 190.85; its standard error
    # 400 / ln 10 / sqrt(40 * 0.75 * 0.25) = 63.43.
    assert x.rating == pytest.approx(1500 + 400 * math.log10(3), abs=1e-6)
    se = 400 / math.log(10) / math.sqrt(40 * 0.75 * 0.25)
    assert (x.low, x.high) == (pytest.approx(x.rating - 1.96 * se),
                               pytest.approx(x.rating + 1.96 * se))


def test_elo_of_a_consistent_chain_adds_up_and_a_sweep_stays_finite():
    # a beats b 3:1 and b beats c 3:1, a beats c 9:1: ratings exactly 190.85 apart each.
    pairs = [Pairing("a", "b", 75, 100), Pairing("b", "c", 75, 100), Pairing("a", "c", 90, 100)]
    r = {lr.level: lr.rating for lr in elo_ratings(pairs, anchor="c", prior=0.0)}
    step = 400 * math.log10(3)
    assert r["b"] - r["c"] == pytest.approx(step, abs=1e-6)
    assert r["a"] - r["b"] == pytest.approx(step, abs=1e-6)
    [top, low] = elo_ratings([Pairing("a", "b", 10, 10)], anchor="b")
    # One virtual match, halved: 10.5 of 11.
    assert top.rating == pytest.approx(1500 + 400 * math.log10(10.5 / 0.5))
    with pytest.raises(ValueError, match="anchor"):
        elo_ratings([Pairing("a", "b", 1, 2)], anchor="greedy")


# --------------------------------------------------------------------------- match-aware


def _finished(mine: str, theirs: str) -> Hand:
    """A finished 2-player hand: seat 0 captured ``mine``, seat 1 ``theirs`` (no chkobba)."""
    piles = [cards(mine), cards(theirs)]
    used = {c for p in piles for c in p}
    rest = [c for c in DECK if c not in used]
    # Seat 0 plays its last card onto a table it cannot take; seat 1 then the last card.
    hand = Hand.from_position(TUNISIAN, 2, 1, hands=([rest[0]], [rest[1]]), table=rest[2:],
                              turn=0, stock=0, piles=piles, last_capturer=0)
    world = hand._world([[rest[0]], [rest[1]]], [])
    for _ in range(2):
        [(i, c, o), *_] = world._move_masks()
        world = world._play_trusted(world.turn, i, c, o)
    assert world.is_over
    return world


def test_match_value_near_the_target_counts_the_match_not_the_margin():
    from chkobba_p2p.bots.expert import match_value

    world = _finished("7D", "1S 2S")
    assert world.score.points == (1, 3)  # seat 0 the haya; seat 1 the rest
    # At 10-7 to 11, seat 0 loses the hand by 2 and wins the match (11-10): worth 1,
    # less a thousandth of the margin; at 10-9 it loses the match (11-12).
    assert match_value(world, 0, (10, 7), 11) == pytest.approx(1.0 - 0.002)
    assert match_value(world, 0, (10, 9), 11) == pytest.approx(0.0 - 0.002)
    assert match_value(world, 1, (10, 9), 11) == pytest.approx(1.0 + 0.002)
    # 10-8: 11-11, another hand: an even chance.
    assert match_value(world, 0, (10, 8), 11) == pytest.approx(0.5 - 0.002)
    # Far from the target: the logistic guess of the totals' difference.
    far = match_value(world, 0, (0, 0), 21)
    assert far == pytest.approx(1 / (1 + math.exp(2 / 3.0)) - 0.002)


def test_the_expert_plays_for_the_margin_until_the_match_is_near():
    bot = ExpertBot(0, move_ms=None, samples=2)
    assert bot._objective(0) is None  # never told the match: margin
    bot.see_match((2, 3), 11)
    assert bot._objective(0) is None  # 8 points away: margin
    bot.see_match((2, 9), 11)
    assert bot._objective(0) is not None
    baseline = arena_bot("baseline", 0, 20)
    assert isinstance(baseline, ExpertBot)
    baseline.see_match((10, 10), 11)
    assert baseline._objective(0) is None and not baseline.inference
