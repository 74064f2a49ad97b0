"""``chkobba host --headless --tor`` and ``chkobba bot NAME.onion:PORT#KEY``: whole matches
between separate processes over the private Tor network on loopback (the ``tor_network``
fixture), both logs VALID by ``chkobba replay``; a wrong ``#KEY`` refused; a joiner
killed and resumed over Tor; a host restarted at the same onion address."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from pathlib import Path

import pytest
from support.net import REPO_ROOT, cli_command, cli_env

from chkobba_p2p._shell.tor import TOR_INSTALL_HINT
from chkobba_p2p.wire.logfile import LogUnreadable, read_log

LIMIT = 120  # seconds: a whole match over Tor on loopback takes a few
ONION_CODE = re.compile(r"friends through Tor: ([a-z2-7]{56}\.onion):(\d+)#([0-9a-f-]{19})")


_STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _stop_leftovers():
    """A failed test leaves no peer running (each is stopped after the test)."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _popen(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    _STARTED.append(proc)
    return proc


def _env(tmp_path: Path, tor_network=None) -> dict[str, str]:
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    if tor_network is not None:  # the running tor of the private network
        env["CHKOBBA_TOR_CONTROL"] = tor_network.client_control
        env["CHKOBBA_TOR_SOCKS"] = tor_network.client_socks
    return env


def _host(tmp_path: Path, tor_network, *args: str) -> tuple[subprocess.Popen, str]:
    """A headless host with --tor; its onion join code once it shows it."""
    proc = _popen(
        cli_command("host", "--headless", "--tor", "--bind", "127.0.0.1", "--no-beacon",
                    "--quiet", "--log", str(tmp_path / "host.chklog"), *args),
        _env(tmp_path, tor_network))
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if m := ONION_CODE.search(line):
            return proc, m.group(0).removeprefix("friends through Tor: ")
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"host did not start: {proc.stderr.read() if proc.stderr else ''}")


def _bot(tmp_path: Path, tor_network, code: str, name: str, *args: str) -> subprocess.Popen:
    return _popen(
        cli_command("bot", code, "--name", name, "--quiet",
                    "--log", str(tmp_path / f"{name}.chklog"), *args),
        _env(tmp_path, tor_network))


def _result(proc: subprocess.Popen) -> str:
    try:
        out, err = proc.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"still running after {LIMIT} s\n{out}\n{err}") from None
    assert proc.returncode == 0, f"exit {proc.returncode}\n{out}\n{err}"
    [result] = [line for line in out.splitlines() if line.startswith("result: ")]
    return result


def _replay_valid(log: Path) -> None:
    done = subprocess.run(cli_command("replay", str(log)), cwd=REPO_ROOT, env=cli_env(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "VALID" in done.stdout, done.stdout + done.stderr


def _entries(log: Path) -> int:
    try:
        return len(read_log(log).bodies)
    except LogUnreadable:
        return 0


def _wait_entries(log: Path, n: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _entries(log) < n:
        time.sleep(0.02)  # another process writes it: poll the file
    assert _entries(log) >= n


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_match_over_tor_between_processes_both_logs_valid(tor_network, tmp_path):
    host, code = _host(tmp_path, tor_network, "--port", "0", "--target", "1")
    bot = _bot(tmp_path, tor_network, code, "guest")
    result = _result(bot)
    assert result.startswith("result: match over after") and _result(host) == result
    _replay_valid(tmp_path / "host.chklog")
    _replay_valid(tmp_path / "guest.chklog")


def test_a_spectator_watches_through_tor(tor_network, tmp_path):
    host, code = _host(tmp_path, tor_network, "--port", "0", "--spectators", "1")
    bot = _bot(tmp_path, tor_network, code, "guest", "--delay", "0.02")
    _wait_entries(tmp_path / "host.chklog", 10)  # it comes in during the game
    watcher = _popen(
        cli_command("watch", code.partition("#")[0], "--lang", "en",
                    "--log", str(tmp_path / "watch.chklog")),
        _env(tmp_path, tor_network))
    assert _result(bot) == _result(host)
    out, err = watcher.communicate(timeout=LIMIT)
    assert watcher.returncode == 0, out + err
    assert read_log(tmp_path / "watch.chklog").bodies == \
        read_log(tmp_path / "host.chklog").bodies
    _replay_valid(tmp_path / "watch.chklog")


def test_a_wrong_key_after_the_onion_address_is_refused(tor_network, tmp_path):
    host, code = _host(tmp_path, tor_network, "--port", "0")
    try:
        onion, _, fp = code.partition("#")
        wrong = "0000-0000-0000-0000" if fp != "0000-0000-0000-0000" else "1111-1111-1111-1111"
        bot = _bot(tmp_path, tor_network, f"{onion}#{wrong}", "guest")
        out, err = bot.communicate(timeout=LIMIT)
        assert bot.returncode != 0
        assert wrong in out + err and fp in out + err, out + err
    finally:
        host.kill()
        host.wait()


def test_a_joiner_killed_mid_hand_resumes_over_tor(tor_network, tmp_path):
    host, code = _host(tmp_path, tor_network, "--port", "0")
    args = ("--identity", str(tmp_path / "bot.key"), "--delay", "0.02")
    victim = _bot(tmp_path, tor_network, code, "victim", *args)
    log = tmp_path / "victim.chklog"
    _wait_entries(log, 30)
    victim.kill()
    victim.wait()
    before = len(read_log(log).bodies)
    again = _bot(tmp_path, tor_network, code, "victim", *args)
    result = _result(again)
    assert result.startswith("result: match over after") and _result(host) == result
    assert len(read_log(log).bodies) > before
    assert read_log(tmp_path / "host.chklog").bodies == read_log(log).bodies
    _replay_valid(log)


def test_a_restarted_host_is_at_the_same_onion_address(tor_network, tmp_path):
    args = ("--identity", str(tmp_path / "host.key"), "--port", str(_free_port()))
    host, code = _host(tmp_path, tor_network, *args)
    bot = _bot(tmp_path, tor_network, code, "guest", "--delay", "0.02")
    log = tmp_path / "host.chklog"
    _wait_entries(log, 30)
    host.kill()
    host.wait()
    before = len(read_log(log).bodies)
    again, code_again = _host(tmp_path, tor_network, *args)
    assert code_again == code  # the onion key was kept with the saved game
    try:
        result = _result(again)
    except AssertionError:
        bot.kill()
        out, err = bot.communicate()
        raise AssertionError(f"the guest said:\n{out}\n{err}") from None
    assert result.startswith("result: match over after") and _result(bot) == result
    after = read_log(log).bodies
    assert len(after) > before and after == read_log(tmp_path / "guest.chklog").bodies
    _replay_valid(log)


ONION = "a" * 56 + ".onion:7777"


@pytest.mark.parametrize("command", [
    ["host", "--headless", "--tor", "--port", "0", "--bind", "127.0.0.1", "--no-beacon"],
    ["bot", ONION], ["watch", ONION]])
def test_without_tor_one_line_says_how_to_install_it_and_exit_2(tmp_path, command):
    env = _env(tmp_path)
    env.pop("CHKOBBA_TOR_CONTROL", None)
    env["PATH"] = str(tmp_path)  # no tor binary here
    import sys

    done = subprocess.run([sys.executable, "-m", "chkobba_cli.main", *command],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"error: {TOR_INSTALL_HINT}"]


def test_the_host_lobby_shows_the_onion_code_and_offers_it_when_the_router_says_no():
    from chkobba_cli.tui.app import TuiApp
    from chkobba_p2p._shell.peer import Lobby, PortMapUnavailable

    onion = "a" * 56 + ".onion"
    fp = "2935-c4f7-816c-a26c"
    for lang, offer in (("en", "; or, through Tor: "), ("fr", "; ou, via Tor : ")):
        ui = TuiApp(kind="host", lang=lang, address="192.168.1.20", my_fingerprint=fp,
                    players=2, onion=onion)
        ui.state = ui.state.apply(Lobby((("host", fp), None)))
        ui.port = 7777
        ui.reach = PortMapUnavailable("no UPnP router", 7777, "192.168.1.20")
        text = " ".join("".join(part[1] for part in line) for line in ui.body(100, 40))
        code = f"{onion}:7777#{fp}"
        assert text.count(code) == 2, text  # its own line, and in the router's line
        assert offer + code in " ".join(text.split()), text


def test_the_headless_host_prints_the_onion_code_and_offers_it_in_the_router_line(capsys):
    from chkobba_cli.outputs.headless import Narrator
    from chkobba_p2p._shell.peer import Identity, Listening, PortMapUnavailable, fingerprint
    from chkobba_p2p._shell.tor import (
        OnionPublished,
        Tor,
        TorTransport,
        new_onion_key,
        onion_address,
    )

    key = new_onion_key()
    narrator = Narrator(quiet=True)
    narrator.transport = TorTransport(Tor(probe=False), key)
    identity = Identity.generate()
    narrator.on_event(Listening(7777, identity.public))
    # The router answers while tor starts: no code yet, and no offer to run --tor.
    narrator.on_event(PortMapUnavailable("no UPnP router", 7777, "192.168.1.20"))
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].endswith("in your router's settings"), lines
    narrator.on_event(OnionPublished(onion_address(key), 7777))
    narrator.on_event(PortMapUnavailable("no UPnP router", 7777, "192.168.1.20"))
    code = f"{onion_address(key)}:7777#{fingerprint(identity.public)}"
    lines = capsys.readouterr().out.splitlines()
    assert f"friends through Tor: {code}" in lines
    assert lines[-1].startswith("no router opened the port") and \
        lines[-1].endswith(f"; or, through Tor: {code}")
