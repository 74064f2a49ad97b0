"""The replay viewer's verdict banner in the players' words: at 4 players the winning
side is two people, and the verb agrees with them ("hana & sami win"), in English and
French (was "wins" / "gagne")."""

from __future__ import annotations

import re

import pytest
from test_audit_support import play

from chkobba_cli.tui.render import line_text
from chkobba_cli.tui.replay import ReplayViewer
from chkobba_p2p.timeline import build_timeline


@pytest.mark.parametrize("lang, two, one", [
    ("en", r"a whole match: \S+ & \S+ win \d+-\d+", r"a whole match: \S+ wins \d+-\d+"),
    ("fr", r"une partie complète : \S+ & \S+ gagnent \d+-\d+",
     r"une partie complète : \S+ gagne \d+-\d+")])
def test_the_verdict_s_verb_agrees_with_a_team(lang, two, one):
    for players, want in ((4, two), (2, one)):
        played = play(players, seed=3, key=b"replay-words")
        viewer = ReplayViewer(build_timeline(played.sessions[0].bodies), lang=lang)
        banner = " ".join(line_text(x).strip() for x in viewer.banner(200))
        assert re.search(want, banner), banner
