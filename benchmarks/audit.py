"""How long ``chkobba replay`` takes to audit a whole 4-peer match to 11.

The log comes from real processes: ``chkobba host --headless --players 4 --bots 3``
(greedy bots, loopback), once with shuffle proofs (the default) and once without; or pass
``--log FILE`` to audit an existing log.  The audit is :func:`chkobba_p2p.audit.audit_log`
(best of ``--repeat`` runs): every signature, the chain, every deal proof, every reveal and
shuffle re-check, every move, score and the full-knowledge replay; all in one process
(the default on 2 cores), then with 2 worker processes for the shuffle proofs.  Wall time,
and CPU time of this process and its workers together.

    python benchmarks/audit.py [--repeat 3] [--log FILE]

Goal (issue 5): a 4-peer match to 11 audited in at most 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chkobba_p2p.audit import VALID, audit_log  # noqa: E402


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


def measure(name: str, log: Path, repeat: int) -> None:
    report = None
    for workers, label in ((0, ""), (2, "_2_workers")):
        walls, cpus = [], []
        for _ in range(repeat):
            w, c = time.perf_counter(), _cpu()
            report = audit_log(log, workers=workers)
            walls.append(time.perf_counter() - w)
            cpus.append(_cpu() - c)
            if report.verdict != VALID:
                raise SystemExit(f"{log}: {report.summary()}")
        print(f"{name}_audit_wall{label}: {min(walls):.3f} s")
        print(f"{name}_audit_cpu{label}: {min(cpus):.3f} s")
    assert report is not None
    hands = sum(1 for r in report.records if r["type"] == "hand")
    print(f"{name}_entries: {report.entries} entries")
    print(f"{name}_hands: {hands} hands")
    print(f"{name}_log_size: {log.stat().st_size / 1024:.0f} KB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--log", type=Path, help="audit this log instead of playing matches")
    args = ap.parse_args()
    if args.log:
        measure("audit", args.log, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for proofs in (True, False):
            log = make_log(Path(tmp), proofs)
            measure("4p_proofs" if proofs else "4p_no_proofs", log, args.repeat)


if __name__ == "__main__":
    main()
