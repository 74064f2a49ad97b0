"""The replay viewer's verdict banner in the players' words: at 4 players the winning
side is two people, and the verb agrees with them ("hana & sami win"), in English and
French (was "wins" / "gagne")."""

from __future__ import annotations

import re

import pytest
from support.audit import a_match, play

from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_p2p.timeline import build_timeline


@pytest.mark.parametrize("lang, two, one", [
    ("en", r"a whole match: \S+ & \S+ win \d+-\d+", r"a whole match: \S+ wins \d+-\d+"),
    ("fr", r"une partie complète : \S+ & \S+ gagnent \d+-\d+",
     r"une partie complète : \S+ gagne \d+-\d+")])
def test_the_verdict_s_verb_agrees_with_a_team(lang, two, one):
    for players, want in ((4, two), (2, one)):
        played = a_match(players)
        viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang)
        banner = " ".join(line_text(x).strip() for x in viewer.banner(200))
        assert re.search(want, banner), banner


@pytest.mark.parametrize("lang, empty", [("en", "No hand scored yet."),
                                         ("fr", "Aucune manche comptée pour l'instant.")])
def test_the_score_sheet_says_when_no_hand_is_scored_yet(lang, empty):
    """Early in the first hand the score sheet (s) was a bare title on an empty page."""
    played = a_match(2)
    viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang)
    first = [line_text(x).strip() for x in viewer.sheet_lines(80)]
    assert first[-1] == empty, first
    viewer.at = len(viewer.tl.frames) - 1  # the end: every hand is on the sheet
    last = [line_text(x).strip() for x in viewer.sheet_lines(80)]
    assert empty not in last and len(last) > 2, last


def _interrupted_review(tmp_path, monkeypatch, argv=()) -> str:
    """What ``replay --review`` writes to a terminal's stderr when Ctrl-C comes at the
    third of ten decisions (exit 130)."""
    import io
    import sys

    import chkobba_cli.commands.replay as replay
    from chkobba_cli.main import main

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def review_records(records, *, progress, **kw):
        progress(3, 10)
        raise KeyboardInterrupt

    log = play(2, seed=21, key=b"replay-0").write_log(tmp_path / "game.chklog")
    err = Terminal()
    monkeypatch.setattr(replay, "review_records", review_records)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["replay", str(log), "--review", *argv]) == 130  # (--quiet: no bar at all)
    return err.getvalue()


def test_ctrl_c_during_a_review_says_interrupted_on_a_line_of_its_own(tmp_path, monkeypatch):
    """Issue 43: Ctrl-C in ``replay --review`` ran the words together: the progress
    bar's line was never ended ("... 3/10 decisionsinterrupted")."""
    said = _interrupted_review(tmp_path, monkeypatch)
    assert "3/10 decisions\ninterrupted\n" in said, repr(said)


@pytest.mark.parametrize("argv, env", [(["--lang", "fr"], {}),
                                       ([], {"LC_ALL": "fr_FR.UTF-8"})])
def test_the_reviews_progress_and_interrupted_are_said_in_french(tmp_path, monkeypatch,
                                                                 argv, env):
    """walk5: under a French locale (or --lang fr) the review's bar and Ctrl-C's word
    were English ("reviewing ███░░ 28/111 decisions" / "interrupted")."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    said = _interrupted_review(tmp_path, monkeypatch, argv)
    assert "\rrevue " in said and "3/10 décisions\ninterrompu\n" in said, repr(said)
    assert "reviewing" not in said and "interrupted" not in said, repr(said)


@pytest.mark.parametrize("cols", [80, 120])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_key_the_viewer_has_no_use_for_is_said_with_every_key(lang, cols):
    """walk6 (fr, replay --view at 80x24): ? said "cette touche ne fait rien ici :" and
    the keys after it, cut at the edge ("… Début/Fin · s"): q to quit was lost.  The
    note then takes a row above the keys when both do not fit one."""
    viewer = ReplayViewer(build_timeline(play(2, seed=1, key=b"k").sessions[0].bodies),
                          lang=lang)
    viewer.hint = viewer.t("hint_key_view")
    rows = [line_text(r) for r in viewer.footer_rows(cols)]
    assert all(len(r) <= cols for r in rows), rows
    said = " ".join(" ".join(rows).split())
    assert viewer.t("hint_key_view") in said and viewer.t("keys_replay") in said, rows
    viewer.hint = None
    assert [line_text(r).strip() for r in viewer.footer_rows(cols)] == [
        viewer.t("keys_replay")]
