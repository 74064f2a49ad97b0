"""How fast ``chkobba`` starts, against ``python -c pass`` measured in the same run.

- ``chkobba --help`` and every ``chkobba SUB --help`` (the command as its console script
  runs it: this interpreter importing :func:`chkobba_cli.main.main`);
- a headless bot peer's imports (``import chkobba_cli.commands.bot``, ``chkobba bot``'s module;
  ``chkobba_cli.support.botproc``, the bots ``chkobba play`` starts) and the imports of the
  terminal client's first screen (``chkobba_cli.commands.host`` and ``chkobba_cli.tui.app``);
- the first screen where a player can act in ``chkobba play --pace 0`` (a real pty at
  80x24 read through pyte, as tests/e2e/test_cli_play_pty.py does): from the process's start
  to the first screen that asks the player something (their turn, the cut, a capture
  choice).

Each figure is the median of ``--repeat`` runs (alternating with ``python -c pass``);
lines are ``name: value unit``, ratios against ``python -c pass`` beside them.

    python benchmarks/startup.py [--repeat 7] [--screens 3]

Goals (issue 29): every ``--help`` at most 2x ``python -c pass``; the first screen where
a player can act within 1.0 s.

``peak_rss_<peer>`` (issue 44): the peak resident memory of a peer process's imports (the
bot ``chkobba play`` starts, ``chkobba bot``, a library peer), median of ``--repeat`` runs;
a peer stays within 40 MB, its match included (``benchmarks/latency.py``; the headless host,
announcing its table and not, and ``chkobba bot``: ``benchmarks/peer_memory.py``).
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

from chkobba_cli.main import COMMANDS  # noqa: E402

ENTRY = "import sys; from chkobba_cli.main import main; sys.exit(main())"
ACTIVE = ("Your turn", "keep it", "several ways")  # the screen asks the player


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


#: A peer process's imports, for its peak resident memory (issue 44: at most 40 MB a peer,
#: the match included; ``benchmarks/latency.py`` measures a whole match's).
PEERS = {
    # the bot chkobba play starts, up to reading its address (stdin closed: it ends)
    "peak_rss_bot_peer": "import chkobba_cli.support.botproc as b; b.main(['-'])",
    # chkobba bot (a headless peer that prints its events)
    "peak_rss_headless_bot": "import chkobba_cli.commands.bot",
    # a library peer: the face, the network shell, a greedy bot
    "peak_rss_library_peer": ("from chkobba_p2p import BotController, join_match; "
                              "import chkobba_p2p._shell.net; BotController('greedy', 1)"),
}


def peak_rss_mb(code: str, env: dict[str, str]) -> float:
    """The peak resident memory (``ru_maxrss``) of a fresh interpreter running ``code``,
    with the modules' bytecode cached as an installed package has it."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport resource\n"
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"],
        env=env, cwd=ROOT, check=True, capture_output=True, text=True,
        stdin=subprocess.DEVNULL)
    return int(out.stdout.split()[-1]) / 1024


def first_screen(tmp: Path, timeout: float = 30.0) -> float:
    """Seconds from starting ``chkobba play --pace 0`` to the first screen that asks."""
    import pexpect
    import pyte

    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    env = _env()
    env.update({"CHKOBBA_DATA_DIR": str(tmp), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"})
    env.pop("NO_COLOR", None)
    start = time.perf_counter()
    child = pexpect.spawn(sys.executable, ["-c", ENTRY, "play", "--pace", "0", "--name",
                                           "bench"], cwd=str(ROOT), env=env,
                          dimensions=(24, 80))
    try:
        while time.perf_counter() - start < timeout:
            try:
                stream.feed(child.read_nonblocking(65536, timeout=0.005))
            except pexpect.TIMEOUT:
                continue
            text = "\n".join(screen.display)
            if any(a in text for a in ACTIVE):
                return time.perf_counter() - start
        raise SystemExit("no screen that asks the player within "
                         f"{timeout:g} s:\n" + "\n".join(screen.display))
    finally:
        child.terminate(force=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--screens", type=int, default=3,
                    help="runs of chkobba play to its first screen (0: skip)")
    args = ap.parse_args()
    env = _env()
    py = sys.executable
    cases: dict[str, list[str]] = {"chkobba_help": [py, "-c", ENTRY, "--help"]}
    for c in COMMANDS:
        cases[f"chkobba_{c.name}_help"] = [py, "-c", ENTRY, c.name, "--help"]
    for name, code in (
            ("import_bot_peer", "import chkobba_cli.commands.bot"),
            # the bot chkobba play starts, up to reading its address (none: it ends)
            ("import_play_bot_process", "import chkobba_cli.support.botproc as b; b.main(['-'])"),
            ("import_first_screen", "import chkobba_cli.commands.host, chkobba_cli.tui.app")):
        cases[name] = [py, "-c", code]
    base: list[tuple[float, float]] = []
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(args.repeat):
        for name, cmd in cases.items():
            base.append(_run([py, "-c", "pass"], env))
            times[name].append(_run(cmd, env))
    # Wall time, and CPU time (user + system: what a loaded machine disturbs least).
    pass_wall = statistics.median(w for w, _ in base)
    pass_cpu = statistics.median(c for _, c in base)
    print(f"python_c_pass: {pass_wall * 1000:.1f} ms wall, {pass_cpu * 1000:.1f} ms cpu")
    for name, ts in times.items():
        wall = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        print(f"{name}: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms cpu")
        print(f"{name}_ratio: {wall / pass_wall:.2f} x python_c_pass wall, "
              f"{cpu / pass_cpu:.2f} x cpu")
    for name, code in PEERS.items():
        peak_rss_mb(code, env)  # writes the bytecode the runs then read
        peaks = [peak_rss_mb(code, env) for _ in range(args.repeat)]
        print(f"{name}: {statistics.median(peaks):.1f} MB (goal 40)")
    pass_s = pass_wall
    if args.screens:
        shots = []
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(args.screens):
                shots.append(first_screen(Path(tmp) / str(i)))
        print(f"play_first_screen_to_act: {statistics.median(shots):.3f} s "
              f"(median of {len(shots)}; goal 1.0)")
        print(f"play_first_screen_to_act_ratio: {statistics.median(shots) / pass_s:.1f} "
              "x python_c_pass")


if __name__ == "__main__":
    main()
