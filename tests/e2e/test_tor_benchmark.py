"""``benchmarks/tor.py --players N``: the benchmark's matches over the private Tor network
on loopback (the ``tor_network`` fixture), at 3 players: the host an onion service, every
joiner through Tor on its own SOCKS connection.  Checks that the option runs a tiny match
and names its figures; the figures themselves are the benchmark's (no timing here).
Skipped, saying why, where tor is not installed."""

from __future__ import annotations

import importlib.util

import pytest
import trio
from support.net import REPO_ROOT

_spec = importlib.util.spec_from_file_location("tor_bench", REPO_ROOT / "benchmarks" / "tor.py")
assert _spec is not None and _spec.loader is not None
tor_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tor_bench)


@pytest.mark.slow
async def test_three_players_over_tor_every_joiner_through_its_own_connection(
        tor_network, tmp_path):
    with trio.fail_after(300):
        figures = await tor_bench.measure(tor_network, tmp_path, players=3, target=1,
                                          runs=1, proofs=False)
    # Two joiners, each its own connection through Tor's SOCKS port.
    assert len(figures["onion_connect_s"]) == 2
    # Every hand was timed at both joiners, over TCP and over Tor.
    hands = len(figures["tor_round_trips_per_hand"])
    assert hands >= 1 and len(figures["tor_wall_per_hand_s"]) == 2 * hands
    assert len(figures["tcp_wall_per_hand_s"]) == 2 * len(figures["tcp_round_trips_per_hand"])
    # A hand of 3 players has 36 plays; the joiners play 24 of them, each a reply.
    assert min(figures["tor_round_trips_per_hand"]) >= 24
    assert min(figures["tcp_round_trips_per_hand"]) >= 24
    lines = tor_bench.figure_lines(figures, 3)
    assert [line.split(":")[0] for line in lines] == [
        "onion_publish_s_3p", "onion_connect_s_3p", "tcp_wall_per_hand_s_3p",
        "tor_wall_per_hand_s_3p", "tcp_round_trips_per_hand_3p",
        "tor_round_trips_per_hand_3p", "tor_hands_3p"]
    # At 2 players the names of old.
    assert tor_bench.figure_lines(figures, 2)[3].startswith("tor_wall_per_hand_s: ")
