"""Join codes that pin the host's key (``HOST:PORT#FINGERPRINT``), and IPv6: the host
listens on IPv4 and IPv6 at once, and a whole match runs over ``::1`` between
processes."""

from __future__ import annotations

import re
import socket
import subprocess
import time

import pytest
import trio
from support.net import (
    REPO_ROOT,
    cli_command,
    cli_env,
    has_ipv6_loopback,
    host_config,
    join_config,
)

from chkobba_p2p._shell.net import ClientPeer, HostPeer, listen
from chkobba_p2p._shell.peer import (
    BotController,
    Lobby,
    OutcomeError,
    parse_fingerprint,
    split_join_code,
)
from chkobba_p2p.address import Address, AddressError
from chkobba_p2p.wire.logfile import read_log

LIMIT = 90


class Seats(BotController):
    def __init__(self) -> None:
        super().__init__("greedy", 0)
        self.lobbies: list[Lobby] = []

    def on_event(self, event: object) -> None:
        if isinstance(event, Lobby):
            self.lobbies.append(event)


def test_join_codes_parse():
    assert split_join_code("203.0.113.7:7777#2935-c4f7-816c-a26c") == (
        "203.0.113.7:7777", "2935-c4f7-816c-a26c")
    assert split_join_code("[::1]:7777#2935C4F7816CA26C") == ("[::1]:7777",
                                                              "2935-c4f7-816c-a26c")
    assert split_join_code("192.0.2.5") == ("192.0.2.5:7777", None)
    assert split_join_code("::1#2935c4f7816ca26c") == ("[::1]:7777", "2935-c4f7-816c-a26c")
    code = Address.parse("203.0.113.7:7777#2935-C4F7-816C-A26C")
    assert code == Address("203.0.113.7", 7777, "2935-c4f7-816c-a26c")
    assert str(code) == "203.0.113.7:7777#2935-c4f7-816c-a26c"
    assert code.endpoint == "203.0.113.7:7777"
    assert str(Address("::1", 7777, "2935-c4f7-816c-a26c")) == "[::1]:7777#2935-c4f7-816c-a26c"
    with pytest.raises(AddressError, match="not a host key fingerprint"):
        Address.parse("203.0.113.7:7777#2935")
    with pytest.raises(AddressError, match="not a port number"):
        Address.parse("203.0.113.7:77x7#2935-c4f7-816c-a26c")
    assert parse_fingerprint(" 2935 c4f7 816c a26c ") == "2935-c4f7-816c-a26c"
    for bad in ("", "2935-c4f7-816c", "2935-c4f7-816c-a26g", "2935-c4f7-816c-a26c-0000"):
        with pytest.raises(ValueError, match="not a host key fingerprint"):
            parse_fingerprint(bad)
    with pytest.raises(ValueError):
        split_join_code("203.0.113.7:7777#")


async def test_the_right_fingerprint_joins(tmp_path):
    host = HostPeer(host_config(tmp_path), BotController("greedy", 0))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        code = f"127.0.0.1:{port}#{host.identity.fingerprint}"
        cfg = join_config(tmp_path, port, "guest")
        cfg.address = code
        outcome = await ClientPeer(cfg, BotController("greedy", 1)).run()
    assert outcome.completed, (outcome.error_reason, outcome.error_data)


async def test_a_wrong_fingerprint_is_refused_before_anything_is_written(tmp_path):
    seats = Seats()
    host = HostPeer(host_config(tmp_path), seats)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        state = tmp_path / "guest.state"
        cfg = join_config(tmp_path, port, "guest", state_path=state,
                          host_fingerprint="0000-0000-0000-0000")
        outcome = await ClientPeer(cfg, BotController("greedy", 1)).run()
        nursery.cancel_scope.cancel()
    assert outcome.error_code == OutcomeError.HOST_KEY_MISMATCH
    assert outcome.error_reason == "host_key_mismatch"
    assert outcome.error_data["actual"] == host.identity.fingerprint
    assert outcome.error_data["pinned"] == "0000-0000-0000-0000"
    assert not (tmp_path / "guest.chklog").exists() and not state.exists()
    assert outcome.table is None and outcome.log_path is None
    # The joiner stopped before its hello: the host never seated it.
    assert not any(all(lobby.seats) for lobby in seats.lobbies)


def _env(tmp_path):
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    return env


def _start_host(tmp_path, *args: str) -> tuple[subprocess.Popen, int, str]:
    proc = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--no-announce", "--no-upnp",
                    "--log", str(tmp_path / "host.chklog"), *args),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    port = fp = None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"listening on port (\d+); host key fingerprint (\S+)", line)
        if m:
            port, fp = int(m.group(1)), m.group(2)
        if port is not None and line.startswith("friends on the LAN: "):
            assert line.strip().endswith(f":{port}#{fp}"), line  # the join code
            return proc, port, fp
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"host did not start: {proc.stderr.read() if proc.stderr else ''}")


def _bot(tmp_path, address: str, name: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        cli_command("bot", address, "--name", name, "--quiet",
                    "--log", str(tmp_path / f"{name}.chklog"), *args),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def _result(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{out}\n{err}"
    [result] = [line for line in out.splitlines() if line.startswith("result: ")]
    return result


def test_chkobba_bot_refuses_a_host_with_another_key_exit_2(tmp_path):
    host, port, fp = _start_host(tmp_path, "--bind", "127.0.0.1")
    try:
        wrong = "ffff" + fp[4:] if not fp.startswith("ffff") else "0000" + fp[4:]
        bot = _bot(tmp_path, f"127.0.0.1:{port}#{wrong}", "mitm",
                   "--identity", str(tmp_path / "bot.key"))
        out, err = bot.communicate(timeout=LIMIT)
        assert bot.returncode == 2, (out, err)
        assert f"has the key {fp}, not {wrong} as the join code says" in err
        assert not (tmp_path / "mitm.chklog").exists()
        assert not list((tmp_path / "data").glob("resume/*.state"))
        # The same host, with its right code, plays a whole match.
        good = _bot(tmp_path, f"127.0.0.1:{port}#{fp}", "friend")
        assert _result(good).startswith("result: match over after")
        assert _result(host).startswith("result: match over after")
    finally:
        host.kill()


needs_v6 = pytest.mark.skipif(not has_ipv6_loopback(), reason="this machine has no ::1")


@needs_v6
async def test_listening_on_every_address_takes_ipv4_and_ipv6_on_one_port():
    listeners = await listen(0, "")
    try:
        families = {ln.socket.family for ln in listeners}
        ports = {ln.socket.getsockname()[1] for ln in listeners}
        assert families == {socket.AF_INET, socket.AF_INET6}
        assert len(ports) == 1
    finally:
        for ln in listeners:
            await ln.aclose()


@needs_v6
def test_whole_match_over_ipv6_loopback_between_processes(tmp_path):
    # Every address (the default --bind): two bots over ::1, one over IPv4.
    host, port, fp = _start_host(tmp_path, "--players", "4")
    try:
        bots = [_bot(tmp_path, f"[::1]:{port}#{fp}", "six1"),
                _bot(tmp_path, f"[::1]:{port}", "six2"),
                _bot(tmp_path, f"127.0.0.1:{port}", "four")]
        results = [_result(host)] + [_result(b) for b in bots]
    finally:
        host.kill()
    assert results[0].startswith("result: match over after")
    assert len(set(results)) == 1, results
    logs = [read_log(tmp_path / f"{n}.chklog") for n in ("host", "six1", "six2", "four")]
    assert all(log.bodies == logs[0].bodies for log in logs)
    assert read_log(tmp_path / "six1.chklog").header["host"] == f"[::1]:{port}"
