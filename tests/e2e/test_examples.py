"""The example client in ``examples/`` plays a whole match against ``chkobba host``."""

from __future__ import annotations

import subprocess
import sys

from support.net import REPO_ROOT
from test_net_processes import LIMIT, _env, _result, _start_host


def test_socket_bot_plays_a_whole_match(tmp_path):
    host, port = _start_host(tmp_path, "--players", "2")
    example = subprocess.Popen(
        [sys.executable, str(REPO_ROOT / "examples" / "socket_bot.py"), f"127.0.0.1:{port}"],
        cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    out, err = example.communicate(timeout=LIMIT)
    assert example.returncode == 0, out + err
    lines = [line for line in out.splitlines() if line.startswith("result: ")]
    assert lines == [_result(host)]
