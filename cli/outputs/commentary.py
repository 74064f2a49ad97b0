"""``chkobba watch --text`` (and ``watch`` off a terminal): the plain commentary, a line
per event, in the third person and the spectator's language.

:class:`Commentary` is the commentary's viewpoint of the one place that words events
(:class:`~..words.event_words.CommentaryVoice`): it knows the players' names, letters
cards as the language does and prints what that place says.  Every line goes through the
display filter (:func:`..support.term.safe_lines`): names, chat, a host's words and a
verdict's reason came from outside.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.rules import side_of

from ..support.term import safe_lines
from ..words.event_words import CommentaryVoice, narrate
from ..words.i18n import Translator, card_letters

__all__ = ["Commentary"]


class Commentary(CommentaryVoice):
    """Turns the spectator's events into lines of text, in English or French: call it
    with each event (a spectator's ``on_event``)."""

    def __init__(self, out: TextIO | None = None, lang: str = "en") -> None:
        self.out = out or sys.stdout
        self.fr = lang == "fr"
        self.tr = Translator("fr" if self.fr else "en")
        self.names: list[str] = []
        self.players = 0
        self._lobby = ""

    def t(self, key: str, **kw: object) -> str:
        """A line's words from the client's one catalog (:mod:`..words.i18n`)."""
        return self.tr(key, **kw)

    def say(self, line: str) -> None:
        # Names, chat, a host's words, a verdict's reason: from outside, whichever path
        # brought them here; the whole line goes through the display filter.
        # On a terminal, fitted to its width at words, a path whole (broken after a "/").
        for piece in safe_lines(line, self.out):
            print(piece, file=self.out, flush=True)

    def who(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("wn_nobody") if seat is None else self.t("wn_seat_n", n=seat)

    def side(self, side: int) -> str:
        """A side by its players' names ("hana", "hana & sami")."""
        n = self.players or 2
        return " & ".join(self.who(s) for s in range(n) if side_of(s, n) == side)

    def by_side(self, figures: Sequence[int]) -> str:
        """One figure per side with whose it is: "hana 2, sami 1, amel 0"."""
        return ", ".join(f"{self.side(i)} {x}" for i, x in enumerate(figures))

    def card(self, c: Card) -> str:
        """A card as the language letters it (``D♥`` in French)."""
        return card_letters(c.label(), "fr" if self.fr else "en")

    def cards(self, cs: Iterable[Card | None]) -> str:
        return " ".join(self.card(c) if isinstance(c, Card) else "??" for c in cs) or "-"

    def __call__(self, ev: object) -> None:
        narrate(ev, self)  # the words: ..words.event_words, this viewpoint's branch
