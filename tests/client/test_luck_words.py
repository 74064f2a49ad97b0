""""Is it rigged?" in words (issue 43): ``chkobba replay --luck`` on real logs of
in-process matches, in English and French, with the library's numbers; the sides named
when "you" does not fit; a deal the audit does not prove is never called fair."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from support.audit import play, played_once

from chkobba_cli.main import main
from chkobba_cli.words.i18n import Translator
from chkobba_cli.words.luck import luck_lines
from chkobba_p2p.game.rules import PRESETS
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.observe.luck import Luck, SideLuck, dealt_strength, luck_of


def _numbers(line: str) -> list[str]:
    return re.findall(r"\d+[.,]\d", line)


def test_replay_luck_words_the_librarys_numbers_in_english_and_french(tmp_path, capsys):
    # Seat 0 (the log's writer, "you") was dealt the stronger cards in this match.
    log = played_once(2, seed=1, key=b"luck1").write_log(tmp_path / "l.chklog")
    argv = ["replay", str(log), "--luck", "--quiet", "--samples", "4"]
    assert main([*argv, "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "VALID" in out[0]
    luck = luck_of(audit_log(log), samples=4)
    me, them = luck.sides
    dealt = next(x for x in out if x.startswith("Luck: you were dealt"))
    assert _numbers(dealt) == [f"{me.dealt:.1f}", f"{them.dealt:.1f}", f"{luck.fair:.1f}"]
    assert me.dealt > them.dealt + 3
    played = next(x for x in out if x.startswith("Play: you gave away"))
    assert _numbers(played) == [f"{me.loss:.1f}", f"{them.loss:.1f}"]
    # No shuffle proofs at this table: checked after each hand, never called proven.
    assert any("every shuffle checked once the hand's seeds were open" in x for x in out)
    assert not any("proven" in x for x in out)
    assert main([*argv, "--lang", "fr"]) == 0
    fr = capsys.readouterr().out.splitlines()
    dealt = next(x for x in fr if x.startswith("Chance : vous avez reçu"))
    assert _numbers(dealt)[0] == f"{me.dealt:.1f}".replace(".", ",")
    assert any(x.startswith("Jeu : vous avez cédé") for x in fr)
    assert any("Est-ce truqué ? La chance et le jeu sur" in x for x in fr)


# slow: its audit checks the shuffle proofs in worker processes
@pytest.mark.slow
def test_a_table_with_shuffle_proofs_is_proven(tmp_path, capsys):
    log = play(2, seed=2, key=b"luck-proofs", proofs=True).write_log(tmp_path / "p.chklog")
    assert main(["replay", str(log), "--luck", "--quiet", "--samples", "1",
                 "--review-limit", "5", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Every deal was shuffled by both players and every shuffle was proven: " \
        "nobody could stack the deck." in out
    assert "(The coach graded the first 5 of" in out


def test_a_bad_sample_count_is_a_usage_error_not_a_traceback(tmp_path, capsys):
    log = played_once(2, seed=1, key=b"luck1").write_log(tmp_path / "l.chklog")
    assert main(["replay", str(log), "--luck", "--quiet", "--samples", "0"]) == 2
    assert "--samples must be 1 or more" in capsys.readouterr().err


def _luck(verdict: str = "valid", fair: bool = True, proven: bool = False) -> Luck:
    sides = tuple(SideLuck(i, (i,), d, loss, 10, 0, 0)
                  for i, (d, loss) in enumerate([(6.12, 0.84), (4.3, 2.1), (3.0, 1.0)]))
    return Luck(sides, 4, 4.47, verdict, fair, proven, 3, 40, 30, 30)


def test_three_sides_are_named_and_an_invalid_audit_proves_nothing():
    t = Translator("en")
    lines = luck_lines(t, _luck(), ["amel", "bot1", "bot2"], me=0)
    assert lines[1] == "Luck: cards dealt worth amel 6.1, bot1 4.3, bot2 3.0 points " \
        "(an even deal: 4.5 each)."
    assert lines[2] == "Play: points given away against the coach's best: amel 0.8, " \
        "bot1 2.1, bot2 1.0."
    assert "(The coach graded the first 30 of 40 decisions: its limit.)" in lines
    bad = luck_lines(t, _luck("invalid", fair=False), ["amel", "bot1", "bot2"], me=0)
    assert "This log's audit is not VALID (INVALID): it proves nothing about the deal." in bad
    assert not any("shuffled by" in x for x in bad)
    fr = luck_lines(Translator("fr"), _luck(proven=True), ["amel", "bot1", "bot2"], me=None)
    assert fr[1].startswith("Chance : cartes reçues valant amel 6,1, bot1 4,3")
    assert "chaque mélange prouvé" in fr[-2]


def test_history_luck_speaks_from_this_persons_seat_not_the_logs_writer(
        tmp_path, capsys, monkeypatch):
    import hashlib

    from chkobba_p2p.wire.logfile import write_private
    logs = tmp_path / "logs"
    logs.mkdir()
    # Seat 0 wrote the log; this person is seat 1, dealt the weaker cards.
    # One hand (a match to 1 point): the account's words are the same over one hand.
    log = play(2, seed=1, key=b"luck1", rules=replace(PRESETS["tunisian"], target=1)
               ).write_log(logs / "m.chklog")
    data = tmp_path / "data"
    data.mkdir()
    write_private(data / "identity.key", hashlib.sha256(b"luck1/identity 1").digest())
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(data))
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["history", str(logs), "--luck", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    (host, me), _, _ = dealt_strength(audit_log(log).records, 2)
    assert f"Luck: you were dealt cards worth {float(me):.1f} points, they " \
        f"{float(host):.1f}" in out, out
    assert me < host


def test_french_says_point_below_two():
    two = (SideLuck(0, (0,), 6.1, 0.84, 10, 0, 0), SideLuck(1, (1,), 4.3, 2.1, 10, 0, 0))
    luck = Luck(two, 3, 5.2, "valid", True, True, 2, 20, 20, None)
    fr = luck_lines(Translator("fr"), luck, ["amel", "bot1"], me=0)
    assert fr[2] == "Jeu : vous avez cédé 0,8 point face au meilleur coup du coach, eux 2,1."
    assert "valant 6,1 points, eux 4,3" in fr[1]
    en = luck_lines(Translator("en"), luck, ["amel", "bot1"], me=0)
    assert en[2] == "Play: you gave away 0.8 points against the coach's best, they 2.1."


def test_two_shufflers_are_both_players_three_are_all_three():
    """ "shuffled by all 2 players" read oddly (the walk, issue 43)."""
    for shufflers, en, fr in ((2, "shuffled by both players and",
                               "mélangée par les deux joueurs et"),
                              (3, "shuffled by all 3 players and",
                               "mélangée par les 3 joueurs et")):
        luck = _luck(proven=True)
        luck = Luck(luck.sides[:shufflers], 4, 4.47, "valid", True, True, shufflers, 40, 30,
                    30)
        names = ["amel", "bot1", "bot2"][:shufflers]
        assert any(en in x for x in luck_lines(Translator("en"), luck, names, me=0))
        assert any(fr in x for x in luck_lines(Translator("fr"), luck, names, me=0))
