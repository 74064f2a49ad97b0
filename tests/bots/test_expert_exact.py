"""Issue 28: the expert searches each sampled world exactly near the end of a hand.

The reference here is a plain minimax written on the public rules API (``legal_moves``,
``play``, ``deal``, ``score``), without pruning and without the search's sampled worlds:
:func:`chkobba_p2p.bots.expert.exact_values` must give every option the value it gives."""

from __future__ import annotations

import random

import pytest
from support.positions import greedy_positions

from chkobba_p2p.bots.expert import (
    EXACT_STOCK_2P,
    ExpertBot,
    _exact_reach,
    determinize,
    exact_endgame,
    exact_values,
    round_plays,
    world_weight,
)
from chkobba_p2p.errors import LocalError
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.rules import DealStep, Hand, Ruleset, Turn, mask_of

TUNISIAN = Ruleset()


def _reference(hand: Hand, deck: list[Card], side: int) -> int:
    """The final margin of ``side`` (its points minus the other side's) under perfect
    play by both sides, from an omniscient hand whose next deals are ``deck``."""
    if hand.is_over:
        pts = hand.score.points
        return pts[side] - max(p for s, p in enumerate(pts) if s != side)
    step = hand.pending
    if isinstance(step, DealStep):
        n = len(step.recipients)
        return _reference(hand.deal(deck[:n]), deck[n:], side)
    assert isinstance(step, Turn)
    values = [_reference(hand.play(step.seat, m.card, m.capture), deck, side)
              for m in hand.legal_moves()]
    mine = hand.side_of(step.seat) == side
    return max(values) if mine else min(values)



def _options(hand: Hand):
    seat = hand.turn
    held = hand.hand_of(seat)
    moves = hand.legal_moves()
    return moves, [(held.index(m.card), m.card, mask_of(m.capture)) for m in moves]


@pytest.mark.parametrize("players,stock", [(2, EXACT_STOCK_2P), (2, 0), (4, 0)])
def test_exact_values_are_the_minimax_values_of_every_option(players, stock):
    for hand, deck in greedy_positions(players, stock, 6, seed=280 + players + stock):
        seat = hand.turn
        side = hand.side_of(seat)
        world = hand._world(hand.hands, deck[:hand.stock])
        moves, options = _options(hand)
        want = [_reference(hand.play(seat, m.card, m.capture), deck, side) for m in moves]
        assert exact_values(world, side, options) == want
        # The root search with a narrowing window finds a best move of the same value.
        (card, capture), best = exact_endgame(world, side)
        assert best == max(want)
        i = next(k for k, m in enumerate(moves)
                 if m.card == card and mask_of(m.capture) == capture)
        assert want[i] == max(want)


def test_the_exact_search_is_for_the_ends_of_hands_the_information_allows():
    def view(players: int, stock: int) -> Hand:
        return next(h for h, _ in greedy_positions(players, stock, 1, seed=7)).view(0)

    assert _exact_reach(view(2, EXACT_STOCK_2P))
    assert _exact_reach(view(2, 0))
    assert not _exact_reach(view(2, EXACT_STOCK_2P + 6))
    assert _exact_reach(view(4, 0))
    assert not _exact_reach(view(4, 12))


def test_the_exact_search_refuses_what_it_cannot_search():
    hand, deck = greedy_positions(2, EXACT_STOCK_2P, 1, seed=9)[0]
    _, options = _options(hand)
    with pytest.raises(LocalError, match="every card known"):
        exact_values(hand.view(hand.turn), 0, options)
    with pytest.raises(LocalError, match="deals its stock itself"):
        exact_values(hand, 0, options)  # omniscient, but nobody gave it the stock's order


def _expected_choice(view: Hand, seed: int, samples: int):
    """What the expert must choose in reach: the best sum over the worlds its own random
    stream draws (the same seed) of each option's exact value, weighed by inference."""
    rng = random.Random(seed)
    side = view.side_of(view.viewer)
    moves = view.legal_moves()
    held = view.hand_of(view.viewer)
    options = [(held.index(m.card), m.card, mask_of(m.capture)) for m in moves]
    plays = round_plays(view)
    totals = [0.0] * len(options)
    for _ in range(samples):
        world = determinize(view, rng)
        w = world_weight(world, plays) if plays else 1.0
        for i, v in enumerate(exact_values(world, side, options)):
            totals[i] += w * v
    best = max(totals)
    return [m for m, t in zip(moves, totals, strict=True) if t == best]


def test_in_reach_the_expert_plays_the_best_exact_value_over_its_sampled_worlds():
    differs = 0
    checked = 0
    for k, (hand, _) in enumerate(greedy_positions(2, EXACT_STOCK_2P, 24, seed=28)):
        view = hand.view(hand.turn)
        tied = _expected_choice(view, seed=k, samples=5)
        chosen = ExpertBot(k, move_ms=None, samples=5).choose_play(view)
        if len(tied) == 1:
            assert chosen == tied[0]
            checked += 1
        else:
            assert chosen in tied
        playouts = ExpertBot(k, move_ms=None, samples=5, exact_reach=False).choose_play(view)
        differs += playouts != chosen
    assert checked >= 6
    assert differs >= 1  # the exact values change some choices the playouts made


def test_out_of_reach_the_expert_still_plays_out_its_worlds():
    """Far from the end, exact_reach changes nothing: the same worlds, the same playouts."""
    for k, (hand, _) in enumerate(greedy_positions(2, 24, 4, seed=29)):
        view = hand.view(hand.turn)
        a = ExpertBot(k, move_ms=None, samples=8).choose_play(view)
        b = ExpertBot(k, move_ms=None, samples=8, exact_reach=False).choose_play(view)
        assert a == b
