"""The link's frame timer: a frame must be complete ``Timeouts.frame`` seconds after its
first byte, however its bytes are spread (a slow loris that dribbles one byte now and
then is cut), while a frame that arrives slowly but in time is read."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p._shell.stream import Link
from chkobba_p2p.link.messages import Unknown
from chkobba_p2p.wire import codec as wire

TIMEOUTS = Timeouts(handshake=30.0, frame=10.0, idle=60.0)


async def _dribble(stream: trio.abc.SendStream, data: bytes, gap: float) -> None:
    for i in range(len(data)):
        await stream.send_all(data[i:i + 1])
        await trio.sleep(gap)


@pytest.mark.parametrize("gap, in_time", [(4.0, False), (0.5, True)])
async def test_a_frame_has_its_whole_time_not_each_byte(autojump_clock, gap, in_time):
    """A 15-byte frame, one byte at a time: 4 s apart it would take 56 s, each gap
    shorter than the frame timeout of 10 s (the timer measured the gaps before, so this
    loris was never cut): cut when the frame is 10 s old.  0.5 s apart (7 s): read."""
    frame = wire.frame(wire.encode({"t": "frame-1"}))  # a type of a later version
    ours, theirs = trio.testing.memory_stream_pair()
    link = Link(ours, TIMEOUTS)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_dribble, theirs, frame, gap)
        start = trio.current_time()
        if in_time:
            _, msg = await link.receive()
            assert msg == Unknown("frame-1")
            assert trio.current_time() - start == pytest.approx((len(frame) - 1) * gap)
        else:
            assert (len(frame) - 1) * gap > TIMEOUTS.frame
            with pytest.raises(trio.TooSlowError):
                await link.receive()
            assert trio.current_time() - start == pytest.approx(TIMEOUTS.frame)
        nursery.cancel_scope.cancel()


async def test_each_new_frame_gets_its_own_time(autojump_clock):
    """Five 15-byte frames back to back, 6 bytes every 4 s: each frame takes 8 s of the
    10 allowed, 48 s of traffic in all, and every frame is read: the timer starts again
    at each frame's first byte, also when one read ends a frame and begins the next."""
    frames = b"".join(wire.frame(wire.encode({"t": f"frame-{i}"})) for i in range(5))
    ours, theirs = trio.testing.memory_stream_pair()
    link = Link(ours, TIMEOUTS)

    async def send() -> None:
        # 6 bytes at a time: every other send ends one frame and starts the next.
        for i in range(0, len(frames), 6):
            await theirs.send_all(frames[i:i + 6])
            await trio.sleep(4.0)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(send)
        got = [(await link.receive())[1].name for _ in range(5)]
        nursery.cancel_scope.cancel()
    assert got == [f"frame-{i}" for i in range(5)]


async def test_our_own_time_is_not_charged_to_the_peer(autojump_clock):
    """One read holds frame A and the first bytes of B; the rest of B arrives at once,
    then this side spends longer than a frame's time on A: B is read, not refused (only
    the time spent waiting for a frame's bytes counts; a reviewer's finding)."""
    a = wire.frame(wire.encode({"t": "frame-0"}))
    b = wire.frame(wire.encode({"t": "frame-1"}))
    ours, theirs = trio.testing.memory_stream_pair()
    link = Link(ours, TIMEOUTS)
    await theirs.send_all(a + b[:3])
    assert (await link.receive())[1] == Unknown("frame-0")
    await theirs.send_all(b[3:])
    await trio.sleep(2 * TIMEOUTS.frame)  # our own work on A
    assert (await link.receive())[1] == Unknown("frame-1")
