"""End to end: real processes, terminals (pty), Tor, a browser, pip.  Every test here is
marked ``slow``: ``pytest -m "not slow"`` is the fast tier, ``pytest`` runs everything."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.slow)
