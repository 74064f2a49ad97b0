"""The coach's reasons (:func:`chkobba_p2p.observe.review.reasons_for_play`): positions
built with the rules model where the reason is known, each asserted by its code; a graded
mistake carries them (and its JSON); a forced move and the best move carry none."""

from __future__ import annotations

import random

from chkobba_p2p.game.cards import Card, cards
from chkobba_p2p.game.rules import PRESETS, Hand, Move
from chkobba_p2p.observe.review import (
    REASON_CODES,
    Reason,
    grade_cut,
    grade_play,
    reasons_for_cut,
    reasons_for_play,
)

RULES = PRESETS["tunisian"]


def _move(card: str, capture: str = "") -> Move:
    return Move(cards(card)[0], frozenset(cards(capture)) if capture else frozenset())


def _view(mine: str, table: str, theirs: str = "1C 2C 3C", *, stock0: bool = False,
          pile: str | None = None) -> Hand:
    """Seat 0 to play at 2 players holding ``mine``; ``table``; seat 1 holds ``theirs``.
    With ``stock0`` every other card is in the piles (the last deal); else seat 1 took
    ``pile`` before (default: as many of 8H 9H 10H as make whole deals of the stock)
    and the stock holds the rest."""
    if stock0:
        placed = cards(f"{mine} {table} {theirs}")
        rest = [Card(i) for i in range(40) if Card(i) not in placed]
        return Hand.from_position(RULES, 2, 1, hands=[cards(mine), cards(theirs)],
                                  table=cards(table), turn=0, stock=0,
                                  piles=[rest[:len(rest) // 2], rest[len(rest) // 2:]],
                                  last_capturer=1).view(0)
    if pile is None:
        pile = " ".join(["8H", "9H", "10H"][:(4 - len(cards(table))) % 6])
    return Hand.from_position(RULES, 2, 1, hands=[cards(mine), cards(theirs)],
                              table=cards(table), turn=0, piles=[(), cards(pile)],
                              last_capturer=1).view(0)


def codes(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.code for r in reasons]


def test_a_table_of_3_and_4_left_sweepable_and_the_chkobba_missed():
    # 7C sweeps 3S + 4H (a chkobba); 2S instead leaves 3 + 4 + 2 = 9 on the table, which
    # any of the four 9s unseen from seat 0 sweeps; 5H leaves 12, which nothing sweeps.
    view = _view("7C 2S 5H", "3S 4H")
    best = _move("7C", "3S 4H")
    throw_2 = reasons_for_play(view, _move("2S"), best)
    assert codes(throw_2) == ["misses_chkobba", "leaves_sweep", "fewer_cards"]
    assert throw_2[1] == Reason("leaves_sweep", value=9)
    assert throw_2[2] == Reason("fewer_cards", value=2)  # 3S and 4H: the 7C was held anyway
    assert codes(reasons_for_play(view, _move("5H"), best)) == ["misses_chkobba",
                                                                 "fewer_cards"]
    assert reasons_for_play(view, best, best) == ()


def test_the_sweep_is_only_a_danger_with_a_card_unseen_by_the_seat():
    # 1S + 2S = 3 after throwing 2S: a 3 sweeps it.  Every 3 is in seat 0's hand or in a
    # pile (seen), so none is left to sweep; 4D instead leaves 1S + 4D = 5, and 5s are
    # unseen (and the diamond 4D is left for a 4 to take).
    view = _view("2S 4D 3S", "1S", "1C 2C 4C", pile="3C 3H 3D")
    assert reasons_for_play(view, _move("4D"), _move("2S")) == (
        Reason("leaves_sweep", value=5), Reason("gives_dinari", card="4D"))
    assert codes(reasons_for_play(view, _move("2S"), _move("4D"))) == []


def test_the_haya_missed_and_the_haya_given():
    view = _view("7C 6H 5H", "7D 4S")
    # Taking the haya is the move: it is said once, not again as a seven and a diamond.
    assert reasons_for_play(view, _move("6H"), _move("7C", "7D")) == (
        Reason("misses_haya", card="7D"),)
    # Throwing the haya onto 10S + 9S: a 7 unseen by seat 0 takes it.
    view = _view("7D 3S 2H", "10S 9S")
    assert reasons_for_play(view, _move("7D"), _move("3S")) == (
        Reason("gives_haya", card="7D"),)
    assert reasons_for_play(view, _move("2H"), _move("3S")) == ()


def test_more_sevens_and_diamonds_taken():
    # 7C takes 7H (a seven) or 5D + 2S (a diamond and two cards): each names its own kind.
    view = _view("7C 1S 10C", "7H 6D")
    assert codes(reasons_for_play(view, _move("1S"), _move("7C", "7H"))) == [
        "misses_sevens", "fewer_cards"]
    view = _view("6C 1S 10C", "6D 5H 1H")
    assert codes(reasons_for_play(view, _move("10C"), _move("6C", "6D"))) == [
        "fewer_dinari", "fewer_cards"]


def test_a_seven_left_on_the_table():
    # 7S thrown onto 10S + 9S: a 7 unseen by seat 0 takes it; 2H thrown instead is no
    # seven, no diamond, and 10S + 9S + 2H sums past any card.
    view = _view("7S 2H 4S", "10S 9S")
    assert reasons_for_play(view, _move("7S"), _move("2H")) == (
        Reason("gives_seven", card="7S"),)


def test_the_last_capture_kept_at_the_end_of_the_hand():
    # The last deal: 5C takes 5S and nothing is taken after it, so the table's last card
    # goes to seat 0; throwing 2C lets seat 1's 6C take 5S + 1H and the rest.
    view = _view("5C 2C", "5S 1H", "6C", stock0=True)
    reasons = reasons_for_play(view, _move("2C"), _move("5C", "5S"))
    assert codes(reasons) == ["last_capture", "fewer_cards"]
    g = grade_play(view, _move("2C"), rng=random.Random(1))
    assert g.exact and g.label == "blunder" and g.reasons == reasons
    assert g.to_dict()["reasons"] == [
        {"code": "last_capture", "card": None, "value": None},
        {"code": "fewer_cards", "card": None, "value": 1}]


def test_a_graded_mistake_carries_its_reasons_and_the_best_move_none():
    view = _view("7C 2S 5H", "3S 4H")
    g = grade_play(view, _move("2S"), rng=random.Random(1), samples=16)
    assert g.label == "blunder" and codes(g.reasons)[:2] == ["misses_chkobba",
                                                              "leaves_sweep"]
    assert all(r.code in REASON_CODES for r in g.reasons)
    best = grade_play(view, _move("7C", "3S 4H"), rng=random.Random(1), samples=16)
    assert best.loss == 0 and best.reasons == () and best.to_dict()["reasons"] == []


def test_the_cut_names_keep_or_place():
    assert reasons_for_cut(cards("7D")[0], False, True) == (Reason("keep_cut", card="7D"),)
    assert reasons_for_cut(cards("2S")[0], True, False) == (Reason("place_cut", card="2S"),)
    assert reasons_for_cut(cards("2S")[0], True, True) == ()
    # From a real cut: the cutter draws 7D; the grade's reasons agree with its best choice.
    hand = Hand.new(RULES, 2, 1).deal(cards("7D"))
    view = hand.view(hand.cutter)
    g = grade_cut(view, False, rng=random.Random(2), samples=8)
    expect = () if g.loss == 0 else (Reason("keep_cut" if g.best["keep"] else "place_cut",
                                            card="7D"),)
    assert g.reasons == expect


def _derives_a_kind(node: object) -> bool:
    """A card's value or suit compared, ``Suit.X`` named, or the haya spelled out."""
    import ast

    if isinstance(node, ast.Compare):
        return any(isinstance(x, ast.Attribute) and x.attr in ("value", "suit")
                   for x in (node.left, *node.comparators))
    named_suit = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id == "Suit"
    return named_suit or (isinstance(node, ast.Constant) and node.value == "7D")


def test_the_kinds_of_cards_are_the_rules_models():
    """The coach counts sevens, diamonds and the haya with the rules model's masks (the
    ones the scoring counts with, ``game/_masks.py``), and derives no kind of card of its
    own: no comparison of a card's value or suit, no haya spelled out, in review.py."""
    import ast
    from pathlib import Path

    import chkobba_p2p.observe.review as review

    tree = ast.parse(Path(review.__file__).read_text(encoding="utf-8"))
    own = sorted({n.lineno for n in ast.walk(tree) if _derives_a_kind(n)})
    assert own == [], f"review.py derives a kind of card itself (lines {own})"
