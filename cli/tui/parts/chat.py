"""The one-line chat input: ``t`` opens it, Enter sends the line to the table, Esc
closes it.  A line goes out through the seat controller (``SeatController.send_chat``,
in trio: handed over through the trio token); the peer reports it back at once as a
``Chat`` event, which the events panel words as our own."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    FormattedTextControl,
    VSplit,
    Window,
)

from chkobba_p2p import SeatController, clean_chat

from ...words.i18n import Translator

__all__ = ["ChatInput"]


class ChatInput:
    """The input line, and sending what is typed in it."""

    def __init__(self, t: Translator, log: Callable[..., None],
                 invalidate: Callable[[], None]) -> None:
        self.t = t
        self._log = log
        self._invalidate = invalidate
        self.is_open = False
        self.buffer = Buffer(multiline=False)
        self.window = Window(BufferControl(self.buffer), height=1)
        self.own_line = False  # a Chat event now is our own line

    def container(self) -> ConditionalContainer:
        """The prompt and the input, shown while open."""
        prompt = Window(FormattedTextControl(
            lambda: [("class:title", f" {self.t('chat_prompt')} ")]), dont_extend_width=True)
        return ConditionalContainer(VSplit([prompt, self.window]),
                                    filter=Condition(lambda: self.is_open))

    def open(self, app: Application) -> None:
        self.is_open = True
        self.buffer.reset()
        with contextlib.suppress(Exception):
            app.layout.focus(self.window)
        self._invalidate()

    def close(self) -> None:
        self.is_open = False
        self.buffer.reset()
        self._invalidate()

    def send(self, text: str, controller: SeatController | None,
             token: trio.lowlevel.TrioToken | None) -> None:
        """Send a chat line through the peer (from asyncio: handed over to trio)."""
        if clean_chat(text) is None:
            if text.strip():
                self._log(("class:warn", self.t("chat_refused")))
            return
        if controller is None or token is None:
            return

        def deliver() -> None:  # in trio: the peer reports our own line at once
            self.own_line = True
            try:
                sent = controller.send_chat(text)
            finally:
                self.own_line = False
            if not sent:
                self._log(("class:warn", self.t("chat_refused")))

        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(deliver)
