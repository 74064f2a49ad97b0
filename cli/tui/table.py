"""The table screen: the other seats, the cards on the table, the last play, your seat
and your hand, drawn from a :class:`~.view.TableView` alone.

:func:`draw_table` is all a screen needs: the live game passes the decision in progress
(the selected card, the capture to mark, the lines under the hand from :mod:`.decision`);
a replay viewer passes a view of each state of the log and lines of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from chkobba_p2p.cards import Card

from .render import Line, card_chips, card_row
from .view import TableView

__all__ = ["draw_table", "table_lines", "fit"]


#: What follows a seat's line (its clock, say), from the seat.
SeatExtra = Callable[[int], Line]


def draw_table(view: TableView, width: int, height: int, *, selected: int | None = None,
               marked: frozenset[Card] = frozenset(), below: Sequence[Line] = (),
               seat_extra: SeatExtra | None = None, notices: Sequence[Line] = ()
               ) -> list[Line]:
    """The table in ``width`` x ``height``: cards as boxes, or as one-line chips when the
    boxes do not fit; the least needed lines give way first (see :func:`fit`).
    ``selected`` is the index of the highlighted card of the hand, ``marked`` the table
    cards a capture would take, ``below`` the lines under the hand (a prompt, hints),
    ``seat_extra`` what follows each seat's line, ``notices`` lines under the turn's
    (who is away, and for how long)."""
    lines = partial(table_lines, view, width, selected=selected, marked=marked,
                    below=below, seat_extra=seat_extra, notices=notices)
    tagged = lines(compact=False)
    if len(tagged) > height:
        tagged = lines(compact=True)
    return fit(tagged, max(1, height))


def _seat_line(view: TableView, seat: int, role: str) -> Line:
    st, t = view.state, view.t
    n = st.counts[seat] if seat < len(st.counts) else 0
    mark = "class:turn" if st.turn == seat else "class:me"
    tags = []
    if seat == st.dealer:
        tags.append(t("dealer", name="").strip())
    if seat == st.cutter:
        tags.append(t("cutter", name="").strip())
    line: Line = [(mark, f" {'▶' if st.turn == seat else ' '} {st.name(seat)}"),
                  ("class:dim", f" ({role})"), ("", "  "),
                  ("", ("▮" if view.cs.symbols else "#") * n + " "
                   + (t("cards_1") if n == 1 else t("cards_n", n=n)))]
    if tags:
        line.append(("class:dim", "  [" + ", ".join(tags) + "]"))
    return line


def _captures_line(view: TableView, side: int) -> Line:
    st, t = view.state, view.t
    c = st.captures(side)
    line: Line = [("class:dim", f"   {view.side_name(side)}: "),
                  ("", t("cap_line", cards=c.cards, diamonds=c.diamonds,
                         sevens=c.sevens, chk=c.chkobbas))]
    if c.haya:
        line.append(("class:card.red", " · " + t("haya_mark")))
    return line


def table_lines(view: TableView, width: int, compact: bool, *, selected: int | None = None,
                marked: frozenset[Card] = frozenset(), below: Sequence[Line] = (),
                seat_extra: SeatExtra | None = None, notices: Sequence[Line] = ()
                ) -> list[tuple[int, Line]]:
    """The table's lines, each with a priority: 0 must show (table, hand, prompt);
    1, 2 and 3 (others' seats, captures, blank lines) give way on short terminals."""
    st, t, cs = view.state, view.t, view.cs
    lines: list[tuple[int, Line]] = []

    def add(line: Line, prio: int = 0) -> None:
        lines.append((prio, line))

    n = st.players or 2
    # No local seat (a spectator, a replay): every seat is drawn as the others are.
    watching = st.seat is None
    me = st.seat if st.seat is not None else 0
    roles = {(me + 2) % 4: t("partner")} if n == 4 else {}
    if watching:
        roles = {s: t("side", n=st.side(s) + 1) if n == 4 else t("seat_n", n=s)
                 for s in range(n)}
    for s in (range(n) if watching else st.others()):
        extra = seat_extra(s) if seat_extra is not None else []
        add(_seat_line(view, s, roles.get(s, t("opponent"))) + extra, 1)
    their_sides = sorted({st.side(s) for s in range(n)} if watching else
                         {st.side(s) for s in st.others()} - {st.side(me)})
    for side in their_sides:
        add(_captures_line(view, side), 2)
    info = [t("stock", n=st.stock)]
    if st.cutting:
        info.append(view.said("cutting_of", st.cutter))
    elif st.turn is not None:
        info.append(t("turn_of", name=view.who(st.turn)))
    add([("class:dim", " " + " · ".join(info))], 1)
    for line in notices:
        add(line)
    add([], 3)
    add([("class:title", f" {t('table')}"),
         ("class:dim", "" if st.table else f"  {t('table_empty')}")])
    if st.table:
        rows = (card_chips(list(st.table), cs, width) if compact else
                card_row(list(st.table), cs, width, marked=marked))
        for line in rows:
            add(line)
    last = st.last_play
    if last is not None:
        took = (t("hint_takes", opts=view.labels(last.capture)) if last.capture
                else t("hint_stays"))
        line = [("class:dim", " " + t("last_play", name=view.who(last.seat)) + " "),
                (cs.style(last.card), cs.label(last.card)), ("class:dim", f" {took}")]
        if last.chkobba:
            line.append(("class:chkobba", " " + t("ev_chkobba")))
        add(line, 2)
    else:
        add([], 3)
    if watching:
        for line in below:
            add(line)
        return lines
    # The local seat.
    you = [("class:turn" if st.turn == me else "class:me",
            f" {'▶' if st.turn == me else ' '} {st.name(me)} ({t('you')})")]
    tags = []
    if me == st.dealer:
        tags.append(t("dealer", name="").strip())
    if me == st.cutter:
        tags.append(t("cutter", name="").strip())
    if tags:
        you.append(("class:dim", "  [" + ", ".join(tags) + "]"))
    add(you, 1)
    add(_captures_line(view, st.side(me)), 2)
    if st.hand and compact:
        line: Line = [("class:title", f" {t('your_hand')}:")]
        for i, c in enumerate(st.hand):
            sel = " class:card.selected" if i == selected else ""
            line += [("class:card.number", f" {i + 1}"), ("", " "),
                     ("class:card.frame" + sel, "["), (cs.style(c) + sel, cs.label(c)),
                     ("class:card.frame" + sel, "]")]
        add(line)
    else:
        add([("class:title", f" {t('your_hand')}")], 1)
        for line in card_row(list(st.hand), cs, width, selected=selected,
                             numbered=True) if st.hand else []:
            add(line)
    for line in below:
        add(line)
    return lines


def fit(tagged: list[tuple[int, Line]], height: int) -> list[Line]:
    """Drop the least needed lines (highest priority number first) until they fit;
    if even the essentials do not, keep the bottom (the prompt)."""
    for drop in (3, 2, 1):
        if len(tagged) <= height:
            break
        excess = len(tagged) - height
        kept = []
        for prio, line in tagged:
            if prio == drop and excess > 0:
                excess -= 1
                continue
            kept.append((prio, line))
        tagged = kept
    lines = [line for _, line in tagged]
    return lines[-height:] if len(lines) > height else lines
