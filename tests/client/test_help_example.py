"""Help that teaches (issue 43): the help's worked example of a hand's scoring (carta,
dinari, barmila, haya, chkobbas for two sides, and the total), read off the screen at
80x24 and 120x40 in English and French, on a page of the help (←→ turns to it), every
row inside the box; and its numbers are the rules' own: the piles below are scored by
:func:`chkobba_p2p.game.scoring.score_piles` under the default ruleset, so a change to
the rules or to the text breaks this test."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.screens.helpscreen import EXAMPLE_ROWS
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import Card, Suit, cards
from chkobba_p2p.game.scoring import score_piles

# The example's hand: "them" took the sevens of hearts and clubs, three sixes (6♦ one of
# them), three more diamonds, and cards of no count up to 18; "you" the other 22, with
# the 7♦ (the haya) and the 7♠; chkobbas 1 and 2.
_THEIRS = list(cards("7H 7C 6H 6C 6D 1D 2D 3D"))
_THEIRS += [c for c in map(Card, range(40)) if c.suit is not Suit.DIAMONDS
            and c.value not in (6, 7)][:18 - len(_THEIRS)]
PILES = ([c for c in map(Card, range(40)) if c not in _THEIRS], _THEIRS)
CHKOBBAS = (1, 2)


def _press(ui: TuiApp, key: str) -> None:
    with set_app(ui.app):
        ui.app.key_processor.feed(KeyPress(key, key if len(key) == 1 else ""))
        ui.app.key_processor.process_keys()


def _example_rows(lang: str, size: tuple[int, int]) -> list[str]:
    """The rows of the help's page that holds the example, as drawn inside the box."""
    ui = TuiApp(kind="join", lang=lang, seat=1, rules=R.Ruleset(), players=2)
    ui.state = ui.state.apply(Lobby((("amel", "0000-0000-0000-0000"),
                                     ("sami", "0001-0000-0000-0000"))))
    ui.app.timeoutlen = None
    ui.size = size
    _press(ui, "?")
    title = Translator(lang)("help_example")
    for _ in range(len(ui._help_pages())):
        rows = screen_rows(ui, *size)
        assert all(len(r) <= size[1] for r in rows)
        box = [r[r.index("│") + 1:r.rindex("│")].rstrip() for r in rows[1:-1]
               if r.count("│") >= 2]
        assert any("┘" in r for r in rows[1:-1]), "\n".join(rows)  # the whole box drawn
        if any(title in r for r in box):
            return box
        _press(ui, Keys.Right)
    raise AssertionError(f"no page of the help at {size} holds {title!r}")


def _numbers(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", cell)]


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_help_scores_one_hand_and_its_numbers_add_up(app_session, lang, size):
    t = Translator(lang)
    rows = _example_rows(lang, size)
    cells = {key: t(key).split("|") for key in EXAMPLE_ROWS}
    # Each row is one line of the box, its cells in order and aligned in columns.
    starts = set()
    for key in EXAMPLE_ROWS:
        line = next((r for r in rows if all(c in r for c in cells[key])
                     and r.strip().startswith(cells[key][0] or cells[key][1])), None)
        assert line is not None, (key, rows)
        starts.add(line.index(cells[key][3]))
    assert len(starts) == 1, starts  # the points column is one column

    score = score_piles(PILES, CHKOBBAS, R.Ruleset(), 2)
    sides = cells["help_ex_head"][1:3]  # "you", "them" in the text's words

    def points(cell: str) -> dict[int, int]:
        return {sides.index(w): int(n) for w, n in re.findall(r"(\w+) (\d+)", cell)
                if w in sides}

    carta, dinari = cells["help_ex_carta"], cells["help_ex_dinari"]
    assert (_numbers(carta[1]) + _numbers(carta[2])) == list(score.cards) == [22, 18]
    assert (_numbers(dinari[1]) + _numbers(dinari[2])) == list(score.diamonds)
    barmila = cells["help_ex_barmila"]
    assert [_numbers(barmila[1]), _numbers(barmila[2])] == \
        [[score.sevens[i], score.sixes[i]] for i in range(2)]
    haya = cells["help_ex_haya"]
    assert [("7♦" in haya[i + 1]) for i in range(2)] == \
        [cards("7D")[0] in PILES[i] for i in range(2)]
    chk = cells["help_ex_chkobba"]
    assert _numbers(chk[1]) + _numbers(chk[2]) == list(CHKOBBAS)
    for key, category in (("help_ex_carta", "carta"), ("help_ex_dinari", "dinari"),
                          ("help_ex_barmila", "barmila"), ("help_ex_haya", "haya")):
        assert points(cells[key][3]) == {score.categories[category]: 1}, key
    assert points(chk[3]) == dict(enumerate(score.chkobbas))
    total = points(cells["help_ex_total"][3])
    assert [total[0], total[1]] == list(score.points) == [4, 3]
