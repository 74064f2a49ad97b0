"""The coach's grades in the screen's language: French writes its decimals with a comma
(``erreur −0,97``), English with a point; plain text keeps an ASCII minus."""

from __future__ import annotations

import pytest

from chkobba_cli.coach import short_grade
from chkobba_cli.i18n import Translator
from chkobba_p2p.observe.review import Grade


def _grade(label: str, loss: float) -> Grade:
    return Grade(hand=1, number=2, seat=0, kind="play", played={"card": "1D", "capture": []},
                 best={"card": "6H", "capture": ["6C"]}, value_played=0.0,
                 value_best=loss, loss=loss, options=3, samples=200, exact=False,
                 label=label)


@pytest.mark.parametrize("lang, want", [
    ("en", "mistake −0.97: 6H taking 6C was best"),
    ("fr", "erreur −0,97 : 6H prenant 6C était mieux"),
])
def test_a_grade_s_loss_is_written_as_the_language_writes_numbers(lang, want):
    assert short_grade(_grade("mistake", 0.971), str, Translator(lang)) == want


@pytest.mark.parametrize("lang, want", [("en", "good −0.25"), ("fr", "bon −0,25")])
def test_a_good_move_s_small_loss_too(lang, want):
    assert short_grade(_grade("good", 0.25), str, Translator(lang)) == want


def test_plain_text_keeps_a_point_and_an_ascii_minus():
    assert short_grade(_grade("blunder", 1.2), str) == "blunder -1.20: 6H taking 6C was best"


def test_the_html_page_and_the_screen_write_numbers_alike():
    from chkobba_cli.i18n import decimal

    assert decimal(0.971, "fr") == "0,97" and decimal(0.971, "en") == "0.97"
    assert Translator("fr").number(1.2) == decimal(1.2, "fr") == "1,20"
