"""One word for each unit of the game (issue 43, the newcomer walk at 9c55980): the
records said "you vs sami: 5 games, you 3–2" beside "every counted match", and a reader
took a game for a hand.  A match ("partie") is the whole, to the target; a hand
("manche") one deal played out (RULES.md; the catalog's opening comment).  The counts of
matches in the lobby, at the end and in history say "match"/"partie".  Read off the
lobby's seats as drawn at 80x24 and 120x40, in English and French, at 2, 3 and 4
players, and off the catalog for history's lines."""

from __future__ import annotations

import re

import pytest
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.parts.trust import seat_lines
from chkobba_cli.words.i18n import MESSAGES, Translator
from chkobba_p2p.observe.history import Record

#: Every line that counts matches: the lobby's and end screen's record, history's.
COUNTS = ("record_vs", "record_vs_1", "record_none", "record_none_3", "hi_record",
          "hi_record_1", "hi_none_yet", "hi_total", "hi_total_1", "hi_total_c1", "hi_games",
          "hi_games_1", "hi_no_ratings", "over_records", "over_records_reading",
          "hi_disputes_head", "hi_won_left", "hi_won_left_by", "hi_left")


@pytest.mark.parametrize("key", COUNTS)
def test_a_count_of_matches_says_match_and_partie(key):
    en, fr = MESSAGES[key]
    assert re.search(r"\bmatch(es)?\b", en) and not re.search(r"\bgames?\b", en), en
    assert re.search(r"\bparties?\b", fr) and not re.search(r"\bmanches?\b|\bmatch", fr), fr


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, one, many", [("en", "1 match, you 1–0", "5 matches, you 3–2"),
                                             ("fr", "1 partie, vous 1–0",
                                              "5 parties, vous 3–2")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lobbys_record_counts_matches(app_session, size, lang, one, many, players):
    from test_lobby_fits_24 import FP, _lobby

    ui = TuiApp(kind="host", lang=lang, seat=0, players=players, address="10.0.0.2",
                my_fingerprint=FP)
    ui.port = 7452
    ui._show_event(_lobby(players, 0))
    screen_rows(ui, *size)  # (the size the lobby's width comes from)
    records = {1: Record(1, 1, 0), 2: Record(5, 3, 2)}
    rows = [line_text(x) for x in seat_lines(
        ui.state, Translator(lang), None, ui._left_width() - 1, True,
        lambda key: records.get(key[0] - 1))]
    text = " ".join(" ".join(rows).split())
    assert one in text and (many in text) == (players > 2), rows
    assert not re.search(r"\bgames?\b|\bmanches?\b", text), rows
