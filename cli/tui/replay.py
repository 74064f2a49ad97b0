"""``chkobba replay LOG --view``: the table of the live client, driven by a log.

The log is checked by the library's observer and turned into a
:class:`~chkobba_p2p.timeline.Timeline` (the table after every move, seen from no seat);
each step is drawn with the live client's own :func:`~.table.draw_table` and narrated in
the events panel by :class:`~.narration.EventLog`, so a replay looks as the game did.
Keys: ←/→ a move, PgUp/PgDn a hand, Home/End the start and the end, ``s`` the score
sheet, ``q`` to quit.  The verdict stays in a banner; for an invalid log the offending
entry is highlighted with the player it blames.  No network, no trio.
"""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth

from chkobba_p2p.cards import FigureConvention
from chkobba_p2p.observer import INVALID, VALID, DeckRevealed, Verdict
from chkobba_p2p.peer import Aborted, HandScored
from chkobba_p2p.timeline import Timeline

from ..i18n import Translator
from .dialogs import score_dialog_lines
from .narration import EventLog
from .render import Line, control_text, wrap_line
from .stopped import stop_sentences
from .style import STYLE
from .table import draw_table
from .view import TableView, card_style

__all__ = ["ReplayViewer"]

PANEL = 28  # the events panel's width, as in the live client


class ReplayViewer:
    """The state of the replay screen: which frame shows, and how it is drawn."""

    def __init__(self, timeline: Timeline, *, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None) -> None:
        self.tl = timeline
        self.t = Translator(lang)
        self.symbols = symbols
        self.color = color
        self.figures = figures
        self.at = 0
        self.sheet = False
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
        return TableView(state, self.t, card_style(state, self.figures, self.symbols))

    def header(self, cols: int) -> list[tuple[str, str]]:
        t, f = self.t, self.tl.frames[self.at]
        parts = [f" {t('app')} · {t('replay')}"]
        if f.hand:
            parts.append(t("hand_no", n=f.hand))
        parts.append(t("replay_step", i=self.at + 1, n=len(self.tl.frames), entry=f.entry))
        left = " · ".join(parts)
        st = f.state
        right = ""
        if st.totals and st.players:
            view = self.view()
            right = "  ".join(f"{view.side_name(i)} {p}" for i, p in enumerate(st.totals))
        pad = max(1, cols - len(left) - len(right) - 1)
        return [("class:header", (left + " " * pad + right + " ")[:cols])]

    def banner(self, width: int) -> list[Line]:
        """The verdict, always in view; the blamed player for an invalid log."""
        v, t = self.tl.verdict, self.t
        if v is None:
            return []
        if v.verdict == VALID:
            line: Line = [("class:ok", " " + t("verdict_valid", why=self._words(v)))]
        elif v.verdict == INVALID:
            line = [("class:error", " " + t("verdict_invalid", entry=v.entry,
                                             why=f"{v.code}: {v.reason}"))]
        else:
            line = [("class:warn", " " + t("verdict_incomplete", why=self._words(v)))]
        lines = wrap_line(line, width - 1, indent="   ")[:3]
        if v.verdict == INVALID:
            lines.append([("class:error", " " + self._blamed(v))])
        return lines

    def _words(self, v: Verdict) -> str:
        """A valid or incomplete verdict in the players' names and the screen's language
        (the library's ``reason`` is an auditor's English, with seat numbers).  An invalid
        one keeps the auditor's words: they name the entry and the check it fails."""
        t, view = self.t, self.view(len(self.tl.frames) - 1)
        if v.winner is not None and v.code is None and len(v.totals) == 2:
            score = f"{v.totals[v.winner]}-{v.totals[1 - v.winner]}"  # the winner's first
            return t("verdict_won", name=view.side_name(v.winner), score=score)
        if v.winner is not None and v.code == "resigned":
            return t("verdict_resigned", who=view.name(v.by_seat),
                     name=view.side_name(v.winner))
        if v.code == "aborted":
            stop = next((f.event for f in reversed(self.tl.frames)
                         if isinstance(f.event, Aborted)), None)
            if stop is not None:
                return " ".join(text for _, text in stop_sentences(view, stop))
        if v.code == "truncated":
            return t("verdict_truncated")
        if v.code == "unfinished":
            return t("verdict_unfinished")
        return v.reason

    def _blamed(self, v: Verdict) -> str:
        t, table = self.t, self.tl.table
        if v.blamed is None or table is None or not 0 <= v.blamed < table.players:
            return t("verdict_nobody")
        seat = table.seats[v.blamed]
        return t("verdict_blamed", name=seat.name, fp=seat.fingerprint)

    def below(self, width: int) -> list[Line]:
        """The lines under the table for this step: the offending entry, a hand's score
        and the cards its seats were dealt, the score sheet."""
        t, f, view = self.t, self.tl.frames[self.at], self.view()
        out: list[Line] = []
        if self.at == self.tl.offending:
            out.append([("class:error reverse", " " + t("offending_here") + " ")])
            out.append([("class:error", " " + self._blamed(self.tl.verdict))]
                       if isinstance(self.tl.verdict, Verdict) else [])
        if isinstance(f.event, HandScored):
            out.extend(line for line in score_dialog_lines(view, f.event)[1:]
                       if not any("class:keys" in style for style, _ in line))
            if isinstance(f.revealed, DeckRevealed):
                for seat in range(f.state.players or 0):
                    cards = view.labels(f.revealed.dealt_to(seat))
                    out.extend(wrap_line([("class:dim", " " + t(
                        "dealt_was", name=f.state.name(seat), cards=cards))], width - 1,
                        indent="   "))
        if self.sheet:
            out.append([("class:title", " " + t("sheet_title"))])
            for ev in f.state.scored:
                out.append([("", " " + t("sheet_row", n=ev.number,
                                         points=" / ".join(map(str, ev.score.points)),
                                         totals=" / ".join(map(str, ev.totals))))])
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
        table = draw_table(self.view(), width, max(1, body_h - len(top)),
                           below=self.below(width))
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
        footer = Window(FormattedTextControl(
            lambda: [("class:keys", f" {self.t('keys_replay')} ")]), height=1)
        kb = KeyBindings()

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
        return self.app

    def run(self) -> None:
        self.build().run()
