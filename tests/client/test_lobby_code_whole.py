"""The host's lobby shows its join code whole, never cut at the pane's edge nor broken
inside a line, at 80x24 and 120x40, in English and French: with a seat secret the code is
55 characters, and at 80 columns it was cut ("…+b2p3-zh3f-us"), so a friend copying it
got a code the table refused."""

from __future__ import annotations

import pytest
from screenshot import FP, SECRET, host_lobby, screen_rows

from chkobba_cli.support import reach


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, cmd", [("en", "chkobba join"), ("fr", "chkobba join")])
def test_the_join_code_is_whole_on_its_lines(app_session, secret, size, lang, cmd):
    host = host_lobby(lang, "127.0.0.1", 47123, name="Amel")
    code = reach.join_code("127.0.0.1", 47123, FP)
    assert (SECRET in code) == (secret is not None)
    rows = screen_rows(host, *size)
    assert all(len(r) <= size[1] for r in rows)
    # Every row that starts to show the code shows all of it.
    starts = [r for r in rows if "127.0.0.1:47123#" in r]
    assert len(starts) >= 2, "\n".join(rows)  # the code, and the command to type
    assert all(code in r for r in starts), "\n".join(rows)
    # The command to type is said whole too, on one line or with the code under it.
    at = next(i for i, r in enumerate(rows) if cmd in r)
    assert code in rows[at] or code in rows[at + 1], "\n".join(rows)
    # The events pane stays beside the lobby (narrower, never gone).
    assert any("│" in r or "|" in r for r in rows[1:5])
