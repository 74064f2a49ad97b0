"""``chkobba replay --review --quiet`` honours --quiet (issue 43, polish): the verdict line
alone on stdout, no progress on stderr, the grades still written where --json asks;
without --quiet, the review's lines."""

from __future__ import annotations

import json

from support.audit import played_once

from chkobba_cli.main import main


def test_review_with_quiet_prints_the_verdict_line_only(tmp_path, capsys):
    log = played_once(2, seed=5, key=b"fit-review").write_log(tmp_path / "q.chklog")
    grades = tmp_path / "grades.json"
    argv = ["replay", str(log), "--review", "--samples", "1", "--review-limit", "12"]
    assert main([*argv, "--quiet", "--json", str(grades)]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and "VALID" in out, out
    assert "reviewing" not in err and "decisions" not in out
    # The limit cut the review short: said once, on stderr, beside the verdict.
    assert "the review stopped at its limit: the first 12 of" in err
    assert len(json.loads(grades.read_text(encoding="utf-8"))["grades"]) == 12
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "review: every decision graded" in out and "reviewing" in err
