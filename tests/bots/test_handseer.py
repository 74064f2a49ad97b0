"""Issue 45: the ``handseer`` measurement level, the expert's search seeing every seat's
hand but not the stock's order (the ceiling of inference, beside ``omniscient``)."""

from __future__ import annotations

import random

import pytest
from support.positions import greedy_positions

from chkobba_p2p import errors
from chkobba_p2p.bots.arena import ARENA_LEVELS, MEASUREMENT_LEVELS, arena, arena_bot
from chkobba_p2p.bots.expert import HandSeerBot, deal_stock, exact_values, undealt
from chkobba_p2p.bots.levels import LEVELS, make_bot
from chkobba_p2p.game.rules import Hand, Ruleset, mask_of

TUNISIAN = Ruleset()



class _Recording(HandSeerBot):
    """A handseer that keeps every world its search samples (the real ones)."""

    def __init__(self, seed: int, samples: int) -> None:
        super().__init__(seed, move_ms=None, samples=samples)
        self.worlds: list[Hand] = []

    def sample_world(self, view: Hand) -> Hand:
        world = super().sample_world(view)
        self.worlds.append(world)
        return world


@pytest.mark.parametrize("players,stock", [(2, 18), (2, 6), (4, 12)])
def test_its_worlds_hold_every_true_hand_and_only_shuffle_the_stock(players, stock):
    for hand, deck in greedy_positions(players, stock, 3, seed=450 + players + stock):
        bot = _Recording(seed=1, samples=12)
        move = bot.choose_play_seeing(hand, deck[:hand.stock])
        assert move in hand.legal_moves()
        # Its search played out exactly the worlds the hook dealt.
        assert len(bot.worlds) == bot.last_samples == 12
        orders = set()
        for world in bot.worlds:
            assert world.viewer is None
            assert world.hands == hand.hands  # every seat's true hand, not a guess
            assert world.table == hand.table and world.turn == hand.turn
            assert sorted(undealt(world)) == sorted(deck[:hand.stock])
            orders.add(undealt(world))
        # The stock's order is not given to it: the worlds shuffle it.
        assert len(orders) > 1
    # The same from deal_stock itself, which reads nothing but the whole hand.
    world = deal_stock(hand, random.Random(3))
    assert world.hands == hand.hands
    assert sorted(undealt(world)) == sorted(deck[:hand.stock])
    with pytest.raises(errors.LocalError, match="whole hand"):
        deal_stock(hand.view(hand.turn), random.Random(3))


def test_the_handseer_level_refuses_a_seats_view_and_is_offered_to_no_player():
    hand, deck = greedy_positions(2, 18, 1, seed=4)[0]
    view = hand.view(hand.turn)
    with pytest.raises(errors.LocalError, match="arena"):
        HandSeerBot(0).choose_play(view)
    with pytest.raises(errors.LocalError, match="whole hand"):
        HandSeerBot(0).choose_play_seeing(view, deck[:hand.stock])
    assert "handseer" not in LEVELS
    with pytest.raises(errors.LocalError, match="unknown bot level"):
        make_bot("handseer", 1)
    assert "handseer" in ARENA_LEVELS and "handseer" in MEASUREMENT_LEVELS
    bot = arena_bot("handseer", 1)
    assert isinstance(bot, HandSeerBot) and bot.sees_all


@pytest.mark.parametrize("players", [2, 4])
def test_with_the_stock_empty_it_plays_the_exact_endgame(players):
    for hand, _ in greedy_positions(players, 0, 4, seed=51 + players):
        seat = hand.turn
        side = hand.side_of(seat)
        moves = hand.legal_moves()
        held = hand.hand_of(seat)
        options = [(held.index(m.card), m.card, mask_of(m.capture)) for m in moves]
        values = exact_values(hand._world(hand.hands, ()), side, options)
        # A budget of one world: only the exact search of the true world finds the best
        # move every time (the 4-player expert, sampling the others' hands, misses in
        # three of these).
        bot = HandSeerBot(seed=2, move_ms=None, samples=1)
        move = bot.choose_play_seeing(hand, ())
        assert values[moves.index(move)] == max(values)


def test_the_arena_seats_it_against_the_expert():
    r = arena("handseer", "greedy", 1, 2, seed=3, move_ms=5)
    assert r.matches == 2 and r.times_a
