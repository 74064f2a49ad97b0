"""Whole 4-peer matches to 11 between bot processes on loopback.

``chkobba host --headless --players 4`` and three ``chkobba bot`` processes (greedy bots,
shuffle proofs on, every entry checked by every peer).  Per match: wall time from starting
the host process to the last peer's exit (process start-up included), time per hand,
bytes sent + received per peer, peak RSS per peer (each peer reports its own).

    python benchmarks/match.py [--matches N] [--level greedy] [--compare DIR]

Goals (issue 4): at most 5 s wall per match with greedy bots; at most 80 MB RSS per peer.

``--compare DIR``: DIR is another checkout of this project (an older commit, say); its
matches (its ``chkobba_p2p`` first on the path) alternate with this tree's in the same run,
and the ``compare:`` lines give its medians and the ratio of this tree's to its.  The
command line package (``chkobba_cli``) is the installed one in both.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _env(data: str, root: Path = ROOT) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    env["CHKOBBA_DATA_DIR"] = data
    return env


def _stats(out: str) -> tuple[str, int, float, float]:
    result = next(line for line in out.splitlines() if line.startswith("result: "))
    m = re.search(r"stats: sent (\d+) B, received (\d+) B, peak RSS ([\d.]+) MB, "
                  r"CPU ([\d.]+) s", out)
    assert m, out
    return result, int(m.group(1)) + int(m.group(2)), float(m.group(3)), float(m.group(4))


def one_match(level: str, data: str, proofs: bool, root: Path = ROOT) -> dict[str, float]:
    env = _env(data, root)
    cmd = [sys.executable, "-m", "chkobba_cli.main"]
    with socket.socket() as s:  # a free port, so that every process starts at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    host = subprocess.Popen(cmd + ["host", "--headless", "--players", "4", "--port", str(port),
                                   "--bind", "127.0.0.1", "--no-beacon", "--quiet",
                                   "--level", level]
                            + ([] if proofs else ["--no-shuffle-proofs"]),
                            cwd=root, env=env, stdout=subprocess.PIPE, text=True)
    bots = [subprocess.Popen(cmd + ["bot", f"127.0.0.1:{port}", "--quiet", "--level", level,
                                    "--name", f"bot{i}", "--connect-retry", "30"],
                             cwd=root, env=env, stdout=subprocess.PIPE, text=True)
            for i in range(3)]
    outs = [host.communicate(timeout=120)[0]] + [b.communicate(timeout=120)[0] for b in bots]
    wall = time.perf_counter() - t0
    if any(p.returncode for p in [host, *bots]):
        raise RuntimeError("a peer failed:\n" + "\n".join(outs))
    stats = [_stats(o) for o in outs]
    results = {s[0] for s in stats}
    assert len(results) == 1, results
    hands = int(re.search(r"after (\d+) hands", stats[0][0]).group(1))  # type: ignore[union-attr]
    return {"wall": wall, "hands": hands, "bytes": max(s[1] for s in stats[1:]),
            "host_bytes": stats[0][1],
            "rss": max(s[2] for s in stats), "cpu": max(s[3] for s in stats),
            "cpu_all": sum(s[3] for s in stats)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--compare", type=Path, default=None, metavar="DIR",
                        help="another checkout whose matches alternate with this tree's")
    args = parser.parse_args()
    other: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as data:
        runs = []
        for _ in range(args.matches):
            runs.append(one_match(args.level, data, True))
            if args.compare is not None:
                other.append(one_match(args.level, data, True, args.compare.resolve()))
    walls = [r["wall"] for r in runs]
    per_hand = [r["wall"] / r["hands"] for r in runs]
    print(f"matches: {len(runs)} count")
    print(f"wall per match (mean): {statistics.mean(walls):.2f} s")
    print(f"wall per match (max): {max(walls):.2f} s")
    print(f"hands per match (mean): {statistics.mean(r['hands'] for r in runs):.1f} hands")
    print(f"time per hand (mean): {statistics.mean(per_hand):.2f} s")
    print(f"bytes per joining peer per match (max, sent+received): "
          f"{max(r['bytes'] for r in runs) / 1024:.0f} KB")
    print(f"bytes at the host (the relay) per match (max, sent+received): "
          f"{max(r['host_bytes'] for r in runs) / 1024:.0f} KB")
    print(f"peak RSS per peer (max): {max(r['rss'] for r in runs):.1f} MB")
    print(f"CPU per peer per match (max): {max(r['cpu'] for r in runs):.2f} s")
    print(f"CPU of all 4 peers per match (mean): "
          f"{statistics.mean(r['cpu_all'] for r in runs):.2f} s")
    if other:
        print(f"time per hand (median): {statistics.median(per_hand):.3f} s")
        theirs = [r["wall"] / r["hands"] for r in other]
        print(f"compare: time per hand (median) of {args.compare}: "
              f"{statistics.median(theirs):.3f} s")
        print(f"compare: time per hand, this tree / {args.compare} (medians): "
              f"{statistics.median(per_hand) / statistics.median(theirs):.2f} ratio")
        print(f"compare: CPU of all 4 peers per hand (median), this tree: "
              f"{statistics.median(r['cpu_all'] / r['hands'] for r in runs):.3f} s, "
              f"{args.compare}: "
              f"{statistics.median(r['cpu_all'] / r['hands'] for r in other):.3f} s")


if __name__ == "__main__":
    main()
