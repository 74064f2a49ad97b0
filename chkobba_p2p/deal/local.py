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
from dataclasses import dataclass
from typing import Any

import msgpack

from ..game.cards import Card
from .core import Deal, Event, Output, StepOpened
from .crypto import DECK_SIZE
from .errors import PeerMisbehaved

__all__ = ["LocalTable", "HandRun", "make_table", "run_hand"]

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
                tampered = self.tamper(seat, dict(msg))
                if tampered is None:
                    continue
                msg = tampered
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
            out: Output = getattr(self.peers[seat], method)(*args, **kwargs)
        finally:
            self.cpu[seat] += time.process_time() - t0
        self._absorb(seat, out)
        return out

    def call_all(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Every seat runs the same local action (a dealing step, finish...)."""
        for seat in range(self.n):
            self.call(seat, method, *args, **kwargs)

    def deliver(self) -> None:
        """Deliver messages round-robin over recipients until every inbox is empty; peers
        with deferred work (``Deal(defer_work=True)``) do one piece of it each whenever no
        message is waiting (messages first: a shuffler shuffles on top at once).

        A :class:`PeerMisbehaved` raised by a recipient propagates; ``self.detector`` then
        names the seat that detected it.
        """
        self.detector: int | None = None
        while True:
            if any(self.inbox):
                for seat in range(self.n):
                    if not self.inbox[seat]:
                        continue
                    sender, msg = self.inbox[seat].pop(0)
                    self.detector = seat
                    self.call(seat, "receive", sender, msg)
                continue
            busy = [s for s in range(self.n) if self.peers[s].has_work]
            if not busy:
                break
            for seat in busy:
                self.detector = seat
                self.call(seat, "work")
        self.detector = None

    def deliver_all(self) -> dict[int, PeerMisbehaved]:
        """Like :meth:`deliver`, but a seat that detects misbehaviour stops receiving while
        the others go on.  Returns each detecting seat's exception."""
        blames: dict[int, PeerMisbehaved] = {}
        while True:
            live = [s for s in range(self.n) if s not in blames]
            calls: list[tuple[Any, ...]]
            if any(self.inbox[s] for s in live):
                calls = [(s, "receive", *self.inbox[s].pop(0)) for s in live if self.inbox[s]]
            else:
                calls = [(s, "work") for s in live if self.peers[s].has_work]
                if not calls:
                    return blames
            for seat, method, *args in calls:
                try:
                    self.call(seat, method, *args)
                except PeerMisbehaved as exc:
                    blames[seat] = exc

    def start(self) -> None:
        """Every seat sends its key; messages flow until the shuffle (and its wait for the
        cut, if any) is done."""
        self.call_all("start")
        self.deliver()

    def take_events(self, seat: int) -> list[Event]:
        ev, self.events[seat] = self.events[seat], []
        return ev


# -- a whole hand, with the default dealing schedule of docs/rules -------------------------


def make_table(n: int, *, session_id: bytes = b"local-table", hand: int = 0,
               instance: int = 0, cutter: int | None = None, shuffle_proofs: bool = False,
               seeds: Sequence[bytes | None] | None = None,
               tamper: Tamper | None = None, defer_work: bool = False,
               proof_apart: bool = False) -> LocalTable:
    """A fresh instance at every seat, wired together (nothing sent yet).

    Shuffle proofs are off by default here (unlike :class:`Deal`): most tests and
    benchmarks study the rest of the protocol and would spend most of their time proving.
    """
    seeds = seeds or [None] * n
    return LocalTable([Deal(session_id=session_id, hand=hand, instance=instance, n=n, seat=s,
                            cutter=cutter, shuffle_proofs=shuffle_proofs, seed=seeds[s],
                            defer_work=defer_work, proof_apart=proof_apart)
                       for s in range(n)], tamper=tamper)


@dataclass
class HandRun:
    """What :func:`run_hand` did."""

    #: The LocalTable of every instance used (more than one after a redeal).
    tables: list[LocalTable]
    #: The card the cutter drew (cut-and-draw opening), else None.
    drawn: Card | None
    #: The four opening table cards of the instance that was played.
    table: list[Card]
    #: Per seat, per deal of the hand, the cards dealt to it.
    deals: list[list[list[Card]]]
    #: Every card shown (played or placed), in order: (seat, card).
    shown: list[tuple[int, Card]]


def _opened(table: LocalTable, seat: int) -> StepOpened:
    evs = [e for e in table.take_events(seat) if isinstance(e, StepOpened)]
    assert len(evs) == 1, evs
    return evs[0]


def run_hand(n: int, dealer: int, *, opening: str = "cut", keep: bool = True,
             cut: int = 17, redeal: bool = True, session_id: bytes = b"local-table",
             hand: int = 0, seeds: Sequence[Sequence[bytes | None]] | None = None,
             shuffle_proofs: bool = False, tamper: Tamper | None = None,
             defer_work: bool = False, proof_apart: bool = False) -> HandRun:
    """Deal and play a whole hand between ``n`` honest local peers.

    The schedule is the default of ``rules.md``: the cutter is the dealer's right-hand
    neighbour ``(dealer + 1) % n`` and seats are served counter-clockwise from him;
    ``opening`` is ``"cut"`` (cut-and-draw; ``keep`` chooses keep or place) or ``"plain"``;
    three or four kings among the opening table cards redeal from a fresh instance (if
    ``redeal``).  Every seat plays its hand in position order.  ``seeds[i][s]`` fixes seat
    ``s``'s shuffle seed in instance ``i`` (tests only); ``tamper`` is passed to every
    :class:`LocalTable`; ``defer_work`` and ``proof_apart`` to every :class:`Deal`.
    """
    cutter = (dealer + 1) % n
    order = [(cutter + i) % n for i in range(n)]
    tables: list[LocalTable] = []
    instance = 0
    while True:
        t = make_table(n, session_id=session_id, hand=hand, instance=instance,
                       cutter=cutter if opening == "cut" else None,
                       shuffle_proofs=shuffle_proofs,
                       seeds=seeds[instance] if seeds and instance < len(seeds) else None,
                       tamper=tamper, defer_work=defer_work, proof_apart=proof_apart)
        tables.append(t)
        t.start()
        if opening == "cut":
            t.call(cutter, "cut", cut)
            t.deliver()
        for s in range(n):
            t.take_events(s)
        deals: list[list[list[Card]]] = [[] for _ in range(n)]
        drawn = None
        top = 0
        private: dict[int, list[int]] = {}
        if opening == "cut":
            t.call_all("open", {cutter: [0]})
            t.deliver()
            drawn = _opened(t, cutter).mine[0]
            for s in range(n):
                if s != cutter:
                    _opened(t, s)
            top = 1
            if keep:
                private[cutter] = [1, 2]
                top = 3
                table_pos = []
            else:
                t.call(cutter, "play", 0)
                t.deliver()
                table_pos = [0, 1, 2, 3]
                top = 4
                for s in range(n):
                    t.take_events(s)
        else:
            table_pos = []
        for s in order:
            if s not in private:
                private[s] = list(range(top, top + 3))
                top += 3
        if not table_pos:
            table_pos = list(range(top, top + 4))
            top += 4
            fresh_table = table_pos
        else:
            fresh_table = [1, 2, 3]
        t.call_all("open", private, fresh_table)
        t.deliver()
        steps = [_opened(t, s) for s in range(n)]
        table = [t.peers[0].card_at(p) for p in table_pos]
        assert all(c is not None for c in table)
        if redeal and sum(1 for c in table if c is not None and c.value == 10) >= 3:
            t.call_all("finish", discard=True)
            t.deliver()
            instance += 1
            continue
        break
    for s in range(n):
        deals[s].append([c for p, c in sorted(steps[s].mine.items())]
                        + ([drawn] if s == cutter and keep and drawn else []))
    shown: list[tuple[int, Card]] = []
    if drawn is not None and not keep:
        shown.append((cutter, drawn))
    while True:
        for _ in range(3):
            for s in order:
                pos = t.peers[s].hand_positions()[0]
                t.call(s, "play", pos)
                t.deliver()
                shown.append((s, t.peers[s].card_at(pos)))  # type: ignore[arg-type]
        for s in range(n):
            t.take_events(s)
        if top >= DECK_SIZE:
            break
        private = {}
        for s in order:
            private[s] = list(range(top, top + 3))
            top += 3
        t.call_all("open", private)
        t.deliver()
        for s in range(n):
            deals[s].append(sorted(_opened(t, s).mine.values()))
    t.call_all("finish")
    t.deliver()
    return HandRun(tables, drawn, [c for c in table if c is not None], deals, shown)
