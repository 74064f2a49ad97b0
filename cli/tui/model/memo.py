"""What the screen keeps of a game across a resume, beside the saved game: the chat
lines shown in the events panel and whether the hints were on.

Chat is not in the signed log (it is the link's, unsigned), so a resumed game rebuilds
its table from the log but its chat from here.  The memo is a small JSON file next to
the saved game (``<saved game>.memo.json``): written as lines come, read back when the
saved game is resumed, removed when the match ends or a new game starts there.  The
file is ours, but it is read as untrusted text all the same (bounded, made safe to show).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from chkobba_p2p.text import safe_text

from ..parts.render import Line

__all__ = ["Memo", "KEPT_CHAT"]

#: Chat lines kept (the newest).
KEPT_CHAT = 50
MAX_FILE = 1 << 16
#: The only styles a memo line may carry back to the screen.
_STYLES = frozenset({"class:chat", "class:warn", ""})


class Memo:
    """The memo of one saved game: :meth:`beside` it, :meth:`load` on a resume."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.chat: list[Line] = []
        self.hints = False

    @classmethod
    def beside(cls, saved_game: Path) -> Memo:
        return cls(saved_game.with_name(saved_game.name + ".memo.json"))

    def load(self) -> Memo:
        """Read the file (nothing when it is missing, unreadable or not a memo)."""
        try:
            with open(self.path, "rb") as f:
                data = json.loads(f.read(MAX_FILE))
        except (OSError, ValueError):
            return self
        if not isinstance(data, dict):
            return self
        self.hints = data.get("hints") is True
        chat = data.get("chat")
        for line in chat[-KEPT_CHAT:] if isinstance(chat, list) else []:
            if isinstance(line, list) and all(
                    isinstance(f, list) and len(f) == 2 and f[0] in _STYLES
                    and isinstance(f[1], str) for f in line):
                self.chat.append([(style, safe_text(text, 400)) for style, text in line])
        return self

    def add_chat(self, line: Line) -> None:
        self.chat = (self.chat + [list(line)])[-KEPT_CHAT:]
        self._save()

    def set_hints(self, on: bool) -> None:
        if on != self.hints:
            self.hints = on
            self._save()

    def clear(self) -> None:
        """The match is over (or a new one starts): nothing to bring back."""
        self.chat, self.hints = [], False
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _save(self) -> None:
        """Replace the file whole; a memo not written is chat not brought back, no
        more (errors are ignored)."""
        data = {"hints": self.hints, "chat": [[list(f) for f in line] for line in self.chat]}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".memo.", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, ensure_ascii=False)
                os.replace(tmp, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
