"""LAN discovery by DNS-SD over multicast DNS (PROTOCOL.md section 15): a host's table is
found by the library's browser, by a plain ``zeroconf`` browser with the right TXT
record, and by ``chkobba join`` with no address; the same table announced twice is
listed once.  Everything stays on the loopback interface; without multicast there, the
tests are skipped."""

from __future__ import annotations

import dataclasses
import re
import socket
import struct

import pytest
import trio
from support.net import REPO_ROOT, cli_command, cli_env, host_config, join_config

from chkobba_p2p._shell.discovery import (
    SERVICE_TYPE,
    Announcer,
    LanHeard,
    TableAd,
    TableFacts,
    merge_tables,
)
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import Announced, BotController, Lobby, browse_tables
from chkobba_p2p.game.rules import Ruleset

LO = ["127.0.0.1"]


def _loopback_multicast() -> bool:
    """Whether a multicast datagram sent on the loopback interface comes back."""
    group, port = "224.0.0.251", 0
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx, \
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            rx.bind(("", 0))
            port = rx.getsockname()[1]
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                          struct.pack("4s4s", socket.inet_aton(group),
                                      socket.inet_aton("127.0.0.1")))
            rx.settimeout(2)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                          socket.inet_aton("127.0.0.1"))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.sendto(b"chkobba", (group, port))
            return rx.recv(16) == b"chkobba"
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not _loopback_multicast(),
                                reason="no multicast on the loopback interface here "
                                       "(multicast DNS cannot be tested)")


class Watcher(BotController):
    def __init__(self) -> None:
        super().__init__("greedy", 0)
        self.announced = trio.Event()

    def on_event(self, event: object) -> None:
        if isinstance(event, Announced):
            self.announced.set()


async def _announced_host(nursery, tmp_path, **kw) -> tuple[HostPeer, int]:
    watcher = Watcher()
    cfg = dataclasses.replace(host_config(tmp_path, **kw), beacon=True, name="mdns-table")
    host = HostPeer(cfg, watcher)
    port = await nursery.start(host.run)
    await watcher.announced.wait()
    return host, port


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ours(port: int):
    return lambda tables: any(t.port == port for t in tables)


@pytest.mark.slow
async def test_the_library_browser_finds_the_table_with_its_facts(tmp_path):
    async with trio.open_nursery() as nursery:
        host, port = await _announced_host(nursery, tmp_path)
        found = await browse_tables(60, interfaces=LO, until=_ours(port))
        nursery.cancel_scope.cancel()
    [table] = [t for t in found if t.port == port]
    assert table.name == "mdns-table"
    assert (table.players, table.free, table.spectators) == (2, 1, 0)
    assert table.rules == Ruleset().name
    assert table.fingerprint == host.identity.fingerprint
    assert table.addresses == ("127.0.0.1",)
    assert table.code == f"127.0.0.1:{port}#{host.identity.fingerprint}"


@pytest.mark.slow
async def test_a_plain_zeroconf_browser_sees_the_txt_record(tmp_path):
    async with trio.open_nursery() as nursery:
        host, port = await _announced_host(nursery, tmp_path)
        services = await trio.to_thread.run_sync(
            _plain_browse, lambda found: any(i.port == port for i in found.values()))
        nursery.cancel_scope.cancel()
    [info] = [i for i in services.values() if i.port == port]
    assert info.properties == {
        b"v": b"1", b"name": b"mdns-table", b"players": b"2", b"free": b"1",
        b"rules": Ruleset().name.encode(), b"spectators": b"0",
        b"fp": host.identity.fingerprint.encode()}
    assert info.parsed_addresses() == ["127.0.0.1"]


@pytest.mark.slow
async def test_a_table_with_a_seat_secret_says_so_and_the_list_words_it(tmp_path):
    """Issue 42: the announcement of a table with a seat secret carries ``secret=1``
    (a table without one announces exactly as before: the test above), and the client's
    list says the table needs the whole code, in English and in French."""
    from chkobba_cli.support.reach import table_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.address import new_secret

    async with trio.open_nursery() as nursery:
        host, port = await _announced_host(nursery, tmp_path, secret=new_secret())
        services = await trio.to_thread.run_sync(
            _plain_browse, lambda found: any(i.port == port for i in found.values()))
        found = await browse_tables(60, interfaces=LO, until=_ours(port))
        nursery.cancel_scope.cancel()
    [info] = [i for i in services.values() if i.port == port]
    assert info.properties[b"secret"] == b"1"
    [ad] = [t for t in found if t.port == port]
    assert ad.secret
    assert ad.code.endswith(host.identity.fingerprint)  # the secret is never announced
    assert str(host.core.lobby.secret) not in str(info.properties)
    [en] = table_lines([ad], Translator("en"))
    [fr] = table_lines([ad], Translator("fr"))
    assert en.endswith(", needs the code with its secret (ask the host for the whole "
                       "join code)")
    assert fr.endswith(", il faut le code avec son secret (demandez à l'hôte le code "
                       "complet)")
    assert table_lines([dataclasses.replace(ad, secret=False)], Translator("fr"))[0] \
        .endswith(ad.fingerprint)


@pytest.mark.slow
async def test_free_seats_follow_the_lobby(tmp_path):
    async with trio.open_nursery() as nursery:
        host, port = await _announced_host(nursery, tmp_path, players=4)
        nursery.start_soon(ClientPeer(join_config(tmp_path, port, "guest"),
                                      BotController("greedy", 1)).run)
        found = await browse_tables(
            60, interfaces=LO,
            until=lambda ts: any(t.port == port and t.free == 2 for t in ts))
        nursery.cancel_scope.cancel()
    assert [t.free for t in found if t.port == port] == [2]


def _plain_browse(until, seconds: float = 60) -> dict:
    """A plain zeroconf browser on loopback: resolved services by name, until
    ``until(services)``."""
    import threading

    from zeroconf import IPVersion, ServiceBrowser, Zeroconf

    zc = Zeroconf(interfaces=LO, ip_version=IPVersion.V4Only)
    names: list[str] = []
    added = threading.Event()
    services: dict = {}

    def on_change(zeroconf, service_type, name, state_change) -> None:
        names.append(name)
        added.set()

    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change])
        for _ in range(int(seconds)):
            added.wait(1)
            added.clear()
            for name in list(names):
                if name not in services:
                    info = zc.get_service_info(SERVICE_TYPE, name, 3000)
                    if info is not None:
                        services[name] = info
            if until(services):
                browser.cancel()
                return services
        raise AssertionError(f"not found; heard {names}")
    finally:
        zc.close()


@pytest.mark.slow
async def test_the_same_table_heard_twice_is_listed_once(tmp_path):
    # A key of this test's own: tables are merged by key, and another test's table on
    # this loopback (the decoy below, in another worker at the same time) with the same
    # key and another port would take ours in.
    facts = TableFacts(name="twice", players=2, free=1, rules="x",
                       fingerprint="7a1c-e2b4-0d9f-3356")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    first = Announcer(port, ["127.0.0.1"], LO)
    second = Announcer(port, ["127.0.0.2"], LO)
    await first.start(facts)
    try:
        # The same table under a second name, with another address: as when it is
        # heard on two interfaces (or a responder renamed it after a conflict).
        await second.start(dataclasses.replace(facts, name="twice again"))
        try:
            def both(services) -> bool:
                return len([i for i in services.values() if i.port == port]) == 2

            await trio.to_thread.run_sync(_plain_browse, both)  # two names are out there
            found = await browse_tables(
                60, interfaces=LO,
                until=lambda ts: any(t.port == port and len(t.addresses) == 2 for t in ts))
        finally:
            await second.close()
    finally:
        await first.close()
    [table] = [t for t in found if t.port == port]
    assert table.addresses == ("127.0.0.1", "127.0.0.2")
    assert table.fingerprint == "7a1c-e2b4-0d9f-3356"


def unique_tables(tables):
    """The tables merged, each announcement from its own first address (as its source)."""
    return merge_tables([LanHeard(t.addresses[0], t) for t in tables])


def test_merge_tables_merges_by_key_each_address_its_own_entry():
    ad = TableAd(name="a", addresses=("192.0.2.5",), port=7777, players=2, free=1,
                 rules="x", spectators=0, fingerprint="0123-4567-89ab-cdef")
    other_if = dataclasses.replace(ad, name="a (2)", addresses=("fd00::5",))
    other_port = dataclasses.replace(ad, addresses=("192.0.2.1",), port=7778)
    other_key = dataclasses.replace(ad, fingerprint="ffff-4567-89ab-cdef")
    merged = unique_tables([ad, other_if, other_port, other_key])
    assert len(merged) == 2 and merged[1] == dataclasses.replace(
        other_key, endpoints=(("192.0.2.5", 7777),))
    table = merged[0]
    assert table.addresses == ("192.0.2.5", "fd00::5")
    assert table.endpoints == (("192.0.2.5", 7777), ("fd00::5", 7777), ("192.0.2.1", 7778))
    assert table.target == "192.0.2.5:7777"
    assert table.code == "192.0.2.5:7777#0123-4567-89ab-cdef"
    assert table.codes == ("192.0.2.5:7777#0123-4567-89ab-cdef",
                           "[fd00::5]:7777#0123-4567-89ab-cdef",
                           "192.0.2.1:7778#0123-4567-89ab-cdef")


def test_one_announcer_cannot_fill_the_list():
    """A neighbour announcing a hundred tables before the honest one is heard gets a
    few listed; the honest table is listed too."""
    flood = [TableAd(name=f"spam{i}", addresses=("192.0.2.66",), port=7000 + i,
                     players=2, free=1, rules="x", spectators=0,
                     fingerprint=f"{i:04x}-0000-0000-0000") for i in range(100)]
    honest = TableAd(name="amel", addresses=("192.0.2.5",), port=7777, players=2, free=1,
                     rules="x", spectators=0, fingerprint="0123-4567-89ab-cdef")
    listed = unique_tables([*flood, honest])
    assert any(t.name == "amel" for t in listed)
    assert sum(t.addresses == ("192.0.2.66",) for t in listed) <= 8
    # Nor can it bury the honest address under its own ones for the honest key.
    spoofs = [dataclasses.replace(honest, addresses=("192.0.2.66",), port=p)
              for p in range(8000, 8100)]
    [table] = unique_tables([*spoofs, honest])
    assert ("192.0.2.5", 7777) in table.endpoints and len(table.endpoints) <= 16


def test_txt_values_from_the_network_are_bounded_and_printable():
    class Info:
        port = 7777
        properties = {b"name": b"evil\x1b[2Jname" + b"x" * 500, b"players": b"-1",
                      b"free": b"999999", b"fp": b"not-a-key", b"rules": None}

        @staticmethod
        def parsed_scoped_addresses():
            return ["192.0.2.9"]

    ad = TableAd.from_info(Info())
    assert ad is not None
    assert "\x1b" not in ad.name and len(ad.name) <= 32
    assert ad.players is None and ad.free is None and ad.fingerprint is None
    assert ad.code == "192.0.2.9:7777"


@pytest.mark.slow
async def test_chkobba_join_with_no_address_finds_the_table(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    decoy = Announcer(closed_port(), ["127.0.0.1"], LO)  # a second table on the LAN
    await decoy.start(TableFacts(name="decoy", players=4, free=3, rules="x",
                                 fingerprint="dec0-dec0-dec0-dec0"))
    async with trio.open_nursery() as nursery:
        host, port = await _announced_host(nursery, tmp_path)
        env = cli_env()
        env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
        argv = cli_command("join", "--interface", "127.0.0.1", "--listen", "10",
                           "--name", "finder", "--lang", "en",
                           "--log", str(tmp_path / "finder.chklog"))

        def run() -> str:
            child = pexpect.spawn(argv[0], argv[1:], cwd=str(REPO_ROOT), env=env,
                                  dimensions=(24, 80), encoding="utf-8", timeout=60)
            try:
                ours = rf"127\.0\.0\.1:{port}#{host.identity.fingerprint}"
                # Other tables may be on this machine's loopback too (another test run
                # at the same time): then the command asks which one; ours is picked.
                if child.expect([rf"joining {ours}", r"table to join \(number\): "]) == 1:
                    found = re.search(rf"\[(\d+)\] mdns-table at 127\.0\.0\.1:{port}:",
                                      child.before)
                    assert found is not None, child.before
                    number = found.group(1)
                    listing = child.before
                    child.sendline(number)
                    child.expect(rf"joining {ours}")
                else:
                    listing = child.before
                child.expect("finder")  # seated: the lobby shows our name
                return listing
            finally:
                child.terminate(force=True)

        try:
            listing = await trio.to_thread.run_sync(run)
        finally:
            await decoy.close()
        nursery.cancel_scope.cancel()
    assert f"mdns-table at 127.0.0.1:{port}: 2 players, 1 free" in listing
    assert listing.count(f"127.0.0.1:{port}") == 1


class Seated(Watcher):
    """A host's bot seat that notes the names seated in its lobby."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def on_event(self, event: object) -> None:
        super().on_event(event)
        if isinstance(event, Lobby):
            self.names |= {s[0] for s in event.seats if s}


@pytest.mark.slow
async def test_a_spoofed_announcement_beside_the_honest_one_leaves_it_joinable(tmp_path):
    """A neighbour announces the honest table's key at an address of its own that sorts
    first, and listens there with another key: the join tries it, is refused by the key,
    and goes on to the honest address."""
    pexpect = pytest.importorskip("pexpect")
    watcher = Seated()
    cfg = dataclasses.replace(host_config(tmp_path), beacon=True, name="mdns-table",
                              bind="127.0.0.2")
    honest = HostPeer(cfg, watcher)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(honest.run)
        await watcher.announced.wait()
        fp = honest.identity.fingerprint
        (tmp_path / "spoof").mkdir()
        impostor = HostPeer(dataclasses.replace(host_config(tmp_path / "spoof"), port=port),
                            BotController("greedy", 0))  # 127.0.0.1, the same port
        await nursery.start(impostor.run)
        spoof = Announcer(port, ["127.0.0.1"], LO)
        await spoof.start(TableFacts(name="mdns-table", players=2, free=1, rules="x",
                                     fingerprint=fp))
        env = cli_env()
        env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
        argv = cli_command("join", "--interface", "127.0.0.1", "--listen", "10",
                           "--name", "finder", "--lang", "en",
                           "--log", str(tmp_path / "finder.chklog"))

        def run() -> str:
            child = pexpect.spawn(argv[0], argv[1:], cwd=str(REPO_ROOT), env=env,
                                  dimensions=(24, 80), encoding="utf-8", timeout=60)
            try:
                if child.expect([r"joining ", r"table to join \(number\): "]) == 1:
                    listed = re.search(rf"\[(\d+)\] mdns-table at [0-9.]+:{port}\b",
                                       child.before)
                    assert listed, child.before
                    number = listed.group(1)
                    child.sendline(number)
                    child.expect(r"joining ")
                child.expect("finder")  # seated: the lobby shows our name
                return child.before
            finally:
                child.terminate(force=True)

        try:
            shown = await trio.to_thread.run_sync(run)
            with trio.fail_after(30):
                while "finder" not in watcher.names:
                    await trio.sleep(0.05)
        finally:
            await spoof.close()
        nursery.cancel_scope.cancel()
    assert f"127.0.0.2:{port}#{fp}" in shown


ANNOUNCE_AND_BROWSE = """
import sys
from chkobba_p2p._shell.discovery import Announcer, TableFacts, browse_tables  # trio too
import trio

async def main():
    facts = TableFacts(name="no-tls", players=2, free=1, rules="x",
                       fingerprint="5e1f-0a2b-9c3d-4e5f")
    announcer = Announcer({port}, ["127.0.0.1"], ["127.0.0.1"])
    await announcer.start(facts)
    try:
        found = await browse_tables(60, interfaces=["127.0.0.1"],
                                    until=lambda ts: any(t.port == {port} for t in ts))
    finally:
        await announcer.close()
    import asyncio.sslproto
    print([t.name for t in found if t.port == {port}], "ssl" in sys.modules,
          asyncio.sslproto.ssl is None)

trio.run(main)
"""


@pytest.mark.slow
def test_a_process_announces_and_browses_on_asyncio_without_ssl():
    """In a fresh process (as ``chkobba host --headless`` is), zeroconf and asyncio are
    imported as on a Python without ssl: the table is still announced and found."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", ANNOUNCE_AND_BROWSE.format(port=closed_port())],
                         cwd=REPO_ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['no-tls'] False True"
