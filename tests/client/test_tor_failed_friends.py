"""``host --tor`` whose tor fails in the lobby after a friend sat from the local code
(issue 43): the host closed the table, and the friend read only "the host closed the
table before the game started", with nothing to say why.  Now the table goes on on this
network: the host's lobby says why Tor failed and that the table goes on (its local code
still whole), and the friend keeps the seat.  Alone (or with its own bots only), the
host still ends with tor's sentence (exit 2).  Read off the whole screen at 80x24 and
120x40, in English and French."""

from __future__ import annotations

import pytest
from screenshot import screen_rows

from chkobba_cli.support.reach import join_code
from chkobba_cli.tui.app import TuiApp
from chkobba_cli.words.tor_words import tor_failed_text, tor_stopped
from chkobba_p2p import Listening, Lobby, TorBootstrap, TorFailed, TorFailure, TorStarting
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.rating import _bot_keys

FP = "0123-4567-89ab-cdef"
GOES_ON = {"en": "The table goes on without Tor (friends on this network can still join it).",
           "fr": "La table continue sans Tor (les amis sur ce réseau peuvent toujours la "
                 "rejoindre)."}
WAIT = {"en": "tor may take up to", "fr": "tor peut prendre"}
STEP = TorBootstrap(14, "handshake_done", "Handshake finished with a relay")
FAILED = TorFailed(TorFailure.NO_NETWORK, "no network", STEP, 30)



def _host(lang: str, friend: tuple[str, bytes] | None) -> TuiApp:
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2,
                address="192.168.1.20", my_fingerprint=FP)
    ui.tor_wait = 30
    ui._show_event(Listening(7452, bytes(32)))
    ui.port = 7452
    seats = (("amel", FP), (friend[0], "89ab-cdef-0123-4567") if friend else None)
    keys = (bytes(32), friend[1] if friend else None)
    ui._show_event(Lobby(seats, keys=keys))
    for event in (TorStarting(True), STEP):
        ui.on_event(event)
    return ui


def _flat(rows: list[str]) -> str:
    return " ".join(" ".join(r.split("│")[0] for r in rows).split())


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_friend_seated_keeps_the_table_and_the_host_says_why(app_session, size, lang):
    ui = _host(lang, ("sami", b"\x07" * 32))
    assert WAIT[lang] in _flat(screen_rows(ui, *size))
    ui.on_event(FAILED)
    assert not ui.leave_requested  # the table is not closed under the friend
    assert tor_stopped(ui) is None  # nothing to print as the command's end
    rows = screen_rows(ui, *size)
    assert all(len(r) <= size[1] for r in rows)
    flat = _flat(rows)
    why = tor_failed_text(ui.t, FAILED)
    assert " ".join(why.split()) in flat and GOES_ON[lang] in flat, "\n".join(rows)
    assert WAIT[lang] not in flat  # tor is no longer on its way
    code = join_code("192.168.1.20", 7452, FP)
    assert any(code in r for r in rows), "\n".join(rows)  # friends here still join
    assert "sami" in flat
    events = " ".join(" ".join(text for _, text in line) for line in ui.events.lines)
    assert GOES_ON[lang] in " ".join(events.split())


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("friend", [None, "bot"], ids=["alone", "own-bot"])
def test_alone_or_with_its_bots_the_host_still_ends_with_tors_sentence(app_session, lang,
                                                                        friend):
    bot = next(iter(_bot_keys()))
    ui = _host(lang, ("bot1", bot) if friend else None)
    ui.on_event(FAILED)
    assert ui.leave_requested
    assert tor_stopped(ui) == tor_failed_text(ui.t, FAILED)
