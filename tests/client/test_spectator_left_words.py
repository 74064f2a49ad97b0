"""A spectator who leaves is said by name on the players' screen, at 80x24 and 120x40, in
English and French: the events read "watching: sam" and then "watching: nobody", never
whom was gone (with two watching, one leaving read "watching: ali", which a player took
for news that ali came)."""

from __future__ import annotations

import pytest
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_p2p import Lobby, Spectators
from chkobba_p2p.game import rules as R

FP = "480e-55d0-c49c-0062"



def _panel(rows: list[str]) -> list[str]:
    return [r.split("│", 1)[1].strip() for r in rows if "│" in r]


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, came, both, left, nobody", [
    ("en", "watching: sam", "watching: sam, ali", "sam stopped watching",
     "ali stopped watching"),
    ("fr", "spectateurs : sam", "spectateurs : sam, ali", "sam ne regarde plus",
     "ali ne regarde plus")])
def test_a_spectator_who_leaves_is_named(app_session, size, lang, came, both, left, nobody):
    host = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2,
                  address="127.0.0.1", my_fingerprint=FP)
    host.port = 47123
    host._show_event(Lobby((("Amel", FP), None)))
    for names in (("sam",), ("sam", "ali"), ("ali",), ()):
        host._show_event(Spectators(names, 2))
    panel = _panel(screen_rows(host, *size))
    said = [line for line in panel if line]
    for line in (came, both, left, nobody):
        assert line in said, "\n".join(said)
    assert said.index(came) < said.index(both) < said.index(left) < said.index(nobody)
    # Nobody came when sam left: no "watching: ali" as if ali were news.
    assert said.count(came.replace("sam", "ali")) == 0, "\n".join(said)
    assert not any(line.endswith(("nobody", "personne")) for line in said), "\n".join(said)
