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
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
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


def match(pythonpath: str, beacon: bool) -> dict[str, float]:
    """One match between a headless host and a bot: each one's peak RSS in MB."""
    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(CHKOBBA_DATA_DIR=data, CHKOBBA_NO_UPNP="1", PYTHONPATH=pythonpath)
        host_argv = [sys.executable, "-c", ENTRY, "host", "--headless", "--port", "0",
                     "--bind", "127.0.0.1", "--players", "2", "--no-upnp", "--quiet"]
        host_argv += ["--announce-interface", "127.0.0.1"] if beacon else ["--no-beacon"]
        host = subprocess.Popen(host_argv, env=env, cwd=data, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert host.stdout is not None
        code = None
        for line in host.stdout:
            found = re.search(r"127\.0\.0\.1:\d+#[0-9a-f-]+", line)
            if found:
                code = found.group(0)
                break
        if code is None:
            raise SystemExit("the host showed no join code")
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
        return peaks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repo", type=Path, action="append", default=[])
    args = ap.parse_args()
    repos = [r.resolve() for r in args.repo] or [ROOT]
    with tempfile.TemporaryDirectory() as links:
        paths = {repo: _pythonpath(repo, Path(links)) for repo in repos}
        peaks: dict[Path, dict[str, list[float]]] = {r: {k: [] for k in ROLES} for r in repos}
        for repo in repos:  # writes the bytecode the runs then read
            match(paths[repo], beacon=True)
        for _ in range(args.runs):
            for repo in repos:
                for beacon in (True, False):
                    got = match(paths[repo], beacon)
                    peaks[repo]["host_beacon" if beacon else "host_no_beacon"].append(got["host"])
                    peaks[repo]["bot"].append(got["bot"])
    for repo in repos:
        if len(repos) > 1:
            print(f"# {repo}")
        for role in ROLES:
            print(f"peak_rss_match_{role}: {statistics.median(peaks[repo][role]):.1f} MB "
                  "(goal 40)")
    print(f"runs: {args.runs}")


if __name__ == "__main__":
    main()
