"""A match over Tor against the same match over TCP, on a private Tor network on loopback
(tests/support/tor_network.py: three authorities, three relays, a client; it never contacts the
public Tor network).

    python benchmarks/tor.py [--target N] [--runs N] [--proofs]

The same 2-player match of greedy bots (same seeds), once host and joiner on TCP
loopback, once the host an onion service and the joiner through Tor's SOCKS port.  Each
figure is the median over ``--runs`` matches, one line each, ``name: value unit``:

- ``tor_network_bootstrap_s``: the private network's start until its client has a circuit;
- ``onion_publish_s``: ``listen`` until the onion service's descriptor is uploaded;
- ``onion_connect_s``: a joiner's SOCKS connection to the onion service;
- ``tcp_wall_per_hand_s`` / ``tor_wall_per_hand_s``: wall time from a hand's start to
  its score, at the joiner;
- ``tcp_round_trips_per_hand`` / ``tor_round_trips_per_hand``: the times the joiner
  sent after it had received (a reply: one round trip each), in a hand;
- ``model_round_trips_per_hand``: the same hand in memory at a fixed one-way latency
  under the autojump clock (tests/shell/test_tor_timers.py): its time over the round trip
  time, the round trips the protocol needs on the critical path;
- ``tor_over_tcp_per_hand``: the ratio of the two wall times.

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
        count, last = 0, "s"
        for at, what in self.marks:
            if start <= at <= end:
                if what == "s" and last == "r":
                    count += 1
                last = what
        return count


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


async def match(folder: Path, host_transport: Transport, join_transport: Counting,
                address, target: int, proofs: bool, timeouts) -> tuple[Timed, float]:
    """One match; the joiner's controller and the host's time to listen."""
    host_ctl, guest_ctl = Timed(1), Timed(2)
    host = HostPeer(HostConfig(players=2, port=0, bind="127.0.0.1", beacon=False,
                               rules=Ruleset(target=target), shuffle_proofs=proofs,
                               log_path=folder / "host.chklog", timeouts=timeouts,
                               transport=host_transport), host_ctl)
    async with trio.open_nursery() as nursery:
        started = time.monotonic()
        port = await nursery.start(host.run)
        listen_s = time.monotonic() - started
        guest = ClientPeer(JoinConfig(address(port), name="guest", timeouts=timeouts,
                                      log_path=folder / "guest.chklog",
                                      transport=join_transport), guest_ctl)
        outcome = await guest.run()
        assert outcome.completed, (outcome.error_code, outcome.error_reason, outcome.error_data)
    return guest_ctl, listen_s


def per_hand(ctl: Timed, counting: Counting) -> tuple[list[float], list[int]]:
    hands = ctl.hands()
    return ([end - start for start, end in hands],
            [counting.replies_between(start, end) for start, end in hands])


async def model_round_trips(folder: Path, target: int, proofs: bool) -> float:
    """The hand's time over the round trip time, in memory at a fixed latency."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_tor_timers import latency_match, round_trips

    _, controllers = await latency_match(folder, 0.4, target=target, shuffle_proofs=proofs)
    return statistics.median(round_trips(controllers, 0.4))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=3, help="match target (default 3)")
    parser.add_argument("--runs", type=int, default=1, help="matches per transport")
    parser.add_argument("--proofs", action="store_true", help="with shuffle proofs")
    args = parser.parse_args()
    if (why := tor_missing()) is not None:
        print(f"benchmarks/tor.py: {why}", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="chkobba-tor-bench-"))
    network = TorNetwork(folder / "net")
    network.start()
    try:
        print(f"tor_network_bootstrap_s: {network.bootstrap_seconds:.1f} s", flush=True)
        figures: dict[str, list[float]] = {}

        def add(name: str, values: list[float]) -> None:
            figures.setdefault(name, []).extend(values)

        async def run_all() -> None:
            for run in range(args.runs):
                counting = Counting(TcpTransport())
                ctl, _ = await match(folder / f"tcp{run}", TcpTransport(), counting,
                                     lambda port: f"127.0.0.1:{port}", args.target,
                                     args.proofs, over_tor(HostConfig().timeouts))
                walls, trips = per_hand(ctl, counting)
                add("tcp_wall_per_hand_s", walls)
                add("tcp_round_trips_per_hand", [float(x) for x in trips])
                tor = Tor(network.client_control, network.client_socks, probe=False)
                key = new_onion_key()
                onion = TorTransport(tor, key)
                counting = Counting(TorTransport(tor))
                try:
                    ctl, listen_s = await match(
                        folder / f"tor{run}", onion, counting,
                        lambda port, onion=onion: f"{onion.onion}:{port}", args.target,
                        args.proofs,
                        over_tor(HostConfig().timeouts))
                finally:
                    await tor.aclose()
                walls, trips = per_hand(ctl, counting)
                add("onion_publish_s", [listen_s])
                add("onion_connect_s", counting.connect_s)
                add("tor_wall_per_hand_s", walls)
                add("tor_round_trips_per_hand", [float(x) for x in trips])

        trio.run(run_all)
        model = trio.run(model_round_trips, folder / "model", 1, args.proofs,
                         clock=trio.testing.MockClock(autojump_threshold=0))
        units = {"_s": "s", "hand": "round trips"}
        for name in ("onion_publish_s", "onion_connect_s", "tcp_wall_per_hand_s",
                     "tor_wall_per_hand_s", "tcp_round_trips_per_hand",
                     "tor_round_trips_per_hand"):
            unit = next(u for k, u in units.items() if name.endswith(k))
            value = statistics.median(figures[name])
            print(f"{name}: {value:.3f} {unit}" if unit == "s" else f"{name}: {value:.1f} {unit}")
        print(f"model_round_trips_per_hand: {model:.1f} round trips")
        ratio = (statistics.median(figures["tor_wall_per_hand_s"])
                 / statistics.median(figures["tcp_wall_per_hand_s"]))
        print(f"tor_over_tcp_per_hand: {ratio:.2f} x")
    finally:
        network.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
