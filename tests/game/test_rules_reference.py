"""The engine against a slow, obviously-correct reference (tests/support/rules_reference.py).

Every preset and variant, 2, 3 and 4 players: the engine and the reference play the same
shuffled deck side by side; after every action the hands, the table (in order), the
legal moves, the refusal of attempted plays (the rule each one breaks) and, at the end,
the points per side must agree.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import rules_reference as ref

from chkobba_p2p import errors
from chkobba_p2p.game.cards import DECK, Card
from chkobba_p2p.game.rules import (
    PRESETS,
    VARIANTS,
    CutterChoice,
    DealEvent,
    DealStep,
    Hand,
    Move,
    Opening,
    PlayEvent,
    Redeal,
    Ruleset,
    Scoring,
    Turn,
)

RULESETS = [
    *PRESETS.values(),
    *(PRESETS[p].with_variant(v) for p in PRESETS for v in VARIANTS),
    Ruleset().with_variant("forced-capture").with_variant("primiera").with_variant("plain"),
    Ruleset().with_variant("redeal-any-three").with_variant("forced-capture"),
]


def reference_for(rules: Ruleset, players: int, dealer: int, deck: list[Card],
                  keep: bool) -> ref.RefHand:
    return ref.RefHand(players, dealer, [int(c) for c in deck],
                       opening="cut_and_draw" if rules.opening is Opening.CUT_AND_DRAW
                       else "plain", keep=keep, redeal=rules.redeal.value,
                       forced=rules.forced_capture,
                       use_primiera=rules.scoring is Scoring.PRIMIERA)


def as_ref(moves: list[Move]) -> set[tuple[int, frozenset[int]]]:
    out = {(int(m.card), frozenset(int(c) for c in m.capture)) for m in moves}
    assert len(out) == len(moves), "a legal move is listed twice"
    return out


def check_same(hand: Hand, model: ref.RefHand) -> None:
    assert [sorted(map(int, h)) for h in hand.hands] == [sorted(h) for h in model.hands]
    assert [int(c) for c in hand.table] == model.table
    piles = [sorted(map(int, p)) for p in hand.side_piles()]
    assert piles == [sorted(p) for p in model.piles]
    assert list(hand.side_chkobbas()) == model.chkobbas
    assert hand.stock == len(model.deck)


def attempt(rng: random.Random, hand: Hand) -> tuple[Card, frozenset[Card]]:
    """A play that may or may not be legal: a card of the hand (or any card) and a
    random group of table cards (sometimes with a card from elsewhere)."""
    mine = [c for c in hand.hand_of(hand.turn) if c is not None]
    played = rng.choice(mine) if rng.random() < 0.85 else rng.choice(DECK)
    table = list(hand.table)
    group = {c for c in table if rng.random() < 0.4}
    if rng.random() < 0.1:
        group.add(rng.choice(DECK))
    return played, frozenset(group)


def deal_logged(hand: Hand, step: DealStep, rest: list[Card]) -> Hand:
    """Deal the step from the top of ``rest``; the log says who got what."""
    k = len(step.recipients)
    dealt = tuple(rest[:k])
    del rest[:k]
    after = hand.deal(dealt)
    assert after.events[-1] == DealEvent(step.recipients, dealt, step.draw)
    assert after.events[:-1] == hand.events
    return after


def play_along(seed: int, rules: Ruleset, players: int, dealer: int) -> int:
    """Play one hand on the engine and the reference; returns the number of plays."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    keep = rng.random() < 0.5
    model = reference_for(rules, players, dealer, deck, keep)
    hand = Hand.new(rules, players, dealer)
    rest = list(deck)
    while not isinstance(hand.pending, Turn):
        step = hand.pending
        if isinstance(step, DealStep):
            hand = deal_logged(hand, step, rest)
        elif isinstance(step, CutterChoice):
            hand = hand.choose_cut(keep)
        else:
            assert isinstance(step, Redeal)
            assert model.needs_redeal
            return 0
    assert not model.needs_redeal
    assert hand.turn == model.turn
    check_same(hand, model)
    plays = 0
    while not hand.is_over:
        assert isinstance(hand.pending, Turn) and hand.turn == model.turn
        listed = hand.legal_moves()
        legal = as_ref(listed)
        assert legal == model.legal()
        for c in hand.hand_of(hand.turn):  # each card's captures, in table order
            expected = ref.captures_in_table_order(int(c), model.table)
            assert [frozenset(map(int, o)) for o in hand.captures_for(c)] == expected
            if expected and (not rules.forced_capture or any(m.capture for m in listed)):
                assert [frozenset(map(int, m.capture)) for m in listed if m.card == c] \
                    == expected
        for _ in range(3):
            card, capture = attempt(rng, hand)
            rule = model.refusal(int(card), frozenset(int(c) for c in capture))
            if rule is None:
                assert (int(card), frozenset(int(c) for c in capture)) in legal
                hand.play(hand.turn, card, capture)  # accepted (and the hand unchanged)
            else:
                with pytest.raises(getattr(errors, rule)):
                    hand.play(hand.turn, card, capture)
        with pytest.raises(errors.NotYourTurn):
            hand.play((hand.turn + 1) % players, *next(iter(hand.legal_moves())))
        move = rng.choice(sorted(hand.legal_moves(), key=lambda m: m.text))
        seat, before = hand.turn, sum(model.chkobbas)
        hand = hand.apply(move)
        model.play(int(move.card), frozenset(int(c) for c in move.capture))
        plays += 1
        logged = hand.events[-2 if hand.is_over else -1]
        assert logged == PlayEvent(seat, move.card, move.capture,
                                   sum(model.chkobbas) > before)
        while isinstance(hand.pending, DealStep):
            hand = deal_logged(hand, hand.pending, rest)
        check_same(hand, model)
    assert model.over
    assert list(hand.score.points) == model.points()
    assert plays == 40 - 4
    return plays


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULESETS),
       players=st.sampled_from([2, 3, 4]), dealer=st.integers(0, 3))
def test_the_engine_plays_as_the_reference(seed, rules, players, dealer):
    play_along(seed, rules, players, dealer % players)


@settings(max_examples=100, deadline=None)
@given(owner=st.lists(st.integers(0, 3), min_size=40, max_size=40),
       chk=st.lists(st.integers(0, 3), min_size=4, max_size=4),
       players=st.sampled_from([2, 3, 4]), primiera=st.booleans())
def test_scores_are_the_reference_scores(owner, chk, players, primiera):
    from chkobba_p2p.game.rules import score_piles

    n = ref.sides(players)
    piles = [[c for c, o in zip(DECK, owner) if o % n == s] for s in range(n)]
    rules = Ruleset.preset("cardavia") if primiera else Ruleset()
    got = score_piles(piles, chk[:n], rules, players).points
    assert list(got) == ref.score([[int(c) for c in p] for p in piles], chk[:n], primiera)


def test_the_reference_is_played_to_the_end_under_every_ruleset():
    """Not one ruleset is skipped by redeals alone (the comparison happens)."""
    for i, rules in enumerate(RULESETS):
        played = [play_along(seed, rules, players, 0)
                  for seed in range(i * 10, i * 10 + 4) for players in (2, 3, 4)]
        assert sum(p > 0 for p in played) >= 8


def test_applying_a_listed_move_skips_no_check_a_lookalike_needs():
    """A move equal to a listed one but of other types (an int for the card, a set for
    the capture) is checked as any other play: the int is refused, the set accepted."""
    from chkobba_p2p.game.cards import cards

    placed = cards("7D 2S 9H 3H 4S 10C")
    rest = [c for c in DECK if c not in placed]
    hand = Hand.from_position(Ruleset(), 2, 1, hands=(cards("7D 2S"), cards("9H")),
                              table=cards("3H 4S 10C"), turn=0, stock=0, piles=((), rest))
    listed = hand.legal_moves()
    seven = next(m for m in listed if m.card == cards("7D")[0])
    with pytest.raises(errors.CardNotInHand):
        hand.apply(Move(26, seven.capture))  # type: ignore[arg-type]
    after = hand.apply(Move(seven.card, set(seven.capture)))  # type: ignore[arg-type]
    assert after.events[-1].capture == seven.capture
    assert type(after.events[-1].capture) is frozenset
    assert after.table == cards("10C") and after.piles[0] == tuple(sorted(cards("7D 3H 4S")))
