"""Seen on a walk of a 4-player network game at 80x24 (issue 43): while a card that can
take several ways waits for its capture, the French footer was 82 columns and lost its
end at the screen's edge ("… ? aide · q q"), and the hand drawn small over the choice
read "Votre main: 1 [6♥]" (French sets a space before a colon).  Read off the whole
screen at 80x24 and 120x40, in English and French, with 2 and with 9 ways to take."""

from __future__ import annotations

import pytest
from screenshot import screen_rows
from test_tui_screen import _position, _ui

from chkobba_cli.tui.screen import fit_keys
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import DECK, cards

WORDS = {"en": ("1-2 or ↑↓ Enter: take", "q leave", "Your hand:"),
         "fr": ("1-2 ou ↑↓ Entrée : prendre", "q quitter", "Votre main :")}



def _many_ways() -> R.Hand:
    """Seat 0 of 4 to play a 7 that takes four ways (A+6, 2+5, 3+4, A+2+4): the list
    of captures leaves no room for the hand's boxes at 80x24."""
    hands = [cards(x) for x in ("7D 2C", "9S 9C", "1S 2H", "4C 5D")]
    table = cards("1C 6H 2S 5C 3D 4H")
    placed = {c for h in hands for c in h} | set(table)
    rest = [c for c in DECK if c not in placed]
    taken = rest[:len(rest) - 12]
    return R.Hand.from_position(R.Ruleset(), 4, dealer=3, hands=hands, table=table, turn=0,
                                stock=12, piles=[taken[i::4] for i in range(4)]).view(0)


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ways", [2, 4])
def test_the_capture_choice_footer_is_whole_and_the_hand_label_typeset(app_session, size,
                                                                       lang, ways):
    first, leave, hand = WORDS[lang]
    ui, _ = _ui(_position(R.Ruleset()) if ways == 2 else _many_ways(), lang)
    ui.choose_card(0)  # the Queen: 7+1 or 5+3; the 7: four ways
    assert ui.options is not None and len(ui.options) == ways
    rows = screen_rows(ui, *size)
    foot = rows[-1].strip()
    assert len(rows[-1]) <= size[1]
    assert foot.startswith(first.replace("1-2", f"1-{ways}")) and foot.endswith(leave), foot
    text = "\n".join(rows)
    if ways == 4 and size == (24, 80):  # the hand drawn small: "Votre main : 1 [7♦] …"
        assert f"{hand} 1 [" in text, text
    wrong = "Votre main:" if lang == "fr" else "Your hand :"
    assert wrong not in text, text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_footer_keeps_its_first_and_last_keys_at_80_columns(lang):
    t = Translator(lang)
    for n in (2, 9):
        said = t("keys_options", n=n)
        fitted = fit_keys(said, 78)
        assert len(fitted) <= 78 and fitted.split(" · ")[0] == said.split(" · ")[0]
        assert fitted.endswith(said.split(" · ")[-1]), fitted
        assert fit_keys(said, 200) == said  # room enough: every key said
