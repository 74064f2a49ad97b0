"""Port mapping against a fake home router on loopback (tests/support/fake_router.py): the
mapping is requested, shown and removed (UPnP IGD and NAT-PMP); with no router, one
line with the manual hint comes at once; a slow router never delays the lobby."""

from __future__ import annotations

import dataclasses
import re
import signal
import socket
import subprocess

import pytest
import trio
from support.fake_router import PUBLIC_IP, FakeIgd, FakeNatPmp
from support.net import REPO_ROOT, cli_command, cli_env, host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import (
    BotController,
    Lobby,
    PortMapOptions,
    PortMapped,
    PortMapUnavailable,
)
from chkobba_p2p._shell.portmap import (
    NatPmpError,
    natpmp_map_request,
    natpmp_parse_address,
    natpmp_parse_map,
)


def closed_port(kind: int = socket.SOCK_STREAM) -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nobody_igd() -> str:
    return f"http://127.0.0.1:{closed_port()}/rootDesc.xml"


def nobody_natpmp() -> str:
    return f"127.0.0.1:{closed_port(socket.SOCK_DGRAM)}"


class Watcher(BotController):
    """A bot seat that keeps the events and wakes a waiter on each."""

    def __init__(self) -> None:
        super().__init__("greedy", 0)
        self.events: list[object] = []
        self.changed = trio.Event()

    def on_event(self, event: object) -> None:
        self.events.append(event)
        self.changed.set()
        self.changed = trio.Event()

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    async def wait_for(self, kind: type):
        while not self.of(kind):
            await self.changed.wait()
        return self.of(kind)[0]


def mapping_host(tmp_path, **options) -> tuple[HostPeer, Watcher]:
    opts = PortMapOptions(**{"timeout": 60.0, **options})
    watcher = Watcher()
    return HostPeer(dataclasses.replace(host_config(tmp_path), port_mapping=opts),
                    watcher), watcher


@pytest.mark.slow
async def test_upnp_mapping_is_requested_shown_and_removed(tmp_path):
    igd = FakeIgd()
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        host, watcher = mapping_host(tmp_path, igd_url=igd.url,
                                     natpmp_gateway=nobody_natpmp())
        async with trio.open_nursery() as table:
            port = await table.start(host.run)
            mapped = await watcher.wait_for(PortMapped)
            assert igd.mappings == {port: ("127.0.0.1", port, 3600)}
            assert mapped == PortMapped(PUBLIC_IP, port, "UPnP")
            assert mapped.address == f"{PUBLIC_IP}:{port}"
            assert not watcher.of(PortMapUnavailable)
            table.cancel_scope.cancel()  # the table closes (as on Ctrl-C)
        assert igd.mappings == {}
        assert ("DeletePortMapping", {"NewRemoteHost": "", "NewExternalPort": str(port),
                                      "NewProtocol": "TCP"}) in igd.calls
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_natpmp_mapping_is_requested_shown_and_removed(tmp_path):
    gateway = FakeNatPmp()
    async with trio.open_nursery() as nursery:
        await nursery.start(gateway.serve)
        host, watcher = mapping_host(tmp_path, igd_url=nobody_igd(),
                                     natpmp_gateway=gateway.gateway)
        async with trio.open_nursery() as table:
            port = await table.start(host.run)
            mapped = await watcher.wait_for(PortMapped)
            assert mapped == PortMapped(PUBLIC_IP, port, "NAT-PMP")
            assert gateway.mappings == {port: 3600}
            table.cancel_scope.cancel()
        assert gateway.mappings == {}
        assert gateway.requests[-1] == (2, port, 0, 0)  # RFC 6886 3.4: a deletion
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_mapping_removed_when_the_match_ends(tmp_path):
    igd = FakeIgd()
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        host, watcher = mapping_host(tmp_path, igd_url=igd.url,
                                     natpmp_gateway=nobody_natpmp())
        port = await nursery.start(host.run)
        await watcher.wait_for(PortMapped)
        assert port in igd.mappings
        guest = ClientPeer(join_config(tmp_path, port, "guest"), BotController("greedy", 1))
        outcome = await guest.run()
        assert outcome.completed
        await igd.deleted.wait()
        assert igd.mappings == {}
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_no_router_gives_the_hint_at_once(tmp_path):
    host, watcher = mapping_host(tmp_path, igd_url=nobody_igd(),
                                 natpmp_gateway=nobody_natpmp(), timeout=600.0)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        # Far below the 600 s the attempt may take: the refusals end it, not a timer.
        with trio.fail_after(30):
            missing = await watcher.wait_for(PortMapUnavailable)
        nursery.cancel_scope.cancel()
    assert missing.port == port
    assert "UPnP" in missing.reason and "NAT-PMP" in missing.reason
    assert f"forward TCP port {port} to " in missing.hint
    assert not watcher.of(PortMapped)


@pytest.mark.slow
async def test_a_slow_router_never_delays_the_lobby(tmp_path):
    igd = FakeIgd(hold=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        host, watcher = mapping_host(tmp_path, igd_url=igd.url,
                                     natpmp_gateway=nobody_natpmp())
        port = await nursery.start(host.run)
        await igd.asked.wait()  # the router has the request and sits on it
        guest_events = Watcher()
        nursery.start_soon(ClientPeer(join_config(tmp_path, port, "guest"),
                                      guest_events).run)
        while not any(all(e.seats) for e in watcher.of(Lobby)):
            await watcher.changed.wait()
        # Both seats taken while the router still has not answered.
        assert not igd.release.is_set()
        assert not watcher.of(PortMapped) and not watcher.of(PortMapUnavailable)
        igd.release.set()
        # Mapped, or given up if the wait outlasted the client's own socket timeout.
        while not watcher.of(PortMapped) and not watcher.of(PortMapUnavailable):
            await watcher.changed.wait()
        nursery.cancel_scope.cancel()


def test_natpmp_codec():
    assert natpmp_map_request(7777, 7777, 3600).hex() == "000200001e611e6100000e10"
    answer = bytes.fromhex("00820000000003e8" "1e611e62" "00000e10")
    assert natpmp_parse_map(answer, 7777) == (7778, 3600)
    with pytest.raises(NatPmpError, match="for port 7777, not 7000"):
        natpmp_parse_map(answer, 7000)
    refused = bytes.fromhex("00820002000003e8" "1e611e61" "00000000")
    with pytest.raises(NatPmpError, match="refused"):
        natpmp_parse_map(refused, 7777)
    with pytest.raises(NatPmpError, match="not a NAT-PMP answer"):
        natpmp_parse_map(b"\x00\x82\x00", 7777)
    assert natpmp_parse_address(bytes.fromhex("00800000000003e8cb007107")) == "203.0.113.7"


# ------------------------------------------------------------------ the command


async def _lines_until(stream: trio.abc.ReceiveStream, pattern: str, seen: list[str]) -> str:
    """Read the process's output until a line matches ``pattern``."""
    buffer = b""
    while True:
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            seen.append(line.decode())
            if re.search(pattern, seen[-1]):
                return seen[-1]
        data = await stream.receive_some(4096)
        if not data:
            raise AssertionError("the host ended early: " + "\n".join(seen))
        buffer += data


async def _host_process(tmp_path, *args: str) -> trio.Process:
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    return await trio.lowlevel.open_process(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1",
                    "--no-beacon", "--log", str(tmp_path / "host.chklog"), *args),
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


@pytest.mark.slow
async def test_chkobba_host_shows_the_internet_address_and_removes_it_on_ctrl_c(tmp_path):
    igd = FakeIgd()
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        proc = await _host_process(tmp_path, "--igd-url", igd.url,
                                   "--natpmp-gateway", nobody_natpmp())
        seen: list[str] = []
        try:
            with trio.fail_after(60):
                assert proc.stdout is not None
                line = await _lines_until(proc.stdout, r"friends on the LAN: ", seen)
                port = int(re.search(r":(\d+)", line.split("LAN: ")[1]).group(1))
                line = await _lines_until(proc.stdout, r"friends on the internet", seen)
                assert f"friends on the internet: {PUBLIC_IP}:{port}" in line
                assert port in igd.mappings
                proc.send_signal(signal.SIGINT)  # Ctrl-C
                await proc.wait()
        finally:
            if proc.returncode is None:
                proc.kill()
        assert igd.mappings == {}, seen
        assert any(action == "DeletePortMapping" for action, _ in igd.calls)
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_chkobba_host_without_a_router_prints_the_hint(tmp_path):
    proc = await _host_process(tmp_path, "--igd-url", nobody_igd(),
                               "--natpmp-gateway", nobody_natpmp())
    seen: list[str] = []
    try:
        with trio.fail_after(60):
            assert proc.stdout is not None
            line = await _lines_until(proc.stdout, r"no router opened the port", seen)
    finally:
        proc.kill()
        await proc.wait()
    assert "forward TCP port" in line and "in your router's settings" in line
    assert sum("no router" in x for x in seen) == 1  # one line


@pytest.mark.slow
async def test_no_upnp_asks_no_router(tmp_path):
    igd = FakeIgd()
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        proc = await _host_process(tmp_path, "--no-upnp", "--igd-url", igd.url)
        seen: list[str] = []
        try:
            with trio.fail_after(60):
                assert proc.stdout is not None
                await _lines_until(proc.stdout, r"friends on the LAN: ", seen)
        finally:
            proc.kill()
            await proc.wait()
        assert not igd.asked.is_set()
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_a_crashed_host_maps_again_on_resume_and_removes_it_at_the_end(tmp_path):
    from chkobba_p2p.wire.logfile import LogUnreadable, read_log

    igd = FakeIgd()
    port = closed_port()
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    host_argv = cli_command(
        "host", "--headless", "--bind", "127.0.0.1", "--port", str(port), "--quiet",
        "--no-announce", "--identity", str(tmp_path / "host.key"),
        "--log", str(tmp_path / "host.chklog"), "--natpmp-gateway", nobody_natpmp())
    log = tmp_path / "host.chklog"

    def entries() -> int:
        try:
            return len(read_log(log).bodies)
        except LogUnreadable:
            return 0

    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        argv = [*host_argv, "--igd-url", igd.url]
        first = await trio.lowlevel.open_process(argv, cwd=REPO_ROOT, env=env,
                                                 stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL)
        bot = await trio.lowlevel.open_process(
            cli_command("bot", f"127.0.0.1:{port}", "--name", "guest", "--quiet",
                        "--delay", "0.02", "--connect-retry", "20",
                        "--log", str(tmp_path / "guest.chklog")),
            cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs = [first, bot]
        try:
            with trio.fail_after(60):
                while entries() < 30 or port not in igd.mappings:
                    await trio.sleep(0.02)
            first.kill()  # a crash: no chance to remove anything
            await first.wait()
            assert port in igd.mappings  # left behind (its lease bounds it)
            adds = sum(action == "AddPortMapping" for action, _ in igd.calls)
            again = await trio.lowlevel.open_process(argv, cwd=REPO_ROOT, env=env,
                                                     stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.DEVNULL)
            procs.append(again)
            with trio.fail_after(90):
                assert await bot.wait() == 0
                assert await again.wait() == 0
        finally:
            for proc in procs:
                if proc.returncode is None:
                    proc.kill()
        # The resumed host asked again for the same port, and removed it at the end.
        assert sum(action == "AddPortMapping" for action, _ in igd.calls) == adds + 1
        assert igd.mappings == {}
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_a_router_behind_another_nat_is_not_shown_as_reachable(tmp_path):
    assert PortMapped(PUBLIC_IP, 7777, "UPnP").public
    assert PortMapped(None, 7777, "NAT-PMP").public  # not said: not claimed either way
    for inner in ("100.64.3.4", "192.168.1.1", "10.0.0.138"):
        assert not PortMapped(inner, 7777, "UPnP").public
    igd = FakeIgd(public_ip="100.64.3.4")  # the provider's carrier-grade NAT
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        proc = await _host_process(tmp_path, "--igd-url", igd.url,
                                   "--natpmp-gateway", nobody_natpmp())
        seen: list[str] = []
        try:
            with trio.fail_after(60):
                assert proc.stdout is not None
                line = await _lines_until(proc.stdout, r"the router opened port", seen)
        finally:
            proc.kill()
            await proc.wait()
        nursery.cancel_scope.cancel()
    assert "its own address 100.64.3.4 is not public" in line
    assert not any("friends on the internet:" in x for x in seen)


# ------------------------------------------------------------ a hostile router

ESCAPES = "\x1b[2J\x1b]0;PWN\x07"  # clears the screen, retitles the window
#: The same in the one-character (C1) forms, and a bidi override: legal in XML, so a
#: strict parser lets them through (ESC itself is not XML: the answer is refused whole).
C1_ESCAPES = "\x9b2J\x9d0;PWN\x9c\u202e"
_RAW = ("\x1b", "\x07", "\x9b", "\x9d", "\x9c", "\u202e")


def _vm(pid: int, field: str) -> int:
    """``VmRSS`` or ``VmHWM`` (the peak) of a process, in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


@pytest.mark.slow
async def test_a_routers_escapes_never_reach_the_terminal(tmp_path):
    """The external address and a fault's text are a router's words: the headless host
    prints them through the display filter (the "not public" line and the hint)."""
    for igd, pattern, shown in (
            (FakeIgd(public_ip=C1_ESCAPES), r"the router opened port", "\ufffd2J\ufffd0;PWN"),
            (FakeIgd(add_fault=C1_ESCAPES), r"no router opened the port", "\ufffd2J"),
            (FakeIgd(public_ip=ESCAPES), r"friends on the internet", ""),
            (FakeIgd(add_fault=ESCAPES), r"no router opened the port", "")):
        async with trio.open_nursery() as nursery:
            await nursery.start(igd.serve)
            proc = await _host_process(tmp_path, "--igd-url", igd.url,
                                       "--natpmp-gateway", nobody_natpmp())
            seen: list[str] = []
            try:
                with trio.fail_after(60):
                    assert proc.stdout is not None
                    line = await _lines_until(proc.stdout, pattern, seen)
            finally:
                proc.kill()
                await proc.wait()
            nursery.cancel_scope.cancel()
        assert shown in line, line
        assert not any(c in x for x in seen for c in _RAW), seen


def test_the_lobby_shows_a_routers_words_through_the_filter():
    from chkobba_cli.tui.screens.lobby import reach_text
    from chkobba_cli.words.i18n import Translator

    for lang in ("en", "fr"):
        for ip in (ESCAPES, C1_ESCAPES):
            text = reach_text(Translator(lang), PortMapped(ip, 7777, "UPnP"), "ab" * 8)
            assert not any(c in text for c in _RAW), text


@pytest.mark.slow
async def test_a_300_mb_description_is_refused_after_64_kib(tmp_path):
    """The router streams a 300 MB root description: the host reads 64 KiB of it, hangs
    up (the router stops sending) and stays within 10 MB of its idle size."""
    igd = FakeIgd(description_size=300 * 1024 * 1024, hold=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        proc = await _host_process(tmp_path, "--igd-url", igd.url,
                                   "--natpmp-gateway", nobody_natpmp())
        seen: list[str] = []
        try:
            with trio.fail_after(60):
                assert proc.stdout is not None
                await _lines_until(proc.stdout, r"friends on the LAN: ", seen)
                await igd.asked.wait()
                idle = _vm(proc.pid, "VmRSS")
                igd.release.set()
                line = await _lines_until(proc.stdout, r"no router opened the port", seen)
                peak = _vm(proc.pid, "VmHWM")
        finally:
            proc.kill()
            await proc.wait()
        nursery.cancel_scope.cancel()
    assert "larger than 64 KiB" in line
    assert peak - idle < 10 * 1024, (idle, peak)
    assert igd.sent < 32 * 1024 * 1024, igd.sent  # it stopped reading: the router stalled


@pytest.mark.slow
async def test_a_router_that_never_answers_is_hung_up_on_within_the_timeout(tmp_path):
    igd = FakeIgd(hold=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        host, watcher = mapping_host(tmp_path, igd_url=igd.url,
                                     natpmp_gateway=nobody_natpmp(), timeout=1.0)
        await nursery.start(host.run)
        with trio.fail_after(30):
            missing = await watcher.wait_for(PortMapUnavailable)
            await igd.hung_up.wait()  # nobody is left reading
        assert "no answer within 1 s" in missing.reason
        nursery.cancel_scope.cancel()


def billion_laughs(encoding: str = "") -> str:
    """The classic entity bomb: 10 levels of 10 references, a billion "lol"s (3 GB) from
    under 1 KiB; ``encoding``: the XML declaration's."""
    lol = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    declared = f' encoding="{encoding}"' if encoding else ""
    return (f'<?xml version="1.0"{declared}?>\n<!DOCTYPE root [\n' + "\n".join(lol)
            + "\n]>\n<root>&lol9;</root>")


def test_a_billion_laughs_description_is_refused_before_parsing():
    """Refused by the bytes alone: Python's memory stays within 1 MiB while it is (the
    parser reached 50 MB before expat's amplification limit stopped it)."""
    import tracemalloc

    from chkobba_p2p._shell.portmap import UpnpError, _control_url

    bombs = [billion_laughs().encode(), billion_laughs("UTF-8").encode(),
             billion_laughs().replace("DOCTYPE", "doctype").encode(),
             # an entity declaration alone, and a DTD naming an outside one
             b'<?xml version="1.0"?><!ENTITY x "y"><root/>',
             b'<!DOCTYPE root SYSTEM "http://192.0.2.1/x.dtd"><root/>']
    others = [billion_laughs().encode("utf-16"), billion_laughs("UTF-16").encode("utf-16-le"),
              billion_laughs("cp037").encode("cp037"), b"<root>" + b" " * 70000 + b"</root>"]
    tracemalloc.start()
    try:
        for bomb in bombs:
            with pytest.raises(UpnpError, match="DTD or an entity declaration"):
                _control_url(bomb, "http://192.0.2.1/rootDesc.xml")
        for other in others:  # where the bytes check could not see: refused unparsed too
            with pytest.raises(UpnpError, match="not in UTF-8|larger than 64 KiB"):
                _control_url(other, "http://192.0.2.1/rootDesc.xml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024, peak


@pytest.mark.slow
async def test_a_router_serving_a_billion_laughs_gets_the_hint_not_a_mapping(tmp_path):
    igd = FakeIgd(description=billion_laughs())
    async with trio.open_nursery() as nursery:
        await nursery.start(igd.serve)
        host, watcher = mapping_host(tmp_path, igd_url=igd.url,
                                     natpmp_gateway=nobody_natpmp())
        await nursery.start(host.run)
        with trio.fail_after(30):
            missing = await watcher.wait_for(PortMapUnavailable)
        assert "DTD or an entity declaration" in missing.reason, missing.reason
        assert not igd.calls and not igd.mappings  # nothing was asked of it after
        nursery.cancel_scope.cancel()


def test_the_upnp_client_reads_the_forms_routers_use():
    """Written from the UPnP and HTTP/1.1 texts: a description with a URLBase and a
    relative control URL, a WANPPPConnection router, and a chunked answer."""
    from chkobba_p2p._shell.portmap import UpnpError, _control_url, _dechunk

    desc = (b'<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0">'
            b"<URLBase>http://192.0.2.1:49000/</URLBase><device><serviceList><service>"
            b"<serviceType>urn:schemas-upnp-org:service:WANPPPConnection:1</serviceType>"
            b"<controlURL>upnp/control/WANPPPConn1</controlURL></service></serviceList>"
            b"</device></root>")
    assert _control_url(desc, "http://192.0.2.1:5000/rootDesc.xml") == (
        "http://192.0.2.1:49000/upnp/control/WANPPPConn1",
        "urn:schemas-upnp-org:service:WANPPPConnection:1")
    plain = desc.replace(b"<URLBase>http://192.0.2.1:49000/</URLBase>", b"").replace(
        b"upnp/control", b"/upnp/control")
    assert _control_url(plain, "http://192.0.2.1:5000/rootDesc.xml")[0] == \
        "http://192.0.2.1:5000/upnp/control/WANPPPConn1"
    with pytest.raises(UpnpError):
        _control_url(b"<root><device/></root>", "http://192.0.2.1/")
    with pytest.raises(UpnpError):
        _control_url(b"<root>\x1b</root>", "http://192.0.2.1/")  # not XML: refused whole
    assert _dechunk(b"4\r\nWiki\r\n5;x=1\r\npedia\r\n0\r\n\r\n") == b"Wikipedia"
    with pytest.raises(UpnpError):
        _dechunk(b"ff\r\nshort")
