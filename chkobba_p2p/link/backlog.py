"""A backlog of transcript entries streamed to one connection with flow control
(PROTOCOL.md 18: a late spectator, a resuming seat).

A spectator that arrives after thousands of entries, or a seat that resumes far behind,
is owed the transcript from some index on.  Queuing it all at once into the
connection's bounded queue would either cost memory without bound or cut the peer off
when the queue fills.  Instead the connection queues one :class:`Backlog`: a cursor into
the (append-only) list of entries, frozen at its end as of when it was queued.  The
writer pulls from it as fast as the connection takes the bytes; what is relayed live
meanwhile is queued behind it, so nothing is missed, doubled or reordered.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Backlog"]


class Backlog:
    """``bodies[start:end]``, taken in batches.  ``bodies`` is only read, never copied:
    its first ``end`` items must not change (a transcript only grows).  ``end`` defaults
    to its length now: entries appended later are not part of this backlog."""

    def __init__(self, bodies: Sequence[bytes], start: int = 0, end: int | None = None
                 ) -> None:
        stop = len(bodies) if end is None else end
        if not 0 <= stop <= len(bodies):
            raise ValueError(f"end {stop} is outside the {len(bodies)} entries")
        self.bodies = bodies
        self.end = stop
        self.cursor = min(max(start, 0), stop)

    @property
    def done(self) -> bool:
        return self.cursor >= self.end

    def __len__(self) -> int:
        """Entries left to take."""
        return self.end - self.cursor

    def take(self, max_bytes: int) -> list[bytes]:
        """The next entries, as many as fit in ``max_bytes`` (at least one unless the
        backlog is done: a batch never stalls on a big entry)."""
        out: list[bytes] = []
        size = 0
        while self.cursor < self.end:
            body = self.bodies[self.cursor]
            if out and size + len(body) > max_bytes:
                break
            out.append(body)
            size += len(body)
            self.cursor += 1
        return out
