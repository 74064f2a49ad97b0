"""How long ``chkobba replay`` takes to audit a whole 4-peer match to 11.

The log comes from real processes: ``chkobba host --headless --players 4 --bots 3``
(greedy bots, loopback), once with shuffle proofs (the default) and once without; or pass
``--log FILE`` to audit an existing log.  The audit is :func:`chkobba_p2p.audit.audit_log`
(best of ``--repeat`` runs): every signature, the chain, every deal proof, every reveal and
shuffle re-check, every move, score and the full-knowledge replay; all in one process
(serial), then as ``chkobba replay`` does by default (a worker process per core beyond the
first checks the shuffle proofs, in batches), then with 2 workers.  Wall time, and CPU
time of this process and its workers together (medians of ``--repeat`` runs); the CPU per
hand with proofs against without, and the default's wall against the serial one's.

    python benchmarks/audit.py [--repeat 3] [--log FILE]

Goals: (issue 5) a 4-peer match to 11 audited in at most 0.5 s; (issue 29) audit CPU per
hand with proofs <= 2x without, wall on 2 cores <= 0.6x serial.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chkobba_p2p.audit import VALID, audit_log, default_workers  # noqa: E402


def make_log(directory: Path, proofs: bool) -> Path:
    log = directory / f"match-{'proofs' if proofs else 'noproofs'}.chklog"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["CHKOBBA_DATA_DIR"] = str(directory / "data")
    cmd = [sys.executable, "-m", "chkobba_cli.main", "host", "--headless", "--players", "4",
           "--bots", "3", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--quiet",
           "--log", str(log)]
    if not proofs:
        cmd.append("--no-shuffle-proofs")
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    return log


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the proof workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(name: str, log: Path, repeat: int) -> dict[str, float]:
    """Wall and CPU (this process and its workers) of the audit, median of ``repeat``:
    serial (``workers=0``), then the default (:func:`default_workers`), then 2 workers."""
    report = None
    figures: dict[str, float] = {}
    for workers, label in ((0, "_serial"), (None, "_default"), (2, "_2_workers")):
        walls, cpus = [], []
        for _ in range(repeat):
            w, c = time.perf_counter(), _cpu()
            report = audit_log(log, workers=workers)
            walls.append(time.perf_counter() - w)
            cpus.append(_cpu() - c)
            if report.verdict != VALID:
                raise SystemExit(f"{log}: {report.summary()}")
        figures[f"wall{label}"] = statistics.median(walls)
        figures[f"cpu{label}"] = statistics.median(cpus)
    assert report is not None
    hands = sum(1 for r in report.records if r["type"] == "hand")
    for label in ("_serial", "_default", "_2_workers"):
        print(f"{name}_audit_wall{label}: {figures['wall' + label]:.3f} s")
        print(f"{name}_audit_cpu{label}: {figures['cpu' + label]:.3f} s")
    figures["cpu_per_hand"] = figures["cpu_serial"] / hands
    print(f"{name}_audit_cpu_per_hand_serial: {figures['cpu_per_hand'] * 1000:.0f} ms")
    print(f"{name}_audit_wall_default_ratio: "
          f"{figures['wall_default'] / figures['wall_serial']:.2f} x serial "
          f"({default_workers()} workers on {_cores()} cores)")
    print(f"{name}_entries: {report.entries} entries")
    print(f"{name}_hands: {hands} hands")
    print(f"{name}_log_size: {log.stat().st_size / 1024:.0f} KB")
    return figures


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--log", type=Path, help="audit this log instead of playing matches")
    args = ap.parse_args()
    if args.log:
        measure("audit", args.log, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        got = {}
        for proofs in (True, False):
            log = make_log(Path(tmp), proofs)
            got[proofs] = measure("4p_proofs" if proofs else "4p_no_proofs", log, args.repeat)
        print(f"4p_audit_cpu_per_hand_proofs_ratio: "
              f"{got[True]['cpu_per_hand'] / got[False]['cpu_per_hand']:.2f} x no proofs "
              "(goal <= 2)")


if __name__ == "__main__":
    main()
