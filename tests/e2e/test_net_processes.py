"""Whole matches between separate processes on loopback: ``chkobba host --headless`` and
``chkobba bot``, every peer reporting the same result; and a bot killed mid-hand with
SIGKILL that restarts, resumes from its log and saved secrets, and finishes the match."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from pathlib import Path

import pytest
from support.net import REPO_ROOT, child_processes, cli_command
from support.net import process_env as _env
from support.net import start_bot as _bot
from support.net import start_host as _start_host

from chkobba_p2p.wire.logfile import LogUnreadable, read_log

LIMIT = 90  # seconds: a whole match takes a few








def _entries(log: Path) -> int:
    """Entries in a log being written (0 while it has no complete header yet)."""
    try:
        return len(read_log(log).bodies)
    except LogUnreadable:
        return 0


def _result(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{out}\n{err}"
    results = [line for line in out.splitlines() if line.startswith("result: ")]
    assert len(results) == 1, out
    assert "log: " in out
    return results[0]


@pytest.mark.parametrize("players", [2, 4])
def test_whole_match_between_processes(tmp_path, players):
    host, port = _start_host(tmp_path, "--players", str(players))
    bots = [_bot(tmp_path, port, f"bot{i}") for i in range(1, players)]
    results = [_result(host)] + [_result(b) for b in bots]
    assert results[0].startswith("result: match over after")
    assert len(set(results)) == 1, results
    # Every peer's log holds the same transcript, byte for byte.
    logs = [read_log(tmp_path / "host.chklog")]
    logs += [read_log(tmp_path / f"bot{i}.chklog") for i in range(1, players)]
    assert all(log.bodies == logs[0].bodies for log in logs)
    assert not any(log.truncated for log in logs)


def test_peer_killed_mid_hand_resumes(tmp_path):
    host, port = _start_host(tmp_path, "--players", "2")
    key = tmp_path / "bot.key"
    args = ("--identity", str(key), "--delay", "0.02")
    victim = _bot(tmp_path, port, "victim", *args)
    log = tmp_path / "victim.chklog"
    deadline = time.monotonic() + 30
    # Kill it in the middle of the first hand: once its log holds a few dozen entries.
    while time.monotonic() < deadline:
        if _entries(log) >= 30:
            break
        time.sleep(0.01)
    victim.kill()  # SIGKILL: no chance to clean up
    victim.wait()
    before = len(read_log(log).bodies)
    assert before >= 30
    # The saved secrets are readable by their owner only.
    saved = list((tmp_path / "data" / "resume").glob("*.state"))
    assert len(saved) == 1 and saved[0].stat().st_mode & 0o077 == 0
    assert key.stat().st_mode & 0o077 == 0
    again = _bot(tmp_path, port, "victim", *args)
    result_again = _result(again)
    assert _result(host) == result_again
    assert result_again.startswith("result: match over after")
    after = read_log(log)
    assert len(after.bodies) > before
    assert read_log(tmp_path / "host.chklog").bodies == after.bodies
    assert not list((tmp_path / "data" / "resume").glob("*.state"))  # gone once finished


def test_a_bot_killed_at_one_table_resumes_it_after_a_game_at_another(tmp_path):
    """``chkobba bot`` saves its game per identity *and* table, as ``join`` does: a whole
    match at table B with the same identity does not replace the secrets of the game it
    was killed in at table A, which it then resumes and finishes."""
    host_a, port_a = _start_host(tmp_path / "a", "--players", "2")
    args = ("--identity", str(tmp_path / "bot.key"))
    victim = _bot(tmp_path, port_a, "victim", *args, "--delay", "0.02")
    log = tmp_path / "victim.chklog"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _entries(log) < 30:
        time.sleep(0.01)
    victim.kill()
    victim.wait()
    before = len(read_log(log).bodies)
    assert before >= 30
    host_b, port_b = _start_host(tmp_path / "b", "--players", "2", "--target", "1")
    elsewhere = _result(_bot(tmp_path, port_b, "elsewhere", *args))
    assert elsewhere.startswith("result: match over after") and _result(host_b) == elsewhere
    again = _result(_bot(tmp_path, port_a, "victim", *args))
    assert again.startswith("result: match over after") and _result(host_a) == again
    assert len(read_log(log).bodies) > before  # the same log, continued
    assert read_log(tmp_path / "a" / "host.chklog").bodies == \
        read_log(log).bodies


def test_host_killed_mid_hand_resumes(tmp_path):
    """The host itself is SIGKILLed; restarted with the same identity and port it rebuilds
    the game from its log, the peer reconnects, and the match completes."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ("--players", "2", "--identity", str(tmp_path / "host.key"), "--port", str(port))
    host = subprocess.Popen(
        cli_command("host", "--headless", "--bind", "127.0.0.1", "--no-beacon", "--quiet",
                    "--log", str(tmp_path / "host.chklog"), *args),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    bot = _bot(tmp_path, port, "guest", "--delay", "0.02", "--connect-retry", "20")
    log = tmp_path / "host.chklog"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if _entries(log) >= 30:
            break
        time.sleep(0.01)
    host.kill()
    host.wait()
    before = len(read_log(log).bodies)
    assert before >= 30
    again = subprocess.Popen(
        cli_command("host", "--headless", "--bind", "127.0.0.1", "--no-beacon", "--quiet",
                    "--log", str(tmp_path / "host.chklog"), *args),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    result = _result(again)
    assert result.startswith("result: match over after")
    assert _result(bot) == result
    assert read_log(log).bodies == read_log(tmp_path / "guest.chklog").bodies


def test_a_host_killed_with_its_own_bots_resumes_them(tmp_path):
    """``host --headless --bots 1`` at a fixed port is SIGKILLed mid-hand with its bot
    (the machine crashed); the same command restarts the host, whose new bot resumes the
    game its predecessor saved, and the match ends on points: nobody lost on time."""
    import signal
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "host.chklog"
    # A short allowance of time away: a seat that cannot come back loses quickly.
    command = cli_command(
        "host", "--headless", "--bind", "127.0.0.1", "--no-beacon", "--quiet",
        "--log", str(log), "--players", "2", "--bots", "1", "--reconnect-timeout", "20",
        "--identity", str(tmp_path / "host.key"), "--port", str(port))
    host = subprocess.Popen(command, cwd=REPO_ROOT, env=_env(tmp_path),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    bots: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while _entries(log) < 30:
            assert time.monotonic() < deadline, "the match did not get going"
            bots = bots or child_processes(host.pid, b"bot\x00-\x00")
            time.sleep(0.01)
        bots = bots or child_processes(host.pid, b"bot\x00-\x00")
        assert bots
        host.kill()
        for pid in bots:
            os.kill(pid, signal.SIGKILL)
        host.wait()
        before = _entries(log)
        again = subprocess.Popen(command, cwd=REPO_ROOT, env=_env(tmp_path),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        result = _result(again)
        assert result.startswith("result: match over after") and "on time" not in result
        assert _entries(log) > before
        # The bot's copy (beside the host's, in the data directory) is the same transcript.
        (copy,) = (tmp_path / "data" / "logs").glob("*.chklog")
        assert read_log(copy).bodies == read_log(log).bodies
    finally:
        host.kill()
        for pid in bots:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)


def test_host_starts_its_own_bot_peers(tmp_path):
    """``chkobba host --headless --bots 1``: the bot is a separate process on loopback."""
    proc = subprocess.run(
        cli_command("host", "--headless", "--players", "2", "--bots", "1", "--port", "0",
                    "--bind", "127.0.0.1", "--no-beacon", "--quiet", "--target", "5"),
        cwd=REPO_ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=LIMIT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "result: match over after" in proc.stdout
    logs = list((tmp_path / "data" / "logs").glob("*.chklog"))
    assert len(logs) == 2  # the host's and the bot's, in the data directory
    assert read_log(logs[0]).bodies == read_log(logs[1]).bodies
    # The bot is the host's, vouched for (PROTOCOL.md 5.6): in both logs' headers.
    from chkobba_p2p.observe.vouch import check_voucher

    headers = [read_log(p).header for p in logs]
    host_key = next(h["key"] for h in headers if h["seat"] == 0)
    bot_key = next(h["key"] for h in headers if h["seat"] == 1)
    for h in headers:
        assert [(b["key"], b["level"]) for b in h["bots"]] == [(bot_key, "greedy")]
        assert check_voucher(host_key, bot_key, "greedy", h["bots"][0]["sig"])


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_headless_host_stopped_by_sigterm_stops_the_bots_it_started(tmp_path, signame):
    """SIGTERM (a service manager's stop, a ``kill``) or SIGHUP (its terminal closed:
    its output has nowhere to go) ends ``chkobba host --headless`` as an interrupt does:
    its cleanup runs, the bot peers it started stop with it and are reaped, and it says
    so where it still can, with no traceback (a hostile peer's finding: a bot left
    running, its parent gone; a reviewer's: tracebacks on a closed output)."""
    import signal

    proc, _port = _start_host(tmp_path, "--bots", "1", "--level", "expert", "--move-ms", "500")
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    if not children.exists():
        proc.kill()
        pytest.skip("no /proc children list on this system")
    deadline = time.monotonic() + 30
    bots: list[int] = []
    while not bots and time.monotonic() < deadline:  # until the bot peer is started
        bots = [int(p) for p in children.read_text().split()]
        if not bots:
            time.sleep(0.05)
    assert bots, "the host started no bot"
    signum = getattr(signal, signame)
    if signum == signal.SIGHUP:
        proc.stdout.close()  # the terminal is gone
    proc.send_signal(signum)
    err = proc.stderr.read()
    proc.wait(timeout=LIMIT)
    out = "" if signum == signal.SIGHUP else proc.stdout.read()
    assert proc.returncode == 128 + signum, out + err
    assert "Traceback" not in err, err
    if signum == signal.SIGTERM:
        assert f"stopped by {signame}" in out, out
    for pid in bots:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # stopped and reaped by the host


def test_a_bot_back_after_the_host_flagged_it_gets_the_end_then_the_new_table(tmp_path):
    """Issue 40, case 6, between processes: a bot is SIGKILLed mid-hand and stays away;
    the host flags it on time and its process ends.  The same host (identity, port) opens
    a new table; the bot's same command comes back to the end the host signed (the same
    result line, its log replaying to the host's verdict, no ending of its own), and the
    same command once more sits at the new table and plays it."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    logs = tmp_path / "host-logs"
    hosting = ("--players", "2", "--identity", str(tmp_path / "host.key"), "--port",
               str(port), "--reconnect-timeout", "2")

    def host(log: str) -> subprocess.Popen:
        return subprocess.Popen(
            cli_command("host", "--headless", "--bind", "127.0.0.1", "--no-beacon",
                        "--quiet", "--log", str(logs / log), *hosting),
            cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)

    first = host("first.chklog")
    args = ("--identity", str(tmp_path / "bot.key"), "--connect-retry", "20")
    victim = _bot(tmp_path, port, "victim", *args, "--delay", "0.02")
    log = tmp_path / "victim.chklog"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _entries(log) < 30:
        time.sleep(0.01)
    victim.kill()  # SIGKILL: it signs nothing, and its saved game stays
    victim.wait()
    flagged = _result(first)
    assert "lost on time" in flagged, flagged
    assert list((tmp_path / "data" / "resume").glob("*.state"))
    second = host("second.chklog")  # a new process: only its logs know the old match
    back = _result(_bot(tmp_path, port, "victim", *args))
    assert back == flagged
    ended = read_log(log).bodies
    assert ended == read_log(logs / "first.chklog").bodies
    for path in (log, logs / "first.chklog"):
        replayed = subprocess.run(cli_command("replay", str(path)), cwd=REPO_ROOT,
                                  env=_env(tmp_path), capture_output=True, text=True,
                                  timeout=LIMIT)
        assert replayed.returncode == 0 and "VALID" in replayed.stdout, replayed.stdout
        assert "lost on time" in replayed.stdout, replayed.stdout
    assert not list((tmp_path / "data" / "resume").glob("*.state"))
    again = _result(_bot(tmp_path, port, "again", *args))
    assert again.startswith("result: match over after") and _result(second) == again
