"""A transport wrapper that adds a fixed one-way latency, as a Tor circuit does (hundreds
of milliseconds each way), for the timer tests and benchmarks/tor.py.

Every byte a wrapped stream sends reaches the other end ``one_way`` seconds later; writes
never wait (a pipe with latency, not a slow link), so frames sent back to back arrive back
to back.  Under trio's ``MockClock(autojump_threshold=0)`` computation costs no time, so a
match's time is exactly its sequential network hops times ``one_way``: the round trips the
protocol needs can be counted from the clock.
"""

from __future__ import annotations

import collections

import trio

from chkobba_p2p._shell.transport import Transport


class _LateStream(trio.abc.Stream):
    def __init__(self, inner: trio.abc.Stream, one_way: float) -> None:
        self.inner = inner
        self.one_way = one_way
        self._queue: collections.deque[tuple[float, bytes]] = collections.deque()
        self._wake = trio.Event()
        self._closing = False
        self._broken: BaseException | None = None
        self._pump_started = False

    def _start(self) -> None:
        if not self._pump_started:
            self._pump_started = True
            trio.lowlevel.spawn_system_task(self._pump)

    async def _pump(self) -> None:
        try:
            while True:
                while not self._queue:
                    if self._closing:
                        return
                    self._wake = trio.Event()
                    await self._wake.wait()
                when, data = self._queue[0]
                await trio.sleep_until(when)
                self._queue.popleft()
                await self.inner.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            self._broken = exc
        finally:
            self._queue.clear()
            with trio.CancelScope(shield=True):
                if self._closing:
                    await self.inner.aclose()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing:
            raise trio.ClosedResourceError("closed")
        if self._broken is not None:
            raise trio.BrokenResourceError("the connection broke") from self._broken
        await trio.lowlevel.checkpoint()
        self._start()
        self._queue.append((trio.current_time() + self.one_way, bytes(data)))
        self._wake.set()

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        self._closing = True
        self._wake.set()
        if not self._pump_started:
            await self.inner.aclose()
        else:
            await trio.lowlevel.checkpoint()


class _LateListener(trio.abc.Listener[trio.abc.Stream]):
    def __init__(self, inner: trio.abc.Listener[trio.abc.Stream], one_way: float) -> None:
        self.inner = inner
        self.one_way = one_way

    async def accept(self) -> trio.abc.Stream:
        return _LateStream(await self.inner.accept(), self.one_way)

    async def aclose(self) -> None:
        await self.inner.aclose()


class LatencyTransport:
    """``inner`` with ``one_way`` seconds added to every byte sent (both ends of a
    connection delay what they send when both sides use one); connecting costs one
    round trip more, as a connection's setup does."""

    def __init__(self, inner: Transport, one_way: float) -> None:
        self.inner = inner
        self.one_way = one_way
        self.shared_address = inner.shared_address
        self.connect_patience = inner.connect_patience

    async def listen(self, port: int, bind: str) -> list[trio.abc.Listener[trio.abc.Stream]]:
        return [_LateListener(x, self.one_way) for x in await self.inner.listen(port, bind)]

    def port_of(self, listener: trio.abc.Listener[trio.abc.Stream]) -> int:
        assert isinstance(listener, _LateListener)
        return self.inner.port_of(listener.inner)

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        await trio.sleep(2 * self.one_way)
        return _LateStream(await self.inner.connect(host, port), self.one_way)

    def peer_address(self, stream: trio.abc.Stream) -> str:
        return self.inner.peer_address(stream.inner if isinstance(stream, _LateStream)
                                       else stream)

    def close_now(self, stream: trio.abc.Stream) -> None:
        self.inner.close_now(stream.inner if isinstance(stream, _LateStream) else stream)
