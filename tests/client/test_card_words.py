"""A card's full name is the client's words (the library speaks card ids and labels):
both languages, both figure conventions, every card named once and differently."""

from __future__ import annotations

import pytest

from chkobba_cli.words.i18n import Translator, card_name
from chkobba_p2p.game.cards import DECK, FigureConvention, card

EN, FR = Translator("en"), Translator("fr")
TUNISIAN, FRENCH = FigureConvention.TUNISIAN, FigureConvention.FRENCH


@pytest.mark.parametrize(("text", "figures", "en", "fr"), [
    ("1S", TUNISIAN, "Ace of spades", "As de pique"),
    ("7D", TUNISIAN, "7 of diamonds", "7 de carreau"),
    # The figures follow the table's convention: a Tunisian deck counts the Queen 8 and
    # the Jack 9, a French one the Jack 8 and the Queen 9.
    ("8H", TUNISIAN, "Queen of hearts", "Dame de cœur"),
    ("9H", TUNISIAN, "Jack of hearts", "Valet de cœur"),
    ("8H", FRENCH, "Jack of hearts", "Valet de cœur"),
    ("9C", FRENCH, "Queen of clubs", "Dame de trèfle"),
    ("10C", TUNISIAN, "King of clubs", "Roi de trèfle"),
])
def test_a_card_is_named_in_the_readers_language(text, figures, en, fr):
    assert card_name(EN, card(text), figures) == en
    assert card_name(FR, card(text), figures) == fr


@pytest.mark.parametrize("t", [EN, FR])
@pytest.mark.parametrize("figures", [TUNISIAN, FRENCH])
def test_every_card_has_its_own_name(t, figures):
    names = {card_name(t, c, figures) for c in DECK}
    assert len(names) == 40
