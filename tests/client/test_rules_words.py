"""A table's ruleset in the client's words (cli.words.i18n.ruleset_text), English and French:
the library has none (a :class:`Ruleset` is data)."""

from __future__ import annotations

import pytest

from chkobba_cli.main import main
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


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "1", "--target", "3", "--variant", "primiera"],
    ["arena", "--a", "greedy", "--b", "random", "--games", "1", "--target", "3",
     "--variant", "primiera"],
    ["arena", "--ladder", "greedy,random", "--games", "1", "--target", "3",
     "--variant", "primiera"],
])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_simulate_and_arena_print_the_rules_in_the_readers_words(command, lang, capsys):
    """The rules line of ``chkobba simulate`` and ``chkobba arena`` is the client's, in
    the reader's language (the library has no words for a ruleset)."""
    assert main([*command, "--lang", lang]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    rules = Ruleset.preset("tunisian").with_variant("primiera").with_target(3)
    assert first == ruleset_text(Translator(lang), rules)
    assert "primiera" in first and ("objectif 3" in first if lang == "fr" else
                                    "target 3" in first)
