"""A host that lies about time, end to end (issue 40, case 1; PROTOCOL.md 12.6): a real
lying host in its own process (tests/support/lying_host.py: it announces 300 s a move and
flags after 6 s) against a person's ``chkobba join`` in a pty at 80x24.  The person's
screen says the flag was disputed and the match counts for nobody; ``chkobba replay`` of
its log says the same; ``chkobba history --ratings`` over its logs rates nobody and shows
the dispute against both keys.  Every wait polls against a deadline; nothing sleeps."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from test_cli_away_pty import _after_screen
from test_cli_person_pty import (
    MODULE,
    ROOT,
    env_for,
    free_port,
    join_screen,
    logs_of,
    moves_made,
    play_until,
    replay,
)

pytest.importorskip("pexpect")

DISPUTED = "flagged you on time, but your own clock showed time left"


def test_a_person_flagged_early_by_a_lying_host_is_told_and_loses_nothing(tmp_path):
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "lying_host.py"), str(port),
         str(tmp_path / "host.chklog"), "6", "300"],
        cwd=str(ROOT), env=env_for(tmp_path / "h"), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    guest = None
    try:
        assert host.stdout is not None
        assert host.stdout.readline().startswith("listening"), "the lying host did not start"
        guest = join_screen(tmp_path, port)
        play_until([guest], lambda: moves_made(guest) >= 2, 90, "two moves")
        # Now the person thinks: the host flags after 6 s of its announced 300.
        deadline = time.monotonic() + 60
        while DISPUTED not in " ".join(guest.text.split()):
            assert time.monotonic() < deadline, "no dispute shown:\n" + guest.text
            guest.pump()
        text = " ".join(guest.text.split())
        assert "counts for nobody" in text
        for bad in ("you lost", "won on time", "Traceback"):
            assert bad not in text, text
        guest.press("q")
        guest.finish()
        after = "\n".join(_after_screen(guest.raw))
        assert "Traceback" not in after
    finally:
        host.kill()
        if guest is not None:
            guest.kill()
    (log,) = logs_of(tmp_path / "g")
    code, out = replay(log)
    assert "disputed" in out and "counts for nobody" in out, out
    assert "lost on time" not in out, out
    ratings = subprocess.run([sys.executable, "-m", MODULE, "history", "--no-cache",
                              "--lang", "en", "--ratings", str(log.parent)],
                             cwd=str(ROOT), env=env_for(tmp_path / "g"), capture_output=True,
                             text=True, timeout=120)
    assert ratings.returncode == 0, ratings.stdout + ratings.stderr
    shown = ratings.stdout
    head, _, disputes = shown.partition("ended in a dispute about time")
    assert head.count("no counted match") == 3, shown  # nobody rated, at any table size
    assert "sami" in disputes and "amel" in disputes, shown
