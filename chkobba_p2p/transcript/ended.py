"""Matches a host ended, kept to tell a seat that comes back after the end (PROTOCOL.md 13.1).

A seat that was away when its match ended (flagged on time, or any other signed end)
comes back with a resume hello for a game the host no longer runs.  Rather than the bare
``unknown_game`` that leaves the seat trying again and then signing an ending of its own,
the host answers with its welcome and the entries the seat lacks, the signed end among
them: the seat checks them as any other and reaches the same end (one match, one signed
ending).  The host finds those transcripts here: :class:`EndedMatch` (pure: which seat a
key held, where the end begins), the matches this process ended (kept in memory for its
life, :func:`keep`), and the host's own logs in its log directory (:class:`EndedLogs`,
looked up by game id; each log's header is read once).
"""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..wire import codec as wire
from ..wire.logfile import LogUnreadable, read_header, read_log

__all__ = ["EndedMatch", "EndedLogs", "ended_match", "keep", "kept"]

#: Matches kept in memory per process (the newest; older ones are found in the logs).
KEPT = 64
#: Log files of a directory whose header is looked at, the newest first.
NEWEST_LOGS = 512
#: Seconds between two looks at the log directory for a game not found there.
RESCAN = 5.0


@dataclass(frozen=True, slots=True)
class EndedMatch:
    """A transcript that ends (a signed abort, or every seat's ``done``): ``keys`` are the
    genesis's seat keys, by seat; ``bodies`` every entry, the genesis first."""

    game: bytes
    keys: tuple[bytes, ...]
    bodies: tuple[bytes, ...]

    def seat_of(self, key: bytes) -> int | None:
        """The seat ``key`` held (None: none; seat 0 is the host and never resumes)."""
        for seat, k in enumerate(self.keys):
            if k == key and seat > 0:
                return seat
        return None

    def start_for(self, have: int) -> int:
        """Where the entries a seat that holds ``have`` of them lacks begin: from ``have``,
        or from the signed abort that ends the match if the seat's copy holds more (an
        entry of its own that never reached the host, before the host's abort): an abort
        stands wherever it comes, and the seat must get it."""
        start = min(max(0, have), len(self.bodies))
        tail = len(self.bodies)
        while tail > 1 and _kind(self.bodies[tail - 1]) == "abort":
            tail -= 1
        return min(start, tail) if tail < len(self.bodies) else start


def _kind(body: bytes) -> str | None:
    try:
        return wire.open_entry(body).kind
    except Exception:  # noqa: BLE001 - not an entry: no kind
        return None


def ended_match(bodies: Sequence[bytes]) -> EndedMatch | None:
    """The :class:`EndedMatch` of a transcript (its genesis first), or None when it does
    not end (a game still running, cut by a crash) or is no transcript."""
    from .table import TableInfo  # the genesis's own parser

    if not bodies:
        return None
    try:
        genesis = wire.open_entry(bodies[0])
        table = TableInfo.from_entry(genesis)
    except Exception:  # noqa: BLE001 - not a transcript of ours: nothing to tell
        return None
    last = _kind(bodies[-1])
    players = table.players
    ended = last == "abort" or (len(bodies) > players and all(
        _kind(b) == "done" for b in bodies[-players:]))
    if not ended:
        return None
    return EndedMatch(table.game, tuple(s.key for s in table.seats), tuple(bodies))


#: The matches this process ended, by (host key, game): the newest :data:`KEPT`.
_kept: OrderedDict[tuple[bytes, bytes], EndedMatch] = OrderedDict()


def keep(host_key: bytes, bodies: Sequence[bytes]) -> None:
    """Keep a match this process hosted and ended (a later table of the same host, in
    this process, answers a seat that comes back to it)."""
    match = ended_match(bodies)
    if match is not None:
        _remember(host_key, match)


def _remember(host_key: bytes, match: EndedMatch) -> None:
    _kept[(host_key, match.game)] = match
    _kept.move_to_end((host_key, match.game))
    while len(_kept) > KEPT:
        _kept.popitem(last=False)


def kept(host_key: bytes, game: bytes) -> EndedMatch | None:
    return _kept.get((host_key, game))


class EndedLogs:
    """The matches a host ended, found in its log directory by game id: logs whose
    header names seat 0 and this host's ``key``, and whose transcript ends.  Each file's
    header is read once (then remembered with its size and time); only the newest
    :data:`NEWEST_LOGS` files are looked at."""

    def __init__(self, key: bytes, directory: Path | None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.key = key
        self.directory = directory
        self._clock = clock
        self._headers: dict[Path, tuple[tuple[int, int], bytes | None]] = {}
        #: Our logs by game, as of the last look at the directory (at most once every
        #: RESCAN seconds: a stranger's resume hellos for made-up games cost no more).
        self._index: dict[bytes, list[Path]] = {}
        self._looked = -math.inf

    def find(self, game: bytes) -> EndedMatch | None:
        match = kept(self.key, game)
        if match is not None or self.directory is None:
            return match
        for _ in range(2):  # what the last look found; else one more look, if due
            for path in self._index.get(game, ()):
                try:
                    log = read_log(path)
                except LogUnreadable:
                    continue
                if log.tail is not None and not log.truncated:
                    continue  # a frame that cannot be one: not a log to answer from
                match = ended_match(log.bodies)
                if match is not None and match.game == game:
                    _remember(self.key, match)  # found once, kept for the next look
                    return match
            now = self._clock()
            if now - self._looked < RESCAN:
                break
            self._looked = now
            self._index = self._scan(self.directory)
        return None

    def _scan(self, directory: Path) -> dict[bytes, list[Path]]:
        """The newest :data:`NEWEST_LOGS` logs of ours in ``directory``, by game."""
        try:
            entries = [(e.stat().st_mtime_ns, Path(e.path)) for e in os.scandir(directory)
                       if e.name.endswith(".chklog") and e.is_file()]
        except OSError:
            return {}
        entries.sort(reverse=True)
        index: dict[bytes, list[Path]] = {}
        for _, path in entries[:NEWEST_LOGS]:
            game = self._game_of(path)
            if game is not None:
                index.setdefault(game, []).append(path)  # the newest first
        return index

    def _game_of(self, path: Path) -> bytes | None:
        """The game of a log of ours (seat 0, our key), else None; remembered."""
        try:
            st = path.stat()
        except OSError:
            return None
        stamp = (st.st_size, st.st_mtime_ns)
        known = self._headers.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        header = read_header(path)
        game: bytes | None = None
        if header is not None and header.get("seat") == 0 and header.get("key") == self.key \
                and isinstance(header.get("game"), bytes):
            game = header["game"]
        self._headers[path] = (stamp, game)
        return game
