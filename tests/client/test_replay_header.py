"""The replay viewer's header at 80 columns and 4 players (issue 43, polish: it cut the
names to "pee…"): every side's total by its players' names, each name whole or cut as
the table cuts them, never below six characters, and the line within the screen, at
every step of a match, in English and French."""

from __future__ import annotations

import dataclasses
import re

import pytest
from support.audit import a_match

from chkobba_cli.tui.model.view import SHORTEST_NAME
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_p2p.timeline import build_timeline

NAMES = [("host", "peer1", "peer2", "peer3"),
         ("Mohamed-Aziz Ben Salah", "Khadija Trabelsi", "Yasmine Ben Amor", "Abdelkader")]


# Its tests share one worker (pytest-xdist's loadgroup): the module's costly fixture
# is then built once per run, not once on each worker.
pytestmark = pytest.mark.xdist_group("test_replay_header")


@pytest.fixture(scope="module")
def bodies():
    return a_match(4).sessions[0].bodies


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", NAMES)
def test_no_name_is_cut_below_six_characters_at_80_columns(bodies, lang, names):
    viewer = ReplayViewer(build_timeline(bodies), lang=lang)
    frames = viewer.tl.frames
    for i, f in enumerate(frames):  # the same match, played under these names
        frames[i] = dataclasses.replace(f, state=dataclasses.replace(f.state, names=names))
    seen = 0
    for at in range(len(frames)):
        viewer.at = at
        line = line_text(viewer.header(80))
        assert len(line) <= 80, line
        if not frames[at].state.totals:
            continue
        for name in names:  # each player named: whole, or cut to six characters at least
            assert name in line or any(name[:k] + "…" in line
                                       for k in range(SHORTEST_NAME - 1, len(name))), line
        for cut in re.finditer("…", line):  # and no cut shorter, whoever's
            before = line[:cut.start()]
            assert any(before.endswith(n[:k]) for n in names
                       for k in range(SHORTEST_NAME - 1, len(n))), line
        seen += 1
    assert seen > 10


@pytest.mark.parametrize("cols", [80, 120])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", NAMES)
def test_the_step_never_runs_into_the_names(bodies, cols, lang, names):
    """The walk read "step 13/174 Mohamed… & Yasmine… 0": one blank between the step and
    the first side's names.  Three at least, at every step."""
    viewer = ReplayViewer(build_timeline(bodies), lang=lang)
    frames = viewer.tl.frames
    for i, f in enumerate(frames):
        frames[i] = dataclasses.replace(f, state=dataclasses.replace(f.state, names=names))
    first = f"{names[0][:SHORTEST_NAME - 1]}"
    for at in range(len(frames)):
        viewer.at = at
        line = line_text(viewer.header(cols))
        assert len(line) <= cols, line
        if frames[at].state.totals:
            before = line[:line.index(first)]
            assert before.endswith("   ") and before.strip(), line
