"""Soak: whole matches between separate bot processes through a fault-injecting proxy.

Every joining peer reaches the host through a TCP proxy written here, which (with
``--faults``) delays chunks at random, resets connections, holds some half-open (nothing
flows, nothing closes: only the idle timeout finds out), and the benchmark kills joining
peers (SIGKILL) mid-match and restarts them from their saved state and log.  2- and
4-player matches alternate at random.  Afterwards every peer's log is replayed.

    python benchmarks/soak.py [--matches N] [--faults] [--seed S] [--parallel K]

Figures (one per line, ``name: value unit``):

* ``soak_matches``: matches played;
* ``soak_completed``: matches every peer reports complete, with the same result, and
  every peer's log replays VALID;
* ``soak_aborted_correct_blame``: matches that ended early where every signed record names
  a seat the benchmark faulted (killed, or whose link it broke; a joiner whose own link
  broke may name the host, which is all it can see), none is a proven fault (every bot is
  honest) and every log replays to an aborted or unfinished verdict, never INVALID;
* ``soak_crashes``: peer processes that died by themselves (a traceback, a non-zero exit)
  or hung past the match deadline;
* ``soak_wrong_blames``: records (or replays) blaming a seat that nothing faulted;
* ``soak_unreadable_logs``: logs the auditor cannot read at all;
* also ``soak_completed_not_valid`` (completed matches with a log that does not replay
  VALID), ``soak_faults`` (faults injected) and ``soak_wall`` (seconds).

With ``--faults`` some matches also meet a **time adversary** (issue 40, PROTOCOL.md
12.6): a host that announces a move clock ten times longer than the one it enforces, and
a joiner whose bot thinks at one move longer than the enforced clock but well inside the
announced one.  Two more figures:

* ``soak_honest_lost_on_time``: logs of a seat that never ran out of its own time (as
  the benchmark knows: it set the thinking) in which that seat is recorded as losing on
  time, or counted as losing by ``chkobba history`` over that seat's own logs;
* ``soak_time_adversaries``: matches played against a lying host.

Goal (issue 12): 0 crashes, 0 wrong blames, 0 unreadable logs, every completed match VALID.
The peers run with short timeouts (3 s idle, 10 s allowance of time away, 20 s per move) so
that faults are found quickly; the model is the one every peer runs (PROTOCOL.md 12).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

TIMEOUTS = {"handshake": 3.0, "frame": 3.0, "idle": 3.0, "reconnect": 10.0, "turn": 20.0}
MATCH_DEADLINE = 150.0  # seconds; a match still running then is a hang


# ------------------------------------------------------------------------- a peer process


def run_peer(args: argparse.Namespace) -> int:
    """One peer (``--role host|join``): plays to the end, writes its outcome as JSON."""
    from chkobba_p2p._shell.config import HostConfig, JoinConfig, Timeouts
    from chkobba_p2p._shell.peer import BotController, host_match, join_match
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.wire.codec import Identity

    identity = Identity.from_seed(bytes.fromhex(args.identity))
    timeouts = Timeouts(**TIMEOUTS)
    ctl = BotController("greedy", args.bot_seed)
    if args.think_at:
        ctl = _Thinker(args.bot_seed, args.think_at, args.think_secs)
    rules = Ruleset().with_target(args.target)
    if args.role == "host":
        cfg = HostConfig(players=args.players, rules=rules, port=args.port, bind="127.0.0.1",
                         name="host", identity=identity, log_path=Path(args.log),
                         beacon=False, shuffle_proofs=False, timeouts=timeouts)
        if args.lie:
            from chkobba_p2p.testing import lying_host

            # Announces ten times the move clock it enforces (a time adversary).
            liar = lying_host(move=int(TIMEOUTS["turn"] * 10),
                              away=int(TIMEOUTS["reconnect"]))
            outcome = trio.run(liar(cfg, ctl).run)
        else:
            outcome = trio.run(host_match, cfg, ctl)
    else:
        jcfg = JoinConfig(f"127.0.0.1:{args.port}", name=args.name, identity=identity,
                          state_path=Path(args.state), log_path=Path(args.log),
                          timeouts=timeouts, connect_retry=10.0)
        outcome = trio.run(join_match, jcfg, ctl)
    a = outcome.aborted
    Path(args.out).write_text(json.dumps({
        "seat": outcome.seat, "completed": outcome.completed,
        "done": None if outcome.done is None else [outcome.done.winner_side,
                                                   list(outcome.done.totals),
                                                   outcome.done.hands],
        "aborted": None if a is None else {"by": a.by_seat, "code": a.code.name.lower(),
                                           "blamed": a.blamed_seat, "standing": a.standing},
        "error_code": outcome.error_code, "log": str(outcome.log_path or args.log)}))
    return 0


def _thinker_base():
    from chkobba_p2p._shell.peer import BotController
    return BotController


class _Thinker(_thinker_base()):  # type: ignore[misc]
    """A greedy bot that thinks ``secs`` seconds at its ``at``-th play: past the move
    clock a lying host enforces, well inside the one it announces."""

    def __init__(self, seed: int, at: int, secs: float) -> None:
        super().__init__("greedy", seed)
        self.at, self.secs, self.plays = at, secs, 0

    async def choose_play(self, hand):
        self.plays += 1
        if self.plays == self.at:
            await trio.sleep(self.secs)
        return await super().choose_play(hand)


# --------------------------------------------------------------------------- the proxy


class Proxy:
    """Forwards one joiner's connections to the host, injecting faults when told to."""

    def __init__(self, target: int, rng: random.Random, faults: bool) -> None:
        self.target = target
        self.rng = rng
        self.faults = faults
        self.port = 0
        self.injected: list[str] = []
        self.frozen_until = 0.0
        self._conns: list[tuple[trio.SocketStream, trio.SocketStream, trio.CancelScope]] = []

    async def serve(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, down: trio.SocketStream) -> None:
        up = None
        for _ in range(100):  # the host process may still be starting
            try:
                up = await trio.open_tcp_stream("127.0.0.1", self.target)
                break
            except OSError:
                await trio.sleep(0.1)
        if up is None:
            await down.aclose()
            return
        with trio.CancelScope() as scope:
            entry = (down, up, scope)
            self._conns.append(entry)
            try:
                async with trio.open_nursery() as n:
                    n.start_soon(self._pipe, down, up)
                    n.start_soon(self._pipe, up, down)
            finally:
                self._conns.remove(entry)
        for s in (down, up):
            with trio.CancelScope(shield=True):
                await _hard_close(s)

    async def _pipe(self, src: trio.SocketStream, dst: trio.SocketStream) -> None:
        try:
            while data := await src.receive_some(65536):
                while trio.current_time() < self.frozen_until:  # a half-open path
                    await trio.sleep_until(self.frozen_until)
                if self.faults and self.rng.random() < 0.05:
                    await trio.sleep(self.rng.uniform(0.0, 0.25))  # a slow path
                await dst.send_all(data)
            await dst.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    async def reset(self) -> None:
        """Break every live connection at once (an RST both ways)."""
        self.injected.append("reset")
        for _, _, scope in list(self._conns):
            scope.cancel()

    async def half_open(self, seconds: float) -> None:
        """Stop forwarding without closing anything, for a while (only the peers' idle
        timeouts can find out); then break what is left."""
        self.injected.append("half_open")
        self.frozen_until = trio.current_time() + seconds
        await trio.sleep(seconds)
        for _, _, scope in list(self._conns):
            scope.cancel()


async def _hard_close(stream: trio.SocketStream) -> None:
    with contextlib.suppress(OSError, AttributeError):  # an RST, not a FIN
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 b"\x01\x00\x00\x00\x00\x00\x00\x00")
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        await stream.aclose()


# ------------------------------------------------------------------------------- a match


class Match:
    def __init__(self, index: int, players: int, rng: random.Random, faults: bool,
                 workdir: Path, target: int) -> None:
        #: A time adversary: the host lies about its clocks, one joiner thinks long.
        self.lie = faults and rng.random() < 0.3
        self.thinker = f"j{rng.randrange(1, players)}" if self.lie else None
        self.index = index
        self.players = players
        self.rng = rng
        self.faults = faults
        self.dir = workdir / f"m{index:04d}"
        self.dir.mkdir(parents=True)
        self.target = target
        self.procs: dict[str, subprocess.Popen] = {}
        self.killed: set[str] = set()  # peers the benchmark killed (then restarted)
        self.crashes = 0
        self.hung = 0
        self.n_faults = 0

    def _cmd(self, role: str, name: str, port: int) -> list[str]:
        return [sys.executable, str(Path(__file__).resolve()), "--role", role, "--port",
                str(port), "--players", str(self.players), "--name", name,
                "--identity", self.identity(name).hex(),
                "--bot-seed", str(self.rng.randrange(1 << 30)),
                "--log", str(self.dir / f"{name}.chklog"),
                "--state", str(self.dir / f"{name}.state"),
                "--out", str(self.dir / f"{name}.json"), "--target", str(self.target),
                *(["--lie"] if self.lie and role == "host" else []),
                *(["--think-at", "2", "--think-secs", str(TIMEOUTS["turn"] + 10)]
                  if name == self.thinker else [])]

    def identity(self, name: str) -> bytes:
        return bytes.fromhex(f"{self.index:08x}") + name.encode().ljust(28, b".")[:28]

    def _spawn(self, role: str, name: str, port: int) -> None:
        err = open(self.dir / f"{name}.err", "a")  # noqa: SIM115 - closed by the process end
        self.procs[name] = subprocess.Popen(self._cmd(role, name, port), cwd=ROOT, stdout=err,
                                            stderr=err, env=_env(self.dir))

    async def play(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            host_port = s.getsockname()[1]
        self._spawn("host", "host", host_port)
        joiners = [f"j{i}" for i in range(1, self.players)]
        self.proxies = {j: Proxy(host_port, random.Random(self.rng.random()), self.faults)
                        for j in joiners}
        async with trio.open_nursery() as nursery:
            for j in joiners:
                port = await nursery.start(self.proxies[j].serve)
                self._spawn("join", j, port)
            if self.faults and not self.lie:
                for j in joiners:
                    nursery.start_soon(self._inject, j)
            deadline = trio.current_time() + MATCH_DEADLINE
            while any(p.poll() is None for p in self.procs.values()):
                if trio.current_time() > deadline:
                    for p in self.procs.values():
                        if p.poll() is None:
                            p.kill()
                            self.hung += 1
                    break
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
        for name, p in self.procs.items():
            if p.returncode not in (0, None) and not (name in self.killed and p.returncode
                                                      == -signal.SIGKILL):
                self.crashes += 1

    async def _started(self) -> None:
        """Until the game runs: every seat has said ready in the host's log.  (Before it,
        a joiner whose handshake fails gives up and the host waits for players: the
        lobby has no clock, by design.)"""
        from chkobba_p2p.wire.logfile import read_log

        log = self.dir / "host.chklog"
        while True:
            with contextlib.suppress(Exception):
                if log.exists() and len(read_log(log).bodies) > self.players:
                    return
            await trio.sleep(0.1)

    async def _inject(self, name: str) -> None:
        """A few faults on one joiner, at random moments of the match."""
        proxy = self.proxies[name]
        await self._started()
        for _ in range(self.rng.randint(0, 2)):
            await trio.sleep(self.rng.uniform(0.5, 6.0))
            if self.procs[name].poll() is not None and name not in self.killed:
                return  # finished
            kind = self.rng.choice(["reset", "half_open", "kill"])
            self.n_faults += 1
            if kind == "reset":
                await proxy.reset()
            elif kind == "half_open":
                await proxy.half_open(self.rng.uniform(1.0, 5.0))
            else:
                proc = self.procs[name]
                if proc.poll() is not None:
                    continue
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                self.killed.add(name)
                proxy.injected.append("kill")
                await trio.sleep(self.rng.uniform(0.2, 2.0))
                self._spawn("join", name, proxy.port)

    # -------------------------------------------------------------------- verdicts

    def judge(self, stats: dict[str, int]) -> None:
        from chkobba_p2p.observe.audit import INVALID, VALID, audit_log
        from chkobba_p2p.transcript.events import Standing
        from chkobba_p2p.wire.logfile import LogUnreadable

        outcomes: dict[str, dict] = {}
        for name in self.procs:
            f = self.dir / f"{name}.json"
            if f.exists():
                outcomes[name] = json.loads(f.read_text())
        seat_of = {name: o["seat"] for name, o in outcomes.items() if o.get("seat") is not None}
        faulted = {seat_of[n] for n, px in self.proxies.items() if px.injected and n in seat_of}
        link_faulted = set(faulted)
        if self.thinker is not None and self.thinker in seat_of:
            faulted.add(seat_of[self.thinker])  # past the enforced clock: a flag names it
        stats["soak_faults"] += self.n_faults
        wrong = 0
        for o in outcomes.values():
            a = o["aborted"]
            if a is None or a["blamed"] is None:
                continue
            ok = a["standing"] != Standing.PROVEN and (
                a["blamed"] in faulted
                or (a["blamed"] == 0 and o["seat"] in link_faulted and a["by"] == o["seat"]))
            wrong += not ok
        verdicts = []
        for name in self.procs:
            log = self.dir / f"{name}.chklog"
            if not log.exists():
                continue
            try:
                r = audit_log(log, workers=0)
            except LogUnreadable:
                stats["soak_unreadable_logs"] += 1
                continue
            verdicts.append(r)
            if r.verdict == INVALID:
                wrong += 1
        # The thinking seat never ran out of its own clock (the one its host announced):
        # none of its own logs may record it as losing on time, nor count it as losing.
        if self.thinker is not None and self.thinker in seat_of:
            stats["soak_time_adversaries"] += 1
            from chkobba_p2p.observe.history import games, record_against, summarize
            log = self.dir / f"{self.thinker}.chklog"
            seat = seat_of[self.thinker]
            with contextlib.suppress(LogUnreadable):
                r = audit_log(log, workers=0)
                lg = summarize(r, "own")
                lost = (r.code == "on_time" and r.blamed == seat)
                (g,) = games([lg])
                keys = [s.key for s in g.seats]
                me = keys[seat]
                lost = lost or any(record_against([g], me, k).losses for k in keys
                                   if k != me)
                stats["soak_honest_lost_on_time"] += lost
                if lost:
                    print(f"match {self.index}: the thinking seat lost on time in its own "
                          f"log: {r.summary()}", file=sys.stderr, flush=True)
        completed = len(outcomes) == len(self.procs) and all(o["completed"]
                                                             for o in outcomes.values()) \
            and len({json.dumps(o["done"]) for o in outcomes.values()}) == 1
        stats["soak_matches"] += 1
        stats["soak_crashes"] += self.crashes + self.hung
        stats["soak_wrong_blames"] += wrong
        if completed:
            if all(r.verdict == VALID for r in verdicts):
                stats["soak_completed"] += 1
            else:
                stats["soak_completed_not_valid"] += 1
        elif wrong == 0 and self.crashes + self.hung == 0:
            stats["soak_aborted_correct_blame"] += 1
        if wrong or self.crashes or self.hung or (completed and any(
                r.verdict != VALID for r in verdicts)):
            print(f"match {self.index} ({self.players} players): faults "
                  f"{ {n: p.injected for n, p in self.proxies.items()} }, seats {seat_of}, "
                  f"outcomes { {n: (o['completed'], o['aborted']) for n, o in outcomes.items()} }"
                  f", verdicts {[r.summary()[:160] for r in verdicts]}, crashes {self.crashes}, "
                  f"hung {self.hung}, dir {self.dir}", file=sys.stderr, flush=True)


def _env(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["CHKOBBA_DATA_DIR"] = str(data)
    return env


async def soak(args: argparse.Namespace) -> dict[str, int]:
    rng = random.Random(args.seed)
    stats = dict.fromkeys(["soak_matches", "soak_completed", "soak_aborted_correct_blame",
                           "soak_crashes", "soak_wrong_blames", "soak_unreadable_logs",
                           "soak_completed_not_valid", "soak_faults",
                           "soak_honest_lost_on_time", "soak_time_adversaries"], 0)
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        todo = list(range(args.matches))
        done = 0

        async def worker() -> None:
            nonlocal done
            while todo:
                i = todo.pop(0)
                m = Match(i, rng.choice([2, 4]), random.Random(rng.random()), args.faults,
                          work, args.target)
                await m.play()
                await trio.to_thread.run_sync(m.judge, stats)
                done += 1
                if done % 10 == 0:
                    print(f"{done}/{args.matches} matches", file=sys.stderr, flush=True)

        async with trio.open_nursery() as n:
            for _ in range(args.parallel):
                n.start_soon(worker)
    return stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--faults", action="store_true", help="inject faults (else a clean run)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=2, help="matches at once")
    ap.add_argument("--target", type=int, default=11, help="points to win a match")
    ap.add_argument("--keep", help="keep every match's files under this directory")
    # The peer processes' own arguments.
    ap.add_argument("--role", choices=["host", "join"], help=argparse.SUPPRESS)
    for name in ("--port", "--players", "--bot-seed"):
        ap.add_argument(name, type=int, help=argparse.SUPPRESS)
    for name in ("--name", "--identity", "--log", "--state", "--out"):
        ap.add_argument(name, help=argparse.SUPPRESS)
    ap.add_argument("--lie", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--think-at", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--think-secs", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role:
        return run_peer(args)
    t0 = time.perf_counter()
    stats = trio.run(soak, args)
    units = {"soak_faults": "faults", "soak_crashes": "processes",
             "soak_wrong_blames": "records", "soak_unreadable_logs": "logs",
             "soak_honest_lost_on_time": "logs"}
    for name, value in stats.items():
        print(f"{name}: {value} {units.get(name, 'matches')}")
    print(f"soak_wall: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
