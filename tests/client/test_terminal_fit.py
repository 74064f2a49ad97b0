"""Text commands fitted to the terminal at words (walk5, issue 43's closing walk): at 80
columns ``chkobba replay --review`` ran its lines past the edge and the terminal broke
them wherever it fell ("was worth 0." / "65 points more", "t" / "akes fewer cards", fr
"va" / "lait 0,52 point"); ``history --ratings`` and ``--luck`` the same ("personn" /
"e ne pouvait").  On a terminal each line is now broken at a space, a path after a "/";
into a pipe or a file, one line each, as before."""

from __future__ import annotations

import re
import sys
from dataclasses import replace

import pytest
from support.audit import play, played_once

from chkobba_cli.main import main
from chkobba_cli.support.term import NBSP, fit_text
from chkobba_p2p.game.rules import PRESETS


def _words(text: str) -> list[str]:
    """The text's words, a path's pieces joined again (a path breaks after a "/")."""
    return re.sub(r"/\s+", "/", text).split()


def test_fit_text_breaks_at_spaces_and_keeps_what_belongs_together():
    fr = ("      pourquoi : prend moins de carreaux pour les dinari (1 de moins) ; prend "
          "moins de cartes pour la carta (2 de moins) ; valait 0,52 point de plus")
    for width in range(30, 80):
        lines = fit_text(fr, width)
        assert all(len(x) <= width for x in lines), lines
        assert _words("\n".join(lines)) == fr.split()
        # A French closing mark never opens a line; a number keeps its unit.
        assert not any(x.lstrip().startswith((":", ";")) for x in lines), lines
        assert not any(x.rstrip().endswith("0,52") for x in lines), lines
        # The continuation is indented past the line's own indent.
        assert all(x.startswith("        ") for x in lines[1:]), lines
    path = "/a-folder-whose-name-is-long/chkobba-p2p/logs/20261207T124235Z-play-7a048e.chklog"
    lines = fit_text("log: " + path, 60)
    assert lines == ["log: /a-folder-whose-name-is-long/chkobba-p2p/logs/",
                     "  20261207T124235Z-play-7a048e.chklog"]
    # Glued words stay on one line, printed with a plain space; a line that fits keeps
    # the spaces that line its columns up.
    glued = f"vs erin{NBSP}(6124-d68d-8521-41f9)"
    assert fit_text("x " * 20 + glued, 40)[-1].strip() == "vs erin (6124-d68d-8521-41f9)"
    assert fit_text("  1682?  ±272   alice", 40) == ["  1682?  ±272   alice"]


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    return played_once(2, seed=5, key=b"fit-review").write_log(
        tmp_path_factory.mktemp("a-folder-whose-path-is-longer-than-the-screen-at-80") /
        "20261207T124235Z-play-7a048e.chklog")


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_replay_review_fits_the_terminal_at_words(log, monkeypatch, capsys, lang, columns):
    argv = ["replay", str(log), "--review", "--samples", "1", "--review-limit", "40",
            "--lang", lang]
    assert main(argv) == 0
    piped = capsys.readouterr().out
    assert max(len(x) for x in piped.splitlines()) >= 80  # lines a terminal would break
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(x) < columns for x in lines), [x for x in lines if len(x) >= columns]
    # The same words as into a pipe, none broken (the log's path whole, after a "/").
    assert _words(out) == _words(piped)
    assert str(log) in re.sub(r"/\s+", "/", out)


@pytest.fixture(scope="module")
def one_hand_log(tmp_path_factory):
    """A match of one hand (to 1 point): the account of luck says the same sentences over
    one hand as over four, and the coach grades a quarter of the decisions."""
    return play(2, seed=5, key=b"fit-review", rules=replace(PRESETS["tunisian"], target=1)
                ).write_log(tmp_path_factory.mktemp("a-folder-whose-path-is-longer-than-"
                                                    "the-screen-at-80") /
                            "20261207T124235Z-play-7a048e.chklog")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_history_luck_fits_the_terminal_at_words(one_hand_log, monkeypatch, capsys, lang):
    log = one_hand_log
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(log.parent / "cache"))
    argv = ["history", str(log.parent), "--luck", "--lang", lang]
    assert main(argv) == 0
    piped = capsys.readouterr().out
    assert max(len(x) for x in piped.splitlines()) >= 80  # lines a terminal would break
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert all(len(x) < 80 for x in out.splitlines()), out
    said = {"en": "nobody could stack the deck", "fr": "personne ne pouvait arranger"}[lang]
    assert said in " ".join(out.split())
    assert _words(out) == _words(piped)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_history_never_parts_a_name_from_its_fingerprint(monkeypatch, capsys, lang):
    """walk5 (fr, 4 players): "contre bot1 (6a6f-…, robot gourmand) & erin" then
    "(6124-d68d-8521-41f9)" on the next line: erin's key read as another seat's.  The
    glue survives the display filter; a name's own control characters do not."""
    from chkobba_cli.commands.history import _out, _seat
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.observe.history import Seat

    t = Translator(lang)
    bot = Seat("bot1", b"\x01" * 32, vouched="greedy")
    erin = Seat("erin", b"\x02" * 32)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    for pad in range(0, 30):
        _out(f"      {'x' * pad} {t('hi_vs')} {_seat(bot, t)} & {_seat(erin, t)}")
        lines = capsys.readouterr().out.splitlines()
        assert all(len(x) < 80 for x in lines), lines
        assert any(f"erin ({erin.fingerprint})" in x for x in lines), lines
        assert any(f"bot1 ({bot.fingerprint}, " in x for x in lines), lines
        assert "\xa0" not in "".join(lines)
    _out("    " + _seat(Seat("a\nVALID\x1b[2J", b"\x03" * 32), t))
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "\x1b" not in out, repr(out)
