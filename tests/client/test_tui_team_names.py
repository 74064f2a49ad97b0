"""Whose score is whose: at 4 players a team is named by its players ("hana & sami"),
never "side 1", wherever a screen is seen from no seat (the replay viewer, a spectator)
or a page (the HTML replay); at 3 players the totals say whose each is ("amel 5, bot1 3,
bot2 0"), the final score too ("11 (bot1 7, bot2 3)"), in English and French."""

from __future__ import annotations

import io
import re

import pytest
from support.audit import Played, a_match

from chkobba_cli.outputs.commentary import Commentary
from chkobba_cli.outputs.replay_html import render_html
from chkobba_cli.tui.model.view import TableView
from chkobba_cli.tui.parts.narration import EventLog
from chkobba_cli.tui.parts.render import CardStyle, line_text
from chkobba_cli.tui.screens.dialogs import over_lines
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_cli.tui.screens.table import header_line
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import HandScored, MatchDone, Outcome, TableState
from chkobba_p2p.game.cards import FigureConvention
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.timeline import build_timeline


def _played(players: int = 4) -> Played:
    """A match at 4 (or 3) players, played once for the tests that only read it (its
    bodies, seats, log): playing it is most of their time."""
    return a_match(players)


def _text(lines) -> str:
    return "\n".join(line_text(x) for x in lines)


def _view(state: TableState, lang: str = "en") -> TableView:
    return TableView(state, Translator(lang), CardStyle(FigureConvention.TUNISIAN, True))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_replay_viewer_names_each_team_by_its_players(lang):
    played = _played()
    names = [s.name for s in played.sessions[0].table.seats]
    teams = (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")
    viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang)
    for at in (1, len(viewer.tl.frames) // 2, len(viewer.tl.frames) - 1):
        viewer.at = at
        view = viewer.view()
        assert (view.side_name(0), view.side_name(1)) == teams
        head = line_text(viewer.header(80))
        assert len(head) <= 80
        totals = viewer.tl.frames[at].state.totals
        if totals:  # the totals by the teams' names within 80 columns (cut if need be)
            assert head.endswith(f" {totals[1]} ") and f" {totals[0]}  " in head, head
            if lang == "en":  # shorter words: room for the whole names
                assert f"{teams[0]} {totals[0]}  {teams[1]} {totals[1]}" in head, head
            else:
                assert re.search(rf"{names[0][:3]}\S* & {names[2][:3]}\S* {totals[0]}", head)
        assert "side 1" not in head and "camp 1" not in head
        left, right = viewer.screen(24, 80)
        body = "".join(text for _, text in left + right)
        assert "side 1" not in body and "camp 1" not in body
        if at == len(viewer.tl.frames) - 1:  # the captures and the scoring, by name
            assert t_cap(lang, teams[0]) in body.replace("\n", " "), body


def t_cap(lang: str, team: str) -> str:
    return f"{team} captured:" if lang == "en" else f"pris par {team} :"


def test_long_team_names_are_cut_to_fit_the_header_but_keep_the_totals():
    played = _played()
    state = build_timeline(played.sessions[0].bodies).frames[-1].state
    long = ("a" * 32, "b" * 32, "c" * 32, "d" * 32)
    view = _view(state.__class__(**{**state.__dict__, "names": long}))
    head = line_text(header_line(view, "Chkobba · hand 3 · target 11", 80))
    assert len(head.rstrip()) <= 80
    assert re.search(rf"a+… & c+… {state.totals[0]}  b+… & d+… {state.totals[1]}", head), head


def test_a_spectator_s_events_name_the_teams_and_three_totals_say_whose():
    for players, check in ((4, r"\S+ & \S+ \d+ - \S+ & \S+ \d+; totals \d+ - \d+"),
                           (3, r"totals \S+ \d+, \S+ \d+, \S+ \d+")):
        played = _played(players)
        state = build_timeline(played.sessions[0].bodies).frames[-1].state
        view = _view(state)
        log = EventLog()
        for ev in state.scored:
            log.narrate(ev, view)
        text = " ".join(line_text(x) for x in log.lines)
        assert re.search(check, text), text
        assert "side 1" not in text


@pytest.mark.parametrize("lang, won, lost", [
    ("en", "You win 11 (peer1 7, peer2 3)!", "peer1 wins 11 (you 7, peer2 3)"),
    ("fr", "Vous gagnez 11 (peer1 7, peer2 3) !", "peer1 gagne 11 (vous 7, peer2 3)")])
def test_a_three_player_end_says_whose_score_is_whose(lang, won, lost):
    played = _played(3)
    seat0 = TableState().apply_all(played.events[0])
    assert seat0.seat == 0 and seat0.players == 3
    for winner, want in ((0, won), (1, lost)):
        out = Outcome(0, played.sessions[0].table, None,
                      done=MatchDone(winner, (11, 7, 3) if winner == 0 else (7, 11, 3), 4))
        text = _text(over_lines(_view(seat0, lang), out, None, 78))
        assert want in text, text
        assert all(len(line) <= 80 for line in text.splitlines())
    assert _view(seat0).score((5, 1), 0) == "5-1"  # two sides: no names needed


def test_the_spectator_s_text_commentary_says_whose_points_and_totals_are_whose():
    played = _played(3)
    names = [s.name for s in played.sessions[0].table.seats]
    out = io.StringIO()
    narrator = Commentary(out, lang="en")
    obs = Observer()
    for body in played.sessions[0].bodies:
        for ev in obs.feed(body):
            narrator(ev)
    text = out.getvalue()
    hands = [line for line in text.splitlines() if " scored: " in line]
    assert hands and all(re.search(
        rf"{names[0]} \d+, {names[1]} \d+, {names[2]} \d+ \(totals {names[0]} \d+, "
        rf"{names[1]} \d+, {names[2]} \d+\)", line) for line in hands), hands
    over = [line for line in text.splitlines() if line.startswith("match over")]
    assert over and re.search(r"wins \d+ \(\S+ \d+, \S+ \d+\)", over[0]), over


@pytest.mark.parametrize("lang, verb", [("en", "win the match"), ("fr", "gagnent la partie")])
def test_the_html_page_names_the_teams_and_their_verb_agrees(tmp_path, lang, verb):
    played = _played()
    log = played.write_log(tmp_path / "four.chklog")
    names = [s.name for s in played.sessions[0].table.seats]
    page = render_html(audit_log(log), lang=lang)
    verdict = re.sub(r"<[^>]+>", "", page.split('<section id="verdict"')[1].split(
        "</section>")[0]).replace("&amp;", "&")
    # The verdict names the winners (the score tables' columns stay "team 1": two whole
    # names a column would not fit a phone, and the players' table says who is in which).
    assert "team 1" not in verdict and "équipe 1" not in verdict, verdict
    assert re.search(rf"({names[0]} & {names[2]}|{names[1]} & {names[3]}) {verb}", verdict)


def test_the_html_page_says_whose_three_totals_are_whose(tmp_path):
    played = _played(3)
    log = played.write_log(tmp_path / "three.chklog")
    page = re.sub(r"<[^>]+>", "", render_html(audit_log(log), lang="en"))
    assert re.search(r"wins the match, \S+ \d+ – \S+ \d+ – \S+ \d+\.", page), page


def test_a_hand_scored_event_keeps_its_totals_in_seat_order():
    """The words follow the engine's order of sides (the data), whatever the names."""
    played = _played(3)
    state = build_timeline(played.sessions[0].bodies).frames[-1].state
    ev = state.scored[0]
    assert isinstance(ev, HandScored)
    words = _view(state).totals_words(ev.totals)
    names = [s.name for s in played.sessions[0].table.seats]
    assert words == ", ".join(f"{n} {x}" for n, x in zip(names, ev.totals, strict=True))


@pytest.mark.parametrize("lang, want", [("en", r"\S+ won \d+ \(\S+ \d+, \S+ \d+\)"),
                                        ("fr", r"\S+ : victoire \d+ \(\S+ \d+, \S+ \d+\)")])
def test_the_history_says_whose_three_totals_are_whose(tmp_path, lang, want):
    from chkobba_cli.commands.history import result
    from chkobba_p2p.observe.history import games, index_logs

    played = _played(3)
    folder = tmp_path / "logs"
    folder.mkdir()
    played.write_log(folder / "three.chklog")
    (game,) = games(index_logs(folder))
    text = result(game, Translator(lang))
    assert re.fullmatch(want, text), text
    totals = played.sessions[0].done.totals  # type: ignore[union-attr]
    w = played.sessions[0].done.winner_side  # type: ignore[union-attr]
    assert text.split()[0] == played.sessions[0].table.seats[w].name
    assert f" {totals[w]} (" in text


def test_the_scoring_box_keeps_the_teams_apart_and_fits_80_columns():
    from chkobba_cli.tui.screens.dialogs import DIALOG_TEXT, score_dialog_lines

    played = _played()
    state = build_timeline(played.sessions[0].bodies).frames[-1].state
    names = [s.name for s in played.sessions[0].table.seats]
    lines = [line_text(x) for x in score_dialog_lines(_view(state), state.scored[0])]
    head = next(line for line in lines if f"{names[0]} & {names[2]}" in line)
    assert re.search(rf"{names[0]} & {names[2]}  +{names[1]} & {names[3]}", head), head
    for three in (False, True):
        long = tuple(ch * 32 for ch in "abcd")
        shown = _view(state.__class__(**{**state.__dict__, "names": long}))
        if three:
            p3 = _played(3)
            st3 = build_timeline(p3.sessions[0].bodies).frames[-1].state
            shown = _view(st3.__class__(**{**st3.__dict__, "names": long[:3]}))
            scored = st3.scored[0]
        else:
            scored = state.scored[0]
        box = [line_text(x) for x in score_dialog_lines(shown, scored)]
        assert all(len(line.rstrip()) <= DIALOG_TEXT for line in box), box
        assert any("a" * 3 in line and "…" in line for line in box), box
