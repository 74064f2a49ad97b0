"""Pure drawing helpers: cards, rows of cards and the scoring table as styled fragments.

A *line* is a list of ``(style, text)`` fragments (prompt_toolkit's formatted text); these
functions return lists of lines and never touch the terminal, so they are tested as is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from chkobba_p2p.game.cards import Card, FigureConvention, Suit
from chkobba_p2p.game.rules import HandScore

from ...words.i18n import card_letters

Line = list[tuple[str, str]]

#: The four-colour deck's classes (see .style): spades black and hearts red as usual,
#: diamonds blue and clubs green, as online card tables draw them.
FOUR_COLOURS = {Suit.SPADES: "class:card.black", Suit.HEARTS: "class:card.red",
                Suit.DIAMONDS: "class:card.blue", Suit.CLUBS: "class:card.green"}

__all__ = ["Line", "CardStyle", "FOUR_COLOURS", "CLICK", "click_tag", "click_target",
           "by_value", "card_row", "card_chips", "line_text", "score_lines",
           "wrap_line", "control_text"]


def control_text(draw: Callable[[], Line]) -> Callable[[], StyleAndTextTuples]:
    """``draw`` as a ``FormattedTextControl`` takes it (its fragment list type: a copy of
    the fragments, as the list types differ only in what they could hold)."""
    def text() -> StyleAndTextTuples:
        return list(draw())
    return text


def by_value(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order a player reads a capture: by value, then suit."""
    return sorted(cards, key=lambda c: (c.value, c.id))


class CardStyle:
    """How cards look: figure convention (or plain values: ``10♠``), suit symbols or
    letters, box characters."""

    def __init__(self, figures: FigureConvention = FigureConvention.TUNISIAN,
                 symbols: bool = True, values: bool = False, lang: str = "en",
                 four_colour: bool = False) -> None:
        self.figures = figures
        self.symbols = symbols
        self.values = values
        #: A four-colour deck (``--four-colour``): each suit its own colour, so that a
        #: diamond (the point suit) never reads as a heart at a glance.
        self.four_colour = four_colour
        self.lang = lang  # the figures' letters: K Q J, or R D V in French
        #: Width of a card's face: ``7♦``/``K♣`` or, with values, `` 7♦``/``10♠``.
        self.face = 3 if values else 2
        if symbols:
            h, self.side = "─" * self.face, "│"
            self.top, self.bottom = f"┌{h}┐", f"└{h}┘"
        else:
            h, self.side = "-" * self.face, "|"
            self.top = self.bottom = f"+{h}+"

    def label(self, c: Card) -> str:
        if self.values:
            return f"{c.value}{c.suit.symbol if self.symbols else c.suit.value}"
        return card_letters(c.label(self.figures, self.symbols), self.lang)

    def face_text(self, c: Card) -> str:
        return self.label(c).rjust(self.face)

    def style(self, c: Card) -> str:
        if self.four_colour:
            return FOUR_COLOURS[c.suit]
        return "class:card.red" if c.suit.is_red else "class:card.black"

    def labels(self, cards: Sequence[Card], sep: str = " ") -> str:
        return sep.join(self.label(c) for c in cards)


#: The style class that tags a fragment for the mouse: ``click.<where>.<n>``, ``where``
#: one of ``hand`` and ``table`` (``n`` a card's id), ``option`` (a capture's number from
#: 0) or ``cut`` (0 keep, 1 place).  A class no style names: it changes nothing drawn;
#: the screen turns it into a mouse handler (:func:`..screen.clickable`).
CLICK = "class:click."


def click_tag(where: str | None, card: Card | int) -> str:
    """The tag (with its leading space) that makes a fragment a click on ``card`` (a card
    of ``where``; an int: an option's or the cut's number), or "" (``where`` None)."""
    if where is None:
        return ""
    n = card.id if isinstance(card, Card) else card  # a Card is an int whose str is 7H
    return f" {CLICK}{where}.{int(n)}"


def click_target(style: str) -> tuple[str, int] | None:
    """What a fragment's style says a click on it means: (``where``, ``n``), or None."""
    at = style.find(CLICK)
    if at < 0:
        return None
    where, _, n = style[at + len(CLICK):].split(" ", 1)[0].partition(".")
    return (where, int(n)) if n.isdigit() else None


def line_text(line: Line) -> str:
    return "".join(t for _, t in line)


def card_row(cards: Sequence[Card], cs: CardStyle, width: int, *,
             selected: int | None = None, numbered: bool = False,
             marked: frozenset[Card] = frozenset(),
             highlight: frozenset[Card] = frozenset(), click: str | None = None) -> list[Line]:
    """Cards as small boxes, as many per row as ``width`` allows (3 lines per row, plus a
    line of numbers above when ``numbered``).  ``selected`` and ``highlight`` (a card
    just played) are drawn reversed; ``marked`` cards (what a capture takes) are
    underlined; ``click`` (``hand`` or ``table``) tags each card for the mouse
    (:func:`click_tag`)."""
    step = cs.face + 3
    per_row = max(1, (width - 1) // step)
    out: list[Line] = []
    for start in range(0, max(len(cards), 1), per_row):
        chunk = cards[start:start + per_row]
        nums: Line = [("", " ")]
        top: Line = [("", " ")]
        mid: Line = [("", " ")]
        bot: Line = [("", " ")]
        for i, c in enumerate(chunk, start):
            tag = click_tag(click, c)
            frame = "class:card.frame"
            face = cs.style(c)
            if i == selected or c in highlight:
                frame = face = "class:card.selected"
            elif c in marked:
                face += " class:card.marked"
            frame += tag
            face += tag
            nums.append(("class:card.number" + (" class:card.selected" if i == selected
                                                else "") + tag, f" {i + 1:<{cs.face}} "))
            nums.append(("", " "))
            top.append((frame, cs.top))
            top.append(("", " "))
            mid.append((frame, cs.side))
            mid.append((face, cs.face_text(c)))
            mid.append((frame, cs.side))
            mid.append(("", " "))
            bot.append((frame, cs.bottom))
            bot.append(("", " "))
        if numbered:
            out.append(nums)
        out.extend([top, mid, bot])
    return out


def card_chips(cards: Sequence[Card], cs: CardStyle, width: int,
               highlight: frozenset[Card] = frozenset(), click: str | None = None
               ) -> list[Line]:
    """Cards as one-line chips ``[7♦]`` wrapped to ``width`` (for short terminals);
    ``highlight`` cards reversed; ``click``: as :func:`card_row`'s."""
    out: list[Line] = []
    line: Line = [("", " ")]
    used = 1
    for c in cards:
        chip = cs.face + 3
        if used + chip > width and used > 1:
            out.append(line)
            line, used = [("", " ")], 1
        tag = click_tag(click, c)
        face = "class:card.selected" if c in highlight else cs.style(c)
        line += [("class:card.frame" + tag, "["), (face + tag, cs.label(c)),
                 ("class:card.frame" + tag, "]"), ("", " ")]
        used += chip
    out.append(line)
    return out


#: Words that never start a line: French puts a (non-breaking) space before these
#: marks ("Règles : …", "14 %"), and a line that starts with ":" reads as broken.
_CLOSING = frozenset(":;!?»%")
#: Units that never leave their number ("60 s", "2 min", "0,94 point").
_UNITS = frozenset({"s", "ms", "min", "h", "%", "point", "points", "pt", "pts"})


def _glued(parts: list[str], room: int) -> list[str]:
    """``parts`` (a text split at its spaces) with the spaces that must not break a line
    kept inside one word: before a closing mark, between a number and its unit, after
    an opening "«" (typography's non-breaking spaces, as a plain space on screen); not
    where the word would grow longer than a line of ``room`` columns."""
    out: list[str] = []
    for p in parts:
        if out and p and len(out[-1]) + 1 + len(p) <= room and (set(p) <= _CLOSING
                          or (p.rstrip(":;,.!?)") in _UNITS and out[-1][-1:].isdigit())
                          or out[-1].endswith("«")):
            out[-1] += " " + p
        else:
            out.append(p)
    return out


def _is_address(word: str) -> bool:
    """A web address or a host's (``https://…``, ``x.onion``, ``host:port``): cut at
    the line's end, its two halves read as two addresses and neither works."""
    w = word.strip("()[],.;:«» ")
    return "://" in w or w.endswith(".onion") or (
        ":" in w and w.rsplit(":", 1)[1].isdigit() and "." in w.rsplit(":", 1)[0])


def _elided(word: str, room: int) -> str:
    """``word`` in ``room`` columns, its middle left out: both ends stay (the scheme
    and host, the domain at the end) and the "…" says something is missing."""
    if len(word) <= room:
        return word
    keep = max(1, room - 1)
    head = (keep + 1) // 2
    return word[:head] + "…" + word[len(word) - (keep - head):]


def wrap_line(line: Line, width: int, indent: str = "", *,
              elide_addresses: bool = False) -> list[Line]:
    """Wrap a styled line at spaces to ``width`` columns; a word longer than a whole line
    (a chat line of 200 letters, a long path) is broken where the line ends, never cut.
    A number keeps its unit and French punctuation its word (:func:`_glued`).  With
    ``elide_addresses`` (a narrow column that says again what is said whole elsewhere:
    the events'), a table's address too long for a line of its own has its middle left
    out (:func:`_elided`) rather than its end on the next line, read as another address;
    where a person copies it (a join code in the lobby; a web address, said nowhere
    else: tor's bridges'), it stays whole, broken after a "/"."""
    width = max(8, width)
    words: list[tuple[str, str]] = []
    for style, text in line:
        parts = _glued(text.split(" "), width - len(indent))
        for j, p in enumerate(parts):
            words.append((style, p + (" " if j < len(parts) - 1 else "")))
    out: list[Line] = []
    cur: Line = []
    used = 0
    for style, w in words:
        if not w:
            continue
        if used + len(w.rstrip()) > width and used > len(indent):
            out.append(cur)
            cur, used = [("", indent)], len(indent)
        if elide_addresses and used + len(w.rstrip()) > width and _is_address(w) \
                and "://" not in w:
            w = _elided(w.rstrip(), width - used) + w[len(w.rstrip()):]
        while used + len(w.rstrip()) > width:  # alone on its line and still too long
            room = width - used
            # After a "/" where it has one (a web address, a path: "https://" then
            # "bridges.torproject.org"), else where the line ends.
            room = w.rfind("/", 0, room) + 1 or room
            cur.append((style, w[:room]))
            out.append(cur)
            cur, used, w = [("", indent)], len(indent), w[room:]
        cur.append((style, w))
        used += len(w)
    if cur:
        out.append(cur)
    return out


def score_column(side_names: Sequence[str]) -> int:
    """The width of a side's column in :func:`score_lines`."""
    return max(7, *(len(n) + 2 for n in side_names))


def score_width(side_names: Sequence[str]) -> int:
    """How wide :func:`score_lines` draws with these heads, its widest row's "+1 name"
    included."""
    return 1 + 20 + len(side_names) * score_column(side_names) + 5 + \
        max(len(n) for n in side_names)


def score_lines(score: HandScore, totals: Sequence[int], side_names: Sequence[str],
                t: Callable[..., str], target: int | None,
                order: Sequence[int] | None = None) -> list[Line]:
    """The end-of-hand scoring table: one row per category with each side's count and
    who scores it, then the hand's points and the running totals; the columns in
    ``order`` (a seat's own side first), else the table's."""
    k = len(side_names)
    cols = list(order) if order is not None else list(range(k))
    name_w = 20
    # Two spaces at least between two heads: "host & bot2  bot3 & bot1", not run together.
    col_w = score_column(side_names)

    def row(label: str, cells: Sequence[str], winner: int | None, style: str = "") -> Line:
        line: Line = [("class:score.label " + style, f" {label:<{name_w}}")]
        for i in cols:
            st = "class:score.win" if winner == i else style
            line.append((st, f"{cells[i]:>{col_w}}"))
        if winner is None and cells and style != "class:score.head":
            line.append(("class:dim", f"  {t('sc_beji')}"))
        elif winner is not None:
            line.append(("class:score.win", f"  +1 {side_names[winner]}"))
        return line

    cats = score.categories
    rows: list[Line] = [
        [("class:score.head", f" {'':<{name_w}}")]
        + [("class:score.head", f"{side_names[i]:>{col_w}}") for i in cols],
        row(t("sc_carta"), [str(x) for x in score.cards], cats.get("carta")),
        row(t("sc_dinari"), [str(x) for x in score.diamonds], cats.get("dinari")),
    ]
    if "primiera" in cats:
        prim = score.primiera or (None,) * k
        rows.append(row(t("sc_primiera"), ["-" if p is None else str(p) for p in prim],
                        cats.get("primiera")))
    else:
        rows.append(row(t("sc_barmila"), [f"{s}/{x}" for s, x in zip(score.sevens,
                                                                     score.sixes)],
                        cats.get("barmila")))
    haya = cats.get("haya")
    rows.append(row(t("sc_haya"), ["✓" if haya == i else "" for i in range(k)], haya))
    chk: Line = [("class:score.label", f" {t('sc_chkobba'):<{name_w}}")]
    for i in cols:
        n = score.chkobbas[i]
        chk.append(("class:score.win" if n else "", f"{n:>{col_w}}"))
    rows.append(chk)
    pts: Line = [("class:score.total", f" {t('sc_hand'):<{name_w}}")]
    pts += [("class:score.total", f"{score.points[i]:>{col_w}}") for i in cols]
    rows.append(pts)
    label = t("sc_totals", n=target) if target is not None else t("sc_totals", n="?")
    tot: Line = [("class:score.total", f" {label:<{name_w}}")]
    tot += [("class:score.total", f"{totals[i]:>{col_w}}") for i in cols]
    rows.append(tot)
    return rows
