"""A hand at a distance: sequential round trips per hand, against the lower bound the
rules allow, with real peer processes on loopback (issue 44).

    python benchmarks/latency.py [--delay 0.15] [--players 2,3,4] [--hands 3] [--quick]

Each table is one host process and its joiners, separate processes running the library's
``host_match`` / ``join_match`` with greedy bots that answer at once (no thinking time),
shuffle proofs on (the default a person gets).  Every joiner reaches the host through its
own relay, in this process, on loopback only: the relay forwards every chunk both ways
``--delay`` seconds after it arrived (a fixed one-way delay, order kept, chunks
pipelined: a line of that latency, not of that bandwidth).  The same table is played once
at delay 0 and once at ``--delay``.  A hand's time is taken at each joiner, from the
``HandStarted`` event to the ``HandScored`` one; hands with a redeal are left out; the
figure is the median over the joiners' hands.

Figures, one per line, ``name: value unit``:

* ``round_trips_per_hand_Np``: (median hand time at the delay - median hand time at 0)
  / (2 x delay): the round trips (to the host: a joiner's round trip) that wait for one
  another in a hand.  CPU (the proofs) is in both times and cancels out.
  A hand starts (at every peer) the moment the one before is scored, so this is the
  whole cycle: the next deck's keys, shuffles, proofs and cut are inside it.
* ``lower_bound_Np``: the round trips a hand needs whatever the protocol, if nobody may see
  a card earlier than at a real table and the deck of the hand was built before it
  started (during the previous hand).  Computed from the rules and the seat count, in
  one-way trips on the critical path, halved:

  - hop(a, b): the one-way trips for seat a's message to reach seat b: 1 if either is
    the host (seat 0; every joiner's link is the host's) or at 2 players, 2 between
    two joiners (the host relays);
  - the opening (cut-and-draw, RULES.md): the cutter (the dealer's right, who also plays
    first) draws a card: the other seats' shares for it reach the cutter (max over the
    seats x of hop(x, cutter)); the cutter keeps or places it, which every seat must see
    before dealing (max hop(cutter, x)); the hands' shares reach the cutter (max
    hop(x, cutter) again), who plays first;
  - the 36 plays (40 cards less 4 on the table): each play must reach the next player
    before that one plays (hop(s_i, s_i+1) for the 35 in between), and the last one
    must reach every seat to score the hand (max hop(s_36, x));
  - the deals inside the hand cost nothing more: a seat's shares for another's next
    cards can ride on the moves that travel anyway, released when that seat's hand is
    empty (one full round of plays before it plays again is longer than any delivery).

  Averaged over the cutter's seat (the deal rotates).  At 2 players: 3 + 35 + 1 = 39
  one-way, 19.5 round trips; at 3 and 4 players the relayed plays between joiners cost
  two one-way trips each.
* ``hand_wall_at_1s_rtt_Np`` (extrapolated, not measured over a 1 s line):
  the median hand time at delay 0 plus ``round_trips_per_hand_Np`` seconds (a Tor
  circuit's round trip is 0.5-1.5 s); printed for every table measured.
* ``chain_round_trips_per_hand_Np`` and ``chain_one_way_<what>_Np``: the same hand read
  from the signed chain in the first joiner's log (median over the hands after the
  first, both tables), assuming every entry waits for the one before it: the one-way
  trips by what the entry that waited carried (``move``: the cut or a play; ``keys``,
  ``shuffles`` (with the cut of the deck), ``proofs``, ``shares``, ``reveal``: the
  deal's messages; ``empty``: a turn with nothing in it).  Where the round trips go,
  for the next change to the protocol to start from.
* ``chain_one_way_at_<where>_Np``: the same trips by where the entry that waited stands
  (:func:`phases`): ``plays`` (the plays themselves), ``between`` (from a hand's last
  play to the next hand's first: the reveal, the next deck, the cut-and-draw and the
  opening's shares), ``inside`` (between two plays of a hand: the deals of the later
  rounds).  Their sum is the chain's trips per hand.
* ``peak_rss_peer_Np``: the largest peak resident memory (``ru_maxrss``) of the table's
  peer processes, either match (a library peer: the face ``chkobba_p2p`` and a bot
  controller, no terminal UI, the library imported before trio as the bot processes do),
  with the modules' bytecode cached as an installed package has it
  (``PYTHONDONTWRITEBYTECODE`` is dropped for the peers, which run this file with ``-m``:
  its bytecode is cached too).  The goal (issue 44): at most 40 MB.

``--quick``: 2 and 4 players, 2 hands, delay 0.1 s.  Hand times at delay 0 include the CPU
of the proofs, which the machine's other work slows: the medians over few hands are the
figures to compare, not single hands.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MATCH_DEADLINE = 600.0  # seconds: a table still short of its hands then is a hang
TARGET = 61  # points: high enough that no match ends before its hands are measured
TIMEOUTS = {"handshake": 20.0, "frame": 20.0, "idle": 30.0, "reconnect": 60.0,
            "turn": 60.0}


# ------------------------------------------------------------------------- a peer process


def run_peer(args: argparse.Namespace) -> int:
    """One peer (``--role host|join``) through the public face: plays until killed (or to
    the end), writing a line per hand event (monotonic time, peak memory)."""
    # The library before trio, as the bots chkobba play starts do (cli/support/botproc.py:
    # libsodium's load, a moment of 12 MB, then comes before trio's memory, not on top).
    from chkobba_p2p import (
        BotController,
        HandScored,
        HandStarted,
        HostConfig,
        JoinConfig,
        RedealEvent,
        Timeouts,
        host_match,
        join_match,
    )
    from chkobba_p2p.game.rules import Ruleset

    import trio  # isort: skip - after the library (above)

    out = open(args.out, "a", buffering=1)  # noqa: SIM115 - open while the process lives

    def mark(kind: str, **extra: object) -> None:
        rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out.write(json.dumps({"ev": kind, "t": time.monotonic(), "rss_kb": rss_kb,
                              **extra}) + "\n")

    class Timed(BotController):
        def on_event(self, event: object) -> None:
            if isinstance(event, HandStarted):
                mark("start", dealer=event.dealer)
            elif isinstance(event, HandScored):
                mark("score")
            elif isinstance(event, RedealEvent):
                mark("redeal")

    ctl = Timed("greedy", args.bot_seed)
    timeouts = Timeouts(**TIMEOUTS)
    mark("ready")
    if args.role == "host":
        cfg = HostConfig(players=args.players, rules=Ruleset(target=TARGET), port=args.port,
                         bind="127.0.0.1", beacon=False, shuffle_proofs=True,
                         log_path=Path(args.log), timeouts=timeouts)
        trio.run(host_match, cfg, ctl)
    else:
        jcfg = JoinConfig(f"127.0.0.1:{args.port}", name=args.name, log_path=Path(args.log),
                          timeouts=timeouts, connect_retry=30.0)
        trio.run(join_match, jcfg, ctl)
    mark("end")
    return 0


# ---------------------------------------------------------------------------- the relay


class Relay:
    """Forwards one joiner's connection to the host, every chunk ``delay`` seconds after
    it arrived, in order, both ways (loopback only)."""

    def __init__(self, target: int, delay: float) -> None:
        self.target, self.delay = target, delay

    async def serve(self, task_status) -> None:
        import trio

        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, down) -> None:
        import trio

        up = None
        for _ in range(300):  # the host process may still be starting
            try:
                up = await trio.open_tcp_stream("127.0.0.1", self.target)
                break
            except OSError:
                await trio.sleep(0.1)
        if up is None:
            await down.aclose()
            return
        async with down, up, trio.open_nursery() as nursery:
            nursery.start_soon(self._pipe, down, up)
            nursery.start_soon(self._pipe, up, down)

    async def _pipe(self, src, dst) -> None:
        import trio

        send, receive = trio.open_memory_channel[tuple[float, bytes]](float("inf"))

        async def late() -> None:
            async for due, data in receive:
                await trio.sleep_until(due)
                await dst.send_all(data)
            await dst.send_eof()

        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(late)
                async with send:
                    while data := await src.receive_some(65536):
                        await send.send((trio.current_time() + self.delay, data))


# ------------------------------------------------------------------------------ a table


def peer_env() -> dict[str, str]:
    """The peers' environment: this checkout first, and bytecode cached as an installed
    package has it (compiling every module at each start would count the compiler's
    memory as the peer's)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def warm_bytecode() -> None:
    """Write the bytecode of every module a peer loads, once, before measuring (this
    file's too: a peer runs it with ``-m``, from its cached bytecode, as ``python -m
    chkobba_cli.support.botproc`` runs; a script given by its path is compiled at every
    start, and the compiler's memory, 1.5 MB, would be counted as the peer's)."""
    subprocess.run([sys.executable, "-c", "import chkobba_p2p._shell.net, "
                    "chkobba_p2p._shell.peer, chkobba_p2p.deal, chkobba_p2p.game.rules, "
                    "benchmarks.latency"],
                   cwd=ROOT, env=peer_env(), check=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines if line.endswith("}")]


def _hands(events: list[dict]) -> list[float]:
    """A joiner's hand times: start to score, hands without a redeal."""
    hands = []
    start, redealt = None, False
    for e in events:
        if e["ev"] == "start":
            start, redealt = e["t"], False
        elif e["ev"] == "redeal":
            redealt = True
        elif e["ev"] == "score" and start is not None:
            if not redealt:
                hands.append(e["t"] - start)
            start = None
    return hands


async def table(players: int, delay: float, hands: int, folder: Path, seed: int) -> dict:
    """One table played until every joiner has scored ``hands`` hands (then killed)."""
    import trio

    folder.mkdir(parents=True)
    port = _free_port()
    env = peer_env()
    env["CHKOBBA_DATA_DIR"] = str(folder / "data")
    procs: dict[str, subprocess.Popen] = {}

    def spawn(role: str, name: str, to: int) -> None:
        err = open(folder / f"{name}.err", "w")  # noqa: SIM115 - the child's stderr
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.latency", "--role", role, "--port",
             str(to), "--players", str(players), "--name", name,
             "--bot-seed", str(seed + len(procs)), "--log", str(folder / f"{name}.chklog"),
             "--out", str(folder / f"{name}.jsonl")],
            cwd=ROOT, stdout=err, stderr=err, env=env)

    joiners = [f"j{i}" for i in range(1, players)]
    spawn("host", "host", port)
    deadline = trio.current_time() + MATCH_DEADLINE
    try:
        async with trio.open_nursery() as nursery:
            for j in joiners:
                relay_port = await nursery.start(Relay(port, delay).serve)
                spawn("join", j, relay_port)
            while True:
                if all(len(_hands(_read(folder / f"{j}.jsonl"))) >= hands for j in joiners):
                    break
                dead = [n for n, p in procs.items() if p.poll() is not None]
                if dead or trio.current_time() > deadline:
                    errs = {n: (folder / f"{n}.err").read_text()[-2000:] for n in procs}
                    raise RuntimeError(f"{players}-player table at {delay} s stopped "
                                       f"early (ended: {dead}): {errs}")
                await trio.sleep(0.2)
            nursery.cancel_scope.cancel()
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
            p.wait()
    per_joiner = [_hands(_read(folder / f"{j}.jsonl")) for j in joiners]
    peak_kb = max(e["rss_kb"] for n in procs for e in _read(folder / f"{n}.jsonl"))
    return {"hands": [t for h in per_joiner for t in h], "peak_mb": peak_kb / 1024,
            "chain": chain(folder / "j1.chklog", players),
            "phases": phases(folder / "j1.chklog", players)}


# ----------------------------------------------------------------- where the trips go

#: What an entry carries, first match wins: a move (an action: the cut or a play), else
#: the first of its deal messages in this order, else nothing (an empty turn).
CATEGORIES = (("move", None), ("keys", "deal/key"), ("shuffles", "deal/shuffle"),
              ("shuffles", "deal/cut"), ("proofs", "deal/proof"), ("shares", "deal/shares"),
              ("reveal", "deal/reveal"), ("empty", None))


def _waits(log: Path, players: int):
    """Each turn of the signed chain in a joiner's log, as ``(entry, trips, play)``:
    the one-way trips it waited for the entry before it (an entry by seat b after one by
    seat a costs hop(a, b): 0 for the same seat; see :func:`lower_bound`; the first
    costs 0) and whether it carries a play."""
    from chkobba_p2p.wire.codec import open_entry
    from chkobba_p2p.wire.logfile import read_log

    def hop(a: int, b: int) -> int:
        return 0 if a == b else 1 if players == 2 or 0 in (a, b) else 2

    last = None
    for body in read_log(log).bodies:
        try:
            entry = open_entry(body)
        except Exception:  # noqa: BLE001 - a torn last entry of a killed peer
            break
        if entry.kind == "turn":
            action = entry.fields.get("a")
            play = isinstance(action, dict) and action.get("t") == "play"
            yield entry, (0 if last is None else hop(last, entry.seat)), play
        last = entry.seat


def _per_hand(log: Path, players: int, where, empty):
    """The trips of :func:`_waits` summed per hand under ``where(entry, play, plays)``
    (``plays``: the plays before this entry).  A hand ends with its 36th play, so what
    follows it (the reveal, the next deck) counts in the next hand; the first hand is
    left out (it holds the first dealer's draw)."""
    hands: list[dict[str, int]] = []
    current: dict[str, int] = empty()
    plays = 0
    for entry, trips, play in _waits(log, players):
        key = where(entry, play, plays)
        current[key] = current.get(key, 0) + trips
        if play:
            plays += 1
            if plays % (40 - 4) == 0:
                hands.append(current)
                current = empty()
    return hands[1:]


def chain(log: Path, players: int) -> list[dict[str, int]]:
    """Per hand, the one-way trips of the signed chain in a joiner's log, by what the
    entry that waited carried (:data:`CATEGORIES`).  Every entry is taken to wait for
    the one before it."""
    def what(entry, play: bool, plays: int) -> str:
        if isinstance(entry.fields.get("a"), dict):
            return "move"
        # d, and r (late-reveal/v1: the reveal of the hand scored before its reveals)
        items = [*(entry.fields.get("d") or []), *(entry.fields.get("r") or [])]
        kinds = [m.get("t") for m in items if isinstance(m, dict)]
        return next((name for name, t in CATEGORIES[1:-1] if t in kinds), "empty")

    return _per_hand(log, players, what, dict)


#: Where in the hand an entry waited, for :func:`phases`.
PHASES = ("plays", "between", "inside")


def phases(log: Path, players: int) -> list[dict[str, int]]:
    """The same one-way trips as :func:`chain`, by where in the hand the entry that
    waited stands: ``plays`` (an entry with a play), ``between`` (any other entry from a
    hand's last play to the next hand's first play: the reveal, the next deck's keys,
    shuffles, proofs and cut, the cut-and-draw, the opening's shares), ``inside`` (any
    other entry between two plays of the hand: the deals of the rounds after the
    first)."""
    def where(entry, play: bool, plays: int) -> str:
        return "plays" if play else "inside" if plays % (40 - 4) else "between"

    return _per_hand(log, players, where, lambda: dict.fromkeys(PHASES, 0))


# -------------------------------------------------------------------------- lower bound


def lower_bound(players: int) -> float:
    """Round trips a hand needs at least (see the module's docstring)."""
    import statistics  # here, not at the top: a peer process does not load it (its memory)

    def hop(a: int, b: int) -> int:
        if a == b:
            return 0
        return 1 if players == 2 or 0 in (a, b) else 2

    plays = 40 - 4
    totals = []
    for cutter in range(players):
        others = [x for x in range(players) if x != cutter]
        shares = max(hop(x, cutter) for x in others)
        cut = max(hop(cutter, x) for x in others)
        order = [(cutter + i) % players for i in range(plays)]
        moves = sum(hop(a, b) for a, b in zip(order, order[1:], strict=False))
        last = max(hop(order[-1], x) for x in range(players))
        totals.append(shares + cut + shares + moves + last)
    return statistics.mean(totals) / 2


# ------------------------------------------------------------------------------- main


async def measure(args: argparse.Namespace, work: Path) -> list[str]:
    # Here, not at the top: the peer processes run this file too, and their peak memory
    # is a figure (statistics brings decimal and fractions, which no peer loads).
    import statistics

    lines = []
    for n in args.players:
        first = len(lines)
        runs = {}
        for d in (0.0, args.delay):
            runs[d] = await table(n, d, args.hands, work / f"{n}p-{d}", seed=n * 100)
            print(f"# {n} players, one-way delay {d} s: hands "
                  f"{[round(t, 2) for t in runs[d]['hands']]}", file=sys.stderr, flush=True)
        zero, late = runs[0.0], runs[args.delay]
        rt = (statistics.median(late["hands"]) - statistics.median(zero["hands"])) \
            / (2 * args.delay)
        lines.append(f"round_trips_per_hand_{n}p: {rt:.1f} round trips")
        lines.append(f"lower_bound_{n}p: {lower_bound(n):.1f} round trips")
        lines.append(f"hand_wall_at_0_delay_{n}p: {statistics.median(zero['hands']):.2f} s")
        lines.append(f"hand_wall_at_1s_rtt_{n}p: "
                     f"{statistics.median(zero['hands']) + rt * 1.0:.1f} s (extrapolated)")
        lines.append(f"peak_rss_peer_{n}p: {max(zero['peak_mb'], late['peak_mb']):.1f} MB")
        hands = zero["chain"] + late["chain"]
        if hands:
            names = sorted({k for h in hands for k in h}, key=[c for c, _ in CATEGORIES].index)
            total = statistics.median(sum(h.values()) for h in hands)
            lines.append(f"chain_round_trips_per_hand_{n}p: {total / 2:.1f} round trips")
            for name in names:
                trips = statistics.median(h.get(name, 0) for h in hands)
                lines.append(f"chain_one_way_{name}_{n}p: {trips:g} one-way trips")
        where = zero["phases"] + late["phases"]
        for name in PHASES if where else ():
            trips = statistics.median(h[name] for h in where)
            lines.append(f"chain_one_way_at_{name}_{n}p: {trips:g} one-way trips")
        for line in lines[first:]:
            print(line, flush=True)
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--delay", type=float, default=0.15,
                    help="one-way delay of every joiner's relay, seconds (default 0.15)")
    ap.add_argument("--players", default="2,3,4",
                    help="table sizes, comma-separated (default 2,3,4)")
    ap.add_argument("--hands", type=int, default=3, help="hands measured per table")
    ap.add_argument("--quick", action="store_true",
                    help="2 and 4 players, 2 hands, delay 0.1 s")
    ap.add_argument("--keep", help="keep the tables' files under this directory")
    # The peer processes' own arguments.
    ap.add_argument("--role", choices=["host", "join"], help=argparse.SUPPRESS)
    for name in ("--port", "--bot-seed"):
        ap.add_argument(name, type=int, help=argparse.SUPPRESS)
    for name in ("--name", "--log", "--out"):
        ap.add_argument(name, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role:
        args.players = int(args.players)
        return run_peer(args)
    if args.quick:
        args.players, args.hands, args.delay = "2,4", 2, 0.1
    args.players = [int(p) for p in args.players.split(",")]
    if args.delay <= 0:
        ap.error("--delay must be positive")
    import trio

    t0 = time.perf_counter()
    warm_bytecode()
    with tempfile.TemporaryDirectory(prefix="chkobba-latency-") as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        trio.run(measure, args, work)
    print(f"latency_wall: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
