""""Is it rigged?" on the end screen (issue 43): the box offers ``l``; ``l`` computes the
account of luck against play off the screen's thread (saying so meanwhile) and shows it
in the box, every sentence whole at 80x24 and 120x40, in English and French; ``l`` again
goes back.  On a real log of an in-process match."""

from __future__ import annotations

import threading

import pytest
from screenshot import screen_text
from support.audit import played_once

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.model.luckview import LuckAccount
from chkobba_cli.words.i18n import Translator
from chkobba_cli.words.luck import account
from chkobba_p2p._shell.peer import Lobby, Outcome
from chkobba_p2p.transcript import events as S

SAMPLES = 8
WORDS = {"en": ("l: is it rigged? luck against play", "Luck: you were dealt cards worth",
                "Auditing the log"),
         "fr": ("l : est-ce truqué ? chance et jeu", "Chance : vous avez reçu des cartes",
                "Audit du journal")}



@pytest.fixture(scope="module")
def log(tmp_path_factory):
    return played_once(2, seed=1, key=b"luck1").write_log(
        tmp_path_factory.mktemp("luck") / "m.chklog")


def _flat(text: str) -> str:
    rows = [r[r.index("│") + 1:r.rindex("│")] if r.count("│") >= 2 else r.split("│")[0]
            for r in text.replace("|", "│").splitlines()]
    return " ".join(" ".join(rows).split())


def _ended(log, lang: str) -> TuiApp:
    ui = TuiApp(kind="play", lang=lang, seat=0, players=2, log_path=log)
    ui.luck = LuckAccount(lang, ui.invalidate, in_process=True, samples=SAMPLES)
    ui.state = ui.state.apply(Lobby((("host", "aa"), ("peer1", "bb")))).apply(
        S.HandStarted(1, 0))
    ui.finished = True
    ui.outcome = Outcome(0, None, None, done=S.MatchDone(0, (11, 4), 3))
    return ui


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_l_on_the_end_screen_shows_the_account_of_luck_against_play(app_session, log, size,
                                                                      lang):
    ui = _ended(log, lang)
    offer, dealt, reading = WORDS[lang]
    before = screen_text(ui, *size)
    assert offer in _flat(before) and dealt not in before, before
    # While the account is computed (a thread that has not ended): the box says so.
    ui.luck.thread = threading.Thread(target=lambda: None)
    ui.toggle_luck()
    waiting = _flat(screen_text(ui, *size))
    assert reading in waiting and dealt not in waiting, waiting
    ui.luck.thread = None
    thread = ui.luck.start(log)
    assert thread is not None
    thread.join(120)
    assert ui.luck.lines is not None and not ui.luck.failed
    expected = account(log, Translator(lang), workers=0, samples=SAMPLES)
    shown = _flat(screen_text(ui, *size))
    for sentence in expected:  # every sentence whole, wrapped inside the box
        assert sentence in shown, (sentence, screen_text(ui, *size))
    assert offer not in shown
    ui.toggle_luck()  # back to the result, the account kept for the next time
    assert offer in _flat(screen_text(ui, *size)) and ui.luck.lines == expected
    assert ui.luck.start(log) is None  # computed once


def test_an_unreadable_log_says_so_with_the_command(app_session, tmp_path):
    bad = tmp_path / "bad.chklog"
    bad.write_bytes(b"not a log")
    ui = _ended(bad, "en")
    ui.toggle_luck()
    ui.luck.thread.join(30)
    flat = _flat(screen_text(ui, 24, 80))
    assert ui.luck.failed and "could not be audited here" in flat
    assert "chkobba replay --luck" in flat and "bad.chklog" in flat
