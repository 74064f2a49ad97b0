"""The two tiers of the suite (tests/conftest.py applies them): ``pytest -m "not slow"``
is the fast tier, where every Hypothesis test runs a share of its examples, and a test
that runs a matrix of whole matches runs a sample of it that covers every value of every
axis (:func:`covering`); a run that keeps the slow tests keeps every test's own count and
every case."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

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


#: What the fast tier leaves to the slow one (pyproject's ``slow`` marker): a test that
#: opens a network socket (TCP or UDP, loopback included) or starts a process.
OUTSIDE = ("a network socket", "a process")


class Outside:
    """Notes, test by test, what it reaches outside the process: a network socket opened
    (``AF_INET``/``AF_INET6``; trio's own wake-up pair is ``AF_UNIX``) or a process
    started (``subprocess``, ``multiprocessing``).  Installed once per test process;
    :meth:`watching` names the test whose reaches are noted."""

    def __init__(self) -> None:
        self.test: str | None = None
        self.reached: dict[str, set[str]] = {}

    def _note(self, what: str) -> None:
        if self.test is not None:
            self.reached.setdefault(self.test, set()).add(what)

    def install(self) -> None:
        """From now on, note what the current test reaches; :meth:`uninstall` (set here)
        puts back what was there."""
        import multiprocessing.process
        import socket
        import subprocess

        outside = self
        socket_init = socket.socket.__init__
        popen_init = subprocess.Popen.__init__
        process_start = multiprocessing.process.BaseProcess.start

        def _socket(sock, family=-1, type=-1, proto=-1, fileno=None):  # noqa: A002
            if fileno is None and family in (-1, socket.AF_INET, socket.AF_INET6):
                outside._note(OUTSIDE[0])
            socket_init(sock, family, type, proto, fileno)

        def _popen(popen, *args, **kw):
            outside._note(OUTSIDE[1])
            popen_init(popen, *args, **kw)

        def _start(process):
            outside._note(OUTSIDE[1])
            process_start(process)

        socket.socket.__init__ = _socket  # type: ignore[method-assign]
        subprocess.Popen.__init__ = _popen  # type: ignore[method-assign]
        multiprocessing.process.BaseProcess.start = _start  # type: ignore[method-assign]

        def uninstall() -> None:
            socket.socket.__init__ = socket_init  # type: ignore[method-assign]
            subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
            multiprocessing.process.BaseProcess.start = process_start  # type: ignore
        self.uninstall = uninstall


def slow_when(reaches_outside, values) -> list:
    """``values`` for ``pytest.mark.parametrize``, those for which ``reaches_outside(value)``
    marked ``slow``: the cases of a test that open a socket or start a process (shuffle
    proofs checked in worker processes, say), its other cases kept in the fast tier."""
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.slow)
            if reaches_outside(v) else v for v in values]


def group_suffixes(config: pytest.Config, items: list[pytest.Item]) -> int:
    """``--dist loadgroup`` as pytest-xdist documents it, on every pytest: a test marked
    ``xdist_group(name)`` gets ``@name`` at the end of its id, which is how the scheduler
    keeps a group on one worker.  pytest-xdist (3.8) writes that suffix into the item's
    old ``_nodeid`` field, which pytest 9.2 no longer reads (its id is structured), so
    grouping silently stopped: the Tor network's tests, the LAN discovery tests and the
    modules whose costly fixture is built once per worker ran on both workers
    (pytest-dev/pytest-xdist#1386, fix proposed in #1388).  Where the suffix is missing,
    this writes it into the structured id; where xdist wrote it, it does nothing.
    Returns how many ids it changed."""
    if not getattr(config.option, "loadgroup", False):
        return 0
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # a pytest before structured ids: xdist's own suffix works
        return 0
    changed = 0
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if not names or item.nodeid.rfind("@") > item.nodeid.rfind("]"):
            continue
        item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")  # type: ignore[attr-defined]
        changed += 1
    return changed


def covering(*axes: Sequence[Any], ids: Sequence[Sequence[str] | None] | None = None,
             pairs: bool = False) -> list:
    """The whole matrix of ``axes`` (their product, in order) for one
    ``pytest.mark.parametrize`` over as many names: a deterministic sample of it stays in
    the fast tier, the other cases are marked ``slow`` (CI runs them all).

    The sample covers every value of every axis at least once (with ``pairs``, every
    pair of values of any two axes): where each case is a whole match with real shuffle
    proofs, a lie or a capability at 3 and at 4 players, the fast tier still plays each
    lie and each player count, and the slow tier each combination.  Chosen greedily, the
    case that covers the most not yet covered first (the earlier on a tie), so the same
    cases every run.  ``ids``: per axis, the names of its values in the case's id (None:
    ``str`` of the value); a case's id joins its axes' names with ``-``.  A value that is
    a tuple stands for as many names (as in :func:`slow_when`): ``[("tunisian", True),
    ("chkoum", True)]`` is one axis for ``"preset, keep"``."""
    def flat(v: Any) -> tuple[Any, ...]:
        return v if isinstance(v, tuple) else (v,)

    names = [["-".join(map(str, flat(v))) for v in axis] if ids is None or ids[a] is None
             else list(ids[a]) for a, axis in enumerate(axes)]
    cases = list(itertools.product(*(range(len(axis)) for axis in axes)))

    def covers(case: tuple[int, ...]) -> set[tuple[int, ...]]:
        if not pairs:
            return {(a, v) for a, v in enumerate(case)}
        return {(a, case[a], b, case[b]) for a, b in itertools.combinations(range(len(case)), 2)}

    left = set().union(*(covers(c) for c in cases))
    fast: set[tuple[int, ...]] = set()
    while left:
        best = max(cases, key=lambda c: (len(covers(c) & left), -cases.index(c)))
        fast.add(best)
        left -= covers(best)
    return [pytest.param(*(x for axis, v in zip(axes, case, strict=True) for x in flat(axis[v])),
                         id="-".join(names[a][v] for a, v in enumerate(case)),
                         marks=() if case in fast else pytest.mark.slow)
            for case in cases]
