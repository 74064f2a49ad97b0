"""Test-suite settings.

On CI (``CI`` set), Hypothesis runs derandomized: the same examples every run, so a red
build always reproduces; locally it explores new examples each run and remembers failures.
No Hypothesis deadline anywhere: a per-example time limit is a timed test, and on a shared
machine it fails for the machine's sake, not the code's (speed lives in benchmarks/).

Two tiers: ``pytest`` runs everything (CI); ``pytest -m "not slow"`` is the fast tier, for
the edit-test loop: no end-to-end test (``tests/e2e/``), no test that opens a network
socket (loopback TCP or UDP) or starts a process (those are marked ``slow``: in the fast
tier such a test fails, naming what it reached, ``support/tiers.py::Outside``), and every
Hypothesis test with a share of its examples (a quarter, at least 10).  The full run keeps
every test's own count and runs the slow ones too.
"""

import os

from hypothesis import settings

# Tests touch no network but loopback: no host started by a test (or by a process it
# starts) asks a real router to open a port, unless the test names its fake router.
os.environ["CHKOBBA_NO_UPNP"] = "1"

# The client speaks the locale's language when no --lang is given; the suite's English
# expectations must not depend on the developer's machine, so a French locale inherited
# from the shell is neutralised here (a test that wants French asks for it).
for _var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
    if os.environ.get(_var, "").lower().startswith("fr"):
        os.environ[_var] = "C.UTF-8"


def _default_key_bindings_built_once() -> None:
    """prompt_toolkit builds its default key bindings (some 3,000 of them, emacs and vi)
    afresh for every ``Application``, and for every ``get_app()`` asked while none runs
    (a ``DummyApplication``, as the screen asks for its size while it is built): about
    6 ms each, five times for each screen a test builds, most of the client tests' CPU.
    The suite builds them once per test process and every application shares them: they
    hold nothing of an application (their filters and handlers ask the application of
    the key they get), so a screen behaves the same; the client builds one application
    per run and is left as it is."""
    from functools import cache

    from prompt_toolkit.application import application

    if not hasattr(application.load_key_bindings, "cache_info"):
        application.load_key_bindings = cache(application.load_key_bindings)


_default_key_bindings_built_once()

settings.register_profile("default", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")


import json  # noqa: E402

import pytest  # noqa: E402
from support.tiers import Outside, fast_tier, fewer_examples, group_suffixes  # noqa: E402


@pytest.fixture(autouse=True)
def _own_config_dir(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user configuration (names, known players): each
    gets its own directory, holding a player name already chosen (so the client does not
    ask for one on its "first run"; the test of that first run empties it)."""
    path = tmp_path_factory.mktemp("config")
    (path / "settings.json").write_text(json.dumps({"name": "Tester"}))
    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(path))
    return path


@pytest.fixture(scope="session")
def tor_network(tmp_path_factory):
    """A private Tor network on loopback (tests/support/tor_network.py), started once per test
    session: its client tor's control and SOCKS ports, and the torrc lines for more
    tors on it.  Skipped, saying why, where tor is not installed."""
    from support.tor_network import TorNetwork, tor_missing

    if (why := tor_missing()) is not None:
        pytest.skip(why)
    for attempt in (1, 2):  # a port chosen free may be taken meanwhile: once more
        network = TorNetwork(tmp_path_factory.mktemp("tornet"))
        try:
            network.start()
            break
        except RuntimeError:
            if attempt == 2:
                raise
    yield network
    network.stop()


def _fewer_examples_for_the_fast_tier(items) -> None:
    """Every Hypothesis test of the run (``@given`` and state machines) with
    :func:`fewer_examples`, whatever settings it names."""
    done: set[int] = set()
    for item in items:
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False):
            continue
        if hasattr(test, "_hypothesis_state_machine_class"):  # its TestCase's runTest
            holder, name = item.cls, "settings"
        else:
            holder, name = getattr(test, "__func__", test), "_hypothesis_internal_use_settings"
        if id(holder) not in done:
            done.add(id(holder))
            setattr(holder, name, fewer_examples(getattr(holder, name)))


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own (its worker's) suffixes
def pytest_collection_modifyitems(config, items):
    """With pytest-xdist (``-n``, ``--dist loadgroup``): the tests on the private Tor
    network share one worker (one network per session, not one per worker), and the
    LAN discovery tests (multicast DNS on loopback) another, so that no two of them
    hear each other's tables; a group's tests get its suffix where xdist's is lost
    (:func:`support.tiers.group_suffixes`)."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "tor_network" in fixtures:
            item.add_marker(pytest.mark.xdist_group("tor"))
        elif item.module.__name__ in ("test_discovery", "test_discovery_sources"):
            item.add_marker(pytest.mark.xdist_group("mdns"))
    group_suffixes(config, items)
    if fast_tier(config):
        _fewer_examples_for_the_fast_tier(items)
        if not hasattr(config, "_outside"):
            config._outside = Outside()
            config._outside.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """In the fast tier, what each test reaches outside the process is noted."""
    outside = getattr(item.config, "_outside", None)
    if outside is not None:
        outside.test = item.nodeid
    try:
        return (yield)
    finally:
        if outside is not None:
            outside.test = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A test of the fast tier that opened a network socket or started a process fails
    at its teardown, naming what it reached: it belongs to the slow tier (mark it
    ``slow``, or reach nothing: the test kit's MemoryNetwork, InMemoryTable)."""
    report = yield
    outside = getattr(item.config, "_outside", None)
    if call.when == "teardown" and outside is not None and report.passed \
            and item.get_closest_marker("slow") is None:
        reached = outside.reached.get(item.nodeid)
        if reached:
            report.outcome = "failed"
            report.longrepr = (f"{item.nodeid} is in the fast tier but opened "
                               f"{' and '.join(sorted(reached))}: mark it slow")
    return report


# Tests mirror the library's tree (tests/game/, tests/link/, ..., tests/e2e/), and a test may import
# helpers from another test module (``from test_session import Table``): every test folder
# on the path, as pytest's "prepend" import mode puts the folder of each file it imports.
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

for _folder in sorted(Path(__file__).resolve().parent.iterdir()):
    if _folder.is_dir() and any(_folder.glob("test_*.py")) and str(_folder) not in sys.path:
        sys.path.append(str(_folder))


def pytest_collection_finish(session):
    """Once the tests are collected, what the process holds so far (every module
    imported, every test collected: some 2,700 items and their modules' objects) stays
    for the whole run: moved out of the garbage collector's sight (``gc.freeze``), the
    collector's full passes no longer walk it again and again (each walked it all: 10%
    of a test process's CPU was collecting).  Nothing a test makes is frozen; what
    collection left unreachable is collected first."""
    import gc

    gc.collect()
    gc.freeze()
