"""The seats of a table of 4, as a small picture from the local seat: the partner across
(the top line), the opponents on the left and on the right (the second line), and the
direction of play (seats are numbered in playing order, counter-clockwise: the next seat
plays on our right, then the partner across, then the left; RULES.md).  We sit at the
bottom of the screen, with our hand.

Drawn from a :class:`~..model.view.TableView` alone, in the rows the three seat lines took
(:mod:`..screens.table` falls back to those lines when the picture does not fit the width).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..model.view import TableView
from .render import Line, line_text

__all__ = ["seat_positions", "seat_picture", "picture_and_names", "side_cell", "side_dealer",
           "shortened", "compact_clock"]

#: A seat's line (:func:`..screens.table._seat_line`): (view, seat, role, its clock, width) -> line.
SeatLine = Callable[[TableView, int, str, Line, int], Line]

#: How short the picture may cut every name, in turn (None: whole).  Never shorter than
#: six characters ("Moham…"): below that the seats are drawn one a line instead.
SHORTS: tuple[int | None, ...] = (None, 16, 12, 10, 8, 6)


def seat_positions(me: int, players: int = 4) -> dict[str, int]:
    """Where each other seat sits around ``me``: ``right`` plays next, ``across`` is the
    partner, ``left`` plays just before us."""
    assert players == 4
    return {"right": (me + 1) % 4, "across": (me + 2) % 4, "left": (me + 3) % 4}


def _centre(line: Line, width: int) -> Line:
    pad = max(0, (width - len(line_text(line))) // 2)
    return [("", " " * pad), *line]


def side_cell(view: TableView, seat: int, extra: Line, room: int) -> Line:
    """A seat on our left or right in ``room`` columns: the turn's mark, the name, its
    cards (``▮▮ 2``; none: ``0 cards``), then ``extra`` (its clock), which always shows:
    the count's words, the count, then the cards' bar give way before the name, and a
    name still too long is cut with ``…``.
    No dealer's or cutter's tag: at 80 columns it gave way to the clock on the seat's
    turn and came back after it; the line under the seats says who deals
    (:func:`side_dealer`), the cut is said there too."""
    cell = _cell(view, seat, extra, room)
    if cell is not None:
        return cell
    name = view.state.name(seat)
    fixed = 3 + len(line_text(extra))
    ell = "…" if view.cs.symbols else "..."  # as --ascii draws it
    name = name[:max(1, room - fixed - len(ell))] + ell
    turn = view.state.turn == seat
    return [("class:turn" if turn else "class:me", f" {'▶' if turn else ' '} {name}"), *extra]


def _cell(view: TableView, seat: int, extra: Line, room: int) -> Line | None:
    """:func:`side_cell` with the name whole (as ``view`` names it), or None when even
    the name and ``extra`` alone do not fit in ``room``."""
    st = view.state
    n = st.counts[seat] if seat < len(st.counts) else 0
    turn = st.turn == seat
    bar = ("▮" if view.cs.symbols else "#") * n
    name = st.name(seat)
    # What gives way, in turn: the clock's words ("⏱ 1:00 left" -> "⏱ 1:00"), the count's
    # number, the cards' bar; the name last (the caller cuts every name alike).
    # No card left: no bar to count, so the number says what it counts ("0 cards", in
    # French "0 carte"), when it fits; a bare "0" under a name read as nothing.
    short = compact_clock(extra)
    t = view.t
    said = f"  {t('cards_1' if t.singular(n) else 'cards_n', n=n)}"
    tries: list[tuple[str, Line]] = [(said, extra), (said, short)] if not bar else []
    for with_count, with_bar, clock in ((True, True, extra), (True, True, short),
                                        (False, True, short), (False, False, short)):
        body = (f"  {bar} {n}" if bar else f"  {n}") if with_count else \
            f"  {bar}" if bar and with_bar else ""
        tries.append((body, clock))
    for body, clock in tries:
        if 3 + len(name) + len(body) + len(line_text(clock)) <= room:
            return [("class:turn" if turn else "class:me", f" {'▶' if turn else ' '} {name}"),
                    ("", body), *clock]
    return None


def side_dealer(view: TableView) -> int | None:
    """The dealer when it sits on our left or right at 4 (its cell carries no tag: see
    :func:`side_cell`), for the line under the seats; else None."""
    st = view.state
    if not st.teams or st.seat is None or st.dealer is None:
        return None
    pos = seat_positions(st.seat)
    return st.dealer if st.dealer in (pos["left"], pos["right"]) else None


def shortened(view: TableView, short: int | None) -> TableView:
    """``view`` with every name cut to ``short`` characters (``…``), so that a picture
    that must cut one name cuts them all the same way (None: ``view`` itself)."""
    if short is None:
        return view
    st = view.state
    ell = "…" if view.cs.symbols else "..."
    names = tuple(None if n is None else n if len(n) <= short else n[:short - len(ell)] + ell
                  for n in st.names)
    return replace(view, state=replace(st, names=names))


def seat_picture(view: TableView, width: int, seat_line: SeatLine,
                 extra: Callable[[int], Line]) -> list[tuple[int, Line]] | None:
    """The picture's lines, each with its priority for :func:`..screens.table.fit`: the partner
    centred; the left and right opponents on one line; under them the word "opponent";
    then the whole order of play from us on a line of its own.  Names are whole, or,
    when they must be cut, all cut the same way (to 16, 12, ... 6 characters, never
    fewer).  None when the two opponents do not fit side by side in ``width`` columns
    even so (the caller draws the seats one a line)."""
    drawn = picture_and_names(view, width, seat_line, extra)
    return None if drawn is None else drawn[0]


def picture_and_names(view: TableView, width: int, seat_line: SeatLine,
                      extra: Callable[[int], Line]
                      ) -> tuple[list[tuple[int, Line]], TableView] | None:
    """:func:`seat_picture`, with the view whose names it drew (cut or whole): the
    lines under the picture ("turn: …", "dealer: …") name the seats from it, so that a
    name cut in the picture is cut the same way there ("turn: Khadija Trabelsi" under
    "Khadija Tra…" read as two people)."""
    if not view.state.teams or view.state.seat is None:
        return None
    for short in SHORTS:
        named = shortened(view, short)
        for clock in (extra, lambda s: compact_clock(extra(s))):
            lines = _picture(named, width, seat_line, clock)
            if lines is not None:
                return lines, named
    return None


def compact_clock(extra: Line) -> Line:
    """A seat's clock in fewer columns before a name is cut: its mark and its time, the
    words dropped ("⏱ 1:00 left" -> "⏱ 1:00", "⏱ encore 1:00" -> "⏱ 1:00")."""
    return [(style, "  " + " ".join(w for w in text.split() if not w.isalpha()))
            if text.strip() else (style, text) for style, text in extra]


def _picture(view: TableView, width: int, seat_line: SeatLine,
             extra: Callable[[int], Line]) -> list[tuple[int, Line]] | None:
    st, t = view.state, view.t
    assert st.seat is not None
    pos = seat_positions(st.seat)
    room = width - 1
    top = seat_line(view, pos["across"], t("partner"), extra(pos["across"]), width - 2)
    left = _cell(view, pos["left"], extra(pos["left"]), (width - 3) // 2)
    right = _cell(view, pos["right"], extra(pos["right"]), (width - 3) // 2)
    said = line_text(top)  # the partner whole, and said to be one
    if left is None or right is None or f" {st.name(pos['across'])} " not in said + " " \
            or f"({t('partner')})" not in said:
        return None
    lw, rw = len(line_text(left)), len(line_text(right))
    if lw + rw + 1 > room or len(line_text(top)) > room:
        return None
    arrow = " → " if view.cs.symbols else " -> "  # as --ascii draws it
    ring = [view.who(s) for s in (st.seat, pos["right"], pos["across"], pos["left"])]
    role = f"({t('opponent')})"
    # The word under each side's name (which starts after the turn's mark, " ▶ "), then
    # the order of play from us on a line of its own (its first arrow, from us to the
    # right, says the direction).  Never between the two words: "(opponent) you → bot1
    # → bot2 → bot3 (opponent)" read as if "you" were an opponent.
    under_l, under_r = "   " + role, role + " "
    gap = room - len(under_l) - len(under_r)
    lines: list[tuple[int, Line]] = [
        (1, _centre(top, room)),
        (1, [*left, ("", " " * (room - lw - rw)), *right])]
    names = arrow.join(ring)
    # The words are the first to give way on a short screen (4: before a blank line,
    # so that the cards keep their boxes): the partner is said, the two others are the
    # opponents.  The order, back to us when there is room (the round), else the four
    # names.
    lines.append((4, [("class:dim", under_l), ("", " " * max(1, gap)),
                      ("class:dim", under_r)]))
    # Its words when they fit, else the ring alone ("you → … → you" says what it is):
    # names are worth more than the label.
    for order in (t("seats_order", order=arrow.join(ring + ring[:1])),
                  t("seats_order", order=names), arrow.join(ring + ring[:1]), names):
        if len(order) + 2 <= room:
            lines.append((1, _centre([("class:dim", order)], room)))
            return lines
    return None
