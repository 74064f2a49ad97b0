"""Strings from the network or a file never drive the terminal: ESC sequences, OSC
(window title, hyperlinks, clipboard), C1 controls, bidirectional overrides and line
breaks sent through every display path come out inert (``safe_text``); JSON stays exact.
Two players never appear under one name; a joiner cannot take the host's; joiners are
told when the host turned shuffle proofs off."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import trio
from support.net import REPO_ROOT, cli_command, cli_env, host_config, join_config

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator, ruleset_text
from chkobba_p2p._shell.net import ClientPeer, HostPeer, lobby_event
from chkobba_p2p._shell.peer import BotController, Lobby, Outcome, clean_chat
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake
from chkobba_p2p.link.handshake import Lobby as SeatLobby
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.text import distinct_names, safe_text, same_name
from chkobba_p2p.transcript.events import Aborted, TableReady
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import TranscriptWriter

EN = Translator("en")  # the words a person reads (the client's)

#: Everything a terminal obeys or that rewrites a line: CSI, OSC title and OSC 8 link
#: with BEL and ST terminators, OSC 52 (clipboard), a one-byte C1 CSI, bidi overrides
#: and isolates, line breaks, NUL, DEL, a zero-width space and a BOM.
EVIL = ("a\x1b[31mred\x1b[0m\x1b]0;owned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
        "\x1b]52;c;Y2xpcA==\x07\x9b2J\u202eevil\u202c\u2067iso\u2069\nline2\rline3"
        "\u2028\x00\x7f\u200b\ufeffz")
BAD = ["\x1b", "\x07", "\x9b", "\u202e", "\u202c", "\u2067", "\u2069", "\n", "\r",
       "\u2028", "\x00", "\x7f", "\u200b", "\ufeff"]


def inert(text: str) -> bool:
    return not any(b in text for b in BAD)


def inert_lines(text: str) -> bool:
    return all(inert(line) for line in text.split("\n"))


def test_safe_text():
    out = safe_text(EVIL)
    assert inert(out)
    assert "␛]0;owned" in out  # what was there stays visible, as symbols
    assert "red" in out and "evil" in out and "line3" in out
    assert safe_text("amel ✓ عمر 🇹🇳 👨‍👩‍👧") == "amel ✓ عمر 🇹🇳 👨‍👩‍👧"  # text untouched
    assert safe_text("x" * 50, 10) == "x" * 9 + "…"
    assert inert(safe_text(b"\x1b[2J"))  # not a str: its repr


def test_distinct_names():
    assert distinct_names(["amel", "Amel", "ＡＭＥＬ", "sami", None]) == \
        ["amel", "Amel (2)", "ＡＭＥＬ (3)", "sami", None]
    long = "é" * 32
    assert distinct_names([long, long]) == [long, "é" * 28 + " (2)"]
    assert all(len(n or "") <= 32 for n in distinct_names(["x" * 32] * 12))
    assert same_name("Host ", "host") and not same_name("host", "h0st")


# ------------------------------------------------------------------- the paths


def _lobby_event(msg, caps):
    """The lobby a joiner shows for ``msg`` read from its host (None: not shown)."""
    from chkobba_p2p.link.messages import Lobby as LobbyMsg
    from chkobba_p2p.link.messages import read_frame
    from chkobba_p2p.wire.codec import encode

    frame = read_frame(encode(msg), msg)
    return lobby_event(frame, caps) if isinstance(frame, LobbyMsg) else None


def test_lobby_names_from_the_host():
    """A lobby whose names would drive the terminal is not shown at all; names that are
    printable but equal are shown distinct; the proofs flag comes from the greeting."""
    evil = {"t": "lobby", "players": 2,
            "seats": [{"seat": 0, "key": bytes(32), "name": "h"},
                      {"seat": 1, "key": bytes(range(32)), "name": EVIL[:32]}]}
    assert _lobby_event(evil, ("deal/v1",)) is None
    for bad in ("\u202eevil", "a\nb", "x\x1b]0;t\x07"):
        evil["seats"][1]["name"] = bad
        assert _lobby_event(evil, ("deal/v1",)) is None
    same = {"t": "lobby", "players": 4,
            "seats": [{"seat": 0, "key": bytes(32), "name": "amel"},
                      {"seat": 1, "key": bytes(range(32)), "name": "AMEL"}, None, None]}
    ev = _lobby_event(same, ("deal/v1", "resume/v1"))
    assert ev is not None and [s[0] for s in ev.seats if s] == ["amel", "AMEL (2)"]
    assert ev.shuffle_proofs is False
    assert _lobby_event(same, ("deal/v1", "shuffle-proof/v1")).shuffle_proofs is True
    st = TableState().apply(ev)
    assert st.names[:2] == ("amel", "AMEL (2)") and st.shuffle_proofs is False


def _table(rules_name: str = "tunisian", names=("host", "guest")):
    host, guest = Identity.generate(), Identity.generate()
    lobby = SeatLobby(host, names[0], Ruleset(name=rules_name), 2, shuffle_proofs=False)
    lobby.take_seat(guest.public, names[1])
    return host, guest, lobby


def test_abort_why_in_the_result_line_and_on_screen():
    out = Outcome(1, None, None, aborted=Aborted(0, ErrorCode.PEER_LEFT, 0, EVIL))
    assert inert(words(out, EN)) and "owned" in words(out, EN)
    refused = Outcome(1, None, None, error_code="table_full", error_reason="refused",
                      error_data={"code": "table_full", "host_text": EVIL})
    assert inert(words(refused, EN)) and inert(words(refused, Translator("fr")))
    assert inert(words(out, Translator("fr"))) and "owned" in words(out, Translator("fr"))


def test_ruleset_name():
    for lang in ("en", "fr"):
        assert inert(ruleset_text(Translator(lang), Ruleset(name=EVIL)))


def test_chat_lines():
    assert clean_chat(EVIL) is None  # never relayed nor shown
    assert clean_chat("ok \u202eevil") is None


def _evil_log(tmp_path):
    """A real, signed log: the ruleset's name, the header's name and an abort's why are
    hostile (nothing else checks them); its player names are distinct only on display."""
    host, guest, lobby = _table(EVIL)
    table = lobby.table()
    s0, genesis = Session.create(host, table)
    s1 = Session.join(guest, genesis, host.public)
    log = tmp_path / "evil.chklog"
    w = TranscriptWriter(log)
    w.write_header(game=table.game, seat=0, key=host.public, name=EVIL, host=EVIL)
    w.append(genesis.body)
    ready = s0.next_entry()
    assert ready is not None
    s1.receive(ready)
    w.append(ready.body)
    abort = s1.leave(EVIL)
    assert abort is not None
    s0.receive(abort)
    w.append(abort.body)
    w.close()
    return log


@pytest.mark.slow
def test_replay_text_is_inert_and_json_exact(tmp_path):
    log = _evil_log(tmp_path)
    r = subprocess.run(cli_command("replay", str(log)), cwd=REPO_ROOT, env=cli_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 3, r.stdout + r.stderr  # incomplete: the guest left
    assert inert_lines(r.stdout) and inert_lines(r.stderr)
    assert "␛]0;owned" in r.stdout  # the claim is shown, as text
    lines = r.stdout.splitlines()
    assert not any(ln.startswith("line2") or ln.startswith("line3") for ln in lines)
    j = subprocess.run(cli_command("replay", str(log), "--json", "-"), cwd=REPO_ROOT,
                       env=cli_env(), capture_output=True, text=True, timeout=120)
    for line in j.stdout.splitlines():
        json.loads(line)  # exact JSON (no record holds text here, but every line parses)


def test_display_names_of_a_genesis_are_distinct():
    host, guest = Identity.generate(), Identity.generate()
    game = bytes(16)
    table = TableInfo(game, 1, 2, Ruleset(), tuple(
        SeatInfo(i, k.public, "amel") for i, k in enumerate((host, guest))))
    assert table.display_names() == ("amel", "amel (2)")
    st = TableState().apply(TableReady(table, 1))
    assert st.names == ("amel", "amel (2)") and st.shuffle_proofs is False


# ------------------------------------------------------------------- names, proofs


def test_a_joiner_cannot_take_the_hosts_name():
    host, guest = Identity.generate(), Identity.generate()
    lobby = SeatLobby(host, "amel", Ruleset(), 4)
    assert lobby.seats[lobby.take_seat(guest.public, "Amel")].name == "Amel (2)"
    third = Identity.generate()
    assert lobby.seats[lobby.take_seat(third.public, "amel (2)")].name == "amel (2) (2)"
    hs = HostHandshake(lobby)
    c = ClientHandshake(Identity.generate(), "amel")
    welcome, seat, _ = hs.on_hello(c.on_host(hs.greeting()))
    assert lobby.seats[seat].name == "amel (3)"


class Recorder(BotController):
    def __init__(self, seed: int) -> None:
        super().__init__("random", seed)
        self.events: list[object] = []

    def on_event(self, event: object) -> None:
        self.events.append(event)


@pytest.mark.parametrize("proofs", [False, True])
@pytest.mark.slow
async def test_joiners_are_told_when_shuffle_proofs_are_off(tmp_path, proofs):
    guest_ctl = Recorder(2)
    async with trio.open_nursery() as nursery:
        host = HostPeer(host_config(tmp_path, shuffle_proofs=proofs, name="amel"),
                        BotController("random", 1))
        port = await nursery.start(host.run)
        guest = ClientPeer(join_config(tmp_path, port, "amel"), guest_ctl)
        with trio.fail_after(120):
            outcome = await guest.run()
    assert outcome.completed
    lobbies = [e for e in guest_ctl.events if isinstance(e, Lobby)]
    assert lobbies and all(e.shuffle_proofs is proofs for e in lobbies)
    assert [s[0] for s in lobbies[-1].seats if s] == ["amel", "amel (2)"]
    ready = next(e for e in guest_ctl.events if isinstance(e, TableReady))
    assert ready.table.shuffle_proofs is proofs
    assert [s.name for s in ready.table.seats] == ["amel", "amel (2)"]


@pytest.mark.slow
def test_the_headless_joiner_prints_the_warning(tmp_path):
    host = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon",
                    "--quiet", "--no-shuffle-proofs", "--log", str(tmp_path / "h.chklog")),
        cwd=REPO_ROOT, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert host.stdout is not None
        port = None
        for _ in range(10):
            line = host.stdout.readline()
            if "listening on port" in line:
                port = int(line.split("listening on port")[1].split(";")[0])
                break
        bot = subprocess.run(cli_command("bot", f"127.0.0.1:{port}",
                                         "--log", str(tmp_path / "b.chklog")),
                             cwd=REPO_ROOT, env=cli_env(), capture_output=True, text=True,
                             timeout=120)
        assert bot.returncode == 0, bot.stderr
        assert bot.stdout.count("shuffle proofs are OFF") == 1, bot.stdout
    finally:
        host.kill()
        host.communicate()


@pytest.mark.slow
def test_terminal_lobby_shows_proofs_off(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    host = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon",
                    "--quiet", "--no-shuffle-proofs", "--players", "4",
                    "--log", str(tmp_path / "h.chklog")),
        cwd=REPO_ROOT, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert host.stdout is not None
        port = None
        for _ in range(10):
            line = host.stdout.readline()
            if "listening on port" in line:
                port = int(line.split("listening on port")[1].split(";")[0])
                break
        env = cli_env()
        env.update({"CHKOBBA_DATA_DIR": str(tmp_path / "d"), "LANG": "C.UTF-8",
                    "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"})
        child = pexpect.spawn(sys.executable, ["-m", "chkobba_cli.main", "join",
                                               f"127.0.0.1:{port}", "--name", "sami",
                                               "--ascii"],
                              cwd=str(REPO_ROOT), env=env, dimensions=(24, 80),
                              encoding="utf-8", codec_errors="replace")
        try:
            child.expect("OFF", timeout=60)  # the lobby waits for two more players
        finally:
            child.terminate(force=True)
    finally:
        host.kill()
        host.communicate()


def test_every_headless_line_of_outside_words_is_inert(capsys):
    """Walk every line the headless peers and ``chkobba watch`` print from an event that
    carries outside words (a router's address and error, a host's lobby names, a notice,
    the LAN's announcements, a spectator's feed: names, chat, an abort's why, a
    verdict's reason): whatever path they came by, none reaches the terminal raw."""
    from chkobba_cli.outputs.commentary import Commentary
    from chkobba_cli.outputs.headless import Narrator as Headless
    from chkobba_cli.support.reach import reach_line, table_lines
    from chkobba_p2p._shell.discovery import TableAd
    from chkobba_p2p._shell.peer import (
        Chat,
        Notice,
        NoticeKind,
        PortMapped,
        PortMapUnavailable,
        Spectators,
    )
    from chkobba_p2p.observe.verdict import INVALID, Verdict

    router = [PortMapped(EVIL, 7777, "UPnP"), PortMapUnavailable(EVIL, 7777, EVIL)]
    for ev in router:
        assert inert(reach_line(ev, "0123-4567-89ab-cdef"))
    headless = Headless()
    for ev in [*router, Notice(NoticeKind.RESUME_REFUSED, EVIL, code=EVIL),
               Lobby(((EVIL, EVIL), None))]:
        headless.on_event(ev)
    ad = TableAd(name=EVIL, addresses=(EVIL,), port=7777, players=2, free=1, rules=EVIL,
                 spectators=0, fingerprint=None)
    assert all(inert(line) for line in table_lines([ad]))
    watch = Commentary()
    watch.names = [EVIL, EVIL]
    watch.players = 2
    for ev in [Lobby(((EVIL, EVIL), None)), Spectators((EVIL,), 2), Chat(0, EVIL),
               Aborted(0, ErrorCode.PEER_LEFT, 1, EVIL), Verdict(INVALID, EVIL, EVIL, 0, 3)]:
        watch(ev)
    watch.say(watch.t("wn_stopped", why=EVIL))
    out = capsys.readouterr()
    assert out.out.count("\n") >= 10, out.out
    assert inert_lines(out.out) and inert_lines(out.err), out.out
