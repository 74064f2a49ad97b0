"""Fixtures of the shell's tests."""

import pytest
import trio.testing


@pytest.fixture
def patient_clock() -> trio.testing.MockClock:
    """Virtual time that jumps only after 20 ms in which nothing happened, for tables that
    talk over real loopback sockets: a clock that jumps the moment every task waits
    (``autojump_clock``) runs the handshake's, the pinger's and the move clocks' timers out
    while a frame is still on its way through the kernel (test_net_bot_voucher failed 1 run
    in 3 at any load; test_net_squatting's friend saw its match aborted in an idle CI)."""
    return trio.testing.MockClock(autojump_threshold=0.02)


@pytest.fixture(autouse=True)
def _no_autojump_over_real_sockets(request: pytest.FixtureRequest) -> None:
    """A test here that opens a socket is marked ``slow`` (the fast tier fails one that is
    not: tests/support/tiers.py): its peers talk through the kernel, out of trio's sight,
    and ``autojump_clock`` would run their timers out while a frame is on its way.  Such
    a test takes ``patient_clock`` (or real time); ``autojump_clock`` is for memory
    streams, whose every byte trio sees."""
    if request.node.get_closest_marker("slow") is not None \
            and "autojump_clock" in request.fixturenames:
        pytest.fail("a slow test (real sockets) takes autojump_clock: take patient_clock")
