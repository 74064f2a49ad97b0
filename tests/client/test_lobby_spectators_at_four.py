"""walk6 (and walk5 before it), `host --players 4 --bots 2 --spectators 1` at 80x24:
the host's lobby had no row left for "Spectators: up to 1" nor for "spectators type:
chkobba watch ...": each bot's seat took three rows ("key ..." then "· the greedy bot's
key" alone), and the join code said twice outranked both.  Now a bot's note shares its
key's row, the code said twice is the first to give way, and the French watch line is
shorter: the host reads who may watch and how, en and fr; at 120x40 everything stays."""

from __future__ import annotations

import pytest
import trio
from screenshot import screen_rows

from chkobba_cli.support.reach import join_code
from chkobba_cli.tui.app import TuiApp
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import Listening, Spectators
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.rating import _bot_keys
from chkobba_p2p.transcript.clocks import Limits

FP = "b1f6-c29e-ab3c-4d00"


def _flat(rows: list[str]) -> str:
    return " ".join(" ".join(r.split("│")[0] for r in rows).split())


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_four_player_hosts_lobby_with_two_bots_says_who_may_watch(app_session, lang,
                                                                       size):
    t = Translator(lang)
    bots = {level: key for key, level in _bot_keys().items()}
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=4,
                address="127.0.0.1", my_fingerprint=FP)
    ui._show_event(Listening(7841, bytes(32)))
    ui.port = 7841
    seats = (("dave", FP), ("bot1", "1ec9-18de-81c2-6825"), ("bot2", "9937-3ca2-19ee-87a8"),
             ("erin", "68ab-0217-a2cd-e591"))
    ui._show_event(Lobby(seats, keys=(bytes(32), bots["greedy"], bots["greedy"],
                                      bytes([7]) * 32),
                         ready=(False, True, True, False), limits=Limits(900, 300),
                         rules=R.Ruleset(), spectators=1))
    ui._show_event(Spectators((), 1))
    ui._ready_event = trio.Event()  # the ready check asks for Enter
    rows = screen_rows(ui, *size)
    flat = _flat(rows)
    assert len(rows) == size[0] and all(len(r) <= size[1] for r in rows)
    assert t("lobby_spectators", n=1) in flat, "\n".join(rows)
    assert t("lobby_watch_cmd", addr="127.0.0.1:7841") in flat, "\n".join(rows)
    # What the host must give and check stays: the code, every key, the prompt.
    assert t("lobby_host") in flat and join_code("127.0.0.1", 7841, FP) in flat
    for _, fp in seats:
        assert fp in flat, "\n".join(rows)
    assert " ".join(t("lobby_ready_prompt").split()) in flat
    # A bot's note on its key's row.
    bot_rows = [r for r in rows if "1ec9-18de-81c2-6825" in r]
    assert t("lobby_bot", level=t.level("greedy")) in bot_rows[0], "\n".join(rows)
