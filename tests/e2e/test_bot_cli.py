"""``chkobba bot`` at its edges: one process per seat (a second bot of one identity at
one table exits 2 with the first one's pid, and the first one's log stays valid), a log
path printed only for a log written, a join code taken, help text of its own."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from support.net import REPO_ROOT, cli_command
from test_net_processes import LIMIT, _entries, _env, _start_host

from chkobba_cli.arguments import EXIT_VALID


def _bot(tmp_path: Path, address: str, name: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        cli_command("bot", address, "--name", name, "--quiet", *args),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def test_a_second_bot_for_a_seat_exits_2_and_the_first_log_stays_valid(tmp_path):
    host, port = _start_host(tmp_path)
    key = tmp_path / "bot.key"
    first_log, second_log = tmp_path / "first.chklog", tmp_path / "second.chklog"
    first = _bot(tmp_path, f"127.0.0.1:{port}", "seat", "--identity", str(key),
                 "--delay", "0.05", "--log", str(first_log))
    procs = [host, first]
    try:
        deadline = time.monotonic() + LIMIT
        while _entries(first_log) < 20:  # the first bot is playing
            assert time.monotonic() < deadline and first.poll() is None, "no game"
            time.sleep(0.05)
        second = _bot(tmp_path, f"127.0.0.1:{port}", "seat", "--identity", str(key),
                      "--log", str(second_log))
        procs.append(second)
        out, err = second.communicate(timeout=LIMIT)
        assert second.returncode == 2, out + err
        assert f"pid {first.pid}" in err and "log:" not in out, out + err
        assert not second_log.exists()
        first_out, first_err = first.communicate(timeout=LIMIT)
        assert first.returncode == 0, first_out + first_err
        host.communicate(timeout=LIMIT)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    r = subprocess.run(cli_command("replay", str(first_log)), cwd=REPO_ROOT,
                       env=_env(tmp_path), capture_output=True, text=True, timeout=LIMIT)
    assert r.returncode == EXIT_VALID, r.stdout + r.stderr
    assert r.stdout.rstrip().splitlines()[-1].startswith("VALID")
    assert first_out.splitlines().count(f"log: {first_log}") == 1


def test_a_bot_takes_a_join_code_and_refuses_another_key(tmp_path):
    host, port = _start_host(tmp_path)
    try:
        wrong = _bot(tmp_path, f"127.0.0.1:{port}#0123-4567-89ab-cdef", "b",
                     "--log", str(tmp_path / "wrong.chklog"))
        out, err = wrong.communicate(timeout=LIMIT)
        assert wrong.returncode == 2 and "not 0123-4567-89ab-cdef" in err, out + err
        assert "log:" not in out
    finally:
        host.kill()
        host.communicate()


def test_a_bot_with_nobody_there_names_no_log(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = subprocess.run(cli_command("bot", f"127.0.0.1:{port}"), cwd=REPO_ROOT,
                       env=_env(tmp_path), capture_output=True, text=True, timeout=LIMIT)
    assert r.returncode == 2 and "log:" not in r.stdout, r.stdout + r.stderr


def test_the_bot_has_help_of_its_own():
    r = subprocess.run(cli_command("bot", "--help"), cwd=REPO_ROOT, capture_output=True,
                       text=True, timeout=LIMIT)
    assert r.returncode == 0
    text = " ".join(r.stdout.split())  # argparse wraps at the terminal's width
    assert "HOST:PORT#KEY" in text and "asked on the first run" not in text
    assert "one process per seat" in text
