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
    lo, hi = r.win_interval
    assert (lo, hi) == wilson_interval(r.wins_a, r.matches)
    assert lo <= r.win_rate <= hi
    mean, mlo, mhi = r.margin
    assert mlo <= mean <= mhi and len(r.margins) >= r.matches


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
    from chkobba_cli.commands.arena import result_lines
    from chkobba_cli.words.i18n import Translator

    assert result_lines(Translator("en"), result)[:2] == [
        "arena: greedy (A) vs random (B), 3 players, duplicate deals",
        "matches: 3 (1 deal x 3 seatings)"]


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


def test_arena_command_in_french(capsys):
    """The arena's figures are the library's data, worded by the command in --lang (they
    were the library's English sentences)."""
    assert main(["arena", "--a", "heuristic", "--b", "random", "--games", "1",
                 "--players", "2", "--seed", "4", "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["arène : heuristic (A) contre random (B), 2 joueurs, donnes "
                        "dupliquées", "parties : 2 (1 donne x 2 placements)",
                        out[3]] and out[3].startswith("manches : ")
    assert out[4].startswith("taux de victoire de A : ") and "IC à 95 %" in out[4]
    assert out[5].startswith("écart moyen de points par manche A-B : ")
    assert out[4].count(",") == 3 and "." not in out[4]  # 0,500, as French writes it
    assert out[6].startswith("temps par coup A : moy. ")


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


def test_arena_ladder_command_in_french(capsys):
    assert main(["arena", "--ladder", "random,greedy", "--games", "1", "--seed", "2",
                 "--target", "3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "échelle : random, greedy, 2 joueurs, 1 donne dupliquée par paire"
    assert out[2].startswith("paire random contre greedy : ")
    assert out[2].endswith(" parties gagnées par random")
    assert sorted(x.split(" (")[0] for x in out[3:5])[0] == "elo greedy : 1500"
    assert all(" (IC à 95 % de " in x for x in out[3:5])


@pytest.mark.parametrize("games, lang, ladder, matches", [
    (1, "en", "1 duplicate deal per pair", "matches: 2 (1 deal x 2 seatings)"),
    (2, "en", "2 duplicate deals per pair", "matches: 4 (2 deals x 2 seatings)"),
    (1, "fr", "1 donne dupliquée par paire", "parties : 2 (1 donne x 2 placements)"),
    (2, "fr", "2 donnes dupliquées par paire", "parties : 4 (2 donnes x 2 placements)"),
])
def test_the_count_of_deals_takes_its_number(capsys, games, lang, ladder, matches):
    """One duplicate deal is said in the singular, two in the plural, in both languages
    (it said "1 donnes dupliquées", "1 duplicate deals")."""
    common = ["--games", str(games), "--seed", "2", "--target", "2", "--lang", lang]
    assert main(["arena", "--ladder", "random,greedy", *common]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith(", " + ladder)
    assert main(["arena", "--a", "random", "--b", "greedy", *common]) == 0
    assert capsys.readouterr().out.splitlines()[2] == matches


def test_simulate_command_in_french(capsys):
    """simulate's summary: the library's data, worded by the command (it was the
    library's English), per team at 4 players."""
    assert main(["simulate", "--players", "4", "--games", "1", "--seed", "3", "--target",
                 "3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "places : 0=greedy, 1=random, 2=greedy, 3=random"
    assert out[2:4] == ["parties : 1", out[3]] and out[3].startswith("manches : ")
    assert out[4].startswith("redonnes : ")
    assert [x.split(" : ")[0] for x in out[5:10]] == [
        "victoires de l'équipe 0", "victoires de l'équipe 1",
        "points moyens par manche de l'équipe 0", "points moyens par manche de l'équipe 1",
        "chkobbas par manche"]
    assert "," in out[9]  # as French writes a decimal


def test_simulate_command_in_english_per_seat(capsys):
    assert main(["simulate", "--players", "3", "--games", "1", "--seed", "3",
                 "--target", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2:5] == ["matches: 1", out[3], out[4]]
    assert [x.split(": ")[0] for x in out[5:12]] == [
        "wins seat 0", "wins seat 1", "wins seat 2", "mean points per hand seat 0",
        "mean points per hand seat 1", "mean points per hand seat 2", "chkobbas per hand"]
