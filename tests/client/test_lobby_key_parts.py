"""Seen on a walk of a 4-player network game at 80x24 (issue 43): a bot's seat in the
lobby read "key ee7f-03d7-6c28-227a · the greedy bot's" then "key" alone on the next
row, as if a second key.  A seat's key line breaks between its parts, not inside one.
Read off the whole screen at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import pytest
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.rating import _bot_keys

FP = "bed5-5da6-1bf5-b8fd"
WORDS = {"en": ("key {fp}", "{level} bot"),
         "fr": ("clé {fp}", "robot {level}")}



@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_bots_key_line_breaks_between_its_parts(app_session, size, lang):
    key_w, bot_w = WORDS[lang]
    bots = {level: key for key, level in _bot_keys().items()}
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=4,
                address="127.0.0.1", my_fingerprint=FP)
    ui.port = 17843
    seats = (("amel", FP), ("bot2", "ee7f-03d7-6c28-227a"), ("bot1", "182a-8139-8b47-6cca"),
             None)
    ui._show_event(Lobby(seats, keys=(bytes(32), bots["greedy"], bots["heuristic"], None)))
    rows = [r.split("│")[0] for r in screen_rows(ui, *size)]
    text = "\n".join(rows)
    # (A level in the reader's words: "gourmand" in French, test_french_slips.py.)
    for fp, level in (("ee7f-03d7-6c28-227a", "greedy"), ("182a-8139-8b47-6cca", "heuristic")):
        at = next(i for i, r in enumerate(rows) if key_w.format(fp=fp) in r)
        said = bot_w.format(level=ui.t.level(level))
        # On the key's row, or whole on the next one (never cut between two rows).
        assert said in rows[at] or said in rows[at + 1], text
