"""``chkobba replay --review`` is bounded (issue 42, item 8): on a long log it grades the
first :data:`~chkobba_p2p.observe.review.DEFAULT_LIMIT` decisions unless told otherwise, says
where it stopped and how to go on, and off a terminal prints its progress as it goes."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from support.audit import play

from chkobba_cli.main import main
from chkobba_cli.words import coach
from chkobba_p2p.game.rules import PRESETS
from chkobba_p2p.observe.audit import EXIT_VALID
from chkobba_p2p.observe.review import DEFAULT_LIMIT

# Its tests share one worker (pytest-xdist's loadgroup): the module's costly fixture
# is then built once per run, not once on each worker.
pytestmark = pytest.mark.xdist_group("test_review_limit")


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> Path:
    """A 2-player match of greedy bots to 230 points: some 60 hands, over 2,000
    decisions (a match to 21 has a few hundred)."""
    played = play(2, rules=replace(PRESETS["tunisian"], target=230), seed=3, key=b"long-0")
    return played.write_log(tmp_path_factory.mktemp("long") / "long.chklog")


def test_a_long_review_stops_at_the_limit_and_says_so(long_log, tmp_path, capsys):
    grades = tmp_path / "review.json"
    assert main(["replay", str(long_log), "--review", "--samples", "1",
                 "--json", str(grades)]) == EXIT_VALID
    out, err = capsys.readouterr()
    data = json.loads(grades.read_text(encoding="utf-8"))
    assert data["decisions"] > DEFAULT_LIMIT == 2000, data["decisions"]
    assert len(data["grades"]) == data["graded"] == data["limit"] == DEFAULT_LIMIT
    total = data["decisions"]
    assert (f"the review stopped at its limit: the first 2000 of {total} decisions graded "
            f"(--review-limit N grades more, --review-limit 0 every one)") in out
    # The summaries count what was graded.
    assert sum(s["decisions"] for s in data["summaries"]) == DEFAULT_LIMIT
    # Off a terminal (capsys is none), the progress comes as lines on stderr: the first
    # decision, and the last of the limit.
    lines = re.findall(r"^reviewing: (\d+)/(\d+) decisions graded$", err, re.M)
    assert lines[0] == ("1", "2000") and lines[-1] == ("2000", "2000"), err


def test_review_limit_raises_lowers_or_lifts_the_cap(long_log, tmp_path, capsys):
    grades = tmp_path / "review.json"
    assert main(["replay", str(long_log), "--review", "--samples", "1", "--quiet",
                 "--review-limit", "50", "--json", str(grades)]) == EXIT_VALID
    data = json.loads(grades.read_text(encoding="utf-8"))
    assert len(data["grades"]) == 50 and data["limit"] == 50
    # --quiet prints the verdict alone; that the review was cut short still shows.
    assert "the first 50 of" in capsys.readouterr().err
    assert main(["replay", str(long_log), "--review", "--samples", "1", "--quiet",
                 "--review-limit", "0", "--json", str(grades)]) == EXIT_VALID
    data = json.loads(grades.read_text(encoding="utf-8"))
    assert len(data["grades"]) == data["decisions"] > DEFAULT_LIMIT and data["limit"] is None
    assert "stopped at its limit" not in capsys.readouterr().out
    assert main(["replay", str(long_log), "--review", "--review-limit", "-1"]) == 2
    assert "--review-limit must be 0" in capsys.readouterr().err


def test_progress_off_a_terminal_is_a_line_every_few_seconds():
    stream = io.StringIO()
    now = [0.0]
    progress = coach.Progress(stream, every=5.0, clock=lambda: now[0])
    for done in range(1, 101):
        now[0] += 0.25  # a decision every quarter of a second: 25 s in all
        progress(done, 100)
    lines = stream.getvalue().splitlines()
    # The first decision, then one every 5 s (20 decisions), and the last.
    assert lines == [f"reviewing: {n}/100 decisions graded" for n in (1, 21, 41, 61, 81, 100)]
