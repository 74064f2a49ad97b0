"""The coach says why (issue 43, "a coach that says why"): each mistake's reasons
(:attr:`chkobba_p2p.observe.review.Grade.reasons`) in words, the two most important, in
``replay --review``'s text, beside the grade on the web page and in ``--view``, in English
and French."""

from __future__ import annotations

import dataclasses
import random

import pytest
from support.audit import play

from chkobba_cli.outputs.replay_html import render_html
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_cli.words.coach import SHOWN_REASONS, reason_words, review_lines, short_grade
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.game.cards import cards
from chkobba_p2p.game.rules import PRESETS, Hand, Move
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.observe.review import REASON_CODES, Reason, Review, grade_play, review_records
from chkobba_p2p.timeline import build_timeline

RULES = PRESETS["tunisian"]

WHY = {
    "en": "why: misses a sweep of the whole table (a chkobba, 1 point); leaves a sweep "
          "(chkobba) open to the next player: a 9 takes the whole table",
    "fr": "pourquoi : manque la rafle de toute la table (une chkobba, 1 point) ; laisse "
          "une chkobba au joueur suivant : un 9 prend toute la table",
}


def _blunder() -> Review:
    """Seat 0 throws 2S onto 3S + 4H where 7C sweeps them: graded from its own view."""
    hand = Hand.from_position(RULES, 2, 1, hands=[cards("7C 2S 5H"), cards("1C 2C 3C")],
                              table=cards("3S 4H"), turn=0, piles=[(), cards("8H 9H")],
                              last_capturer=1)
    g = grade_play(hand.view(0), Move(cards("2S")[0]), rng=random.Random(1), samples=8,
                   hand=1, number=3)
    assert g.label == "blunder" and len(g.reasons) > SHOWN_REASONS  # fewer_cards too
    return Review(grades=[g], samples=8, decisions=1)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_review_text_says_why_after_the_blunder(lang):
    t = Translator(lang)
    lines = review_lines(_blunder(), ["amel", "bob"], str, t)
    at = next(i for i, line in enumerate(lines) if "2S" in line)
    assert lines[at].startswith("  " + ("hand 1, play 3: amel" if lang == "en"
                                        else "manche 1, coup 3 : amel"))
    assert lines[at + 1] == "      " + WHY[lang]
    # The third reason (fewer cards for the carta) is not said: two at most.
    assert "carta" not in lines[at + 1]
    # Beside a move (the hand's lines, --view): the same words after the better move.
    assert short_grade(_blunder().grades[0], str, t).endswith(t("cv_sep") + WHY[lang])
    assert short_grade(_blunder().grades[0], str).endswith("; " + WHY["en"])


@pytest.mark.parametrize("lang, later", [
    ("en", "      why: no single rule says it one move ahead; the difference shows later"),
    ("fr", "      pourquoi : aucune règle ne le dit un coup à l'avance ; la différence")])
def test_a_mistake_no_rule_explains_says_so(lang, later):
    review = _blunder()
    review.grades[0] = dataclasses.replace(review.grades[0], reasons=())
    lines = review_lines(review, ["amel", "bob"], str, Translator(lang))
    at = next(i for i, line in enumerate(lines) if "2S" in line)
    assert lines[at + 1].startswith(later), lines


def test_every_reason_code_has_its_words_in_both_languages():
    for lang in ("en", "fr"):
        t = Translator(lang)
        for code in REASON_CODES:
            g = dataclasses.replace(_blunder().grades[0],
                                    reasons=(Reason(code, card="7D", value=2),))
            words, = reason_words(g, str, t)
            assert words != "rs_" + code and "{" not in words, (lang, code, words)
            if lang == "en":
                assert words.isascii(), words  # plain text with --ascii
    assert reason_words(dataclasses.replace(_blunder().grades[0], reasons=()), str) == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_and_the_viewer_say_why(app_session, tmp_path, lang):
    played = play(2, rules=RULES.with_target(1), seed=4, key=b"coach-why")
    report = audit_log(played.write_log(tmp_path / "why.chklog"))
    review = review_records(report.records, samples=1, seed=1, limit=6)
    # The first graded play, given the reasons of the position above (and a blunder's
    # loss), so that the words to find are known.
    i, g = next((i, g) for i, g in enumerate(review.grades) if g.kind == "play"
                and g.options > 1)
    best = {"card": "9S", "capture": []} if g.played.get("card") != "9S" else \
        {"card": "9H", "capture": []}
    why = (Reason("misses_chkobba"), Reason("leaves_sweep", value=9),
           Reason("fewer_cards", value=2))
    review.grades[i] = dataclasses.replace(g, best=best, loss=1.5, label="blunder",
                                           reasons=why)
    page = render_html(report, lang, review=review)
    # The page and the viewer draw the cards with their figures (9: the jack, "V" in
    # French): the rank said so (the text above, with plain labels, says "a 9").
    said = WHY[lang].replace(": a 9 ", ": a jack ").replace(": un 9 ", ": un valet ")
    assert f"<span class='why'>{said}</span>" in page
    viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang,
                          grades=review.grades)
    viewer.at = next(at for at, x in viewer.grades.items() if x is review.grades[i])
    for cols, rows in ((80, 24), (120, 40)):
        left, right = viewer.screen(rows, cols)
        text = " ".join("".join(t for _, t in left + right).split())
        assert said in text, (cols, text)


@pytest.mark.parametrize("lang, figures, said", [
    ("en", "tunisian", ["an ace", "a seven", "a queen", "a jack", "a king"]),
    ("en", "french", ["an ace", "a seven", "a jack", "a queen", "a king"]),
    ("fr", "tunisian", ["un as", "un sept", "une dame", "un valet", "un roi"]),
    ("en", "values", ["an ace", "a seven", "an 8", "a 9", "a 10"])])
def test_the_sweep_left_open_names_the_rank_in_words(lang, figures, said):
    """walk5: the sweep's reason said the rank as a number ("a card of value 1 takes the
    whole table"); a player says "an ace takes the whole table", the figure as the table
    draws it (its rules' figures, French letters in French)."""
    from chkobba_cli.words.i18n import card_letters
    from chkobba_p2p.game.cards import FigureConvention, card

    def label(text: object) -> str:
        c = card(str(text))
        if figures == "values":
            return f"{c.value}S"
        shown = c.label(FigureConvention(figures), symbols=True)
        return card_letters(shown, lang)

    t = Translator(lang)
    g = _blunder().grades[0]
    for value, rank in zip((1, 7, 8, 9, 10), said, strict=True):
        words, = reason_words(dataclasses.replace(g, reasons=(Reason("leaves_sweep",
                                                                     value=value),)),
                              label, t)
        assert f": {rank} " in words and "value" not in words and "valeur" not in words, \
            words
