""""Is it rigged?" on the end screen (``l``): the account of luck against play
(:mod:`...words.luck`) of the match that just ended, computed when asked.

Auditing the log and asking the coach take seconds (about 5 on a long match, more with
shuffle proofs to check again), so it never runs on the screen's thread: as the records
of :mod:`.past` are read, a thread runs ``chkobba replay LOG --luck --quiet`` in a process
of its own at a low priority (the game in this process never shares its interpreter with
an audit), and the box says it is working until the account is in.  Asked only with
``l``: a player who does not ask pays nothing for it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p.observe.review import DEFAULT_SAMPLES

from ...words.i18n import Translator
from ...words.luck import account
from .past import LOWLY

__all__ = ["LuckAccount"]


class LuckAccount:
    """The account of one log, read in a thread once :meth:`start` is called;
    ``on_change()`` (thread-safe: the application's ``invalidate``) once it is in.
    ``in_process``: compute it in this process (tests), not in a process of its own,
    with ``samples`` sampled worlds per decision (default: the coach's)."""

    def __init__(self, lang: str, on_change: Callable[[], None] | None = None,
                 in_process: bool = False, samples: int | None = None) -> None:
        self.lang = lang
        self.samples = samples
        self.on_change = on_change
        self.in_process = in_process
        #: The account's sentences, once computed; ``failed`` if it could not be.
        self.lines: list[str] | None = None
        self.failed = False
        self.thread: threading.Thread | None = None

    def start(self, log: Path) -> threading.Thread | None:
        """Compute the account of ``log`` in a thread (once: the log of a finished match
        does not change).  Returns the thread started, if any."""
        if self.thread is not None:
            return None
        self.thread = threading.Thread(target=self._work, args=(log,), name="luck-account",
                                       daemon=True)
        self.thread.start()
        return self.thread

    @property
    def reading(self) -> bool:
        return self.thread is not None and self.lines is None and not self.failed

    def _work(self, log: Path) -> None:
        try:
            if self.in_process:
                self.lines = account(log, Translator(self.lang), workers=0,
                                     samples=self.samples or DEFAULT_SAMPLES)
            else:
                self.lines = self._elsewhere(log)
        except Exception:  # an unreadable log, a crash elsewhere: said, never a crash here
            self.failed = True
        if self.on_change is not None:
            self.on_change()

    def _elsewhere(self, log: Path) -> list[str]:
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        proc = subprocess.run(
            [sys.executable, "-c", LOWLY, "replay", str(log), "--luck", "--quiet",
             "--lang", self.lang],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, check=False)
        # The verdict's line first (the exit status is the verdict's), then the account.
        lines = proc.stdout.decode("utf-8", "replace").splitlines()[1:]
        if proc.returncode not in (0, 1, 3, 4) or not lines:
            raise RuntimeError(f"chkobba replay --luck exited {proc.returncode}")
        return lines
