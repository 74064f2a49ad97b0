"""Issue 45: the learned model of play (its shipped weights, its probabilities, its
preferences) and the ``learned`` level built on it (legal moves, its seat's view only,
determinism)."""

from __future__ import annotations

import math
import random

import pytest

from chkobba_p2p import errors
from chkobba_p2p.bots.arena import MEASUREMENT_LEVELS, arena_bot
from chkobba_p2p.bots.expert import ExpertBot, model_round_plays, model_world_weight
from chkobba_p2p.bots.learned import FEATURES, PolicyModel, load_model
from chkobba_p2p.bots.simulate import play_hand
from chkobba_p2p.game._masks import ALL_CARDS
from chkobba_p2p.game.cards import DECK, card, cards
from chkobba_p2p.game.rules import Hand, Move, Ruleset, mask_of

TUNISIAN = Ruleset()


def test_the_shipped_weights_load_and_reject_a_damaged_file():
    model = load_model()
    assert len(model.weights) == len(FEATURES)
    assert all(math.isfinite(w) for w in model.weights)
    assert PolicyModel.from_json(model.to_json()).weights == model.weights
    with pytest.raises(errors.LocalError):
        PolicyModel.from_json("{not json")
    with pytest.raises(errors.LocalError):
        PolicyModel.from_json('{"features": ["capture"], "weights": [1.0]}')


def test_the_probabilities_cover_every_legal_move_and_sum_to_one():
    model = load_model()
    hand = Hand.from_position(TUNISIAN, 2, 0, hands=(cards("1D 5S 9H"), cards("4C 2H 8S")),
                              table=cards("4D 1C 3S 10S"), turn=0)
    view = hand.view(0)
    held = [int(c) for c in view.hand_of(0)]  # type: ignore[arg-type]
    probs = model.probabilities(view._tm, held, ALL_CARDS ^ view._known, view.stock,
                                view.ruleset.forced_capture)
    legal = {(int(m.card), mask_of(m.capture)) for m in view.legal_moves()}
    assert {(c, o) for c, o, _ in probs} == legal
    assert sum(p for _, _, p in probs) == pytest.approx(1.0)
    assert all(p > 0 for _, _, p in probs)


def test_the_model_prefers_the_sweep_of_the_seven_of_diamonds():
    """Taking the haya and clearing the table beats dropping a card beside it."""
    model = load_model()
    table = mask_of(cards("7D"))
    held = [card("7S"), card("2C"), card("9H")]
    probs = model.probabilities(table, held, ALL_CARDS ^ table ^ mask_of(held), 20, False)
    best = max(probs, key=lambda x: x[2])
    assert (best[0], best[1]) == (card("7S"), mask_of(cards("7D")))
    assert best[2] > 0.5
    assert model.best(table, held, ALL_CARDS, 20, False) == (card("7S"), table)


def test_an_opponents_drop_beside_a_capture_makes_the_capturing_hand_unlikely():
    """Seat 1 put 2H on the table while 4C would have taken 4D: the worlds where it held
    4C weigh less under the model than the world where it did not."""
    hand = Hand.from_position(TUNISIAN, 2, 0, hands=(cards("1D 5S 9H"), cards("4C 2H 8S")),
                              table=cards("4D 6C 9S 10S"), turn=1).play(1, card("2H"))
    view = hand.view(0)
    plays = model_round_plays(view)
    assert [(s, c) for s, c, *_ in plays] == [(1, card("2H"))]
    mine = list(view.hand_of(0))

    def world(theirs: list) -> Hand:
        used = set(mine) | set(theirs) | set(view.table)
        return view._world([mine, theirs], [c for c in DECK if c not in used])

    model = load_model()
    capturing = model_world_weight(world(cards("4C 8S")), plays, model)
    not_capturing = model_world_weight(world(cards("3C 8S")), plays, model)
    assert 0 < capturing < not_capturing <= 1


def _deal(seed: int) -> list:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


class _Watched:
    """Records what the learned bot is shown and checks each of its moves is legal."""

    def __init__(self, bot: ExpertBot) -> None:
        self.bot = bot
        self.level = bot.level
        self.moves: list[Move] = []

    def choose_play(self, view: Hand) -> Move:
        assert view.viewer is not None  # never the omniscient hand
        assert all(c is None for s, h in enumerate(view.hands) if s != view.viewer
                   for c in h)
        move = self.bot.choose_play(view)
        assert move in view.legal_moves()
        self.moves.append(move)
        return move

    def choose_cut(self, view: Hand) -> bool:
        assert view.viewer is not None
        return self.bot.choose_cut(view)


@pytest.mark.parametrize("players", [2, 4])
def test_the_learned_level_plays_legal_moves_from_its_seats_view_only(players):
    bots = [_Watched(ExpertBot(s, move_ms=None, samples=3, model=load_model(), model_plies=2))
            for s in range(players)]
    hand = play_hand(Hand.new(TUNISIAN, players, 0), bots, _deal(players))
    assert hand.is_over
    assert sum(len(b.moves) for b in bots) == 40 - 4
    with pytest.raises(errors.LocalError):
        bots[0].bot.choose_play(hand)  # the omniscient hand is refused


def test_the_learned_level_is_deterministic_for_a_seed_and_is_a_measurement_level():
    assert "learned" in MEASUREMENT_LEVELS
    assert arena_bot("learned", 1).level == "learned"

    def game(seed: int) -> list[Move]:
        bots = [_Watched(ExpertBot(seed + s, move_ms=None, samples=4, model=load_model(),
                                   model_plies=2)) for s in range(2)]
        play_hand(Hand.new(TUNISIAN, 2, 1), bots, _deal(7))
        return bots[0].moves + bots[1].moves

    assert game(5) == game(5)


def test_the_fast_best_move_agrees_with_the_probabilities():
    """:meth:`PolicyModel.best` sums cached parts; it must pick the most likely move."""
    model = load_model()
    rng = random.Random(3)
    for _ in range(300):
        deck = list(range(40))
        rng.shuffle(deck)
        table = mask_of(deck[:rng.randrange(0, 6)])
        held = deck[6:6 + rng.randrange(1, 4)]
        unseen = mask_of(deck[10:])
        stock = rng.choice([0, 12])
        probs = model.probabilities(table, held, unseen, stock, False)
        top = max(p for _, _, p in probs)
        c, o = model.best(table, held, unseen, stock, False)
        assert next(p for cc, oo, p in probs if (cc, oo) == (c, o)) == pytest.approx(top)


def test_a_sharpened_model_keeps_its_choice_and_is_surer_of_it():
    model = load_model()
    sharp = model.sharpened(4.0)
    table = mask_of(cards("7D 3C"))
    held = [card("7S"), card("2C"), card("10H")]
    unseen = ALL_CARDS ^ table ^ mask_of(held)
    assert sharp.best(table, held, unseen, 20, False) == model.best(table, held, unseen, 20,
                                                                     False)
    top = max(p for _, _, p in model.probabilities(table, held, unseen, 20, False))
    sharp_top = max(p for _, _, p in sharp.probabilities(table, held, unseen, 20, False))
    assert top < sharp_top < 1
