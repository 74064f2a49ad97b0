"""The coach's grades (issue 43, item 6): in the screen's language (French writes its
decimals with a comma, ``erreur −0,97``; plain text keeps an ASCII minus); a move said as
a verb ("playing 5♠ and taking nothing", never "5♠ on the table", which reads as a card
lying there); a loss never called good (an inaccuracy from 0.1); and one numbering of
the moves, "play N" (the hand's N-th card played), shared by the text, the web page and
``replay --view`` -- read off the viewer's whole screen at 80x24 and 120x40."""

from __future__ import annotations

import re

import pytest
from support.audit import a_match

from chkobba_cli.outputs.replay_html import render_html
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_cli.words.coach import grade_line, short_grade, shown_label
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.observe.review import Grade, review_records
from chkobba_p2p.timeline import build_timeline


def _grade(label: str, loss: float, best: dict | None = None, kind: str = "play") -> Grade:
    played = {"card": "1D", "capture": []} if kind == "play" else {"keep": True, "card": "1D"}
    best = best if best is not None else ({"card": "6H", "capture": ["6C"]} if kind == "play"
                                          else {"keep": False, "card": "1D"})
    return Grade(hand=1, number=2, seat=0, kind=kind, played=played, best=best,
                 value_played=0.0, value_best=loss, loss=loss, options=3, samples=200,
                 exact=False, label=label)


@pytest.mark.parametrize("lang, want", [
    ("en", "mistake −0.97: better was playing 6H to take 6C"),
    ("fr", "erreur −0,97 : mieux valait jouer 6H pour prendre 6C"),
])
def test_a_grade_s_loss_is_written_as_the_language_writes_numbers(lang, want):
    assert short_grade(_grade("mistake", 0.971), str, Translator(lang)) == want


@pytest.mark.parametrize("lang, good, inaccurate, best", [
    ("en", "good −0.05", "inaccuracy −0.43: better was placing it on the table", "best"),
    ("fr", "bon −0,05", "imprécision −0,43 : mieux valait la poser sur la table",
     "meilleur coup")])
def test_a_loss_is_never_called_good(lang, good, inaccurate, best):
    """The page said "keeps A♦ good −0.43": now a loss from 0.1 is an inaccuracy and
    names the better move; a move with no better one is the best."""
    t = Translator(lang)
    assert short_grade(_grade("good", 0.05), str, t) == good
    assert short_grade(_grade("good", 0.43, kind="cut"), str, t) == inaccurate
    assert short_grade(_grade("good", 0.0, best={"card": "1D", "capture": []}), str, t) == best
    assert [shown_label(_grade("good", x)) for x in (0.0, 0.09, 0.1, 0.43)] == \
        ["best", "good", "inaccuracy", "inaccuracy"]


def test_a_move_is_said_as_a_verb_never_as_a_card_on_the_table():
    g = _grade("mistake", 0.53, best={"card": "5S", "capture": []})
    line = grade_line(g, "bob", str)
    assert line == ("hand 1, play 2: bob put 1D on the table; playing 5S and taking "
                    "nothing was worth 0.53 points more (mistake)")
    assert short_grade(g, str) == "mistake -0.53: better was playing 5S and taking nothing"
    assert "5S on the table" not in line + short_grade(g, str)



@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """``reviewed(players)``: a match at that many players, its audit and the coach's
    review, made once for both languages (none of them depends on the language)."""
    made: dict[int, tuple] = {}

    def get(players: int) -> tuple:
        if players not in made:
            played = a_match(players)
            log = played.write_log(tmp_path_factory.mktemp("coach") / "coach.chklog")
            report = audit_log(log)
            made[players] = (played, report,
                             review_records(report.records, samples=1, seed=1, limit=40))
        return made[players]
    return get


@pytest.mark.parametrize("lang, play_word", [("en", "play"), ("fr", "coup")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_text_page_and_viewer_number_a_move_alike(app_session, reviewed, lang, play_word,
                                                  players):
    played, report, review = reviewed(players)
    grades = [g for g in review.grades if g.kind == "play"]
    assert grades
    page = render_html(report, lang, review=review)
    viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang,
                          grades=review.grades)
    for g in grades[:12]:
        # The text: "hand H, play N".
        assert grade_line(g, "x", str).startswith(f"hand {g.hand}, play {g.number}:")
        # The page: the N-th play of hand H is labelled "play N" ("coup N").
        section = page.split(f'id="hand-{g.hand}"', 1)[1].split("</section>", 1)[0]
        items = re.findall(r"<li class='play'>(.*?)</li>", section)
        assert items[g.number - 1].startswith(f"<span class='no'>{play_word} {g.number}</span>")
        # The viewer: the frame of that grade says "play N" in its header and its coach line.
        frame = next(i for i, x in viewer.grades.items() if x is g)
        viewer.at = frame
        for cols, rows in ((80, 24), (120, 40)):
            head = line_text(viewer.header(cols))
            assert f" · {play_word} {g.number} · " in head, head
            left, right = viewer.screen(rows, cols)
            text = " ".join("".join(t for _, t in left + right).split())
            assert re.search(rf"coach, \S+, {play_word} {g.number} ?: ", text), text


def test_the_html_page_and_the_screen_write_numbers_alike():
    from chkobba_cli.words.i18n import decimal

    assert decimal(0.971, "fr") == "0,97" and decimal(0.971, "en") == "0.97"
    assert Translator("fr").number(1.2) == decimal(1.2, "fr") == "1,20"
