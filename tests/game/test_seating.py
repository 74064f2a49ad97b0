"""The shape of the table (chkobba_p2p.game.seating): one value per table size, and the
places that used to know it by heart now ask it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chkobba_p2p.errors import LocalError
from chkobba_p2p.game.rules import Match, Ruleset, side_of, sides_count
from chkobba_p2p.game.seating import ONLINE, SHAPES, Seating

ROOT = Path(__file__).resolve().parent.parent.parent


def test_two_players_face_each_other():
    s = Seating.of(2)
    assert (s.sides, s.teams, s.rounds) == (2, False, 6)
    assert [s.side_of(x) for x in range(2)] == [0, 1]
    assert s.partner_of(0) is None and s.opponents_of(0) == (1,)
    assert s.cutter(1) == 0 and s.next(1) == 0
    assert s.winner_on_resignation(0) == 1


def test_three_players_each_for_themselves():
    s = Seating.of(3)
    assert (s.sides, s.teams, s.rounds) == (3, False, 4)
    assert [s.seats_of(x) for x in range(3)] == [(0,), (1,), (2,)]
    assert [s.partner_of(x) for x in range(3)] == [None] * 3
    assert s.opponents_of(1) == (2, 0)
    # Play passes counter-clockwise: the cutter sits on the dealer's right, plays first.
    assert [s.cutter(d) for d in range(3)] == [1, 2, 0]
    assert s.order_from(2) == (2, 0, 1)
    # The deal passes to the next seat after every hand.
    assert [s.dealer_of(2, k) for k in range(4)] == [2, 0, 1, 2]
    # A resignation leaves no one other side: the match stops, nobody wins.
    assert [s.winner_on_resignation(x) for x in range(3)] == [None] * 3


def test_four_players_in_two_teams_of_partners_facing_each_other():
    s = Seating.of(4)
    assert (s.sides, s.teams, s.rounds) == (4 // 2, True, 3)
    assert s.seats_of(0) == (0, 2) and s.seats_of(1) == (1, 3)
    assert [s.partner_of(x) for x in range(4)] == [2, 3, 0, 1]
    assert s.opponents_of(0) == (1, 3)
    assert [s.winner_on_resignation(x) for x in range(4)] == [1, 0, 1, 0]


@pytest.mark.parametrize("players", SHAPES)
def test_every_shape_deals_the_whole_deck_and_the_rules_agree(players):
    s = Seating.of(players)
    assert s is Seating.of(players)  # one value per shape
    assert 4 + 3 * players * s.rounds == 40
    assert sides_count(players) == s.sides
    assert [side_of(x, players) for x in range(players)] == \
        [s.side_of(x) for x in range(players)]
    m = Match.new(Ruleset(), players, first_dealer=players - 1)
    assert len(m.totals) == s.sides and m.hand is not None
    assert m.hand.cutter == s.cutter(players - 1)


def test_shapes_out_of_the_game_and_seats_off_the_table_are_refused():
    for bad in (0, 1, 5, 6):
        with pytest.raises(LocalError):
            Seating.of(bad)
    with pytest.raises(LocalError):
        Seating.of(3).side_of(3)
    with pytest.raises(LocalError):
        Seating.of(4).seats_of(2)
    assert ONLINE == (2, 3, 4)


def test_seating_is_frozen():
    with pytest.raises(AttributeError):
        Seating.of(3).players = 4  # type: ignore[misc]


def test_no_module_knows_the_table_shape_by_heart():
    """The checks that were spread over the library (``players == 4``, ``players in
    (2, 4)``, "2 sides") ask the seating now: none is left in the library's code."""
    pattern = re.compile(r"players\s*(==|!=)\s*4|players\)?\s*(not )?in \(2, 4\)"
                         r"|2 if [\w.]*players == 4")
    found = []
    for path in sorted((ROOT / "chkobba_p2p").rglob("*.py")):
        if path.name == "seating.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if pattern.search(code) and not code.strip().startswith(('"', "'")):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_a_seating_gives_data_never_words():
    """What a side is called ("team", "équipe", "seat", "place") is the client's word,
    chosen by :attr:`Seating.teams`; the library's English ``side_word`` is gone, and so
    are the audit's English text lines that were its only reader (issue 41)."""
    from chkobba_p2p.observe import audit

    for players in (2, 3, 4):
        seating = Seating.of(players)
        assert not [n for n in dir(seating) if "word" in n]
        assert seating.teams is (players == 4)
    assert not hasattr(audit, "hand_lines") and not hasattr(audit, "score_lines")
