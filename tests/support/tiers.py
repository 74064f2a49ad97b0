"""The two tiers of the suite (tests/conftest.py applies them): ``pytest -m "not slow"``
is the fast tier, where every Hypothesis test runs a share of its examples; a run that
keeps the slow tests keeps every test's own count."""

from __future__ import annotations

import pytest
from hypothesis import settings

#: In the fast tier, a Hypothesis test runs this share of its examples, and at least the floor.
FAST_TIER_SHARE = 0.25
FAST_TIER_FLOOR = 10


def fast_tier(config: pytest.Config) -> bool:
    """Whether this run is the fast tier: its ``-m`` expression leaves out the ``slow``
    tests (``-m "not slow"``)."""
    from _pytest.mark.expression import Expression

    expression = config.getoption("markexpr", "")
    if not expression:
        return False
    return not Expression.compile(expression).evaluate(lambda name, **_: name == "slow")


def fewer_examples(given: settings) -> settings:
    return settings(given, max_examples=max(min(given.max_examples, FAST_TIER_FLOOR),
                                            round(given.max_examples * FAST_TIER_SHARE)))
