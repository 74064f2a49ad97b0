"""A match over Tor against the same match over TCP, on a private Tor network on loopback
(tests/support/tor_network.py: three authorities, three relays, a client; it never contacts the
public Tor network).

    python benchmarks/tor.py [--players 2|3|4] [--target N] [--runs N] [--proofs]

The same match of greedy bots (same seeds, ``--players`` seats, default 2), once host and
joiners on TCP loopback, once the host an onion service and every joiner through Tor's
SOCKS port, each joiner on its own SOCKS connection (all through the network's one client
tor, which also hosts the onion service: the helper gives one client).  Each figure is the
median over ``--runs`` matches, one line each, ``name: value unit``; at 3 and 4 players
the per-match names end in ``_3p`` / ``_4p`` (``tor_wall_per_hand_s_4p``), at 2 players
they are the names of old (``tor_wall_per_hand_s``):

- ``tor_network_bootstrap_s``: the private network's start until its client has a circuit;
- ``onion_publish_s``: ``listen`` until the onion service's descriptor is uploaded;
- ``onion_connect_s``: a joiner's SOCKS connection to the onion service;
- ``tcp_wall_per_hand_s`` / ``tor_wall_per_hand_s``: wall time from a hand's start to
  its score, at each joiner (median over the joiners' hands);
- ``tcp_round_trips_per_hand`` / ``tor_round_trips_per_hand``: the times a joiner
  sent after a joiner had received (a reply: one round trip to the host each), in a hand,
  counted on the joiners' sends and receives merged in time order: at 2 players the
  joiner's replies; at 3 and 4 players a play between two joiners, relayed by the host, is
  one such round trip, and joiners answering the same entry at once count once (so the
  count is comparable with ``benchmarks/latency.py``'s ``round_trips_per_hand_Np``, but
  approximate: an unrelated receive just before a send also counts);
- ``model_round_trips_per_hand`` (2 players only): the same hand in memory at a fixed
  one-way latency under the autojump clock (tests/shell/test_tor_timers.py): its time over
  the round trip time, the round trips the protocol needs on the critical path (with
  ``--proofs`` the proofs are worked in the event loop's thread there, so that the clock
  does not jump while they are worked);
- ``tor_hands``: the hands over Tor the medians are of (all runs);
- ``tor_over_tcp_per_hand``: the ratio of the two wall times.

The network's figures (``tor_network_bootstrap_s``) carry no suffix; a ``players: N seats``
line comes first.

On loopback Tor's cells cost CPU, not distance: a real circuit adds hundreds of
milliseconds per round trip, that is about ``round_trips_per_hand`` times that per hand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import trio
import trio.testing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.tor_network import TorNetwork, tor_missing  # noqa: E402

from chkobba_p2p._shell.net import ClientPeer, HostPeer  # noqa: E402
from chkobba_p2p._shell.peer import BotController, HandScored, HandStarted, HostConfig, JoinConfig  # noqa: E402
from chkobba_p2p._shell.tor import Tor, TorTransport, new_onion_key, over_tor  # noqa: E402
from chkobba_p2p._shell.transport import TcpTransport, Transport  # noqa: E402
from chkobba_p2p.game.rules import Ruleset  # noqa: E402


class _Counted(trio.abc.Stream):
    def __init__(self, inner: trio.abc.Stream, marks: list[tuple[float, str]]) -> None:
        self.inner, self.marks = inner, marks
        self.socket = getattr(inner, "socket", None)

    async def send_all(self, data) -> None:
        self.marks.append((time.monotonic(), "s"))
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None) -> bytes:
        data = await self.inner.receive_some(max_bytes)
        if data:
            self.marks.append((time.monotonic(), "r"))
        return data

    async def aclose(self) -> None:
        await self.inner.aclose()


class Counting:
    """A joiner's transport that marks each send and receive (for the round trips)."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner
        self.shared_address = inner.shared_address
        self.connect_patience = inner.connect_patience
        self.marks: list[tuple[float, str]] = []
        self.connect_s: list[float] = []

    async def listen(self, port, bind):
        return await self.inner.listen(port, bind)

    def port_of(self, listener):
        return self.inner.port_of(listener)

    async def connect(self, host, port):
        started = time.monotonic()
        stream = await self.inner.connect(host, port)
        self.connect_s.append(time.monotonic() - started)
        return _Counted(stream, self.marks)

    def peer_address(self, stream):
        return self.inner.peer_address(getattr(stream, "inner", stream))

    def close_now(self, stream):
        self.inner.close_now(getattr(stream, "inner", stream))

    def replies_between(self, start: float, end: float) -> int:
        """Sends that follow a receive, between ``start`` and ``end``."""
        return replies_between(self.marks, start, end)


def replies_between(marks: list[tuple[float, str]], start: float, end: float) -> int:
    """Sends that follow a receive in ``marks`` (in time order), between ``start`` and ``end``."""
    count, last = 0, "s"
    for at, what in marks:
        if start <= at <= end:
            if what == "s" and last == "r":
                count += 1
            last = what
    return count


def replies_merged(countings: list[Counting], start: float, end: float) -> int:
    """Sends that follow a receive, over every joiner's marks in time order."""
    return replies_between(sorted(m for c in countings for m in c.marks), start, end)


class Timed(BotController):
    def __init__(self, seed: int) -> None:
        super().__init__("greedy", seed=seed)
        self.times: list[tuple[float, object]] = []

    def on_event(self, event: object) -> None:
        self.times.append((time.monotonic(), event))

    def hands(self) -> list[tuple[float, float]]:
        starts = [t for t, e in self.times if isinstance(e, HandStarted)]
        ends = [t for t, e in self.times if isinstance(e, HandScored)]
        return list(zip(starts, ends))


async def match(folder: Path, players: int, host_transport: Transport,
                join_transports: list[Counting], address, target: int, proofs: bool,
                timeouts) -> tuple[list[Timed], float]:
    """One match; the joiners' controllers and the host's time to listen."""
    host_ctl = Timed(1)
    guest_ctls = [Timed(2 + i) for i in range(players - 1)]
    host = HostPeer(HostConfig(players=players, port=0, bind="127.0.0.1", beacon=False,
                               rules=Ruleset(target=target), shuffle_proofs=proofs,
                               log_path=folder / "host.chklog", timeouts=timeouts,
                               transport=host_transport), host_ctl)
    async with trio.open_nursery() as nursery:
        started = time.monotonic()
        port = await nursery.start(host.run)
        listen_s = time.monotonic() - started

        async def join(i: int) -> None:
            guest = ClientPeer(JoinConfig(address(port), name=f"guest{i + 1}",
                                          timeouts=timeouts,
                                          log_path=folder / f"guest{i + 1}.chklog",
                                          transport=join_transports[i]), guest_ctls[i])
            outcome = await guest.run()
            assert outcome.completed, (outcome.error_code, outcome.error_reason,
                                       outcome.error_data)

        for i in range(players - 1):
            nursery.start_soon(join, i)
    return guest_ctls, listen_s


def per_hand(ctls: list[Timed], countings: list[Counting]) -> tuple[list[float], list[int]]:
    """Every joiner's hand times, and each hand's round trips (all joiners merged)."""
    walls = [end - start for ctl in ctls for start, end in ctl.hands()]
    windows = list(zip(*(ctl.hands() for ctl in ctls)))
    trips = [replies_merged(countings, min(s for s, _ in hand), max(e for _, e in hand))
             for hand in windows]
    return walls, trips


async def model_round_trips(folder: Path, target: int, proofs: bool) -> float:
    """The hand's time over the round trip time, in memory at a fixed latency."""
    sys.path.insert(0, str(ROOT / "tests" / "shell"))
    from test_tor_timers import latency_match, round_trips

    _, controllers = await latency_match(folder, 0.4, target=target, shuffle_proofs=proofs)
    return statistics.median(round_trips(controllers, 0.4))


async def measure(network: TorNetwork, folder: Path, players: int, target: int,
                  runs: int, proofs: bool) -> dict[str, list[float]]:
    """``runs`` matches over TCP and over Tor at ``players`` seats: every figure's values."""
    joiners = players - 1
    figures: dict[str, list[float]] = {}

    def add(name: str, values: list[float]) -> None:
        figures.setdefault(name, []).extend(values)

    for run in range(runs):
        countings = [Counting(TcpTransport()) for _ in range(joiners)]
        ctls, _ = await match(folder / f"tcp{run}", players, TcpTransport(), countings,
                              lambda port: f"127.0.0.1:{port}", target, proofs,
                              over_tor(HostConfig().timeouts))
        walls, trips = per_hand(ctls, countings)
        add("tcp_wall_per_hand_s", walls)
        add("tcp_round_trips_per_hand", [float(x) for x in trips])
        tor = Tor(network.client_control, network.client_socks, probe=False)
        key = new_onion_key()
        onion = TorTransport(tor, key)
        countings = [Counting(TorTransport(tor)) for _ in range(joiners)]
        try:
            ctls, listen_s = await match(
                folder / f"tor{run}", players, onion, countings,
                lambda port, onion=onion: f"{onion.onion}:{port}", target, proofs,
                over_tor(HostConfig().timeouts))
        finally:
            await tor.aclose()
        walls, trips = per_hand(ctls, countings)
        add("onion_publish_s", [listen_s])
        add("onion_connect_s", [s for c in countings for s in c.connect_s])
        add("tor_wall_per_hand_s", walls)
        add("tor_round_trips_per_hand", [float(x) for x in trips])
    return figures


def figure_lines(figures: dict[str, list[float]], players: int) -> list[str]:
    """The medians as ``name: value unit`` lines, named for the table's size."""
    suffix = "" if players == 2 else f"_{players}p"
    lines = []
    for name in ("onion_publish_s", "onion_connect_s", "tcp_wall_per_hand_s",
                 "tor_wall_per_hand_s", "tcp_round_trips_per_hand",
                 "tor_round_trips_per_hand"):
        value = statistics.median(figures[name])
        lines.append(f"{name}{suffix}: {value:.3f} s" if name.endswith("_s")
                     else f"{name}{suffix}: {value:.1f} round trips")
    lines.append(f"tor_hands{suffix}: {len(figures['tor_round_trips_per_hand'])} hands")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=3, help="match target (default 3)")
    parser.add_argument("--runs", type=int, default=1, help="matches per transport")
    parser.add_argument("--proofs", action="store_true", help="with shuffle proofs")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="seats at the table (default 2)")
    args = parser.parse_args()
    if (why := tor_missing()) is not None:
        print(f"benchmarks/tor.py: {why}", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="chkobba-tor-bench-"))
    network = TorNetwork(folder / "net")
    network.start()
    try:
        print(f"players: {args.players} seats", flush=True)
        print(f"tor_network_bootstrap_s: {network.bootstrap_seconds:.1f} s", flush=True)
        figures = trio.run(measure, network, folder, args.players, args.target, args.runs,
                           args.proofs)
        for line in figure_lines(figures, args.players):
            print(line, flush=True)
        if args.players == 2:
            model = trio.run(model_round_trips, folder / "model", 1, args.proofs,
                             clock=trio.testing.MockClock(autojump_threshold=0))
            print(f"model_round_trips_per_hand: {model:.1f} round trips")
        ratio = (statistics.median(figures["tor_wall_per_hand_s"])
                 / statistics.median(figures["tcp_wall_per_hand_s"]))
        suffix = "" if args.players == 2 else f"_{args.players}p"
        print(f"tor_over_tcp_per_hand{suffix}: {ratio:.2f} x")
    finally:
        network.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
