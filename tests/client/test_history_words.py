"""``chkobba history`` read as a newcomer reads it (issue 43, polish): before the first
game (no data folder yet) it says there are no games yet and exits 0; on a terminal its
lines wrap at words at 80 columns ("[INCOMPLETE]" whole, never "[INCOMP" / "LETE]"); in a
pipe one match stays one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.history import AMEL, GROUP, audited_cache, built

from chkobba_cli.main import main


@pytest.mark.parametrize("lang, said", [
    ("en", "No matches yet: your matches will be listed here once you have played"),
    ("fr", "Aucune partie encore : vos parties seront listées ici une fois jouées")])
def test_history_before_the_first_game_says_so_and_exits_0(tmp_path, monkeypatch, capsys,
                                                           lang, said):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path / "never-played"))
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["history", "--lang", lang]) == 0
    out, err = capsys.readouterr()
    assert said in out and err == ""
    assert main(["history", "--json"]) == 0 and capsys.readouterr().out.strip() == "[]"
    # A folder the user names that is not there is still a mistake (status 2).
    assert main(["history", str(tmp_path / "nowhere"), "--lang", lang]) == 2


# Its tests share one worker (pytest-xdist's loadgroup) with the other readers of the
# history folder: its matches are played and audited once per run (support.history).
pytestmark = pytest.mark.xdist_group(GROUP)


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    """Real matches (tests/support/history.py), played once per run, copied into a folder
    whose path is longer than the screen at 80 columns, and their audits as history
    caches them (each case starts from a copy; history reads the copy's logs from it, the
    same bytes): the audits themselves are tests/observe/test_history.py's."""
    folder = tmp_path_factory.mktemp("a-folder-whose-path-is-longer-than-the-screen") / "logs"
    shutil.copytree(built(tmp_path_factory)[0], folder)
    return folder, audited_cache(tmp_path_factory)


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_history_lines_wrap_at_words_within_the_terminal(tmp_path, monkeypatch, capsys,
                                                         audited, lang, columns):
    folder, cache = audited
    (tmp_path / "cache").mkdir()
    shutil.copy(cache, tmp_path / "cache" / "history.json")
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # a terminal of that width
    assert main(["history", str(folder), "--lang", lang]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(x) < columns for x in lines), [x for x in lines if len(x) >= columns]
    incomplete = {"en": "[INCOMPLETE]", "fr": "[INCOMPLÈTE]"}[lang]  # the reader's words
    assert incomplete in out and "[INCOMP\n" not in out
    # A log's path is never cut at the terminal's edge (the folder's path here is longer
    # than the screen at 80): broken after a "/" only, its pieces joined are the path.
    for i, x in enumerate(lines):
        if x.lstrip().startswith(("log:", "journal :")):
            path = x.split(":", 1)[1].strip()
            j = i + 1
            while not path.endswith(".chklog"):
                assert path.endswith("/") or not path, lines[i:j + 1]
                path += lines[j].strip()
                j += 1
            assert path.startswith(str(folder)) and Path(path).exists(), lines[i:j]
    # At 4 players a side a line when the match's line does not fit: a name stays with
    # its fingerprint, "vs" opens the other side's line.
    four = [x for x in lines if "bilel (" in x or "dora (" in x]
    assert all(x.count("(") == x.count(")") for x in four), four
    if columns == 80:
        vs = {"en": "vs", "fr": "contre"}[lang]
        assert [x.split(" (")[0].strip() for x in four] == ["amel", f"{vs} sami"], four
    for verdict in ("[VALID]", "[INCOMPLETE]", "[INVALID]", "[INCOMPLÈTE]"):
        assert all(x.count("[") == x.count("]") for x in lines if verdict[:4] in x)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)  # a pipe: a match a line
    assert main(["history", str(folder), "--lang", lang]) == 0
    heads = [x for x in capsys.readouterr().out.splitlines() if x[:2] == "20"]
    assert heads and all(x.endswith("]") for x in heads), heads


@pytest.mark.parametrize("lang, counted", [("en", "and 3 copies by the bots"),
                                           ("fr", "et 3 copies des robots")])
def test_a_match_lists_the_persons_own_log_and_counts_the_bots_copies(
        tmp_path, monkeypatch, capsys, lang, counted):
    """A 4-player ``play`` writes the person's log and a copy per bot beside it: history
    lists the person's log, counts the bots' copies; --verbose and --json keep them all."""
    from support.audit import play
    from support.history import BILEL, DORA, SAMI, _sessions, write_log

    folder = tmp_path / "logs"
    four = [AMEL, SAMI, BILEL, DORA]
    p = play(4, sessions=_sessions(four, ["amel", "sami", "bilel", "dora"], "bots"), seed=3,
             stop_after=30)
    date = "2026-03-05T20:00:00+00:00"
    mine = write_log(p, folder / "20260305T200000Z-amel-0a0b0c.chklog", 0, date)
    for seat in (1, 2, 3):
        write_log(p, mine.with_name(f"{mine.stem}-bot{seat}.chklog"), seat, date)
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["history", str(folder), "--lang", lang]) == 0
    out = capsys.readouterr().out
    logs = [x for x in out.splitlines() if x.lstrip().startswith(("log:", "journal :"))]
    assert len(logs) == 1 and logs[0].endswith(mine.name), out
    assert counted in out and "-bot" not in out
    assert main(["history", str(folder), "--lang", lang, "--verbose"]) == 0
    out = capsys.readouterr().out
    assert out.count("-bot") == 3 and counted not in out
    assert main(["history", str(folder), "--json"]) == 0
    assert capsys.readouterr().out.count("-bot") >= 3  # every copy, for tools


@pytest.mark.parametrize("lang, about", [("en", "about expert"), ("fr", "environ le robot expert")])
def test_a_provisional_rating_against_the_bots_names_no_level(capsys, lang, about):
    """After one match against a bot the rating is provisional ("1675?"): it names no
    level yet; once settled (a small deviation) it reads against the levels."""
    from chkobba_cli.commands.history import _rating_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.observe.history import Standing
    from chkobba_p2p.observe.rating import ANCHORS, PROVISIONAL_RD, Rating

    t = Translator(lang)
    level = ANCHORS["expert"]
    early = Standing(Rating(level, rd=PROVISIONAL_RD + 150, games=1), games=1)
    settled = Standing(Rating(level, rd=PROVISIONAL_RD - 30, games=40), games=40)
    _rating_lines([(AMEL.public, "amel", early)], t, bots=True)
    out = capsys.readouterr().out
    assert f"{round(level)}?" in out and about not in out
    _rating_lines([(AMEL.public, "amel", settled)], t, bots=True)
    assert about in capsys.readouterr().out
