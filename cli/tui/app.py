"""The terminal client's application: the state of the screen, the actions keys call,
the layout, and which screen or dialog shows (the map of the package, and where a new
screen goes, is in :mod:`chkobba_cli.tui`)."""

from __future__ import annotations

import contextlib
import time
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
from chkobba_p2p.peer import Listening, Outcome, PortMapped, PortMapUnavailable, SeatController
from chkobba_p2p.tablestate import TableState

from ..i18n import Translator
from . import dialogs
from .chat import ChatInput
from .decision import Request, decision_lines, refusal
from .keys import key_bindings
from .leaving import Leaving
from .lobby import lobby_lines
from .narration import EventLog
from .presence import Presence, clock_text
from .render import CardStyle, Line
from .style import STYLE
from .table import draw_table
from .view import TableView, card_style

__all__ = ["TuiApp"]


class TuiApp(Leaving):
    """The screen: table, hands, captures, scores, lobby, events, and the key bindings."""

    def __init__(self, *, kind: str, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None,
                 address: str | None = None, my_fingerprint: str | None = None,
                 seat: int | None = None, rules: R.Ruleset | None = None,
                 players: int | None = None, log_path: Path | None = None,
                 turn_timeout: float | None = None, reconnect_timeout: float = 60.0,
                 rematch: bool = False, address6: str | None = None) -> None:
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
        """Called from trio (the peer) for every event."""
        before, self.state = self.state, self.state.apply(event)
        self.presence.on_event(event, before, self.state)
        self.connected = True
        if isinstance(event, Listening):
            self.port = event.port
        elif isinstance(event, PortMapped | PortMapUnavailable):
            self.reach = event
        self.events.narrate(event, self.view, own_chat=self.chat.own_line)
        if isinstance(event, S.HandScored):
            self.score_queue.append(event)
        self.invalidate()

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

    def _build(self) -> Application:
        header = Window(FormattedTextControl(self._header), height=1, style="class:header")
        footer = Window(FormattedTextControl(self._footer), height=1)
        left = Window(FormattedTextControl(self._left), wrap_lines=False)
        events = Window(FormattedTextControl(self._events_text), wrap_lines=False,
                        width=lambda: self._panel_width())
        events_below = Window(FormattedTextControl(self._events_text), height=5)

        def body() -> Any:
            if self._size()[1] >= 72:
                return VSplit([left, Window(width=1, char="│", style="class:dim"), events])
            return HSplit([left, Window(height=1, char="─", style="class:dim"),
                           events_below])

        overlay = ConditionalContainer(
            Frame(Window(FormattedTextControl(self._overlay), dont_extend_width=True,
                         dont_extend_height=True)),
            filter=Condition(lambda: self.overlay_kind() is not None))
        root = FloatContainer(
            HSplit([header, DynamicContainer(body), self.chat.container(), footer]),
            floats=[Float(content=overlay)])
        return Application(
            layout=Layout(root), key_bindings=key_bindings(self), full_screen=True,
            style=STYLE, color_depth=None if self.color else ColorDepth.DEPTH_1_BIT,
            mouse_support=False, refresh_interval=1.0)  # the clocks count down

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
        people: step away or resign), ``score`` or ``over``."""
        if self.confirm_leave:
            return "away" if self.can_step_away else "leave"
        if self.score_queue:
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
        if self.chat.is_open:
            keys = t("keys_chat")
        elif self.finished:
            keys = t("keys_over_rematch" if self.can_rematch else "keys_over")
        elif self.request is not None:
            keys = t("keys_play")
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
                               reach=self.reach)[:height]
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
                          notices=self.presence.countdown_lines(view))

    def _overlay(self) -> list[tuple[str, str]]:
        kind = self.overlay_kind()
        lines: list[Line] = []
        if kind == "leave":
            lines = dialogs.leave_lines(self.t)
        elif kind == "away":
            mine = self.presence.allowance_left.get(self.state.seat if self.state.seat
                                                     is not None else -1)
            lines = dialogs.away_lines(self.t, clock_text(
                self.reconnect_allowance if mine is None else mine))
        elif kind == "score":
            lines = dialogs.score_dialog_lines(self.view, self.score_queue[0])
        elif kind == "over":
            lines = dialogs.over_lines(self.view, self.outcome, self.log_path, self._size()[1],
                                       rematch=self.can_rematch)
        return dialogs.as_text(lines)
