"""The client's colours and emphasis, by class name (``class:turn``, ``class:card.red``):
screens name a class, never a colour, so ``--no-color`` and NO_COLOR work everywhere;
and its characters: pure ASCII on request or when the locale cannot show symbols."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.styles import Style

from ...support.term import asciify

__all__ = ["STYLE", "ascii_text", "ascii_frames"]

STYLE = Style.from_dict({
    "header": "reverse bold",
    "title": "bold",
    "dim": "fg:ansibrightblack",
    "me": "bold",
    "turn": "fg:ansigreen bold",
    "error": "fg:ansired bold",
    "ok": "fg:ansigreen",
    "warn": "fg:ansiyellow bold",
    "chkobba": "fg:ansiyellow bold",
    "chat": "fg:ansicyan",
    "card.red": "fg:ansired bold",
    "card.black": "bold",
    "card.blue": "fg:ansiblue bold",  # the four-colour deck's diamonds
    "card.green": "fg:ansigreen bold",  # and clubs
    "card.frame": "",
    "card.selected": "reverse bold",
    "card.marked": "underline",
    "card.number": "fg:ansibrightblack",
    "option.selected": "reverse",
    "score.head": "bold underline",
    "score.label": "",
    "score.win": "fg:ansigreen bold",
    "score.total": "bold",
    "keys": "reverse",
    "panel.title": "bold underline",
    "frame.border": "fg:ansicyan",
})


def ascii_text(draw: Callable[[], list[tuple[str, str]]]
               ) -> Callable[[], list[tuple[str, str]]]:
    """A drawing function's text in pure ASCII (``--ascii``, or a locale that cannot
    show the symbols): suits as letters, boxes as ``+-|``, accents dropped."""
    return lambda: [(style, asciify(text)) for style, text in draw()]


def ascii_frames() -> None:
    """Frames drawn with ``+-|``: prompt_toolkit's Frame takes its characters from one
    shared class, and this process draws for one terminal, in ASCII."""
    from prompt_toolkit.widgets import base

    b = base.Border
    b.HORIZONTAL, b.VERTICAL = "-", "|"
    b.TOP_LEFT = b.TOP_RIGHT = b.BOTTOM_LEFT = b.BOTTOM_RIGHT = "+"
