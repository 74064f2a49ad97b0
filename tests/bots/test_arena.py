"""The arena: duplicate deals, its statistics, and the ``chkobba arena`` command."""

from __future__ import annotations

import pytest

from chkobba_cli.main import main
from chkobba_p2p.bots.arena import (
    ArenaResult,
    _deck_source,
    _play_leg,
    arena,
    mean_interval,
    play_duplicate_match,
    wilson_interval,
)
from chkobba_p2p.game.rules import Hand, Ruleset


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(50, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    lo, hi = wilson_interval(65, 100)
    assert lo == pytest.approx(0.5525, abs=1e-4) and hi == pytest.approx(0.7364, abs=1e-4)


def test_mean_interval_is_centred_and_shrinks_with_more_data():
    m, lo, hi = mean_interval([1.0, -1.0, 2.0, 0.0])
    assert m == 0.5 and lo < 0.5 < hi
    _, lo2, hi2 = mean_interval([1.0, -1.0, 2.0, 0.0] * 25)
    assert hi2 - lo2 < hi - lo


def test_both_legs_of_a_match_see_the_same_decks():
    a = _deck_source(5, 3)
    b = _deck_source(5, 3)
    assert a(0) == b(0) and a(4) == b(4)
    assert a(0) != a(1)
    assert _deck_source(5, 4)(0) != a(0)


class ViewChecker:
    """A bot that checks it is only ever handed its own seat's view (then plays greedily)."""

    level = "checker"

    def __init__(self) -> None:
        from chkobba_p2p.bots.simple import GreedyBot

        self.inner = GreedyBot(0)
        self.seen = 0

    def _check(self, hand: Hand, seat: int) -> None:
        assert hand.viewer == seat
        for s, held in enumerate(hand.hands):
            if s != seat:
                assert all(c is None for c in held)
        self.seen += 1

    def choose_play(self, hand: Hand):
        self._check(hand, hand.turn)
        return self.inner.choose_play(hand)

    def choose_cut(self, hand: Hand) -> bool:
        self._check(hand, hand.cutter)
        return self.inner.choose_cut(hand)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_arena_hands_each_bot_only_its_own_view(players):
    bots = [ViewChecker() for _ in range(players)]
    m = _play_leg(Ruleset(), bots, 0, _deck_source(1, 0))
    assert m.is_over
    assert all(b.seen > 0 for b in bots)


def test_duplicate_match_plays_two_legs_and_counts_every_hand():
    result = ArenaResult("heuristic", "random", 2)
    play_duplicate_match(Ruleset(), "heuristic", "random", 2, seed=1, match=0, move_ms=None,
                         result=result)
    assert result.matches == 2
    assert 0 <= result.wins_a <= 2
    assert len(result.margins) >= 2  # at least one hand per leg to reach 11
    assert result.times_a and result.times_b


@pytest.mark.parametrize("players", [2, 4])
def test_arena_reports_rates_and_margins(players):
    r = arena("greedy", "random", 2, players=players, seed=3)
    assert r.matches == 4
    text = "\n".join(r.lines())
    assert "match win rate A:" in text and "95% CI" in text
    assert "mean point margin per hand A-B:" in text
    lo, hi = wilson_interval(r.wins_a, r.matches)
    assert lo <= r.win_rate <= hi


def test_arena_is_reproducible_for_instant_levels():
    a = arena("heuristic", "greedy", 2, seed=9)
    b = arena("heuristic", "greedy", 2, seed=9)
    assert a.margins == b.margins and a.wins_a == b.wins_a


def test_arena_at_three_puts_a_at_each_seat_in_turn_against_two_b():
    result = ArenaResult("greedy", "random", 3)
    play_duplicate_match(Ruleset(), "greedy", "random", 3, seed=2, match=0, move_ms=None,
                         result=result)
    assert result.matches == 3 and result.legs == 3
    assert 0 <= result.wins_a <= 3
    # A played one seat in each leg, B the two others: B made twice A's moves.
    assert len(result.times_b) > len(result.times_a) > 0
    text = "\n".join(result.lines())
    assert "3 players" in text and "(1 deals x 3 seatings)" in text


def test_arena_refuses_a_table_shape_the_game_has_not():
    for players in (1, 5):
        with pytest.raises(ValueError):
            arena("greedy", "random", 1, players=players)


def test_arena_command(capsys):
    assert main(["arena", "--a", "heuristic", "--b", "random", "--games", "2",
                 "--players", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "matches: 4 (2 deals x 2 seatings)" in out
    assert "match win rate A:" in out


def test_arena_command_with_the_expert_and_a_budget(capsys):
    assert main(["arena", "--a", "expert", "--b", "greedy", "--games", "1", "--players", "4",
                 "--seed", "1", "--move-ms", "2", "--target", "3"]) == 0
    out = capsys.readouterr().out
    assert "target 3" in out and "move time A:" in out


def test_arena_command_refuses_bad_arguments(capsys):
    assert main(["arena", "--a", "greedy", "--b", "random", "--games", "0"]) == 2
    assert main(["arena", "--a", "greedy", "--b", "random", "--move-ms", "-5"]) == 2
    with pytest.raises(SystemExit):
        main(["arena", "--a", "wizard", "--b", "random"])


def test_arena_ladder_command_rates_every_level_from_its_round_robin(capsys):
    from chkobba_p2p.bots.arena import Pairing, elo_ratings

    assert main(["arena", "--ladder", "random,greedy,heuristic", "--games", "3",
                 "--seed", "2", "--target", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    pairs = [line for line in out if line.startswith("pair ")]
    elos = {line.split()[1].rstrip(":"): float(line.split()[2])
            for line in out if line.startswith("elo ")}
    assert len(pairs) == 3 and set(elos) == {"random", "greedy", "heuristic"}
    assert elos["greedy"] == 1500
    # The printed ratings are the fit of the printed results.
    results = []
    for line in pairs:
        words = line.split()  # pair A vs B: W/N matches won by A
        won, n = words[4].split("/")
        results.append(Pairing(words[1], words[3].rstrip(":"), float(won), int(n)))
    fitted = {r.level: round(r.rating) for r in elo_ratings(results)}
    assert {k: round(v) for k, v in elos.items()} == fitted


def test_arena_command_needs_two_levels_or_a_ladder(capsys):
    assert main(["arena", "--a", "greedy"]) == 2
    assert main(["arena", "--ladder", "greedy"]) == 2
    assert main(["arena", "--ladder", "greedy,wizard"]) == 2
    assert main(["arena", "--ladder", "greedy,random", "--players", "3"]) == 2
