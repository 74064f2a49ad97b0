"""At 4 players the line under the seats ("turn: …", "dealer: …") names a seat as the
seats' picture does: when the picture cuts the names ("Khadija Tra…"), "turn: Khadija
Trabelsi" under it read as someone else; whole names stay whole in both.  And the line
breaks between its items, never between "dealer:" and its name.  Read off the screen as
drawn, at 80x24 and 120x40, in English and French (issue 43)."""

from __future__ import annotations

import re

import pytest
from screenshot import screen_rows
from test_tui_four_at_80 import NAMES, _seated

WORDS = {"en": ("you", "turn: ", "dealer: "), "fr": ("vous", "à jouer : ", "donneur : ")}



@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", NAMES)
def test_the_turn_and_dealer_name_a_seat_as_the_picture_does(app_session, size, lang, names):
    you, turn_w, dealer_w = WORDS[lang]
    cut_somewhere = False
    for seat in range(4):
        for turn in range(4):
            ui = _seated(names, seat, lang, turn)
            rows = [r.split("│")[0] for r in screen_rows(ui, *size)]
            text = "\n".join(rows)
            order = next(r for r in rows if f"{you} → " in r)
            ring = [x.strip() for x in order.split("→")]
            ring[-1] = re.sub(rf"\s*→\s*{you}$", "", ring[-1])
            # How the picture names each seat, from ours: us, right, across, left.
            shown = {(seat + k) % 4: ring[k].split(" → ")[0] for k in range(4)}
            cut_somewhere |= any(x.endswith("…") for x in shown.values())
            line = next((r for r in rows if turn_w in r), None)
            assert line is not None, text
            said = line.split(turn_w, 1)[1].split(" · ")[0].strip()
            want = you if turn == seat else shown[turn]
            assert said == want, (said, want, text)
            # The dealer (seat 3) sits on our left or right at seats 0 and 2: said
            # under the seats, its label and its name on one row.
            if seat in (0, 2):
                at = next((r for r in rows if dealer_w in r), None)
                assert at is not None, text
                assert at.split(dealer_w, 1)[1].split(" · ")[0].strip() == shown[3], text
    if size[1] == 80 and len(max(names, key=len)) > 16:
        assert cut_somewhere  # the case the test is for does happen
