"""The terminal client's application: the state of the screen and the actions keys call
(the layout, and which screen or dialog shows, are :mod:`.screen`'s; leaving and playing
again, :mod:`.leaving`'s; the map of the package, and where a new screen goes, is in
:mod:`chkobba_cli.tui`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from chkobba_p2p import (
    Chat,
    HandScored,
    KnownPlayers,
    Listening,
    Notice,
    OnionPublished,
    Outcome,
    PortMapped,
    PortMapUnavailable,
    RematchAnswer,
    RematchOffered,
    Resumed,
    SeatController,
    SocksFailed,
    TableReady,
    TableState,
    TorBootstrap,
    TorFailed,
    TorStarting,
)
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import FigureConvention

from ..words.i18n import Translator
from ..words.tor_words import TOR_EVENTS, tor_failed_text, tor_status_text
from .keys import key_bindings
from .leaving import Leaving
from .model.luckview import LuckAccount
from .model.memo import Memo
from .model.pace import DEFAULT_PACE, SCORE_WAIT, Pacer
from .model.past import PastGames
from .model.presence import Presence, clock_text
from .model.view import TableView, card_style
from .parts.chat import ChatInput
from .parts.decision import Request, refusal
from .parts.narration import EventLog
from .parts.quickchat import TurnBell, phrase
from .parts.render import CardStyle
from .parts.terms import duration_text
from .screen import MIN_SIZE, Screen

__all__ = ["TuiApp", "MIN_SIZE"]


class TuiApp(Leaving, Screen):
    """The screen: table, hands, captures, scores, lobby, events, and the key bindings."""

    def __init__(self, *, kind: str, lang: str = "en", symbols: bool = True,
                 color: bool = True, figures: FigureConvention | str | None = None,
                 address: str | None = None, my_fingerprint: str | None = None,
                 seat: int | None = None, rules: R.Ruleset | None = None,
                 players: int | None = None, log_path: Path | None = None,
                 turn_timeout: float | None = None, reconnect_timeout: float = 60.0,
                 rematch: bool = False, address6: str | None = None,
                 onion: str | None = None,
                 pace: float = DEFAULT_PACE, score_wait: float = SCORE_WAIT,
                 known: KnownPlayers | None = None, past: PastGames | None = None,
                 bell: bool = True, memo: Memo | None = None,
                 four_colour: bool = False, mouse: bool = True) -> None:
        self.kind = kind  # "play", "host" or "join"
        #: Clicks on the cards (--no-mouse: never, the terminal keeps its selection).
        self.mouse = mouse
        self.t = Translator(lang)
        self.figures_override = figures
        self.symbols = symbols
        self.color = color
        self.four_colour = four_colour  # each suit its own colour (--four-colour)
        self.address = address
        self.address6 = address6  # a host's global IPv6 address, if it has one
        self.onion = onion  # a host's onion address (host --tor), once published
        #: Through Tor (host --tor, a join to an onion): what tor does now (its last
        #: event: TorStarting, TorBootstrap, SocksFailed), its failure if it failed, the
        #: last SOCKS refusal, and the seconds tor has to reach the network (None: no Tor).
        self.tor_status: object | None = None
        self.tor_failed: TorFailed | None = None
        #: Tor failed in the lobby of a host whose friends had sat: the table went on.
        self.tor_kept = False
        self.socks_failed: SocksFailed | None = None
        self.tor_wait: float | None = None
        #: The router's answer to the host's port mapping, once it came.
        self.reach: PortMapped | PortMapUnavailable | None = None
        self.log_path = log_path
        st = TableState(my_fingerprint=my_fingerprint, seat=seat, rules=rules)
        if players:
            st = st.with_players(players)
        self.state = st
        self.events = EventLog(self.invalidate, empty_table=kind == "host")
        # The decision in progress (see .decision) and where the keys are in it.
        self.request: Request | None = None
        self.sel = 0
        self.options: list[R.Move] | None = None
        self.opt_sel = 0
        self.cut_sel = 0
        self.status: tuple[str, str] | None = None
        self.hints = False
        self.sheet = False  # the score sheet shown instead of the table (s)
        # "Is it rigged?" (l on the end screen), computed only when asked.
        self.luck_shown = False
        self.luck = LuckAccount(self.t.lang, self.invalidate)
        self.score_queue: list[HandScored] = []  # scoring dialogs still to show
        self.confirm_leave = False
        self.confirm_resign = False  # x in the leave dialog: resign? (y resigns)
        self.leave_by_interrupt = False  # the leave dialog came from Ctrl-C (not q)
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
        #: The host pressed f in its lobby: a seat's number frees that seat.
        self.freeing = False
        self.chat = ChatInput(self.t, self.log, self.invalidate)
        #: Events reach the picture at a person's pace (the peer runs at full speed).
        self.pacer = Pacer(self._show_event, lambda: self.state.seat, self.invalidate,
                           pace, score_wait, keep_last=True)
        #: Players met before (None: neither checked nor remembered).
        self.known = known
        #: The ready check: set (from trio) while the lobby waits for our Enter.
        self._ready_event: trio.Event | None = None
        self.help = False  # the help dialog is up
        self.help_page = 0  # its page (at 80x24 how to play is a second page)
        self.hint: str | None = None  # one line after a key that does nothing here
        self._wait_hint: str | None = None  # the hint said while waiting for our turn
        #: The clocks on screen (the host's move limit; seats away and their countdowns).
        self.presence = Presence(turn_timeout, time.monotonic)
        self.reconnect_allowance = reconnect_timeout  # how long a step-away may last
        self.stepping_away = False
        self.rematch = rematch  # this screen is a rematch's
        self.rematch_requested = False
        self._clock_said = False  # solo: the move clock said once (TableReady)
        #: The end screen's question (see Leaving.decide_rematch): asked, our answer,
        #: the others' (the host's, seat 0, at a joiner), how many people must answer.
        self.rematch_open = False
        self.rematch_answered: bool | None = None
        self.rematch_answers: dict[int, bool] = {}
        self.rematch_offered = False  # at a joiner: the host's person wants a rematch
        self.rematch_people = (players or 2) - 1
        self.rematch_bots = 0  # local bot seats (a host's --bots): they never answer
        self.rematch_gone: set[int] = set()  # seats gone without an answer
        self._rematch_wake: trio.Event | None = None
        self.peer_ended = False  # the peer's run is over (on_trio_done)
        #: The matches of the logs already written (the records), read in a
        #: thread; None: not shown.
        self.past = past
        #: The bell when the turn comes back to us (--no-bell: never).
        self.bell = TurnBell(bell)
        #: The chat lines and hints kept across a resume (None: not kept).
        self.memo = memo
        if memo is not None:
            self.hints = memo.hints
            for line in memo.chat:
                self.events.add(*line)
        self.app = self._build(key_bindings(self))
        if past is not None:
            if past.on_change is None:
                past.on_change = self.invalidate
            past.refresh()

    @property
    def cs(self) -> CardStyle:
        return card_style(self.state, self.figures_override, self.symbols, self.t.lang,
                          self.four_colour)

    @property
    def view(self) -> TableView:
        return TableView(self.state, self.t, self.cs, solo=self.kind == "play")

    def invalidate(self) -> None:
        with contextlib.suppress(Exception):
            self.app.invalidate()

    def log(self, *fragments: tuple[str, str]) -> None:
        self.events.add(*fragments)

    # ------------------------------------------------------------------ trio side

    def on_event(self, event: object) -> None:
        """Called from trio (the peer) for every event: it reaches the picture at a
        person's pace (:class:`~.model.pace.Pacer`)."""
        if isinstance(event, (*TOR_EVENTS, OnionPublished)):
            self._tor_event(event)  # tor's news, not the table's: no answer, no pace
            return
        if not isinstance(event, Notice):  # a notice (a failed resume...) is no answer
            self.connected = True
        self.pacer.push(event)

    def _tor_event(self, event: object) -> None:
        """What tor says while it starts: the lobby's Tor line; the onion address once
        published; a failure before the match ends the command (its sentence is printed
        once the screen closes, exit 2), during one it is said and the table goes on."""
        if isinstance(event, OnionPublished):
            self.onion = event.onion
            self.tor_status = None
        elif isinstance(event, TorFailed):
            self.tor_failed = event
            # A host whose friends already sat (from its local code) keeps its table:
            # closing it sent them away with no reason they could read ("the host
            # closed the table"), and they play on this network all the same.
            self.tor_kept = self.kind == "host" and self.person_seated()
            if not self.state.started and not self.tor_kept:
                self.cancel_trio()
            else:
                self.log(("class:warn", tor_failed_text(self.t, event)))
                if self.kind == "host":
                    self.log(("class:dim", self.t("tor_failed_goes_on")))
        else:
            self.tor_status = event
            if isinstance(event, SocksFailed):
                self.socks_failed = event
        self.invalidate()

    def person_seated(self) -> bool:
        """A seat other than ours is a person's (not a bot: the host's vouched one, or a
        level's well-known key)."""
        st = self.state
        return any(n and i != st.seat and st.bot(i) is None for i, n in enumerate(st.names))

    def tor_line(self) -> str | None:
        """The lobby's line about tor while it starts (None: no Tor, or its address is
        out); once it failed at a table kept for the friends seated, why, and that the
        table goes on on this network."""
        if self.tor_failed is not None and self.tor_kept and not self.state.started:
            return tor_failed_text(self.t, self.tor_failed) + " " + \
                self.t("tor_failed_goes_on")
        if self.tor_status is None or self.tor_failed is not None:
            return None
        return tor_status_text(self.t, self.tor_status, joining=self.kind == "join")

    def tor_wait_left(self) -> float | None:
        """How long tor may take, said while it reaches the network (None: not now)."""
        status = self.tor_status
        if self.tor_failed is not None:
            return None
        if isinstance(status, TorStarting) or (
                isinstance(status, TorBootstrap) and status.progress < 100):
            return self.tor_wait
        return None

    def _show_event(self, event: object) -> None:
        # A seat back from a drop: what its countdown had left, read before it goes.
        back_left = None
        if isinstance(event, Resumed) and event.seat != self.state.seat:
            waited = self.presence.countdowns.get(event.seat)
            # Not after a host's restart: that seat was not away, its host was.
            if waited is not None and waited[1] != "ev_awaited":
                back_left = max(0.0, waited[0] - self.presence.now())
        before, self.state = self.state, self.state.apply(event)
        self.presence.on_event(event, before, self.state)
        if isinstance(event, Listening):
            self.port = event.port
        elif isinstance(event, PortMapped | PortMapUnavailable):
            self.reach = event
        # Against local bots (play) no rematch is offered: neither the listening port
        # nor a bot's leaving without an answer is news for the player.
        quiet = self.kind == "play" and (isinstance(event, Listening) or (
            isinstance(event, RematchAnswer) and event.left))
        self.bell.on_event(event, self.state.seat)
        if not quiet:
            self.events.narrate(event, self.view, own_chat=self.chat.own_line)
            if isinstance(event, Resumed) and event.seat == self.state.seat:
                self._say_allowance_left()
            elif back_left is not None and isinstance(event, Resumed):
                self.events.add(("class:dim", self.t(
                    "ev_back_left", name=self.view.name(event.seat), t=clock_text(back_left))))
            if isinstance(event, Chat) and self.memo is not None and self.events.lines:
                self.memo.add_chat(self.events.lines[-1])
        if isinstance(event, RematchOffered):
            self.rematch_offered = True  # the end screen says so until we answer
        if isinstance(event, RematchAnswer):
            self.rematch_answers.setdefault(event.seat, event.accept)
            if event.left:
                self.rematch_gone.add(event.seat)
            self.rematch_changed()
        if isinstance(event, HandScored) and not self.pacer.running:
            self.score_queue.append(event)  # no pacer: the dialog waits for its key
        if isinstance(event, TableReady) and self.kind == "play" and not self._clock_said:
            # Against local bots nothing else says that moves have a clock (issue 43,
            # item 12): said once, as the match starts.
            self._clock_said = True
            self.events.add(("class:dim", self.t(
                "ev_solo_clock", t=duration_text(self.view.move_limit, self.t.lang))))
        if isinstance(event, TableReady) and self.known is not None:
            # The game starts with these seats: remember them (the person confirmed).
            st = self.state
            # A bot (the host's vouched one, or a level's well-known key) is no person
            # to remember (its name, bot1, would come back with another level's key).
            self.known.remember([(n, k) for i, (n, k) in enumerate(zip(st.names, st.keys))
                                 if n and k is not None and i != st.seat
                                 and st.bot(i) is None])
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

    def free_seat(self, seat: int) -> None:
        """f then a seat's number in the host's lobby (asyncio side): free that seat and
        refuse its key at this table, in trio."""
        self.freeing = False
        names = self.state.names
        if not 0 < seat < len(names) or not names[seat] or self.controller is None:
            self.invalidate()
            return
        controller = self.controller
        self.events.add(("class:warn", self.t("ev_freed", name=names[seat])))
        self._soon_in_trio(lambda: controller.free_seat(seat))
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
        if self.hint is not None and self.hint == self._wait_hint:
            self.hint = None  # the wait it was about ("not your turn") is over
        self.sel = min(self.sel, max(0, len(self.state.hand) - 1))
        self.options = None
        self.opt_sel = 0
        self.cut_sel = 0
        if self.bell.asked():  # the others played: the turn is ours again
            with contextlib.suppress(Exception):
                self.app.output.bell()
                self.app.output.flush()
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
            n = len(mine)
            self.hint = self.t("hint_no_card_1" if n == 1 else "hint_no_card",
                               n=index + 1, count=n)
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
        if self.options is None:
            return
        if not 0 <= index < len(self.options):
            self.hint = self.t("hint_no_option", n=index + 1, count=len(self.options))
            return
        self._send(self.options[index])

    def digit_unasked(self) -> None:
        """A digit while no card is asked for: why nothing is played (the cut card
        first, or another player's turn), not the catch-all hint."""
        req, st = self.request, self.state
        if req is not None and req.kind == "cut":
            self.hint = self.t("hint_cut_first")
            return
        if st.turn is not None and st.turn != st.seat:
            self.hint = self.t("hint_not_turn", name=self.view.who(st.turn))
        else:
            self.hint = self.t("hint_not_yet")
        self._wait_hint = self.hint

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

    def quick_chat(self, key: str) -> None:
        """A quick chat key (:mod:`.parts.quickchat`): its phrase goes out as a chat line."""
        text = phrase(self.t, key)
        if text is not None and not self.finished and self.controller is not None:
            self.send_chat(text)

    def _say_allowance_left(self) -> None:
        """Back in the game after a drop: what is left of our time away for the match,
        once some of it is spent (the host's figure, from its welcome)."""
        seat = self.state.seat
        left = self.presence.allowance_left.get(seat if seat is not None else -1)
        full = self.presence.allowance_limit
        if left is not None and full is not None and left < full - 1:
            self.events.add(("class:dim", self.t("ev_allowance_left", t=clock_text(left))))

    def toggle_sheet(self) -> None:
        if not self.state.started:
            self.hint = self.t("sheet_empty")  # nothing to show before the first deal
            return
        self.sheet = not self.sheet

    def toggle_hints(self) -> None:
        self.hints = not self.hints
        self.hint = self.t("hints_on" if self.hints else "hints_off")
        if self.memo is not None:
            self.memo.set_hints(self.hints)

    def on_trio_done(self, result: Outcome | None) -> None:
        """The peer's run ended (asyncio side)."""
        self.finished = self.peer_ended = True
        # Cut short after the match ended (q on the end screen while the peer still let
        # its bots finish): the match's outcome, which the end screen had, stands.
        self.outcome = result if result is not None else self.outcome
        self.request = None
        if self.memo is not None and result is not None and (
                result.done is not None or result.aborted is not None
                or result.resigned is not None):
            self.memo.clear()  # the match is over: nothing to bring back
        if self.past is not None and result is not None and result.table is not None:
            self.past.refresh()  # this match's log is complete now: the records count it
        never_played = result is None or result.table is None
        if self.rematch_answered is not None:  # answered: nothing more to see here
            if self.kind == "join":
                self.rematch_requested = bool(self.rematch_answered) \
                    and self.rematch_answers.get(0) is True
            self.exit()
            return
        if self.left or (never_played and (self.kind == "join" or result is None
                                           or result.error_code is not None)):
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
