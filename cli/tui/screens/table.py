"""The table screen: the other seats, the cards on the table, the last play, your seat
and your hand, drawn from a :class:`~..model.view.TableView` alone.

:func:`draw_table` is all a screen needs: the live game passes the decision in progress
(the selected card, the capture to mark, the lines under the hand from :mod:`..parts.decision`);
a replay viewer passes a view of each state of the log and lines of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import Card

from ..model.view import TableView
from ..parts.bigcards import big_card_row
from ..parts.render import Line, by_value, card_chips, card_row, click_tag, line_text, wrap_line
from ..parts.seats import compact_clock, picture_and_names, side_dealer

__all__ = ["Showing", "showing", "draw_table", "table_lines", "fit"]


@dataclass(frozen=True)
class Showing:
    """A move held on screen before the table changes (see :mod:`..model.pace`): the table to
    draw (with the card just played on it), the cards to highlight (the one played) and
    to mark (what it takes), and the lines that say it."""

    table: tuple[Card, ...]
    highlight: frozenset[Card]
    marked: frozenset[Card]
    lines: Sequence[Line]


def showing(view: TableView, ev: object, width: int) -> Showing | None:
    """How to draw another player's move while it is held on screen (``ev`` is the
    :attr:`..model.pace.Pacer.showing` event): a play, a card placed by the cutter, or the last
    cards of a hand going to the last capturer."""
    st, t, cs = view.state, view.t, view.cs

    def say(text: str) -> list[Line]:
        return wrap_line([("class:turn", " " + text)], width - 1, "   ")

    if isinstance(ev, R.PlayEvent):
        if ev.capture:
            text = view.said("playing_take", ev.seat, card=cs.label(ev.card),
                             cards=" + ".join(cs.label(c) for c in by_value(ev.capture)))
        else:
            text = view.said("playing", ev.seat, card=cs.label(ev.card))
        if ev.chkobba:
            text += "  " + t("ev_chkobba")
        return Showing(st.table + (ev.card,), frozenset((ev.card,)), frozenset(ev.capture),
                       say(text))
    if isinstance(ev, R.CutEvent) and ev.card is not None:
        return Showing((ev.card,) + st.table, frozenset((ev.card,)), frozenset(),
                       say(view.said("ev_place", ev.seat, card=cs.label(ev.card))))
    if isinstance(ev, R.SweepEvent) and ev.seat is not None:
        return Showing(st.table, frozenset(), frozenset(ev.cards),
                       say(view.said("ev_sweep", ev.seat, cards=view.labels(ev.cards))))
    return None


#: What follows a seat's line (its clock, say), from the seat.
SeatExtra = Callable[[int], Line]


def draw_table(view: TableView, width: int, height: int, *, selected: int | None = None,
               marked: frozenset[Card] = frozenset(), below: Sequence[Line] = (),
               seat_extra: SeatExtra | None = None, notices: Sequence[Line] = (),
               showing: Showing | None = None) -> list[Line]:
    """The table in ``width`` x ``height``: large cards when there is room, cards as
    boxes, or as one-line chips when the boxes do not fit; the least needed lines give
    way first (see :func:`fit`).  ``selected`` is the index of the highlighted card of
    the hand, ``marked`` the table cards a capture would take, ``below`` the lines under
    the hand (a prompt, hints), ``seat_extra`` what follows each seat's line, ``notices``
    lines under the turn's (who is away, and for how long), ``showing`` another player's
    move being shown."""
    lines = partial(table_lines, view, width, selected=selected, marked=marked,
                    below=below, seat_extra=seat_extra, notices=notices, showing=showing)
    tagged: list[tuple[int, Line]] = []

    def over(tagged: list[tuple[int, Line]]) -> bool:  # too tall even without the 4s
        return sum(1 for prio, _ in tagged if prio < 4) > height

    if height >= 32 and width >= 56:  # room for large cards
        tagged = lines(compact=False, big=True)
    if not tagged or over(tagged):
        tagged = lines(compact=False)
    if over(tagged):
        tagged = lines(compact=True)
    return fit(tagged, max(1, height))


def _seat_line(view: TableView, seat: int, role: str, extra: Line | None = None,
               width: int = 0) -> Line:
    """A seat: its name, role, cards in hand, dealer or cutter, then ``extra`` (its
    clock).  In ``width`` columns: the words that say least give way first ("in hand",
    "cards", then the role: a partner stays one), so that the clock at the end always
    shows."""
    st, t = view.state, view.t
    n = st.counts[seat] if seat < len(st.counts) else 0
    mark = "class:turn" if st.turn == seat else "class:me"
    tags = []
    if seat == st.dealer:
        tags.append(t("dealer", name="").strip())
    if seat == st.cutter:
        tags.append(t("cutter", name="").strip())
    bar = ("▮" if view.cs.symbols else "#") * n
    count = t("cards_1" if t.singular(n) else "cards_n", n=n)  # French: "0 carte"
    name = st.name(seat)
    line: Line = []
    # The clock's words go before the role ("⏱ encore 15:00" -> "⏱ 15:00"): the role came
    # and went at 3 players as the clock moved from seat to seat.  A name too long even
    # for that keeps the clock whole and loses its role, then its end.
    full, short = extra or [], compact_clock(extra or [])
    for keep_in_hand, keep_role, keep_count, clock in (
            (1, 1, 1, full), (0, 1, 1, full), (0, 1, 0, full), (0, 1, 0, short),
            (0, 0, 0, full), (0, 0, -1, full)):
        if keep_count < 0:  # still too long: the name is cut (…), the clock stays
            over = len(line_text(line)) - (width - 1)
            ell = "…" if view.cs.symbols else "..."
            name = name[:max(4, len(name) - over - len(ell))] + ell
        hand = f"{bar} {count} {t('in_hand')}" if keep_in_hand else \
            f"{bar} {count}" if keep_count > 0 else f"{bar} {n}"
        line = [(mark, f" {'▶' if st.turn == seat else ' '} {name}"),
                      ("class:dim", f" ({role})" if role and keep_role else ""), ("", "  "),
                      ("", hand)]
        if tags:
            line.append(("class:dim", "  [" + ", ".join(tags) + "]"))
        line += clock
        if not width or len(line_text(line)) < width:
            break
    return line


def _captures_line(view: TableView, side: int) -> Line:
    st, t = view.state, view.t
    c = st.captures(side)
    # What counts at the end of the hand; a count still at zero is left out (short).
    parts = [t("cards_1" if t.singular(c.cards) else "cards_n", n=c.cards)]
    if c.diamonds:
        # In words: "7♦" would read as the seven of diamonds, the haya.
        parts.append(t("diamonds_1") if c.diamonds == 1 else t("diamonds_word", n=c.diamonds))
    if c.sevens:
        parts.append(t("sevens_1") if c.sevens == 1 else t("sevens_n", n=c.sevens))
    if c.chkobbas:
        parts.append(t("ss_chkobba_1") if c.chkobbas == 1 else t("ss_chkobbas", n=c.chkobbas))
    if st.teams and st.seat is None:  # a spectator, a replay: the side
        whose = t("cap_of", name=view.side_name(side))  # its players' names
    elif st.teams:
        whose = t("cap_us") if side == st.my_side else t("cap_them")
    else:
        whose = view.said("cap_of", side)  # at 2 and 3 players a side is a seat
    line: Line = [("class:dim", f"   {whose} "),
                  ("", " · ".join(parts))]
    if c.haya:
        line.append(("class:card.red", " · " + t("haya_mark")))
    return line


def table_lines(view: TableView, width: int, compact: bool, *, selected: int | None = None,
                marked: frozenset[Card] = frozenset(), below: Sequence[Line] = (),
                seat_extra: SeatExtra | None = None, notices: Sequence[Line] = (),
                showing: Showing | None = None, big: bool = False
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
    partner = st.seating.partner_of(me) if me < n else None
    roles = {partner: t("partner")} if partner is not None else {}
    if watching:  # at 4 players who plays with whom, by name; at 2 and 3 the names say it all
        roles = {s: t("with_partner", name=view.name(p)) if (p := st.seating.partner_of(s))
                 is not None else "" for s in range(n)}

    def extra_of(s: int) -> Line:
        return seat_extra(s) if seat_extra is not None else []

    # At 4, from a seat: the seats as they sit around us (.seats), if the width allows.
    drawn = None if watching else picture_and_names(view, width, _seat_line, extra_of)
    picture, named = drawn if drawn is not None else (None, view)
    for prio, line in picture or []:
        add(line, prio)
    for s in [] if picture else (range(n) if watching else st.others()):
        add(_seat_line(view, s, roles.get(s, t("opponent")), extra_of(s), width), 1)
    their_sides = sorted({st.side(s) for s in range(n)} if watching else
                         {st.side(s) for s in st.others()} - {st.side(me)})
    for side in their_sides:
        for line in wrap_line(_captures_line(view, side), width - 1, "     "):
            add(line, 2)
    info = [t("stock", n=st.stock)]
    if st.cutting:
        info.append(named.said("cutting_of", st.cutter))
    elif st.turn is not None:  # named as the picture names the seats (cut alike)
        info.append(t("turn_of", name=named.who(st.turn)))
    dealer = side_dealer(view) if picture else None
    if dealer is not None:  # said here, steady, not beside a seat that has the clock
        info.append(t("dealer_is", name=named.who(dealer)))
    # With two opponents or more (3 and 4 players), every opponent's line shows before the
    # stock does on a short screen (the turn is on the ▶ and the prompt).  Long names
    # wrap (never cut at the pane's edge).
    for line in _items_lines(info, width - 1):
        add(line, 2 if len(st.others()) > 1 else 1)
    for line in notices:
        add(line)
    add([], 3)
    table, highlight = st.table, frozenset[Card]()
    if showing is not None:
        table, highlight, marked = showing.table, showing.highlight, showing.marked
    add([("class:title", f" {t('table')}"),
         ("class:dim", "" if table else f"  {t('table_empty')}")])
    # Cards are tagged for the mouse from a seat only (a click picks a capture; a
    # spectator's and a replay's tables take no click).
    click = None if watching else "table"
    if table:
        if compact:
            rows = card_chips(list(table), cs, width, highlight=highlight, click=click)
        elif big:
            rows = big_card_row(list(table), cs, width, marked=marked, highlight=highlight,
                                click=click)
        else:
            rows = card_row(list(table), cs, width, marked=marked, highlight=highlight,
                            click=click)
        for line in rows:
            add(line)
    last = st.last_play
    if showing is not None:
        for line in showing.lines:
            add(line)
    elif last is not None:
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
    # The local seat, with our move clock while we are to play: a long name of ours is
    # cut (we know it), then the tags go, so that the clock at the end always shows.
    tags = []
    if me == st.dealer:
        tags.append(t("dealer", name="").strip())
    if me == st.cutter:
        tags.append(t("cutter", name="").strip())
    extra, ell = extra_of(me), "…" if cs.symbols else "..."

    def own(name: str, tagged: bool) -> Line:
        line: Line = [("class:turn" if st.turn == me else "class:me",
                       f" {'▶' if st.turn == me else ' '} {name} ({t('you')})")]
        if tags and tagged:
            line.append(("class:dim", "  [" + ", ".join(tags) + "]"))
        return line + extra

    name = st.name(me)
    you = own(name, True)
    over = len(line_text(you)) - (width - 1)
    if over > 0 and extra:
        short = name[:max(4, len(name) - over - len(ell))] + ell
        you = own(short, True)
        if len(line_text(you)) > width - 1:
            you = own(short, False)
    add(you, 1)
    for line in wrap_line(_captures_line(view, st.side(me)), width - 1, "     "):
        add(line, 2)  # wrapped at a word: never cut by the events column
    if st.hand and compact:
        # French sets a space before its colon ("Votre main :"), as every other label.
        line = [("class:title", f" {t('your_hand')}{' :' if t.lang == 'fr' else ':'}")]
        for i, c in enumerate(st.hand):
            sel = " class:card.selected" if i == selected else ""
            sel += click_tag("hand", c)
            line += [("class:card.number", f" {i + 1}"), ("", " "),
                     ("class:card.frame" + sel, "["), (cs.style(c) + sel, cs.label(c)),
                     ("class:card.frame" + sel, "]")]
        add(line)
    else:
        add([("class:title", f" {t('your_hand')}")], 1)
        draw = big_card_row if big else card_row
        for line in draw(list(st.hand), cs, width, selected=selected,
                         numbered=True, click="hand") if st.hand else []:
            add(line)
    for line in below:
        add(line)
    return lines


def _items_lines(items: list[str], width: int) -> list[Line]:
    """``items`` joined by `` · `` in ``width`` columns, a line broken between two items
    rather than inside one ("dealer:" at a line's end and its name on the next read as
    two things); an item longer than a whole line wraps at its words."""
    rows: list[str] = []
    for item in items:
        if rows and len(rows[-1]) + 3 + len(item) <= width:
            rows[-1] += " · " + item
        else:
            rows.append(("   " if rows else " ") + item)
    lines: list[Line] = []
    for row in rows:
        lines += wrap_line([("class:dim", row)], width, "   ")
    return lines


def fit(tagged: list[tuple[int, Line]], height: int) -> list[Line]:
    """Drop the least needed lines (highest priority number first: 4, words a screen
    can do without before it draws its cards smaller; 3, blank lines) until they fit;
    if even the essentials do not, keep the bottom (the prompt)."""
    for drop in (4, 3, 2, 1):
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


def header_line(view: TableView, title: str, cols: int) -> Line:
    """The screen's top line: ``title``, the hand and the target on the left, every
    side's total by name on the right (a player's screen and a spectator's alike)."""
    t, st = view.t, view.state
    parts = [title]
    if st.hand_number:
        parts.append(t("hand_no", n=st.hand_number))
    if st.target is not None:
        parts.append(t("target", n=st.target))
    left = " · ".join(parts)
    right = ""
    if st.totals and st.players and st.started:
        # The names are never cut below six characters (view.totals_line): when even
        # then they do not fit, the left's words go, the target first, then the hand.
        # Three blanks at least between the two, so that the target's number never
        # runs into the first name.
        for keep in range(len(parts), 0, -1):
            left = " · ".join(parts[:keep])
            right = view.totals_line(st.totals, cols - len(left) - 4)
            if len(left) + len(right) + 4 <= cols:
                break
    pad = max(1, cols - len(left) - len(right) - 1)
    return [("class:header", left + " " * pad + right + " ")]
