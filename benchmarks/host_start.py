"""How long ``chkobba host`` (the terminal client, in a pty at 80x24) takes to show the
address friends type: from starting the process to the LAN address on the screen.

    python benchmarks/host_start.py [--runs N] [--repo PATH] [-- EXTRA HOST OPTIONS]

``--repo`` measures another checkout (before/after a change).  The default options keep
every packet on this machine: no LAN announcement unless asked for on loopback, and, for
a checkout with port mapping, a "router" on loopback ports where nothing answers (what a
machine with no router sees, without asking the real gateway).

Goal (issue 17): port mapping and DNS-SD run in the background; the address shows as
fast as before them.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent


def _closed(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _command(repo: Path, links: Path) -> tuple[list[str], str]:
    """The command line and PYTHONPATH that run ``chkobba`` from ``repo`` (whose client
    package is ``chkobba_cli`` in the folder cli/, or ``cli`` in older checkouts)."""
    if "chkobba_cli" not in (repo / "pyproject.toml").read_text():
        return [sys.executable, "-m", "cli.main"], str(repo)
    link = links / "chkobba_cli"
    if not link.exists():
        link.symlink_to(repo / "cli")
    return [sys.executable, "-m", "chkobba_cli.main"], f"{repo}{os.pathsep}{links}"


def once(command: tuple[list[str], str], repo: Path, extra: list[str], data: str) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = command[1]
    env["CHKOBBA_DATA_DIR"] = data
    env.pop("CHKOBBA_NO_UPNP", None)
    argv = command[0] + ["host", "--port", "0", "--lang", "en", *extra]
    start = time.perf_counter()
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(repo), env=env, dimensions=(24, 80),
                          encoding="utf-8", timeout=60)
    try:
        child.expect(r"\d+\.\d+\.\d+\.\d+:\d+")
        return time.perf_counter() - start
    finally:
        child.terminate(force=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--repo", type=Path, default=ROOT)
    ap.add_argument("extra", nargs="*", help="more host options (after --)")
    args = ap.parse_args()
    repo = args.repo.resolve()
    extra = list(args.extra)
    links = Path(tempfile.mkdtemp())
    command = _command(repo, links)
    help_text = pexpect.run(" ".join(command[0] + ["host", "--help"]), cwd=str(repo),
                            env={**os.environ, "PYTHONPATH": command[1]}, encoding="utf-8")
    if not extra:
        if "--announce-interface" in help_text:
            extra += ["--announce-interface", "127.0.0.1"]
        else:
            extra += ["--no-beacon"]
        if "--igd-url" in help_text:
            extra += ["--igd-url", f"http://127.0.0.1:{_closed(socket.SOCK_STREAM)}/rootDesc.xml",
                      "--natpmp-gateway", f"127.0.0.1:{_closed(socket.SOCK_DGRAM)}"]
    times = []
    with tempfile.TemporaryDirectory() as data:
        for _ in range(args.runs):
            times.append(once(command, repo, extra, data))
    print(f"host_address_shown_median: {statistics.median(times) * 1000:.0f} ms")
    print(f"host_address_shown_min: {min(times) * 1000:.0f} ms")
    print(f"host_address_shown_max: {max(times) * 1000:.0f} ms")
    print(f"runs: {args.runs}")
    print("options: " + " ".join(extra))


if __name__ == "__main__":
    main()
