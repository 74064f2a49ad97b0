"""Tor that cannot reach the network, said as it happens (issue 43 item 1, issue 42 item
10): tor's bootstrap status parsed into :class:`TorBootstrap` steps; each new step an
event while tor starts; past its time one :class:`TorFailed` (NO_NETWORK, with the
last step), kept: no second tor started.  A host over Tor listens on TCP at once and
publishes its onion service after; a joiner given a SOCKS port alone uses it as it is,
and a SOCKS refusal is an event naming the reply.

Tor's side is faked on loopback (tests/support/fake_tor.py); the time limits run on trio's
MockClock, ``patient_clock``: tor's control port is a real socket, and a clock that jumps
the moment every task waits would run tor's bootstrap time out if a status line were still
on its way through the kernel (a step said before the failure would then be missed)."""

from __future__ import annotations

import pytest
import trio
from support.fake_tor import DONE, LOADING, REFUSED, STARTING, FakeSocks, FakeTor

from chkobba_p2p._shell.tor import (
    OnionPublished,
    SocksError,
    SocksFailed,
    Tor,
    TorBootstrap,
    TorError,
    TorFailed,
    TorFailure,
    TorStarting,
    TorTransport,
    new_onion_key,
    onion_address,
    parse_bootstrap,
)
from chkobba_p2p._shell.transport import TcpTransport, nobody_listening


def test_a_bootstrap_status_is_read_from_an_event_or_the_phase():
    step = parse_bootstrap("STATUS_CLIENT " + REFUSED.format(n=7))
    assert step == TorBootstrap(5, "conn", "Connecting to a relay", "Connection refused",
                                "CONNECTREFUSED", 7, "127.0.0.1:9")
    assert step.trouble
    assert parse_bootstrap(LOADING) == TorBootstrap(50, "loading_descriptors",
                                                    "Loading relay descriptors")
    assert not parse_bootstrap(DONE).trouble and parse_bootstrap(DONE).progress == 100
    # A quoted summary with an escaped quote and spaces, fields in another order.
    assert parse_bootstrap('NOTICE BOOTSTRAP SUMMARY="say \\"hi\\" now" PROGRESS=14 '
                           'TAG=handshake') == TorBootstrap(14, "handshake", 'say "hi" now')


@pytest.mark.parametrize("line", [
    "STATUS_CLIENT NOTICE CIRCUIT_ESTABLISHED",  # another status
    "NOTICE BOOTSTRAP TAG=conn",  # no progress
    "NOTICE BOOTSTRAP PROGRESS=lots TAG=conn",
    "HS_DESC UPLOADED abc",
    "",
])
def test_what_is_no_bootstrap_status_is_none(line):
    assert parse_bootstrap(line) is None


def test_tor_s_words_are_bounded():
    step = parse_bootstrap(f'WARN BOOTSTRAP PROGRESS=900 TAG={"t" * 500} '
                           f'WARNING="{"w" * 900}" REASON=X COUNT=-3')
    assert step is not None and step.progress == 100
    assert len(step.tag) == 80 and len(step.warning) == 200 and step.count == 0
    # A notice carries no warning, whatever fields it has.
    assert parse_bootstrap('NOTICE BOOTSTRAP PROGRESS=5 WARNING="x" REASON=Y').reason == ""


@pytest.mark.slow
async def test_a_tor_that_cannot_reach_the_network_says_each_step_then_fails_once(
        patient_clock):
    fake = FakeTor(STARTING, [REFUSED.format(n=n) for n in (1, 2, 3)])
    events: list[object] = []
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        tor = Tor(fake.address, probe=False, bootstrap_timeout=180, on_event=events.append)
        started = trio.current_time()
        with pytest.raises(TorError) as caught:
            await tor.ready()
        waited = trio.current_time() - started
        assert caught.value.code == TorFailure.NO_NETWORK
        assert 180 <= waited < 181
        # Failed for good: asked again, the same error at once, no second connection.
        with pytest.raises(TorError) as again:
            await tor.ready()
        assert again.value is caught.value and fake.connections == 1
        nursery.cancel_scope.cancel()
    last = parse_bootstrap(REFUSED.format(n=3))
    assert events == [
        TorStarting(False, fake.address),
        parse_bootstrap(STARTING),
        parse_bootstrap(REFUSED.format(n=1)),  # the same warning again is not said again
        TorFailed(TorFailure.NO_NETWORK, str(caught.value), last, 180),
    ]
    assert caught.value.bootstrap == last
    assert "Connection refused" in str(caught.value) and "180 s" in str(caught.value)
    assert not nobody_listening(caught.value)  # no refusal of a table's


@pytest.mark.slow
async def test_a_tor_whose_network_is_turned_off_is_said_so(patient_clock):
    # Tor Browser's tor before its Connect button: at 0%, DisableNetwork 1.
    fake = FakeTor(STARTING, disable_network=True)
    events: list[object] = []
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        tor = Tor(fake.address, probe=False, bootstrap_timeout=60, on_event=events.append)
        with pytest.raises(TorError) as caught:
            await tor.ready()
        nursery.cancel_scope.cancel()
    assert caught.value.code == TorFailure.NETWORK_DISABLED
    assert "GETCONF DisableNetwork" in fake.lines
    assert events[-1] == TorFailed(TorFailure.NETWORK_DISABLED, str(caught.value),
                                   parse_bootstrap(STARTING), 60)


@pytest.mark.slow
async def test_a_host_listens_at_once_and_publishes_its_onion_once_tor_is_ready(
        patient_clock):
    fake = FakeTor(STARTING, [LOADING, DONE])
    fake.hold = trio.Event()
    events: list[object] = []
    key = new_onion_key()
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        tor = Tor(fake.address, probe=False, on_event=events.append)
        transport = TorTransport(tor, key, tcp=TcpTransport())
        with trio.fail_after(1):  # no wait for tor at all
            listeners = await transport.listen(0, "127.0.0.1")
        port = transport.port_of(listeners[0])
        assert [transport.port_of(x) for x in listeners] == [port, port]
        accepted: list[trio.abc.Stream] = []

        async def accept(listener: trio.abc.Listener[trio.abc.Stream]) -> None:
            accepted.append(await listener.accept())

        for listener in listeners:
            nursery.start_soon(accept, listener)
        # The LAN joins while tor is still at its first step.
        client = await trio.open_tcp_stream("127.0.0.1", port)
        while not accepted or parse_bootstrap(LOADING) not in events:
            await trio.sleep(0.01)  # virtual time: tor's first step
        await trio.sleep(60)  # and tor, held, goes no further: nothing published
        assert not any(isinstance(e, OnionPublished) for e in events)
        assert events[-1] == parse_bootstrap(LOADING)
        fake.hold.set()
        while not any(isinstance(e, OnionPublished) for e in events):
            await trio.sleep(0.01)
        assert events[-1] == OnionPublished(onion_address(key), port)
        assert events[-2] == parse_bootstrap(DONE)
        assert fake.onions and f"Port={port},127.0.0.1:" in fake.onions[0]
        await client.aclose()
        nursery.cancel_scope.cancel()
    for stream in accepted:
        await stream.aclose()


@pytest.mark.slow
async def test_a_host_whose_tor_fails_goes_on_over_tcp(patient_clock):
    fake = FakeTor(STARTING, [REFUSED.format(n=1)])
    events: list[object] = []
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        tor = Tor(fake.address, probe=False, bootstrap_timeout=30, on_event=events.append)
        transport = TorTransport(tor, new_onion_key(), tcp=TcpTransport())
        listeners = await transport.listen(0, "127.0.0.1")
        tcp, onion = listeners
        nursery.start_soon(onion.accept)  # publishes, fails, then waits for nothing
        await trio.sleep(31)
        assert isinstance(events[-1], TorFailed) and events[-1].timeout == 30
        assert events[-1].code == TorFailure.NO_NETWORK
        client = await trio.open_tcp_stream("127.0.0.1", transport.port_of(tcp))
        server = await tcp.accept()
        await client.send_all(b"x")
        assert await server.receive_some(1) == b"x"
        for stream in (client, server):
            await stream.aclose()
        nursery.cancel_scope.cancel()
    assert sum(isinstance(e, TorFailed) for e in events) == 1


@pytest.mark.slow
async def test_a_socks_port_alone_is_used_without_any_control_port(monkeypatch):
    monkeypatch.delenv("CHKOBBA_TOR_CONTROL", raising=False)
    socks = FakeSocks(0xF0)
    events: list[object] = []
    async with trio.open_nursery() as nursery:
        await socks.serve(nursery)
        tor = Tor(None, socks.address, on_event=events.append)
        onion = onion_address(new_onion_key())
        with pytest.raises(SocksError) as caught:
            await TorTransport(tor).connect(onion, 7452)
        nursery.cancel_scope.cancel()
    assert caught.value.code == 0xF0 and "onion service not found" in str(caught.value)
    # The SOCKS port is the tor used; no control port is asked or started.
    assert events == [TorStarting(False, socks.address), SocksFailed(f"{onion}:7452", 0xF0)]
    assert socks.requests[0][4:-2] == bytes([62]) + onion.encode()
    assert tor.control is None and tor.process is None


@pytest.mark.slow
async def test_nothing_at_the_socks_port_is_tor_s_failure_not_the_table_s(monkeypatch):
    monkeypatch.delenv("CHKOBBA_TOR_CONTROL", raising=False)
    with trio.socket.socket() as sock:  # a port nobody listens on
        await sock.bind(("127.0.0.1", 0))
        where = f"127.0.0.1:{sock.getsockname()[1]}"
    events: list[object] = []
    tor = Tor(None, where, on_event=events.append)
    with pytest.raises(TorError) as caught:
        await tor.open_socks(onion_address(new_onion_key()), 7452)
    assert caught.value.code == TorFailure.NO_SOCKS and where in str(caught.value)
    assert not nobody_listening(caught.value)
    assert [type(e) for e in events] == [TorStarting, TorFailed]
