"""The mouse at the table (issue 43: "click a card to play it and a table card to choose
a capture, with the keys unchanged"): clicks at the positions the real render puts the
cards (:mod:`screenshot`), at 80x24 and 120x40, in English and French, at 2 and 4
players, through the handlers prompt_toolkit's layout lays on the screen.  A click goes
the keys' way (:func:`chkobba_cli.tui.keys.click`): the same move, the same refusal."""

from __future__ import annotations

import dataclasses

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from screenshot import click, find, screen_rows
from support.options import parse_options

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.decision import Request
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import DECK, card, cards
from chkobba_p2p.transcript import events as S

SIZES = [(24, 80), (40, 120)]
NAMES = {2: ("amel", "sami"), 4: ("amel", "sami", "hana", "bob")}



def _hand(players: int, rules: R.Ruleset, table: str = "7H 3D 9H 1C 5S",
          mine: str = "8D 2C 3H") -> R.Hand:
    hands = [cards(x) for x in (mine, "9S 9C 4S", "1S 2S 6C", "4C 5C 6S")][:players]
    laid = cards(table)
    placed = {c for h in hands for c in h} | set(laid)
    rest = [c for c in DECK if c not in placed]
    stock = 12
    taken = rest[:len(rest) - stock]
    return R.Hand.from_position(rules, players, dealer=players - 1, hands=hands,
                                table=laid, turn=0, stock=stock,
                                piles=[taken[i::players] for i in range(players)])


def _asked(lang: str, players: int = 2, rules: R.Ruleset | None = None,
           **position: str) -> tuple[TuiApp, list[object]]:
    """Seat 0 at a hand where it is to play (Q♦ = 8♦ takes 7♥+A♣ or 5♠+3♦; 2♣ takes
    nothing; 3♥ takes 3♦), and what it answers."""
    hand = _hand(players, rules or R.Ruleset(), **position)
    ui = TuiApp(kind="join", lang=lang, seat=0, rules=hand.ruleset, players=players,
                turn_timeout=60)
    ids = tuple((n, f"{i:04x}-0000-0000-0000") for i, n in enumerate(NAMES[players]))
    ui.state = ui.state.apply(Lobby(ids)).apply(S.HandStarted(1, players - 1)) \
        .sync(hand.view(0))
    answers: list[object] = []
    ui.request = Request("play", hand.view(0), answers.append)
    ui.app.timeoutlen = None
    return ui, answers


def _card_at(rows: list[str], title: str, n: int) -> tuple[int, int]:
    """Where the ``n``-th card (from 0) under the title ``title`` is drawn: inside its
    box (boxes, large or small), or on its chip ``[Q♦]`` (a short screen)."""
    x, y = find(rows, f" {title}")
    for row in range(y, min(y + 3, len(rows))):
        line = rows[row]
        if "┌" in line:
            starts = [i for i, ch in enumerate(line) if ch == "┌"]
            return starts[n] + 1, row + 1
        if "[" in line[x:]:
            starts = [i for i, ch in enumerate(line) if ch == "["]
            return starts[n] + 1, row
    raise AssertionError("\n".join(rows))


def _click_card(ui: TuiApp, size: tuple[int, int], where: str, n: int) -> object:
    t = Translator(ui.t.lang)
    rows = screen_rows(ui, *size)
    x, y = _card_at(rows, t("your_hand") if where == "hand" else t("table"), n)
    return click(ui, x, y, *size)


def press(ui: TuiApp, key: str) -> None:
    with set_app(ui.app):
        ui.app.key_processor.feed(KeyPress(key, key if len(key) == 1 else ""))
        ui.app.key_processor.process_keys()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_click_on_a_hand_card_that_takes_one_way_plays_it(app_session, size, lang,
                                                            players):
    ui, answers = _asked(lang, players)
    assert _click_card(ui, size, "hand", 2) is None  # 3♥: the click was taken
    assert answers == [R.Move(card("3H"), frozenset(cards("3D")))]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_card_that_takes_two_ways_then_a_table_card_picks_the_capture(app_session, size,
                                                                       lang):
    ui, answers = _asked(lang)
    _click_card(ui, size, "hand", 0)  # Q♦ (8): 7♥+A♣ or 5♠+3♦, asked as its digit asks
    assert answers == [] and ui.options is not None and len(ui.options) == 2
    text = "\n".join(screen_rows(ui, *size))
    assert "A♣ + 7♥" in text and "3♦ + 5♠" in text
    _click_card(ui, size, "table", 4)  # 5♠: in the second capture only
    assert answers == [R.Move(card("8D"), frozenset(cards("5S 3D")))]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_card_that_cannot_be_played_is_refused_as_its_key_refuses_it(app_session, size,
                                                                      lang):
    forced = dataclasses.replace(R.Ruleset(), forced_capture=True)
    by_key, _ = _asked(lang, rules=forced)
    press(by_key, "2")  # 2♣ takes nothing while the others can: refused
    by_click, answers = _asked(lang, rules=forced)
    _click_card(by_click, size, "hand", 1)
    assert answers == [] and by_click.request is not None
    assert by_click.status is not None and by_click.status == by_key.status
    rows = screen_rows(by_click, *size)
    assert find(rows, by_key.status[1][:30])  # said on screen, in the key's words


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_table_card_first_says_to_pick_a_hand_card_and_plays_nothing(app_session, lang):
    ui, answers = _asked(lang)
    _click_card(ui, (24, 80), "table", 0)
    assert answers == [] and ui.options is None
    assert ui.hint == Translator(lang)("ms_hand_first")
    assert ui.hint in "\n".join(screen_rows(ui, 24, 80))  # the footer says it


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_click_when_no_card_is_asked_says_why_as_a_digit_does(app_session, lang):
    ui, answers = _asked(lang)
    ui.request = None  # another seat's turn: nothing asked of us
    ui.state = dataclasses.replace(ui.state, turn=1)
    press(ui, "1")
    by_key, ui.hint = ui.hint, None
    assert by_key == Translator(lang)("hint_not_turn", name="sami")
    _click_card(ui, (24, 80), "hand", 0)
    assert ui.hint == by_key and answers == []


def test_a_click_on_a_listed_capture_or_on_the_card_again_plays_it(app_session):
    ui, answers = _asked("en")
    size = (24, 80)
    _click_card(ui, size, "hand", 0)
    rows = screen_rows(ui, *size)
    x, y = find(rows, "2) ")  # the second capture listed under the hand
    click(ui, x + 3, y, *size)
    assert answers == [R.Move(card("8D"), frozenset(cards("5S 3D")))]
    ui, answers = _asked("en")
    _click_card(ui, size, "hand", 0)
    press(ui, Keys.Down)  # the keys still move the mark while the mouse is on
    _click_card(ui, size, "hand", 0)  # the card being played: the marked capture
    assert answers == [R.Move(card("8D"), frozenset(cards("5S 3D")))]


def test_a_table_card_in_several_captures_moves_the_mark_to_the_next(app_session):
    # A 7 on A♣ 2♥ 4♦ 3♥ 5♦: 2+5, 3+4, A+2+4; the 4 is in two of them.
    ui, answers = _asked("en", table="1C 2H 4D 3H 5D", mine="7S 2C 9H")
    _click_card(ui, (24, 80), "hand", 0)
    assert ui.options is not None
    takes_four = [i for i, m in enumerate(ui.options) if card("4D") in m.capture]
    assert len(takes_four) == 2
    _click_card(ui, (24, 80), "table", 2)  # 4♦
    assert answers == [] and ui.opt_sel == takes_four[0 if takes_four[0] > 0 else 1]
    assert ui.hint == Translator("en")("ms_several", n=2)
    first = ui.opt_sel
    _click_card(ui, (24, 80), "table", 2)  # again: the other capture with the 4
    assert ui.opt_sel in takes_four and ui.opt_sel != first
    _click_card(ui, (24, 80), "table", 0)  # A♣ with the mark on a capture of the 4
    assert len(answers) == 1 and card("1C") in answers[0].capture  # type: ignore[attr-defined]


def test_the_cut_card_is_kept_or_placed_by_a_click(app_session):
    for word, keep in (("[k]eep it", True), ("[p]lace it", False)):
        ui, answers = _asked("en")
        hand = ui.request.hand  # type: ignore[union-attr]
        ui.request = Request("cut", hand, answers.append)
        ui.state = dataclasses.replace(ui.state, cutting=True, drawn=card("8D"))
        rows = screen_rows(ui, 24, 80)
        x, y = find(rows, word)
        click(ui, x + 1, y, 24, 80)
        assert answers == [keep]


def test_the_mouse_is_the_tables_only_while_a_game_is_on_screen(app_session):
    """Elsewhere the terminal keeps it: the lobby's keys and the end screen's path are
    selected and copied with it."""
    ui, _ = _asked("en")
    on = ui.app.mouse_support
    assert on()
    for change in ({"help": True}, {"sheet": True}, {"confirm_leave": True}):
        for name, value in change.items():
            setattr(ui, name, value)
        assert not on(), change
        for name in change:
            setattr(ui, name, False)
    assert on()
    ui.finished = True
    assert not on()
    lobby = TuiApp(kind="join", lang="en", seat=1, rules=R.Ruleset(), players=2)
    assert not lobby.app.mouse_support()
    # Off, a click does nothing: the table's cards take no click in the lobby.
    rows = screen_rows(lobby, 24, 80)
    assert click(lobby, 1, len(rows) // 2, 24, 80) is NotImplemented


@pytest.mark.parametrize("command, argv", [("play", []), ("host", []), ("join", ["h:1"])])
def test_no_mouse_is_an_option_of_every_table_a_player_clicks(command, argv):
    assert parse_options(command, *argv, "--no-mouse").mouse is False
    assert parse_options(command, *argv, "--mouse").mouse is True
    assert parse_options(command, *argv).mouse is None


def test_no_mouse_is_remembered_in_the_settings_until_mouse(tmp_path, monkeypatch):
    from chkobba_cli.support import settings

    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path))
    settings.save({"name": "amel", "four_colour": True})
    assert settings.mouse_wanted(parse_options("play")) is True  # the default
    assert settings.mouse_wanted(parse_options("host", "--no-mouse")) is False
    assert settings.load() == {"name": "amel", "four_colour": True, "mouse": False}
    assert settings.mouse_wanted(parse_options("join", "h:1")) is False  # the next run
    assert settings.mouse_wanted(parse_options("play", "--mouse")) is True
    assert settings.mouse_wanted(parse_options("play")) is True
    (tmp_path / "settings.json").write_text('{"mouse": "no"}')  # not a choice: the default
    assert settings.mouse_wanted(parse_options("play")) is True


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, clicks", [("en", "(or click them)"), ("fr", "(ou cliquez-les)")])
@pytest.mark.parametrize("players", [2, 4])
def test_with_no_mouse_the_terminal_keeps_its_selection_during_play(
        app_session, tmp_path, monkeypatch, size, lang, clicks, players):
    """--no-mouse: the table takes no click (the terminal selects and copies text during
    play too), the keys play as before, and the help offers no clicks."""
    from chkobba_cli.support.player import screen_app

    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path / "data"))
    args = parse_options("join", "h:1", "--no-mouse", "--lang", lang)
    ui = screen_app(args, "join", seat=0, players=players, turn_timeout=60)
    assert ui.mouse is False
    mine, answers = _asked(lang, players)
    ui.state, ui.request = mine.state, Request("play", mine.request.hand,
                                               answers.append)
    ui.app.timeoutlen = None
    assert not ui.app.mouse_support()  # a game on screen, no dialog: still the terminal's
    assert _click_card(ui, size, "hand", 2) is NotImplemented and answers == []
    press(ui, "3")  # the keys are unchanged: 3♥ takes 3♦
    assert answers == [R.Move(card("3H"), frozenset(cards("3D")))]
    ui.help = True
    text = "\n".join(screen_rows(ui, *size))
    assert Translator(lang)("help_k_play_keys").split(";")[0] in " ".join(text.split())
    assert clicks not in text and "click" not in text, text
    # With the mouse (the default), the same help offers the clicks.
    mine.help = True
    assert clicks in " ".join(" ".join(screen_rows(mine, *size)).split()).replace("│ ", "")
