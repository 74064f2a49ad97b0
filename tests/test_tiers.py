"""The two tiers (tests/conftest.py): ``-m "not slow"`` is the fast tier, with fewer
Hypothesis examples; any run that keeps the slow tests keeps every test's own count."""

import os
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio
from hypothesis import settings
from support.tiers import OUTSIDE, Outside, covering, fast_tier, fewer_examples, slow_when


def _run(markexpr: str) -> SimpleNamespace:
    return SimpleNamespace(getoption=lambda name, default=None: markexpr)


def test_the_fast_tier_is_any_run_that_leaves_out_the_slow_tests():
    assert fast_tier(_run("not slow")) and fast_tier(_run("not slow and not tor"))
    assert not fast_tier(_run("")) and not fast_tier(_run("slow"))
    assert not fast_tier(_run("slow or not slow")) and not fast_tier(_run("not tor"))


def test_the_fast_tier_runs_a_quarter_of_the_examples_and_at_least_ten():
    assert fewer_examples(settings(max_examples=400)).max_examples == 100
    assert fewer_examples(settings(max_examples=30)).max_examples == 10
    assert fewer_examples(settings(max_examples=5)).max_examples == 5
    kept = fewer_examples(settings(max_examples=60, stateful_step_count=20, deadline=None))
    assert (kept.max_examples, kept.stateful_step_count, kept.deadline) == (15, 20, None)


def test_a_network_socket_or_a_process_is_noted_against_the_test_that_opened_it(request):
    run = getattr(request.config, "_outside", None)  # this run's own (the fast tier's)
    if run is not None:
        run.test = None  # looks away: this test reaches outside on purpose, briefly
    outside = Outside()
    outside.install()
    try:
        outside.test = "in memory"
        a, b = socket.socketpair()  # AF_UNIX, as trio's own wake-up pair: inside
        a.close(), b.close()
        trio.run(trio.sleep, 0)
        outside.test = "tcp"
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
        outside.test = "udp6"
        socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()
        outside.test = "process"
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        outside.test = None
        socket.socket().close()  # between tests: nobody's
    finally:
        outside.uninstall()
    assert outside.reached == {"tcp": {OUTSIDE[0]}, "udp6": {OUTSIDE[0]},
                               "process": {OUTSIDE[1]}}


def test_slow_when_marks_only_the_cases_that_reach_outside():
    cases = slow_when(bool, [False, True])
    assert cases[0] is False
    assert cases[1].values == (True,) and [m.name for m in cases[1].marks] == ["slow"]
    pairs = slow_when(lambda case: not case[1], [("a", False), ("b", True)])
    assert pairs[0].values == ("a", False) and pairs[1] == ("b", True)


def _fast(cases) -> list[tuple]:
    return [c.values for c in cases if not any(m.name == "slow" for m in c.marks)]


def test_covering_keeps_every_value_of_every_axis_in_the_fast_tier_and_marks_the_rest():
    cases = covering([3, 4], ["old", "new"], ids=[None, ["no-field", "lists"]])
    assert [c.values for c in cases] == [(3, "old"), (3, "new"), (4, "old"), (4, "new")]
    assert [c.id for c in cases] == ["3-no-field", "3-lists", "4-no-field", "4-lists"]
    fast = _fast(cases)
    assert fast == [(3, "old"), (4, "new")]  # each count, each kind; the same every run
    assert _fast(covering([3, 4], ["old", "new"])) == fast
    assert [c.values for c in covering([2, 3, 4])] == [(2,), (3,), (4,)]
    pairs = covering([("tunisian", True), ("chkoum", False)], [2, 4])  # "preset, keep", n
    assert pairs[0].values == ("tunisian", True, 2) and pairs[0].id == "tunisian-True-2"
    assert len(_fast(covering([2, 3, 4]))) == 3  # one axis: every case is a value
    # Pairwise: three yes-or-no axes, every pair of values of two axes in 4 cases of 8.
    cases = covering([0, 1], [0, 1], [0, 1], pairs=True)
    fast = _fast(cases)
    assert len(cases) == 8 and len(fast) < 8
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert {(c[a], c[b]) for c in fast} == {(0, 0), (0, 1), (1, 0), (1, 1)}


# slow: starts pytest with two worker processes
@pytest.mark.slow
def test_a_groups_tests_run_on_one_worker(tmp_path):
    """``--dist loadgroup`` keeps each ``xdist_group`` on one worker (the Tor network's
    tests, the modules whose costly fixture is built once), with the suffix written where
    pytest-xdist's is lost (support.tiers.group_suffixes; pytest-dev/pytest-xdist#1386)."""
    (tmp_path / "conftest.py").write_text(
        "import pytest\nfrom support.tiers import group_suffixes\n\n"
        "@pytest.hookimpl(trylast=True)\n"
        "def pytest_collection_modifyitems(config, items):\n"
        "    group_suffixes(config, items)\n")
    for name in ("a", "b"):
        (tmp_path / f"test_{name}.py").write_text(
            f"import pytest\npytestmark = pytest.mark.xdist_group('{name}')\n\n"
            "@pytest.mark.parametrize('i', range(6))\ndef test_x(i):\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2",
                          "--dist", "loadgroup", "-v", "--rootdir", str(tmp_path), str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    workers: dict[str, set[str]] = {}
    for line in run.stdout.splitlines():
        if "PASSED" in line and line.startswith("[gw"):
            module = line.split()[-1].split("::")[0].rsplit("/", 1)[-1]
            workers.setdefault(module, set()).add(line.split("]")[0])
    assert set(workers) == {"test_a.py", "test_b.py"}, run.stdout
    assert all(len(w) == 1 for w in workers.values()), workers
    assert "@a" in run.stdout and "@b" in run.stdout
