"""``chkobba replay LOG --view``: the table of the live client, driven by a log.

The log is checked by the library's observer and turned into a
:class:`~chkobba_p2p.timeline.Timeline` (the table after every move, seen from no seat);
each step is drawn with the live client's own :func:`~.table.draw_table` and narrated in
the events panel by :class:`~..parts.narration.EventLog`, so a replay looks as the game did.
Keys: ←/→ a move, PgUp/PgDn a hand, Home/End the start and the end, ``s`` the score
sheet, ``q`` to quit.  The verdict stays in a banner; for an invalid log the offending
entry is highlighted with the player it blames.  No network, no trio.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth

from chkobba_p2p import Aborted, HandScored
from chkobba_p2p.game.cards import FigureConvention, card
from chkobba_p2p.game.rules import CutEvent, PlayEvent
from chkobba_p2p.observe.observer import DeckRevealed
from chkobba_p2p.observe.review import Grade
from chkobba_p2p.observe.verdict import INVALID, UNSUPPORTED, VALID, Verdict
from chkobba_p2p.timeline import Timeline

from ...outputs import scoresheet
from ...words import coach
from ...words.event_words import words
from ...words.i18n import Translator, unsupported_words
from ..model.view import TableView, card_style
from ..parts.narration import EventLog
from ..parts.render import Line, control_text, line_text, wrap_line
from ..parts.stopped import stop_sentences
from ..parts.style import STYLE
from .dialogs import score_dialog_lines
from .table import draw_table

__all__ = ["ReplayViewer"]

PANEL = 28  # the events panel's width, as in the live client


def _grades_by_frame(timeline: Timeline, grades: Iterable[Grade]) -> dict[int, Grade]:
    """Which frame shows each graded decision: a hand's n-th play, and its (last) cut."""
    by_key = {(g.hand, g.number if g.kind == "play" else 0): g for g in grades}
    out: dict[int, Grade] = {}
    plays: dict[int, int] = {}
    for i, f in enumerate(timeline.frames):
        if isinstance(f.event, PlayEvent):
            plays[f.hand] = plays.get(f.hand, 0) + 1
            g = by_key.get((f.hand, plays[f.hand]))
        elif isinstance(f.event, CutEvent):
            g = by_key.get((f.hand, 0))
            if g is not None:  # a redealt opening's cut gives way to the hand's own
                out = {k: v for k, v in out.items() if v is not g}
        else:
            continue
        if g is not None and g.kind == ("play" if isinstance(f.event, PlayEvent) else "cut"):
            out[i] = g
    return out


def _moves_by_frame(timeline: Timeline) -> dict[int, int]:
    """The move each frame shows, numbered as the coach's text and the web page number
    it: a play, the hand's n-th card played (from 1); the cut, 0."""
    out: dict[int, int] = {}
    plays: dict[int, int] = {}
    for i, f in enumerate(timeline.frames):
        if isinstance(f.event, PlayEvent):
            plays[f.hand] = plays.get(f.hand, 0) + 1
            out[i] = plays[f.hand]
        elif isinstance(f.event, CutEvent):
            out[i] = 0
    return out


class ReplayViewer:
    """The state of the replay screen: which frame shows, and how it is drawn."""

    def __init__(self, timeline: Timeline, *, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None,
                 grades: Iterable[Grade] = (), four_colour: bool = False) -> None:
        self.tl = timeline
        self.four_colour = four_colour
        #: The coach's grade of the move each frame shows (``replay --review --view``).
        self.grades = _grades_by_frame(timeline, grades)
        #: The move each frame shows, as the coach numbers it ("play 5", "the cut").
        self.moves = _moves_by_frame(timeline)
        self.t = Translator(lang)
        self.symbols = symbols
        self.color = color
        self.figures = figures
        self.at = 0
        self.sheet = False
        #: Said in the bar until the next key: a key the viewer has no use for.
        self.hint: str | None = None
        self._log_at = -1
        self._log = EventLog()
        self.app: Application | None = None

    # ------------------------------------------------------------------ moving

    def move(self, by: int) -> None:
        self.at = self.tl.step(self.at, by)

    def hand(self, by: int) -> None:
        self.at = self.tl.hand_step(self.at, by)

    def home(self) -> None:
        self.at = 0

    def end(self) -> None:
        self.at = len(self.tl.frames) - 1

    # ------------------------------------------------------------------ drawing

    def view(self, i: int | None = None) -> TableView:
        state = self.tl.frames[self.at if i is None else i].state
        return TableView(state, self.t,
                         card_style(state, self.figures, self.symbols, self.t.lang,
                                    self.four_colour))

    def header(self, cols: int) -> list[tuple[str, str]]:
        t, f = self.t, self.tl.frames[self.at]
        parts = [f" {t('app')} · {t('replay')}"]
        if f.hand:
            parts.append(t("hand_no", n=f.hand))
        if self.at in self.moves:  # the coach's numbering: "hand 2 · play 5"
            parts.append(self.move_name(self.at))
        step = t("replay_step", i=self.at + 1, n=len(self.tl.frames), entry=f.entry)
        left = " · ".join([*parts, step])
        st = f.state
        right = ""
        if st.totals and st.players:
            view = self.view()
            short = t("replay_step_short", i=self.at + 1, n=len(self.tl.frames))
            # The totals by their whole names first: the app's name goes (the screen
            # says it is a replay), then the entry's number (the offending entry is
            # named in the banner): "step 45/45", then the word "replay" (the banner and
            # the keys say it too), then the hand's and move's; the names are cut
            # meanwhile, never below SHORTEST_NAME (view.totals_line).
            lefts = [left, " · ".join([f" {t('replay')}", *parts[1:], step]),
                     " · ".join([f" {t('replay')}", *parts[1:], short]),
                     " " + " · ".join([*parts[1:], short]), f" {short}"]
            # Three blanks at least between the two (one ran "step 13/174" into the
            # first side's names).
            for left in lefts:
                right = view.totals_line(st.totals, cols - len(left) - 4)
                if len(left) + len(right) + 4 <= cols:
                    break
        pad = max(1, cols - len(left) - len(right) - 1)
        return [("class:header", (left + " " * pad + right + " ")[:cols])]

    def move_name(self, i: int) -> str:
        """The move frame ``i`` shows, as the coach's text and page name it."""
        n = self.moves[i]
        return self.t("move_play", n=n) if n else self.t("move_cut")

    def banner(self, width: int) -> list[Line]:
        """The verdict, always in view; the blamed player for an invalid log."""
        v, t = self.tl.verdict, self.t
        if v is None:
            return []
        if v.verdict == VALID:
            line: Line = [("class:ok", " " + t("verdict_valid", why=self._words(v)))]
        elif v.verdict == INVALID:
            line = [("class:error", " " + t("verdict_invalid", entry=v.entry,
                                             why=f"{v.code}: {self._words(v)}"))]
        elif v.verdict == UNSUPPORTED:  # nobody blamed: the table is beyond this version
            line = [("class:warn", " " + t("verdict_unsupported",
                                            why=unsupported_words(t, v.unknown_caps)))]
        else:
            line = [("class:warn", " " + t("verdict_incomplete", why=self._words(v)))]
        lines = wrap_line(line, width - 1, indent="   ")[:3]
        if v.verdict == INVALID:
            lines.append([("class:error", " " + self._blamed(v))])
        return lines

    def _words(self, v: Verdict) -> str:
        """A valid or incomplete verdict in the players' names and the screen's language
        (the library's ``reason`` is an auditor's English, with seat numbers: never shown
        for these).  An invalid one keeps the auditor's words: they name the entry and the
        check it fails."""
        t, view = self.t, self.view(len(self.tl.frames) - 1)
        team = "_team" if view.state.teams else ""  # "hana & sami win", "hana wins"
        if v.winner is not None and v.code is None and len(v.totals) >= 2:
            score = view.score(v.totals, v.winner)  # the winner's first; whose at 3
            return t("verdict_won" + team, name=self.side_names(v.winner), score=score)
        if v.winner is not None and v.code == "resigned":
            return t("verdict_resigned" + team, who=view.name(v.by_seat),
                     name=self.side_names(v.winner))
        if v.winner is not None and v.code == "on_time" and v.blamed is not None:
            return t("verdict_on_time" + team, who=view.name(v.blamed),
                     name=self.side_names(v.winner), clock=view.clock_of(v.by_seat))
        if v.code == "resigned":  # at 3 players a resignation names no winner
            return t("verdict_resigned_nobody", who=view.name(v.by_seat))
        if v.code == "aborted":
            stop = next((f.event for f in reversed(self.tl.frames)
                         if isinstance(f.event, Aborted)), None)
            if stop is not None:
                return " ".join(text for _, text in stop_sentences(view, stop))
        if v.code == "truncated":
            return t("verdict_truncated")
        if v.code == "unfinished":
            return t("verdict_unfinished")
        # A match left, decided or disputed: the client's words for the verdict, in the
        # players' names and the screen's language (never the observer's "seat 0").
        table = self.tl.table
        return words(v, t, names=[s.name for s in table.seats] if table is not None else [])

    def side_names(self, side: int) -> str:
        """A side by its players' names: "hana" at 2 players, "hana & sami" at 4 (the
        live client says "us"/"them"; a replay is seen from no seat)."""
        st = self.tl.frames[-1].state
        return " & ".join(st.name(x) for x in range(st.players or 2) if st.side(x) == side)

    def _blamed(self, v: Verdict) -> str:
        t, table = self.t, self.tl.table
        if v.blamed is None or table is None or not 0 <= v.blamed < table.players:
            return t("verdict_nobody")
        seat = table.seats[v.blamed]
        return t("verdict_blamed", name=seat.name, fp=seat.fingerprint)

    def face_up(self, seat: int) -> Line:
        """After a seat's line: its cards in hand at this step, once the hand's seeds
        opened (a replay is after the fact: every hand face up)."""
        held = self.tl.frames[self.at].held
        if held is None or not 0 <= seat < len(held) or not held[seat]:
            return []
        cs = self.view().cs
        line: Line = [("", " ")]
        for c in held[seat]:  # as dealt, as the live table shows a hand (not sorted)
            line += [("", " "), (cs.style(c), cs.label(c))]
        return line

    def below(self, width: int) -> list[Line]:
        """The lines under the table for this step: the offending entry, a hand's score
        and the cards its seats were dealt, the score sheet."""
        t, f, view = self.t, self.tl.frames[self.at], self.view()
        out: list[Line] = []
        if self.at == self.tl.offending:
            out.append([("class:error reverse", " " + t("offending_here") + " ")])
            out.append([("class:error", " " + self._blamed(self.tl.verdict))]
                       if isinstance(self.tl.verdict, Verdict) else [])
        grade = self.grades.get(self.at)
        if grade is not None:
            style = {"blunder": "class:error", "mistake": "class:warn"}.get(grade.label,
                                                                          "class:dim")
            words = coach.short_grade(grade, lambda c: view.cs.label(card(str(c))), t)
            out.extend(wrap_line([(style, " " + t("coach_says", name=f.state.name(grade.seat),
                                                  where=self.move_name(self.at),
                                                  grade=words))], width - 1, indent="   "))
        if f.held is not None:
            out.extend(wrap_line([("class:dim", " " + t("revealed_note"))], width - 1,
                                 indent="   "))
        if isinstance(f.event, HandScored):
            out.extend(line for line in score_dialog_lines(view, f.event)[1:]
                       if not any("class:keys" in style for style, _ in line))
            if isinstance(f.revealed, DeckRevealed):
                for seat in range(f.state.players or 0):
                    cards = view.labels(f.revealed.dealt_to(seat))
                    out.extend(wrap_line([("class:dim", " " + t(
                        "dealt_was", name=f.state.name(seat), cards=cards))], width - 1,
                        indent="   "))
        return out

    def sheet_lines(self, width: int) -> list[Line]:
        """The score sheet up to this step: each hand's categories and points per side
        by name, the totals and each side's tally."""
        t, f = self.t, self.tl.frames[self.at]
        hands = [scoresheet.from_score(ev.number, ev.score, ev.totals) for ev in f.state.scored]
        out: list[Line] = [[("class:title", " " + t("sheet_title"))]]
        names = [self.side_names(i) for i in range(len(hands[0].points))] if hands else []
        for text in scoresheet.sheet_lines(hands, names, t):
            out.extend(wrap_line([("", " " + text)], width - 1, indent="   "))
        if not hands:  # early in the first hand: say so, not a bare title
            out.append([("class:dim", " " + t("watch_sheet_empty"))])
        return out

    def events(self, width: int, height: int) -> list[tuple[str, str]]:
        if self._log_at != self.at:  # the panel shows what happened up to this step
            self._log = EventLog()
            for i in range(self.at + 1):
                ev = self.tl.frames[i].event
                if not isinstance(ev, Verdict):
                    self._log.narrate(ev, self.view(i))
            self._log_at = self.at
        return self._log.panel(self.t("events"), width, height)

    def screen(self, rows: int, cols: int) -> tuple[list[tuple[str, str]],
                                                    list[tuple[str, str]]]:
        """The left side (banner, table, lines under it) and the events panel."""
        panel = PANEL if cols >= 72 else 0
        width = cols - panel - (1 if panel else 0)
        body_h = rows - 2
        top = self.banner(width)
        room = max(1, body_h - len(top))
        if self.sheet:  # the score sheet in the table's place; the latest hands and totals
            table = self.sheet_lines(width)
            if len(table) > room:
                table = table[:1] + table[len(table) - room + 1:]
        else:
            table = draw_table(self.view(), width, room, below=self.below(width),
                               seat_extra=self.face_up)
        left: list[tuple[str, str]] = []
        for line in top + table:
            left += line + [("", "\n")]
        right = self.events(panel, body_h) if panel else []
        return left, right

    # ------------------------------------------------------------------ application

    def build(self) -> Application:
        def size() -> tuple[int, int]:
            if self.app is None:
                return 24, 80
            s = self.app.output.get_size()
            return s.rows, s.columns

        header = Window(FormattedTextControl(control_text(lambda: self.header(size()[1]))),
                        height=1)
        left = Window(FormattedTextControl(control_text(lambda: self.screen(*size())[0])))
        right = Window(FormattedTextControl(control_text(lambda: self.screen(*size())[1])),
                       width=PANEL)
        body = VSplit([left, Window(width=1, char="│", style="class:dim"), right])
        # Two rows when the note about a key and the keys do not fit one (they were cut
        # at 80 columns: "... Début/Fin · s").
        footer = Window(FormattedTextControl(control_text(lambda: self.footer(size()[1]))),
                        height=lambda: len(self.footer_rows(size()[1])))
        kb = KeyBindings()

        @kb.add("<any>")  # first: every key below wins over it
        def _(e: KeyPressEvent) -> None:
            self.hint = self.t("hint_key_view")

        @kb.add("right")
        def _(e: KeyPressEvent) -> None:
            self.move(1)

        @kb.add("left")
        def _(e: KeyPressEvent) -> None:
            self.move(-1)

        @kb.add("pagedown")
        def _(e: KeyPressEvent) -> None:
            self.hand(1)

        @kb.add("pageup")
        def _(e: KeyPressEvent) -> None:
            self.hand(-1)

        @kb.add("home")
        def _(e: KeyPressEvent) -> None:
            self.home()

        @kb.add("end")
        def _(e: KeyPressEvent) -> None:
            self.end()

        @kb.add("s")
        def _(e: KeyPressEvent) -> None:
            self.sheet = not self.sheet

        @kb.add("q")
        @kb.add("escape")
        @kb.add("c-c")
        def _(e: KeyPressEvent) -> None:
            e.app.exit()

        self.app = Application(layout=Layout(HSplit([header, body, footer])), key_bindings=kb,
                               full_screen=True, style=STYLE,
                               color_depth=None if self.color else ColorDepth.DEPTH_1_BIT)
        self.app.key_processor.before_key_press += lambda _: setattr(self, "hint", None)
        return self.app

    def footer_rows(self, cols: int = 80) -> list[list[tuple[str, str]]]:
        """The keys, or, after a key the viewer has no use for, that and the keys: on
        one row of ``cols`` columns, else the note on a row above the keys."""
        keys = [("class:keys", f" {self.t('keys_replay')} ")]
        if self.hint is None:
            return [keys]
        note = [("class:warn", f" {self.hint} ")]
        if len(line_text(note + keys)) <= cols:
            return [note + keys]
        return [note, keys]

    def footer(self, cols: int = 80) -> list[tuple[str, str]]:
        rows = self.footer_rows(cols)
        out: list[tuple[str, str]] = []
        for i, row in enumerate(rows):
            out += ([("", "\n")] if i else []) + row
        return out

    def run(self) -> None:
        self.build().run()
