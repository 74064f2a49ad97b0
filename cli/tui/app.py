"""The terminal client's application: the state of the screen, the actions keys call,
the layout, and which screen or dialog shows (the map of the package, and where a new
screen goes, is in :mod:`chkobba_cli.tui`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
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
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.widgets import Frame

from chkobba_p2p import rules as R
from chkobba_p2p import session as S
from chkobba_p2p.cards import FigureConvention
from chkobba_p2p.known import KnownPlayers
from chkobba_p2p.peer import Listening, Outcome, PortMapped, PortMapUnavailable, SeatController
from chkobba_p2p.tablestate import TableState

from ..i18n import Translator
from . import dialogs
from .chat import ChatInput
from .decision import Request, decision_lines, refusal
from .helpscreen import help_lines
from .keys import key_bindings
from .leaving import Leaving
from .lobby import lobby_lines
from .narration import EventLog
from .pace import DEFAULT_PACE, SCORE_WAIT, Pacer
from .presence import Presence, clock_text
from .render import CardStyle, Line, wrap_line
from .style import STYLE, ascii_frames, ascii_text
from .table import draw_table, showing
from .view import TableView, card_style

__all__ = ["TuiApp", "MIN_SIZE"]

#: The smallest terminal the table fits (columns, rows); below it the screen says so.
MIN_SIZE = (40, 12)


class TuiApp(Leaving):
    """The screen: table, hands, captures, scores, lobby, events, and the key bindings."""

    def __init__(self, *, kind: str, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None,
                 address: str | None = None, my_fingerprint: str | None = None,
                 seat: int | None = None, rules: R.Ruleset | None = None,
                 players: int | None = None, log_path: Path | None = None,
                 turn_timeout: float | None = None, reconnect_timeout: float = 60.0,
                 rematch: bool = False, address6: str | None = None,
                 pace: float = DEFAULT_PACE, score_wait: float = SCORE_WAIT,
                 known: KnownPlayers | None = None) -> None:
        self.kind = kind  # "play", "host" or "join"
        self.t = Translator(lang)
        self.figures_override = figures
        self.symbols = symbols
        self.color = color
        self.address = address
        self.address6 = address6  # a host's global IPv6 address, if it has one
        #: The router's answer to the host's port mapping, once it came.
        self.reach: PortMapped | PortMapUnavailable | None = None
        self.log_path = log_path
        st = TableState(my_fingerprint=my_fingerprint, seat=seat, rules=rules)
        if players:
            st = st.with_players(players)
        self.state = st
        self.events = EventLog(self.invalidate)
        # The decision in progress (see .decision) and where the keys are in it.
        self.request: Request | None = None
        self.sel = 0
        self.options: list[R.Move] | None = None
        self.opt_sel = 0
        self.cut_sel = 0
        self.status: tuple[str, str] | None = None
        self.hints = False
        self.score_queue: list[S.HandScored] = []  # scoring dialogs still to show
        self.confirm_leave = False
        self._exit_pending = False
        #: (rows, columns) to draw for, instead of the terminal's (for tests).
        self.size: tuple[int, int] | None = None
        self.port: int | None = None
        self.connected = False
        self.finished = False
        self.outcome: Outcome | None = None
        self.left = False
        self.token: trio.lowlevel.TrioToken | None = None
        self.cancel_scope: trio.CancelScope | None = None
        self.leave_requested = False
        #: The seat controller the peer runs (set by :class:`~.guest.TuiSeat`), for chat.
        self.controller: SeatController | None = None
        self.chat = ChatInput(self.t, self.log, self.invalidate)
        #: Events reach the picture at a person's pace (the peer runs at full speed).
        self.pacer = Pacer(self._show_event, lambda: self.state.seat, self.invalidate,
                           pace, score_wait)
        #: Players met before (None: neither checked nor remembered).
        self.known = known
        #: The ready check: set (from trio) while the lobby waits for our Enter.
        self._ready_event: trio.Event | None = None
        self.help = False  # the help dialog is up
        self.hint: str | None = None  # one line after a key that does nothing here
        #: The clocks on screen (the host's move limit; seats away and their countdowns).
        self.presence = Presence(turn_timeout, time.monotonic)
        self.reconnect_allowance = reconnect_timeout  # how long a step-away may last
        self.stepping_away = False
        self.rematch = rematch  # this screen is a rematch's
        self.rematch_requested = False
        self.app = self._build()

    @property
    def cs(self) -> CardStyle:
        return card_style(self.state, self.figures_override, self.symbols)

    @property
    def view(self) -> TableView:
        return TableView(self.state, self.t, self.cs)

    def invalidate(self) -> None:
        with contextlib.suppress(Exception):
            self.app.invalidate()

    def log(self, *fragments: tuple[str, str]) -> None:
        self.events.add(*fragments)

    # ------------------------------------------------------------------ trio side

    def on_event(self, event: object) -> None:
        """Called from trio (the peer) for every event: it reaches the picture at a
        person's pace (:class:`~.pace.Pacer`)."""
        self.connected = True
        self.pacer.push(event)

    def _show_event(self, event: object) -> None:
        before, self.state = self.state, self.state.apply(event)
        self.presence.on_event(event, before, self.state)
        if isinstance(event, Listening):
            self.port = event.port
        elif isinstance(event, PortMapped | PortMapUnavailable):
            self.reach = event
        if not (isinstance(event, Listening) and self.kind == "play"):
            self.events.narrate(event, self.view, own_chat=self.chat.own_line)
        if isinstance(event, S.HandScored) and not self.pacer.running:
            self.score_queue.append(event)  # no pacer: the dialog waits for its key
        if isinstance(event, S.TableReady) and self.known is not None:
            # The game starts with these seats: remember them (the person confirmed).
            st = self.state
            self.known.remember([(n, k) for i, (n, k) in enumerate(zip(st.names, st.keys))
                                 if n and k is not None and i != st.seat])
        self.invalidate()

    @property
    def asking_ready(self) -> bool:
        return self._ready_event is not None

    async def ask_ready(self) -> None:
        """The ready check: return when the person pressed Enter in the lobby."""
        self._ready_event = event = trio.Event()
        self.invalidate()
        try:
            await event.wait()
        finally:
            if self._ready_event is event:
                self._ready_event = None
            self.invalidate()

    def confirm_ready(self) -> None:
        """Enter in the lobby (asyncio side): tell trio."""
        self._soon_in_trio(self._ready_event.set if self._ready_event is not None else None)

    def dismiss_score(self) -> None:
        """A key on the scoring dialog: the next hand may appear."""
        if self.score_queue:
            self.score_queue.pop(0)
        if self.pacer.scoring:
            self._soon_in_trio(self.pacer.dismiss)

    def _soon_in_trio(self, fn: Callable[[], object] | None) -> None:
        token = self.token
        if fn is not None and token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(fn)

    async def ask(self, kind: str, hand: R.Hand) -> Any:
        """Wait for the user's answer to a decision (``play`` or ``cut``)."""
        done = trio.Event()
        box: list[Any] = []
        token = trio.lowlevel.current_trio_token()

        def reply(value: Any) -> None:  # runs in asyncio: hand over to trio
            def deliver() -> None:
                if not done.is_set():
                    box.append(value)
                    done.set()
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(deliver)

        # The question comes once every move before it has been shown.
        await self.pacer.drained()
        self.state = self.state.sync(hand)
        self.request = Request(kind, hand, reply)
        self.sel = min(self.sel, max(0, len(self.state.hand) - 1))
        self.options = None
        self.opt_sel = 0
        self.cut_sel = 0
        self.invalidate()
        try:
            await done.wait()
        finally:
            if self.request is not None and self.request.reply is reply:
                self.request = None
            self.invalidate()
        return box[0]

    # ------------------------------------------------------------------ actions

    def choose_card(self, index: int) -> None:
        req = self.request
        if req is None or req.kind != "play":
            return
        mine = self.state.hand
        if not 0 <= index < len(mine):
            return
        self.sel = index
        card = mine[index]
        options = [m for m in req.hand.legal_moves() if m.card == card]
        if not options:
            self.status = refusal(self.view, req.hand, card)
            return
        self.status = None
        if len(options) == 1:
            self._send(options[0])
        else:
            self.options = options
            self.opt_sel = 0

    def choose_option(self, index: int) -> None:
        if self.options is None or not 0 <= index < len(self.options):
            return
        self._send(self.options[index])

    def choose_cut(self, keep: bool) -> None:
        req = self.request
        if req is not None and req.kind == "cut":
            self._send(keep)

    def _send(self, value: Any) -> None:
        req = self.request
        if req is None:
            return
        self.request = None
        self.options = None
        req.reply(value)
        self.invalidate()

    def open_chat(self) -> None:
        """``t``: open the chat input (Enter sends, Esc cancels)."""
        if not self.finished and self.controller is not None:
            self.chat.open(self.app)

    def send_chat(self, text: str) -> None:
        self.chat.send(text, self.controller, self.token)

    def on_trio_done(self, result: Outcome | None) -> None:
        """The peer's run ended (asyncio side)."""
        self.finished = True
        self.outcome = result
        self.request = None
        never_played = result is None or result.table is None
        if self.left or (never_played and (self.kind == "join" or result is None
                                           or result.error)):
            self.exit()
            return
        self.invalidate()

    def exit(self) -> None:
        """Close the screen, now or as soon as it runs (the game may end first)."""
        if self.app.is_running:
            with contextlib.suppress(Exception):
                self.app.exit()
        else:
            self._exit_pending = True

    def pre_run(self) -> None:
        if self._exit_pending:
            self.app.exit()

    # ------------------------------------------------------------------ layout

    def _too_small_text(self) -> list[tuple[str, str]]:
        text = self.t("too_small", w=MIN_SIZE[0], h=MIN_SIZE[1])
        return dialogs.as_text(wrap_line([("class:warn", " " + text)],
                                         self._size()[1] - 1, " "))

    def too_small(self) -> bool:
        rows, cols = self._size()
        return cols < MIN_SIZE[0] or rows < MIN_SIZE[1]

    def _build(self) -> Application:
        def tx(draw: Callable[[], list[tuple[str, str]]]
               ) -> Callable[[], list[tuple[str, str]]]:
            return draw if self.symbols else ascii_text(draw)

        header = Window(FormattedTextControl(tx(self._header)), height=1,
                        style="class:header")
        footer = Window(FormattedTextControl(tx(self._footer)), height=1)
        left = Window(FormattedTextControl(tx(self._left)), wrap_lines=False)
        events = Window(FormattedTextControl(tx(self._events_text)), wrap_lines=False,
                        width=lambda: self._panel_width())
        events_below = Window(FormattedTextControl(tx(self._events_text)), height=5)
        small = Window(FormattedTextControl(tx(self._too_small_text)))
        bar, rule = ("│", "─") if self.symbols else ("|", "-")

        def body() -> Any:
            if self.too_small():
                return small
            if self._size()[1] >= 72:
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
            layout=Layout(root), key_bindings=key_bindings(self), full_screen=True,
            style=STYLE, color_depth=None if self.color else ColorDepth.DEPTH_1_BIT,
            mouse_support=False, refresh_interval=1.0)  # the clocks count down

        def forget_hint(_: object) -> None:
            self.hint = None  # a hint lasts until the next key

        app.key_processor.before_key_press += forget_hint
        return app

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
        return 36 if cols >= 110 else 30 if cols >= 90 else 28

    def _left_width(self) -> int:
        rows, cols = self._size()
        return cols - self._panel_width() - 1 if cols >= 72 else cols

    def overlay_kind(self) -> str | None:
        """The dialog over the screen, if any: ``leave`` (``away`` at a table with
        people: step away or resign), ``help``, ``score`` or ``over``."""
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
        t, st = self.t, self.state
        parts = [f" {t('app')}"]
        if st.hand_number:
            parts.append(t("hand_no", n=st.hand_number))
        if st.target is not None:
            parts.append(t("target", n=st.target))
        left = " · ".join(parts)
        right = ""
        if st.totals and st.players and st.started:
            view = self.view
            right = "  ".join(f"{view.side_name(i)} {p}" for i, p in enumerate(st.totals))
        cols = self._size()[1]
        pad = max(1, cols - len(left) - len(right) - 1)
        return [("class:header", left + " " * pad + right + " ")]

    def _footer(self) -> list[tuple[str, str]]:
        t = self.t
        kind = self.overlay_kind()
        if self.hint is not None and not self.chat.is_open:
            return [("class:warn", f" {self.hint} ")]
        if self.chat.is_open:
            keys = t("keys_chat")
        elif kind == "help":
            keys = t("help_close")
        elif kind == "leave":
            keys = t("leave_keys")
        elif kind == "score":
            keys = t("sc_continue")
        elif self.finished:
            keys = t("keys_over_rematch" if self.can_rematch else "keys_over")
        elif self.request is not None and self.request.kind == "cut":
            keys = t("keys_cut")
        elif self.request is not None:
            keys = t("keys_play")
        elif self.asking_ready:
            keys = t("keys_lobby")
        else:
            keys = t("keys_idle")
        return [("class:keys", f" {keys} ")]

    def _events_text(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        width = self._panel_width() if cols >= 72 else cols
        height = rows - 2 if cols >= 72 else 5
        return self.events.panel(self.t("events"), width, height)

    def _left(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        height = rows - 2 if cols >= 72 else rows - 8
        out: list[tuple[str, str]] = []
        for line in self.body(self._left_width(), max(1, height)):
            out += line + [("", "\n")]
        return out

    def body(self, width: int, height: int) -> list[Line]:
        """The screen under the header: the lobby until the first hand, then the table."""
        view = self.view
        if not self.state.started:
            return lobby_lines(view, width, kind=self.kind, connected=self.connected,
                               address=self.address, port=self.port,
                               rematch=self.rematch, address6=self.address6,
                               reach=self.reach, asking=self.asking_ready,
                               known=self.known)[:height]
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
                          notices=self.presence.countdown_lines(view),
                          showing=showing(view, self.pacer.showing, width))

    def _overlay(self) -> list[tuple[str, str]]:
        kind = self.overlay_kind()
        lines: list[Line] = []
        if kind == "leave":
            lines = dialogs.leave_lines(self.t)
        elif kind == "help":
            width = max(30, min(76, self._size()[1] - 6))
            lines = help_lines(self.t, self.state.rules, self.t.lang, width)
        elif kind == "away":
            mine = self.presence.allowance_left.get(self.state.seat if self.state.seat
                                                     is not None else -1)
            lines = dialogs.away_lines(self.t, clock_text(
                self.reconnect_allowance if mine is None else mine))
        elif kind == "score":
            scored = self.score_queue[0] if self.score_queue else self.state.last_score
            if scored is not None:
                lines = dialogs.score_dialog_lines(self.view, scored)
        elif kind == "over":
            lines = dialogs.over_lines(self.view, self.outcome, self.log_path, self._size()[1],
                                       rematch=self.can_rematch)
        return dialogs.as_text(lines)

