"""What every screen draws from: a table state as one seat sees it, in one language and
one card style.

A :class:`TableView` needs no network, no trio and no prompt_toolkit application: the
live client builds one from the peer's events, and a replay viewer can build one from
each state of a log and hand it to the same drawing functions (:mod:`..screens.table`,
:mod:`..screens.lobby`, :mod:`..screens.dialogs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chkobba_p2p import TableState
from chkobba_p2p.game.cards import Card, FigureConvention

from ...words.i18n import Translator
from ..parts.render import CardStyle, by_value

__all__ = ["TableView", "card_style", "SHORTEST_NAME"]


def card_style(state: TableState, figures: FigureConvention | str | None,
               symbols: bool, lang: str = "en", four_colour: bool = False) -> CardStyle:
    """The card style to draw with: ``figures`` when the user chose (``"values"`` for
    plain numbers), else the table's rules' convention; the figures' letters in
    ``lang``'s (R D V in French); ``four_colour``: each suit its own colour."""
    if figures == "values":
        return CardStyle(FigureConvention.TUNISIAN, symbols, values=True, lang=lang,
                         four_colour=four_colour)
    chosen = figures or (state.rules.figures if state.rules else FigureConvention.TUNISIAN)
    return CardStyle(FigureConvention(chosen), symbols, lang=lang, four_colour=four_colour)


#: A name cut for room keeps this many characters, its ellipsis included ("Moham…"),
#: as every line of the table cuts them (issue 43: never "b…" nor "pee…").
SHORTEST_NAME = 6


def _cut(name: str, short: int | None, ell: str = "…") -> str:
    """``name``, cut to ``short`` characters with an ellipsis (None: whole)."""
    if short is None or len(name) <= short:
        return name
    return name[:max(1, short - len(ell))] + ell


@dataclass(frozen=True)
class TableView:
    """A table state, the words to speak of it and the cards' look: seat names from the
    local seat's point of view (``you``, ``us``, ``them``)."""

    state: TableState
    t: Translator
    cs: CardStyle
    #: A solo game against local bots (``chkobba play``): no host to speak of, the
    #: clocks are said plainly.
    solo: bool = False

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

    def clock_of(self, by: int | None) -> str:
        """Whose clock a flag reads: its signer's ("your clock", "the host's clock", or a
        joiner's that flagged a stalling host, PROTOCOL.md 12.6)."""
        if by is not None and by == self.state.seat:
            return self.t("clock_mine")
        if by is None or by == 0:
            return self.t("clock_host")
        return self.t("clock_seat", name=self.name(by))

    @property
    def move_limit(self) -> float:
        """The table's move clock in seconds, as the host announced it (the library's
        default until it did)."""
        from chkobba_p2p import Timeouts

        limits = self.state.limits
        return limits.move if limits is not None else Timeouts().turn

    def late_note(self, late: int | None, by: int | None) -> str:
        """Why a seat lost on time, said after it: at a table of people, whose clock
        counted (the log shows whose turn it was); in a solo game, plainly that the move
        took longer than the move clock ("you took longer than the move clock (15 min)")."""
        if self.solo:
            from ..parts.terms import duration_text

            return self.said("solo_late", late, t=duration_text(self.move_limit, self.t.lang))
        return self.t("over_on_time_note", clock=self.clock_of(by))

    def side_name(self, side: int, short: int | None = None) -> str:
        """A side as this seat speaks of it: ``us``/``them`` at 4 players, ``you`` or a
        name at 2 and 3; from no seat (a spectator, a replay) by its players' names,
        "hana & sami" at 4 (never a team number).  ``short``: each name cut to that many
        characters (a line that must fit)."""
        st = self.state
        if st.seat is None and st.teams:
            return self.team_names(side, short)
        if st.my_side is not None and st.teams:
            return self.t("us") if side == st.my_side else self.t("them")
        if st.my_side == side:
            return self.t("you")
        seats = [s for s in range(st.players or 2) if st.side(s) == side]
        return _cut(self.name(seats[0]), short, self._ell) if seats else "?"

    def team_names(self, side: int, short: int | None = None) -> str:
        """A side by its players' names, whoever looks: "hana & sami" at 4 players, the
        player's name at 2 and 3."""
        st = self.state
        names = [_cut(self.name(s), short, self._ell) for s in range(st.players or 2)
                 if st.side(s) == side]
        return " & ".join(names) if names else "?"

    @property
    def _ell(self) -> str:
        return "…" if self.cs.symbols else "..."  # as --ascii draws it

    def side_order(self, sides: int) -> list[int]:
        """The order a seat reads the sides in, wherever scores show (header, events,
        score dialog, sheet): its own side first, then the others in the order of play
        from it ("us  them" at every seat of 4, never "them  us"); from no seat (a
        spectator, a replay), the table's order."""
        st = self.state
        mine = st.my_side if st.seat is not None else None
        if mine is None or not 0 <= mine < sides:
            return list(range(sides))
        return [(mine + k) % sides for k in range(sides)]

    def totals_line(self, totals: Sequence[int], room: int) -> str:
        """Every side's total by name for a header, our side first, within ``room``
        columns if it can: the names are cut shorter and shorter ("amel & bot2 5  bot1
        & bot3 1"), never below :data:`SHORTEST_NAME` characters (the table's rule:
        "pee…" names nobody); past that the line is longer than ``room`` and the header
        makes room on its left."""
        line = ""
        order = self.side_order(len(totals))
        for short in (None, 12, 8, SHORTEST_NAME):
            line = "  ".join(f"{self.side_name(i, short)} {totals[i]}" for i in order)
            if len(line) <= room:
                break
        return line

    def totals_words(self, totals: Sequence[int], sep: str = ", ") -> str:
        """Every side's total with whose it is, our side first: "amel 2, bot1 1, bot2 0"
        (``you 2`` from the local seat; "us 5, them 1" at 4 players)."""
        return sep.join(f"{self.side_name(i)} {totals[i]}"
                        for i in self.side_order(len(totals)))

    def score(self, totals: Sequence[int], winner: int) -> str:
        """A match's final score as people say it, the winner's first: "14-9" between two
        sides; at 3 players the others say whose is whose, "11 (bot1 7, bot2 3)"."""
        order = [winner, *(i for i in range(len(totals)) if i != winner)]
        if len(totals) <= 2 or not 0 <= winner < len(totals):
            return "-".join(str(totals[i]) for i in order)
        rest = ", ".join(f"{self.side_name(i)} {totals[i]}" for i in order[1:])
        return self.t("score_three", first=totals[winner], rest=rest)
