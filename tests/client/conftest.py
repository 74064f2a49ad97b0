"""Fixtures the terminal client's tests share: a prompt_toolkit session with no
terminal behind it, and frames drawn as a fresh process draws them."""

from __future__ import annotations

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import SECRET

from chkobba_cli.support import reach


@pytest.fixture
def app_session():
    """A prompt_toolkit session on a pipe and no output: screens built inside it render
    without a terminal."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        yield


@pytest.fixture(params=[SECRET, None], ids=["secret", "no-secret"])
def secret(request):
    """The host's seat secret (:data:`screenshot.SECRET`, then none), in the join codes
    it shows; cleared after."""
    reach.host_secret(request.param)
    yield request.param
    reach.host_secret(None)


_BORDER = ("HORIZONTAL", "VERTICAL", "TOP_LEFT", "TOP_RIGHT", "BOTTOM_LEFT", "BOTTOM_RIGHT")


@pytest.fixture(autouse=True)
def _box_frames():
    """Every test starts with frames drawn in box characters and leaves them so:
    ``--ascii`` (tui/parts/style.py, ascii_frames) sets prompt_toolkit's one shared Border class,
    which would otherwise draw "+-|" in every later test of the same worker."""
    from prompt_toolkit.widgets import base

    saved = [getattr(base.Border, n) for n in _BORDER]
    for n, c in zip(_BORDER, "─│┌┐└┘", strict=True):
        setattr(base.Border, n, c)
    yield
    for n, c in zip(_BORDER, saved, strict=True):
        setattr(base.Border, n, c)
