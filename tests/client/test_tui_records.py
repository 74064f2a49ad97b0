"""The end screen, the lobby and ``chkobba history`` count the same matches the same way
(issue 43, item 7): our record against each player of another side, every counted match
of the logs where the two sat on opposite sides, at 2, 3 and 4 players -- no series that
restarts after a match of another lineup, no count read before the match that just ended
is in it -- and the end screen says what it counts.  Read off the whole screen
(:mod:`screenshot`) at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import re
import shutil
import threading

import pytest
import trio
from screenshot import screen_text
from support.history import AMEL, BILEL, DORA, GROUP, SAMI, audited_cache, built

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.model.past import PastGames, record_text
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.known import KnownPlayers
from chkobba_p2p._shell.peer import Lobby, Outcome
from chkobba_p2p.observe.audit import VALID
from chkobba_p2p.observe.history import (
    AuditCache,
    Game,
    Log,
    Seat,
    record_against,
)
from chkobba_p2p.transcript import events as S

NAMES = ("amel", "sami", "bilel", "dora")
IDS = (AMEL, SAMI, BILEL, DORA)
def RECORD(name: str) -> re.Pattern[str]:  # noqa: N802 (a pattern, as a constant reads)
    return re.compile(rf"{name} ?: \d+ (match|partie)")


COUNTS = {"en": "every counted match in your logs", "fr": "toutes les parties comptées"}


# Its tests share one worker (pytest-xdist's loadgroup) with the other readers of the
# history folder: its matches are played and audited once per run (support.history).
pytestmark = pytest.mark.xdist_group(GROUP)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Real matches: amel and sami at 2 players, then the four of them at 4 (amel &
    bilel against sami & dora), between matches of the two (tests/support/history.py)."""
    return built(tmp_path_factory)[0]


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    """The folder's logs audited once, as the cache the screen and history both keep:
    each test starts from a copy of it (:func:`_cache`), so that the audits, which other
    tests check (tests/observe/test_history.py), are paid once, not by every case."""
    return audited_cache(tmp_path_factory)


def _cache(audited, tmp_path) -> AuditCache:
    """This test's copies of the audited cache: the screen's, and history's (in
    ``CHKOBBA_CACHE_DIR``, as :func:`_history` sets it)."""
    (tmp_path / "cache").mkdir(exist_ok=True)
    shutil.copy(audited, tmp_path / "cache" / "history.json")
    shutil.copy(audited, tmp_path / "tui-cache.json")
    return AuditCache(tmp_path / "tui-cache.json").load()



def _read(past: PastGames) -> None:
    """Wait for the screen's own reading of the logs (its thread) to end."""
    for thread in threading.enumerate():
        if thread.name == "past-games":
            thread.join(120)
    assert not past.reading and past.games is not None


def _lobby(players: int) -> Lobby:
    ids = IDS[:players]
    return Lobby(tuple((n, i.fingerprint) for n, i in zip(NAMES, ids, strict=False)),
                 keys=tuple(i.public for i in ids))


def _ended(past: PastGames, players: int, seat: int, lang: str, **kw) -> TuiApp:
    ui = TuiApp(kind="join", lang=lang, seat=seat, players=players, past=past, **kw)
    ui.state = ui.state.apply(_lobby(players)).apply(S.HandStarted(1, 0))
    ui.finished = True
    ui.outcome = Outcome(0, None, None,
                         done=S.MatchDone(0, (11,) + (4,) * (2 if players == 3 else 1), 3))
    return ui


def _flat(text: str) -> str:
    """The screen's words, a box's inside alone where a box is (the table behind it
    shows at its left), its frame and line ends gone (a sentence may wrap)."""
    # (A frame drawn in ASCII once an --ascii screen was built in this process: "|".)
    rows = [r[r.index("│") + 1:r.rindex("│")] if r.count("│") >= 2 else r.split("│")[0]
            for r in text.replace("|", "│").splitlines()]  # one bar: the events pane's
    return " ".join(" ".join(rows).split())


def _history(capsys, monkeypatch, tmp_path, folder, me, name: str, lang: str) -> str:
    from chkobba_cli.main import main
    from chkobba_p2p.wire.logfile import write_private

    data = tmp_path / f"data-{name}"
    data.mkdir(exist_ok=True)
    write_private(data / "identity.key", me.seed)
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(data))
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["history", str(folder), "--with", name, "--lang", lang]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players, seat", [(2, 1), (4, 1), (4, 0)])
def test_the_end_screen_the_lobby_and_history_count_alike(
        app_session, folder, audited, tmp_path, capsys, monkeypatch, size, lang, players,
        seat):
    past = PastGames(folder, cache=_cache(audited, tmp_path))
    ui = _ended(past, players, seat, lang)
    _read(past)
    text = screen_text(ui, *size)
    flat = _flat(text)
    assert COUNTS[lang] in flat and "chkobba history" in flat, text
    me = IDS[seat]
    t = Translator(lang)
    opponents = [s for s in range(players) if s % 2 != seat % 2]
    for other in opponents:
        r = record_against(past.games, me.public, IDS[other].public)
        said = record_text(t, NAMES[other], r)
        assert said in flat, (said, text)
        # The lobby of the next match says the same of a known player...
        known = KnownPlayers(tmp_path / "known")
        known.remember([(NAMES[other], IDS[other].public)])
        lobby = TuiApp(kind="join", lang=lang, seat=seat, players=players, past=past,
                       known=known, rematch=True)
        _read(past)
        lobby.state = lobby.state.apply(_lobby(players))
        assert said in _flat(screen_text(lobby, *size))
        if size != (24, 80):
            continue  # history's words do not depend on the screen's size
        # ... and so does history, with this user's key, whatever else it lists.
        out = _history(capsys, monkeypatch, tmp_path, folder, me, NAMES[other], lang)
        n_games = t("record_vs_1" if r.games == 1 else "record_vs", name="X", n=r.games,
                    wins=r.wins, losses=r.losses).split("X", 1)[1].lstrip(" :")
        assert f"{NAMES[other]} ({IDS[other].fingerprint})" in out and n_games in out, out
    # The 2-player matches of amel and sami before and after the 4-player one: all of
    # them count (a series used to restart after the 4-player match).
    if players == 2:
        two = [g for g in past.games if g.counted and g.players == 2]
        r = record_against(past.games, SAMI.public, AMEL.public)
        assert r.games > len(two) - 1 >= 1


@pytest.mark.parametrize("lang, reading", [
    ("en", "Counting the matches in your logs, this one included…"),
    ("fr", "On compte les parties de vos journaux, celle-ci comprise…")])
def test_no_count_shows_before_the_match_just_ended_is_read(app_session, folder, audited,
                                                            tmp_path, lang, reading):
    past = PastGames(folder, cache=_cache(audited, tmp_path))
    ui = _ended(past, 2, 1, lang)
    _read(past)
    past._running = True  # the match ended: its log is being read (PastGames.refresh)
    text = screen_text(ui)
    assert reading in _flat(text) and not RECORD("amel").search(text), text
    assert past.record_against(SAMI.public, AMEL.public) is None  # nor in a lobby
    past._running = False
    assert reading not in _flat(screen_text(ui))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
def test_at_three_players_each_other_seat_is_counted_apart(app_session, tmp_path, lang, size):
    """bilel won at 3: amel's end screen counts her match against bilel and none against
    sami (neither lost to the other), as the lobby and history do."""
    amel, sami, bilel = (i.public for i in IDS[:3])
    seats = (Seat("amel", amel), Seat("sami", sami), Seat("bilel", bilel))
    past = PastGames(tmp_path / "none")
    ui = _ended(past, 3, 0, lang)
    _read(past)
    past.games = [Game(Log("m.chklog", "d", "2026-03-01T20:00:00Z", "g", 3, seats, VALID,
                           None, "", "points", 2, (4, 6, 11), 5))]
    flat = _flat(screen_text(ui, *size))
    t = Translator(lang)
    assert record_text(t, "bilel", past.record_against(amel, bilel)) in flat, flat
    assert not RECORD("sami").search(flat) and COUNTS[lang] in flat


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_end_screen_counts_the_match_that_just_ended(app_session, folder, tmp_path,
                                                         size, lang):
    """The end screen shows while the peer still runs (its connections open for the
    rematch): the logs read when the screen opened miss the match just played, whose log
    is complete on disk by then.  The walk saw "Sami : 1 partie, 1–0" there while
    ``history --with Sami`` said 2 games."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(folder / "two-0.chklog", logs)
    past = PastGames(logs, cache=AuditCache(tmp_path / "tui-cache.json"))
    ui = TuiApp(kind="play", lang=lang, seat=1, players=2, past=past)
    ui.state = ui.state.apply(_lobby(2)).apply(S.HandStarted(1, 0))
    _read(past)
    before = past.record_against(SAMI.public, AMEL.public)
    assert before is not None and before.games == 1
    # The match ends: its log is on disk when the peer asks about a rematch.
    shutil.copy(folder / "two-1.chklog", logs)
    trio.run(ui.decide_rematch, Outcome(1, None, None, done=S.MatchDone(0, (11, 4), 3)))
    _read(past)
    r = record_against(past.games, SAMI.public, AMEL.public)
    assert r.games == 2
    text = screen_text(ui, *size)
    assert record_text(Translator(lang), "amel", r) in _flat(text), text


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, known, you", [
    ("en", "known", "you vs amel: {n} matches, you {w}–{lo}"),
    ("fr", "connu", "vous contre amel : {n} parties, vous {w}–{lo}")])
@pytest.mark.parametrize("players", [2, 4])
def test_the_joiners_lobby_says_the_record_from_the_joiners_side(
        app_session, folder, audited, tmp_path, size, lang, known, you, players):
    """The walk read "connu · Amel : 1 partie, 0–1" at the joiner, the joiner's own score
    though it read as Amel's: the line names who it is about."""
    past = PastGames(folder, cache=_cache(audited, tmp_path))
    book = KnownPlayers(tmp_path / "known")
    book.remember([("amel", AMEL.public)])
    lobby = TuiApp(kind="join", lang=lang, seat=1, players=players, past=past, known=book)
    _read(past)
    lobby.state = lobby.state.apply(_lobby(players))
    r = record_against(past.games, SAMI.public, AMEL.public)
    assert r.games > 1 and r.wins != r.losses  # a count that would read either way
    flat = _flat(screen_text(lobby, *size))
    assert f"{known} · " + you.format(n=r.games, w=r.wins, lo=r.losses) in flat, flat


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, lost, none", [
    ("en", "you vs bilel: 1 match, you 0–1",
     "you vs sami: no match decided between you yet (a match the third player won "
     "decides nothing between the other two)"),
    ("fr", "vous contre bilel : 1 partie, vous 0–1",
     "vous contre sami : aucune partie encore décidée entre vous (une partie gagnée par "
     "le troisième joueur ne départage pas les deux autres)")])
def test_after_three_players_the_end_screen_says_why_the_other_loser_has_no_record(
        app_session, tmp_path, size, lang, lost, none):
    """The walk at 3 players: bilel won, and amel's end screen named bilel alone; she
    looked for sami's line.  It is there, saying why it counts nothing."""
    past = PastGames(tmp_path / "none", cache=AuditCache(tmp_path / "tui-cache.json"))
    ui = _ended(past, 3, 0, lang)
    _read(past)
    names = ("amel", "sami", "bilel")
    seats = tuple(Seat(n, i.public) for n, i in zip(names, (AMEL, SAMI, BILEL), strict=True))
    past.games = [Game(Log("m.chklog", "d", "2026-03-01T20:00:00Z", "g", 3, seats, VALID,
                           None, "", "points", 2, (4, 6, 11), 5))]
    flat = _flat(screen_text(ui, *size))
    assert lost in flat and none in flat, flat
