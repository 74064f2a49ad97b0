"""French slips the newcomer walk at 9c55980 read (issue 43): a bot's level named in
English ("la clé du robot greedy"), a number below two with a plural unit ("valait 0,94
points de plus"), and a ready mark agreed with nobody ("alice pas prêt").  Now a level
is said in the reader's words (the option values of --bots stay English), a number of
points takes its unit through one helper (Translator.points: French below two in the
singular), and the lobby says what a person did ("n'a pas encore confirmé", "a
confirmé"), whatever their gender.  Read off the lobby as drawn at 80x24 and 120x40 at
2, 3 and 4 players, and off the coach's and history's lines, in English and French."""

from __future__ import annotations

import pytest
from screenshot import screen_rows
from test_coach_words import _grade

from chkobba_cli.commands.history import who
from chkobba_cli.tui.app import TuiApp
from chkobba_cli.words.coach import grade_line
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.history import Seat
from chkobba_p2p.observe.rating import _bot_keys

FP = "bed5-5da6-1bf5-b8fd"
LEVELS = {"en": {"greedy": "greedy", "heuristic": "heuristic", "random": "random",
                 "expert": "expert"},
          "fr": {"greedy": "gourmand", "heuristic": "tacticien", "random": "aléatoire",
                 "expert": "expert"}}
READY = {"en": ("✓ ready", "not ready"), "fr": ("✓ a confirmé", "n'a pas encore confirmé")}


def _flat(rows: list[str]) -> str:
    return " ".join(" ".join(r.split("│")[0] for r in rows).split())


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lobby_names_bot_levels_and_readiness_in_the_readers_words(
        app_session, size, lang, players):
    bots = {level: key for key, level in _bot_keys().items()}
    levels = ["greedy", "heuristic", "expert"][:players - 1]
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=players,
                address="127.0.0.1", my_fingerprint=FP)
    ui.port = 17843
    seats = (("amel", FP), *((f"bot{i + 1}", f"{i:04x}-1111-2222-3333")
                             for i in range(players - 1)))
    ready = (False, *(i % 2 == 0 for i in range(players - 1)))
    ui._show_event(Lobby(seats, keys=(bytes(32), *(bots[lv] for lv in levels)),
                         ready=ready))
    rows = screen_rows(ui, *size)
    flat = _flat(rows)
    said = {"en": "{level} bot", "fr": "robot {level}"}[lang]
    for level in levels:
        assert said.format(level=LEVELS[lang][level]) in flat, "\n".join(rows)
    if lang == "fr":
        assert not any(lv in flat for lv in ("greedy", "heuristic")), flat
        assert "prêt" not in flat, flat  # no adjective to agree with a person
    yes, no = READY[lang]
    assert flat.count(yes) == sum(ready), flat
    assert flat.count(no) == len(ready) - sum(ready), flat


@pytest.mark.parametrize("lang, cases", [
    ("fr", [(0.94, "0,94 point"), (1.5, "1,50 point"), (1.999, "2,00 points"),
            (2.5, "2,50 points"), (0.0, "0,00 point")]),
    ("en", [(0.94, "0.94 points"), (1.0, "1.00 points"), (2.5, "2.50 points")])])
def test_a_number_of_points_agrees_in_each_language(lang, cases):
    t = Translator(lang)
    for value, said in cases:
        assert t.points(value) == said
    assert Translator("en").points(1, 0) == "1 point"
    assert Translator("fr").points(1.4, 1) == "1,4 point"


@pytest.mark.parametrize("lang, loss, said", [
    ("fr", 0.94, "valait 0,94 point de plus"), ("fr", 2.31, "valait 2,31 points de plus"),
    ("en", 0.94, "was worth 0.94 points more"), ("en", 2.31, "was worth 2.31 points more")])
def test_the_coachs_line_says_the_loss_with_its_unit_agreed(lang, loss, said):
    g = _grade("mistake", loss, best={"card": "5S", "capture": []})
    line = grade_line(g, "bob", str, Translator(lang))
    assert said in line, line


@pytest.mark.parametrize("lang, level, said", [
    ("fr", "greedy", "robot gourmand"), ("fr", "heuristic", "robot tacticien"),
    ("fr", "random", "robot aléatoire"), ("en", "greedy", "bot greedy")])
def test_history_names_a_bots_level_in_the_readers_words(lang, level, said):
    seat = Seat("bot1", bytes(32), level)
    assert said in who(seat, Translator(lang))


def test_the_score_sheet_has_one_french_name():
    """walk6: the table, its help and its keys say "feuille de marque"; `chkobba replay`
    printed "feuille de score :" over the same sheet."""
    from chkobba_cli.words.i18n import MESSAGES

    french = [fr for _, fr in MESSAGES.values() if isinstance(fr, str)]
    assert any("feuille de marque" in fr.lower() for fr in french)
    assert not [fr for fr in french if "feuille de score" in fr.lower()]


@pytest.mark.parametrize("lang, n, said", [
    ("fr", 0, "0 erreur, 0 gaffe"), ("fr", 1, "1 erreur, 1 gaffe"),
    ("fr", 3, "3 erreurs, 3 gaffes"), ("en", 0, "0 mistakes, 0 blunders"),
    ("en", 1, "1 mistake, 1 blunder")])
def test_the_coachs_summary_agrees_its_counts(lang, n, said):
    """walk6 (replay --review, fr): "robby : 49 décisions, …, 0 erreurs, 1 gaffe": French
    says zero in the singular."""
    from chkobba_cli.words.coach import summary_line
    from chkobba_p2p.observe.review import SeatSummary

    line = summary_line(SeatSummary(2, 49, 0.052, n, n, 98.0), "robby", Translator(lang))
    assert said in line, line


@pytest.mark.parametrize("lang, said, wrong", [
    ("fr", "pris par vous : 0 carte", "0 cartes"), ("en", "you captured: 0 cards", "0 card ")])
def test_no_capture_yet_is_said_in_the_singular_in_french(app_session, lang, said, wrong):
    """walk6 (fr, the table and replay's hand lines): "pris par vous : 0 cartes",
    "bob : 10 cartes, 2 carreaux, 2 sept, 0 six"; French counts zero in the singular."""
    from chkobba_cli.outputs.replay_text import _count
    from chkobba_p2p.transcript.events import HandStarted

    ui = TuiApp(kind="play", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    names = (("amel", FP), ("bot1", "0001-1111-2222-3333"))
    ui.state = ui.state.apply(Lobby(names)).apply(HandStarted(1, 1))
    text = "\n".join(screen_rows(ui, 24, 80))
    assert said in text and wrong not in text, text
    t = Translator(lang)
    zero = {"fr": ("0 carte", "0 sept"), "en": ("0 cards", "0 sevens")}[lang]
    assert (_count(t, 0, "cards"), _count(t, 0, "sevens")) == zero
    assert _count(t, 1, "cards") == {"fr": "1 carte", "en": "1 card"}[lang]
    assert _count(t, 2, "cards") == {"fr": "2 cartes", "en": "2 cards"}[lang]
