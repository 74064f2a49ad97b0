"""walk6 (fr, solo play at 80x24): h turned the hints on and the footer said "conseils
activés : ce que prendrait chaque carte s'affiche sous votre main (h :" and stopped at the
edge: the key to turn them off was lost.  A notice longer than the footer's row takes a
second row, broken between words; the keys' row is one row as before.  Read off the whole
screen at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import pytest
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p.game import rules as R


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang,key", [("en", "hints_on"), ("fr", "hints_on"),
                                      ("fr", "ms_not_in"), ("en", "ms_several")])
def test_a_long_notice_is_said_whole_in_the_footer(app_session, size, lang, key):
    ui = TuiApp(kind="play", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    said = ui.t(key, n=2)
    ui.hint = said
    rows = screen_rows(ui, *size)
    assert len(rows) == size[0]
    # Its rows, at the bottom, are the notice whole, each broken between two words.
    assert any(" ".join(r.strip() for r in rows[-k:]) == said for k in (1, 2, 3)), \
        "\n".join(rows)
    assert all(len(r) <= size[1] for r in rows)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_footer_is_one_row_without_a_notice(app_session, lang):
    ui = TuiApp(kind="play", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    rows = screen_rows(ui, 24, 80)
    ui.hint = ui.t("hints_off")
    short = screen_rows(ui, 24, 80)
    assert short[-1].strip() == ui.t("hints_off")
    assert short[:-1] == rows[:-1]  # the screen above it did not move
