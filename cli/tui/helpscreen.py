"""The help screen (``?`` or F1): the keys, and the words of the game in the player's
language, with the ruleset in play."""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p.game.cards import Card, FigureConvention, Suit
from chkobba_p2p.game.rules import Ruleset, Scoring

from ..i18n import card_letters
from .quickchat import keys_text
from .render import Line, wrap_line

__all__ = ["help_lines", "figure_values"]


def figure_values(rules: Ruleset | None, lang: str = "en") -> str:
    """The figures' capture values under ``rules``' convention (its deck), from the cards
    model: ``Q 8 · J 9 · K 10`` (Tunisian), ``J 8 · Q 9 · K 10`` (French); the ace is 1.
    The letters are ``lang``'s, as the cards show them (``D 8 · V 9 · R 10``)."""
    convention = rules.figures if rules is not None else FigureConvention.TUNISIAN
    spades = [c for c in map(Card, range(40)) if c.suit is Suit.SPADES]
    figures = [c for c in spades if c.value >= 8 or c.value == 1]
    return " · ".join(f"{card_letters(c.label(convention, False), lang)[:-1]} {c.value}"
                      for c in sorted(figures, key=lambda c: c.value))


def help_lines(t: Callable[..., str], rules: Ruleset | None, lang: str, width: int
               ) -> list[Line]:
    """The help overlay's lines, wrapped to ``width`` columns."""
    # At 80x24 it all fits in the frame (the footer says how to close it).
    out: list[Line] = [[("class:title", " " + t("help_title") + " ")]]

    def para(text: str, style: str = "") -> None:
        nonlocal out
        out += wrap_line([(style, " " + text)], width, "   ")

    out.append([("class:panel.title", " " + t("help_keys"))])
    for key in ("help_k_play", "help_k_cut", "help_k_misc"):
        para(t(key))
    para(t("help_k_quick", keys=keys_text(t)))
    out.append([])
    out.append([("class:panel.title", " " + t("help_words"))])
    scoring = "gl_primiera" if rules is not None and rules.scoring is Scoring.PRIMIERA \
        else "gl_barmila"
    para(t("help_figures", figures=figure_values(rules, lang)))
    for key in ("gl_carta", "gl_dinari", scoring, "gl_haya", "gl_chkobba", "gl_cutter",
                "gl_beji"):
        para(t(key))
    if rules is not None:
        out.append([])
        para(t("gl_rules", rules=rules.describe(lang)), "class:dim")
    return out
