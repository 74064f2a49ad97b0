"""A person's game survives (issue 14), at the library's level: a resumed peer gets its
whole picture back in one event, a resignation is signed and ends the match with a
result, a seat that steps away is shown as away and comes back, and one identity plays
in one process at a time.  Real peers on loopback TCP, real logs, real audits."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from support.audit import said
from support.net import GatedBot, host_config, join_config

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController, Restored, Resumed, SeatBusy, SeatLock, Waiting
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.audit import VALID, audit_bodies, audit_log
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.transcript.events import Aborted, HandStarted
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire.codec import Entry, ErrorCode, Identity, open_entry
from chkobba_p2p.wire.logfile import read_log

EN = Translator("en")  # the words a person reads (the client's)


class Recorder(BotController):
    def __init__(self, seed: int) -> None:
        super().__init__("greedy", seed)
        self.events: list[object] = []

    def on_event(self, event: object) -> None:
        self.events.append(event)


class Resigner(Recorder):
    """Plays, then resigns instead of its ``at``-th play."""

    def __init__(self, seed: int, at: int = 3) -> None:
        super().__init__(seed)
        self.at = at
        self.plays = 0
        self.resigned: bool | None = None

    async def choose_play(self, hand):
        self.plays += 1
        if self.plays == self.at:
            self.resigned = self.resign()
            await trio.sleep_forever()  # the match ends; the peer cancels this
        return await super().choose_play(hand)


@pytest.mark.slow
async def test_a_resumed_peer_gets_its_whole_table_back_in_one_event(tmp_path):
    """The joiner "crashes" while it holds the floor (its peer is cancelled, nothing sent);
    a new peer with the same identity and saved state reports :class:`Restored` first,
    and that event alone rebuilds hand, table, captures, scores and turn as they were."""
    identity = Identity.generate()
    state = tmp_path / "me.state"
    gate = GatedBot(gate_at=3)
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(host_config(tmp_path), Recorder(0)).run(task_status)

        port = await nursery.start(run_host)
        cfg = join_config(tmp_path, port, "me", identity=identity, state_path=state)
        with trio.CancelScope() as crash:
            async def crash_when_holding():
                await gate.holding.wait()
                crash.cancel()
            nursery.start_soon(crash_when_holding)
            await ClientPeer(cfg, gate).run()
        before = TableState(my_fingerprint=identity.fingerprint).apply_all(gate.events)
        assert before.started and before.hand
        again = Recorder(1)
        with trio.fail_after(60):
            out["me"] = await ClientPeer(cfg, again).run()
    first = again.events[0]
    assert isinstance(first, Restored), again.events[:3]
    assert first.seat == 1 and first.table.seats[1].key == identity.public
    restored = TableState(my_fingerprint=identity.fingerprint).apply(first)
    for name in ("seat", "hand_number", "dealer", "hand", "counts", "table", "stock",
                 "piles", "chkobbas", "totals", "turn", "scored"):
        assert getattr(restored, name) == getattr(before, name), name
    assert restored.turn == 1  # it crashed holding the floor
    hand = first.hand_events
    assert isinstance(hand[0], HandStarted) and hand[0].number == restored.hand_number
    assert any(isinstance(e, R.PlayEvent) for e in hand)
    assert out["me"].completed and out["host"].completed


@pytest.mark.slow
async def test_a_resignation_ends_the_match_with_a_loss_that_the_audit_confirms(tmp_path):
    host_ctl = Recorder(0)
    resigner = Resigner(1, at=2)
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(host_config(tmp_path), host_ctl).run(task_status)

        port = await nursery.start(run_host)
        with trio.fail_after(60):
            out["guest"] = await ClientPeer(join_config(tmp_path, port, "guest"),
                                            resigner).run()
    assert resigner.resigned is True
    for o in out.values():
        assert o.aborted is not None and o.aborted.resigned
        assert o.aborted.code is ErrorCode.RESIGNED and o.aborted.by_seat == 1
        assert o.resigned == 1 and o.winner_side == 0
        assert "guest resigned" in words(o, EN)
    seen = TableState().apply_all(host_ctl.events)
    assert seen.winner_side == 0 and seen.over
    last = open_entry(read_log(tmp_path / "host.chklog").bodies[-1])
    assert last.kind == "abort" and last.seat == 1
    assert last.fields["code"] == 404 and last.fields["blamed"] == 1
    for log in ("host", "guest"):
        report = audit_log(tmp_path / f"{log}.chklog", workers=0)
        assert report.verdict == VALID, said(report)
        assert report.code == "resigned" and report.winner == 0
        assert "resigned" in said(report)


async def test_resigning_needs_a_running_match():
    assert BotController().resign() is False  # no peer behind it
    ident = Identity.generate()
    table = TableInfo(b"g" * 16, 1, 2, R.Ruleset(),
                        (SeatInfo(0, ident.public, "a"),
                         SeatInfo(1, Identity.generate().public, "b")))
    session, _ = Session.create(ident, table)
    session.resign()
    assert session.aborted is not None and session.aborted.resigned
    with pytest.raises(Exception, match="already over"):
        session.resign()


async def test_an_abort_coded_resigned_against_another_seat_is_no_resignation():
    a = Aborted(0, ErrorCode.RESIGNED, 1, "seat 1 gave up, says seat 0")
    assert not a.resigned and a.winner_side(2) is None
    b = Aborted(3, ErrorCode.RESIGNED, 3, "")
    assert b.resigned and b.winner_side(4) == 0  # seats 1 and 3 are side 1


@pytest.mark.slow
async def test_a_seat_that_steps_away_is_shown_away_and_comes_back(tmp_path):
    identity = Identity.generate()
    state = tmp_path / "me.state"
    host_ctl = Recorder(0)
    gate = GatedBot(gate_at=2)
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(host_config(tmp_path), host_ctl).run(task_status)

        port = await nursery.start(run_host)
        cfg = join_config(tmp_path, port, "me", identity=identity, state_path=state,
                          leave_on_cancel=True)  # stepping away wins over leaving
        with trio.CancelScope() as quit_scope:
            async def step_away_when_holding():
                await gate.holding.wait()
                assert gate.step_away()
                quit_scope.cancel()
            nursery.start_soon(step_away_when_holding)
            await ClientPeer(cfg, gate).run()
        with trio.fail_after(20):
            while not any(isinstance(e, Waiting) and e.seat == 1 and e.away
                          for e in host_ctl.events):
                await trio.sleep(0.05)
        assert TableState().apply_all(host_ctl.events).away == (1,)
        with trio.fail_after(60):
            out["me"] = await ClientPeer(cfg, Recorder(1)).run()
    assert any(isinstance(e, Resumed) and e.seat == 1 for e in host_ctl.events)
    assert out["me"].completed and out["host"].completed  # no abort: it was not a leave
    assert TableState().apply_all(host_ctl.events).away == ()


@pytest.mark.slow
def test_one_process_per_seat_and_a_dead_holders_lock_is_taken_over(tmp_path):
    state = tmp_path / "resume" / "me.state"
    with SeatLock(state):
        with pytest.raises(SeatBusy) as busy:
            SeatLock(state).acquire()
        assert busy.value.pid == os.getpid()
        assert f"pid {os.getpid()}" in str(busy.value)
    # Another process takes it, and is killed with SIGKILL: the file stays, the lock not.
    code = (f"from chkobba_p2p.wire.logfile import SeatLock; import sys, time; "
            f"SeatLock({str(state)!r}).acquire(); print('held', flush=True); "
            f"sys.stdin.read()")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(SeatBusy) as busy:
            SeatLock(state).acquire()
        assert busy.value.pid == proc.pid
    finally:
        proc.kill()
        proc.wait()
    assert (tmp_path / "resume" / "me.state.lock").exists()
    lock = SeatLock(state).acquire()  # stale: taken over at once
    lock.release()


@pytest.mark.slow
def test_host_resume_reports_restored_first(tmp_path):
    """Covered end to end by the pty tests; here: the host emits Restored before Resumed."""
    events: list[object] = []

    class Probe(BotController):
        def on_event(self, event):
            events.append(event)

    identity = Identity.generate()
    state = tmp_path / "host.state"
    port_holder = {}

    async def first():
        gate = GatedBot(gate_at=2)
        cfg = dataclasses.replace(host_config(tmp_path), identity=identity, state_path=state,
                                  port=_free_port())
        port_holder["port"] = cfg.port
        async with trio.open_nursery() as nursery:
            await nursery.start(HostPeer(cfg, Recorder(0)).run)
            nursery.start_soon(ClientPeer(join_config(tmp_path, cfg.port, "g"), gate).run)
            await gate.holding.wait()
            nursery.cancel_scope.cancel()

    trio.run(first)
    assert state.exists()
    cfg = dataclasses.replace(host_config(tmp_path), identity=identity, state_path=state,
                              port=port_holder["port"])
    HostPeer(cfg, Probe())  # loads the saved game

    async def second():
        peer = HostPeer(cfg, Probe())
        async with trio.open_nursery() as nursery:
            await nursery.start(peer.run)
            nursery.cancel_scope.cancel()

    trio.run(second)
    kinds = [type(e).__name__ for e in events]
    assert "Restored" in kinds and kinds.index("Restored") < kinds.index("Resumed")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ the published vector

VECTOR = Path(__file__).parent.parent / "vectors" / "wire_resign.json"


def _resign_case() -> tuple[Entry, Entry, Identity, Identity]:
    host = Identity.from_seed(bytes([1]) * 32)
    guest = Identity.from_seed(bytes([2]) * 32)
    table = TableInfo(bytes(range(16)), 1, 2, R.Ruleset(),
                        (SeatInfo(0, host.public, "host"), SeatInfo(1, guest.public, "amel")),
                        ("deal/v1", "resume/v1"))  # the table the vector was made with
    _, genesis = Session.create(host, table, master=bytes(32))
    session = Session.join(guest, genesis, host.public, master=bytes([9]) * 32)
    return genesis, session.resign("amel resigned"), host, guest


def test_regenerate_resign_vector():
    if os.environ.get("REGENERATE_WIRE_VECTORS") != "1":
        pytest.skip("regeneration only on request")
    genesis, resign, host, guest = _resign_case()
    VECTOR.write_text(json.dumps({
        "host_seed_hex": host.seed.hex(), "guest_seed_hex": guest.seed.hex(),
        "genesis_body_hex": genesis.body.hex(), "genesis_id_hex": genesis.id.hex(),
        "resign_payload_hex": resign.payload.hex(), "resign_body_hex": resign.body.hex(),
        "resign_fields": {"k": "abort", "seat": 1, "n": 0, "code": 404, "blamed": 1,
                          "why": "amel resigned"},
        "winner_side": 0}, indent=2, sort_keys=True) + "\n")


def test_resign_vector():
    """PROTOCOL.md 17: a resignation is an ``abort`` with code 404 ``resigned`` whose
    ``blamed`` is its signer's own seat; off the chain like every abort (``prev`` is the
    head, ``n`` the signer's next sequence number)."""
    v = json.loads(VECTOR.read_text())
    genesis, resign, host, guest = _resign_case()
    assert genesis.body.hex() == v["genesis_body_hex"]
    assert resign.body.hex() == v["resign_body_hex"]  # Ed25519 is deterministic
    entry = open_entry(bytes.fromhex(v["resign_body_hex"]))
    assert entry.payload.hex() == v["resign_payload_hex"]
    assert entry.prev.hex() == v["genesis_id_hex"]
    for k, value in v["resign_fields"].items():
        assert (entry.kind if k == "k" else entry.seat if k == "seat" else
                entry.seq if k == "n" else entry.fields[k]) == value, k
    # A third party (the host here) accepts it and ends the match with the loss.
    s = Session(host, TableInfo.from_entry(genesis), 0, genesis)
    s.receive(entry)
    assert s.aborted is not None and s.aborted.resigned
    assert s.aborted.winner_side(2) == v["winner_side"]
    report = audit_bodies([genesis.body, entry.body], workers=0)
    assert report.verdict == VALID and report.winner == v["winner_side"], said(report)
