"""A four-colour deck (issue 43: "an option for a four-colour deck"; fr: jeu quatre
couleurs): each suit its own colour on the table, in the hand and in the replay, chosen
with ``--four-colour`` and remembered in settings.json as the other display choices."""

from __future__ import annotations

import pytest
from prompt_toolkit.styles import Attrs
from support.options import parse_options

from chkobba_cli.support import settings
from chkobba_cli.tui.parts.render import CardStyle, card_row
from chkobba_cli.tui.parts.style import STYLE
from chkobba_p2p.game.cards import card, cards


def _colour(style: str) -> str | None:
    attrs: Attrs = STYLE.get_attrs_for_style_str(style)
    return attrs.color


def _faces(cs: CardStyle, hand: str) -> dict[str, str | None]:
    """Each card's face colour, as card_row draws it."""
    mid = card_row(cards(hand), cs, 80)[1]
    return {text.strip(): _colour(style) for style, text in mid if text.strip() not in
            ("", cs.side)}


def test_four_suits_four_colours_and_two_by_default():
    hand = "7S 7H 7D 7C"
    four = _faces(CardStyle(four_colour=True), hand)
    assert len(set(four.values())) == 4, four
    assert four["7♥"] == "ansired" and four["7♦"] == "ansiblue" and four["7♣"] == "ansigreen"
    two = _faces(CardStyle(), hand)
    assert two["7♥"] == two["7♦"] == "ansired" and two["7♠"] == two["7♣"]


def test_the_four_colours_keep_the_marks_of_a_capture_and_the_selection():
    cs = CardStyle(four_colour=True)
    mid = card_row(cards("7D 3C"), cs, 80, selected=1, marked=frozenset([card("7D")]))[1]
    styles = {text.strip(): style for style, text in mid}
    assert "card.blue" in styles["7♦"] and "card.marked" in styles["7♦"]
    assert "card.selected" in styles["3♣"]  # the selected card reversed, whatever its suit


@pytest.mark.parametrize("command, argv", [("play", []), ("host", []), ("join", ["h:1"]),
                                           ("watch", ["h:1"]), ("replay", ["x.chklog"])])
def test_every_screen_command_takes_the_option(command, argv):
    assert parse_options(command, *argv, "--four-colour").four_colour is True
    assert parse_options(command, *argv, "--no-four-colour").four_colour is False
    assert parse_options(command, *argv).four_colour is None


def test_the_choice_is_remembered_in_the_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path))
    settings.save({"name": "amel", "bell": False})
    assert settings.four_colour_wanted(parse_options("play")) is False  # the default
    assert settings.four_colour_wanted(parse_options("play", "--four-colour")) is True
    saved = settings.load()
    assert saved == {"name": "amel", "bell": False, "four_colour": True}  # others kept
    assert settings.four_colour_wanted(parse_options("play")) is True  # the next run
    assert settings.four_colour_wanted(parse_options("watch", "h:1", "--no-four-colour")) is False
    assert settings.four_colour_wanted(parse_options("replay", "x.chklog")) is False


def test_a_broken_settings_file_means_red_and_black(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"four_colour": "yes"')
    assert settings.four_colour_wanted(parse_options("play")) is False
    (tmp_path / "settings.json").write_text('{"four_colour": "yes"}')
    assert settings.four_colour_wanted(parse_options("play")) is False
