"""The coach (:mod:`chkobba_p2p.observe.review`): every decision graded by the expert's search from
the deciding seat's view.  A forced or obvious move loses nothing; a planted blunder is
found; the grade never depends on cards the player could not see; a log and a seed give
the same grades every time; 2- and 4-player logs of real in-process sessions."""

from __future__ import annotations

import random

import pytest
import support.audit as support
from support.audit import play

from chkobba_p2p.bots.simple import GreedyBot
from chkobba_p2p.errors import LocalError
from chkobba_p2p.game.cards import Card, cards
from chkobba_p2p.game.rules import PRESETS, Hand, Move
from chkobba_p2p.observe.audit import audit_bodies
from chkobba_p2p.observe.review import BLUNDER, MISTAKE, grade_play, review_records

RULES = PRESETS["tunisian"]


class SweepRefuser:
    """The planted blunderer: greedy, but whenever it could sweep the table (a chkobba)
    and on an empty table it throws its highest card instead."""

    level = "planted"

    def __init__(self, seed: int | None = None) -> None:
        self.greedy = GreedyBot(seed)

    @staticmethod
    def planted(hand: Hand) -> bool:
        return not hand.table or any(m.capture and set(m.capture) == set(hand.table)
                                     for m in hand.legal_moves())

    def choose_play(self, hand: Hand) -> Move:
        if self.planted(hand):
            return max(hand.legal_moves(), key=lambda m: (not m.capture, m.card.value))
        return self.greedy.choose_play(hand)

    def choose_cut(self, hand: Hand) -> bool:
        return self.greedy.choose_cut(hand)


def _records(n: int, key: bytes, monkeypatch=None, planted: bool = False) -> list[dict]:
    if planted:
        real = support.make_bot
        monkeypatch.setattr(support, "make_bot", lambda level, seed=None: SweepRefuser(seed)
                            if level == "planted" else real(level, seed))
    played = play(n, seed=5, key=key, levels=("greedy", "planted") if planted else ("greedy",))
    report = audit_bodies(played.sessions[0].bodies, workers=0)
    return report.records


def _position(opponent: str) -> Hand:
    """Seat 0 to play, holding 7C 2S 4H; the haya (7D) alone on the table; seat 1's three
    cards as given (it took 8H 9H 5S before; the stock holds the rest)."""
    return Hand.from_position(RULES, 2, 1, hands=[cards("7C 2S 4H"), cards(opponent)],
                              table=cards("7D"), turn=0, piles=[(), cards("8H 9H 5S")],
                              last_capturer=1)


def test_a_forced_move_and_an_obvious_one_lose_nothing():
    placed = cards("9S 3C 10D")
    rest = [c for c in sorted(set(Card(i) for i in range(40)) - set(placed))]
    view = Hand.from_position(RULES, 2, 1, hands=[placed[:1], placed[1:2]], table=placed[2:],
                              turn=0, piles=[rest[:20], rest[20:]]).view(0)
    g = grade_play(view, Move(cards("9S")[0]), rng=random.Random(1))
    assert (g.label, g.loss, g.options) == ("forced", 0.0, 1)
    # Taking the haya alone on the table (a chkobba too) is the move: nothing lost; a throw
    # instead is a blunder (the haya left to the opponent, the chkobba not taken).
    view = _position("1C 2C 3C").view(0)
    take = Move(cards("7C")[0], frozenset(cards("7D")))
    g = grade_play(view, take, rng=random.Random(1), samples=64)
    assert g.loss == 0.0 and g.best == g.played and g.label == "good"
    take_d = {"card": "7C", "capture": ["7D"]}
    throw = grade_play(view, Move(cards("2S")[0]), rng=random.Random(1), samples=64)
    assert throw.label == "blunder" and throw.loss >= BLUNDER and throw.best == take_d, throw


def test_the_grade_never_uses_cards_the_player_could_not_see():
    """The same view with other hidden cards (the opponent's hand, the stock's order):
    the very same grade; and the open hand itself is refused."""
    a = _position("1C 2C 3C")
    b = _position("10S 10H 10C")
    assert a.view(0).hands == b.view(0).hands and a.hands != b.hands
    for move in (Move(cards("2S")[0]), Move(cards("7C")[0], frozenset(cards("7D")))):
        ga = grade_play(a.view(0), move, rng=random.Random(7), samples=32)
        gb = grade_play(b.view(0), move, rng=random.Random(7), samples=32)
        assert ga == gb
    with pytest.raises(LocalError):
        grade_play(a, Move(cards("2S")[0]), rng=random.Random(7))


def test_a_planted_blunder_is_found(monkeypatch):
    records = _records(2, b"review-planted", monkeypatch, planted=True)
    review = review_records(records, samples=48, seed=3)
    by_seat = {s.seat: s for s in review.summaries()}
    # The planted decisions: every chkobba the blunderer let go is graded a mistake or a
    # blunder, and at least one a blunder.
    from chkobba_p2p.observe.review import _decisions
    planted = []
    for rec in (r for r in records if r["type"] == "hand"):
        for hand, ev, number in _decisions(rec):
            b = ev.get("play")
            if b is None or b["seat"] != 1:
                continue
            view = hand.view(1)
            sweep = [m for m in view.legal_moves() if m.capture and set(m.capture) ==
                     set(view.table)]
            if sweep and not b["capture"]:
                planted.append(next(g for g in review.grades
                                    if (g.hand, g.number) == (rec["number"], number)))
    assert planted, "the match gave the blunderer a chkobba to refuse"
    assert all(g.loss >= MISTAKE for g in planted), planted
    assert any(g.loss >= BLUNDER and g.label == "blunder" for g in planted)
    assert by_seat[1].mean_loss > by_seat[0].mean_loss
    assert by_seat[1].blunders + by_seat[1].mistakes > by_seat[0].blunders + \
        by_seat[0].mistakes


def test_a_review_is_deterministic_for_a_log_and_a_seed_and_follows_the_seats():
    records = _records(4, b"review-four")
    seen: list[tuple[int, int]] = []
    one = review_records(records, seats=[2], samples=6, seed=11,
                         progress=lambda done, total: seen.append((done, total)))
    two = review_records(records, seats=[2], samples=6, seed=11)
    assert one.to_dict() == two.to_dict()
    assert {g.seat for g in one.grades} == {2}
    hands = [r for r in records if r["type"] == "hand"]
    plays = sum(1 for r in hands for e in r["events"] if "play" in e and e["play"]["seat"] == 2)
    cuts = sum(1 for r in hands for e in r["events"] if "cut" in e and e["cut"]["seat"] == 2)
    assert len(one.grades) == plays + cuts and cuts >= 1
    assert seen == [(i, len(one.grades)) for i in range(1, len(one.grades) + 1)]
    assert all(g.loss >= 0 and g.value_best >= g.value_played for g in one.grades)
    # A real log's forced moves (the last card of a deal, one legal move) lose nothing.
    forced = [g for g in one.grades if g.options == 1]
    assert forced and all((g.label, g.loss, g.best) == ("forced", 0.0, g.played)
                          for g in forced)
    (summary,) = one.summaries()
    assert summary.decisions == len(one.grades) and 0 <= summary.accuracy <= 100
    other = review_records(records, seats=[2], samples=6, seed=12)
    assert other.to_dict() != one.to_dict()  # the seed is the sampling's
