"""The help screen (``?`` or F1): the keys, and the words of the game in the player's
language, with the ruleset in play; then how to play (a capture, the cut); then one
worked example of a hand's scoring (:func:`example_lines`), each on a page of its own
when they do not fit the screen together (:func:`help_pages`)."""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p.game.cards import Card, FigureConvention, Suit
from chkobba_p2p.game.rules import Opening, Ruleset, Scoring

from ...words.i18n import Translator, card_letters, ruleset_text
from ..parts.quickchat import keys_text
from ..parts.render import Line, wrap_line

__all__ = ["help_lines", "help_pages", "play_lines", "example_lines", "figure_values",
           "EXAMPLE_ROWS"]


def figure_values(rules: Ruleset | None, lang: str = "en") -> str:
    """The figures' capture values under ``rules``' convention (its deck), from the cards
    model: ``Q 8 · J 9 · K 10`` (Tunisian), ``J 8 · Q 9 · K 10`` (French); the ace is 1.
    The letters are ``lang``'s, as the cards show them (``D 8 · V 9 · R 10``)."""
    convention = rules.figures if rules is not None else FigureConvention.TUNISIAN
    spades = [c for c in map(Card, range(40)) if c.suit is Suit.SPADES]
    figures = [c for c in spades if c.value >= 8 or c.value == 1]
    return " · ".join(f"{card_letters(c.label(convention, False), lang)[:-1]} {c.value}"
                      for c in sorted(figures, key=lambda c: c.value))


def help_lines(t: Callable[..., str], rules: Ruleset | None, lang: str, width: int,
               with_rules: bool = True, lobby: str | None = None,
               over: bool = False, mouse: bool = True) -> list[Line]:
    """The help overlay's keys and words, wrapped to ``width`` columns; then the rules in
    play (``with_rules``: :func:`help_pages` puts them under how to play).  ``lobby``:
    the kind of client (``play``, ``host``, ``join``) whose lobby is on screen: its own
    keys (the ready check, freeing a seat), and the table's in one line for later.
    ``over``: the match is over, the end screen's keys (a rematch, l for luck).
    ``mouse``: clicks play (not with ``--no-mouse``: the keys alone are offered)."""
    out: list[Line] = [[("class:title", " " + t("help_title") + " ")]]

    def para(text: str, style: str = "") -> None:
        nonlocal out
        out += wrap_line([(style, " " + text)], width, "   ")

    if lobby is not None:
        out.append([("class:panel.title", " " + t("help_lobby_keys"))])
        if lobby != "play":  # a solo game has no ready check
            para(t("help_l_ready"))
        if lobby == "host":
            para(t("help_l_free"))
        para(t("help_l_misc" if lobby != "play" else "help_l_misc_solo"))
        para(t("help_l_table"), "class:dim")
    elif over:
        out.append([("class:panel.title", " " + t("help_over_keys"))])
        para(t("help_o_keys"))
    else:
        out.append([("class:panel.title", " " + t("help_keys"))])
        for key in ("help_k_play" if mouse else "help_k_play_keys", "help_k_cut",
                    "help_k_misc"):
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
    if rules is not None and with_rules:
        out += rules_lines(t, rules, lang, width)
    return out


def rules_lines(t: Callable[..., str], rules: Ruleset, lang: str, width: int) -> list[Line]:
    """The rules in play, after a blank line."""
    rules_said = ruleset_text(Translator(lang), rules)
    return [[], *wrap_line([("class:dim", " " + t("gl_rules", rules=rules_said))],
                           width, "   ")]


def play_lines(t: Callable[..., str], rules: Ruleset | None, width: int,
               players: int | None = None) -> list[Line]:
    """How to play, as the rules in play have it: how a card captures (its rank first,
    else a sum; a card that can take must), and what keeping or placing the cut card
    changes (cut-and-draw only); at 4 ``players``, who plays with whom (a first game
    of four read "partner" on the table and nothing said what it meant)."""
    out: list[Line] = [[("class:panel.title", " " + t("help_play"))]]

    def para(text: str) -> None:
        nonlocal out
        out += wrap_line([("", " " + text)], width, "   ")

    para(t("help_capture"))
    para(t("help_must"))
    para(t("help_forced" if rules is not None and rules.forced_capture else "help_free"))
    if rules is None or rules.opening is Opening.CUT_AND_DRAW:
        para(t("help_cut"))
    para(t("help_last"))
    if players == 4:
        para(t("help_teams"))
    return out


#: The worked example's rows (catalog keys), each cells split at "|".
EXAMPLE_ROWS = ("help_ex_head", "help_ex_carta", "help_ex_dinari", "help_ex_barmila",
                "help_ex_haya", "help_ex_chkobba", "help_ex_total")


def example_lines(t: Callable[..., str], rules: Ruleset | None, width: int) -> list[Line]:
    """One hand's end scored line by line for two sides (the default rules: carta,
    dinari, barmila, haya, chkobbas) and the total: a newcomer read the words of each
    point and still could not count a hand.  The columns are aligned in either
    language; a table playing primiera is told that line differs."""
    out: list[Line] = [[("class:panel.title", " " + t("help_example"))]]
    out += wrap_line([("", " " + t("help_ex_intro"))], width, "   ")
    rows = [t(key).split("|") for key in EXAMPLE_ROWS]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for key, cells in zip(EXAMPLE_ROWS, rows):
        text = " " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)) + "  " + cells[3]
        style = "class:dim" if key == "help_ex_head" else \
            "bold" if key == "help_ex_total" else ""
        out += wrap_line([(style, text.rstrip())], width, " " * (len(text) - len(cells[3])))
    out += wrap_line([("", " " + t("help_ex_after"))], width, "   ")
    if rules is not None and rules.scoring is Scoring.PRIMIERA:
        out += wrap_line([("class:dim", " " + t("help_ex_primiera"))], width, "   ")
    return out


def help_pages(t: Callable[..., str], rules: Ruleset | None, lang: str, width: int,
               height: int, lobby: str | None = None, over: bool = False,
               mouse: bool = True, players: int | None = None) -> list[list[Line]]:
    """The help in ``height`` lines: one page when the keys, the words, how to play and
    the rules in play fit together (120x40), else two (the keys and words, then how to
    play and the rules: 80x24).  ``lobby``, ``over``, ``mouse``: see :func:`help_lines`."""
    keys = help_lines(t, rules, lang, width, False, lobby, over, mouse)
    play = play_lines(t, rules, width, players)
    tail = rules_lines(t, rules, lang, width) if rules is not None else []
    # The rules go with how to play; each part joins the page before when it fits (the
    # first page leaves the footer, its page keys, in sight at 80x24), else starts one.
    pages = [keys]
    for part in (play + tail, example_lines(t, rules, width)):
        if len(pages[-1]) + 1 + len(part) <= height:
            pages[-1] = pages[-1] + [[]] + part
        else:
            pages.append([[("class:title", " " + t("help_title") + " ")], *part])
    return pages
