"""A folder of logs of real matches for the history tests (no tests here).

Every match is played by the library's own sessions in process (real signatures, real
deal crypto, greedy bots deciding; :func:`support.audit.play`), between fixed
identities, so that the same people meet again: amel and sami at 2 players, with bilel
and dora at 4.  The log headers carry chosen dates (a header is not signed: the date
of a log is its writer's word), a day apart unless a series is meant.

:func:`build` writes the folder and returns what each log is expected to say.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from chkobba_p2p.game.rules import PRESETS, side_of
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import MAGIC, read_log
from support.audit import Played, play

NAMES = ("amel", "sami", "bilel", "dora")


def identity(name: str) -> Identity:
    return Identity.from_seed(hashlib.sha256(b"history test/" + name.encode()).digest())


AMEL, SAMI, BILEL, DORA = (identity(n) for n in NAMES)


@dataclass
class Expected:
    """What a log of the folder should audit to."""

    path: Path
    players: int
    ending: str
    winner: int | None  # the winning side if the result counts
    keys: tuple[bytes, ...]
    date: str


def _sessions(ids: list[Identity], names: list[str], label: str, target: int | None = None
              ) -> tuple[list[Session], list[Identity]]:
    def derive(what: str) -> bytes:
        return hashlib.sha256(f"history/{label}/{what}".encode()).digest()

    rules = PRESETS["tunisian"]
    if target is not None:
        rules = replace(rules, target=target)
    lobby = Lobby(ids[0], names[0], rules, len(ids), shuffle_proofs=False)
    for i in range(1, len(ids)):
        lobby.take_seat(ids[i].public, names[i])
    lobby.game = derive("game")[:16]
    table = lobby.table()
    masters = [derive(f"master {i}") for i in range(len(ids))]
    host, genesis = Session.create(ids[0], table, masters[0])
    return [host] + [Session.join(ids[i], genesis, ids[0].public, masters[i])
                     for i in range(1, len(ids))], ids


def write_log(played: Played, path: Path, seat: int, date: str,
              bots: list[dict] | None = None) -> Path:
    """Seat ``seat``'s log of the match, its header dated ``date`` (with ``bots``, the
    host's vouchers, PROTOCOL.md 5.6, when given)."""
    s = played.sessions[seat]
    header = {"t": "log", "v": 1, "software": "chkobba-p2p test", "game": s.table.game,
              "seat": seat, "key": played.identities[seat].public,
              "name": s.table.seats[seat].name, "host": "in-process", "created": date}
    if bots is not None:
        header["bots"] = bots
    frames = [wire.encode(header), *s.bodies]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(MAGIC + b"".join(wire.frame(b) for b in frames))
    return path


def _winner(played: Played) -> int | None:
    done = played.sessions[0].done
    return None if done is None else done.winner_side


def _stopped(names: list[str], label: str, code: ErrorCode, by: int) -> Played:
    """A 2-player match stopped by an abort with ``code`` signed by seat ``by`` against
    the seat holding the floor, seat 0 (the in-process match loop lets every seat act in
    turn, so seat 0 holds it between rounds): seat 0 itself (it resigns, or ran out of
    its own time) or seat 1 saying seat 0 was too slow."""
    ids = [identity(n) for n in names]
    p = play(2, sessions=_sessions(ids, names, label), stop_after=60, abort_by=by,
             abort_code=code, seed=5)
    ab = p.sessions[by].aborted
    assert ab is not None and ab.blamed_seat == 0, ab
    return p


#: The complete matches of :func:`build` are played to this many points: a hand or two,
#: where a match to 11 takes three to six, and every test that audits the folder again
#: audits each hand (history reads a match's end, never how long it took).
SHORT = 3


def build(folder: Path) -> list[Expected]:
    """Write the test folder; return what each log should say (newest last)."""
    out: list[Expected] = []
    two = ["amel", "sami"]
    keys2 = (AMEL.public, SAMI.public)
    # Three complete matches, a day apart; then a series of two the same evening.
    dates = ["2026-03-01T20:00:00+00:00", "2026-03-02T20:00:00+00:00",
             "2026-03-03T20:00:00+00:00", "2026-03-10T20:00:00+00:00",
             "2026-03-10T20:30:00+00:00"]
    for i, date in enumerate(dates):
        p = play(2, sessions=_sessions([AMEL, SAMI], two, f"two-{i}", SHORT), seed=11 + i)
        path = write_log(p, folder / f"two-{i}.chklog", 0, date)
        out.append(Expected(path, 2, "points", _winner(p), keys2, date))
        if i == 0:  # sami's copy of the first match: the same game, one entry
            out.append(Expected(write_log(p, folder / "two-0-sami.chklog", 1, date), 2,
                                "points", _winner(p), keys2, date))
    # amel resigns; amel runs out of time (signs it); sami says amel was too slow.
    date = "2026-03-10T21:00:00+00:00"
    p = _stopped(two, "resign", ErrorCode.RESIGNED, 0)
    out.append(Expected(write_log(p, folder / "resigned.chklog", 0, date), 2, "resigned",
                        1, keys2, date))
    date = "2026-03-10T21:30:00+00:00"
    p = _stopped(two, "on-time", ErrorCode.TIMEOUT, 0)
    out.append(Expected(write_log(p, folder / "on-time.chklog", 0, date), 2, "on_time",
                        1, keys2, date))
    date = "2026-03-10T22:00:00+00:00"
    p = _stopped(two, "aborted", ErrorCode.TIMEOUT, 1)
    out.append(Expected(write_log(p, folder / "aborted.chklog", 0, date), 2, "aborted",
                        None, keys2, date))
    # A 4-player match (amel & bilel against sami & dora).
    four = [AMEL, SAMI, BILEL, DORA]
    date = "2026-03-05T20:00:00+00:00"
    p = play(4, sessions=_sessions(four, ["amel", "sami", "bilel", "dora"], "four", SHORT),
             seed=3)
    out.append(Expected(write_log(p, folder / "four.chklog", 0, date), 4, "points",
                        _winner(p), tuple(i.public for i in four), date))
    # A tampered log: a match amel lost, with one entry's bytes changed after the fact.
    date = "2026-03-06T20:00:00+00:00"
    for k in range(20):
        p = play(2, sessions=_sessions([AMEL, SAMI], two, f"tampered-{k}", SHORT),
                 seed=40 + k)
        if _winner(p) == 1:
            break
    path = write_log(p, folder / "tampered.chklog", 0, date)
    data = bytearray(path.read_bytes())
    # A byte of the middle entry's signature (the last bytes of its frame body): one
    # place where a change is a bad signature whatever the entries' sizes.
    bodies = read_log(path).bodies
    body = bodies[len(bodies) // 2]
    data[bytes(data).index(body) + len(body) - 1] ^= 0x01
    path.write_bytes(bytes(data))
    out.append(Expected(path, 2, "invalid", None, keys2, date))
    # Not a log at all.
    junk = folder / "junk.chklog"
    junk.write_bytes(b"not a log")
    out.append(Expected(junk, 0, "unreadable", None, (), ""))
    return out


def side(keys: tuple[bytes, ...], key: bytes) -> int:
    return side_of(keys.index(key), len(keys))


#: The folder of :func:`build`, played once per test process (:func:`built`), and its
#: audits as history caches them (:func:`audited_cache`).
_BUILT: dict[str, object] = {}

#: The xdist group of the modules that read that folder: on one worker, it is played and
#: audited once per run (tests/support/tiers.py's ``group_suffixes``).
GROUP = "history_logs"


def built(tmp_path_factory) -> tuple[Path, list[Expected]]:
    """:func:`build`'s folder and what each log should say, played once per test process
    (in the session's temporary folder) for every module that reads it.  Read it only:
    a test that changes a log copies the folder first."""
    if "folder" not in _BUILT:
        folder = tmp_path_factory.mktemp("history") / "logs"
        _BUILT["folder"] = folder, build(folder)
    return _BUILT["folder"]  # type: ignore[return-value]


def audited_cache(tmp_path_factory) -> Path:
    """A history cache (``history.json``) holding the audits of :func:`built`'s logs,
    audited once per test process; a test starts from a copy.  History reuses an audit
    for the same bytes at any path, so a copy of the folder elsewhere is read from it."""
    if "cache" not in _BUILT:
        from chkobba_p2p.observe.history import AuditCache, index_logs

        folder, _ = built(tmp_path_factory)
        cache = tmp_path_factory.mktemp("audited") / "history.json"
        index_logs(folder, cache=AuditCache(cache))
        _BUILT["cache"] = cache
    return _BUILT["cache"]  # type: ignore[return-value]
