"""chkobba_p2p.observe.history: a folder of logs of real matches (tests/support/history.py) gives
the expected history, records, series and ratings; the audit is cached by the log's hash;
a tampered log is listed with its reason and counts for nothing."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.history import (
    AMEL,
    BILEL,
    DORA,
    GROUP,
    SAMI,
    SHORT,
    audited_cache,
    built,
    side,
)

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.observe.audit import INVALID, VALID, AuditResult
from chkobba_p2p.observe.history import (
    UNREADABLE,
    AuditCache,
    Seat,
    games,
    index_logs,
    names_by_key,
    ratings,
    record_against,
    series,
)

# Its tests share one worker (pytest-xdist's loadgroup) with the client's history and
# records tests: the folder of logs is then played once per run (support.history.built).
pytestmark = pytest.mark.xdist_group(GROUP)


@pytest.fixture(scope="session")
def folder(tmp_path_factory):
    return built(tmp_path_factory)


@pytest.fixture(scope="session")
def indexed(folder):
    path, expected = folder
    return index_logs(path), expected


def test_every_log_audits_to_what_its_match_was(indexed):
    logs, expected = indexed
    by_path = {lg.path: lg for lg in logs}
    assert len(logs) == len(expected)
    for e in expected:
        lg = by_path[str(e.path)]
        assert (lg.ending, lg.winner, lg.players) == (e.ending, e.winner, e.players), e.path
        assert lg.counted == (e.winner is not None)
        if e.keys:
            assert tuple(s.key for s in lg.seats) == e.keys
            assert lg.date == e.date
    tampered = next(lg for lg in logs if lg.path.endswith("tampered.chklog"))
    assert (tampered.verdict, tampered.code) == (INVALID, "bad_signature")
    assert tampered.result is not None and not tampered.counted
    assert (tampered.result.verdict, tampered.result.code) == (INVALID, "bad_signature")
    assert words(tampered.result, Translator("en")).startswith("INVALID (bad_signature)")
    assert words(tampered.result, Translator("fr")).startswith("INVALIDE (bad_signature) :")
    junk = next(lg for lg in logs if lg.path.endswith("junk.chklog"))
    assert junk.verdict == UNREADABLE and "not a chkobba log" in junk.reason


def test_the_logs_of_one_match_are_one_game_and_games_come_newest_first(indexed):
    logs, _ = indexed
    gs = games(logs)
    assert len(gs) == len(logs) - 1  # two-0 and sami's copy of it are one game
    first = next(g for g in gs if any(p.endswith("two-0-sami.chklog") for p in g.copies))
    assert len(first.copies) == 2 and first.log.verdict == VALID
    dated = [g.date for g in gs if g.date and g.log.verdict != UNREADABLE]
    assert dated == sorted(dated, reverse=True)
    # junk.chklog has no header: its date is the file's (today), the newest.
    assert gs[0].log.path.endswith("junk.chklog") and gs[1].log.path.endswith("aborted.chklog")


def _expected_record(expected, me: bytes, other: bytes) -> tuple[int, int, int]:
    seen = set()
    g = w = 0
    for e in expected:
        if e.winner is None or me not in e.keys or other not in e.keys:
            continue
        if side(e.keys, me) == side(e.keys, other) or (e.date, e.keys) in seen:
            continue
        seen.add((e.date, e.keys))  # sami's copy of the first match counts once
        g += 1
        w += e.winner == side(e.keys, me)
    return g, w, g - w


def test_records_against_a_player_count_each_counted_match_once(indexed):
    logs, expected = indexed
    gs = games(logs)
    r = record_against(gs, AMEL.public, SAMI.public)
    assert (r.games, r.wins, r.losses) == _expected_record(expected, AMEL.public, SAMI.public)
    # 5 complete, the resignation and the loss on time, the 4-player match (opponents);
    # neither the aborted game nor the tampered one.
    assert r.games == 8
    back = record_against(gs, SAMI.public, AMEL.public)
    assert (back.games, back.wins, back.losses) == (r.games, r.losses, r.wins)
    # Partners are not opponents.
    assert record_against(gs, AMEL.public, BILEL.public).games == 0
    assert record_against(gs, AMEL.public, DORA.public).games == 1


def test_the_series_is_the_run_of_matches_of_one_lineup(indexed):
    logs, expected = indexed
    gs = games(logs)
    s = series(gs, [AMEL.public, SAMI.public])
    assert s is not None
    # Newest back: the loss on time, the resignation (amel lost both), two-4, two-3;
    # the tampered log counts for nothing and the 4-player match ends the run.
    run = [e for e in expected if e.path.name in ("on-time.chklog", "resigned.chklog",
                                                  "two-4.chklog", "two-3.chklog")]
    wins = tuple(sum(e.winner == i for e in run) for i in (0, 1))
    assert (s.games, s.wins) == (4, wins)
    assert [seat.name for side_ in s.sides for seat in side_] == ["amel", "sami"]
    # The other seat order gives the same series, seen from the other side.
    other = series(gs, [SAMI.public, AMEL.public])
    assert other is not None and other.wins == wins[::-1]
    four = series(gs, [AMEL.public, SAMI.public, BILEL.public, DORA.public])
    assert four is not None and four.games == 1
    assert series(gs, [AMEL.public, DORA.public]) is None


def test_a_second_look_audits_nothing_again(folder, tmp_path):
    path, _ = folder
    cache_file = tmp_path / "cache" / "history.json"
    calls: list[tuple[int, int]] = []
    first = index_logs(path, cache=AuditCache(cache_file).load(),
                       progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1] == (len(first), len(first))
    assert cache_file.exists() and not [p for p in cache_file.parent.iterdir()
                                        if p.name.startswith(".history.")]
    calls.clear()
    second = index_logs(path, cache=AuditCache(cache_file).load(),
                        progress=lambda d, t: calls.append((d, t)))
    assert calls == [] and second == first
    # A copy elsewhere has the same bytes: its audit is the cached one, at its own path.
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(path / "two-1.chklog", other / "copy.chklog")
    third = index_logs(other, cache=AuditCache(cache_file).load(),
                       progress=lambda d, t: calls.append((d, t)))
    assert calls == [] and third[0].path == str(other / "copy.chklog")


def test_a_changed_log_is_audited_again(folder, tmp_path):
    path, _ = folder
    mine = tmp_path / "logs"
    shutil.copytree(path, mine)
    cache_file = tmp_path / "history.json"
    index_logs(mine, cache=AuditCache(cache_file).load())
    data = bytearray((mine / "two-2.chklog").read_bytes())
    data[-10] ^= 0x40
    (mine / "two-2.chklog").write_bytes(bytes(data))
    calls: list[tuple[int, int]] = []
    again = index_logs(mine, cache=AuditCache(cache_file).load(),
                       progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 1)]
    changed = next(lg for lg in again if lg.path.endswith("two-2.chklog"))
    assert changed.verdict != VALID and not changed.counted


def _some_logs(folder, indexed, tmp_path, names=("two-0.chklog", "tampered.chklog",
                                                 "junk.chklog")):
    """A folder of a few of the history folder's logs (a match, a tampered one, junk),
    copied with their dates, and what indexing them says: the history folder's index,
    at the copies' paths."""
    path, _ = folder
    some = tmp_path / "some"
    some.mkdir()
    for name in names:
        shutil.copy2(path / name, some / name)
    want = [dataclasses.replace(lg, path=str(some / lg.path.rsplit("/", 1)[-1]))
            for lg in indexed[0] if lg.path.rsplit("/", 1)[-1] in names]
    assert len(want) == len(names)
    return some, want


@pytest.mark.parametrize("junk", [
    b"", b"{", b"[1, 2]", b'{"format": 1, "audit": "0", "logs": {}}',
    b'{"format": 1, "audit": "AUDITOR", "logs": {"x": {"seats": 3}}}'])
def test_a_corrupt_cache_is_ignored(folder, indexed, tmp_path, junk):
    """Read as no cache at all: every log audited again (a few logs: the whole folder's
    audit is test_every_log_audits_to_what_its_match_was's), and the cache rewritten."""
    some, want = _some_logs(folder, indexed, tmp_path)
    cache_file = tmp_path / "history.json"
    from chkobba_p2p.observe.history import auditor
    cache_file.write_bytes(junk.replace(b"AUDITOR", auditor().encode()))
    cache = AuditCache(cache_file).load()
    calls: list[tuple[int, int]] = []
    logs = index_logs(some, cache=cache, progress=lambda d, t: calls.append((d, t)))
    assert sorted(logs, key=lambda lg: lg.path) == sorted(want, key=lambda lg: lg.path)
    assert calls[-1] == (len(want), len(want))  # nothing taken from the junk
    assert "x" not in AuditCache(cache_file).load().entries  # rewritten without it


def test_a_cache_of_the_first_format_is_rebuilt_from_the_logs(folder, indexed, tmp_path,
                                                              tmp_path_factory):
    """Format 1 kept each audit's result as an English sentence: it is not read (no
    traceback), every log is audited again, and the cache is rewritten with the result
    as data, which a client words in its reader's language."""
    from chkobba_p2p.observe.history import CACHE_FORMAT, auditor
    path, _ = folder
    fresh = audited_cache(tmp_path_factory)  # the folder's audits, as history caches them
    doc = json.loads(AuditCache(fresh).load().dumps())
    for entry in doc["logs"].values():  # as the first format wrote it
        del entry["result"]
        entry["reason"] = "VALID: 54 entries; the first format's sentence"
    doc["format"] = 1
    old = tmp_path / "history.json"
    old.write_text(json.dumps(doc))
    assert CACHE_FORMAT == 3 and doc["audit"] == auditor()
    calls: list[tuple[int, int]] = []
    logs = index_logs(path, cache=AuditCache(old).load(),
                      progress=lambda d, t: calls.append((d, t)))
    assert logs == indexed[0]
    assert calls and calls[-1][0] == calls[-1][1] == len(doc["logs"])  # all audited again
    again = json.loads(old.read_bytes())
    assert again["format"] == CACHE_FORMAT
    for entry in again["logs"].values():
        if entry["verdict"] != UNREADABLE:
            assert AuditResult.from_json(entry["result"]).verdict == entry["verdict"]
            assert "the first format" not in entry["reason"]


def test_the_cache_is_bounded(folder, tmp_path):
    path, _ = folder
    cache = AuditCache(tmp_path / "history.json", limit=3)
    index_logs(path, cache=cache)
    assert len(AuditCache(tmp_path / "history.json").load().entries) == 3


def _redate(data: bytes, minutes: int) -> bytes:
    """The log with its (unsigned) header's date moved by ``minutes`` from 2026-01-01."""
    import datetime

    from chkobba_p2p.wire import codec as wire
    from chkobba_p2p.wire.logfile import MAGIC

    start = len(MAGIC)
    n = int.from_bytes(data[start:start + 4], "big")
    header = wire.decode(data[start + 4:start + 4 + n])
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC) \
        + datetime.timedelta(minutes=minutes)
    header["created"] = when.isoformat(timespec="seconds")
    return MAGIC + wire.frame(wire.encode(header)) + data[start + 4 + n:]


def test_ratings_are_the_same_every_time_and_ignore_what_does_not_count(folder, indexed,
                                                                        tmp_path,
                                                                        tmp_path_factory):
    path, expected = folder
    logs, _ = indexed
    one = ratings(games(logs))
    two = ratings(games(index_logs(path)))  # audited again from scratch
    assert one == two
    # Without the tampered log, the aborted game and the junk: the very same ratings.
    clean = tmp_path / "clean"
    shutil.copytree(path, clean)
    for name in ("tampered.chklog", "aborted.chklog", "junk.chklog"):
        (clean / name).unlink()
    # (The same bytes: their audits taken from a copy of the folder's cache.)
    warm = tmp_path / "history.json"
    shutil.copy(audited_cache(tmp_path_factory), warm)
    assert ratings(games(index_logs(clean, cache=AuditCache(warm).load()))) == one
    # Every header's date (unsigned: the supplier's word) reversed: not a rating moves
    # (issue 42, case 3).
    redated = tmp_path / "redated"
    redated.mkdir()
    for i, src in enumerate(sorted(clean.glob("*.chklog"))):
        (redated / src.name).write_bytes(_redate(src.read_bytes(), -i))
    again = games(index_logs(redated))
    assert sorted(g.date for g in again) != sorted(g.date for g in games(logs))
    assert ratings(again) == one
    # The winner of more 2-player matches is ahead.
    counted = {(e.date, e.winner) for e in expected
               if e.players == 2 and e.winner is not None}
    won = sum(1 for _, w in counted if w == 0)
    lost = len(counted) - won
    assert won != lost
    assert (one[2][AMEL.public].rating > one[2][SAMI.public].rating) == (won > lost)
    assert set(one[4]) == {AMEL.public, SAMI.public, BILEL.public, DORA.public}
    assert names_by_key(games(logs))[AMEL.public] == "amel"


def test_a_missing_folder_is_a_clear_error(tmp_path):
    from chkobba_p2p.wire.logfile import LogUnreadable
    with pytest.raises(LogUnreadable, match="no such folder"):
        index_logs(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    with pytest.raises(LogUnreadable, match="not a folder"):
        index_logs(tmp_path / "file")


# ------------------------------------------------------------------ chkobba history


def _cli(capsys, *argv):
    from chkobba_cli.main import main
    code = main(["history", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def warm_cache(own_cache, tmp_path_factory):
    """The own cache holding the folder's audits already (a copy of
    :func:`support.history.audited_cache`), for the tests of what the command says rather
    than of its cache: the folder is not audited again for each of them."""
    own_cache.mkdir()
    shutil.copy(audited_cache(tmp_path_factory), own_cache / "history.json")
    return own_cache


def test_the_command_lists_every_match_newest_first(folder, own_cache, capsys):
    path, _ = folder
    code, out, _ = _cli(capsys, str(path), "--lang", "en")
    assert code == 0
    lines = out.splitlines()
    heads = [ln for ln in lines if not ln.startswith(" ")]
    assert heads[-1] == "11 matches, 8 counted"
    assert "sami won by resignation  [VALID]" in out and "sami won on time" in out
    assert "FAILED ITS AUDIT: counts for nothing  [INVALID]" in out
    assert "INVALID (bad_signature)" in out
    # The audit's result is kept as data: the reason is worded in the reader's language.
    code, fr, _ = _cli(capsys, str(path), "--lang", "fr")
    assert code == 0 and "INVALIDE (bad_signature) : " in fr and "INVALID (" not in fr
    assert "amel (9069-a17d-cdbe-613b) vs sami (2aa4-c1e3-4c2c-c087)" in out
    assert heads[1].startswith("2026-03-10 22:00  2 players  stopped before the end")
    assert (own_cache / "history.json").exists()
    code, fr, _ = _cli(capsys, str(path), "--lang", "fr", "--players", "4")
    # A side of two wins: no verb to agree with it; one match is "1 partie".
    assert code == 0 and "amel & bilel : victoire 6–1" in fr and "1 partie, 1 comptée" in fr


def test_the_filters_and_json(folder, warm_cache, capsys):
    path, _ = folder
    code, out, _ = _cli(capsys, str(path), "--json", "--with", "dora")
    rows = json.loads(out)
    assert code == 0 and [r["players"] for r in rows] == [4]
    assert rows[0]["seats"][3]["fingerprint"] == DORA.fingerprint
    _, out, _ = _cli(capsys, str(path), "--json", "--since", "2026-03-10")
    rows = json.loads(out)
    assert {r["ending"] for r in rows} >= {"aborted", "on_time", "resigned", "points"}
    assert all(r["date"] >= "2026-03-10" for r in rows)
    _, out, _ = _cli(capsys, str(path), "--json", "--with", AMEL.fingerprint[:9])
    assert len(json.loads(out)) == 10  # every match but the junk (no seats)
    code, _, err = _cli(capsys, str(path), "--since", "yesterday")
    assert code == 2 and "not a date: yesterday" in err


def test_ratings_from_a_folder_are_the_same_for_anyone(folder, warm_cache, capsys, tmp_path,
                                                       monkeypatch):
    path, _ = folder
    code, one, _ = _cli(capsys, "--ratings", str(path), "--json")  # from the cache
    # Someone else, with no cache, computes the same numbers.
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "another"))
    _, two, _ = _cli(capsys, "--ratings", str(path), "--json", "--no-cache")
    assert code == 0 and one == two
    pools = json.loads(one)
    assert {r["name"] for r in pools["2"]} == {"amel", "sami"}
    assert all(r["provisional"] and r["shown"].endswith("?") for r in pools["4"])
    code, text, _ = _cli(capsys, "--ratings", str(path), "--lang", "en")
    assert code == 0 and "Glicko-2 ratings, 2 players" in text and "about " in text


def test_a_missing_folder_is_one_line_and_status_2(own_cache, capsys, tmp_path):
    code, out, err = _cli(capsys, str(tmp_path / "nowhere"))
    assert code == 2 and out == ""
    assert err == f"chkobba history: {tmp_path / 'nowhere'}: no such folder\n"


def test_the_progress_bar():
    from chkobba_cli.commands.history import bar
    from chkobba_cli.words.i18n import Translator
    assert bar(3, 4, 8, Translator("en")) == "[######..] 3/4 logs audited"


# ------------------------------------------------------- the lobby and the end screen


@pytest.fixture
def app_session():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        yield


def _screen_text(lines) -> str:
    from chkobba_cli.tui.parts.render import line_text
    return "\n".join(line_text(x) for x in lines)


def _past(folder, indexed):
    """The folder's games, read by the client's reader in its thread."""
    import threading

    from chkobba_cli.tui.model.past import PastGames
    from chkobba_p2p.observe.history import AuditCache
    path, _ = folder
    changed = threading.Event()
    past = PastGames(path, changed.set, cache=AuditCache(path.parent / "tui-cache.json"))
    thread = past.refresh()
    assert thread is not None and past.refresh() is None  # one reader at a time
    thread.join(120)
    assert changed.is_set() and past.games is not None
    assert [g.log for g in past.games] == [g.log for g in games(indexed[0])]
    return past


def _settled(past) -> None:
    import threading
    for thread in threading.enumerate():
        if thread.name == "past-games":
            thread.join(120)
    assert not past.reading


def test_the_rematch_lobby_shows_the_record_of_a_known_player(
        folder, indexed, app_session, tmp_path):
    """The record as history counts it, and no series beside it that would count other
    matches (issue 43, item 7: tests/client/test_tui_records.py)."""
    from chkobba_cli.tui.app import TuiApp
    from chkobba_p2p._shell.known import KnownPlayers
    from chkobba_p2p._shell.peer import Lobby
    past = _past(folder, indexed)
    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("sami", SAMI.public)])
    ui = TuiApp(kind="host", lang="en", seat=0, players=2, rematch=True, known=known,
                past=past)
    _settled(past)  # the screen reads the logs again as it opens
    ui.size = (30, 100)
    ui.state = ui.state.apply(Lobby((("amel", AMEL.fingerprint), ("sami", SAMI.fingerprint)),
                                    keys=(AMEL.public, SAMI.public)))
    text = _screen_text(ui.body(70, 30))
    r = record_against(past.games, AMEL.public, SAMI.public)
    assert f"you vs sami: {r.games} matches, you {r.wins}–{r.losses}" in text
    assert "series" not in text
    fr = TuiApp(kind="host", lang="fr", seat=0, players=2, rematch=True, known=known,
                past=past)
    _settled(past)
    fr.state = ui.state
    assert f"vous contre sami : {r.games} parties, vous {r.wins}–{r.losses}" \
        in " ".join(_screen_text(fr.body(70, 30)).split())  # (wrapped at 70)


def test_a_bot_levels_key_is_said_and_never_a_changed_key(tmp_path):
    from chkobba_cli.tui.parts.trust import changed_seats, seat_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p._shell.known import KnownPlayers
    from chkobba_p2p._shell.peer import Lobby
    from chkobba_p2p.observe.rating import bot_seed
    from chkobba_p2p.tablestate import TableState
    from chkobba_p2p.wire.codec import Identity
    greedy = Identity.from_seed(bot_seed("greedy", 1)).public
    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("bot1", Identity.from_seed(bot_seed("heuristic", 1)).public)])
    st = TableState(my_fingerprint=AMEL.fingerprint).apply(
        Lobby((("amel", AMEL.fingerprint), ("bot1", Identity.from_seed(
            bot_seed("greedy", 1)).fingerprint)), keys=(AMEL.public, greedy)))
    text = _screen_text(seat_lines(st, Translator("en"), known, 80, ready_check=False))
    assert "greedy bot" in text and "WARNING" not in text
    assert changed_seats(st, known) == []


def _history_on_a_terminal(path, cache) -> tuple[int, str, str]:
    """``chkobba history`` in its own process, stderr on a pseudo-terminal."""
    import os
    import subprocess

    from support.net import REPO_ROOT, cli_command, cli_env
    env = cli_env()
    env["CHKOBBA_CACHE_DIR"] = str(cache)
    controller, terminal = os.openpty()
    try:
        proc = subprocess.run(cli_command("history", str(path), "--lang", "en"),
                              cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=terminal, stdin=subprocess.DEVNULL, timeout=300)
        os.close(terminal)
        terminal = -1
        err = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the terminal's other end is closed: all read
                break
            if not chunk:
                break
            err += chunk
    finally:
        os.close(controller)
        if terminal >= 0:
            os.close(terminal)
    return proc.returncode, proc.stdout.decode(), err.decode()


@pytest.mark.slow
def test_a_progress_bar_on_the_terminal_while_logs_are_audited(folder, tmp_path):
    path, expected = folder
    code, out, err = _history_on_a_terminal(path, tmp_path / "cache")
    assert code == 0 and out.splitlines()[-1] == "11 matches, 8 counted"
    assert f"] {len(expected)}/{len(expected)} logs audited" in err
    assert "logs audited" not in out  # the bar is on stderr alone
    code, again, err = _history_on_a_terminal(path, tmp_path / "cache")
    assert code == 0 and again == out and "logs audited" not in err  # nothing to audit


@pytest.mark.slow  # a process: `chkobba history --json`
def test_the_client_reads_the_logs_in_a_process_of_its_own(folder, indexed, tmp_path,
                                                           monkeypatch):
    """Without a cache of its own, the client's reader runs ``chkobba history --json``
    (the user's cache: here the test's) and gets the very games read in process."""
    import threading

    from chkobba_cli.tui.model.past import PastGames
    path, _ = folder
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    changed = threading.Event()
    past = PastGames(path, changed.set)
    thread = past.refresh()
    assert thread is not None
    thread.join(300)
    assert changed.is_set() and past.games == games(indexed[0])
    assert (tmp_path / "cache" / "history.json").exists()
    nowhere = PastGames(tmp_path / "nowhere")
    nowhere.load()
    assert nowhere.games == []


def test_of_two_copies_that_stop_at_the_same_hand_the_one_saying_who_left_speaks():
    """A player left a match against bots (``q``): the bots' copies stop before the
    leave they never got, the player's holds it; the history says who left, as the
    replay of the player's log does (a first-time player saw "unfinished")."""
    from chkobba_p2p.observe.history import Log, Seat

    seats = (Seat("amel", AMEL.public), Seat("bot1", SAMI.public))

    def copy(path: str, ending: str) -> Log:
        return Log(path, path, "2026-12-04T18:00:00", "g1", 2, seats, "incomplete",
                   ending, "", ending, None, (3, 5), 2)

    for paths in (("a-bot1.chklog", "b-play.chklog"), ("b-bot1.chklog", "a-play.chklog")):
        bot, mine = copy(paths[0], "unfinished"), copy(paths[1], "aborted")
        [game] = games([bot, mine])
        assert game.log.path == mine.path and game.log.ending == "aborted"
        assert set(game.copies) == set(paths)


def test_the_list_speaks_french_agreement_and_fits_the_terminal(capsys, monkeypatch):
    """"1 comptée", "journal : …", and an audit's long sentence wrapped at the
    terminal's width (a first-time player saw "1 comptées" and lines past 80 columns)."""
    from chkobba_cli.commands.history import show_games
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.observe.history import Game, Log, Seat
    monkeypatch.setenv("COLUMNS", "80")
    seats = (Seat("amel", AMEL.public), Seat("bot1", SAMI.public))
    reason = ("the transcript stops after entry #165, before the match is complete "
              "(playing); no violation before it, and nothing else to say here")
    won = Log("a.chklog", "a", "2026-12-04T18:00", "g1", 2, seats, VALID, "points", "",
              "points", 0, (11, 5), 4)
    stopped = Log("b.chklog", "b", "2026-12-04T19:00", "g2", 2, seats, "incomplete",
                  "unfinished", reason, "unfinished", None, (3, 5), 2)
    show_games([Game(stopped, ("b.chklog",)), Game(won, ("a.chklog",))], Translator("fr"))
    out = capsys.readouterr().out
    assert "2 parties, 1 comptée" in out and "comptées" not in out, out
    assert "    journal : b.chklog" in out
    assert all(len(line) <= 79 for line in out.splitlines()), out
    assert " ".join(reason.split()) in " ".join(out.split())


def test_a_leave_names_who_left_and_the_tag_speaks_french(capsys, monkeypatch):
    """In the leaver's own history, "bot1 won: the other side left the match" read as if
    the bot had left (a first-time player's walk): the line names the seat that left, from
    the signed abort, and the verdict's tag follows the language ("[VALIDE]")."""
    from chkobba_cli.commands.history import show_games
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.observe.audit import AuditResult
    from chkobba_p2p.observe.history import Game, Log, Seat
    from chkobba_p2p.observe.verdict import AbortClaim
    monkeypatch.setenv("COLUMNS", "80")
    seats = (Seat("leila", AMEL.public), Seat("bot1", SAMI.public))
    claim = AbortClaim(17, 0, "peer_left", None, "")
    result = AuditResult(VALID, "left", 18, ("leila", "bot1"), abort=claim)
    left = Log("a.chklog", "a", "2026-12-07T03:23", "g1", 2, seats, VALID, "left", "",
               "left", 1, (0, 0), 1, loser=0, result=result)
    for lang, said, tag in (("en", "bot1 won: leila left the match", "[VALID]"),
                            ("fr", "bot1 : victoire, leila a quitté la partie", "[VALIDE]")):
        show_games([Game(left, ("a.chklog",))], Translator(lang))
        out = capsys.readouterr().out
        assert said in out and tag in out, out
        assert "other side" not in out and "adversaire" not in out
    # A log without the abort's data (an older cache) keeps the general words.
    show_games([Game(dataclasses.replace(left, result=None), ("a.chklog",))],
               Translator("en"))
    assert "bot1 won: the other side left the match  [VALID]" in capsys.readouterr().out


def test_a_log_the_key_never_signed_cannot_rename_it(folder, tmp_path, tmp_path_factory):
    """Issue 42, case 2: a host seats amel's public key under a name of its choosing and
    stops before amel signs anything, with the newest header date of all: amel's key
    keeps the name it signed under.  A log in which the key did sign renames it."""
    from support.history import _sessions, write_log

    from chkobba_p2p.wire.codec import ErrorCode, Identity

    path, _ = folder
    logs = tmp_path / "logs"
    shutil.copytree(path, logs)
    mallory = Identity.generate()
    ss, ids = _sessions([mallory, AMEL], ["mallory", "impostor"], "rename")
    ss[0].abort(ErrorCode.PEER_LEFT, 1, "gone")  # before amel's ready: amel signed nothing
    from support.audit import Played

    write_log(Played(ss, ids), logs / "forged.chklog", 0, "2027-01-01T00:00:00+00:00")
    # The folder's logs' audits from a copy of its cache; the new logs audited.
    warm = tmp_path / "history.json"
    shutil.copy(audited_cache(tmp_path_factory), warm)
    gs = games(index_logs(logs, cache=AuditCache(warm).load()))
    forged = next(g for g in gs if g.log.path.endswith("forged.chklog"))
    assert forged.log.signers == (0,)
    assert names_by_key(gs)[AMEL.public] == "amel"
    assert names_by_key(gs)[mallory.public] == "mallory"
    # Amel signing her ready at a table that names her "amel2" is her own word.
    ss, ids = _sessions([mallory, AMEL], ["mallory", "amel2"], "renamed")
    while ss[1].chain.next_seq[1] == 0:
        i = ss[0].floor
        entry = ss[i].next_entry()
        assert entry is not None
        ss[1 - i].receive(entry)
    write_log(Played(ss, ids), logs / "own.chklog", 0, "2027-01-02T00:00:00+00:00")
    gs = games(index_logs(logs, cache=AuditCache(warm).load()))
    assert names_by_key(gs)[AMEL.public] == "amel2"


def _three(winner: int | None, loser: int | None = None, ending: str = "points"):
    """A counted 3-player match between amel, sami and bilel (seats 0, 1, 2)."""
    from chkobba_p2p.observe.history import Game, Log, Seat

    seats = tuple(Seat(n, k.public) for n, k in
                  (("amel", AMEL), ("sami", SAMI), ("bilel", BILEL)))
    return Game(Log("three.chklog", "d", "2026-03-01T20:00:00Z", "g3", 3, seats, VALID,
                    None, "", ending, winner, (11, 5, 7), 4, None, loser))


def test_at_three_players_the_two_that_did_not_win_did_not_lose_to_each_other():
    """Issue 43, item 8: bilel won; amel and sami were each told they had lost to the
    other ("sami: 1 game, 0–1" and "amel: 1 game, 0–1")."""
    gs = [_three(winner=2)]
    r = record_against(gs, AMEL.public, SAMI.public)
    assert (r.games, r.wins, r.losses) == (0, 0, 0)
    assert (record_against(gs, SAMI.public, AMEL.public).games) == 0
    won = record_against(gs, BILEL.public, AMEL.public)
    assert (won.games, won.wins, won.losses) == (1, 1, 0)
    lost = record_against(gs, SAMI.public, BILEL.public)
    assert (lost.games, lost.wins, lost.losses) == (1, 0, 1)


def test_at_three_players_the_one_that_lost_the_match_is_behind_both_others():
    # sami resigned: no winner (the two others level), or a winner that is a third.
    for winner in (None, 2):
        gs = [_three(winner=winner, loser=1, ending="resigned")]
        r = record_against(gs, AMEL.public, SAMI.public)
        assert (r.games, r.wins, r.losses) == (1, 1, 0), winner
        back = record_against(gs, SAMI.public, AMEL.public)
        assert (back.games, back.wins, back.losses) == (1, 0, 1), winner


def test_games_against_a_bots_key_are_rated_apart_from_games_between_people(tmp_path):
    """Issue 42, case 1: a bot level's key is public, so anyone can sit under the
    expert's and lose to themselves.  Such games rate nobody among people: they are a
    pool of their own (the levels as anchors there), shown apart."""
    from support.audit import play
    from support.history import _sessions, write_log

    from chkobba_p2p.lowlevel import Identity
    from chkobba_p2p.observe.rating import bot_level, bot_seed

    expert = Identity.from_seed(bot_seed("expert", 1))
    assert bot_level(expert.public) == "expert"
    logs = tmp_path / "logs"
    for i in range(3):  # amel "beats the expert", seated under its key
        p = play(2, sessions=_sessions([AMEL, expert], ["amel", "expert"], f"farm-{i}", SHORT),
                 seed=20 + i)
        write_log(p, logs / f"farm-{i}.chklog", 0, f"2026-04-0{i + 1}T20:00:00+00:00")
    p = play(2, sessions=_sessions([AMEL, SAMI], ["amel", "sami"], "people", SHORT), seed=31)
    write_log(p, logs / "people.chklog", 0, "2026-04-09T20:00:00+00:00")
    gs = games(index_logs(logs))
    assert len(gs) == 4 and all(g.counted for g in gs)
    people = ratings(gs)
    assert set(people[2]) == {AMEL.public, SAMI.public}
    assert people[2][AMEL.public].games == 1  # only the game between people
    bots = ratings(gs, bots=True)
    assert set(bots[2]) == {AMEL.public, expert.public}
    assert bots[2][AMEL.public].games == 3
    # The well-known key with no voucher is no anchor (issue 42, bot vouchers): anyone
    # may have sat under it, so it is rated as whoever it was, never "about expert".
    assert bots[2][expert.public].anchor is None


def test_a_bot_anchors_only_where_its_tables_host_vouched_for_it(tmp_path):
    """Issue 42, bot vouchers: amel's own bot (a key derived from hers, her voucher in
    the log's header) is the expert's anchor; a voucher signed by someone else than the
    table's host (sami's, in amel's log), or for another key, makes no anchor."""
    from support.audit import play
    from support.history import _sessions, write_log

    from chkobba_p2p.observe.vouch import bot_identity, voucher

    mine = bot_identity(AMEL, "expert", 1)
    forged = bot_identity(AMEL, "expert", 2)
    logs = tmp_path / "logs"
    for i, (bot, signer) in enumerate(((mine, AMEL), (mine, AMEL), (forged, SAMI),
                                       (forged, AMEL))):
        # The last: amel's voucher, but for her first bot's key (not this seat's).
        key = mine.public if i == 3 else bot.public
        p = play(2, sessions=_sessions([AMEL, bot], ["amel", "expert"], f"vouch-{i}", SHORT),
                 seed=40 + i)
        write_log(p, logs / f"vouch-{i}.chklog", 0, f"2026-04-0{i + 1}T20:00:00+00:00",
                  bots=[{"key": key, "level": "expert",
                         "sig": voucher(signer, key, "expert")}])
    gs = games(index_logs(logs))
    assert len(gs) == 4 and all(g.counted for g in gs)
    assert [g.seats[1].vouched for g in sorted(gs, key=lambda g: g.date)] == \
        ["expert", "expert", None, None]
    # Without a voucher that checks, a seat is whoever it was: a person as far as
    # anyone can tell, rated among people (no anchor for whoever signs a claim).
    people = ratings(gs)[2]
    assert set(people) == {AMEL.public, forged.public}
    assert people[forged.public].anchor is None and people[forged.public].games == 2
    bots = ratings(gs, bots=True)[2]
    assert set(bots) == {AMEL.public, mine.public}
    assert bots[mine.public].anchor == "expert" and bots[mine.public].rating == 1720.0
    assert bots[AMEL.public].games == 2


def _log(gid: str, a: Seat, b: Seat, winner: int, signers=(0, 1)):
    from chkobba_p2p.observe.history import Log
    return Log(f"{gid}.chklog", gid, "2026-05-01T20:00:00+00:00", gid, 2, (a, b), VALID,
               None, "", "points", winner, (21, 9), 20, None, None, signers)


def test_sock_puppets_and_a_farmed_anchor_are_unrated_with_their_share():
    """Issue 42, case 1: 30 fresh keys each beaten once, and a level's public key beaten
    at the farmer's own tables, rate the farmer for nobody: the viewer never met those
    keys (met: seated in a log the viewer's key signed; a level's key: at a table the
    viewer hosted), and the puppets sat with nobody else."""
    from chkobba_p2p.lowlevel import Identity
    from chkobba_p2p.observe.history import standings
    from chkobba_p2p.observe.rating import bot_seed
    from chkobba_p2p.observe.vouch import bot_identity

    me, farmer = Seat("me", AMEL.public), Seat("farmer", SAMI.public)
    friend = Seat("friend", BILEL.public)
    # The farmer's "expert": its own puppet, which it vouches for at its own tables.
    expert = Seat("expert", Identity.from_seed(bytes([99]) * 32).public, "expert")
    # My own expert: a key derived from mine, vouched for at my tables.
    my_bot = Seat("expert", bot_identity(AMEL, "expert", 1).public, "expert")
    known = Seat("expert", Identity.from_seed(bot_seed("expert", 1)).public)
    puppets = [Seat(f"p{i}", Identity.from_seed(bytes([i + 1]) * 32).public)
               for i in range(30)]
    logs = [_log("met", me, farmer, 1), _log("friend", me, friend, 0),
            _log("friend-farmer", friend, farmer, 1)]
    logs += [_log(f"sock-{i}", farmer, p, 0) for i, p in enumerate(puppets)]
    logs += [_log(f"farm-{i}", farmer, expert, 0) for i in range(5)]
    logs += [_log(f"mine-{i}", me, my_bot, i % 2) for i in range(4)]  # me hosting
    logs += [_log(f"known-{i}", farmer, known, 0) for i in range(3)]  # no voucher
    gs = games(logs)
    people = standings(gs, [me.key])[2]
    f = people[farmer.key]
    assert (f.games, f.unmet, f.isolated) == (32, 30, 30) and f.unrated
    assert f.unmet_share == 30 / 32
    assert not people[me.key].unrated and people[me.key].unmet == 0
    assert not people[friend.key].unrated
    # A puppet itself: one match, against a key the viewer met: provisional, no more.
    assert people[puppets[0].key].rating.provisional
    # The puppeteer looking at its own folder met its puppets (it signed with them).
    own = standings(gs, [farmer.key])[2][farmer.key]
    assert (own.unmet, own.isolated, own.unrated) == (0, 0, False)
    # A viewer who met nobody: me and friend are unmet too, but sat with others.
    stranger = standings(gs, [])[2][farmer.key]
    assert (stranger.unmet, stranger.isolated) == (32, 30)
    # Against the bots: the expert counts at the viewer's own tables only.
    bots = standings(gs, [me.key], bots=True)[2]
    assert bots[farmer.key].unrated and bots[farmer.key].unmet == 8
    assert not bots[me.key].unrated and bots[me.key].unmet == 0
    assert not bots[expert.key].unrated and bots[expert.key].rating.anchor == "expert"
    assert bots[my_bot.key].rating.anchor == "expert"
    # The level's well-known key, unvouched: rated as whoever sat there, no anchor.
    assert bots[known.key].rating.anchor is None and bots[known.key].rating.rd > 110
    # The numbers are everyone's; only what is vouched for is the viewer's.
    assert bots[farmer.key].rating == standings(gs, [], bots=True)[2][farmer.key].rating


def test_the_ratings_say_who_is_unrated_for_this_viewer_in_english_and_french(
        folder, warm_cache, capsys, tmp_path, monkeypatch):
    path, _ = folder
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(data))
    # Nobody's identity here: every key is one this viewer never met.
    code, out, _ = _cli(capsys, "--ratings", str(path), "--json")
    pools = json.loads(out)
    assert code == 0 and all(r["unrated"] and r["unmet"] == r["games"] for r in pools["2"])
    _, text, _ = _cli(capsys, "--ratings", str(path), "--lang", "fr")
    assert re.search(r"NON CLASSÉ : \d+ sur \d+ contre des clés jamais rencontrées "
                     r"\(100 %\)", text)
    # amel's identity: amel signed with everyone in the folder, all are met.
    key = data / "identity.key"
    key.write_bytes(hashlib.sha256(b"history test/amel").digest())
    key.chmod(0o600)
    _, out, _ = _cli(capsys, "--ratings", str(path), "--json")
    pools = json.loads(out)
    assert {r["name"] for r in pools["2"]} == {"amel", "sami"}
    assert not any(r["unrated"] or r["unmet"] for n in ("2", "4") for r in pools[n])
    _, text, _ = _cli(capsys, "--ratings", str(path), "--lang", "en")
    assert "UNRATED:" not in text and "a key you met" in text


_CAST = [Seat(n, k) for n, k in (("amel", AMEL.public), ("sami", SAMI.public),
                                  ("bilel", BILEL.public), ("dora", DORA.public))]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(4)), st.integers(0, 1)), min_size=1,
                max_size=12), st.data())
def test_the_same_logs_in_any_order_with_any_header_dates_rate_the_same(played, data):
    """Issue 42, case 3: the supplier of the logs chooses their order and their header
    dates (unsigned); neither moves a rating, nor a standing."""
    from chkobba_p2p.observe.history import Log, standings

    def logs(dates):
        return [Log(f"g{i}.chklog", f"g{i}", d, f"g{i}", 2,
                    (_CAST[order[0]], _CAST[order[1]]), VALID, None, "", "points", w,
                    (21, 9), 20, None, None, (0, 1))
                for i, ((order, w), d) in enumerate(zip(played, dates, strict=True))]

    date = st.datetimes().map(lambda d: d.isoformat()) | st.text(max_size=12)
    first = logs(data.draw(st.lists(date, min_size=len(played), max_size=len(played))))
    second = data.draw(st.permutations(
        logs(data.draw(st.lists(date, min_size=len(played), max_size=len(played))))))
    assert ratings(games(second)) == ratings(games(first))
    assert standings(games(second), [AMEL.public]) == standings(games(first), [AMEL.public])


@pytest.mark.parametrize("lang, you", [("en", "you"), ("fr", "vous")])
def test_the_list_marks_which_player_is_you(capsys, monkeypatch, lang, you):
    """walk6 (bob's own home, fr): the list read ``carol (…) contre bob (…) contre robby
    (…)`` without saying which of them was "vous": the seat under one of this person's
    keys is marked, and only it."""
    from chkobba_cli.commands.history import show_games
    from chkobba_p2p.observe.history import Game, Log, Seat
    monkeypatch.setenv("COLUMNS", "200")
    seats = (Seat("carol", AMEL.public), Seat("bob", SAMI.public))
    won = Log("a.chklog", "a", "2026-12-04T18:00", "g1", 2, seats, VALID, "points", "",
              "points", 0, (11, 5), 4)
    t = Translator(lang)
    show_games([Game(won, ("a.chklog",))], t, mine={SAMI.public})
    out = capsys.readouterr().out.replace("\u00a0", " ")
    assert f"bob ({seats[1].fingerprint}, {you})" in out, out
    assert f"carol ({seats[0].fingerprint})" in out, out
    show_games([Game(won, ("a.chklog",))], t)  # nobody's keys: nobody marked
    assert f", {you})" not in capsys.readouterr().out.replace("\u00a0", " ")
