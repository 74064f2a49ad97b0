"""The terminal client's screen: the layout (header, body, events panel, chat, footer,
a framed dialog over it), which screen (:meth:`Screen.body`: the lobby, then the table)
and which dialog (:meth:`Screen.overlay_kind`) shows, and what each part draws.
Mixed into :class:`~.app.TuiApp`, whose state it reads: it changes nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.widgets import Frame

from chkobba_p2p import (
    HandScored,
    KnownPlayers,
    Outcome,
    PortMapped,
    PortMapUnavailable,
    TableState,
)
from chkobba_p2p.game import rules as R

from ..support.reach import join_code, table_address
from ..support.term import fit_text
from .keys import ESCAPE_DELAY, click, mouse_wanted
from .model.luckview import LuckAccount
from .model.pace import Pacer
from .model.past import PastGames, records_lines
from .model.presence import Presence, clock_text
from .model.view import TableView
from .parts.chat import ChatInput
from .parts.decision import Request, decision_lines
from .parts.narration import EventLog
from .parts.render import CardStyle, Line, click_target, control_text, wrap_line
from .parts.style import STYLE, ascii_frames, ascii_text
from .parts.terms import fit_lobby
from .screens import dialogs
from .screens.helpscreen import help_pages
from .screens.lobby import lobby_lines
from .screens.table import draw_table, header_line, showing

__all__ = ["Screen", "MIN_SIZE"]

#: The smallest terminal the table fits (columns, rows); below it the screen says so.
MIN_SIZE = (40, 12)


def clickable(text: Callable[[], StyleAndTextTuples], ui: Any
              ) -> Callable[[], StyleAndTextTuples]:
    """``text`` with a mouse handler on each fragment a drawing tagged for the mouse
    (:func:`.parts.render.click_tag`): a click (the button's release, as prompt_toolkit's own
    buttons act) goes to :func:`.keys.click`, the keys' path; the wheel and the rest are
    left to the window."""
    def handler(where: str, n: int) -> Callable[[MouseEvent], object]:
        def on_mouse(event: MouseEvent) -> object:
            if event.event_type == MouseEventType.MOUSE_UP:
                click(ui, where, n)
                ui.invalidate()
                return None
            if event.event_type == MouseEventType.MOUSE_DOWN:
                return None  # the press is the click's: nothing before its release
            return NotImplemented
        return on_mouse

    def draw() -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for fragment in text():
            # --no-mouse: no handlers either (the terminal reports no click then).
            target = click_target(fragment[0]) if ui.mouse else None
            if target is None:
                out.append(fragment)
            else:
                out.append((fragment[0], fragment[1], handler(*target)))
        return out
    return draw


def fit_keys(keys: str, room: int) -> str:
    """A footer's keys (items joined by `` · ``) in ``room`` columns: the items before
    the last two ("? help", "q leave") give way from the end, the first (what to do now)
    stays.  The French capture choice's keys were 82 columns at 80 and lost "q quitter"
    at the edge."""
    items = keys.split(" · ")
    while len(" · ".join(items)) > room and len(items) > 3:
        del items[-3]
    return " · ".join(items)


class Screen:
    kind: str
    t: Any
    symbols: bool
    color: bool
    mouse: bool
    state: TableState
    events: EventLog
    chat: ChatInput
    pacer: Pacer
    presence: Presence
    request: Request | None
    options: list[R.Move] | None
    opt_sel: int
    cut_sel: int
    sel: int
    status: tuple[str, str] | None
    hints: bool
    score_queue: list[HandScored]
    confirm_leave: bool
    confirm_resign: bool
    leave_by_interrupt: bool
    help: bool
    help_page: int
    sheet: bool
    hint: str | None
    finished: bool
    freeing: bool
    outcome: Outcome | None
    left: bool
    connected: bool
    address: str | None
    address6: str | None
    onion: str | None
    tor_wait: float | None
    port: int | None
    reach: PortMapped | PortMapUnavailable | None
    rematch: bool
    known: KnownPlayers | None
    past: PastGames | None
    log_path: Path | None
    #: The end screen shows the account of luck against play (l) instead of its box.
    luck_shown: bool
    luck: LuckAccount
    reconnect_allowance: float
    #: (rows, columns) to draw for, instead of the terminal's (for tests).
    size: tuple[int, int] | None
    rematch_answers: dict[int, bool]

    # Read-only, given by the classes this is mixed with (TuiApp, Leaving).
    @property
    def view(self) -> TableView:
        raise NotImplementedError

    @property
    def cs(self) -> CardStyle:
        raise NotImplementedError

    @property
    def asking_ready(self) -> bool:
        raise NotImplementedError

    def tor_line(self) -> str | None:
        raise NotImplementedError

    def tor_wait_left(self) -> float | None:
        raise NotImplementedError

    @property
    def can_step_away(self) -> bool:
        raise NotImplementedError

    @property
    def can_rematch(self) -> bool:
        raise NotImplementedError

    @property
    def rematch_waiting(self) -> bool:
        raise NotImplementedError

    def rematch_awaited(self) -> str:
        """Whose answer to the rematch we wait for: the host's, or the joiners' yet to
        answer."""
        view = self.view
        if self.kind != "host":
            return view.name(0)
        seats = range(1, len(self.state.names))
        return ", ".join(view.name(s) for s in seats if s not in self.rematch_answers)
    allowance_left: Callable[[], float]
    rematch_news: Callable[[], list[tuple[str, str]]]

    def _too_small_text(self) -> list[tuple[str, str]]:
        text = self.t("too_small", w=MIN_SIZE[0], h=MIN_SIZE[1])
        return dialogs.as_text(wrap_line([("class:warn", " " + text)],
                                         self._size()[1] - 1, " "))

    def too_small(self) -> bool:
        rows, cols = self._size()
        return cols < MIN_SIZE[0] or rows < MIN_SIZE[1]

    def _build(self, keys: KeyBindingsBase) -> Application:
        """The full-screen application, with ``keys`` (:func:`.keys.key_bindings` of the
        app this screen is part of)."""
        target: Any = self  # the app this screen is part of: the keys' KeyTarget

        def tx(draw: Callable[[], list[tuple[str, str]]]) -> Callable[[], StyleAndTextTuples]:
            return control_text(draw if self.symbols else ascii_text(draw))

        header = Window(FormattedTextControl(tx(self._header)), height=1,
                        style="class:header")
        # One row; two (or more) while a notice longer than the row is said (the
        # French hints notice lost its "(h : désactiver)" at the edge).
        footer = Window(FormattedTextControl(tx(self._footer)),
                        height=lambda: len(self._hint_rows()) or 1)
        # The table takes clicks on its cards (see clickable), only while the mouse is
        # the table's (keys.mouse_wanted): the terminal's own selection works elsewhere.
        left = Window(FormattedTextControl(clickable(tx(self._left), self)), wrap_lines=False)
        events = Window(FormattedTextControl(tx(self._events_text)), wrap_lines=False,
                        width=lambda: self._panel_width())
        events_below = Window(FormattedTextControl(tx(self._events_text)), height=5)
        small = Window(FormattedTextControl(tx(self._too_small_text)))
        bar, rule = ("│", "─") if self.symbols else ("|", "-")

        def body() -> Any:
            if self.too_small():
                return small
            if self._beside():
                return VSplit([left, Window(width=1, char=bar, style="class:dim"), events])
            return HSplit([left, Window(height=1, char=rule, style="class:dim"),
                           events_below])

        if not self.symbols:
            ascii_frames()
        overlay = ConditionalContainer(
            Frame(Window(FormattedTextControl(tx(self._overlay)), dont_extend_width=True,
                         dont_extend_height=True)),
            filter=Condition(lambda: self.overlay_kind() is not None
                             and not self.too_small()))
        root = FloatContainer(
            HSplit([header, DynamicContainer(body), self.chat.container(), footer]),
            floats=[Float(content=overlay)])
        app: Application = Application(
            layout=Layout(root), key_bindings=keys, full_screen=True,
            style=STYLE, color_depth=None if self.color else ColorDepth.DEPTH_1_BIT,
            mouse_support=Condition(lambda: mouse_wanted(target)),
            refresh_interval=1.0)  # the clocks count down
        # Esc acts at once (prompt_toolkit otherwise waits 1.5 s for a sequence after it).
        app.ttimeoutlen = ESCAPE_DELAY
        app.timeoutlen = ESCAPE_DELAY

        def forget_hint(_: object) -> None:
            self.hint = None  # a hint lasts until the next key

        app.key_processor.before_key_press += forget_hint
        return app

    def _score_closes_in(self) -> float | None:
        """Seconds before the score sheet up now closes by itself (None: it waits for a
        key: the match's last, or one queued behind another)."""
        at = self.pacer.closes_at
        return None if at is None or self.score_queue else at - time.monotonic()

    def _size(self) -> tuple[int, int]:
        if self.size is not None:
            return self.size
        try:
            size = get_app().output.get_size()
            return size.rows, size.columns
        except Exception:
            return 24, 80

    def _panel_width(self) -> int:
        cols = self._size()[1]
        width = 36 if cols >= 110 else 30 if cols >= 90 else 28
        # The host's lobby: the events give way (down to 18 columns) so that the join
        # code stays whole on its line; with a seat secret it is 55 characters and was
        # cut at the pane's edge at 80 columns, so a friend copied a code that failed.
        need = self._join_code_room()
        if need and cols - 1 - width < need:
            width = max(18, cols - 1 - need)
        return width

    def _join_code_room(self) -> int:
        """Columns the lobby needs for an address on a line of its own (its indent, the
        address, a margin): the host's join code, or the table a joiner is reaching
        ("Connecting to" then the address: an onion address broke across two lines at
        80 columns); 0 where no such address is shown."""
        if self.kind == "join" and not self.connected and self.address:
            return len(table_address(self.address)) + 5
        if self.kind != "host" or self.state.started or self.port is None:
            return 0
        code = join_code(self.address or "127.0.0.1", self.port, self.state.my_fingerprint)
        # The onion code's table address whole on its line too (.lobby._code_lines).
        onion = len(f"{self.onion}:{self.port}") + 7 if self.onion else 0
        return max(len(code) + 5, onion)

    def _beside(self) -> bool:
        """The events beside the table or lobby (else under it, as under 72 columns):
        also under it while an address needs more room than the events leave (a
        joiner's onion address, 67 characters, at 80 columns)."""
        cols = self._size()[1]
        return cols >= 72 and cols - 1 - 18 >= self._join_code_room()

    def _left_width(self) -> int:
        rows, cols = self._size()
        return cols - self._panel_width() - 1 if self._beside() else cols

    def overlay_kind(self) -> str | None:
        """The dialog over the screen, if any: ``leave`` (``away`` at a table with
        people: step away or resign; ``resign`` to confirm resigning), ``help``,
        ``score`` or ``over``."""
        if self.confirm_resign and self.confirm_leave and self.can_step_away:
            return "resign"
        if self.confirm_leave:
            return "away" if self.can_step_away else "leave"
        if self.help:
            return "help"
        if self.score_queue or self.pacer.scoring:
            return "score"  # the last hand's scoring first, then the match's end
        if self.finished and self.outcome is not None and not self.left:
            return "over"
        return None

    # ------------------------------------------------------------------ drawing

    def _header(self) -> list[tuple[str, str]]:
        return header_line(self.view, f" {self.t('app')}", self._size()[1])

    def _hint_rows(self) -> list[str]:
        """The notice said in the footer until the next key, if any, in rows of the
        screen's width broken between words (none while chat is open)."""
        if self.hint is None or self.chat.is_open:
            return []
        return fit_text(self.hint, self._size()[1] - 2)

    def _footer(self) -> list[tuple[str, str]]:
        t = self.t
        kind = self.overlay_kind()
        rows = self._hint_rows()
        if rows:
            return [("class:warn", "\n".join(f" {row} " for row in rows))]
        if self.chat.is_open:
            keys = t("keys_chat")
        elif kind == "help":
            pages = len(self._help_pages())
            keys = t("help_pages", n=min(self.help_page, pages - 1) + 1, of=pages) \
                if pages > 1 else t("help_close")
        elif kind == "leave":
            keys = t("leave_keys")
        elif kind == "away":
            keys = t("away_keys")  # not the play's keys under it: they do nothing now
        elif kind == "resign":
            keys = t("resign_keys")
        elif kind == "score":
            keys = dialogs.score_continue(t, self._score_closes_in())
        elif self.finished and self.rematch_waiting:
            keys = t("keys_rematch_wait", names=self.rematch_awaited())
        elif self.finished:
            keys = t("keys_over_rematch" if self.can_rematch else "keys_over")
        elif self.sheet and self.state.started:
            keys = t("keys_sheet")
        elif self.request is not None and self.request.kind == "cut":
            keys = t("keys_cut")
        elif self.request is not None and self.options is not None:
            keys = t("keys_options", n=len(self.options))  # the capture, not the card
        elif self.request is not None:
            keys = t("keys_play")
        elif self.freeing and self.kind == "host" and not self.state.started:
            # As the lobby numbers them (from 1, the host's seat first).
            seats = " · ".join(f"{i + 1} {n}" for i, n in enumerate(self.state.names)
                               if i and n)
            keys = t("keys_free", seats=seats)
        elif self.asking_ready:
            keys = t("keys_lobby_host" if self.kind == "host" and any(self.state.names[1:])
                     else "keys_lobby")
        elif not self.state.started:  # no hints nor sheet before the first deal
            keys = t("keys_lobby_idle_host" if self.kind == "host"
                     and any(self.state.names[1:]) else "keys_lobby_idle")
        else:
            keys = t("keys_idle")
        return [("class:keys", f" {fit_keys(keys, self._size()[1] - 2)} ")]

    def _events_text(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        width = self._panel_width() if self._beside() else cols
        height = rows - 2 if self._beside() else 5
        return self.events.panel(self.t("events"), width, height)

    def _left(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        height = rows - 2 if self._beside() else rows - 8
        out: list[tuple[str, str]] = []
        for line in self.body(self._left_width(), max(1, height)):
            out += line + [("", "\n")]
        return out

    def body(self, width: int, height: int) -> list[Line]:
        """The screen under the header: the lobby until the first hand, then the table."""
        view = self.view
        if not self.state.started:
            # A seat lost before the first deal counts down here too, live.
            waiting = [] if self.finished else self.presence.countdown_lines(view, width)
            return fit_lobby(waiting + ([[]] if waiting else [])
                             + lobby_lines(view, width, kind=self.kind, connected=self.connected,
                                  address=self.address, port=self.port,
                                  rematch=self.rematch, address6=self.address6,
                                  onion=self.onion, tor=self.tor_line(),
                                  tor_wait=self.tor_wait_left(),
                                  reach=self.reach, asking=self.asking_ready,
                                  known=self.known, past=self.past), height)
        if self.sheet:  # instead of the table, its last lines if it is long
            lines = dialogs.sheet_lines(view, width, "sheet_empty")
            # Under it, what must not be missed: the seats away, and our turn with its
            # clock (the sheet takes no card: the time runs while it is read).
            tail = [] if self.finished else self.presence.countdown_lines(view, width)
            if self.request is not None and not self.finished:
                left = self.presence.move_left(view.state, view.state.seat, self.finished)
                said = self.t("sheet_your_turn") if left is None else \
                    self.t("sheet_your_turn_in", t=clock_text(left))
                tail += wrap_line([("class:warn", " " + said)], width - 1, "   ")
            tail = [[], *tail] if tail else []
            room = max(2, height - len(tail))
            return lines[:1] + lines[max(1, len(lines) - room + 1):] + tail
        req = self.request
        below = decision_lines(view, width, req, options=self.options, opt_sel=self.opt_sel,
                               cut_sel=self.cut_sel, status=self.status, hints=self.hints,
                               finished=self.finished)
        if req is not None:
            below += self.presence.own_clock(view, width, self.finished)
        marked = self.options[self.opt_sel].capture if self.options is not None else frozenset()
        selected = self.sel if req is not None and req.kind == "play" else None
        return draw_table(view, width, height, selected=selected, marked=marked, below=below,
                          seat_extra=lambda s: self.presence.seat_clock(view, s, self.finished),
                          # Once the game is over, nobody is waited for any more.
                          notices=[] if self.finished
                          else self.presence.countdown_lines(view, width),
                          showing=showing(view, self.pacer.showing, width))

    def _log_done(self) -> Path | None:
        """The log of the match that ended, if there is one on disk."""
        o = self.outcome
        path = (o.log_path if o is not None else None) or self.log_path
        return Path(path) if path and Path(path).exists() else None

    def toggle_luck(self) -> None:
        """``l`` on the end screen: the account of luck against play, computed the first
        time it is asked (in a thread: :class:`.model.luckview.LuckAccount`), or back."""
        log = self._log_done()
        if log is None:
            return
        self.luck_shown = not self.luck_shown
        if self.luck_shown:
            self.luck.start(log)

    def _records(self) -> list[str]:
        """For the end screen, our record against each player of another side, counted
        as the lobby and ``chkobba history`` count (see :func:`.model.past.records_lines`)."""
        st = self.state
        sides: dict[int, list[int]] = {}
        for s in range(st.players or len(st.keys)):
            sides.setdefault(st.side(s), []).append(s)
        return records_lines(self.t, self.past, st.keys, st.names, st.seat,
                             list(sides.values()))

    def _help_pages(self) -> list[list[Line]]:
        """The help's pages at this screen's size (one when it all fits, inside the
        frame's two borders, with the footer in sight)."""
        rows, cols = self._size()
        width = max(30, min(76, cols - 6))
        # In the lobby, the lobby's keys (the table's do nothing there yet).
        lobby = None if self.state.started or self.finished else self.kind
        # Once the match is over, the end screen's keys (r, l), not the table's.
        over = self.finished and self.outcome is not None
        return help_pages(self.t, self.state.rules, self.t.lang, width, rows - 4, lobby,
                          over=over, mouse=self.mouse, players=self.state.players)

    @property
    def help_paged(self) -> bool:
        """The help has pages (←→ turn them)."""
        return len(self._help_pages()) > 1

    def turn_help_page(self, step: int) -> None:
        self.help_page = (self.help_page + step) % len(self._help_pages())

    def _overlay(self) -> list[tuple[str, str]]:
        kind = self.overlay_kind()
        lines: list[Line] = []
        if kind == "leave":
            lines = dialogs.leave_lines(self.t, self.kind, self.state.started)
        elif kind == "resign":
            lines = dialogs.resign_lines(self.t)
        elif kind == "help":
            pages = self._help_pages()
            lines = pages[min(self.help_page, len(pages) - 1)]
        elif kind == "away":
            lines = dialogs.away_lines(self.t, clock_text(self.allowance_left()),
                                       self.leave_by_interrupt)
        elif kind == "score":
            scored = self.score_queue[0] if self.score_queue else self.state.last_score
            if scored is not None:
                lines = dialogs.score_dialog_lines(self.view, scored, self._score_closes_in())
        elif kind == "over" and self.luck_shown:
            lines = dialogs.luck_box_lines(self.t, self.luck.lines, self.luck.failed,
                                           self._log_done(), self._size()[1])
        elif kind == "over":
            lines = dialogs.over_lines(self.view, self.outcome, self.log_path, self._size()[1],
                                       rematch=self.can_rematch, records=self._records(),
                                       news=self.rematch_news(), luck=True)
        return dialogs.as_text(lines)

