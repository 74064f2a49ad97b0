"""The client's colours and emphasis, by class name (``class:turn``, ``class:card.red``):
screens name a class, never a colour, so ``--no-color`` and NO_COLOR work everywhere."""

from __future__ import annotations

from prompt_toolkit.styles import Style

__all__ = ["STYLE"]

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
