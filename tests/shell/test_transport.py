"""Every transport passes one conformance check (chkobba_p2p.testing.check_transport):
TCP on IPv4 and IPv6 loopback, and the memory transport the in-memory table uses."""

from __future__ import annotations

import pytest
import trio
from support.net import has_ipv6_loopback

from chkobba_p2p._shell.net import HostPeer
from chkobba_p2p._shell.peer import Listening
from chkobba_p2p._shell.transport import TcpTransport, Transport
from chkobba_p2p.testing import (
    InMemoryTable,
    MemoryNetwork,
    RecordingController,
    check_transport,
)


async def test_tcp_over_ipv4_loopback_conforms():
    await check_transport(TcpTransport, bind="127.0.0.1", connect_to="127.0.0.1")


@pytest.mark.skipif(not has_ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
async def test_tcp_over_ipv6_loopback_conforms():
    await check_transport(TcpTransport, bind="::1", connect_to="::1")


async def test_the_memory_transport_conforms(autojump_clock):
    network = MemoryNetwork()
    await check_transport(lambda: network.transport("10.0.0.1"), connect_to="10.0.0.1")


async def test_tcp_reports_the_peers_ip_and_memory_the_label_chosen(autojump_clock):
    network = MemoryNetwork()
    host = network.transport("10.0.0.1")
    [listener] = await host.listen(0, "")
    await network.transport("192.0.2.7").connect("10.0.0.1", host.port_of(listener))
    server = await listener.accept()
    assert host.peer_address(server) == "192.0.2.7"
    shared = network.transport("10.0.0.1", shared=True)
    assert shared.shared_address and shared.peer_address(server) == "127.0.0.1"
    assert isinstance(TcpTransport(), Transport) and isinstance(host, Transport)
    assert not TcpTransport.shared_address
    await listener.aclose()


async def test_a_table_in_memory_plays_to_the_end_with_nothing_of_the_real_world(
        tmp_path, autojump_clock):
    table = InMemoryTable(tmp_path, players=2)
    # No LAN beacon (zeroconf) and no UPnP port mapping on an in-memory table.
    assert table.host.config.beacon is False and table.host.config.port_mapping is None
    host_out, guest_out = await table.run()
    assert host_out.completed and guest_out.completed
    assert host_out.done == guest_out.done
    assert table.host.port_mapper is None
    host_ctl = table.controllers[0]
    assert isinstance(host_ctl, RecordingController)
    assert host_ctl.of(Listening)[0].port == table.host.port
    assert [c.label for c in table.network.connections] == ["10.0.1.1"]


async def test_a_host_on_the_memory_transport_refuses_a_taken_port(tmp_path, autojump_clock):
    from chkobba_p2p._shell.net import ListenError

    table = InMemoryTable(tmp_path)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(table.host.run)
        config = table.host.config
        other = HostPeer(type(config)(port=port, bind=config.bind, beacon=False,
                                      log_path=tmp_path / "other.chklog",
                                      transport=config.transport), RecordingController())
        with pytest.raises(ListenError):
            await other.run()
        nursery.cancel_scope.cancel()


async def test_a_memory_connection_delays_drops_cuts_and_takes_raw_bytes(autojump_clock):
    network = MemoryNetwork()
    host = network.transport("10.0.0.1")
    [listener] = await host.listen(0, "")
    client = await network.transport("10.0.1.1").connect("10.0.0.1", host.port_of(listener))
    server = await listener.accept()
    [link] = network.connections_from("10.0.1.1")
    link.delay = 5.0
    start = trio.current_time()
    await client.send_all(b"late")
    assert await server.receive_some(10) == b"late"
    assert trio.current_time() - start >= 5.0
    link.delay, link.dropping = 0.0, True
    await client.send_all(b"lost")
    with trio.move_on_after(60) as scope:
        await server.receive_some(10)
    assert scope.cancelled_caught  # the bytes vanished
    link.to_server(b"raw")
    assert await server.receive_some(10) == b"raw"
    link.dropping = False
    link.cut()
    assert await server.receive_some(10) == b""
    with pytest.raises(trio.ClosedResourceError):
        await client.send_all(b"after the cut")
    await listener.aclose()


@pytest.mark.parametrize("patience", [0.0, 30.0])
async def test_a_first_connection_is_tried_again_for_the_transports_patience(
        tmp_path, autojump_clock, patience):
    """Over Tor a friend's first try at a fresh table is often "not found": the joiner
    tries again for the transport's ``connect_patience``; over TCP (none) a refusal is
    the answer at once.  Here the table opens 10 s after the joiner's first try."""
    from chkobba_p2p._shell.net import ClientPeer
    from chkobba_p2p._shell.peer import JoinConfig
    from chkobba_p2p.testing import MemoryTransport

    table = InMemoryTable(tmp_path, players=2)
    table.host.config.port = 7777
    client_side = table.network.transport("10.0.1.1", patience=patience)
    assert isinstance(client_side, MemoryTransport) and isinstance(client_side, Transport)
    joiner = ClientPeer(JoinConfig("10.0.0.1:7777", name="guest", timeouts=table.timeouts,
                                   transport=client_side, log_path=tmp_path / "guest.chklog"),
                        table.controllers[1])
    outcomes = {}
    async with trio.open_nursery() as nursery:
        async def join() -> None:
            outcomes["guest"] = await joiner.run()

        nursery.start_soon(join)
        await trio.sleep(10)
        if patience == 0:
            guest = outcomes["guest"]  # over already: refused, and said so
            assert guest.done is None and guest.error_reason is not None
            assert guest.error_reason.startswith("connect_")
            assert guest.error_data["where"] == "10.0.0.1:7777"
            return
        assert "guest" not in outcomes  # still trying
        outcomes["host"] = await table.host.run()
    assert outcomes["host"].done is not None and outcomes["host"].done == outcomes["guest"].done
    tries = [c for c in table.network.connections if c.label == "10.0.1.1"]
    assert len(tries) == 1  # failed tries leave no connection behind; one took
