"""The seats of a table of 4, as a small picture from the local seat: the partner across
(the top line), the opponents on the left and on the right (the second line), and the
direction of play (seats are numbered in playing order, counter-clockwise: the next seat
plays on our right, then the partner across, then the left; RULES.md).  We sit at the
bottom of the screen, with our hand.

Drawn from a :class:`~.view.TableView` alone, in the rows the three seat lines took
(:mod:`.table` falls back to those lines when the picture does not fit the width).
"""

from __future__ import annotations

from collections.abc import Callable

from .render import Line, line_text, wrap_line
from .view import TableView

__all__ = ["seat_positions", "seat_picture", "side_cell"]

#: A seat's line (:func:`.table._seat_line`): (seat, role, its clock, width) -> line.
SeatLine = Callable[[int, str, Line, int], Line]


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
    cards (``▮▮ 2``), dealer or cutter, then ``extra`` (its clock), which always shows:
    the count, then the tags give way, and a long name is cut with ``…``."""
    st, t = view.state, view.t
    n = st.counts[seat] if seat < len(st.counts) else 0
    turn = st.turn == seat
    bar = ("▮" if view.cs.symbols else "#") * n
    tags = [t(key, name="").strip() for key, who in (("dealer", st.dealer),
                                                      ("cutter", st.cutter)) if who == seat]
    name = st.name(seat)
    tail = len(line_text(extra))
    body = tag = ""
    for with_count, with_tags in ((True, True), (False, True), (False, False)):
        body = (f"  {bar} {n}" if bar else f"  {n}") if with_count else \
            f"  {bar}" if bar else ""
        tag = "  [" + ", ".join(tags) + "]" if tags and with_tags else ""
        if 3 + len(name) + len(body) + len(tag) + tail <= room:
            break
    fixed = 3 + len(body) + len(tag) + tail
    if fixed + len(name) > room:
        ell = "…" if view.cs.symbols else "..."  # as --ascii draws it
        name = name[:max(1, room - fixed - len(ell))] + ell
    return [("class:turn" if turn else "class:me", f" {'▶' if turn else ' '} {name}"),
            ("", body), ("class:dim", tag), *extra]


def seat_picture(view: TableView, width: int, seat_line: SeatLine,
                 extra: Callable[[int], Line]) -> list[tuple[int, Line]] | None:
    """The picture's lines, each with its priority for :func:`.table.fit`: the partner
    centred; the left and right opponents on one line; under them the word "opponent"
    and between them the order of play from us (when it does not fit, the order alone).  None
    when the two opponents do not fit side by side in ``width`` columns (the caller
    draws the seats one a line)."""
    st, t = view.state, view.t
    if not st.teams or st.seat is None:
        return None
    pos = seat_positions(st.seat)
    room = width - 1
    top = seat_line(pos["across"], t("partner"), extra(pos["across"]), width - 2)
    left = side_cell(view, pos["left"], extra(pos["left"]), (width - 3) // 2)
    right = side_cell(view, pos["right"], extra(pos["right"]), (width - 3) // 2)
    lw, rw = len(line_text(left)), len(line_text(right))
    if lw + rw + 1 > room or len(line_text(top)) > room:
        return None
    arrow, ell = (" → ", "…") if view.cs.symbols else (" -> ", "...")  # as --ascii draws
    ring = [view.who(s) for s in (st.seat, pos["right"], pos["across"], pos["left"])]
    role = f"({t('opponent')})"
    # The word under each side's name (which starts after the turn's mark, " ▶ "), and
    # between them the order of play from us (its first seats and "…" if it is long:
    # the first arrow, from us to the right, says the direction).
    under_l, under_r = "   " + role, role + " "
    gap = room - len(under_l) - len(under_r)
    lines: list[tuple[int, Line]] = [
        (1, _centre(top, room)),
        (1, [*left, ("", " " * (room - lw - rw)), *right])]
    for k in (4, 3, 2):
        names = arrow.join(ring[:k]) + ("" if k == 4 else arrow + ell)
        if gap >= len(names) + 2:
            before = (gap - len(names)) // 2
            lines.append((1, [("class:dim", under_l), ("", " " * before),
                              ("class:dim", names),
                              ("", " " * (gap - before - len(names))),
                              ("class:dim", under_r)]))
            break
    else:  # long names: the words, then the order on a line of its own
        lines.append((2, [("class:dim", under_l), ("", " " * max(1, gap)),
                          ("class:dim", under_r)]))
        for k in (5, 3, 2):
            order = t("seats_order", order=arrow.join((ring + ring[:1])[:k])
                      + ("" if k == 5 else arrow + ell))
            if len(order) <= room:
                lines.append((1, _centre([("class:dim", order)], room)))
                break
        else:
            lines += [(1, x) for x in wrap_line([("class:dim", " " + order)], room, "   ")]
    return lines
