"""Issue 42's attacks on LAN discovery, rerun as figures (item 7).

Run: python benchmarks/discovery_attacks.py
Prints one figure per line (`name: value unit`).  A neighbour's announcements are heard
before the honest host's; each attack asks where the honest table and its address end
up in what ``chkobba join`` (no address) lists and tries:

(a) one record with the honest key and 16 made-up addresses, heard first: at which place
    the honest address is tried (0: never);
(b) 64 fake tables from one neighbour, each naming another "first address": whether the
    honest table is listed, and at which place its address is tried;
(c) 300 forged sources (a flood of source addresses, one table each), heard first:
    whether the honest table is listed, and whether it is once its endpoint is
    remembered as having answered before (``AnsweredEndpoints``);
(d) a crafted flood within every cap: as many sources as the browse's 4096 packets
    allow, each saying all a source may (512 records, about 160 valid tables): the CPU
    time of one check (what a browse computes each time it looks at what it heard,
    ``SourceListener.heard`` then ``merge_tables``; a library caller with ``until=``
    pays it up to 10 times a second), the first and the next with nothing new heard.

With the library that keys its limits on the packets' sources (``merge_tables``), every
announcement is a real mDNS answer packet (zeroconf's ``DNSOutgoing``, tests/support/mdns.py)
fed to the browse's listener with its source address.  Before/after: run it against
another checkout with PYTHONPATH pointing there; on the code before (``unique_tables``,
limits keyed on the announced first address) the same announcements are merged as the
browser resolved them, and the figures that need remembered endpoints print ``n/a``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from chkobba_p2p._shell import discovery  # noqa: E402

AFTER = hasattr(discovery, "merge_tables")
HONEST_FP = "0123-4567-89ab-cdef"
HONEST = ("192.0.2.5", 7777)
NEIGHBOUR = "192.0.2.66"

#: (packet source, name, fingerprint, port, announced addresses), in the order heard.
Announcement = tuple[str, str, str, int, list[str]]


def honest() -> Announcement:
    return (HONEST[0], "amel", HONEST_FP, HONEST[1], [HONEST[0]])


def listed(heard: list[Announcement], remembered: Any = None) -> list[Any]:
    """What a browse lists after hearing ``heard``."""
    if not AFTER:
        ads = [discovery.TableAd(name=name, addresses=tuple(sorted(addresses)), port=port,
                                 players=2, free=1, rules="tunis", spectators=0,
                                 fingerprint=fp)
               for _, name, fp, port, addresses in heard]
        return discovery.unique_tables(ads)  # type: ignore[attr-defined, unused-ignore]
    from support.mdns import answer

    listener = discovery.SourceListener(4242, remembered)
    for source, name, fp, port, addresses in heard:
        for packet in answer(4242, name, fp, port, addresses):
            listener.feed(packet, (source, 5353))
    return discovery.merge_tables(listener.heard(), remembered)


def place(tables: list[Any]) -> int:
    """The place at which the honest address is tried (1: first; 0: never)."""
    for table in tables:
        if table.fingerprint == HONEST_FP:
            endpoints = list(table.all_endpoints)
            return endpoints.index(HONEST) + 1 if HONEST in endpoints else 0
    return 0


def is_listed(tables: list[Any]) -> int:
    return int(any(t.fingerprint == HONEST_FP for t in tables))


def main() -> None:
    print(f"code: {'after' if AFTER else 'before'} (limits keyed on "
          f"{'the packet source' if AFTER else 'the announced first address'})")

    # (a) the honest key with 16 made-up addresses, heard first
    made_up = [f"10.9.0.{i}" for i in range(1, 17)]
    tables = listed([(NEIGHBOUR, "amel", HONEST_FP, HONEST[1], made_up), honest()])
    print(f"a_honest_address_place: {place(tables)} place (1: tried first, 0: never)")
    [table] = [t for t in tables if t.fingerprint == HONEST_FP]
    print(f"a_addresses_tried: {len(table.all_endpoints)} addresses")

    # (b) 64 fake tables from one neighbour, each naming another first address
    fakes = [(NEIGHBOUR, f"t{i}", f"{i:04x}-0000-0000-0000", 7000 + i, [f"10.8.{i}.1"])
             for i in range(64)]
    tables = listed([*fakes, honest()])
    print(f"b_honest_listed: {is_listed(tables)} (1: yes)")
    print(f"b_honest_address_place: {place(tables)} place (1: tried first, 0: never)")
    print(f"b_fake_tables_listed: {len(tables) - is_listed(tables)} tables")

    # (c) 300 forged sources, one table each
    flood = [(f"10.7.{i // 250}.{i % 250 + 1}", f"f{i}", f"{i:04x}-1111-1111-1111", 7000,
              [f"10.7.{i // 250}.{i % 250 + 1}"]) for i in range(300)]
    start = time.perf_counter()
    tables = listed([*flood, honest()])
    spent = time.perf_counter() - start
    print(f"c_honest_listed: {is_listed(tables)} (1: yes)")
    print(f"c_tables_listed: {len(tables)} tables")
    print(f"c_read_and_merge_time: {spent * 1000:.1f} ms")
    if not AFTER:
        print("c_honest_listed_remembered: n/a (no remembered endpoints)")
        return
    with tempfile.TemporaryDirectory() as folder:
        remembered = discovery.AnsweredEndpoints(Path(folder) / "lan_answered")
        remembered.remember(HONEST_FP, *HONEST)
        tables = listed([*flood, honest()], remembered)
    print(f"c_honest_listed_remembered: {is_listed(tables)} (1: yes)")
    print(f"c_honest_address_place_remembered: {place(tables)} place (1: tried first)")

    # (d) a crafted flood within every cap: the CPU time of one check
    from support.mdns import crowded

    listener = discovery.SourceListener(4242)
    source = 0
    while listener.packets < 4096:
        address = f"10.5.{source // 250}.{source % 250 + 1}"
        for packet in crowded(4242, source, address=address):
            listener.feed(packet, (address, 5353))
        source += 1
    spent_checks = []
    for _ in range(2):
        start = time.process_time()
        tables = discovery.merge_tables(listener.heard())
        spent_checks.append(time.process_time() - start)
    print(f"d_flood_sources: {source} sources")
    print(f"d_heard_check_cpu: {spent_checks[0] * 1000:.1f} ms")
    print(f"d_heard_check_again_cpu: {spent_checks[1] * 1000:.1f} ms")
    print(f"d_tables_listed: {len(tables)} tables")


if __name__ == "__main__":
    main()
