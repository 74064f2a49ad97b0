"""One framed connection on a trio stream (PROTOCOL.md 2, 18): the shell's byte mover.

:class:`Link` reads frames with the frame and idle timeouts and writes through a queue
drained by its own task, so one slow peer never blocks a broadcast; a backlog takes one
place in that queue and is streamed at the other end's pace.  The host and joiner
(:mod:`chkobba_p2p._shell.net`) and the spectator (:mod:`chkobba_p2p._shell.watch`) use it alike.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import trio

from ..link.backlog import Backlog
from ..link.handshake import error_message
from ..link.messages import ErrorMsg, Frame, read_frame
from ..wire import codec as wire
from ..wire.codec import ErrorCode
from .config import Timeouts

__all__ = ["Link", "LinkClosed", "Traffic", "QUEUE"]

#: Frames (or backlogs, one place each) a connection's queue holds; a peer that lets it
#: fill is dropped.
QUEUE = 4096
#: Bytes the writer joins into one write at most (a backlog is pulled in such batches).
_WRITE = 1 << 18
#: Bytes handed to the stream at once, at most: a slow reader's progress is seen at
#: least every so many bytes (:attr:`Link.progress_at`).
_SLICE = 1 << 16


class Traffic:
    """Bytes on the wire (frames with their length prefixes), for statistics."""

    def __init__(self) -> None:
        self.sent = 0
        self.received = 0


class LinkClosed(Exception):
    """The connection ended (EOF, reset, or closed by us); ``error`` if the other end
    sent an error message first."""

    def __init__(self, reason: str, error: ErrorMsg | None = None) -> None:
        super().__init__(reason)
        self.error = error


class Link:
    """One framed connection: reads with the frame and idle timeouts, writes through a
    queue drained by its own task (so one slow peer never blocks a broadcast)."""

    def __init__(self, stream: trio.abc.Stream, timeouts: Timeouts,
                 traffic: Traffic | None = None) -> None:
        self.stream = stream
        self.traffic = traffic or Traffic()
        self.timeouts = timeouts
        self.decoder = wire.FrameDecoder()
        self._ready: list[bytes] = []
        self._send, self._recv = trio.open_memory_channel[bytes | Backlog | None](QUEUE)
        self.closed = False
        #: Seconds of waiting the frame begun (the decoder holds part of it) has left.
        self._frame_left = 0.0
        self.written = trio.Event()  # the writer has flushed everything and stopped
        self.eof = trio.Event()  # the other end closed (or the connection broke)
        #: The code of the error message the other end sent before closing, if any.
        self.error_code: int | None = None
        self.bytes_in = 0
        self.bytes_out = 0
        #: When the other end last took bytes we wrote (a write completed), or None.
        self.progress_at: float | None = None
        #: Told when bytes arrive (the host's admission: a stranger that speaks).
        self.on_data: Callable[[Link], None] | None = None
        #: Set when the peer let the queue fill: whoever runs the connection cuts it
        #: (closing the queue alone leaves the writer stuck and the reader reading).
        self.overflowed = trio.Event()
        #: The backlog queued last, if nothing was queued after it: a backlog contiguous
        #: with it extends it in place instead of taking a place of its own in the queue.
        self._tail: Backlog | None = None

    async def receive(self, timeout: float | None = None) -> tuple[bytes, Frame]:
        """The next frame body and what it is (:func:`~chkobba_p2p.link.messages.read_frame`:
        a link message, a signed entry, an unknown or malformed one).  Raises
        :class:`ProtocolError` for bad input, :class:`LinkClosed` at the end (with the
        peer's ``error``, if it sent one), ``trio.TooSlowError`` on a timeout."""
        while not self._ready:
            pending = self.decoder.pending
            if pending:
                # The frame's whole time, not the gap between its bytes: a peer that
                # dribbles a byte now and then must still finish the frame in time.  Only
                # the time spent waiting for its bytes counts (not ours, handling them).
                limit = max(0.0, self._frame_left)
            else:
                limit = self.timeouts.idle
            if timeout is not None:
                limit = min(limit, timeout)
            waited = trio.current_time()
            with trio.fail_after(limit):
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    self.eof.set()
                    raise LinkClosed(str(exc) or type(exc).__name__) from None
            if pending:
                self._frame_left -= trio.current_time() - waited
            if not data:
                self.eof.set()
                raise LinkClosed("end of stream")
            self.bytes_in += len(data)
            if self.on_data is not None:
                self.on_data(self)
            self.traffic.received += len(data)
            was_pending = self.decoder.pending
            frames = self.decoder.feed(data)
            if self.decoder.pending and (frames or not was_pending):
                self._frame_left = self.timeouts.frame  # a new frame begins
            self._ready.extend(frames)
        body = self._ready.pop(0)
        msg = read_frame(body)
        if isinstance(msg, ErrorMsg):
            code = msg.code
            self.error_code = int(code) if code is not None else None
            self.eof.set()  # an error is the last thing a peer sends
            raise LinkClosed(f"peer error {int(code) if code else '?'}: {msg.text}", msg)
        return body, msg

    def send(self, body: bytes) -> None:
        """Queue a frame body.  A peer that lets the queue fill is dropped."""
        self._queue(body)

    def send_backlog(self, bodies: Sequence[bytes], start: int = 0,
                     end: int | None = None) -> None:
        """Queue ``bodies[start:end]`` (``end`` defaults to their length now; PROTOCOL.md
        18): one place in the queue, whatever their number.  The writer streams them as
        fast as the other end takes them, then what was queued after this call: nothing
        is missed, doubled or reordered.  ``bodies`` is read later: it must only grow (a
        transcript does)."""
        stop = len(bodies) if end is None else end
        if start >= stop:
            return
        tail = self._tail
        if tail is not None and tail.bodies is bodies and tail.end == start \
                and not tail.done and not self.closed:
            # The entries that follow the backlog queued last, with nothing queued
            # between: the same cursor goes further.  So a spectator that reads slowly
            # costs a place in the queue per frame of another kind, not per entry, and
            # the entries it lacks stay in the transcript, not in memory twice.
            tail.end = stop
            return
        item = Backlog(bodies, start, stop)
        self._queue(item)
        self._tail = item

    def _queue(self, item: bytes | Backlog) -> None:
        self._tail = None
        if self.closed:
            return
        try:
            self._send.send_nowait(item)
        except trio.WouldBlock:
            self.closed = True
            self.overflowed.set()
            with contextlib.suppress(trio.ClosedResourceError):
                self._send.close()

    def send_msg(self, msg: dict[str, Any]) -> None:
        self.send(wire.encode(msg))

    async def writer(self) -> None:
        """Drain the queue to the socket.  At the end, half-close (send EOF) rather than
        close: closing with unread input would reset the connection and could destroy
        frames still in flight to the other end."""
        try:
            # Coalesce what is already queued into one write (fewer system calls), up to
            # _WRITE bytes; a backlog is pulled from as each write completes (the other
            # end's pace: flow control), before anything queued after it.
            chunks: list[bytes] = []
            size = 0
            item = await self._recv.receive()
            while item is not None:
                if isinstance(item, Backlog):
                    while not item.done:
                        for body in item.take(_WRITE - size):
                            chunks.append(wire.frame(body))
                            size += len(chunks[-1])
                        if size >= _WRITE:
                            await self._write(chunks)
                            chunks, size = [], 0
                else:
                    chunks.append(wire.frame(item))
                    size += len(chunks[-1])
                if size >= _WRITE:
                    await self._write(chunks)
                    chunks, size = [], 0
                try:
                    item = self._recv.receive_nowait()
                except trio.WouldBlock:
                    await self._write(chunks)
                    chunks, size = [], 0
                    item = await self._recv.receive()
            await self._write(chunks)
            with contextlib.suppress(Exception):
                if isinstance(self.stream, trio.abc.HalfCloseableStream):
                    await self.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.EndOfChannel,
                OSError):
            pass
        finally:
            self.closed = True
            self.written.set()

    async def _write(self, chunks: list[bytes]) -> None:
        if chunks:
            data = b"".join(chunks)
            view = memoryview(data)
            for at in range(0, len(data), _SLICE):
                piece = view[at:at + _SLICE]
                await self.stream.send_all(piece)
                self.progress_at = trio.current_time()
                self.bytes_out += len(piece)
                self.traffic.sent += len(piece)

    async def drain(self, timeout: float = 2.0, *, discard: bool = False) -> None:
        """Finish writing, send EOF, and wait (at most ``timeout`` seconds) for the other
        end to close too, so nothing in flight is lost.  ``discard``: the caller is the
        link's reader (nobody else reads it now): read and drop what still comes, so
        that the other end's close is seen at once (else only a reader sees it, and
        the wait lasts its whole ``timeout``)."""
        self.finish()
        with trio.move_on_after(timeout):
            await self.written.wait()
            if discard:
                await self._discard_until_eof()
            await self.eof.wait()
        with contextlib.suppress(Exception):
            await self.stream.aclose()

    async def _discard_until_eof(self) -> None:
        while not self.eof.is_set():
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError,
                    OSError):
                data = b""
            if not data:
                self.eof.set()

    def finish(self) -> None:
        """Close after everything queued has been written."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
                self._send.send_nowait(None)

    async def fail(self, code: ErrorCode, detail: str = "") -> None:
        """Send an error message, then close the link."""
        if not self.closed:
            self.send_msg(error_message(code, detail))
        await self.drain(1.0, discard=True)  # every caller is the link's reader
