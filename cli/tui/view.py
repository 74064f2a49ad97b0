"""What every screen draws from: a table state as one seat sees it, in one language and
one card style.

A :class:`TableView` needs no network, no trio and no prompt_toolkit application: the
live client builds one from the peer's events, and a replay viewer can build one from
each state of a log and hand it to the same drawing functions (:mod:`.table`,
:mod:`.lobby`, :mod:`.dialogs`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chkobba_p2p.cards import Card, FigureConvention
from chkobba_p2p.peer import TableState

from ..i18n import Translator
from .render import CardStyle, by_value

__all__ = ["TableView", "card_style"]


def card_style(state: TableState, figures: FigureConvention | str | None,
               symbols: bool) -> CardStyle:
    """The card style to draw with: ``figures`` when the user chose (``"values"`` for
    plain numbers), else the table's rules' convention."""
    if figures == "values":
        return CardStyle(FigureConvention.TUNISIAN, symbols, values=True)
    chosen = figures or (state.rules.figures if state.rules else FigureConvention.TUNISIAN)
    return CardStyle(FigureConvention(chosen), symbols)


@dataclass(frozen=True)
class TableView:
    """A table state, the words to speak of it and the cards' look: seat names from the
    local seat's point of view (``you``, ``us``, ``them``)."""

    state: TableState
    t: Translator
    cs: CardStyle

    def label(self, c: Card) -> str:
        return self.cs.label(c)

    def labels(self, cards: Iterable[Card], sep: str = " ") -> str:
        return self.cs.labels(by_value(cards), sep)

    def name(self, seat: int | None) -> str:
        """A seat's player by name (never a seat number, even before names are known)."""
        st = self.state
        if seat is not None and 0 <= seat < len(st.names) and st.names[seat]:
            return st.names[seat]  # type: ignore[return-value]
        return "?"

    def who(self, seat: int | None) -> str:
        """A seat's player as the sentence's subject or object: ``you``, or the name.
        Messages whose verb agrees with it use :meth:`said` instead."""
        if seat is not None and seat == self.state.seat:
            return self.t("you")
        return self.name(seat)

    def said(self, key: str, seat: int | None, **kw: object) -> str:
        """A message about a seat: the ``_me`` wording when it is the local seat (one
        grammar for "you" in both languages: "you are back", never "you is back")."""
        if seat is not None and seat == self.state.seat:
            return self.t(key + "_me", **kw)
        return self.t(key, name=self.name(seat), **kw)

    def side_name(self, side: int) -> str:
        st = self.state
        if st.seat is None and st.teams:  # no local seat: the teams by number
            return self.t("side", n=side + 1)
        if st.my_side is not None and st.teams:
            return self.t("us") if side == st.my_side else self.t("them")
        if st.my_side == side:
            return self.t("you")
        seats = [s for s in range(st.players or 2) if st.side(s) == side]
        return self.name(seats[0]) if seats else "?"
