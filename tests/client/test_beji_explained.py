"""A newcomer meets "beji" (the table's word for a tie in a category) first in a hand's
scoring, where it stood alone ("dinari (♦)  5  5  beji"): the box now says what it
means under the table, when a category is tied (issue 43).  Read off the whole screen
at 80x24 and 120x40, in English and French, at 2 and 4 players."""

from __future__ import annotations

import pytest
from screenshot import screen_rows
from test_tui_four_at_80 import _seated

from chkobba_p2p._shell.peer import HandScored
from chkobba_p2p.game.scoring import HandScore

SAID = {"en": "beji: a tie: nobody scores that point",
        "fr": "beji : égalité : personne ne marque ce point"}




def _box(rows: list[str]) -> list[str]:
    """The inside of the scoring box (found by its title: big cards have corners too)."""
    title, at = next((i, r.find(w)) for i, r in enumerate(rows)
                     for w in ("Hand 1: scoring", "Manche 1 : décompte") if w in r)
    top = title - 1
    left = rows[title].rindex("│", 0, at)
    right = rows[top].index("┐", left)
    out = []
    for r in rows[top + 1:]:
        if r[left] == "└":
            return out
        out.append(r[left + 1:right].strip())
    raise AssertionError("\n".join(rows))


def _scored(players: int, tied: bool) -> HandScored:
    dinari = None if tied else 0
    return HandScored(1, HandScore(players, cards=(22, 18), diamonds=(5, 5) if tied else (6, 4),
                                   sevens=(3, 1), sixes=(2, 2), primiera=None,
                                   chkobbas=(1, 0),
                                   categories={"carta": 0, "dinari": dinari, "barmila": 0,
                                               "haya": 1}),
                      (4, 1) if tied else (5, 1))


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_tied_category_is_explained_in_the_scoring(app_session, size, lang, players):
    names = ("amel", "sami", "bilel", "dora")[:players]
    for tied in (True, False):
        ui = _seated(names, 0, lang, 0)
        ev = _scored(players, tied)
        ui.state = ui.state.apply(ev)
        ui._show_event(ev)
        rows = screen_rows(ui, *size)
        assert all(len(r) <= size[1] for r in rows)
        box = _box(rows)
        flat = " ".join(" ".join(box).split())
        assert any(r.endswith("beji") for r in box) == tied, box
        # Said once, whole, under the table and before the keys; only when a point
        # is tied.
        assert (SAID[lang] in flat) == tied, box
        if tied:
            assert flat.index(SAID[lang]) > flat.index("beji "), box
