"""The two tiers (tests/conftest.py): ``-m "not slow"`` is the fast tier, with fewer
Hypothesis examples; any run that keeps the slow tests keeps every test's own count."""

from types import SimpleNamespace

from hypothesis import settings
from support.tiers import fast_tier, fewer_examples


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
