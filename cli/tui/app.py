"""The full-screen terminal client: a prompt_toolkit application on asyncio, with the
peer (trio) running in guest mode on the same loop.

Threads never enter into it: trio runs as a guest of asyncio's loop
(``trio.lowlevel.start_guest_run``), so the seat controller's ``on_event`` (called from
trio) updates the picture directly, and key handlers (asyncio) answer the controller's
questions through the trio token.  Ctrl-C, SIGINT, SIGTERM and SIGHUP all ask trio to
cancel the game, so its cleanup runs, the log stays on disk and the connections close.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import outcome as outcome_mod
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import ConditionalKeyBindings, KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.layout import (
    BufferControl,
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
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from chkobba_p2p import rules as R
from chkobba_p2p import session as S
from chkobba_p2p.cards import Card, FigureConvention
from chkobba_p2p.errors import IllegalMove
from chkobba_p2p.known import KnownPlayers
from chkobba_p2p.peer import (
    Chat,
    Listening,
    Lobby,
    Outcome,
    Resumed,
    SeatController,
    Waiting,
    clean_chat,
)
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.wire import ErrorCode

from ..i18n import Translator
from ..term import asciify
from .bigcards import big_card_row
from .helpscreen import help_lines
from .pace import DEFAULT_PACE, SCORE_WAIT, Pacer
from .render import CardStyle, Line, by_value, card_chips, card_row, score_lines, wrap_line
from .trust import changed_seats, missing_names, seat_lines

__all__ = ["TuiApp", "TuiSeat", "RunResult", "run_app", "STYLE", "MIN_SIZE"]

#: The smallest terminal the table fits (columns, rows); below it the screen says so.
MIN_SIZE = (40, 12)

STYLE = Style.from_dict({
    "header": "reverse bold",
    "title": "bold",
    "dim": "fg:ansibrightblack",
    "me": "bold",
    "turn": "fg:ansigreen bold",
    "error": "fg:ansired bold",
    "ok": "fg:ansigreen",
    "warn": "fg:ansiyellow bold",
    "chkobba": "fg:ansiyellow bold",
    "chat": "fg:ansicyan",
    "card.red": "fg:ansired bold",
    "card.black": "bold",
    "card.frame": "",
    "card.selected": "reverse bold",
    "card.marked": "underline",
    "card.number": "fg:ansibrightblack",
    "option.selected": "reverse",
    "score.head": "bold underline",
    "score.label": "",
    "score.win": "fg:ansigreen bold",
    "score.total": "bold",
    "keys": "reverse",
    "panel.title": "bold underline",
    "frame.border": "fg:ansicyan",
})


@dataclass(frozen=True)
class BotsStarting:
    """The client starts ``n`` local bot peers (shown in the events panel)."""

    n: int


@dataclass
class _Request:
    kind: str  # "play" or "cut"
    hand: R.Hand
    reply: Callable[[Any], None]


@dataclass
class RunResult:
    """How a run of the client ended: the peer's outcome (None if the game never ran),
    whether the user left, and a crash's traceback if the game task failed."""

    outcome: Outcome | None
    left: bool
    timed_out: bool = False
    crash: str | None = None


class TuiSeat(SeatController):
    """The seat controller behind the screen: questions go to the UI, events to the
    picture."""

    def __init__(self, ui: TuiApp) -> None:
        self.ui = ui
        ui.controller = self  # chat lines go out through it (SeatController.send_chat)

    def on_event(self, event: object) -> None:
        self.ui.on_event(event)

    async def choose_play(self, hand: R.Hand) -> R.Move:
        return await self.ui.ask("play", hand)

    async def choose_cut(self, hand: R.Hand) -> bool:
        return await self.ui.ask("cut", hand)

    async def ready_to_start(self, lobby: Lobby) -> None:
        await self.ui.ask_ready()


class TuiApp:
    """The screen: table, hands, captures, scores, lobby, events, and the key bindings."""

    def __init__(self, *, kind: str, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None,
                 address: str | None = None, my_fingerprint: str | None = None,
                 seat: int | None = None, rules: R.Ruleset | None = None,
                 players: int | None = None, log_path: Path | None = None,
                 pace: float = DEFAULT_PACE, score_wait: float = SCORE_WAIT,
                 known: KnownPlayers | None = None) -> None:
        self.kind = kind  # "play", "host" or "join"
        self.t = Translator(lang)
        self.figures_override = figures
        self.symbols = symbols
        self.color = color
        self.address = address
        self.log_path = log_path
        st = TableState(my_fingerprint=my_fingerprint, seat=seat, rules=rules)
        if players:
            st = st.with_players(players)
        self.state = st
        self.events: list[Line] = []
        self.request: _Request | None = None
        self.sel = 0
        self.options: list[R.Move] | None = None
        self.opt_sel = 0
        self.cut_sel = 0
        self.hints = False
        self.status: tuple[str, str] | None = None
        self.score_queue: list[S.HandScored] = []
        self.confirm_leave = False
        self._waiting_line: tuple[int, Line] | None = None
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
        #: The seat controller the peer runs (set by :class:`TuiSeat`), for chat.
        self.controller: SeatController | None = None
        self.chatting = False  # the one-line chat input is open
        self.chat_buffer = Buffer(multiline=False)
        self._own_chat = False  # a Chat event now is our own line
        #: Events reach the picture at a person's pace (the peer runs at full speed).
        self.pacer = Pacer(self._show_event, lambda: self.state.seat, self.invalidate,
                           pace, score_wait)
        #: Players met before (None: do not check or remember).
        self.known = known
        #: The lobby waits for our Enter (the ready check); set from trio.
        self._ready_event: trio.Event | None = None
        self.ready_sent = False
        self.help = False
        self.hint: str | None = None  # a one-line hint after a key that does nothing
        self.app = self._build()

    # ------------------------------------------------------------------ helpers

    @property
    def cs(self) -> CardStyle:
        override = self.figures_override
        if override == "values":
            return CardStyle(FigureConvention.TUNISIAN, self.symbols, values=True)
        figures = override or (self.state.rules.figures if self.state.rules
                               else FigureConvention.TUNISIAN)
        return CardStyle(figures, self.symbols)

    def label(self, c: Card) -> str:
        return self.cs.label(c)

    def labels(self, cards, sep: str = " ") -> str:
        return self.cs.labels(by_value(cards), sep)

    def who(self, seat: int | None) -> str:
        if seat is not None and seat == self.state.seat:
            return self.t("you")
        return self.name(seat)

    def name(self, seat: int | None) -> str:
        """A seat's player by name (never a seat number, even before names are known)."""
        st = self.state
        if seat is not None and 0 <= seat < len(st.names) and st.names[seat]:
            return st.names[seat]  # type: ignore[return-value]
        return "?"

    def said(self, key: str, seat: int | None, **kw: object) -> str:
        """A message about a seat: the ``_me`` wording when it is the local seat."""
        if seat is not None and seat == self.state.seat:
            return self.t(key + "_me", **kw)
        return self.t(key, name=self.name(seat), **kw)

    def side_name(self, side: int) -> str:
        st = self.state
        if st.my_side is not None and (st.players or 2) == 4:
            return self.t("us") if side == st.my_side else self.t("them")
        if st.my_side == side:
            return self.t("you")
        seats = [s for s in range(st.players or 2) if st.side(s) == side]
        return self.name(seats[0]) if seats else "?"

    def invalidate(self) -> None:
        with contextlib.suppress(Exception):
            self.app.invalidate()

    def log(self, *fragments: tuple[str, str]) -> None:
        self.events.append(list(fragments))
        del self.events[:-300]
        self.invalidate()

    # ------------------------------------------------------------------ trio side

    def on_event(self, event: object) -> None:
        """Called from trio (the peer) for every event: to the picture at a person's pace
        (:class:`Pacer`)."""
        self.connected = True
        self.pacer.push(event)

    def _show_event(self, event: object) -> None:
        before = self.state
        self.state = self.state.apply(event)
        self._narrate(event, before)
        if isinstance(event, S.HandScored) and not self.pacer.running:
            self.score_queue.append(event)  # no pacer: the sheet waits for its key alone
        if isinstance(event, S.TableReady):
            self._remember_players()
        self.invalidate()

    def _remember_players(self) -> None:
        """The game started with these seats: remember them (the person confirmed them,
        or had the chance to, in the lobby)."""
        st = self.state
        if self.known is None:
            return
        self.known.remember([(n, k) for i, (n, k) in enumerate(zip(st.names, st.keys))
                             if n and k is not None and i != st.seat])

    async def ask_ready(self) -> None:
        """The ready check: wait for Enter in the lobby (from trio)."""
        self._ready_event = trio.Event()
        self.ready_sent = False
        self.invalidate()
        try:
            await self._ready_event.wait()
            self.ready_sent = True
        finally:
            self._ready_event = None
            self.invalidate()

    def confirm_ready(self) -> None:
        """Enter in the lobby (asyncio side): hand it to trio."""
        ev, token = self._ready_event, self.token
        if ev is None or token is None:
            return
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(ev.set)

    def dismiss_score(self) -> None:
        """A key on the score sheet: the next hand may appear."""
        if self.score_queue:
            self.score_queue.pop(0)
        token = self.token
        if token is not None and self.pacer.scoring:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self.pacer.dismiss)

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

        # The question comes after every move before it has been shown.
        await self.pacer.drained()
        self.state = self.state.sync(hand)
        self.request = _Request(kind, hand, reply)
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

    # ------------------------------------------------------------------ narration

    def _narrate(self, ev: object, before: TableState) -> None:
        t, st = self.t, self.state
        if isinstance(ev, BotsStarting):
            self.log(("class:dim", t("ev_bots_1") if ev.n == 1 else t("ev_bots_n", n=ev.n)))
        elif isinstance(ev, Listening):
            self.port = ev.port
            if self.kind == "host":
                self.log(("class:dim", t("ev_host_open")))
        elif isinstance(getattr(ev, "draws", None), dict):  # the first-dealer draw
            draws = ", ".join(f"{self.who(s)} {self.label(c)}" for s, c in
                              sorted(ev.draws.items()))
            self.log(("", t("ev_first_draw", draws=draws)))
        elif isinstance(ev, S.HandStarted):
            self.log(("class:title", self.said("ev_hand", ev.dealer, n=ev.number)))
        elif isinstance(ev, S.RedealEvent):
            self.log(("class:warn", t("ev_redeal", name=self.who(ev.dealer))))
        elif isinstance(ev, R.DealEvent):
            if ev.draw:
                self.log(("class:dim", self.said("ev_draw", st.cutter)))
            elif all(r is not None for r in ev.recipients):
                self.log(("class:dim", t("ev_deal", n=st.stock)))
        elif isinstance(ev, R.CutEvent):
            if ev.keep:
                self.log(("", self.said("ev_keep", ev.seat)))
            else:
                self.log(("", self.said("ev_place", ev.seat, card=self.label(ev.card))))
        elif isinstance(ev, R.PlayEvent):
            me = "class:me" if ev.seat == st.seat else ""
            if ev.capture:
                line: list[tuple[str, str]] = [
                    (me, f"{self.who(ev.seat)}: "), (self.cs.style(ev.card),
                                                     self.label(ev.card)),
                    ("", " " + t("hint_takes", opts="").strip() + " "),
                ]
                for c in by_value(ev.capture):
                    line += [(self.cs.style(c), self.label(c)), ("", " ")]
                if ev.chkobba:
                    line.append(("class:chkobba", t("ev_chkobba")))
                self.log(*line)
            else:
                self.log((me, f"{self.who(ev.seat)}: "),
                         (self.cs.style(ev.card), self.label(ev.card)),
                         ("class:dim", " → " + t("table").lower()))
        elif isinstance(ev, R.SweepEvent):
            if ev.seat is not None and ev.cards:
                self.log(("class:dim", self.said("ev_sweep", ev.seat,
                                              cards=self.labels(ev.cards))))
        elif isinstance(ev, S.HandScored):
            pts = " - ".join(f"{self.side_name(i)} {p}" for i, p in
                             enumerate(ev.score.points))
            tot = " - ".join(str(x) for x in ev.totals)
            self.log(("class:title", t("ev_scored", n=ev.number, points=pts, totals=tot)))
        elif isinstance(ev, S.MatchDone):
            self.log(("class:ok", t("ev_done")))
        elif isinstance(ev, S.Aborted) and ev.blamed_seat == ev.by_seat \
                and ev.code is ErrorCode.PEER_LEFT:
            self.log(("class:warn", self.said("ev_left", ev.by_seat)))
        elif isinstance(ev, S.Aborted):
            why = ev.detail or ev.code.sentence
            self.log(("class:error", t("ev_aborted", by=self.who(ev.by_seat), why=why)))
            if ev.blamed_seat is not None:
                self.log(("class:error", t("ev_blame", name=self.who(ev.blamed_seat))))
        elif isinstance(ev, Waiting):
            # The countdown comes every second: update its line instead of adding one.
            if self._waiting_line is not None and self.events and \
                    self.events[-1] is self._waiting_line[1] and self._waiting_line[0] == ev.seat:
                self.events.pop()
            self.log(("class:warn", t("ev_waiting", name=self.who(ev.seat), n=ev.seconds)))
            self._waiting_line = (ev.seat, self.events[-1])
        elif isinstance(ev, Resumed):
            self.log(("class:ok", self.said("ev_back", ev.seat)))
        elif isinstance(ev, Chat):
            name = t("you") if self._own_chat else self.who(ev.seat)
            self.log(("class:chat", t("ev_chat", name=name, text=ev.text)))

    # ------------------------------------------------------------------ actions

    def _refuse(self, exc: IllegalMove) -> None:
        self.status = ("class:error", self.t("refused", rule=self.t.rule(exc.rule),
                                             why=str(exc)))

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
            # Not a legal move: ask the rules engine why, and show the rule's name.
            try:
                req.hand.play(req.hand.turn, card, ())
            except IllegalMove as exc:
                self._refuse(exc)
            else:
                self.status = ("class:error", self.t("refused", rule="?", why=str(card)))
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

    def _send(self, value: Any) -> None:
        req = self.request
        if req is None:
            return
        self.request = None
        self.options = None
        req.reply(value)
        self.invalidate()

    def choose_cut(self, keep: bool) -> None:
        req = self.request
        if req is not None and req.kind == "cut":
            self._send(keep)

    def open_chat(self) -> None:
        """``t``: open the chat input (Enter sends, Esc cancels)."""
        if self.finished or self.controller is None:
            return
        self.chatting = True
        self.chat_buffer.reset()
        with contextlib.suppress(Exception):
            self.app.layout.focus(self.chat_window)
        self.invalidate()

    def close_chat(self) -> None:
        self.chatting = False
        self.chat_buffer.reset()
        self.invalidate()

    def send_chat(self, text: str) -> None:
        """Send a chat line through the peer (from asyncio: handed over to trio)."""
        controller, token = self.controller, self.token
        if clean_chat(text) is None:
            if text.strip():
                self.log(("class:warn", self.t("chat_refused")))
            return
        if controller is None or token is None:
            return

        def deliver() -> None:  # in trio: the peer reports our own line at once
            self._own_chat = True
            try:
                sent = controller.send_chat(text)
            finally:
                self._own_chat = False
            if not sent:
                self.log(("class:warn", self.t("chat_refused")))

        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(deliver)

    def request_leave(self) -> None:
        """Ctrl-C / q: confirm first; a second Ctrl-C (or SIGINT) leaves at once."""
        if self.finished:
            self.exit()
        elif self.confirm_leave:
            self.leave_now()
        else:
            self.confirm_leave = True
            self.invalidate()

    def leave_now(self) -> None:
        """Leave the game: cancel the peer (trio cleans up), then the app exits."""
        self.confirm_leave = False
        if self.finished:
            self.exit()
            return
        if not self.leave_requested:
            self.leave_requested = True
            self.left = True
            self.log(("class:warn", self.t("left")))
        self.cancel_trio()

    def cancel_trio(self) -> None:
        scope, token = self.cancel_scope, self.token
        if scope is None or token is None:
            self.leave_requested = True  # cancelled as soon as it starts
            return
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(scope.cancel)

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

    def _pre_run(self) -> None:
        if self._exit_pending:
            self.app.exit()

    # ------------------------------------------------------------------ layout

    def _text(self, draw: Callable[[], list[tuple[str, str]]]
              ) -> Callable[[], list[tuple[str, str]]]:
        """A drawing function, in pure ASCII when symbols cannot (or must not) be shown."""
        if self.symbols:
            return draw
        return lambda: [(style, asciify(text)) for style, text in draw()]

    def _too_small(self) -> bool:
        rows, cols = self._size()
        return cols < MIN_SIZE[0] or rows < MIN_SIZE[1]

    def _build(self) -> Application:
        kb = self._bindings()
        tx = self._text
        header = Window(FormattedTextControl(tx(self._header)), height=1, style="class:header")
        footer = Window(FormattedTextControl(tx(self._footer)), height=1)
        left = Window(FormattedTextControl(tx(self._left)), wrap_lines=False)
        events = Window(FormattedTextControl(tx(self._events_text)), wrap_lines=False,
                        width=lambda: self._panel_width())
        events_below = Window(FormattedTextControl(tx(self._events_text)), height=5)
        too_small = Window(FormattedTextControl(tx(lambda: [("class:warn", " " + self.t(
            "too_small", w=MIN_SIZE[0], h=MIN_SIZE[1]))])), wrap_lines=True)
        self.chat_window = Window(BufferControl(self.chat_buffer), height=1)
        chat_line = ConditionalContainer(
            VSplit([Window(FormattedTextControl(
                tx(lambda: [("class:title", f" {self.t('chat_prompt')} ")])),
                dont_extend_width=True), self.chat_window]),
            filter=Condition(lambda: self.chatting))
        bar, rule = ("│", "─") if self.symbols else ("|", "-")

        def body() -> Any:
            if self._too_small():
                return too_small
            if self._size()[1] >= 72:
                return VSplit([left, Window(width=1, char=bar, style="class:dim"), events])
            return HSplit([left, Window(height=1, char=rule, style="class:dim"),
                           events_below])

        if not self.symbols:
            _ascii_frames()
        overlay = ConditionalContainer(
            Frame(Window(FormattedTextControl(tx(self._overlay)), dont_extend_width=True,
                         dont_extend_height=True)),
            filter=Condition(lambda: self._overlay_kind() is not None
                             and not self._too_small()))
        root = FloatContainer(
            HSplit([header, DynamicContainer(body), chat_line, footer]),
            floats=[Float(content=overlay)])
        app: Application = Application(
            layout=Layout(root), key_bindings=kb, full_screen=True, style=STYLE,
            color_depth=None if self.color else ColorDepth.DEPTH_1_BIT,
            mouse_support=False, refresh_interval=None)

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

    def _overlay_kind(self) -> str | None:
        if self.confirm_leave:
            return "leave"
        if self.help:
            return "help"
        if self.score_queue or self.pacer.scoring:
            return "score"  # the last hand's scoring first, then the match's end
        if self.finished and self.outcome is not None and not self.left:
            return "over"
        return None

    # ------------------------------------------------------------------ key bindings

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        playing = Condition(lambda: self._overlay_kind() is None and self.request is not None
                            and self.request.kind == "play")
        picking = Condition(lambda: bool(playing()) and self.options is not None)
        cutting = Condition(lambda: self._overlay_kind() is None and self.request is not None
                            and self.request.kind == "cut")
        leave = Condition(lambda: self._overlay_kind() == "leave")
        helping = Condition(lambda: self._overlay_kind() == "help")
        score = Condition(lambda: self._overlay_kind() == "score")
        lobby = Condition(lambda: self._overlay_kind() is None and not self.finished
                          and self._ready_event is not None)
        over = Condition(lambda: self._overlay_kind() == "over" or
                         (self.finished and self._overlay_kind() is None))

        @kb.add("c-c")
        @kb.add("q", filter=~leave & ~helping)
        def _(e: KeyPressEvent) -> None:
            self.request_leave()

        @kb.add("y", filter=leave)
        @kb.add("o", filter=leave)
        def _(e: KeyPressEvent) -> None:
            self.leave_now()

        @kb.add("n", filter=leave)
        @kb.add("escape", filter=leave)
        def _(e: KeyPressEvent) -> None:
            self.confirm_leave = False

        @kb.add("enter", filter=score)
        @kb.add(" ", filter=score)
        @kb.add("escape", filter=score)
        def _(e: KeyPressEvent) -> None:
            self.dismiss_score()

        @kb.add("enter", filter=lobby)
        def _(e: KeyPressEvent) -> None:
            self.confirm_ready()

        @kb.add("?", filter=~leave & ~helping)
        @kb.add("f1", filter=~leave & ~helping)
        def _(e: KeyPressEvent) -> None:
            self.help = True
            self.hint = None

        @kb.add("<any>", filter=helping)
        def _(e: KeyPressEvent) -> None:
            self.help = False  # any key closes the help

        @kb.add("<any>", filter=~helping)
        def _(e: KeyPressEvent) -> None:
            self.hint = self.t("hint_key")  # a key this screen does not expect

        @kb.add("enter", filter=over)
        def _(e: KeyPressEvent) -> None:
            self.exit()

        @kb.add("h", filter=~leave & ~helping)
        def _(e: KeyPressEvent) -> None:
            self.hints = not self.hints

        @kb.add("c-l")
        def _(e: KeyPressEvent) -> None:
            e.app.renderer.clear()

        for d in range(1, 10):
            @kb.add(str(d), filter=playing & ~picking)
            def _(e: KeyPressEvent, d: int = d) -> None:
                self.choose_card(d - 1)

            @kb.add(str(d), filter=picking)
            def _(e: KeyPressEvent, d: int = d) -> None:
                self.choose_option(d - 1)

        @kb.add("left", filter=playing & ~picking)
        def _(e: KeyPressEvent) -> None:
            self.sel = max(0, self.sel - 1)

        @kb.add("right", filter=playing & ~picking)
        def _(e: KeyPressEvent) -> None:
            self.sel = min(max(0, len(self.state.hand) - 1), self.sel + 1)

        @kb.add("enter", filter=playing & ~picking)
        def _(e: KeyPressEvent) -> None:
            self.choose_card(self.sel)

        @kb.add("up", filter=picking)
        def _(e: KeyPressEvent) -> None:
            self.opt_sel = max(0, self.opt_sel - 1)

        @kb.add("down", filter=picking)
        def _(e: KeyPressEvent) -> None:
            assert self.options is not None
            self.opt_sel = min(len(self.options) - 1, self.opt_sel + 1)

        @kb.add("enter", filter=picking)
        def _(e: KeyPressEvent) -> None:
            self.choose_option(self.opt_sel)

        @kb.add("escape", filter=picking)
        def _(e: KeyPressEvent) -> None:
            self.options = None

        @kb.add("k", filter=cutting)
        @kb.add("g", filter=cutting)
        def _(e: KeyPressEvent) -> None:
            self.choose_cut(True)

        @kb.add("p", filter=cutting)
        def _(e: KeyPressEvent) -> None:
            self.choose_cut(False)

        @kb.add("left", filter=cutting)
        @kb.add("right", filter=cutting)
        def _(e: KeyPressEvent) -> None:
            self.cut_sel = 1 - self.cut_sel

        @kb.add("enter", filter=cutting)
        def _(e: KeyPressEvent) -> None:
            self.choose_cut(self.cut_sel == 0)

        @kb.add("t", filter=Condition(lambda: self._overlay_kind() is None
                                      and not self.finished and self.controller is not None))
        def _(e: KeyPressEvent) -> None:
            self.open_chat()

        # While the chat input is open, keys type text: only these act.
        chatting = Condition(lambda: self.chatting)
        chat = KeyBindings()

        @chat.add("enter", filter=chatting)
        def _(e: KeyPressEvent) -> None:
            text = self.chat_buffer.text
            self.close_chat()
            self.send_chat(text)

        @chat.add("escape", filter=chatting)
        def _(e: KeyPressEvent) -> None:
            self.close_chat()

        @chat.add("c-c", filter=chatting)
        def _(e: KeyPressEvent) -> None:
            self.close_chat()
            self.request_leave()

        return merge_key_bindings([ConditionalKeyBindings(kb, ~chatting), chat])

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
            right = "  ".join(f"{self.side_name(i)} {p}" for i, p in enumerate(st.totals))
        cols = self._size()[1]
        pad = max(1, cols - len(left) - len(right) - 1)
        return [("class:header", left + " " * pad + right + " ")]

    def _footer(self) -> list[tuple[str, str]]:
        t = self.t
        if self.hint is not None and not self.chatting:
            return [("class:warn", f" {self.hint} ")]
        kind = self._overlay_kind()
        if self.chatting:
            keys = t("keys_chat")
        elif kind == "help":
            keys = t("help_close")
        elif kind == "leave":
            keys = t("leave_keys")
        elif kind == "score":
            keys = t("sc_continue")
        elif self.finished:
            keys = t("keys_over")
        elif self.request is not None and self.request.kind == "cut":
            keys = t("keys_cut")
        elif self.request is not None:
            keys = t("keys_play")
        elif self._ready_event is not None:
            keys = t("keys_lobby")
        else:
            keys = t("keys_idle")
        return [("class:keys", f" {keys} ")]

    def _events_text(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        width = self._panel_width() if cols >= 72 else cols
        height = rows - 2 if cols >= 72 else 5
        lines: list[Line] = []
        for ev in self.events:
            lines.extend(wrap_line(ev, width - 1, indent="  "))
        lines = lines[-max(1, height - 1):]
        out: list[tuple[str, str]] = [("class:panel.title", f" {self.t('events')}"), ("", "\n")]
        for line in lines:
            out += [("", " ")] + line + [("", "\n")]
        return out

    def _left(self) -> list[tuple[str, str]]:
        rows, cols = self._size()
        width = self._left_width()
        height = rows - 2 if cols >= 72 else rows - 8
        st = self.state
        if not st.started:
            lines = self._lobby_lines(width)
        else:
            tagged: list[tuple[int, Line]] = []
            if rows >= 34 and width >= 56:  # room for large cards
                tagged = self._table_lines(width, compact=False, big=True)
            if not tagged or len(tagged) > height:
                tagged = self._table_lines(width, compact=False)
            if len(tagged) > height:
                tagged = self._table_lines(width, compact=True)
            lines = self._fit(tagged, max(1, height))
        out: list[tuple[str, str]] = []
        for line in lines[:max(1, height)]:
            out += line + [("", "\n")]
        return out

    def _lobby_lines(self, width: int) -> list[Line]:
        t, st = self.t, self.state
        lines: list[Line] = [[]]
        if self.kind == "join":
            if not self.connected:
                lines.append([("class:title", " " + t("join_connecting", addr=self.address))])
            else:
                n = st.players or len(st.names)
                seat = "?" if st.seat is None else str(st.seat + 1)
                lines.append([("class:ok", " " + t("join_connected", addr=self.address,
                                                    seat=seat, n=n))])
        elif self.kind == "host":
            lines += wrap_line([("class:title", " " + t("lobby_host"))], width - 1, " ")
            if self.port is not None:
                addr = f"{self.address}:{self.port}"
                lines.append([("", "   "), ("class:turn", addr)])
                lines.append([("class:dim", "   " + t("lobby_join_cmd", addr=addr))])
        if st.rules is not None:
            lines.append([])
            lines += wrap_line([("", " " + t("lobby_rules", rules=st.rules.describe(t.lang)))],
                               width - 1, "   ")
        if st.names:
            taken = sum(1 for n in st.names if n)
            full = taken == len(st.names)
            lines.append([])
            lines.append([("class:title", " " + t("lobby_seats", taken=taken,
                                                   n=len(st.names)))])
            ready_check = self.kind != "play"
            lines += seat_lines(st, t, self.known, width - 1, ready_check)
            lines.append([])
            if not full:
                lines.append([("", " " + t("lobby_waiting"))])
            elif self._ready_event is not None:
                warn = changed_seats(st, self.known)
                style = "class:error" if warn else "class:turn"
                lines += wrap_line([(style, " " + t("lobby_ready_prompt"))], width - 1, " ")
            elif ready_check and not all(st.ready or [False]):
                lines += wrap_line([("class:ok", " " + t(
                    "lobby_you_ready", names=missing_names(st, t) or "…"))], width - 1, " ")
            else:
                lines.append([("class:ok", " " + t("lobby_starting"))])
        return lines

    def _seat_line(self, seat: int, role: str) -> Line:
        st, t = self.state, self.t
        n = st.counts[seat] if seat < len(st.counts) else 0
        mark = "class:turn" if st.turn == seat else "class:me"
        tags = []
        if seat == st.dealer:
            tags.append(t("dealer", name="").strip())
        if seat == st.cutter:
            tags.append(t("cutter", name="").strip())
        line: Line = [(mark, f" {'▶' if st.turn == seat else ' '} {st.name(seat)}"),
                      ("class:dim", f" ({role})"), ("", "  "),
                      ("", ("▮" if self.symbols else "#") * n + " "
                       + (t("cards_1") if n == 1 else t("cards_n", n=n)) + " "
                       + t("in_hand"))]
        if tags:
            line.append(("class:dim", "  [" + ", ".join(tags) + "]"))
        return line

    def _captures_line(self, side: int) -> Line:
        st, t = self.state, self.t
        c = st.captures(side)
        sevens = t("sevens_1") if c.sevens == 1 else t("sevens_n", n=c.sevens)
        line: Line = [("class:dim", "   " + t("cap_of", name=self.side_name(side)) + ": "),
                      ("", t("cap_line", cards=c.cards, diamonds=c.diamonds,
                             sevens=sevens, chk=c.chkobbas))]
        if c.haya:
            line.append(("class:card.red", " · " + t("haya_mark")))
        return line

    def _showing_lines(self, width: int) -> tuple[tuple[Card, ...], frozenset[Card],
                                                  frozenset[Card], list[Line]]:
        """While another player's move is held on screen: the table to draw (with the
        card played on it), the cards to highlight and to mark (what it takes), and the
        sentence saying it."""
        st, t, cs = self.state, self.t, self.cs
        ev = self.pacer.showing
        table = st.table
        if isinstance(ev, R.PlayEvent):
            taken = by_value(ev.capture)
            if ev.capture:
                key = "you_playing_take" if ev.seat == st.seat else "playing_take"
                text = t(key, name=self.name(ev.seat), card=cs.label(ev.card),
                         cards=" + ".join(cs.label(c) for c in taken))
            else:
                key = "you_playing" if ev.seat == st.seat else "playing"
                text = t(key, name=self.name(ev.seat), card=cs.label(ev.card))
            if ev.chkobba:
                text += "  " + t("ev_chkobba")
            return (table + (ev.card,), frozenset((ev.card,)), frozenset(ev.capture),
                    wrap_line([("class:turn", " " + text)], width - 1, "   "))
        if isinstance(ev, R.CutEvent) and ev.card is not None:
            text = self.said("ev_place", ev.seat, card=cs.label(ev.card))
            return ((ev.card,) + table, frozenset((ev.card,)), frozenset(),
                    wrap_line([("class:turn", " " + text)], width - 1, "   "))
        if isinstance(ev, R.SweepEvent) and ev.seat is not None:
            text = self.said("ev_sweep", ev.seat, cards=self.labels(ev.cards))
            return (table, frozenset(), frozenset(ev.cards),
                    wrap_line([("class:turn", " " + text)], width - 1, "   "))
        return table, frozenset(), frozenset(), []

    def _table_lines(self, width: int, compact: bool, big: bool = False
                     ) -> list[tuple[int, Line]]:
        """The table's lines, each with a priority: 0 must show (table, hand, prompt);
        1, 2 and 3 (others' seats, captures, blank lines) give way on short terminals."""
        st, t, cs = self.state, self.t, self.cs
        lines: list[tuple[int, Line]] = []

        def add(line: Line, prio: int = 0) -> None:
            lines.append((prio, line))

        n = st.players or 2
        me = st.seat if st.seat is not None else 0
        roles = {(me + 2) % 4: t("partner")} if n == 4 else {}
        for s in st.others():
            add(self._seat_line(s, roles.get(s, t("opponent"))), 1)
        their_sides = sorted({st.side(s) for s in st.others()} - {st.side(me)})
        for side in their_sides:
            add(self._captures_line(side), 2)
        info = [t("stock", n=st.stock)]
        if st.cutting:
            info.append(self.said("cutting_of", st.cutter))
        elif st.turn is not None:
            info.append(t("turn_of", name=self.who(st.turn)))
        add([("class:dim", " " + " · ".join(info))], 1)
        add([], 3)
        table, highlight, marked, saying = self._showing_lines(width)
        if self.options is not None:
            marked = self.options[self.opt_sel].capture
        add([("class:title", f" {t('table')}"),
             ("class:dim", "" if table else f"  {t('table_empty')}")])
        if table:
            if compact:
                rows = card_chips(list(table), cs, width, highlight=highlight)
            elif big:
                rows = big_card_row(list(table), cs, width, marked=marked,
                                    highlight=highlight)
            else:
                rows = card_row(list(table), cs, width, marked=marked, highlight=highlight)
            for line in rows:
                add(line)
        last = st.last_play
        if saying:
            for line in saying:
                add(line)
        elif last is not None:
            took = (t("hint_takes", opts=self.labels(last.capture)) if last.capture
                    else t("hint_stays"))
            line = [("class:dim", " " + t("last_play", name=self.who(last.seat)) + " "),
                    (cs.style(last.card), cs.label(last.card)), ("class:dim", f" {took}")]
            if last.chkobba:
                line.append(("class:chkobba", " " + t("ev_chkobba")))
            add(line, 2)
        else:
            add([], 3)
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
        add(self._captures_line(st.side(me)), 2)
        req = self.request
        selected = self.sel if req is not None and req.kind == "play" else None
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
            draw = big_card_row if big else card_row
            for line in draw(list(st.hand), cs, width, selected=selected,
                             numbered=True) if st.hand else []:
                add(line)
        for line in self._prompt_lines(width):
            add(line)
        return lines

    @staticmethod
    def _fit(tagged: list[tuple[int, Line]], height: int) -> list[Line]:
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

    def _prompt_lines(self, width: int) -> list[Line]:
        st, t, cs = self.state, self.t, self.cs
        req = self.request
        out: list[Line] = []
        if self.status is not None and req is not None:
            out += wrap_line([(self.status[0], " " + self.status[1])], width - 1, "   ")
        if req is not None and req.kind == "cut":
            drawn = st.drawn or (req.hand.hand_of(req.hand.cutter)[0])
            out += wrap_line([("class:turn", " " + t("you_drew", card=cs.label(drawn)))],
                             width - 1, "   ")
            keep = ("class:option.selected" if self.cut_sel == 0 else "", f" {t('keep')} ")
            place = ("class:option.selected" if self.cut_sel == 1 else "", f" {t('place')} ")
            out.append([("", "   "), keep, ("", "   "), place])
            return out
        if req is not None and req.kind == "play":
            if self.options is not None:
                card = self.options[0].card
                out += wrap_line([("class:turn", " " + t("choose_capture", card=cs.label(card),
                                                         n=len(self.options)))],
                                 width - 1, "   ")
                for i, m in enumerate(self.options):
                    style = "class:option.selected" if i == self.opt_sel else ""
                    out.append([("", "   "), (style, f"{'▶' if i == self.opt_sel else ' '} "
                                                    f"{i + 1}) "
                                                    + t("take_option",
                                                        cards=" + ".join(
                                                            cs.label(c)
                                                            for c in by_value(m.capture))))])
                return out
            out.append([("class:turn", " " + t("your_turn", n=len(st.hand)))])
            if self.hints:
                out += self._hint_lines(req.hand)
            return out
        if self.hints and st.hand and not self.finished:
            # Hints also while waiting: what each card would take from the table now.
            out += self._static_hints()
        if st.turn is not None and st.turn != st.seat and not self.finished:
            out.append([("class:dim", " " + t("waiting_for", name=self.who(st.turn)))])
        return out

    def _hint_lines(self, hand: R.Hand) -> list[Line]:
        t, cs = self.t, self.cs
        legal = {m.card for m in hand.legal_moves()}
        out: list[Line] = []
        for i, c in enumerate(self.state.hand):
            opts = hand.captures_for(c)
            if c not in legal:
                text = t("hint_barred")
            elif opts:
                text = t("hint_takes", opts=" / ".join(
                    "+".join(cs.label(x) for x in by_value(o)) for o in opts))
            else:
                text = t("hint_stays")
            out.append([("class:dim", f"   {i + 1} "), (cs.style(c), cs.label(c)),
                        ("", f" → {text}")])
        return out

    def _static_hints(self) -> list[Line]:
        t, cs = self.t, self.cs
        out: list[Line] = []
        for i, c in enumerate(self.state.hand):
            opts = R.capture_options(c, self.state.table)
            text = (t("hint_takes", opts=" / ".join("+".join(cs.label(x) for x in by_value(o))
                                                    for o in opts))
                    if opts else t("hint_stays"))
            out.append([("class:dim", f"   {i + 1} "), (cs.style(c), cs.label(c)),
                        ("class:dim", f" → {text}")])
        return out

    def _overlay(self) -> list[tuple[str, str]]:
        kind = self._overlay_kind()
        t = self.t
        lines: list[Line] = []
        if kind == "leave":
            lines = [[("class:title", " " + t("leave_title") + " ")], [],
                     [("", " " + t("leave_body") + " ")], [],
                     [("class:keys", " " + t("leave_keys") + " ")]]
        elif kind == "help":
            rules = self.state.rules
            lines = help_lines(t, rules, t.lang, max(30, min(76, self._size()[1] - 6)))
        elif kind == "score":
            ev = self.score_queue[0] if self.score_queue else self.state.last_score
            if ev is None:
                return []
            k = len(ev.totals)
            names = [self.side_name(i) for i in range(k)]
            lines = [[("class:title", " " + t("score_title", n=ev.number))], []]
            lines += score_lines(ev.score, ev.totals, names, t, self.state.target)
            lines += [[], [("class:keys", " " + t("sc_continue") + " ")]]
        elif kind == "over":
            lines = self._over_lines()
        out: list[tuple[str, str]] = []
        for i, line in enumerate(lines):
            out += line + ([("", "\n")] if i < len(lines) - 1 else [])
        return out

    def _over_lines(self) -> list[Line]:
        t, st = self.t, self.state
        o = self.outcome
        lines: list[Line] = []
        if o is not None and o.done is not None:
            d = o.done
            score = "-".join(str(x) for x in d.totals)
            lines.append([("class:title", " " + t("over_title") + " ")])
            lines.append([])
            if st.my_side is not None and d.winner_side == st.my_side:
                lines.append([("class:ok", " " + t("over_you_win", score=score) + " ")])
            else:
                text = (t("over_they_win", score=score) if (st.players or 2) == 4 else
                        t("over_other_wins", score=score, name=self.side_name(d.winner_side)))
                lines.append([("class:warn", f" {text} ")])
            lines.append([("", " " + t("over_hands", n=d.hands))])
        else:
            lines.append([("class:error", " " + t("over_aborted") + " ")])
            lines.append([])
            if o is not None and o.aborted is not None:
                a = o.aborted
                if a.blamed_seat == a.by_seat and a.code is ErrorCode.PEER_LEFT:
                    text = self.said("ev_left", a.by_seat)
                else:
                    text = t("ev_aborted", by=self.who(a.by_seat),
                             why=a.detail or a.code.sentence)
                lines += wrap_line([("", " " + text)], max(20, self._size()[1] - 8), "   ")
            elif o is not None and o.error:
                lines.append([("", " " + o.error)])
        path = (o.log_path if o is not None else None) or self.log_path
        if path:
            width = max(20, self._size()[1] - 6)
            lines.append([])
            lines.append([("", " " + t("over_log_title"))])
            lines += _path_lines(f"{path}", width, "class:title")
            lines.append([("", " " + t("over_replay_title"))])
            lines += _path_lines(f"chkobba replay {path}", width, "class:ok")
        lines.append([])
        lines.append([("class:keys", " " + t("keys_over") + " ")])
        return lines


def _ascii_frames() -> None:
    """Frames drawn with ``+-|`` (prompt_toolkit's Frame takes its characters from one
    shared class; this process draws for one terminal, in ASCII)."""
    from prompt_toolkit.widgets import base

    b = base.Border
    b.HORIZONTAL, b.VERTICAL = "-", "|"
    b.TOP_LEFT = b.TOP_RIGHT = b.BOTTOM_LEFT = b.BOTTOM_RIGHT = "+"


def _path_lines(text: str, width: int, style: str) -> list[Line]:
    """A path (or a command holding one) on as few lines as ``width`` allows, broken only
    after a ``/`` or a space, never inside a file or folder name (it is printed whole
    again on exit, for copying)."""
    room = max(8, width - 3)
    parts = re.split(r"(?<=[/ ])", text)
    out: list[str] = []
    cur = ""
    for part in parts:
        if cur and len(cur) + len(part) > room:
            out.append(cur)
            cur = ""
        while len(part) > room:  # a single name longer than the line: no other way
            out.append(part[:room])
            part = part[room:]
        cur += part
    if cur:
        out.append(cur)
    return [[(style, "   " + line)] for line in out]


# ---------------------------------------------------------------------------- running


async def _run_async(ui: TuiApp, game: Callable[[SeatController], Awaitable[Outcome]],
                     connect_timeout: float | None) -> RunResult:
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()
    timed_out = False

    # Our own handlers first: trio then leaves SIGINT alone (no KeyboardInterrupt thrown
    # into asyncio's frames), and every way of stopping goes through trio's cancellation.
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, ui.leave_now)
            installed.append(sig)

    async def trio_main() -> Outcome | None:
        nonlocal timed_out
        ui.token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            ui.cancel_scope = scope
            if ui.leave_requested:
                scope.cancel()
            async with trio.open_nursery() as nursery:
                if connect_timeout is not None:
                    async def watchdog() -> None:
                        nonlocal timed_out
                        await trio.sleep(connect_timeout)
                        if not ui.connected:
                            timed_out = True
                            scope.cancel()
                    nursery.start_soon(watchdog)
                nursery.start_soon(ui.pacer.run)
                result = await game(TuiSeat(ui))
                # The picture catches up (the last moves, the last score sheet) before
                # the end of the match is shown.
                await ui.pacer.drained()
                nursery.cancel_scope.cancel()
                return result
        return None

    def on_done(result: outcome_mod.Outcome) -> None:
        if not done.done():
            done.set_result(result)
        value = result.value if isinstance(result, outcome_mod.Value) else None
        ui.on_trio_done(value)

    trio.lowlevel.start_guest_run(
        trio_main,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon,
        done_callback=on_done,
        host_uses_signal_set_wakeup_fd=True,
    )
    try:
        await ui.app.run_async(pre_run=ui._pre_run, handle_sigint=False)
    finally:
        if not done.done():
            ui.cancel_trio()
        result = await done
        for sig in installed:
            loop.remove_signal_handler(sig)
    crash = None
    value = None
    if isinstance(result, outcome_mod.Error):
        err = result.error
        if not isinstance(err, (KeyboardInterrupt, trio.Cancelled)):
            crash = "".join(traceback.format_exception(err))
    else:
        value = result.value
    return RunResult(value, ui.left, timed_out, crash)


def run_app(ui: TuiApp, game: Callable[[SeatController], Awaitable[Outcome]],
            connect_timeout: float | None = None) -> RunResult:
    """Run the screen and the game until both are over."""
    return asyncio.run(_run_async(ui, game, connect_timeout))
