"""``chkobba history`` over a folder of logs: the first run (every log audited) and the
second (every audit from the cache, each log only hashed).

Run: python benchmarks/history.py [--logs N] [--distinct D] [--unique]
Prints one figure per line (`name: value unit`).  The folder holds N logs: copies of D
distinct matches played in process by the library's sessions (tests/support/history.py),
so the first run audits D logs and hashes N; the second audits none.  ``--unique`` gives
every copy its own header date (the header is not signed: the log stays valid), so every
file has its own hash: the first run audits all N and the cache holds N entries.  Goal:
the second run under a second for 1,000 logs.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.history import build  # noqa: E402

from chkobba_p2p.observe.history import AuditCache, games, index_logs, ratings  # noqa: E402
from chkobba_p2p.wire import codec as wire  # noqa: E402
from chkobba_p2p.wire.logfile import MAGIC  # noqa: E402


def redated(data: bytes, i: int) -> bytes:
    """The log with its (unsigned) header's date moved by ``i`` minutes."""
    if not data.startswith(MAGIC):
        return data + b"\n" * (i + 1)  # the junk file: still junk, its own bytes
    start = len(MAGIC)
    n = int.from_bytes(data[start:start + 4], "big")
    header = wire.decode(data[start + 4:start + 4 + n])
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC) + datetime.timedelta(minutes=i)
    header["created"] = when.isoformat(timespec="seconds")
    return MAGIC + wire.frame(wire.encode(header)) + data[start + 4 + n:]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--logs", type=int, default=1000)
    p.add_argument("--distinct", type=int, default=0,
                   help="distinct matches (default: all of the test folder's)")
    p.add_argument("--unique", action="store_true",
                   help="every copy with its own header date, so its own hash")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "matches"
        build(base)
        sources = sorted(base.glob("*.chklog"))
        if args.distinct:
            sources = sources[:args.distinct]
        folder = Path(tmp) / "logs"
        folder.mkdir()
        for i in range(args.logs):
            src = sources[i % len(sources)]
            dest = folder / f"{i:05}-{src.name}"
            if args.unique:
                dest.write_bytes(redated(src.read_bytes(), i))
            else:
                shutil.copy(src, dest)
        size = sum(f.stat().st_size for f in folder.iterdir())
        cache_file = Path(tmp) / "cache" / "history.json"
        print(f"logs: {args.logs} files")
        print(f"distinct logs: {len(sources)} files")
        print(f"folder size: {size / 1e6:.1f} MB")

        t0 = time.perf_counter()
        first = games(index_logs(folder, cache=AuditCache(cache_file).load()))
        t1 = time.perf_counter()
        audited = len(cache_file.exists() and AuditCache(cache_file).load().entries or ())
        print(f"first run: {t1 - t0:.2f} s")
        print(f"logs audited in the first run: {audited} files")

        t0 = time.perf_counter()
        second = games(index_logs(folder, cache=AuditCache(cache_file).load()))
        t1 = time.perf_counter()
        print(f"second run: {t1 - t0:.3f} s")
        t2 = time.perf_counter()
        pools = ratings(second)
        t3 = time.perf_counter()
        print(f"ratings over the counted matches: {(t3 - t2) * 1000:.1f} ms")
        print(f"cache size: {cache_file.stat().st_size / 1e3:.1f} kB")
        assert [g.log.verdict for g in first] == [g.log.verdict for g in second]
        assert pools == ratings(first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
