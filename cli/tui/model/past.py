"""The matches already played, for the lobby and the end screen: the record against a
known player ("amel: 5 games, 3–2"), counted on both screens as ``chkobba history``
counts the matches (every counted match where the two sat on opposite sides).

All of it comes from the logs in the data directory (:mod:`chkobba_p2p.observe.history`: each
audited, the audit cached by the log's hash); nothing new is stored.  The logs are read
in a thread, so that the screen never waits for an audit: until they are read, nothing
is shown, and :meth:`PastGames.refresh` reads them again once a match has ended.  The
reading itself (auditing the logs not cached yet: seconds each with shuffle proofs) runs
as ``chkobba history --json`` in a process of its own at a low priority, so that the
game in this process never shares its interpreter with an audit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from chkobba_p2p.observe.history import (
    AuditCache,
    Game,
    Log,
    Record,
    games,
    index_logs,
    with_aliases,
)
from chkobba_p2p.observe.history import record_against as _record_against
from chkobba_p2p.text import safe_text

from ...support.identity import own_aliases

__all__ = ["PastGames", "record_text", "records_lines", "LOWLY"]

#: ``chkobba`` at a low priority (a process lowers its own: no ``preexec_fn`` in a
#: program with threads).
LOWLY = ("import contextlib, os, sys\n"
          "with contextlib.suppress(AttributeError, OSError):\n"
          "    os.nice(10)\n"
          "from chkobba_cli.main import main\n"
          "sys.exit(main(sys.argv[1:]))\n")


class PastGames:
    """The games of the logs in ``folder``, read in a thread by :meth:`refresh`;
    ``on_change()`` (thread-safe: the application's ``invalidate``) once they are.
    With a ``cache``, the logs are read in this process (tests); without, by a
    ``chkobba history --json`` process using the user's cache."""

    def __init__(self, folder: Path, on_change: Callable[[], None] | None = None,
                 cache: AuditCache | None = None) -> None:
        self.folder = folder
        self.on_change = on_change
        self.cache = cache
        self.games: list[Game] | None = None
        self._lock = threading.Lock()
        self._running = False
        self._again = False

    def refresh(self) -> threading.Thread | None:
        """Read the logs again in a thread (once more after the current reading, if one
        is under way).  Returns the thread started, if any."""
        with self._lock:
            if self._running:
                self._again = True
                return None
            self._running = True
        thread = threading.Thread(target=self._work, name="past-games", daemon=True)
        thread.start()
        return thread

    def load(self) -> None:
        """Read the logs now (in this thread)."""
        try:
            if self.cache is not None:
                # The keys this person replaced count as the person (as in history,
                # whose --json output below has them merged already).
                found = with_aliases(games(index_logs(self.folder, cache=self.cache)),
                                     own_aliases())
            else:
                found = self._read_elsewhere()
        except Exception:  # no folder yet, unreadable: nothing to show, never a crash
            found = []
        self.games = found
        if self.on_change is not None:
            self.on_change()

    def _read_elsewhere(self) -> list[Game]:
        if not self.folder.is_dir():
            return []

        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        proc = subprocess.run(
            [sys.executable, "-c", LOWLY, "history", str(self.folder), "--json"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, check=True)
        rows = json.loads(proc.stdout)
        return [Game(Log.from_json(d), tuple(str(p) for p in d["copies"]),
                     d.get("disputed") is True) for d in rows]

    @property
    def reading(self) -> bool:
        """The logs are being read (again): a count shown now could miss the match that
        just ended."""
        with self._lock:
            return self._running

    def _work(self) -> None:
        while True:
            self.load()
            with self._lock:
                if not self._again:
                    self._running = False
                    return
                self._again = False

    def record_against(self, me: bytes | None, other: bytes) -> Record | None:
        """Our counted matches against ``other``; None while the logs are read (again:
        the count could miss the match that just ended) or when there is none."""
        if self.games is None or me is None or self.reading:
            return None
        r = _record_against(self.games, me, other)
        return r if r.games else None



def record_text(t: Callable[..., str], name: str, r: Record) -> str:
    """``amel: 5 games, 3–2`` (our wins first)."""
    return t("record_vs_1" if r.games == 1 else "record_vs", name=safe_text(name, 40),
             n=r.games, wins=r.wins, losses=r.losses)


def records_lines(t: Callable[..., str], past: PastGames | None,
                  keys: Sequence[bytes | None], names: Sequence[str | None], seat: int | None,
                  sides: Sequence[Sequence[int]]) -> list[str]:
    """The end screen's account of the matches played against each player on another
    side, worded as the lobby's record ("sami: 4 games, 3–1") and counted as ``chkobba
    history`` counts them: every counted match in the logs where the two sat on opposite
    sides, at 2, 3 and 4 players (at 3 players a match that a third won settles nothing
    between two).  Its first line says so; while the logs are read again after the match
    (which the count must include), that line says so instead and no number shows."""
    if past is None or seat is None or not 0 <= seat < len(keys) or keys[seat] is None:
        return []
    if past.reading or past.games is None:
        return [t("over_records_reading")]
    me = keys[seat]
    assert me is not None
    mine = next((ss for ss in sides if seat in ss), ())
    out = []
    for s, (key, name) in enumerate(zip(keys, names, strict=False)):
        if s in mine or key is None or key == me:
            continue
        r = past.record_against(me, key)
        if r is not None:
            out.append("  " + record_text(t, name or "?", r))
        else:
            # Said rather than left out: after a 3-player match won by the third, a
            # newcomer looked for the other loser's line and found none.
            out.append("  " + t("record_none_3" if len(sides) == 3 else "record_none",
                                name=safe_text(name or "?", 40)))
    return [t("over_records"), *out] if out else []
