"""A peer's peak memory over a whole match (issue 44: at most 40 MB a peer): ``chkobba host
--headless`` (announcing its table on the LAN, and not) against ``chkobba bot``, a match
to 11 on loopback, each process's peak resident memory (``ru_maxrss``) from ``wait4``.

    python benchmarks/peer_memory.py [--runs 3] [--repo PATH ...]

Each ``--repo`` is a checkout to measure (default: this one); several are measured in
turn, run after run, in one sitting (before/after a change).  The announcement stays on
this machine (``--announce-interface 127.0.0.1``); no port mapping.  Lines, medians of
``--runs``::

    peak_rss_match_host_beacon: 42.2 MB (goal 40)

The bytecode of the modules is cached, as an installed package has it (this machine's
``PYTHONDONTWRITEBYTECODE``, which adds 3-5 MB to every figure, is unset for the runs).

``--timeline`` also samples each host's resident memory every 20 ms (``/proc/PID/status``,
Linux) and prints, besides its peak, what it held when it showed its join code (its
imports; its beacon starts after) and at its last sample (the match over): a peak that
is a transient stands above both; a peak that is the steady state equals the last one::

    rss_host_beacon_at_join_code: 35.6 MB
    rss_host_beacon_at_end: 41.8 MB
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = "import sys; from chkobba_cli.main import main; sys.exit(main())"
ROLES = ("host_beacon", "host_no_beacon", "bot")


def _pythonpath(repo: Path, links: Path) -> str:
    """``repo``'s library and its client package, ``chkobba_cli`` (the folder cli/)."""
    link = links / repo.name / "chkobba_cli"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists():
        link.symlink_to(repo / "cli")
    return f"{repo}{os.pathsep}{link.parent}"


def _rss_mb(pid: int) -> float | None:
    """A process's resident memory now, in MB (None once it has ended)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            found = re.search(r"VmRSS:\s+(\d+) kB", f.read())
    except OSError:
        return None
    return int(found.group(1)) / 1024 if found else None


def _sample(pid: int, into: list[float]) -> None:
    """Append ``pid``'s resident memory every 20 ms until it ends."""
    while (rss := _rss_mb(pid)) is not None:
        into.append(rss)
        time.sleep(0.02)


def match(pythonpath: str, beacon: bool, timeline: bool = False) -> dict[str, float]:
    """One match between a headless host and a bot: each one's peak RSS in MB (and, with
    ``timeline``, the host's resident memory when it showed its code and at the end)."""
    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(CHKOBBA_DATA_DIR=data, CHKOBBA_NO_UPNP="1", PYTHONPATH=pythonpath)
        host_argv = [sys.executable, "-c", ENTRY, "host", "--headless", "--port", "0",
                     "--bind", "127.0.0.1", "--players", "2", "--no-upnp", "--quiet"]
        host_argv += ["--announce-interface", "127.0.0.1"] if beacon else ["--no-beacon"]
        host = subprocess.Popen(host_argv, env=env, cwd=data, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert host.stdout is not None
        samples: list[float] = []
        sampler = threading.Thread(target=_sample, args=(host.pid, samples), daemon=True)
        if timeline:
            sampler.start()
        code = None
        for line in host.stdout:
            found = re.search(r"127\.0\.0\.1:\d+#[0-9a-f-]+", line)
            if found:
                code = found.group(0)
                break
        if code is None:
            raise SystemExit("the host showed no join code")
        at_code = _rss_mb(host.pid) if timeline else None
        bot = subprocess.Popen([sys.executable, "-c", ENTRY, "bot", "--quiet", code], env=env,
                               cwd=data, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peaks: dict[str, float] = {}
        for proc, role in ((bot, "bot"), (host, "host")):
            if proc is host:
                host.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                raise SystemExit(f"{role} ended with status {proc.returncode}")
            peaks[role] = usage.ru_maxrss / 1024
        if timeline:
            sampler.join()
            if at_code is not None and samples:
                peaks["host_at_join_code"], peaks["host_at_end"] = at_code, samples[-1]
        return peaks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repo", type=Path, action="append", default=[])
    ap.add_argument("--timeline", action="store_true",
                    help="also each host's memory when it showed its code and at the end")
    args = ap.parse_args()
    repos = [r.resolve() for r in args.repo] or [ROOT]
    with tempfile.TemporaryDirectory() as links:
        paths = {repo: _pythonpath(repo, Path(links)) for repo in repos}
        peaks: dict[Path, dict[str, list[float]]] = {r: {k: [] for k in ROLES} for r in repos}
        moments: dict[Path, dict[str, list[float]]] = {r: {} for r in repos}
        for repo in repos:  # writes the bytecode the runs then read
            match(paths[repo], beacon=True)
        for _ in range(args.runs):
            for repo in repos:
                for beacon in (True, False):
                    got = match(paths[repo], beacon, args.timeline)
                    host = "host_beacon" if beacon else "host_no_beacon"
                    peaks[repo][host].append(got["host"])
                    peaks[repo]["bot"].append(got["bot"])
                    for moment in ("at_join_code", "at_end"):
                        if f"host_{moment}" in got:
                            moments[repo].setdefault(f"rss_{host}_{moment}", []).append(
                                got[f"host_{moment}"])
    for repo in repos:
        if len(repos) > 1:
            print(f"# {repo}")
        for role in ROLES:
            print(f"peak_rss_match_{role}: {statistics.median(peaks[repo][role]):.1f} MB "
                  "(goal 40)")
        for name, values in moments[repo].items():
            print(f"{name}: {statistics.median(values):.1f} MB")
    print(f"runs: {args.runs}")


if __name__ == "__main__":
    main()
