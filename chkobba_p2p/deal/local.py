"""Several :class:`~chkobba_p2p.deal.core.Deal` peers in one process, wired by plain lists.

This is how the tests and the benchmark run the deal: every message a peer emits is
msgpack-encoded (so only msgpack-native values can travel), counted, decoded and appended
to every other peer's inbox; :meth:`LocalTable.deliver` hands inbox messages to
:meth:`Deal.receive` until every inbox is empty.  CPU time is charged to the peer whose
method ran, so a benchmark can report CPU per peer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import msgpack

from .core import Deal, Event, Output

__all__ = ["LocalTable"]

Tamper = Callable[[int, dict[str, Any]], dict[str, Any] | None]


class LocalTable:
    """``peers[i]`` must be seat ``i``.  ``tamper(sender, msg)``, if given, may replace (or,
    returning None, drop) every message before it is sent: that is how tests play cheats."""

    def __init__(self, peers: Sequence[Deal], tamper: Tamper | None = None) -> None:
        self.peers = list(peers)
        self.n = len(self.peers)
        assert all(p.seat == i for i, p in enumerate(self.peers))
        self.tamper = tamper
        self.inbox: list[list[tuple[int, dict[str, Any]]]] = [[] for _ in self.peers]
        self.events: list[list[Event]] = [[] for _ in self.peers]
        self.sent: list[list[dict[str, Any]]] = [[] for _ in self.peers]
        self.bytes_sent = [0] * self.n
        self.cpu = [0.0] * self.n

    def _absorb(self, seat: int, out: Output) -> None:
        self.events[seat].extend(out.events)
        for msg in out.messages:
            if self.tamper is not None:
                msg = self.tamper(seat, msg)
                if msg is None:
                    continue
            data = msgpack.packb(msg)
            self.bytes_sent[seat] += len(data)
            self.sent[seat].append(msg)
            for j in range(self.n):
                if j != seat:
                    self.inbox[j].append((seat, msgpack.unpackb(data)))

    def call(self, seat: int, method: str, *args: Any, **kwargs: Any) -> Output:
        """Run ``peers[seat].method(*args, **kwargs)`` and post what it sends."""
        t0 = time.process_time()
        try:
            out = getattr(self.peers[seat], method)(*args, **kwargs)
        finally:
            self.cpu[seat] += time.process_time() - t0
        self._absorb(seat, out)
        return out

    def call_all(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Every seat runs the same local action (a dealing step, finish...)."""
        for seat in range(self.n):
            self.call(seat, method, *args, **kwargs)

    def deliver(self) -> None:
        """Deliver messages round-robin over recipients until every inbox is empty.

        A :class:`PeerMisbehaved` raised by a recipient propagates; ``self.detector`` then
        names the seat that detected it.
        """
        self.detector: int | None = None
        while any(self.inbox):
            for seat in range(self.n):
                if not self.inbox[seat]:
                    continue
                sender, msg = self.inbox[seat].pop(0)
                self.detector = seat
                self.call(seat, "receive", sender, msg)
        self.detector = None

    def start(self) -> None:
        """Every seat sends its key; messages flow until the shuffle (and its wait for the
        cut, if any) is done."""
        self.call_all("start")
        self.deliver()

    def take_events(self, seat: int) -> list[Event]:
        ev, self.events[seat] = self.events[seat], []
        return ev
