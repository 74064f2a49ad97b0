"""The events panel: what happened, one line per event (the draw for the first dealer,
the deal, the cut, every play and capture, the scoring, a peer waiting or back, chat,
the library's notices), worded from the local seat's point of view.  The words are
:mod:`cli.event_words`' (the panel is one of its viewpoints); this is the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from chkobba_p2p import Aborted, PortMapped, PortMapUnavailable, Waiting
from chkobba_p2p.game.cards import Card

from ...words.event_words import BotsStarting, PanelVoice, narrate
from ..model.presence import clock_text, gone_key
from ..model.view import TableView
from ..screens.lobby import reach_text
from .render import Line, by_value, wrap_line
from .stopped import stop_sentences

__all__ = ["BotsStarting", "EventLog"]

KEPT = 300  # lines kept in the panel


class EventLog(PanelVoice):
    """The panel's lines, newest last; ``on_change`` is called after each new line (the
    app redraws)."""

    def __init__(self, on_change: Callable[[], None] = lambda: None, *,
                 empty_table: bool = False) -> None:
        self.lines: list[Line] = []
        self.on_change = on_change
        #: Seats known to be gone, with the wording of their absence, to note each once.
        self._gone: dict[int, str] = {}
        #: We were told we are back at the table, and have not lost it since.
        self._back = False
        #: The names in the lobby's seats as last seen (None: no lobby yet), so that a
        #: player who sits down is news ("amel takes a seat"), once.  A host opened its
        #: table empty (``empty_table``): everyone in its first lobby sat down since.
        self._seated: dict[int, str] | None = {} if empty_table else None
        #: Our own bots said as they start ("a bot takes its seat"): not again by name.
        self._bots_said = 0
        #: Who was watching at the last news, so that one who leaves is said by name.
        self._watchers: tuple[str, ...] = ()

    def add(self, *fragments: tuple[str, str]) -> None:
        self.lines.append(list(fragments))
        del self.lines[:-KEPT]
        self.on_change()

    def panel(self, title: str, width: int, height: int) -> list[tuple[str, str]]:
        """The panel as formatted text: its title, then the newest lines that fit."""
        lines: list[Line] = []
        for ev in self.lines:
            lines.extend(wrap_line(ev, width - 1, indent="  ", elide_addresses=True))
        lines = lines[-max(1, height - 1):]
        out: list[tuple[str, str]] = [("class:panel.title", f" {title}"), ("", "\n")]
        for line in lines:
            out += [("", " ")] + line + [("", "\n")]
        return out

    def narrate(self, ev: object, view: TableView, *, own_chat: bool = False) -> None:
        """The line(s) for ``ev`` (:func:`cli.event_words.narrate`); ``view`` is the table
        after it.  ``own_chat``: a chat line now is the local seat's."""
        self.view, self.own_chat = view, own_chat
        narrate(ev, self)

    # The screen's helpers, which the words ask the panel for.
    def reach_text(self, ev: PortMapped | PortMapUnavailable) -> str:
        return reach_text(self.view.t, ev, self.view.state.my_fingerprint)

    def stop_lines(self, ev: Aborted) -> Iterable[Sequence[tuple[str, str]]]:
        return [[line] for line in stop_sentences(self.view, ev)]

    def gone_key(self, ev: Waiting) -> str:
        return gone_key(ev)

    def clock_text(self, seconds: float) -> str:
        return clock_text(seconds)

    def card_style(self, card: Card) -> str:
        return self.view.cs.style(card)

    def by_value(self, cards: Iterable[Card]) -> list[Card]:
        return list(by_value(cards))
