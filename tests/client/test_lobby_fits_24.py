"""Every lobby fits 24 rows at 80 columns (issue 43, the newcomer walk at 9c55980): the
4-player host lobby with its clocks, spectators, the router's word and the ready prompt,
and the French host lobby after tor failed, were taller than the screen, and their first
line ("Your table is open. Give your friends this address:") scrolled off the top.  Now
what the events column says too (the router's word, why tor failed), the spectators'
count and the join code said twice give way first; the opening line, the join code, every
seat with its whole key and the prompt stay.  Read off the whole screen as drawn, at 80x24,
in English and French, at 2, 3 and 4 players, for the host, a joiner and a spectator."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import trio
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import screen_rows
from test_tor_failed_friends import FAILED, STEP

from chkobba_cli.support.reach import join_code
from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.screens.watching import WatchView, _build
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import Listening, PortMapUnavailable, Spectators, TorStarting
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.transcript.clocks import Limits

FP = "480e-55d0-c49c-0062"
NAMES = ("amel", "sami", "bilel", "dora")


def _lobby(players: int, seat: int) -> Lobby:
    fps = [FP if i == seat else f"{i:04x}-1111-2222-3333" for i in range(players)]
    return Lobby(tuple(zip(NAMES[:players], fps, strict=True)),
                 keys=tuple(bytes([i + 1]) * 32 for i in range(players)),
                 ready=(False,) * players, limits=Limits(60, 300), rules=R.Ruleset(),
                 spectators=4)


def _flat(rows: list[str]) -> str:
    """The lobby's column (left of the events), as one line of words."""
    return " ".join(" ".join(r.split("│")[0] for r in rows).split())


def _check(rows: list[str], first: str, players: int, prompt: str,
           seat: int | None = 0) -> None:
    assert len(rows) == 24 and all(len(r) <= 80 for r in rows), "\n".join(rows)
    text = "\n".join(rows)
    # The lobby's first line is the first one under the header (a blank may come
    # before it when there is room), whole.
    lobby_top = next(" ".join(r.split("│")[0].split()) for r in rows[1:]
                     if r.split("│")[0].strip())
    assert first.startswith(lobby_top) and len(lobby_top) > 8, text
    flat = _flat(rows)
    assert first in flat, text
    for i, name in enumerate(NAMES[:players]):
        assert f"{i + 1}. {name}" in flat, text
    others = players if seat is None else players - 1
    assert flat.count("-1111-2222-3333") == others, text  # every other key, whole
    assert prompt in flat, text


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tor", [False, True], ids=["no-tor", "tor-failed"])
def test_the_hosts_lobby_fits_24_rows_with_its_first_line(app_session, lang, players, tor):
    t = Translator(lang)
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=players,
                address="192.168.1.20", my_fingerprint=FP)
    ui.tor_wait = 30
    ui._show_event(Listening(7452, bytes(32)))
    ui.port = 7452
    ui._show_event(_lobby(players, 0))
    ui._show_event(Spectators(("nadia",), 4))
    ui._show_event(PortMapUnavailable("no router answered", 7452, "192.168.1.20"))
    if tor:
        for event in (TorStarting(True), STEP, FAILED):
            ui.on_event(event)
        assert not ui.leave_requested  # friends sit: the table goes on
    ui._ready_event = trio.Event()  # the ready check asks for Enter
    rows = screen_rows(ui, 24, 80)
    _check(rows, t("lobby_host"), players, " ".join(t("lobby_ready_prompt").split()))
    flat = _flat(rows)
    assert join_code("192.168.1.20", 7452, FP) in flat  # the code friends type, whole
    if tor:  # that the table goes on stays; why Tor failed is in the events column
        assert t("tor_failed_goes_on") in flat, "\n".join(rows)
    # And at 120x40 nothing gives way: the router's word stays in the lobby.
    tall = _flat(screen_rows(ui, 40, 120))
    assert "7452" in tall.split(t("lobby_rules", rules="")[:5])[0]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_joiners_lobby_fits_24_rows(app_session, lang, players):
    t = Translator(lang)
    ui = TuiApp(kind="join", lang=lang, seat=1, rules=R.Ruleset(), players=players,
                address="192.168.1.20:7452", my_fingerprint=FP)
    ui.connected = True
    ui._show_event(_lobby(players, 1))
    ui._show_event(Spectators(("nadia",), 4))
    ui._ready_event = trio.Event()
    rows = screen_rows(ui, 24, 80)
    first = t("join_connected", addr="192.168.1.20:7452", n=players)
    _check(rows, first, players, " ".join(t("lobby_ready_prompt").split()))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_spectators_lobby_fits_24_rows(lang, players):
    t = Translator(lang)
    view = WatchView(lang=lang, pace=0, address="192.168.1.20:7452", name="nadia")
    view.connected = True
    view.on_event(_lobby(players, players))  # (no seat has our key)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui = SimpleNamespace(size=(24, 80))
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None, quit=lambda: None)
        rows = screen_rows(ui, 24, 80)
    first = t("watch_in", addr="192.168.1.20:7452", name="nadia")
    # (without the "de" that French elides before a vowel: "En attente d'amel")
    names = t("lobby_others_ready", names="\0").split("\0")[0].strip()[:-1]
    _check(rows, first, players, names, seat=None)
