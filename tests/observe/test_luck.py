"""Luck against play (:mod:`chkobba_p2p.observe.luck`): the cards dealt to each side by a
fixed table, the points each side's play gave away against the coach, and whether every
deal was shuffled by all and checked -- on real logs of in-process matches."""

from __future__ import annotations

from fractions import Fraction

from support.audit import play

from chkobba_p2p.game.cards import Card, card
from chkobba_p2p.observe.audit import INCOMPLETE, VALID, audit_bodies
from chkobba_p2p.observe.luck import card_value, dealt_strength, luck_of
from chkobba_p2p.observe.review import review_records


def _report(n: int = 2, *, key: bytes, seed: int, **kw):
    played = play(n, seed=seed, key=key, **kw)
    return audit_bodies(played.sessions[0].bodies, workers=0)


def test_the_card_table_shares_four_points_and_the_haya_leads():
    deck = [Card(i) for i in range(40)]
    assert sum((card_value(c) for c in deck), Fraction(0)) == 4
    assert max(deck, key=card_value) == card("7D")
    assert card_value(card("7D")) == Fraction(1, 40) + Fraction(1, 10) + 1 + Fraction(3, 16)
    assert card_value(card("7S")) > card_value(card("6S")) > card_value(card("5S"))
    assert card_value(card("5D")) > card_value(card("5S"))


def test_one_side_dealt_visibly_stronger_cards_and_the_numbers_add_up():
    # This key and seed deal seat 0 the stronger cards (8.8 against 4.975).
    report = _report(key=b"luck1", seed=1)
    assert report.verdict == VALID
    sides, table, hands = dealt_strength(report.records, 2)
    assert hands == len([r for r in report.records if r["type"] == "hand"]) >= 3
    # Every card of every hand is dealt: to a seat or to the table, 4 points a hand.
    assert sum(sides) + table == 4 * hands
    assert sides[0] - sides[1] > 3
    review = review_records(report.records, samples=8, limit=None)
    luck = luck_of(report, review=review)
    assert [s.dealt for s in luck.sides] == [float(x) for x in sides]
    assert luck.fair == float(sum(sides) / 2)
    assert (luck.verdict, luck.fair_deal, luck.proven, luck.shufflers) == (VALID, True, False, 2)
    # The losses are the review's, seat by seat: nothing lost, nothing counted twice.
    for s in luck.sides:
        mine = [g for g in review.grades if g.seat in s.seats]
        assert s.loss == round(sum(g.loss for g in mine), 3)
        assert s.decisions == len(mine)
        assert s.mistakes == sum(g.label == "mistake" for g in mine)
    assert sum(s.decisions for s in luck.sides) == luck.graded == luck.decisions
    assert not luck.cut_short


def test_a_random_player_gives_away_more_than_a_greedy_one():
    report = _report(key=b"luck-play", seed=3, levels=("random", "greedy"))
    luck = luck_of(report, samples=8, limit=None)
    random_side, greedy_side = luck.sides
    assert random_side.loss > greedy_side.loss + 1.0, luck


def test_the_review_limit_is_respected_and_said():
    report = _report(key=b"luck1", seed=1)
    luck = luck_of(report, samples=4, limit=10)
    assert luck.cut_short and luck.graded == 10 and luck.limit == 10
    assert luck.decisions > 10
    assert sum(s.decisions for s in luck.sides) == 10
    # The deal's strength does not depend on the review's limit.
    full = luck_of(report, samples=4, limit=12)
    assert [s.dealt for s in full.sides] == [s.dealt for s in luck.sides]


def test_shuffle_proofs_make_it_proven():
    report = _report(key=b"luck-proofs", seed=2, proofs=True)
    luck = luck_of(report, samples=2, limit=1)
    assert (luck.verdict, luck.fair_deal, luck.proven) == (VALID, True, True)


def test_an_unfinished_match_is_no_proof_of_a_fair_deal():
    report = _report(key=b"luck1", seed=1, stop_after=60)
    assert report.verdict == INCOMPLETE
    luck = luck_of(report, samples=2, limit=1)
    assert not luck.fair_deal and not luck.proven


def test_four_players_count_by_partners():
    report = _report(4, key=b"luck4", seed=1)
    sides, table, hands = dealt_strength(report.records, 4)
    assert len(sides) == 2 and sum(sides) + table == 4 * hands
    luck = luck_of(report, samples=2, limit=8)
    assert [s.seats for s in luck.sides] == [(0, 2), (1, 3)]
    assert luck.shufflers == 4
