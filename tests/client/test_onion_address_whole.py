"""An onion address is never broken across lines (issue 43): the joiner's "Connecting
to …" broke it at 80 columns ("…ktceo3ah7ng" / "mcopnpyyd.onion:7777#…"), and so did
the host's "through Tor, from anywhere:" line, the one its friends copy.  Now the
address is on a line of its own, whole, the events under the lobby while it needs the
room; the joiner's line names the table (HOST:PORT), not the key and seat secret it
typed.  Read off the whole screen at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import FP, SECRET, host_lobby, screen_rows

from chkobba_cli.support import reach
from chkobba_cli.tui.app import TuiApp
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R

ONION = "vww6ybal4bd7szmgncyruucpgfkqahzddi37ktceo3ah7ngmcopnpyyd.onion"
WORDS = {"en": ("Connecting to", "Events", "through Tor, from anywhere:"),
         "fr": ("Connexion à", "Événements", "via Tor, de partout :")}



def _whole(rows: list[str], cols: int, what: str) -> None:
    assert all(len(r) <= cols for r in rows)
    starts = [r for r in rows if what[:12] in r]
    assert starts, "\n".join(rows)
    assert all(what in r for r in starts), "\n".join(rows)


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("code", [f"{ONION}:7777#{FP}", f"{ONION}:7777#{FP}+{SECRET}",
                                  f"{ONION}:7777"])
def test_the_joiner_connecting_shows_the_onion_address_whole(app_session, size, lang, code):
    connecting, events, _ = WORDS[lang]
    ui = TuiApp(kind="join", lang=lang, seat=None, rules=R.Ruleset(), players=2,
                address=code, my_fingerprint="0123-4567-89ab-cdef")
    rows = screen_rows(ui, *size)
    text = "\n".join(rows)
    assert connecting in text
    _whole(rows, size[1], f"{ONION}:7777")
    assert SECRET not in text  # the secret it typed is not put on show
    assert any(r.strip() == events or r.rstrip().endswith(f"│ {events}") for r in rows), text
    # Once in, the events are beside the lobby again at 80 columns.
    ui._show_event(Lobby((("amel", FP), ("sami", "0123-4567-89ab-cdef"))))
    ui.connected = True
    rows = screen_rows(ui, *size)
    assert any(r.rstrip().endswith(f"│ {events}") for r in rows[:3]), "\n".join(rows)


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_hosts_onion_code_keeps_its_address_whole(app_session, secret, size, lang):
    _, _, tor = WORDS[lang]
    host = host_lobby(lang, "192.168.1.20", 7777, onion=ONION)
    rows = screen_rows(host, *size)
    text = "\n".join(rows)
    assert tor in text, text
    _whole(rows, size[1], f"{ONION}:7777")
    # The key after it, whole on the next line when the code does not fit on one.
    code = reach.join_code(ONION, 7777, FP)
    at = next(i for i, r in enumerate(rows) if ONION in r)
    key = code.split("#", 1)[1]
    assert code in rows[at] or rows[at + 1].split("│")[0].strip() == "#" + key, text
    # The LAN code stays whole too.
    _whole(rows, size[1], reach.join_code("192.168.1.20", 7777, FP))


WATCH = {"en": ("Connecting to the table at", "Watching the table at", "Events"),
         "fr": ("Connexion à la table", "Vous regardez la table", "Événements")}


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_spectator_shows_the_onion_address_whole(size, lang):
    from types import SimpleNamespace

    from chkobba_cli.tui.screens.watching import WatchView, _build

    connecting, watching, events = WATCH[lang]
    view = WatchView(lang=lang, pace=0, address=f"{ONION}:7777#{FP}", name="sam")
    ui = SimpleNamespace(size=size)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None,
                        quit=lambda: None)
        for words in (connecting, watching):
            if words == watching:
                view.on_event(Lobby((("amel", FP), None)))
            rows = screen_rows(ui, *size)
            text = "\n".join(rows)
            assert words in text, text
            _whole(rows, size[1], f"{ONION}:7777")
            assert any(r.strip().startswith(events) or f"│ {events}" in r for r in rows), text
