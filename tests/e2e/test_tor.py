"""Tables as Tor onion services (chkobba_p2p._shell.tor), on a private Tor network on loopback
(the ``tor_network`` fixture, tests/support/tor_network.py: it never contacts the public Tor
network).  Skipped, saying why, where tor is not installed."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import pytest
import trio
from support.audit import said
from support.net import host_config, join_config

from chkobba_p2p._shell.peer import BotController, host_match, join_match
from chkobba_p2p._shell.tor import (
    TOR_INSTALL_HINT,
    Tor,
    TorError,
    TorTransport,
    TorUnavailable,
    is_onion,
    new_onion_key,
    onion_address,
)
from chkobba_p2p._shell.transport import TcpTransport, Transport
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import VALID, audit_log
from chkobba_p2p.testing import check_transport


def test_an_onion_address_is_the_key_its_checksum_and_version_3():
    key = bytes(range(32))
    address = onion_address(key)
    assert is_onion(address) and address == onion_address(key)
    raw = base64.b32decode(address.removesuffix(".onion").upper())
    pub, check, version = raw[:32], raw[32:34], raw[34:]
    assert version == b"\x03"
    assert check == hashlib.sha3_256(b".onion checksum" + pub + b"\x03").digest()[:2]
    assert onion_address(new_onion_key()) != address
    assert not is_onion("example.onion") and not is_onion("127.0.0.1")


async def test_without_tor_the_error_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no tor binary to be found
    monkeypatch.delenv("CHKOBBA_TOR_CONTROL", raising=False)
    tor = Tor(probe=False, data_dir=tmp_path / "tor")
    assert not tor.available()
    with pytest.raises(TorUnavailable) as caught:
        await tor.ready()
    assert str(caught.value) == TOR_INSTALL_HINT and "apt install tor" in TOR_INSTALL_HINT


@pytest.mark.skipif(shutil.which("tor") is None, reason="tor is not installed")
async def test_a_tor_that_cannot_start_says_why_and_is_not_left_running(tmp_path):
    # DisableNetwork: even a tor that did start would not touch any network.
    tor = Tor(data_dir=tmp_path / "tor", extra_config=["DisableNetwork 1", "NoSuchOption 1"])
    with pytest.raises(TorError, match="tor exited at once: .*NoSuchOption"):
        await tor.ready()
    assert tor.process is not None and tor.process.poll() is not None
    assert tor.control is None


async def test_the_tor_transport_conforms_over_a_running_tor(tor_network):
    tor = Tor(tor_network.client_control, tor_network.client_socks, probe=False)
    key = new_onion_key()
    assert isinstance(TorTransport(tor, key), Transport)
    try:
        # Two first tries may each wait for tor's answer (TOR_SOCKS_REPLY) before the
        # patience retries succeed: a fresh onion, then the same one listened on again.
        with trio.fail_after(240):
            await check_transport(lambda: TorTransport(tor, key),
                                  connect_to=onion_address(key))
    finally:
        await tor.aclose()


@pytest.mark.parametrize("method", ["SAFECOOKIE", "COOKIE"])
async def test_the_control_port_by_address_or_socket_path_and_either_cookie(
        tor_network, method):
    from chkobba_p2p._shell.tor import _Control

    # Plain COOKIE sends the cookie's bytes: only one from the Tor data directory named
    # here (the client tor's folder, where its control socket is).
    data_dir = Path(tor_network.client_control_socket).parent
    for where in (tor_network.client_control, tor_network.client_control_socket):
        control = await _Control.open(where, prefer=(method,), trusted=[data_dir])
        try:
            assert "PROGRESS=100" in await control.getinfo("status/bootstrap-phase")
        finally:
            await control.aclose()
    # Through the path, Tor names its SOCKS port itself.
    tor = Tor(tor_network.client_control_socket, probe=False)
    try:
        await tor.ready()
        assert tor.socks_address == tor_network.client_socks
    finally:
        await tor.aclose()


async def test_a_private_tor_is_started_owned_and_stopped(tor_network, tmp_path):
    tor = Tor(data_dir=tmp_path / "tor", extra_config=tor_network.client_config())
    try:
        with trio.fail_after(120):
            await tor.ready()
        assert tor.process is not None and tor.process.poll() is None
        assert tor.socks_address is not None and tor.socks_address.startswith("127.0.0.1:")
        assert (tmp_path / "tor" / "control_auth_cookie").exists()
    finally:
        await tor.aclose()
    assert tor.process.poll() is not None  # stopped with its owner


async def test_private_tors_get_their_own_folders_under_the_data_dir(
        tor_network, tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path / "data"))
    first = Tor(extra_config=tor_network.client_config())
    second = Tor(extra_config=tor_network.client_config())
    try:
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(first.ready)
                nursery.start_soon(second.ready)
        folders = {tor.process.args[2] for tor in (first, second)}  # tor -f FOLDER/torrc
        assert folders == {str(tmp_path / "data" / "tor" / n / "torrc") for n in "01"}
    finally:
        await first.aclose()
        await second.aclose()
    # Free again: the next private tor reuses the first folder (and its cached directory).
    again = Tor(extra_config=tor_network.client_config())
    try:
        with trio.fail_after(120):
            await again.ready()
        assert again.process.args[2] == str(tmp_path / "data" / "tor" / "0" / "torrc")
    finally:
        await again.aclose()


async def _match(tmp_path, host_transport, join_transport, address):
    out = {}
    rules = Ruleset(target=1)
    async with trio.open_nursery() as nursery:
        async def host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host_match(
                host_config(tmp_path, rules=rules, transport=host_transport),
                BotController("greedy", seed=1), task_status=task_status)

        port = await nursery.start(host)
        config = join_config(tmp_path, port, "guest", transport=join_transport)
        config.address = address(port)
        out["guest"] = await join_match(config, BotController("greedy", seed=2))
    return out


async def test_a_match_host_over_onion_joiner_over_socks_both_logs_valid(
        tor_network, tmp_path):
    host_tor = Tor(tor_network.client_control, tor_network.client_socks, probe=False)
    join_tor = Tor(tor_network.client_control, tor_network.client_socks, probe=False)
    key = new_onion_key()
    host_transport = TorTransport(host_tor, key, tcp=TcpTransport())
    try:
        with trio.fail_after(180):
            out = await _match(tmp_path, host_transport, TorTransport(join_tor),
                               lambda port: f"{onion_address(key)}:{port}")
    finally:
        await host_tor.aclose()
        await join_tor.aclose()
    assert out["host"].completed and out["guest"].completed, (
        out["host"].error_reason, out["guest"].error_reason, out["guest"].error_data)
    for name in ("host", "guest"):
        report = audit_log(tmp_path / f"{name}.chklog")
        assert report.verdict == VALID, said(report)
