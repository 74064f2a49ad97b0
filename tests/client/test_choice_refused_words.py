"""A refused choice (``ChoiceRefused``) reaches the player as data, worded by the client
in the player's language: the events panel and a headless peer's line say why (the rule
broken, or the misuse by its code), never the library's English (it was
``ChoiceRefused(reason=str(exc))``, shown nowhere)."""

from __future__ import annotations

import pytest

from chkobba_cli.outputs.headless import Narrator
from chkobba_cli.tui.model.view import TableView, card_style
from chkobba_cli.tui.parts.narration import EventLog
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import ChoiceRefused
from chkobba_p2p.game.cards import card
from chkobba_p2p.tablestate import TableState

RULE = ChoiceRefused(rule="capture_required")
MISUSE = ChoiceRefused(family="transcript_misuse", code="card_not_held",
                       data=(("card", card("8H").id),))
UNWORDED = ChoiceRefused(family="somebody_elses", code="odd")


@pytest.mark.parametrize("lang, event, said", [
    ("en", RULE, "choice refused (illegal move: a card that can capture must capture): "
                 "choose again"),
    ("fr", RULE, "choix refusé (coup interdit : une carte qui peut prendre doit prendre) : "
                 "choisissez de nouveau"),
    ("en", MISUSE, "choice refused (Q♥ is not in this seat's hand): choose again"),
    ("fr", MISUSE, "choix refusé (D♥ n'est pas dans la main de cette place) : choisissez de "
                   "nouveau"),
    ("fr", UNWORDED, "choix refusé (un choix que ce programme a mal fait) : choisissez de "
                     "nouveau"),
])
def test_the_events_panel_says_why_a_choice_was_refused(lang, event, said):
    st = TableState(seat=1).with_players(2)
    pane = EventLog()
    pane.narrate(event, TableView(st, Translator(lang), card_style(st, None, True)))
    [line] = pane.lines
    assert line[0][0] == "class:warn" and line_text(line) == said


def test_a_headless_peer_says_it_in_english(capsys):
    Narrator(quiet=True).on_event(RULE)
    assert capsys.readouterr().out.strip().endswith(
        "choice refused (illegal move: a card that can capture must capture): choose again")
