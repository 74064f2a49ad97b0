"""Size limits on everything a peer reads (PROTOCOL.md 2.1): each entry kind has a cap an
honest peer never approaches, unknown fields are bounded, the transcript is bounded, so a
padded match's log stays small and replays; before the handshake, a small ``hello``
limit, one budget of unauthenticated connections that never keeps a seated player
from coming back, and a host that runs out of file descriptors says so
in one line and goes on."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import textwrap

import pytest
import trio
from support.audit import said
from support.net import (
    REPO_ROOT,
    GatedBot,
    RawClient,
    cli_command,
    cli_env,
    host_config,
    join_config,
)

import chkobba_p2p.transcript.driver as driver_module
import chkobba_p2p.transcript.session as session_module
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.errors import LocalError
from chkobba_p2p.link.handshake import ClientHandshake
from chkobba_p2p.observe.audit import VALID, audit_log
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError

GAME = bytes(16)


def _sig(identity: Identity, kind: str, body: dict, *, outer: dict | None = None,
         seat: int = 0, seq: int = 0) -> bytes:
    """A signed entry's frame body built by hand (no limit applied), ``outer`` extra
    fields in the ``sig`` message."""
    fields = {"g": GAME, "seat": seat, "n": seq, "prev": bytes(32), "k": kind, **body}
    payload = wire.encode(fields)
    msg = {"t": "sig", "p": payload, "s": identity.sign(wire.ENTRY_DOMAIN, payload),
           **(outer or {})}
    return wire.encode(msg)


# ---------------------------------------------------------------------- entry caps


@pytest.mark.parametrize("kind", [*sorted(wire.MAX_ENTRY), "future"])
def test_each_kind_has_a_cap(kind):
    me = Identity.generate()
    limit = wire.entry_limit(kind)
    body = _sig(me, kind, {"pad": b"x" * limit})
    with pytest.raises(ProtocolError) as info:
        wire.open_entry(body)
    assert info.value.error_code == ErrorCode.ENTRY_TOO_LARGE
    assert str(limit) in str(info.value)
    assert limit <= 24 * 1024


def test_honest_entries_fit_and_unknown_fields_are_bounded():
    me = Identity.generate()
    small = b"u" * (wire.MAX_UNKNOWN - 16)
    wire.open_entry(_sig(me, "ready", {"note": small}))  # within the budget: accepted
    for where in ("payload", "sig", "action", "rules", "seat"):
        pad = b"u" * (wire.MAX_UNKNOWN + 1)
        if where == "payload":
            body = _sig(me, "turn", {"d": [], "pad": pad})
        elif where == "sig":
            body = _sig(me, "turn", {"d": []}, outer={"pad": pad})
        elif where == "action":
            body = _sig(me, "turn", {"d": [], "a": {"t": "play", "pos": 1, "card": 2,
                                                    "take": [], "pad": pad}})
        elif where == "rules":
            body = _sig(me, "table", {"rules": {"name": "x", "pad": pad}})
        else:
            body = _sig(me, "table", {"seats": [{"seat": 0, "pad": pad}]})
        with pytest.raises(ProtocolError) as info:
            wire.open_entry(body)
        assert info.value.error_code == ErrorCode.ENTRY_TOO_LARGE, where
        assert "unknown fields" in str(info.value)


def test_an_action_type_of_any_type_is_measured_safely():
    """Found by benchmarks/fuzz.py: an action whose ``t`` is a list (unhashable) must be
    refused by the game, not crash the size check."""
    me = Identity.generate()
    for t in ([None], {"x": 1}, b"play", 7, None):
        entry = wire.open_entry(_sig(me, "turn", {"d": [], "a": {"t": t, "pos": 1}}))
        assert entry.kind == "turn"


def test_an_entry_over_its_cap_is_never_made():
    with pytest.raises(LocalError):
        wire.make_entry(Identity.generate(), game=GAME, seat=0, seq=0, prev=bytes(32),
                        kind="ready", body={"pad": b"x" * 2000})


def test_same_value_is_exact():
    assert wire.same_value({"winner": 1, "totals": [11, 3], "hands": 4},
                           {"winner": 1, "totals": [11, 3], "hands": 4})
    assert not wire.same_value({"winner": True}, {"winner": 1})
    assert not wire.same_value([1, 0], [True, False])
    assert not wire.same_value({"a": b"x"}, {"a": "x"})
    assert not wire.same_value({"a": 1}, {"a": 1, "b": 2})
    assert not wire.same_value([1], [1, 1])


# ------------------------------------------------------------ adversaries that pad


def _rewriting(monkeypatch, identity: Identity, rewrite) -> None:
    """Entries signed by ``identity`` get their body rewritten by ``rewrite(kind, body)``
    before signing: a peer that pads or bends what it signs (an adversary; every other
    seat runs the real code)."""
    real = session_module.make_entry

    def make_entry(ident, *, kind, body=None, **kw):
        if ident is identity:
            body = rewrite(kind, dict(body or {}))
        return real(ident, kind=kind, body=body, **kw)

    monkeypatch.setattr(session_module, "make_entry", make_entry)


async def _two(tmp_path, guest_identity: Identity, *, proofs: bool = True):
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            host = HostPeer(host_config(tmp_path, shuffle_proofs=proofs),
                            BotController("greedy", 3))
            out["host"] = await host.run(task_status)

        port = await nursery.start(run_host)
        guest = ClientPeer(join_config(tmp_path, port, "guest", identity=guest_identity),
                           BotController("greedy", 4))
        with trio.fail_after(120):
            out["guest"] = await guest.run()
    return out["host"], out["guest"]


@pytest.mark.slow
async def test_a_padded_match_logs_little_and_replays(tmp_path, monkeypatch):
    """A seat that pads every entry with as much unknown data as it may: the match
    completes, its log stays far under 2 MB, and it audits valid."""
    padder = Identity.generate()
    budget = wire.MAX_UNKNOWN - 8  # the key "pad" and a bin header

    def pad(kind, body):
        body["pad"] = os.urandom(budget)
        return body

    _rewriting(monkeypatch, padder, pad)
    host, guest = await _two(tmp_path, padder)
    assert host.completed and guest.completed, (host, guest)
    log = tmp_path / "host.chklog"
    size = log.stat().st_size
    assert size < 2_000_000, size
    report = await trio.to_thread.run_sync(lambda: audit_log(log, workers=0))
    assert report.verdict == VALID, said(report)
    print(f"padded_log_bytes: {size}")


@pytest.mark.slow
async def test_padding_past_the_cap_is_refused_by_the_host(tmp_path):
    """A seated peer's 512 KiB ready: the host refuses it (entry_too_large) before
    relaying it, so no log and no other peer ever holds it."""
    me = Identity.generate()
    async with trio.open_nursery() as nursery:
        host, port, _ = await _host(tmp_path, nursery)
        raw = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        hs = ClientHandshake(me, "padder")
        await raw.send(hs.on_host(await raw.receive()))
        welcome = await raw.receive()
        assert welcome["t"] == "welcome" and welcome["seat"] == 1
        head = game = None
        while True:  # the lobby, the genesis, then the host's ready
            msg = await raw.receive()
            if msg["t"] == "sig":
                entry = wire.open_entry(wire.encode(msg))
                game, head = entry.game, entry.id
                if entry.kind == "ready":
                    break
        fields = {"g": game, "seat": 1, "n": 0, "prev": head, "k": "ready",
                  "pad": b"\0" * (1 << 19)}
        payload = wire.encode(fields)
        await raw.send({"t": "sig", "p": payload, "s": me.sign(wire.ENTRY_DOMAIN, payload)})
        with trio.fail_after(10):
            err = await raw.until_error()
        assert err["code"] == ErrorCode.ENTRY_TOO_LARGE
        assert host.session is not None and host.session.length == 2  # genesis, ready
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_done_result_is_compared_by_exact_type(tmp_path, monkeypatch):
    """``winner: true`` is not ``1`` (nor ``false`` ``0``): a seat that signs its result
    with a bool gets result_mismatch, blamed on it."""
    bender = Identity.generate()
    real = driver_module.GameDriver.result_body

    def result_body(driver):  # seat 1's engine speaks bools (an adversary)
        r = real(driver)
        return dict(r, winner=bool(r["winner"])) if driver.seat == 1 else r

    monkeypatch.setattr(driver_module.GameDriver, "result_body", result_body)
    host, guest = await _two(tmp_path, bender, proofs=False)
    assert not host.completed and not guest.completed
    a = host.aborted
    assert a is not None and a.code == ErrorCode.RESULT_MISMATCH
    # Whoever signed its `done` first is blamed by the other: the honest host blames the
    # bender, or the bender (whose engine speaks bools) blames the host's honest `1`.
    assert a.blamed_seat == 1 - a.by_seat


def test_the_transcript_is_bounded(monkeypatch):
    """Past MAX_TRANSCRIPT bytes the table stops at the entry that crossed it, blaming
    nobody (every peer stops at the same entry)."""
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.link.handshake import Lobby

    host, guest = Identity.generate(), Identity.generate()
    lobby = Lobby(host, "h", Ruleset(), 2, shuffle_proofs=False)
    lobby.take_seat(guest.public, "g")
    s0, genesis = Session.create(host, lobby.table())
    s1 = Session.join(guest, genesis, host.public)
    monkeypatch.setattr(wire, "MAX_TRANSCRIPT", 4 + len(genesis.body) + 300)
    fault = None
    for _ in range(10):
        for me, other in ((s0, s1), (s1, s0)):
            entry = me.next_entry()
            if entry is not None and fault is None:
                try:
                    other.receive(entry)
                except GameFault as exc:
                    fault = exc
    assert fault is not None
    assert fault.error_code == ErrorCode.TRANSCRIPT_TOO_LONG and fault.blamed_seat is None
    assert s1.aborted is not None and s1.aborted.code == ErrorCode.TRANSCRIPT_TOO_LONG


# ------------------------------------------------------------- before the handshake


async def _host(tmp_path, nursery, cls=HostPeer, ctl=None):
    host = cls(host_config(tmp_path), ctl or BotController("greedy", 0))
    out = {}

    async def run(task_status=trio.TASK_STATUS_IGNORED):
        out["outcome"] = await host.run(task_status)

    port = await nursery.start(run)
    return host, port, out


async def _connect_from(address: str, port: int) -> RawClient:
    sock = trio.socket.socket()
    await sock.bind((address, 0))
    await sock.connect(("127.0.0.1", port))
    return RawClient(trio.SocketStream(sock))


@pytest.mark.slow
async def test_a_big_hello_is_refused_before_it_is_read(tmp_path):
    async with trio.open_nursery() as nursery:
        host, port, _ = await _host(tmp_path, nursery)
        raw = await RawClient.connect(port)
        assert (await raw.receive())["t"] == "host"
        # A 1 MiB hello of empty maps: refused on its length alone.
        await raw.send_raw((1 << 20).to_bytes(4, "big") + b"\x80" * 1000)
        with trio.fail_after(5):
            err = await raw.until_error()
        assert err["code"] == ErrorCode.FRAME_TOO_LARGE
        # An honest hello is far below the limit.
        hs = ClientHandshake(Identity.generate(), "x" * 32)
        raw2 = await RawClient.connect(port)
        hello = hs.on_host(await raw2.receive())
        assert len(wire.encode(hello)) < wire.MAX_HELLO // 4
        nursery.cancel_scope.cancel()


class SmallHost(HostPeer):
    MAX_UNAUTHENTICATED = 3


@pytest.mark.slow
async def test_a_full_budget_of_strangers_lets_the_oldest_go_not_the_newcomer(tmp_path):
    """Strangers from one address fill the budget: the next one is greeted, and the
    oldest silent one is let go (closed without a word): the newcomer may be a
    returning seat (PROTOCOL.md 5.4)."""
    async with trio.open_nursery() as nursery:
        host, port, _ = await _host(tmp_path, nursery, SmallHost)
        held = []
        for _ in range(SmallHost.MAX_UNAUTHENTICATED):
            raw = await _connect_from("127.0.0.2", port)
            assert (await raw.receive())["t"] == "host"  # greeted
            held.append(raw)
        extra = await _connect_from("127.0.0.2", port)
        assert (await extra.receive())["t"] == "host"  # the newcomer is greeted
        with trio.fail_after(5):
            assert await held[0].receive() is None  # the oldest was let go
        assert host.refused_connections == 1
        assert host.admission.strangers == SmallHost.MAX_UNAUTHENTICATED
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_anonymous_connections_never_starve_a_resume(tmp_path):
    """Silent connections from other addresses fill the host's budget, and more keep
    coming; the seated guest whose connection broke comes back (from its address) and
    the match completes."""
    gate = GatedBot(gate_at=2)
    async with trio.open_nursery() as nursery:
        host, port, out = await _host(tmp_path, nursery, SmallHost)
        guest = ClientPeer(join_config(tmp_path, port, "guest"), gate)
        held: list[RawClient] = []

        async def attack():
            await gate.holding.wait()  # seated and playing
            for i in range(SmallHost.MAX_UNAUTHENTICATED + 2):
                raw = await _connect_from(f"127.0.0.{10 + i}", port)
                assert (await raw.receive())["t"] == "host"
                held.append(raw)
            await guest.link.stream.aclose()  # the guest's connection dies
            gate.release.set()

        nursery.start_soon(attack)
        with trio.fail_after(60):
            result = await guest.run()
        assert result.completed, result
    assert out["outcome"].completed
    assert host.refused_connections >= 2


EMFILE_HOST = textwrap.dedent("""
    import logging, resource, sys, trio
    sys.path.insert(0, sys.argv[1])
    logging.basicConfig()  # the library's warnings are log records: it never prints
    from chkobba_p2p._shell.net import HostPeer
    from chkobba_p2p._shell.peer import BotController, HostConfig, Timeouts

    class Greedy(HostPeer):  # no budget: only the descriptor limit stops the strangers
        MAX_UNAUTHENTICATED = 10_000
        MAX_UNAUTHENTICATED_PER_ADDRESS = 10_000
        def _anonymous_budget(self):
            return 10_000

    async def main():
        host = Greedy(HostConfig(port=0, bind="127.0.0.1", beacon=False, name="h",
                                 shuffle_proofs=False, log_path=sys.argv[2],
                                 timeouts=Timeouts(handshake=30, reconnect=5)),
                      BotController("greedy", 1))
        async with trio.open_nursery() as n:
            port = await n.start(host.run)
            print(port, flush=True)
        print("refused", host.refused_connections, flush=True)

    resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[3]), int(sys.argv[3])))
    trio.run(main)
""")


@pytest.mark.slow
def test_out_of_file_descriptors_is_survived_without_a_traceback(tmp_path):
    """A host limited to 64 descriptors meets 150 silent connections: accept() fails
    with EMFILE; it sheds the oldest stranger, warns in one line (a log record), and a
    real player still joins and finishes the match."""
    host = subprocess.Popen([sys.executable, "-c", EMFILE_HOST, str(REPO_ROOT),
                             str(tmp_path / "h.chklog"), "64"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert host.stdout is not None
    port = int(host.stdout.readline())
    silent = []
    try:
        for _ in range(150):
            s = socket.create_connection(("127.0.0.1", port))
            silent.append(s)
        bot = subprocess.run(cli_command("bot", f"127.0.0.1:{port}", "--quiet",
                                         "--log", str(tmp_path / "b.chklog")),
                             cwd=REPO_ROOT, env=cli_env(), capture_output=True, text=True,
                             timeout=120)
        assert bot.returncode == 0, bot.stdout + bot.stderr
    finally:
        for s in silent:
            s.close()
    out, err = host.communicate(timeout=60)
    assert "Traceback" not in err, err
    warnings = [ln for ln in err.splitlines() if "file descriptors" in ln]
    assert 1 <= len(warnings) <= 3, err
    assert int(out.split("refused")[1]) >= 1
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 64  # ours was untouched



def _closing(key: bytes):
    """Two in-process sessions played (greedy bots) until the match is decided."""
    from support.audit import make_sessions

    from chkobba_p2p.bots.levels import make_bot
    from chkobba_p2p.game.rules import PRESETS

    ss, ids = make_sessions(2, PRESETS["tunisian"], False, key)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    for _ in range(10_000):
        if any(s.phase == Phase.CLOSING for s in ss):
            break
        for i, s in enumerate(ss):
            if s.floor != i or s.finished:
                continue
            d = s.decision
            if d is not None:
                s.decide(bots[i].choose_play(d.hand) if d.kind == "play"
                         else bots[i].choose_cut(d.hand))
            entry = s.next_entry()
            if entry is not None:
                ss[1 - i].receive(entry)
    return ss, ids


@pytest.mark.parametrize("bend", [None, bool, lambda w: [w]])
def test_an_honest_session_compares_done_result_exactly(bend):
    """At the receiving end: the same result with ``winner`` as a bool (or wrapped) is
    result_mismatch, blamed on its signer; the exact result is accepted."""
    ss, ids = _closing(b"exact-result")
    s = next(x for x in ss if x.phase == Phase.CLOSING)
    f = s.floor
    sender, receiver = ss[f], ss[1 - f]
    result = sender.game.result_body()
    if bend is not None:
        result = dict(result, winner=bend(result["winner"]))
    entry = wire.make_entry(ids[f], game=sender.table.game, seat=f,
                            seq=sender.chain.next_seq[f], prev=sender.head, kind="done",
                            body={"result": result})
    if bend is None:
        receiver.receive(entry)
        return
    with pytest.raises(GameFault) as info:
        receiver.receive(entry)
    assert info.value.error_code == ErrorCode.RESULT_MISMATCH
    assert info.value.blamed_seat == f
