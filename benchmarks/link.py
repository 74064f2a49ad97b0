"""The link layer's costs: admitting strangers under a flood, and streaming a long backlog.

    python benchmarks/link.py [--runs N] [--entries N]

- ``admission_opens_per_s``: connections the admission core takes per second while its
  strangers' budget (64) is full, so every one lets another go (a flood from many
  addresses, the worst case of its eviction choice).  The host's accept loop in Python
  costs far more per connection; this says the policy is never the bottleneck.
- ``backlog_entries_per_s`` and ``backlog_mb_per_s``: a late spectator's backlog of
  ``--entries`` transcript-sized frames through ``stream.Link`` to a reader on a
  ``trio.testing`` memory stream (no socket: what the writer and the backlog cost).

Each figure is the median of ``--runs`` runs, one line each: ``name: value unit``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import trio
import trio.testing

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p._shell.config import Timeouts  # noqa: E402
from chkobba_p2p._shell.stream import Link  # noqa: E402
from chkobba_p2p.link.admission import Admission, AdmissionPolicy  # noqa: E402
from chkobba_p2p.wire import codec as wire  # noqa: E402


def admission_rate(n: int = 200_000) -> float:
    a: Admission[int] = Admission(AdmissionPolicy(strangers=64))
    start = time.perf_counter()
    for i in range(n):
        a.opened(i, f"198.51.{i % 250}.{i % 200}", i * 1e-4)
    return n / (time.perf_counter() - start)


async def _backlog(entries: int) -> tuple[float, int]:
    bodies = [wire.encode({"t": "sig", "p": bytes(180), "s": bytes(64)}) for _ in range(entries)]
    ours, theirs = trio.testing.memory_stream_pair()
    link = Link(ours, Timeouts(idle=600, frame=600))
    decoder = wire.FrameDecoder(wire.MAX_FRAME)
    got = 0
    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.writer)
        link.send_backlog(bodies)
        link.finish()
        while got < entries:
            data = await theirs.receive_some(65536)
            if not data:
                break
            got += len(decoder.feed(data))
    elapsed = time.perf_counter() - start
    if got != entries:
        raise SystemExit(f"the backlog delivered {got} of {entries} entries")
    return elapsed, sum(len(b) + 4 for b in bodies)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--entries", type=int, default=20_000)
    args = p.parse_args()
    rates = [admission_rate() for _ in range(args.runs)]
    runs = [trio.run(_backlog, args.entries) for _ in range(args.runs)]
    secs = statistics.median(r[0] for r in runs)
    size = runs[0][1]
    print(f"admission_opens_per_s: {statistics.median(rates):.0f} /s")
    print(f"backlog_entries_per_s: {args.entries / secs:.0f} /s")
    print(f"backlog_mb_per_s: {size / secs / 1e6:.1f} MB/s")


if __name__ == "__main__":
    main()
