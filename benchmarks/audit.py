"""How long ``chkobba replay`` takes to audit 4-peer matches to 11, per hand.

The logs come from real processes: ``chkobba host --headless --players 4 --bots 3``
(greedy bots, loopback), matches with shuffle proofs (the default) and matches without,
played until each kind holds at least ``--hands`` hands; or pass ``--log FILE`` to audit
an existing log.  The audit is :func:`chkobba_p2p.observe.audit.audit_log`: every signature, the
chain, every deal proof, every reveal and shuffle re-check, every move, score and the
full-knowledge replay.  Each way of auditing runs ``--repeat`` times, the ways interleaved
(the machine's load then weighs on all alike); medians.  Ways, for the logs with proofs:

* ``before``: as before issue 29, each shuffle proof checked in full as it comes, in one
  process (``batch=False, workers=0``); what ``chkobba replay`` did with workers before
  is not reproducible any more (with workers the proofs now always wait for their seeds);
* ``serial``: each deck's proofs checked once its seeds are open, with the witness and,
  for proofs whose commitments the seed gives, with those too (``batch=True``), in one
  process (``chkobba replay --jobs 1``);
* ``default``: the same with :func:`default_workers` worker processes (``chkobba replay``).

CPU is this process's and its workers' together; ``two_process_cpu_inflation`` (measured
in every round) says how much more CPU the same libsodium work costs on this machine when
two processes run it at once, the part of the default's CPU that parallelism itself adds.
``--split`` adds two ways whose shuffle proofs are *not* checked (a no-op stands in for
the check: measurement only), in one process and with the default's worker, so that the
price of the worker itself (its fork, the copy-on-write faults it brings this process, the
tasks sent and answered) is a figure apart from the checks' own CPU.
Printed: CPU per hand with proofs and without, their ratio (before and now), wall per
hand of each way and the default's wall against the serial audit's of before.

    python benchmarks/audit.py [--hands 12] [--repeat 3] [--log FILE] [--split]

Goals: (issue 5) a 4-peer match to 11 audited in at most 0.5 s; (issue 29) audit CPU per
hand with proofs <= 2x without, wall on 2 cores <= 0.6x before's serial.
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

from chkobba_p2p.deal import passed  # noqa: E402
from chkobba_p2p.observe import proofs  # noqa: E402
from chkobba_p2p.observe.audit import VALID, audit_log, default_workers  # noqa: E402
from chkobba_p2p.wire.codec import keep_verified_signatures  # noqa: E402

#: name -> audit_log's keywords, for the logs with proofs.
WAYS = {
    "before": {"workers": 0, "batch": False},
    "serial": {"workers": 0, "batch": True},
    "default": {"workers": None, "batch": True},
}


def make_log(directory: Path, proofs: bool, k: int = 0) -> Path:
    log = directory / f"match-{'proofs' if proofs else 'noproofs'}-{k}.chklog"
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


def _hands(log: Path) -> int:
    report = audit_log(log, workers=0)
    if report.verdict != VALID:
        raise SystemExit(f"{log}: {report.summary()}")
    return sum(1 for r in report.records if r["type"] == "hand")


def _no_check(*args: object, **kw: object) -> None:
    """Stands in for a shuffle proof's check in the ``unchecked`` ways (module level:
    a forked worker finds it by name)."""
    return None


def _audit(logs: list[Path], kw: dict) -> tuple[float, float]:
    """Wall and CPU seconds to audit every log once (``unchecked=True`` in ``kw``: the
    shuffle proofs' checks replaced by a no-op, for the ``--split`` ways)."""
    kw = dict(kw)
    real = proofs.check_shuffle_proof
    if kw.pop("unchecked", False):
        proofs.check_shuffle_proof = _no_check
    try:
        w, c = time.perf_counter(), _cpu()
        for log in logs:
            report = audit_log(log, **kw)
            if report.verdict != VALID:
                raise SystemExit(f"{log}: {report.summary()}")
        return time.perf_counter() - w, _cpu() - c
    finally:
        proofs.check_shuffle_proof = real


def _mul_loop(_: object = None) -> float:
    """CPU seconds of a fixed run of libsodium multiplications (the proofs' work)."""
    from chkobba_p2p.deal import group
    p, k = group.hash_to_point(b"bench", b"contention"), group.random_scalar()
    t = time.process_time()
    for _ in range(2000):
        group.mul(k, p)
    return time.process_time() - t


def contention() -> float:
    """How much more CPU the same work costs when two processes run it at once: on a
    virtual machine whose two cores share a physical one (or a busy host) this, not the
    audit's code, is what a worker process adds to the CPU total."""
    import multiprocessing
    alone = _mul_loop()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        both = pool.map(_mul_loop, [0, 1])
    return statistics.mean(both) / alone


#: The ``--split`` ways: the logs with proofs audited without checking the proofs.
SPLIT_WAYS = {
    "unchecked_serial": {"workers": 0, "batch": True, "unchecked": True},
    "unchecked_worker": {"workers": 1, "batch": True, "unchecked": True},
}


def measure(sets: dict[str, list[Path]], repeat: int,
            split: bool = False) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) per hand of each way, the ways interleaved in every round."""
    hands = {name: sum(_hands(log) for log in logs) for name, logs in sets.items()}
    ways = [(f"proofs_{w}", "proofs", kw)
            for w, kw in (WAYS | (SPLIT_WAYS if split else {})).items()]
    if "no_proofs" in sets:
        ways.insert(0, ("no_proofs_serial", "no_proofs", {"workers": 0}))
    got: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in ways}
    inflation = []
    for _ in range(repeat):
        for name, kind, kw in ways:
            wall, cpu = _audit(sets[kind], kw)
            got[name].append((wall / hands[kind], cpu / hands[kind]))
        inflation.append(contention())
    print(f"two_process_cpu_inflation: {statistics.median(inflation):.2f} x (the same "
          "libsodium work run by two processes at once, against one alone)")
    for kind, logs in sets.items():
        print(f"4p_{kind}_hands: {hands[kind]} hands in {len(logs)} matches")
        print(f"4p_{kind}_log_size: {sum(p.stat().st_size for p in logs) / 1024:.0f} KB")
    return {name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
            for name, v in got.items()}


def report(m: dict[str, tuple[float, float]], matches: float) -> None:
    workers = default_workers()
    for name, (wall, cpu) in m.items():
        print(f"4p_{name}_audit_cpu_per_hand: {cpu * 1000:.1f} ms")
        print(f"4p_{name}_audit_wall_per_hand: {wall * 1000:.1f} ms")
    if "no_proofs_serial" in m:
        base = m["no_proofs_serial"][1]
        print(f"4p_audit_cpu_per_hand_proofs_ratio_before: {m['proofs_before'][1] / base:.2f} "
              "x no proofs (each proof in full as it comes)")
        print(f"4p_audit_cpu_per_hand_proofs_ratio: {m['proofs_serial'][1] / base:.2f} x no "
              "proofs (goal <= 2)")
        print(f"4p_audit_cpu_per_hand_proofs_ratio_default: {m['proofs_default'][1] / base:.2f}"
              f" x no proofs (with {_n_workers(workers)}, their CPU included)")
    print(f"4p_proofs_audit_wall_default_ratio: "
          f"{m['proofs_default'][0] / m['proofs_before'][0]:.2f} x before's serial "
          f"(goal <= 0.6; {_n_workers(workers)} on {_cores()} cores)")
    print(f"4p_proofs_audit_wall_workers_vs_serial: "
          f"{m['proofs_default'][0] / m['proofs_serial'][0]:.2f} x serial now")
    print(f"4p_proofs_audit_wall_per_match_default: {m['proofs_default'][0] * matches:.3f} s "
          "(goal <= 0.5)")
    if "proofs_unchecked_serial" in m:
        alone, pooled = m["proofs_unchecked_serial"][1], m["proofs_unchecked_worker"][1]
        checks = m["proofs_serial"][1] - alone
        print(f"4p_proof_checks_cpu_per_hand: {checks * 1000:.1f} ms (serial less unchecked)")
        print(f"4p_worker_itself_cpu_per_hand: {(pooled - alone) * 1000:.1f} ms (a worker "
              "given no-op checks, against none)")
        print(f"4p_worker_contention_cpu_per_hand: "
              f"{(m['proofs_default'][1] - m['proofs_serial'][1] - (pooled - alone)) * 1000:.1f}"
              " ms (the rest of the default's extra CPU over serial)")


def _n_workers(n: int) -> str:
    return f"{n} worker" if n == 1 else f"{n} workers"


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def main() -> None:
    # Each audit of the same log checks every proof in full, as ``chkobba replay`` does
    # once: no memory of the checks a previous round passed (deal/passed.py), nor of the
    # signatures it verified (wire.codec.verify_signature).
    passed.set_enabled(False)
    keep_verified_signatures(False)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--hands", type=int, default=12,
                    help="play matches until each kind holds this many hands")
    ap.add_argument("--log", type=Path, help="audit this log (with proofs) instead")
    ap.add_argument("--split", action="store_true",
                    help="also audit with the proofs unchecked, alone and with a worker: "
                         "the worker's own price apart from the checks'")
    ap.add_argument("--keep", type=Path, default=None,
                    help="keep the played logs in this directory (reused if it holds them)")
    args = ap.parse_args()
    if args.log:
        m = measure({"proofs": [args.log]}, args.repeat, args.split)
        report(m, float(_hands(args.log)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        sets: dict[str, list[Path]] = {}
        for proofs in (True, False):
            kind = "proofs" if proofs else "no_proofs"
            logs: list[Path] = []
            while sum(_hands(p) for p in logs) < args.hands:
                k = len(logs)
                kept = where / f"match-{'proofs' if proofs else 'noproofs'}-{k}.chklog"
                logs.append(kept if args.keep and kept.exists()
                            else make_log(where, proofs, k))
            sets[kind] = logs
        m = measure(sets, args.repeat, args.split)
        hands = sum(_hands(p) for p in sets["proofs"])
        report(m, hands / len(sets["proofs"]))


if __name__ == "__main__":
    main()
