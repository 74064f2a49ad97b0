"""Every match in a folder of signed logs: history, records, series and ratings.

Nothing here is remembered by the game: all of it is derived from the logs the peers
already write (``<data dir>/logs``), each audited by the real audit
(:func:`chkobba_p2p.observe.audit.audit_log`).  A log's audit is cached by the SHA-256 of its
bytes (:class:`AuditCache`), so a second look at the same folder audits nothing again.

:func:`summarize` turns an :class:`~chkobba_p2p.observe.audit.AuditReport` into a :class:`Log`
(pure); :func:`index_logs` reads a folder; :func:`games` groups the logs of one match
(the host's, each bot's, a friend's copy: the same game id) into one :class:`Game`;
:func:`record_against`, :func:`series` and :func:`ratings` work on those games.

What counts (:attr:`Game.counted`): a match whose log audits **valid** (won on points, by
resignation, or on time: the host's flag on the seat to play), a game that ended
when a seat signed a ``timeout`` against itself (it ran out of its own time: its
signature proves it, a loss on time), and a match whose log the audit finds invalid
because an entry a seat signed breaks a rule (:data:`CONVICTED`: a loss for that seat's
side, whatever the score).  Any other
abort counts for nothing (one seat's word that another was too slow proves nothing), and
so does every log that fails its audit: it is listed, with its reason, and excluded.  A
tampered copy of a match does not erase a valid copy of it: the valid copy counts.

Who vouches for a rating (:func:`standings`, issue 42): valid logs prove that a game was
played as written, not who sat behind a key.  Anyone can mint 30 keys and beat them, or
sit under a bot level's public key and lose.  So a rating is read by a viewer: a key the
viewer met (seated in a log the viewer's own key signed) is somebody; a bot level's key
is the level only at a table the viewer hosted.  A rating more than half of whose matches
were against other keys is unrated, and says how much (and how many of those keys sat at
no table without it).  The numbers themselves are everyone's: the same set of logs gives
the same ratings to anyone, in any order, with any header dates (:mod:`.rating`).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import platformdirs
from cryptography.hazmat.primitives import hashes

from .._version import __version__
from ..errors import errno_name
from ..game.seating import SHAPES, Seating
from ..wire.codec import fingerprint
from ..wire.logfile import LogUnreadable
from .audit import INCOMPLETE, INVALID, VALID, AuditReport, AuditResult, audit_log
from .rating import RatedMatch, Rating, bot_level, compute_ratings
from .verdict import ON_TIME as _ON_TIME_CODE
from .vouch import check_voucher

__all__ = [
    "UNREADABLE",
    "with_aliases",
    "Seat",
    "Log",
    "Game",
    "Record",
    "Series",
    "AuditCache",
    "cache_dir",
    "summarize",
    "index_logs",
    "games",
    "record_against",
    "series",
    "ratings",
    "parse_date",
    "auditor",
    "sides_of",
    "log_paths",
    "rated_matches",
    "names_by_key",
    "against_bots",
    "disputes",
    "CONVICTED",
    "UNMET_SHARE",
    "Standing",
    "met_keys",
    "standings",
]

#: A file in the folder that is not a log at all (its verdict).
UNREADABLE = "unreadable"
#: How a match ended (:attr:`Log.ending`).
POINTS, RESIGNED, ON_TIME, ABORTED, TRUNCATED, UNFINISHED, TAMPERED = (
    "points", "resigned", "on_time", "aborted", "truncated", "unfinished", "invalid")
#: A seat left the match while it was played (a loss for its side); the match was
#: decided when the log stopped (the result stands); a flag the flagged seat disputed
#: with its own clock (counted for nobody, PROTOCOL.md 12.6).
LEFT, DECIDED, DISPUTED = "left", "decided", "disputed"
#: A log whose audit convicts a seat (an entry it signed breaks a rule) while the match
#: was played: invalid, and a loss for that seat's side (a cheat loses the match, it
#: does not void it, PROTOCOL.md 12.7).  :data:`TAMPERED` is what convicts nobody: a
#: damaged or forged file.
CONVICTED = "convicted"

APP = "chkobba-p2p"
#: The cache's format; a cache of another format, or written by another audit (another
#: version of this package's code: :func:`auditor`), is ignored (and rewritten).  Format
#: 2 keeps each audit's result as data (:class:`~chkobba_p2p.observe.audit.AuditResult`),
#: where format 1 kept an English sentence: a cache of format 1 is rebuilt from the logs.
CACHE_FORMAT = 3
#: At most this many logs are remembered (the least recently seen go first).
MAX_CACHE_ENTRIES = 20_000
#: A cache file larger than this is not ours: ignored.
MAX_CACHE_BYTES = 64 << 20
#: Two matches of one series are at most this far apart (seconds).
SERIES_GAP = 6 * 3600


@cache
def auditor() -> str:
    """This package's version and the SHA-256 of its source files: a verdict cached by
    another code of the audit is never reused."""
    h = hashes.Hash(hashes.SHA256())  # cryptography's, not hashlib's (issue 44)
    h.update(__version__.encode())
    root = Path(__file__).resolve().parent
    for p in sorted(root.rglob("*.py")):
        with contextlib.suppress(OSError):
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.finalize().hex()


def cache_dir() -> Path:
    """The user's cache directory for this program (``CHKOBBA_CACHE_DIR`` overrides it)."""
    override = os.environ.get("CHKOBBA_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP))


@dataclass(frozen=True)
class Seat:
    """A seat of a logged match: its name (the genesis's, unchecked text) and key."""

    name: str
    key: bytes
    #: The bot level the table's host vouched for this seat in this log (a voucher in
    #: the header that verifies under the genesis's seat 0 key, PROTOCOL.md 5.6); None:
    #: no voucher (a person, or a bot under a well-known key).
    vouched: str | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def bot(self) -> str | None:
        """The bot level of this seat: the host's voucher's, else the level whose
        well-known key it has (None: a person).  Either way its games are rated apart
        from those between people; only a vouched one is an anchor (:attr:`anchor`)."""
        return self.vouched if self.vouched is not None else bot_level(self.key)

    @property
    def anchor(self) -> str | None:
        """The level whose fixed rating this seat plays at in the ratings: only a seat
        its table's host vouched for (anyone can sit under a well-known key: such a
        seat is rated as whoever it was, issue 42)."""
        return self.vouched


def with_aliases(gs: Iterable[Game], aliases: dict[bytes, bytes]) -> list[Game]:
    """The games with each seat's key replaced by the key it is an alias of
    (``aliases``: old key -> the person's key now), so that one person who signed with
    two keys is one player in a history, its records and its ratings.  A match where
    two of those keys sat (the person at both ends of its own table) is left as it was:
    one key on two seats would count it against itself."""
    out = []
    for g in gs:
        keys = [aliases.get(s.key, s.key) for s in g.seats]
        if len(set(keys)) < len(keys) or all(k == s.key for k, s in zip(keys, g.seats)):
            out.append(g)
            continue
        seats = tuple(Seat(s.name, k, s.vouched)
                      for s, k in zip(g.seats, keys, strict=True))
        out.append(replace(g, log=replace(g.log, seats=seats)))
    return out


@dataclass(frozen=True)
class Log:
    """One log file as its audit found it.

    ``verdict``: :data:`~chkobba_p2p.observe.audit.VALID`, ``INVALID``, ``INCOMPLETE`` or
    :data:`UNREADABLE`; ``code`` and ``reason`` the audit's (``reason`` the observer's
    own sentence, or why the file is not a log); ``result`` the audit's result as data
    (:class:`~chkobba_p2p.observe.audit.AuditResult`, None for a file that is not a log),
    which a client words in its reader's language; ``ending`` how the match
    ended (``points``, ``resigned``, ``on_time``, ``left``, ``decided``, ``disputed``,
    ``aborted``, ``truncated``, ``unfinished``, ``convicted``: invalid, and a loss for
    the side of the seat the audit convicts, ``invalid``: tampered, convicting nobody,
    ``unreadable``); ``winner`` the winning side when the
    result counts, else None; ``date`` the log header's creation time (ISO, UTC; the
    header is not signed) or the file's modification time.  ``disputed_by``: for a copy
    stopped by a seat's abort against the host (seat 0: its word that the host went
    silent), that seat; a copy of the same match lost on time by that seat's side then
    counts for nothing (:func:`games`)."""

    path: str
    digest: str
    date: str
    game: str
    players: int
    seats: tuple[Seat, ...]
    verdict: str
    code: str | None
    reason: str
    ending: str
    winner: int | None
    totals: tuple[int, ...]
    hands: int
    disputed_by: int | None = None
    #: The losing side of a match lost by a flag, a resignation, a leave or a conviction
    #: (at 3 players there may be a loser and no winner: the two others were level).
    loser: int | None = None
    #: The seats that signed an entry of this log (the audit's): only those seats'
    #: names in the genesis are their keys' own (:func:`names_by_key`).
    signers: tuple[int, ...] = ()
    #: The audit's result as data (None: the file is not a log).
    result: AuditResult | None = None

    @property
    def counted(self) -> bool:
        return self.winner is not None or self.loser is not None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["seats"] = [{"name": s.name, "key": s.key.hex(), "vouched": s.vouched}
                      for s in self.seats]
        d["totals"] = list(self.totals)
        d["signers"] = list(self.signers)
        d["result"] = self.result.to_json() if self.result is not None else None
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Log:
        seats = tuple(Seat(str(s["name"]), bytes.fromhex(s["key"]),
                           None if s.get("vouched") is None else str(s["vouched"]))
                      for s in d["seats"])
        return cls(str(d["path"]), str(d["digest"]), str(d["date"]), str(d["game"]),
                   int(d["players"]), seats, str(d["verdict"]),
                   None if d["code"] is None else str(d["code"]), str(d["reason"]),
                   str(d["ending"]), None if d["winner"] is None else int(d["winner"]),
                   tuple(int(t) for t in d["totals"]), int(d["hands"]),
                   None if d.get("disputed_by") is None else int(d["disputed_by"]),
                   None if d.get("loser") is None else int(d["loser"]),
                   tuple(int(x) for x in d.get("signers", ())),
                   None if d["result"] is None else AuditResult.from_json(d["result"]))


def sides_of(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: at 4 players seats 0 and 2 against 1 and 3."""
    seating = Seating.of(players)
    return tuple(seating.seats_of(side) for side in range(seating.sides))


@dataclass(frozen=True)
class Game:
    """One match, from every log of it in the folder (grouped by game id).  ``log`` is
    the log that speaks for it (a valid one if there is one); ``copies`` every path."""

    log: Log
    copies: tuple[str, ...] = ()
    #: The match ended in a dispute: a flag the flagged seat disputed with its own clock
    #: (counted for nobody), or a flag whose flagged seat's own copy holds its word
    #: against the signer (the flag counts; the disagreement is shown, :func:`disputes`).
    disputed: bool = False

    @property
    def counted(self) -> bool:
        return self.log.counted

    @property
    def date(self) -> str:
        return self.log.date

    @property
    def players(self) -> int:
        return self.log.players

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.log.seats

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return sides_of(self.log.players)

    def side_of_key(self, key: bytes) -> int | None:
        for side, seats in enumerate(self.sides):
            if any(self.seats[s].key == key for s in seats):
                return side
        return None

    def lineup(self) -> frozenset[frozenset[bytes]]:
        """Who played with whom: the sides as sets of keys."""
        return frozenset(frozenset(self.seats[s].key for s in seats) for seats in self.sides)

    def to_json(self) -> dict[str, Any]:
        d = self.log.to_json()
        d["copies"] = list(self.copies)
        d["counted"] = self.counted
        d["disputed"] = self.disputed
        for s, seat in zip(d["seats"], self.seats, strict=True):
            s["fingerprint"] = seat.fingerprint
            s["bot"] = seat.bot
        return d


# ----------------------------------------------------------------- one log's audit


def vouched_seats(seats: tuple[Seat, ...], bots: object) -> tuple[Seat, ...]:
    """``seats`` with the level each joiner's voucher in a log header's ``bots`` gives
    (PROTOCOL.md 5.6, 14): a voucher counts only where it verifies under seat 0's key,
    the host whose table the log is, for that seat's key (the header is unsigned: the
    voucher's own signature is what counts).  Anything malformed is no voucher."""
    if not isinstance(bots, list):
        return seats
    host = seats[0].key
    levels: dict[bytes, str] = {}
    for b in bots[:len(seats)]:
        if isinstance(b, dict) and isinstance(key := b.get("key"), bytes) \
                and key != host and check_voucher(host, key, b.get("level"), b.get("sig")):
            levels[key] = str(b["level"])
    return tuple(replace(s, vouched=levels.get(s.key)) if i else s
                 for i, s in enumerate(seats))


def _mtime_date(path: str) -> str:
    try:
        t = os.stat(path).st_mtime
    except OSError:
        return ""
    return _dt.datetime.fromtimestamp(t, _dt.UTC).isoformat(timespec="seconds")


def summarize(report: AuditReport, digest: str, date: str = "") -> Log:
    """A log's entry from its audit report (no input or output)."""
    created = report.header.get("created")
    when = parse_date(created) if isinstance(created, str) else None
    if when is not None:
        date = when.astimezone(_dt.UTC).isoformat(timespec="seconds")
    t = report.table
    seats = tuple(Seat(s.name, s.key) for s in t.seats) if t is not None else ()
    if seats:
        seats = vouched_seats(seats, report.header.get("bots"))
    game = t.game.hex() if t is not None else ""
    winner: int | None = None
    loser: int | None = None
    disputed_by: int | None = None
    if report.verdict == VALID:
        ending = {"resigned": RESIGNED, _ON_TIME_CODE: ON_TIME, LEFT: LEFT,
                  DECIDED: DECIDED}.get(report.code or "", POINTS)
        winner, loser = report.winner, report.loser
    elif report.verdict == INVALID and report.loser is not None:
        ending = CONVICTED
        winner, loser = report.winner, report.loser
    elif report.verdict == INVALID:
        ending = TAMPERED
    elif report.code == DISPUTED:
        # The flagged seat disputed the flag with its own clock: one word against the
        # other, counted for nobody, and shown against both keys (disputes).
        ending = DISPUTED
        disputed_by = report.blamed
    elif report.code == "aborted":
        ending = ABORTED
        a = report.aborts[0] if report.aborts else None
        if a is not None and a.blamed == 0 and a.by_seat != 0:
            disputed_by = a.by_seat  # its word that the host went silent
        if a is not None and a.code == "timeout" and a.blamed == a.by_seat \
                and report.standing == "self" and t is not None:
            # The seat signed that it ran out of its own time: a loss on time.
            ending = ON_TIME
            winner = next(i for i, ss in enumerate(sides_of(t.players)) if a.by_seat not in ss)
    elif report.code == "truncated":
        ending = TRUNCATED
    else:
        ending = UNFINISHED
    hands = sum(1 for r in report.records if r.get("type") == "hand")
    return Log(report.path, digest, date, game, t.players if t else 0, seats,
               report.verdict, report.code, report.reason, ending, winner,
               tuple(report.totals), hands, disputed_by, loser, report.signers,
               report.result())


def _unreadable(path: str, digest: str, why: str) -> Log:
    return Log(path, digest, _mtime_date(path), "", 0, (), UNREADABLE, "unreadable", why,
               UNREADABLE, None, (), 0)


# --------------------------------------------------------------------------- cache


def _parses(d: dict[str, Any]) -> bool:
    try:
        Log.from_json({**d, "path": "", "digest": ""})
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


class AuditCache:
    """Logs already audited, by the SHA-256 of their bytes.  :meth:`loads` and
    :meth:`dumps` are pure; :meth:`load` ignores a missing, corrupt, foreign or oversized
    file (starting empty), :meth:`save` writes atomically (a temporary file renamed over
    it) and keeps at most :data:`MAX_CACHE_ENTRIES`, the most recently seen."""

    def __init__(self, path: Path | None = None, limit: int = MAX_CACHE_ENTRIES) -> None:
        self.path = path if path is not None else cache_dir() / "history.json"
        self.limit = limit
        self.entries: dict[str, dict[str, Any]] = {}
        self.changed = False

    def get(self, digest: str, path: str) -> Log | None:
        d = self.entries.get(digest)
        if d is None:
            return None
        try:
            log = Log.from_json({**d, "path": path, "digest": digest})
        except (KeyError, TypeError, ValueError, AttributeError):
            del self.entries[digest]
            return None
        self.entries[digest] = self.entries.pop(digest)  # most recent last
        return log

    def put(self, log: Log) -> None:
        d = log.to_json()
        del d["path"], d["digest"]
        self.entries.pop(log.digest, None)
        self.entries[log.digest] = d
        self.changed = True

    def dumps(self) -> bytes:
        keep = list(self.entries.items())[-self.limit:]
        return json.dumps({"format": CACHE_FORMAT, "audit": auditor(),
                           "logs": dict(keep)}, separators=(",", ":")).encode()

    def loads(self, data: bytes) -> None:
        try:
            doc = json.loads(data)
        except ValueError:
            return
        if not isinstance(doc, dict) or doc.get("format") != CACHE_FORMAT \
                or doc.get("audit") != auditor() or not isinstance(doc.get("logs"), dict):
            return
        self.entries = {k: v for k, v in doc["logs"].items()
                        if isinstance(k, str) and isinstance(v, dict) and _parses(v)}

    def load(self) -> AuditCache:
        try:
            with open(self.path, "rb") as f:
                data = f.read(MAX_CACHE_BYTES + 1)
        except OSError:
            return self
        if len(data) <= MAX_CACHE_BYTES:
            self.loads(data)
        return self

    def save(self) -> None:
        """Write the cache (errors are ignored: a cache is a convenience)."""
        if not self.changed:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".history.", dir=self.path.parent)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(self.dumps())
                os.replace(tmp, self.path)
                self.changed = False
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise


# ----------------------------------------------------------------------- the folder


def log_paths(folder: str | Path) -> list[Path]:
    """Every ``.chklog`` file under ``folder``, sorted.  Raises :class:`LogUnreadable`
    when the folder cannot be read."""
    root = Path(folder)
    if not root.is_dir():
        missing = not root.exists()
        raise LogUnreadable(f"{folder}: {'no such folder' if missing else 'not a folder'}",
                            code="folder_missing" if missing else "not_a_folder",
                            data={"path": str(folder)})
    try:
        return sorted(p for p in root.rglob("*.chklog") if p.is_file())
    except OSError as exc:
        raise LogUnreadable(f"{folder}: {exc.strerror or exc}", code="folder_cannot_read",
                            data={"path": str(folder), "why": str(exc.strerror or exc),
                                  "errno": errno_name(exc)}) from None


def _digest(path: Path) -> str | None:
    h = hashes.Hash(hashes.SHA256())
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.finalize().hex()


def index_logs(folder: str | Path, *, cache: AuditCache | None = None,
               progress: Callable[[int, int], None] | None = None,
               workers: int = 0) -> list[Log]:
    """Every log in ``folder`` (see :func:`log_paths`), audited or taken from ``cache``
    (which is saved when it learned something).  ``progress(done, total)`` is called
    after each log that had to be audited (``total``: those to audit).  ``workers``: as
    for :func:`~chkobba_p2p.observe.audit.audit_log`."""
    paths = log_paths(folder)
    found: list[tuple[Path, str | None, Log | None]] = []
    for p in paths:
        digest = _digest(p)
        cached = cache.get(digest, str(p)) if cache is not None and digest else None
        found.append((p, digest, cached))
    todo = sum(1 for _, d, c in found if c is None)
    done = 0
    memo: dict[str, Log] = {}
    out: list[Log] = []
    for p, digest, log in found:
        if log is None:
            if digest is None:
                log = _unreadable(str(p), "", "the file cannot be read")
            elif digest in memo:
                log = replace(memo[digest], path=str(p))
            else:
                try:
                    log = summarize(audit_log(p, workers=workers), digest, _mtime_date(str(p)))
                except LogUnreadable as exc:
                    # Cached by content: the sentence without this copy's path.
                    why = str(exc).removeprefix(f"{p}: ")
                    log = _unreadable(str(p), digest, why)
                memo[digest] = log
                if cache is not None:
                    cache.put(log)
            done += 1
            if progress is not None:
                progress(done, todo)
        out.append(log)
    if cache is not None:
        cache.save()
    return out


#: Endings that say nothing of why the game stopped.
_SILENT_ENDINGS = ("unfinished", "truncated")


def _stands(log: Log) -> bool:
    """The log is a match of its seats': it passed its audit (valid or incomplete), or
    its audit convicts one of them (:data:`CONVICTED`)."""
    return log.verdict in (VALID, INCOMPLETE) or log.ending == CONVICTED


def games(logs: Iterable[Log]) -> list[Game]:
    """The matches of these logs, newest first: the logs of one game id that passed
    their audit (valid or incomplete) or convict a seat make one game; any other log
    that failed (invalid, unreadable) is a game of its own, listed and never counted."""
    groups: dict[str, list[Log]] = {}
    out: list[Game] = []
    for log in logs:
        if _stands(log) and log.game:
            groups.setdefault(log.game, []).append(log)
        else:
            out.append(Game(log, (log.path,)))
    for copies in groups.values():
        # The one that speaks: a counted result first, then the longest, then a copy
        # that says how the game stopped (a seat's abort: who left) over one that only
        # stops (a bot's copy ends before the leave it never received), then the path.
        # A copy whose flag the flagged seat disputed with its own clock speaks first:
        # one word against the other, the match counts for nobody (PROTOCOL.md 12.6).
        # Then a counted result, the longest, then a copy that says how the game stopped
        # (a seat's abort: who left) over one that only stops (a bot's copy ends before
        # the leave it never received), then the path.  A copy of the flagged seat that
        # stops at the flag's head with its own word against the signer does not void
        # the flag: only a dispute that cites the flag does (it is counted as disputed).
        # A copy that convicts a seat (CONVICTED: its own signature) speaks before any
        # other ending but a complete or decided result (the match as every seat signed
        # it: a copy against it can only be a fork the convicted seat signed, and no
        # seat may turn a result its side shared into a loss after the fact).  So a flag
        # the convicted seat signed in a copy of its own does not clear it.
        complete = any(lg.ending in (POINTS, DECIDED) for lg in copies)
        best = min(copies, key=lambda lg: (lg.ending != DISPUTED, not lg.counted,
                                           lg.ending != CONVICTED or complete,
                                           lg.verdict != VALID, -lg.hands,
                                           lg.ending in _SILENT_ENDINGS, lg.path))
        # A match stopped by a joiner's word against the host (that the host went
        # silent, or was too slow) is one word against the other too: it counts for
        # nobody, and shows against both keys (a seat that escapes its loss this way,
        # claiming while it holds the floor, becomes visible, PROTOCOL.md 12.6).
        contested = best.ending == DISPUTED or (best.ending == ABORTED
                                                and best.disputed_by is not None)
        if best.ending == ON_TIME and best.loser is not None:
            losers = sides_of(best.players)[best.loser]
            contested = any(lg.disputed_by is not None and lg.disputed_by in losers
                            for lg in copies)
        dates = [lg.date for lg in copies if lg.date]
        date = min(dates) if dates else ""
        out.append(Game(replace(best, date=date), tuple(sorted(lg.path for lg in copies)),
                        contested))
    out.sort(key=lambda g: (g.date, g.log.game, g.log.path), reverse=True)
    return out


# ------------------------------------------------------------ records, series, ratings


@dataclass(frozen=True)
class Record:
    """Counted matches against one identity: ``games``, ``wins``, ``losses`` (ours)."""

    games: int = 0
    wins: int = 0
    losses: int = 0


def record_against(all_games: Iterable[Game], me: bytes, other: bytes) -> Record:
    """Our counted matches against ``other`` (on the other side of the table)."""
    g = w = lo = 0
    for game in all_games:
        if not game.counted:
            continue
        mine, theirs = game.side_of_key(me), game.side_of_key(other)
        if mine is None or theirs is None or mine == theirs:
            continue
        win, lose = game.log.winner, game.log.loser
        if win in (mine, theirs):
            beat = win == mine
        elif lose is not None and lose in (mine, theirs):
            beat = theirs == lose  # at 3 players: the one that lost the match is behind
        else:
            # At 3 players a third won (or lost): it settles nothing between the two of
            # us (neither lost to the other).
            continue
        g += 1
        if beat:
            w += 1
        else:
            lo += 1
    return Record(g, w, lo)


@dataclass(frozen=True)
class Series:
    """The matches played in a row by one lineup: ``wins`` by side (in the sides' order
    of the newest game), ``games`` counted."""

    sides: tuple[tuple[Seat, ...], ...]
    wins: tuple[int, ...]
    games: int = 0
    paths: tuple[str, ...] = field(default=())


def _when(date: str) -> float | None:
    d = parse_date(date)
    return d.timestamp() if d is not None else None


def series(all_games: Sequence[Game], keys: Sequence[bytes]) -> Series | None:
    """The current series of the table whose seats have these ``keys`` (in seat order):
    the newest counted matches with that very lineup, back to another lineup's match or
    a gap of more than :data:`SERIES_GAP`.  None when it has no counted match."""
    players = len(keys)
    if players not in SHAPES:
        return None
    sides = sides_of(players)
    lineup = frozenset(frozenset(keys[s] for s in ss) for ss in sides)
    wins = [0] * len(sides)
    count = 0
    paths: list[str] = []
    later: float | None = None
    seats: tuple[tuple[Seat, ...], ...] = ()
    for game in sorted(all_games, key=lambda g: (g.date, g.log.game), reverse=True):
        if not _stands(game.log):
            continue  # a tampered or unreadable log is no match of anybody's
        if game.players != players or game.lineup() != lineup:
            if count:
                break
            continue
        when = _when(game.date)
        if later is not None and when is not None and later - when > SERIES_GAP:
            break
        later = when if when is not None else later
        if not game.counted or game.log.winner is None:
            continue
        count += 1
        paths.append(game.log.path)
        won_keys = {game.seats[s].key for s in game.sides[game.log.winner]}
        for i, ss in enumerate(sides):
            if keys[ss[0]] in won_keys:
                wins[i] += 1
        if not seats:
            by_key = {s.key: s for s in game.seats}
            seats = tuple(tuple(by_key[keys[s]] for s in ss) for ss in sides)
    if not count:
        return None
    return Series(seats, tuple(wins), count, tuple(paths))


def disputes(all_games: Iterable[Game]) -> dict[bytes, int]:
    """How many of each key's matches ended in a dispute about time (:attr:`Game.
    disputed`): a host that lies about the clocks shows up here, against every seat it
    wrongs, instead of being rated up."""
    out: dict[bytes, int] = {}
    for g in all_games:
        if g.disputed:
            for s in g.seats:
                out[s.key] = out.get(s.key, 0) + 1
    return out


def against_bots(game: Game) -> bool:
    """A seat of ``game`` has a bot level's well-known key (anyone may sit under it: its
    seed is public)."""
    return any(s.bot is not None for s in game.seats)


def rated_matches(all_games: Iterable[Game], bots: bool = False) -> list[RatedMatch]:
    """The counted matches to rate (a set: their order moves nothing): those
    between people (``bots`` False), or those with a bot's key at the table (True).  The
    two are rated apart: a bot's key is public, so anyone can sit under the expert's and
    lose to themselves; such games say how one plays against the bots, never how one
    ranks among people (issue 42)."""
    out = []
    for g in all_games:
        if g.counted and g.players in SHAPES and against_bots(g) == bots:
            # No date in the order: the header's date is unsigned (the supplier's word),
            # and the ratings are one batch of the set of matches (rating.py).
            out.append(RatedMatch(("", g.log.game), g.players,
                                  tuple(s.key for s in g.seats), g.sides, g.log.winner,
                                  g.log.loser, tuple(s.anchor for s in g.seats)))
    return out


def ratings(all_games: Iterable[Game], bots: bool = False
            ) -> dict[int, dict[bytes, Rating]]:
    """Every identity's Glicko-2 rating per table size (:func:`rating.compute_ratings`),
    among people, or (``bots``) against the bots, whose levels are the anchors there."""
    return compute_ratings(rated_matches(all_games, bots))


#: A rating more than this share of whose matches were against keys the viewer never met
#: is unrated (shown, with the share, never ranked as if it meant something).
UNMET_SHARE = 0.5


@dataclass(frozen=True)
class Standing:
    """A rating as one viewer may read it (issue 42): ``games`` counted in the pool,
    ``unmet`` of them against a key the viewer never met (or a bot's anchor at a table
    the viewer did not host), ``isolated`` of those against unmet keys that sat at no
    table without this one (keys that exist only in its own matches, one supplier's, as
    sock puppets do).  ``unrated`` when more than :data:`UNMET_SHARE` of the games are
    unmet: the rating may be puppets' work, and says how much of it is."""

    rating: Rating
    games: int = 0
    unmet: int = 0
    isolated: int = 0

    @property
    def unrated(self) -> bool:
        if self.rating.anchor is not None or not self.games:
            return False
        return self.unmet > UNMET_SHARE * self.games

    @property
    def unmet_share(self) -> float:
        return self.unmet / self.games if self.games else 0.0


def met_keys(all_games: Iterable[Game], mine: Iterable[bytes]) -> tuple[set[bytes], set[str]]:
    """What the viewer (``mine``: its own keys) vouches for: the keys seated in a log in
    which one of its keys signed an entry (it sat with them: they are somebody), and the
    game ids of the tables one of its keys hosted and signed (there, a bot level's key is
    the viewer's own bot, not someone sitting under the level's public key)."""
    own = set(mine)
    keys: set[bytes] = set(own)
    hosted: set[str] = set()
    for g in all_games:
        if not _stands(g.log):
            continue
        signed = [i for i, s in enumerate(g.seats) if s.key in own and i in g.log.signers]
        if signed:
            keys.update(s.key for s in g.seats if s.bot is None)
            if 0 in signed:
                hosted.add(g.log.game)
    return keys, hosted


def standings(all_games: Sequence[Game], mine: Iterable[bytes], bots: bool = False
              ) -> dict[int, dict[bytes, Standing]]:
    """:func:`ratings`, each with how much of it the viewer (``mine``) can vouch for
    (:class:`Standing`).  The numbers are anyone's; what is unmet is the viewer's."""
    met, hosted = met_keys(all_games, mine)
    rated = [g for g in all_games
             if g.counted and g.players in SHAPES and against_bots(g) == bots]
    tables: dict[bytes, set[str]] = {}  # the matches each key sat at
    for g in rated:
        for s in g.seats:
            tables.setdefault(s.key, set()).add(g.log.game)
    counts: dict[tuple[int, bytes], list[int]] = {}
    for g in rated:
        for side in g.sides:
            for seat in side:
                key = g.seats[seat].key
                others = [o for i, o in enumerate(g.seats) if i not in side]
                unmet = any(o.anchor is not None and g.log.game not in hosted
                            or o.anchor is None and o.key not in met for o in others)
                # Unmet opponents that sat at no table without this key: they exist
                # only in its own matches (one supplier's keys, as sock puppets are).
                alone = unmet and all(o.anchor is None and o.key not in met
                                      and tables[o.key] <= tables[key] for o in others)
                c = counts.setdefault((g.players, key), [0, 0, 0])
                c[0] += 1
                c[1] += int(unmet)
                c[2] += int(alone)
    out: dict[int, dict[bytes, Standing]] = {}
    for n, pool in ratings(rated, bots).items():
        out[n] = {}
        for key, r in pool.items():
            played, far, lone = counts.get((n, key), [r.games, 0, 0])
            out[n][key] = Standing(r, played, far, lone)
    return out


def names_by_key(all_games: Iterable[Game]) -> dict[bytes, str]:
    """The newest name each key played under, from the logs in which that key signed an
    entry: a genesis names every seat in the host's words, so a log a key never signed
    (a table that seated the key and stopped before it spoke, or one forged around it)
    cannot rename it."""
    out: dict[bytes, str] = {}
    for g in sorted(all_games, key=lambda g: g.date):
        if _stands(g.log):
            for i, s in enumerate(g.seats):
                if i in g.log.signers:
                    out[s.key] = s.name
    return out


def parse_date(text: str) -> _dt.datetime | None:
    """An ISO date or date and time (UTC when no zone is given), or None."""
    try:
        d = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return d if d.tzinfo is not None else d.replace(tzinfo=_dt.UTC)
