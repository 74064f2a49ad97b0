"""Larger cards for large terminals: five lines a card, the value in two corners and the
suit in the middle, so a table read across a room is still readable."""

from __future__ import annotations

from collections.abc import Sequence

from chkobba_p2p.game.cards import Card

from .render import CardStyle, Line, click_tag

__all__ = ["BIG_WIDTH", "BIG_HEIGHT", "big_card_row"]

BIG_WIDTH = 8  # a card and the space after it
BIG_HEIGHT = 5


def big_card_row(cards: Sequence[Card], cs: CardStyle, width: int, *,
                 selected: int | None = None, numbered: bool = False,
                 marked: frozenset[Card] = frozenset(),
                 highlight: frozenset[Card] = frozenset(), click: str | None = None
                 ) -> list[Line]:
    """Cards as 7x5 boxes, as many per row as ``width`` allows (plus a line of numbers
    above when ``numbered``).  ``selected`` and ``highlight`` are drawn reversed;
    ``marked`` cards are underlined; ``click``: as :func:`.render.card_row`'s."""
    h, v = ("─", "│") if cs.symbols else ("-", "|")
    tl, tr, bl, br = ("┌", "┐", "└", "┘") if cs.symbols else ("+", "+", "+", "+")
    per_row = max(1, (width - 1) // BIG_WIDTH)
    out: list[Line] = []
    for start in range(0, max(len(cards), 1), per_row):
        chunk = cards[start:start + per_row]
        rows: list[Line] = [[("", " ")] for _ in range(BIG_HEIGHT + 1)]
        for i, c in enumerate(chunk, start):
            label = cs.label(c)
            value, suit = label[:-1], label[-1]
            frame, face = "class:card.frame", cs.style(c)
            if i == selected or c in highlight:
                frame = face = "class:card.selected"
            elif c in marked:
                face += " class:card.marked"
            tag = click_tag(click, c)
            frame += tag
            face += tag
            rows[0] += [("class:card.number" + (" class:card.selected" if i == selected
                                                else "") + tag, f" {i + 1:<5} "), ("", " ")]
            rows[1] += [(frame, f"{tl}{h * 5}{tr}"), ("", " ")]
            rows[2] += [(frame, v), (face, f"{value:<5}"), (frame, v), ("", " ")]
            rows[3] += [(frame, v), (face, f"{suit:^5}"), (frame, v), ("", " ")]
            rows[4] += [(frame, v), (face, f"{value:>5}"), (frame, v), ("", " ")]
            rows[5] += [(frame, f"{bl}{h * 5}{br}"), ("", " ")]
        out.extend(rows if numbered else rows[1:])
    return out
