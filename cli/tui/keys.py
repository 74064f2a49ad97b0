"""The keys: what each key does on which screen.

Every binding has a filter saying when it acts (a decision asked, a dialog shown, the
chat line open), and calls one of the app's actions (:class:`KeyTarget`, which
:class:`~.app.TuiApp` is); the keys of a new screen or dialog go in a block of their own
below, under its filter.  This module knows the app only by that protocol: the app
imports it, never the other way round (no import circle app -> screen -> keys -> app).
"""

from __future__ import annotations

from typing import Any, Protocol

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import ConditionalKeyBindings, KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.key_binding.key_processor import KeyPressEvent

from chkobba_p2p import TableState
from chkobba_p2p.game import rules as R

from .parts.chat import ChatInput
from .parts.decision import Request
from .parts.quickchat import QUICK_CHAT

__all__ = ["KeyTarget", "key_bindings", "click", "mouse_wanted", "ESCAPE_DELAY"]

#: Seconds prompt_toolkit waits after Esc for the rest of a key sequence (its
#: ``ttimeoutlen``; ``timeoutlen`` for bindings of several keys, of which there are
#: none): 0.5 s and 1 s by default, which made Esc close the help 1.5 s late.  A
#: terminal sends the bytes of one key's sequence at once.
ESCAPE_DELAY = 0.05


class KeyTarget(Protocol):
    """What the keys read and call on the screen's app."""

    request: Request | None
    options: list[R.Move] | None
    state: TableState
    chat: ChatInput
    controller: Any
    finished: bool
    confirm_leave: bool
    confirm_resign: bool
    help: bool
    help_page: int
    @property
    def help_paged(self) -> bool: ...
    def turn_help_page(self, step: int) -> None: ...
    sheet: bool
    hint: str | None
    hints: bool
    sel: int
    opt_sel: int
    cut_sel: int
    kind: str
    freeing: bool
    mouse: bool

    @property
    def asking_ready(self) -> bool: ...
    @property
    def can_rematch(self) -> bool: ...
    def t(self, key: str, **kw: Any) -> str: ...
    def overlay_kind(self) -> str | None: ...
    def request_leave(self, interrupt: bool = False) -> None: ...
    def leave_now(self) -> None: ...
    def resign_now(self) -> None: ...
    def ask_rematch(self) -> None: ...
    def confirm_ready(self) -> None: ...
    def free_seat(self, seat: int) -> None: ...
    def dismiss_score(self) -> None: ...
    def choose_card(self, index: int) -> None: ...
    def choose_option(self, index: int) -> None: ...
    def choose_cut(self, keep: bool) -> None: ...
    def digit_unasked(self) -> None: ...
    def open_chat(self) -> None: ...
    def send_chat(self, text: str) -> None: ...
    def quick_chat(self, key: str) -> None: ...
    def toggle_hints(self) -> None: ...
    def toggle_sheet(self) -> None: ...
    luck_shown: bool
    def toggle_luck(self) -> None: ...


def _playing(ui: KeyTarget) -> bool:
    """A card of the hand is asked for, in sight (the score sheet over the table: no
    card is played, nor cut, unseen under it)."""
    return ui.overlay_kind() is None and not ui.sheet \
        and ui.request is not None and ui.request.kind == "play"


def _cutting(ui: KeyTarget) -> bool:
    return ui.overlay_kind() is None and not ui.sheet \
        and ui.request is not None and ui.request.kind == "cut"


def _unasked(ui: KeyTarget) -> bool:
    """During the game, no card asked for (a digit says why)."""
    return ui.overlay_kind() is None and not ui.finished and ui.state.started \
        and not ui.sheet and not _playing(ui)


def mouse_wanted(ui: KeyTarget) -> bool:
    """The mouse is the table's while a game is on screen, with no dialog, chat line or
    score sheet over it: elsewhere (the lobby's keys to read aloud, the end screen's
    path) the terminal keeps it, to select and copy text; with ``--no-mouse``, always."""
    return ui.mouse and ui.state.started and not ui.finished and ui.overlay_kind() is None \
        and not ui.sheet and not ui.chat.is_open


def click(ui: KeyTarget, where: str, n: int) -> None:
    """A click on the table (:func:`.parts.render.click_target`): the same action, and the same
    checks and refusals, as the keys that do it.

    ``hand``, card ``n`` (its id): as its digit (a card that cannot be played is refused
    with the key's words); while a capture is being picked, the card being played plays
    the marked capture (Enter) and another card is played instead (Esc, its digit).
    ``table``, card ``n``: while picking, the capture that takes it (its digit), or, when
    several do, the next of them (↓).  ``option`` ``n``: that capture; ``cut`` 0 or 1:
    keep or place."""
    if where == "hand":
        index = next((i for i, c in enumerate(ui.state.hand) if c.id == n), None)
        if _playing(ui) and index is not None:
            if ui.options is not None and ui.options[0].card.id == n:
                ui.choose_option(ui.opt_sel)
                return
            ui.options = None
            ui.choose_card(index)
        elif _unasked(ui):
            ui.digit_unasked()
    elif where == "table":
        if _playing(ui) and ui.options is not None:
            takes = [i for i, m in enumerate(ui.options) if any(c.id == n for c in m.capture)]
            if len(takes) == 1:
                ui.choose_option(takes[0])
            elif takes:  # the next capture that takes it, after the one marked
                ui.opt_sel = next((i for i in takes if i > ui.opt_sel), takes[0])
                ui.hint = ui.t("ms_several", n=len(takes))
            else:
                ui.hint = ui.t("ms_not_in")
        elif _playing(ui):
            ui.hint = ui.t("ms_hand_first")
        elif _unasked(ui):
            ui.digit_unasked()
    elif where == "option" and _playing(ui) and ui.options is not None:
        ui.choose_option(n)
    elif where == "cut" and _cutting(ui):
        ui.choose_cut(n == 0)


def key_bindings(ui: KeyTarget) -> KeyBindingsBase:
    kb = KeyBindings()
    playing = Condition(lambda: _playing(ui))
    picking = Condition(lambda: bool(playing()) and ui.options is not None)
    cutting = Condition(lambda: _cutting(ui))
    leave = Condition(lambda: ui.overlay_kind() == "leave")
    helping = Condition(lambda: ui.overlay_kind() == "help")
    away = Condition(lambda: ui.overlay_kind() == "away")
    resigning = Condition(lambda: ui.overlay_kind() == "resign")
    score = Condition(lambda: ui.overlay_kind() == "score")
    lobby = Condition(lambda: ui.overlay_kind() is None and not ui.finished
                      and ui.asking_ready)
    host_lobby = Condition(lambda: ui.overlay_kind() is None and not ui.finished
                           and ui.kind == "host" and not ui.state.started
                           and any(ui.state.names[1:]))
    freeing = Condition(lambda: bool(host_lobby()) and ui.freeing)
    over = Condition(lambda: ui.overlay_kind() == "over" or
                     (ui.finished and ui.overlay_kind() is None))

    # Anywhere: leave (a dialog asks first; Ctrl-C twice leaves at once).
    @kb.add("c-c")
    def _(e: KeyPressEvent) -> None:
        ui.request_leave(interrupt=True)

    @kb.add("q", filter=~leave & ~away & ~helping & ~resigning)
    def _(e: KeyPressEvent) -> None:
        ui.request_leave()

    # At a table with people: step away (s; Ctrl-C again) or resign (x, then y: asked
    # again, and no key of the end screen's: r there is the rematch).
    @kb.add("s", filter=away)
    def _(e: KeyPressEvent) -> None:
        ui.leave_now()

    @kb.add("x", filter=away)
    def _(e: KeyPressEvent) -> None:
        ui.confirm_resign = True

    @kb.add("y", filter=resigning)
    @kb.add("o", filter=resigning)
    def _(e: KeyPressEvent) -> None:
        ui.resign_now()

    @kb.add("n", filter=resigning)
    @kb.add("escape", filter=resigning)
    def _(e: KeyPressEvent) -> None:
        ui.confirm_resign = False
        ui.confirm_leave = False

    @kb.add("n", filter=away)
    @kb.add("escape", filter=away)
    def _(e: KeyPressEvent) -> None:
        ui.confirm_leave = False

    # The match is over: r plays again at the same table.
    @kb.add("r", filter=over & Condition(lambda: ui.can_rematch))
    def _(e: KeyPressEvent) -> None:
        ui.ask_rematch()

    # The match is over: l asks "is it rigged?" (luck against play), l or Esc goes back.
    @kb.add("l", filter=over)
    def _(e: KeyPressEvent) -> None:
        ui.toggle_luck()

    @kb.add("escape", filter=over & Condition(lambda: ui.luck_shown))
    def _(e: KeyPressEvent) -> None:
        ui.luck_shown = False

    # Help: ? or F1 opens it, any key closes it; a key no screen expects gets a hint.
    @kb.add("?", filter=~leave & ~away & ~helping & ~resigning)
    @kb.add("f1", filter=~leave & ~away & ~helping & ~resigning)
    def _(e: KeyPressEvent) -> None:
        ui.help, ui.help_page = True, 0

    # Esc is named: alone it is not "<any>" key but the start of a sequence, so without
    # its own binding it waited for a next key, which it then swallowed (Esc k = Meta-k).
    # The keys prompt_toolkit's own bindings take for nothing (Enter, arrows, Tab, ...)
    # are named too: "<any>" loses to them, and the help stayed up on Enter, ↑ and ↓.
    paged = helping & Condition(lambda: ui.help_paged)

    @kb.add("escape", filter=helping)
    @kb.add("<any>", filter=helping)
    @kb.add("enter", filter=helping)
    @kb.add("up", filter=helping)
    @kb.add("down", filter=helping)
    @kb.add("tab", filter=helping)
    @kb.add("s-tab", filter=helping)
    @kb.add("home", filter=helping)
    @kb.add("end", filter=helping)
    @kb.add("delete", filter=helping)
    @kb.add("backspace", filter=helping)
    @kb.add("insert", filter=helping)
    @kb.add("left", filter=helping & ~paged)
    @kb.add("right", filter=helping & ~paged)
    @kb.add("pageup", filter=helping & ~paged)
    @kb.add("pagedown", filter=helping & ~paged)
    def _(e: KeyPressEvent) -> None:
        ui.help = False

    # A help of two pages (80x24): ←→ turn them (any other key still closes it).

    @kb.add("right", filter=paged)
    @kb.add("pagedown", filter=paged)
    def _(e: KeyPressEvent) -> None:
        ui.turn_help_page(1)

    @kb.add("left", filter=paged)
    @kb.add("pageup", filter=paged)
    def _(e: KeyPressEvent) -> None:
        ui.turn_help_page(-1)

    @kb.add("<any>", filter=~helping)
    def _(e: KeyPressEvent) -> None:
        ui.hint = ui.t("hint_key")

    # A digit during the game with no card asked for: why (after "<any>": the last
    # binding added wins).
    unasked = Condition(lambda: _unasked(ui))
    for d in range(1, 10):
        @kb.add(str(d), filter=unasked)
        def _(e: KeyPressEvent) -> None:
            ui.digit_unasked()

    # The lobby: Enter once the fingerprints are checked (the ready check).
    @kb.add("enter", filter=lobby & ~freeing)
    def _(e: KeyPressEvent) -> None:
        ui.confirm_ready()

    # The host's lobby: f, then a seat's number, frees a seat a stranger took (its key
    # is refused at this table); Esc or another key asks nothing.
    @kb.add("f", filter=host_lobby & ~freeing)
    def _(e: KeyPressEvent) -> None:
        ui.freeing = True

    for d in range(2, 5):  # the lobby numbers the seats from 1, the host's first
        @kb.add(str(d), filter=freeing)
        def _(e: KeyPressEvent) -> None:
            ui.free_seat(int(e.data) - 1)

    @kb.add("escape", filter=freeing)
    @kb.add("<any>", filter=freeing)
    def _(e: KeyPressEvent) -> None:
        ui.freeing = False

    # The dialogs.
    @kb.add("y", filter=leave)
    @kb.add("o", filter=leave)
    def _(e: KeyPressEvent) -> None:
        ui.leave_now()

    @kb.add("n", filter=leave)
    @kb.add("escape", filter=leave)
    def _(e: KeyPressEvent) -> None:
        ui.confirm_leave = False

    @kb.add("enter", filter=score)
    @kb.add(" ", filter=score)
    @kb.add("escape", filter=score)
    def _(e: KeyPressEvent) -> None:
        ui.dismiss_score()

    @kb.add("enter", filter=over)
    def _(e: KeyPressEvent) -> None:
        ui.request_leave()  # as q: a rematch question still open is answered no first

    # The score sheet (s, again or Esc: the table), as a spectator's and the replay's.
    sheeting = ~leave & ~away & ~helping & ~resigning & ~score & ~over
    @kb.add("s", filter=sheeting)
    def _(e: KeyPressEvent) -> None:
        ui.toggle_sheet()

    @kb.add("escape", filter=sheeting & Condition(lambda: ui.sheet))
    def _(e: KeyPressEvent) -> None:
        ui.sheet = False

    # Hints (not while asking to leave), and redraw.
    @kb.add("h", filter=~leave & ~away & ~helping & ~resigning)
    def _(e: KeyPressEvent) -> None:
        ui.toggle_hints()

    @kb.add("c-l")
    def _(e: KeyPressEvent) -> None:
        e.app.renderer.clear()

    # A card to play: digits or arrows and Enter; then, if it captures several ways,
    # which capture.
    for d in range(1, 10):
        @kb.add(str(d), filter=playing & ~picking)
        def _(e: KeyPressEvent, d: int = d) -> None:
            ui.choose_card(d - 1)

        @kb.add(str(d), filter=picking)
        def _(e: KeyPressEvent, d: int = d) -> None:
            ui.choose_option(d - 1)

    @kb.add("left", filter=playing & ~picking)
    def _(e: KeyPressEvent) -> None:
        ui.sel = max(0, ui.sel - 1)

    @kb.add("right", filter=playing & ~picking)
    def _(e: KeyPressEvent) -> None:
        ui.sel = min(max(0, len(ui.state.hand) - 1), ui.sel + 1)

    @kb.add("enter", filter=playing & ~picking)
    def _(e: KeyPressEvent) -> None:
        ui.choose_card(ui.sel)

    @kb.add("up", filter=picking)
    def _(e: KeyPressEvent) -> None:
        ui.opt_sel = max(0, ui.opt_sel - 1)

    @kb.add("down", filter=picking)
    def _(e: KeyPressEvent) -> None:
        assert ui.options is not None
        ui.opt_sel = min(len(ui.options) - 1, ui.opt_sel + 1)

    @kb.add("enter", filter=picking)
    def _(e: KeyPressEvent) -> None:
        ui.choose_option(ui.opt_sel)

    @kb.add("escape", filter=picking)
    def _(e: KeyPressEvent) -> None:
        ui.options = None

    # The cut card: keep or place.
    @kb.add("k", filter=cutting)
    @kb.add("g", filter=cutting)
    def _(e: KeyPressEvent) -> None:
        ui.choose_cut(True)

    @kb.add("p", filter=cutting)
    def _(e: KeyPressEvent) -> None:
        ui.choose_cut(False)

    @kb.add("left", filter=cutting)
    @kb.add("right", filter=cutting)
    def _(e: KeyPressEvent) -> None:
        ui.cut_sel = 1 - ui.cut_sel

    @kb.add("enter", filter=cutting)
    def _(e: KeyPressEvent) -> None:
        ui.choose_cut(ui.cut_sel == 0)

    # Chat: t opens the line; a quick chat key sends its phrase (.quickchat).
    can_chat = Condition(lambda: ui.overlay_kind() is None and not ui.finished
                         and ui.controller is not None)

    @kb.add("t", filter=can_chat)
    def _(e: KeyPressEvent) -> None:
        ui.open_chat()

    for key in QUICK_CHAT:
        @kb.add(key, filter=can_chat)
        def _(e: KeyPressEvent, key: str = key) -> None:
            ui.quick_chat(key)

    # While the chat input is open, keys type text: only these act.
    chatting = Condition(lambda: ui.chat.is_open)
    chat = KeyBindings()

    @chat.add("enter", filter=chatting)
    def _(e: KeyPressEvent) -> None:
        text = ui.chat.buffer.text
        ui.chat.close()
        ui.send_chat(text)

    @chat.add("escape", filter=chatting)
    def _(e: KeyPressEvent) -> None:
        ui.chat.close()

    @chat.add("c-c", filter=chatting)
    def _(e: KeyPressEvent) -> None:
        ui.chat.close()
        ui.request_leave(interrupt=True)

    return merge_key_bindings([ConditionalKeyBindings(kb, ~chatting), chat])
