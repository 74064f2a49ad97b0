"""``chkobba host --headless --secret`` in real processes over loopback (PROTOCOL.md 5.5;
issue 42 item 5): the code the host prints ends with the secret; a ``chkobba bot`` given
the bare address is refused at once (exit 2, told to ask for the whole code), and the one
given the printed code plays the match."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from support.net import REPO_ROOT, cli_command, process_env, start_host

from chkobba_p2p.address import Address


def _bot(tmp_path: Path, where: str, name: str) -> subprocess.Popen:
    return subprocess.Popen(
        cli_command("bot", where, "--name", name, "--quiet",
                    "--log", str(tmp_path / f"{name}.chklog")),
        cwd=REPO_ROOT, env=process_env(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


def test_a_stranger_is_refused_and_the_friend_with_the_code_plays(tmp_path):
    host, port = start_host(tmp_path, "--secret", "--players", "2")
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        m = re.search(r"friends on the LAN: (\S+)", line)
        assert m, line
        code = Address.parse(m.group(1))
        assert code.port == port and code.fingerprint and code.secret
        stranger = _bot(tmp_path, f"127.0.0.1:{port}", "mallory")
        out, err = stranger.communicate(timeout=60)
        assert stranger.returncode == 2, (out, err)
        assert "secret" in err, err
        friend = _bot(tmp_path, str(code), "sami")
        out, err = friend.communicate(timeout=300)
        assert friend.returncode == 0, (out, err)
        host.wait(timeout=60)
        assert host.returncode == 0
    finally:
        host.kill()
        host.wait()
