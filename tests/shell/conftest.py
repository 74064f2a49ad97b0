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
