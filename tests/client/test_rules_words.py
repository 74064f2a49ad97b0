"""A table's ruleset in the client's words (cli.i18n.ruleset_text), English and French:
the library speaks only English, for developers."""

from __future__ import annotations

from chkobba_cli.words.i18n import Translator, ruleset_name, ruleset_text
from chkobba_p2p.game.ruleset import PRESETS, Ruleset

EN, FR = Translator("en"), Translator("fr")


def test_preset_names_are_translated():
    assert ruleset_text(FR, Ruleset()).startswith("tunisienne : objectif 11")
    assert ruleset_text(EN, Ruleset()).startswith("tunisian: target 11")
    assert ruleset_name(FR, Ruleset().with_variant("plain")) == "tunisienne modifiée"
    assert ruleset_name(EN, Ruleset().with_variant("plain")) == "tunisian+plain"


def test_rules_are_described_in_english_and_french():
    cardavia = PRESETS["cardavia"]
    assert ruleset_text(EN, cardavia) == ("cardavia: target 11, plain deal, redeal on 3 kings, "
                                          "primiera, forced capture, Jack=8 Queen=9")
    assert ruleset_text(FR, cardavia) == ("cardavia : objectif 11, donne simple, on redonne sur "
                                          "3 rois, primiera, prise obligatoire, Valet=8 Dame=9")
    assert "coupe et tirage" in ruleset_text(FR, PRESETS["tunisian"])


def test_the_english_words_are_the_librarys_line():
    # Logs and scripts that read the library's English line see the client's English.
    for rules in PRESETS.values():
        assert ruleset_text(EN, rules) == rules.describe()
