"""``chkobba watch`` on a terminal: the table a player sees, seen from no seat, fed live.

The spectator's events (:class:`~chkobba_p2p.Spectator`: the observer's events of
every entry, and the table's unsigned news) build a
:class:`~chkobba_p2p.tablestate.TableState` from no seat, drawn with the live client's
and ``replay --view``'s :func:`~.table.draw_table` (the table cards, each player's count
of cards and captures, the turn and its clock) and narrated in the events panel by
:class:`~..parts.narration.EventLog`; the lobby is the players' :func:`~.lobby.lobby_lines`
(the terms, the seats and who is ready); each hand's scoring is shown as the players'
dialog, and ``s`` the score sheet.  Hands stay face down until the hand's seeds open:
then the cards each player had are said under the table.  Every name is a name, never a
seat number; the end is said in words.

:class:`WatchView` is the pure part (events in, lines out: tested without a terminal);
:func:`run_watch_screen` runs it on prompt_toolkit with the spectator's trio task as a
guest of the same loop, as the players' client does (:mod:`..guest`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path

import outcome as outcome_mod
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.widgets import Frame

from chkobba_p2p import HandStarted, Limits, Lobby, RedealEvent, Spectator, TableState, WatchOutcome
from chkobba_p2p.game.cards import FigureConvention
from chkobba_p2p.observe.observer import DeckRevealed
from chkobba_p2p.observe.verdict import INVALID, UNSUPPORTED, VALID, Verdict
from chkobba_p2p.text import safe_text

from ...support.term import path_lines, stderr_held
from ...words.event_words import stop_words, words
from ...words.i18n import Translator, unsupported_words
from ..model.pace import DEFAULT_PACE, Pacer
from ..model.presence import Presence
from ..model.view import TableView, card_style
from ..parts.narration import EventLog
from ..parts.render import Line, control_text, wrap_line
from ..parts.stopped import stop_sentences
from ..parts.style import STYLE, ascii_frames, ascii_text
from ..parts.terms import fit_lobby, spare
from . import dialogs
from .lobby import lobby_lines
from .table import draw_table, header_line, showing

__all__ = ["WatchView", "SpectatorView", "run_watch_screen", "SCORE_WAIT"]

#: Seconds a hand's scoring stays up before the next hand (a key closes it sooner).
SCORE_WAIT = 6.0
PANEL = 28  # the events panel's width at 80 columns, as in the players' client
#: Events queued beyond this, moves are shown four times faster until the picture
#: catches up with the table.
CATCH_UP = 6


@dataclass(frozen=True)
class SpectatorView(TableView):
    """A view from no seat: it says sides by their players' names ("hana & sami" at 4
    players, where a player's view says "us"), as every view from no seat does."""


class WatchView:
    """What the spectator's screen shows, from its events (pure: no terminal, no trio
    but the pacer's task).  ``on_event`` from the spectator (trio); ``show`` is what the
    pacer releases at a person's pace."""

    def __init__(self, *, lang: str = "en", symbols: bool = True,
                 figures: FigureConvention | str | None = None, address: str = "",
                 name: str = "", pace: float = DEFAULT_PACE,
                 changed: Callable[[], None] = lambda: None,
                 four_colour: bool = False) -> None:
        self.t = Translator(lang)
        self.symbols = symbols
        self.four_colour = four_colour
        self.figures = figures
        # A join code pasted to watch (HOST:PORT#KEY+SECRET) is shown as the table's
        # HOST:PORT: the spectator does not use the rest, and at 80 columns the whole
        # code broke inside, a seat secret on show.
        self.address = address.split("#", 1)[0]
        self.name = name
        self.changed = changed
        self.state = TableState()
        self.presence = Presence(None)
        self.events = EventLog(changed)
        self.pacer = Pacer(self.show, me=lambda: None, changed=changed, pace=pace,
                           score_wait=SCORE_WAIT)
        self.connected = False
        self.base_pace = pace
        self.spectator: Spectator | None = None
        self.revealed: DeckRevealed | None = None
        self.verdict: Verdict | None = None
        self.outcome: WatchOutcome | None = None
        self.sheet = False
        self._last_lobby: tuple[object, ...] | None = None

    @property
    def view(self) -> SpectatorView:
        st = self.state
        return SpectatorView(st, self.t, card_style(st, self.figures, self.symbols, self.t.lang,
                                                    self.four_colour))

    # ------------------------------------------------------------------ events

    def attach(self, spectator: Spectator) -> None:
        """The spectator whose events come: its clocks (the host's ``watching``) and
        whether it is still reading the game so far."""
        self.spectator = spectator

    def on_event(self, ev: object) -> None:
        """An event from the spectator (trio).  What happened before we came is shown at
        once (the backlog); then each move at a person's pace, faster when moves come
        quicker than that (the picture never falls far behind).  The deck's reveal and
        the verdict wait behind the moves being shown (they come after them)."""
        self.connected = True
        sp = self.spectator
        if sp is not None and sp.limits is not None:
            self.know_limits(sp.limits)
        if sp is not None and sp.catching_up and not self.pacer.busy:
            self.show(ev)
            return
        self.pacer.pace = self.base_pace if len(self.pacer.queue) < CATCH_UP \
            else self.base_pace / 4
        if isinstance(ev, (DeckRevealed, Verdict)) and self.pacer.running and self.pacer.busy:
            self.pacer.queue.append(ev)  # the pacer's task takes it after the others
            return
        self.pacer.push(ev)

    def know_limits(self, limits: Limits) -> None:
        """The table's clocks as the host announced them to us (a spectator that came
        in after the lobby sees no lobby): the move clock is shown as the players'."""
        if self.state.limits is None:
            self.state = replace(self.state, limits=limits)
        if self.presence.turn_timeout is None:
            self.presence.turn_timeout = limits.move

    def show(self, ev: object) -> None:
        before, self.state = self.state, self.state.apply(ev)
        self.presence.on_event(ev, before, self.state)
        view = self.view
        if isinstance(ev, Lobby):
            key = (ev.seats, ev.ready)
            if key == self._last_lobby:
                self.changed()
                return  # the same seats again: nothing new to say
            self._last_lobby = key
        if isinstance(ev, (HandStarted, RedealEvent)):
            self.revealed = None
        if isinstance(ev, DeckRevealed):
            if not ev.redeal and ev.hand < self.state.hand_number:
                # late-reveal/v1: a hand scored before its secrets opened, while the
                # next is played: said, not shown under this hand's table.
                self.events.add(("class:dim", self.t("watch_seeds_late", n=ev.hand)))
            elif not ev.redeal:
                self.revealed = ev
                self.events.add(("class:dim", self.t("watch_seeds")))
        elif isinstance(ev, Verdict):
            self.verdict = ev
            self.events.add(self.verdict_line(ev))
        else:
            self.events.narrate(ev, view)
        self.changed()

    def finished(self, outcome: WatchOutcome | None) -> None:
        """The watching is over (the game ended, the host closed, or we left)."""
        self.outcome = outcome
        if outcome is not None and outcome.verdict is not None and self.verdict is None:
            self.show(outcome.verdict)
        self.changed()

    # ------------------------------------------------------------------ words

    def verdict_line(self, v: Verdict) -> tuple[str, str]:
        t, view = self.t, self.view
        if v.verdict == VALID:
            return ("class:ok", t("watch_valid"))
        if v.verdict == INVALID:
            names = [view.name(s) for s in range(self.state.players or 0)]
            why = words(v, t, names=names) if names or v.finding else v.reason
            fps = self.state.fingerprints
            fp = fps[v.blamed] if v.blamed is not None and 0 <= v.blamed < len(fps) else None
            blamed = (t("verdict_blamed", name=view.name(v.blamed), fp=fp or "?")
                      if v.blamed is not None else t("watch_nobody"))
            return ("class:error", t("watch_cheat", entry=v.entry, why=safe_text(why, 300))
                    + " " + blamed)
        if v.verdict == UNSUPPORTED:  # a table capability we do not know: no judgement
            return ("class:warn", t("verdict_unsupported",
                                    why=unsupported_words(t, v.unknown_caps)))
        st = self.state
        if v.code == "aborted" and st.aborted is not None:  # why, as the players are told
            why = " ".join(text for _, text in stop_sentences(view, st.aborted))
        elif v.code in ("unfinished", "truncated"):
            why = t("watch_unfinished") if st.names else t("watch_not_started")
        else:
            names = [view.name(s) for s in range(st.players or 0)]
            why = safe_text(words(v, t, names=names) if names or v.finding else v.reason,
                            300)
        return ("class:warn", t("watch_incomplete", why=why))

    def end_lines(self, width: int) -> list[Line]:
        """The end, in words: who won and by how much, or why the game stopped; the
        verdict of every entry; why the watching stopped; the log copy to replay."""
        t, st, view = self.t, self.state, self.view
        out: list[Line] = []

        def say(style: str, text: str) -> None:
            out.extend(wrap_line([(style, " " + text)], width - 1, "   "))

        if st.done is not None:  # at 3 players too (three totals, the winner's first)
            key = "watch_won_pl" if (st.players or 2) == 4 else "watch_won"
            say("class:title", t(key, name=view.side_name(st.done.winner_side),
                                 score=view.score(st.done.totals, st.done.winner_side)))
        elif st.aborted is not None:
            a, won = st.aborted, st.winner_side
            if won is not None:  # a flag, a resignation, a leave: a winner all the same
                four = (st.players or 2) == 4
                key = "watch_won_on_time" if a.flag is not None else "watch_won_by"
                say("class:title", t(key + ("_pl" if four else ""),
                                     name=view.side_name(won)))
            for style, text in stop_sentences(view, a):
                say(style, text)
        if self.verdict is not None:
            say(*self.verdict_line(self.verdict))
        o = self.outcome
        if o is not None:
            if o.stop_reason and (st.done is None or o.verdict is None):
                say("class:dim", t("watch_stopped", why=stop_words(o.stop_reason,
                                                                   o.stop_data, t)))
            if o.log_path is not None:  # whole, to copy: never cut at the edge (two
                # pieces and no file), nor left out in its middle ("…/logs/NAME" names no
                # file either): on the sentence's line when it fits, else on lines of its
                # own under it, broken after a "/" (path_lines)
                shown = path_lines(o.log_path, width - 6)
                said = " " + t("watch_log", path=shown[0])
                if len(shown) == 1 and len(said) <= width - 1:
                    out.append([("class:dim", said)])
                else:
                    say("class:dim", t("watch_log", path="").rstrip())
                    out.extend([("class:dim", "     " + x)] for x in shown)
        return out

    def ended(self) -> bool:
        """The end box is up: the match over (or the watching stopped) once the table
        was drawn, and neither the score sheet nor a hand's scoring over it."""
        st = self.state
        return st.started and (st.over or self.outcome is not None) and not self.sheet \
            and not self.score_overlay()

    def end_box(self, cols: int) -> list[Line]:
        """The end in the players' box (:func:`.dialogs.over_lines`): "Match over" (or
        "Game stopped"), who won and by how much, the hands played or why it stopped,
        the verdict of every entry, the log copy and the command that replays it, the
        keys.  It was a line under the table, easy to miss beside the players' box."""
        t, st, view = self.t, self.state, self.view
        room = max(20, cols - 6)
        out: list[Line] = []

        def say(style: str, text: str) -> None:
            out.extend(wrap_line([(style, " " + text)], room, "   "))

        pl = "_pl" if (st.players or 2) == 4 else ""
        won = st.done.winner_side if st.done is not None else \
            st.winner_side if st.aborted is not None else None
        out += [[("class:title", " " + t("over_title" if won is not None else "over_aborted")
                  + " ")], []]
        if st.done is not None:  # at 3 players too (three totals, the winner's first)
            say("class:ok", t("watch_box_won" + pl, name=view.side_name(st.done.winner_side),
                              score=view.score(st.done.totals, st.done.winner_side)))
            say("", t("over_hands", n=st.done.hands))
        elif st.aborted is not None:
            if won is not None:  # a flag, a resignation, a leave: a winner all the same
                key = "watch_box_on_time" if st.aborted.flag is not None else "watch_box_by"
                say("class:ok", t(key + pl, name=view.side_name(won)))
            for style, text in stop_sentences(view, st.aborted):
                say(style, text)
        o = self.outcome
        if o is not None and o.stop_reason and (st.done is None or o.verdict is None):
            say("class:dim", t("watch_stopped", why=stop_words(o.stop_reason, o.stop_data,
                                                               t)))
        if self.verdict is not None:
            out.append([])
            say(*self.verdict_line(self.verdict))
        if o is not None and o.log_path is not None:  # whole, as the players' box says it
            out += [[], *dialogs.log_lines(t, "watch_box_log", Path(o.log_path), room)]
        return out + [[], [("class:keys", " " + t("keys_watch_over") + " ")]]

    # ------------------------------------------------------------------ drawing

    def beside(self, cols: int) -> bool:
        """The events beside the table or lobby (else under it, as under 72 columns):
        also under it while the lobby names a table address longer than the room the
        events leave (an onion address, 67 characters, at 80 columns)."""
        return cols >= 72 and (self.state.started
                               or len(self.address) + 5 <= cols - PANEL - 1)

    def header(self, cols: int) -> Line:
        line = header_line(self.view, f" {self.t('app')} · {self.t('watching')}", cols)
        return [(style, text[:cols]) for style, text in line]

    def below(self, width: int) -> list[Line]:
        """Under the table: the cards each player had, once the hand's seeds opened."""
        out: list[Line] = []
        rev, view = self.revealed, self.view
        if rev is not None:
            for seat in range(self.state.players or 0):
                out.extend(wrap_line([("class:dim", " " + self.t(
                    "watch_dealt", name=view.name(seat),
                    cards=view.labels(rev.dealt_to(seat))))], width - 1, "   "))
        return out

    def sheet_lines(self, width: int) -> list[Line]:
        return dialogs.sheet_lines(self.view, width, "watch_sheet_empty")

    def body(self, width: int, height: int) -> list[Line]:
        """The left of the screen: the lobby until the first hand, then the table."""
        t, st, view = self.t, self.state, self.view
        over = self.outcome is not None
        if self.sheet:
            lines = self.sheet_lines(width)
            return lines[:1] + lines[max(1, len(lines) - height + 1):]
        if not st.started:
            head: list[Line] = [[]]
            key = "watch_in" if self.connected else "watch_connecting"
            style = "class:ok" if self.connected else "class:title"
            said = " " + t(key, addr=self.address, name=self.name)
            if len(said) <= width - 1:
                head.append([(style, said)])
            else:  # the address whole on a line of its own (an onion one broke in two)
                before, after = t(key, addr="\0", name=self.name).split("\0", 1)
                head += wrap_line([(style, " " + before.rstrip())], width - 1, "   ")
                head += wrap_line([(style, "   " + self.address + after)], width - 1, "   ")
            if self.connected:
                head += spare(wrap_line([("class:dim", " " + t("watch_faces"))], width - 1,
                                        "   "), 1)
            rest = lobby_lines(view, width, kind="watch", connected=self.connected,
                               address=self.address)[1:] if st.names else []
            end: list[Line] = ([[]] + self.end_lines(width)) if over else []
            return fit_lobby(head + rest + end, height)
        below = self.below(width)  # the end is said in its box (end_box) over the table
        return draw_table(view, width, height, below=below,
                          seat_extra=lambda s: self.presence.seat_clock(view, s, over),
                          notices=[] if over else self.presence.countdown_lines(view, width),
                          showing=showing(view, self.pacer.showing, width))

    def score_overlay(self) -> list[Line]:
        """A hand's scoring while the pacer holds it (the players' dialog)."""
        last = self.state.last_score
        if not self.pacer.scoring or last is None:
            return []
        lines = dialogs.score_dialog_lines(self.view, last)
        return [line for line in lines if not any("class:keys" in s for s, _ in line)] + [
            [("class:keys", " " + self.t("keys_watch_score") + " ")]]

    def footer(self) -> Line:
        # Once the match is over (a resignation too) nothing "goes on" any more, even
        # while the host keeps the connection open for its players' rematch answers.
        over = self.outcome is not None or self.state.over
        key = ("keys_watch_sheet_over" if over else "keys_watch_sheet") if self.sheet else \
            "keys_watch_over" if over else "keys_watch"
        return [("class:keys", " " + self.t(key) + " ")]

    def events_panel(self, width: int, height: int) -> list[tuple[str, str]]:
        return self.events.panel(self.t("events"), width, height)


# ---------------------------------------------------------------------- the application


def _build(w: WatchView, color: bool, size: Callable[[], tuple[int, int]],
           on_key: Callable[[], None], quit: Callable[[], None]) -> Application:
    def tx(draw: Callable[[], list[tuple[str, str]]]):
        return control_text(draw if w.symbols else ascii_text(draw))

    def left() -> list[tuple[str, str]]:
        rows, cols = size()
        wide = w.beside(cols)
        width = cols - PANEL - 1 if wide else cols
        out: list[tuple[str, str]] = []
        for line in w.body(width, max(1, rows - 2 if wide else rows - 8)):
            out += line + [("", "\n")]
        return out

    def panel() -> list[tuple[str, str]]:
        rows, cols = size()
        wide = w.beside(cols)
        return w.events_panel(PANEL if wide else cols, rows - 2 if wide else 5)

    bar, rule = ("│", "─") if w.symbols else ("|", "-")
    if not w.symbols:
        ascii_frames()
    header = Window(FormattedTextControl(tx(lambda: w.header(size()[1]))), height=1,
                    style="class:header")
    body_wide = VSplit([Window(FormattedTextControl(tx(left)), wrap_lines=False),
                        Window(width=1, char=bar, style="class:dim"),
                        Window(FormattedTextControl(tx(panel)), width=PANEL,
                               wrap_lines=False)])
    # Under 72 columns, the events under the table (as the players' client does).
    body_narrow = HSplit([Window(FormattedTextControl(tx(left)), wrap_lines=False),
                          Window(height=1, char=rule, style="class:dim"),
                          Window(FormattedTextControl(tx(panel)), height=5)])
    footer = Window(FormattedTextControl(tx(w.footer)), height=1)
    from prompt_toolkit.filters import Condition
    overlay = ConditionalContainer(
        Frame(Window(FormattedTextControl(tx(lambda: dialogs.as_text(w.score_overlay()))),
                     dont_extend_width=True, dont_extend_height=True)),
        filter=Condition(lambda: bool(w.score_overlay())))
    end = ConditionalContainer(
        Frame(Window(FormattedTextControl(tx(lambda: dialogs.as_text(w.end_box(size()[1])))),
                     dont_extend_width=True, dont_extend_height=True)),
        filter=Condition(w.ended))
    body = DynamicContainer(lambda: body_wide if w.beside(size()[1]) else body_narrow)
    root = FloatContainer(HSplit([header, body, footer]), floats=[Float(overlay), Float(end)])
    kb = KeyBindings()

    @kb.add("s")
    def _(e: KeyPressEvent) -> None:
        if w.pacer.scoring:
            on_key()
            return
        w.sheet = not w.sheet

    @kb.add("q")
    @kb.add("escape", eager=True)
    @kb.add("c-c")
    def _(e: KeyPressEvent) -> None:
        if w.pacer.scoring and e.key_sequence[0].key != "c-c":
            on_key()
            return
        if w.sheet and e.key_sequence[0].key == "escape":
            w.sheet = False  # Esc closes the sheet, as the players' (it quit the screen)
            return
        quit()

    @kb.add("<any>")
    def _(e: KeyPressEvent) -> None:
        if w.pacer.scoring:
            on_key()

    return Application(layout=Layout(root), key_bindings=kb, full_screen=True, style=STYLE,
                       color_depth=None if color else ColorDepth.DEPTH_1_BIT,
                       mouse_support=False, refresh_interval=1.0)  # the clocks count down


def run_watch_screen(w: WatchView, watch: Callable[[Callable[[object], None]],
                                                   Awaitable[WatchOutcome]],
                     *, color: bool = True) -> WatchOutcome | None:
    """Run the screen and ``watch(on_event)`` (the spectator, in trio as a guest of the
    screen's asyncio loop) until the person leaves (q, Esc, Ctrl-C); once the watching
    ends the screen stays, with the end said, until then.  The spectator's outcome, or
    None if the person left before it ended.  Stderr is held meanwhile
    (:func:`...support.term.stderr_held`), as the players' screens hold it."""
    with stderr_held():
        return asyncio.run(_run(w, watch, color))


async def _run(w: WatchView, watch: Callable[[Callable[[object], None]],
                                             Awaitable[WatchOutcome]],
               color: bool) -> WatchOutcome | None:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[outcome_mod.Outcome] = loop.create_future()
    token: list[trio.lowlevel.TrioToken] = []
    scope = trio.CancelScope()
    app: Application | None = None

    def size() -> tuple[int, int]:
        if app is None:
            return 24, 80
        s = app.output.get_size()
        return s.rows, s.columns

    def redraw() -> None:
        if app is not None:
            app.invalidate()

    w.changed = redraw
    w.events.on_change = redraw
    w.pacer.changed = redraw

    def in_trio(fn: Callable[[], object]) -> None:
        if token and not done.done():
            with contextlib.suppress(trio.RunFinishedError):
                token[0].run_sync_soon(fn)

    def quit() -> None:
        in_trio(scope.cancel)
        if app is not None and app.is_running:
            app.exit()

    async def trio_main() -> WatchOutcome | None:
        token.append(trio.lowlevel.current_trio_token())
        result: WatchOutcome | None = None
        with scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(w.pacer.run)
                result = await watch(w.on_event)
                await w.pacer.drained()
                nursery.cancel_scope.cancel()
        return result

    def on_done(result: outcome_mod.Outcome) -> None:
        if not done.done():
            done.set_result(result)
        value = result.value if isinstance(result, outcome_mod.Value) else None
        w.finished(value)
        if (value is None or value.verdict is None) and not w.connected \
                and app is not None and app.is_running:
            app.exit()  # no table to show (refused, unreachable): say why on the terminal

    app = _build(w, color, size, on_key=lambda: in_trio(w.pacer.dismiss), quit=quit)
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, quit)
            installed.append(sig)
    trio.lowlevel.start_guest_run(
        trio_main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon, done_callback=on_done,
        host_uses_signal_set_wakeup_fd=True)
    try:
        await app.run_async(handle_sigint=False)
    finally:
        if not done.done():
            in_trio(scope.cancel)
        result = await done
        for sig in installed:
            loop.remove_signal_handler(sig)
    if isinstance(result, outcome_mod.Error):
        if isinstance(result.error, (KeyboardInterrupt, trio.Cancelled)):
            return w.outcome
        raise result.error
    value = result.unwrap()
    return value if value is not None else w.outcome
