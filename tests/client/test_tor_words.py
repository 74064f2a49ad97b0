"""What tor does, in the player's words (issue 43 item 1, issue 42 item 10): every phase,
failure and SOCKS reply the library reports has words in English and French; the host's
lobby at 80x24 shows its local address while tor starts, tor's progress, and the onion
code once published; tor failing before the match ends the command with one sentence,
during it is a line in the events and the table goes on."""

from __future__ import annotations

import pytest

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.words.i18n import Translator
from chkobba_cli.words.tor_words import (
    _PHASES,
    socks_failed_text,
    socks_reply_text,
    tor_failed_text,
    tor_status_text,
    tor_stopped,
)
from chkobba_p2p import (
    Listening,
    Lobby,
    OnionPublished,
    PortMapUnavailable,
    SocksFailed,
    TorBootstrap,
    TorFailed,
    TorFailure,
    TorStarting,
)
from chkobba_p2p._shell.tor import _SOCKS_REPLIES, parse_bootstrap
from chkobba_p2p.game import rules as R
from chkobba_p2p.transcript import events as S

REFUSED = parse_bootstrap(
    'WARN BOOTSTRAP PROGRESS=5 TAG=conn SUMMARY="Connecting to a relay" '
    'WARNING="Connection refused" REASON=CONNECTREFUSED COUNT=3 HOSTADDR="127.0.0.1:9"')
ONION = "c" * 56 + ".onion"



def test_every_phase_of_tor_has_words_in_both_languages():
    en, fr = Translator("en"), Translator("fr")
    for tag in _PHASES:
        step = TorBootstrap(40, tag, "tor's summary")
        said = tor_status_text(en, step), tor_status_text(fr, step)
        assert said[0] != said[1] and "tor's summary" not in said[0] + said[1], tag
        assert "{" not in said[0] + said[1]
    # A phase this client does not know: tor's own words, made safe.
    odd = TorBootstrap(60, "new_phase", "Doing \x1b[2Jsomething new")
    for t in (en, fr):
        said = tor_status_text(t, odd)
        assert "Doing" in said and "something new)" in said and "\x1b" not in said


def test_progress_with_trouble_names_the_trouble_and_the_end_differs_by_side():
    en, fr = Translator("en"), Translator("fr")
    assert tor_status_text(en, REFUSED) == (
        "Tor: reaching the Tor network, 5% (connecting to a relay: connection refused)")
    assert tor_status_text(fr, REFUSED) == (
        "Tor : connexion au réseau Tor, 5 % (connexion à un relais : connexion refusée)")
    done = TorBootstrap(100, "done", "Done")
    assert "publishing" in tor_status_text(en, done)
    assert "reaching the table" in tor_status_text(en, done, joining=True)
    assert tor_status_text(en, TorStarting(True)) == "Tor: starting tor…"
    assert "127.0.0.1:9151" in tor_status_text(fr, TorStarting(False, "127.0.0.1:9151"))
    assert tor_status_text(en, object()) is None


@pytest.mark.parametrize("code", list(TorFailure))
def test_every_failure_is_one_sentence_in_both_languages(code):
    event = TorFailed(code, "tor's detail \x1b[31mred", REFUSED, 180)
    en, fr = tor_failed_text(Translator("en"), event), tor_failed_text(Translator("fr"), event)
    for said in (en, fr):
        assert said.endswith(".") and "\n" not in said and "{" not in said
        assert "\x1b" not in said
    if code == TorFailure.NO_NETWORK:
        assert en.startswith("Tor could not reach the Tor network within 180 s (it stopped "
                             "at 5%, connecting to a relay: connection refused): check "
                             "that this computer is online")
        assert "bridges" in en and "ponts" in fr and "tor's detail" not in en
    elif code == TorFailure.NETWORK_DISABLED:
        assert "press Connect" in en and "Se connecter" in fr
    elif code in (TorFailure.NOT_INSTALLED, TorFailure.ONION_KEY):
        assert "tor's detail" in en and "tor's detail" in fr  # the library's own line
    else:
        assert "tor's detail" in en and en != fr


def test_no_network_before_any_step_says_tor_was_starting():
    event = TorFailed(TorFailure.NO_NETWORK, "x", None, 30)
    assert "(it stopped at 0%, starting)" in tor_failed_text(Translator("en"), event)


def test_every_socks_reply_has_words_and_something_to_check():
    en, fr = Translator("en"), Translator("fr")
    for reply in _SOCKS_REPLIES:
        assert not socks_reply_text(en, reply).startswith("0x")
        assert socks_reply_text(en, reply) != socks_reply_text(fr, reply)
        said = socks_failed_text(en, SocksFailed(f"{ONION}:7452", reply))
        assert f", SOCKS reply 0x{reply:02x}): check" in said or \
            f", SOCKS reply 0x{reply:02x}): the host" in said, said
    gone = socks_failed_text(en, SocksFailed(f"{ONION}:7452", 0xF0))
    assert gone == ("Tor could not reach the table (onion service not found, SOCKS reply "
                    "0xf0): check the "
                    "address with the host, and that the host's screen shows it as its Tor "
                    "address (the table may be closed, or not published yet).")
    slow = socks_failed_text(fr, SocksFailed(f"{ONION}:7452", 6))
    assert "vérifiez que votre tor est connecté au réseau Tor" in slow
    assert socks_reply_text(en, 0x99) == "0x99"


def _host(lang: str = "en") -> TuiApp:
    ui = TuiApp(kind="host", lang=lang, seat=0, rules=R.Ruleset(), players=2,
                address="192.0.2.7", my_fingerprint="0123-4567-89ab-cdef")
    ui.size = (24, 80)
    ui.tor_wait = 180
    ui.state = ui.state.apply(Lobby((("amel", "0123-4567-89ab-cdef"), None)))
    return ui


def _lobby(ui: TuiApp) -> str:
    return " ".join(" ".join(line_text(x) for x in ui.body(51, 22)).split())


def test_the_host_lobby_shows_its_address_while_tor_starts_then_the_onion(app_session):
    ui = _host()
    ui._show_event(Listening(7452, bytes(32)))
    ui._show_event(PortMapUnavailable("no router", 7452, "192.0.2.7"))
    for event in (TorStarting(True), REFUSED):
        ui.on_event(event)  # tor's news: not paced, not the table's answer
    assert not ui.connected and not ui.pacer.running
    text = _lobby(ui)
    assert "192.0.2.7:7452#0123-4567-89ab-cdef" in text
    assert "Tor: reaching the Tor network, 5% (connecting to a relay: connection " \
           "refused)" in text
    assert "(tor may take up to 180 s; friends on this network can join meanwhile)" in text
    assert "run chkobba host --tor" not in text  # it is running: no offer
    ui.on_event(OnionPublished(ONION, 7452))
    text = _lobby(ui)
    squeezed = text.replace(" ", "")  # the code is cut where the column ends
    assert f"throughTor,fromanywhere:{ONION}:7452#0123-4567-89ab-cdef" in squeezed
    assert "reaching the Tor network" not in text and "may take" not in text
    assert f";or,throughTor:{ONION}:7452" in squeezed  # beside the router's line


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_tor_failing_in_the_lobby_ends_the_command_with_its_sentence(app_session, lang):
    ui = _host(lang)
    ui._show_event(Listening(7452, bytes(32)))
    failed = TorFailed(TorFailure.NO_NETWORK, "x", REFUSED, 180)
    ui.on_event(failed)
    assert ui.leave_requested  # the game is cancelled (no trio here: at its start)
    assert tor_stopped(ui) == tor_failed_text(ui.t, failed)
    assert "reaching the Tor network" not in _lobby(ui)


def test_tor_failing_during_the_match_is_said_and_the_table_goes_on(app_session):
    ui = _host()
    ui.state = ui.state.apply(Lobby((("amel", "0123-4567-89ab-cdef"),
                                     ("sami", "0000-0000-0000-0001")))).apply(
        S.HandStarted(1, 1))
    ui.on_event(TorFailed(TorFailure.CONTROL_CLOSED, "Tor closed its control connection"))
    assert not ui.leave_requested and tor_stopped(ui) is None
    said = " ".join(line_text(x) for x in ui.events.lines)
    assert "tor stopped (Tor closed its control connection)" in said
    assert "The table goes on without Tor" in said


def test_a_join_whose_tries_failed_says_tor_s_last_answer(app_session):
    ui = TuiApp(kind="join", lang="en", seat=1, rules=R.Ruleset(), address=f"{ONION}:7452")
    ui.size = (24, 80)
    ui.tor_wait = 90
    ui.on_event(TorStarting(True))
    assert "Tor: starting tor… (tor may take up to 90 s)" in _lobby(ui)
    ui.on_event(TorBootstrap(80, "circuit_create", "Establishing a Tor circuit"))
    assert "Tor: reaching the Tor network, 80% (building a circuit)" in _lobby(ui)
    assert "(tor may take up to 90 s)" in _lobby(ui)
    ui.on_event(TorBootstrap(100, "done", "Done"))
    assert "Tor: connected; reaching the table…" in _lobby(ui) and not ui.connected
    assert "may take" not in _lobby(ui)  # tor is there: its wait is over
    ui.on_event(SocksFailed(f"{ONION}:7452", 0xF0))
    assert "Tor: the table is not reached yet (onion service not found); trying again…" \
        in _lobby(ui)

    class Failed:  # the outcome of a join that never connected
        error_code = "connect_failed"

    ui.outcome = Failed()  # type: ignore[assignment]
    assert tor_stopped(ui).startswith("Tor could not reach the table (onion service not "
                                      "found, SOCKS reply 0xf0): check the address")
    ui.left = True  # the person left: nothing to add
    assert tor_stopped(ui) is None


# What tor said when this machine had no way to the Tor network (a connection opened and
# then cut during the handshake): GETINFO status/bootstrap-phase, as tor 0.4.8 answered.
CUT = parse_bootstrap(
    'WARN BOOTSTRAP PROGRESS=14 TAG=handshake SUMMARY="Handshaking with a relay" '
    'WARNING="DONE" REASON=DONE COUNT=6 RECOMMENDATION=ignore '
    'HOSTID="7BE683E65D48141321C5ED92F075C55364AC7123" HOSTADDR="193.23.244.244:443"')


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, said", [
    ("en", "14% (connecting to a relay: the connection was closed)"),
    ("fr", "14 % (connexion à un relais : la connexion a été fermée)")])
def test_a_relay_connection_cut_is_not_said_as_done(app_session, size, lang, said):
    """The lobby read "Tor: reaching the Tor network, 14% (connecting to a relay: DONE)"
    and the last sentence "(it stopped at 14%, connecting to a relay: DONE)": tor's code
    for a connection that ended, read by a person as the step being done."""
    from screenshot import screen_rows

    ui = _host(lang)
    ui._show_event(Listening(7452, bytes(32)))
    ui.on_event(TorStarting(True))
    ui.on_event(CUT)
    rows = screen_rows(ui, *size)
    text = " ".join(" ".join(rows).split()).replace("│ ", "").replace(" │", "")
    assert "DONE" not in text, "\n".join(rows)
    squeezed = "".join(text.split())
    assert "".join(said.split()) in squeezed, "\n".join(rows)
    assert "192.0.2.7:7452#0123-4567-89ab-cdef" in text, "\n".join(rows)
    failed = tor_failed_text(ui.t, TorFailed(TorFailure.NO_NETWORK, "x", CUT, 180))
    assert "DONE" not in failed and said.split("(", 1)[1].rstrip(")") in failed, failed
