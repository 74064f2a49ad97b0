"""A proven cheat loses the match (PROTOCOL.md 12.7), in the client's words, in English
and French: ``chkobba history``'s result line, the headless ``result:`` line and the
honest player's end screen name the cheater's side as the loser."""

from __future__ import annotations

import functools

import pytest
from support.audit import play
from test_audit import _forge_take

from chkobba_cli.commands.history import result
from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.parts.stopped import stop_sentences
from chkobba_cli.tui.screens import dialogs
from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.game import rules as R
from chkobba_p2p.link.events import Outcome
from chkobba_p2p.observe.history import AuditCache, games, index_logs
from chkobba_p2p.transcript.events import TableReady


@functools.cache
def _cheat():
    """A 2-player match in which peer1 (seat 1) signs a capture the rules forbid."""
    return play(2, cheater=1, hook=_forge_take, seed=9, key=b"forfeit-words")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "host won: peer1 broke the rules (the audit convicts an entry peer1 signed)"),
    ("fr", "host : victoire, peer1 a enfreint les règles (l'audit condamne une entrée "
           "signée par peer1)"),
])
def test_history_says_the_cheater_lost(lang, said, tmp_path):
    played = _cheat()
    folder = tmp_path / "logs"
    folder.mkdir()
    for seat in (0, 1):
        played.write_log(folder / f"seat{seat}.chklog", seat=seat)
    (g,) = games(index_logs(folder, cache=AuditCache(tmp_path / "cache.json")))
    assert result(g, Translator(lang)) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "match over: peer1 broke the rules (an entry signed with that player's key); "
           "host wins"),
    ("fr", "partie terminée : peer1 a enfreint les règles (une entrée signée de sa clé) ; "
           "host gagne"),
])
def test_the_headless_result_line_names_the_winner(lang, said):
    s = _cheat().sessions[0]
    o = Outcome(0, s.table, None, aborted=s.aborted)
    assert (o.convicted, o.winner_side, o.concluded) == (1, 0, True)
    assert words(o, Translator(lang)) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "the game is over, and peer1's side loses the match."),
    ("fr", "la partie est finie, et le camp de peer1 la perd."),
])
def test_the_honest_players_end_screen_says_the_cheater_loses(app_session, lang, said):
    s = _cheat().sessions[0]
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2)
    ui.size = (24, 80)
    ui._show_event(TableReady(s.table, 0))
    assert s.aborted is not None
    (sentence,) = [text for _, text in stop_sentences(ui.view, s.aborted)]
    assert sentence.startswith("peer1 ") and sentence.endswith(said), sentence
    screen = " ".join(" ".join(
        line_text(x) for x in dialogs.over_lines(ui.view, Outcome(0, s.table, None,
                                                                  aborted=s.aborted),
                                                 None, 80)).split())
    assert said in screen, screen
