"""The help screen (``?`` or F1): the keys, and the words of the game in the player's
language, with the ruleset in play."""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p.rules import Ruleset, Scoring

from .render import Line, wrap_line

__all__ = ["help_lines"]


def help_lines(t: Callable[..., str], rules: Ruleset | None, lang: str, width: int
               ) -> list[Line]:
    """The help overlay's lines, wrapped to ``width`` columns."""
    out: list[Line] = [[("class:title", " " + t("help_title") + " ")], []]

    def para(text: str, style: str = "") -> None:
        nonlocal out
        out += wrap_line([(style, " " + text)], width, "   ")

    out.append([("class:panel.title", " " + t("help_keys"))])
    for key in ("help_k_play", "help_k_cut", "help_k_misc"):
        para(t(key))
    out.append([])
    out.append([("class:panel.title", " " + t("help_words"))])
    scoring = "gl_primiera" if rules is not None and rules.scoring is Scoring.PRIMIERA \
        else "gl_barmila"
    for key in ("gl_carta", "gl_dinari", scoring, "gl_haya", "gl_chkobba", "gl_cutter",
                "gl_beji"):
        para(t(key))
    if rules is not None:
        out.append([])
        para(t("gl_rules", rules=rules.describe(lang)), "class:dim")
    out.append([])
    out.append([("class:keys", " " + t("help_close") + " ")])
    return out
