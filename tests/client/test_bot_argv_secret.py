"""The local bots of a host with a seat secret (``host --secret --bots N``, headless or on
the terminal) join with the table's join code, which carries the secret (PROTOCOL.md
5.5).  Review of issue 42: the code went on each bot process's command line, which every
user of the machine reads (``ps``, ``/proc/PID/cmdline``): a local stranger read the
secret and sat.  Each bot reads the code from its stdin instead."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from chkobba_cli.commands import bot as bot_command
from chkobba_cli.support import hosting

SECRET = "k7m2-x4qa-b3cd-e5fg"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/PID/cmdline")


@pytest.fixture
def silent():
    """A loopback socket that accepts and never greets: the bots wait there, alive,
    until the test ends them."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        s.settimeout(60)
        yield s


def _command_lines(procs: list[subprocess.Popen], silent: socket.socket) -> list[bytes]:
    """Each bot's command line, read once every bot connected (the exec that names it
    is over by then)."""
    try:
        accepted = [silent.accept()[0] for _ in procs]
        lines = [Path(f"/proc/{p.pid}/cmdline").read_bytes() for p in procs]
        for conn in accepted:
            conn.close()
        return lines
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.mark.slow
def test_the_headless_hosts_bots_carry_the_secret_on_stdin_only(silent):
    where = f"127.0.0.1:{silent.getsockname()[1]}#2935-c4f7-816c-a26c+{SECRET}"
    lines = _command_lines(bot_command._spawn_bots(where, 2, "random"), silent)
    assert len(lines) == 2 and all(b"bot" in line for line in lines)
    assert not any(SECRET.encode() in line for line in lines), lines


@pytest.mark.slow
def test_the_terminal_hosts_bots_carry_the_secret_on_stdin_only(tmp_path, silent):
    where = f"127.0.0.1:{silent.getsockname()[1]}#2935-c4f7-816c-a26c+{SECRET}"
    lines = _command_lines(hosting.spawn_bots(where, 1, "random", None,
                                              tmp_path / "game.chklog"), silent)
    assert len(lines) == 1 and b"botproc" in lines[0]
    assert SECRET.encode() not in lines[0], lines


@pytest.mark.slow
def test_the_bots_key_and_voucher_go_on_stdin_only(tmp_path, silent):
    """Issue 42, bot vouchers: each local bot's key is derived from the host's identity
    and given, with the host's voucher, on its stdin: its seed is on no command line
    (anyone who read it could sit, come back or knock as the host's bot)."""
    from chkobba_cli.support.botproc import bot_line, read_bot_line
    from chkobba_p2p import Identity
    from chkobba_p2p.observe.vouch import bot_identity, check_voucher

    host = Identity.generate()
    where = f"127.0.0.1:{silent.getsockname()[1]}"
    lines = _command_lines(bot_command._spawn_bots(where, 2, "random", host=host), silent)
    lines += _command_lines(hosting.spawn_bots(where, 1, "random", None,
                                               tmp_path / "game.chklog", host), silent)
    seeds = [bot_identity(host, "random", i).seed.hex().encode() for i in (1, 2)]
    assert len(lines) == 3 and not any(s in line for s in seeds for line in lines), lines
    got = read_bot_line(bot_line(host, "random", 2), "random")
    assert got is not None
    bot, (level, sig) = got
    assert bot.public == bot_identity(host, "random", 2).public and level == "random"
    assert check_voucher(host.public, bot.public, level, sig)
    assert read_bot_line("", "random") is None and read_bot_line("zz 00", "random") is None


@pytest.mark.slow
def test_a_bot_reads_its_address_from_stdin(tmp_path):
    """``chkobba bot -`` takes the table's address from its stdin (here a port nobody
    listens on: it says it cannot reach that very address)."""
    from support.net import REPO_ROOT, cli_command, process_env

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run(cli_command("bot", "-", "--quiet"), input=f"127.0.0.1:{port}\n",
                          cwd=REPO_ROOT, env=process_env(tmp_path), capture_output=True,
                          text=True, timeout=60)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and f"127.0.0.1:{port}" in said, said
