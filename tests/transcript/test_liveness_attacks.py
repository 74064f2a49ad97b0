"""Issue 12: the five attacks on liveness, each by a hostile peer against the library's
own honest peers (in memory on trio's mock clock: no sockets, no real time).  For each:
no honest peer crashes, the seat blamed is the attacker's (or, for an unproven
accusation, nobody is convicted on its word), and every honest log replays to the same
verdict."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import trio
from support.audit import said
from support.net import FAST

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import ClockReading, Outcome, OutcomeError, Waiting
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.link.seat import Send
from chkobba_p2p.observe.audit import INCOMPLETE, INVALID, VALID, audit_log
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.transcript.events import Standing
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, make_entry
from chkobba_p2p.wire.logfile import read_log

EN = Translator("en")  # the words a person reads (the client's)

# ------------------------------------------------------------------------ the harness


async def _table(tmp_path: Path, players: int, *, host_class: type[HostPeer] = HostPeer,
                 host_ctl=None, make_guest=None, timeouts=FAST, limit: float = 60,
                 attacker: int | None = None,
                 rules: Ruleset | None = None) -> dict[int, Outcome]:
    """Play one match in memory on trio's mock clock: ``make_guest(seat, config)``
    returns the ClientPeer of a seat (None: an honest greedy bot).  Returns the honest
    seats' outcomes; the attacker's peer (seat ``attacker``) is cancelled once every
    honest peer is done."""
    out: dict[int, Outcome] = {}
    controllers = [host_ctl or RecordingController(0),
                   *(RecordingController(seat) for seat in range(1, players))]
    table = InMemoryTable(tmp_path, players, controllers=controllers, timeouts=timeouts,
                          host_class=host_class, rules=rules or Ruleset())
    host = table.host
    with trio.fail_after(limit):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out[0] = await host.run(task_status)

            await nursery.start(run_host)
            honest_done = trio.Event()
            async with trio.open_nursery() as guests:
                attack_scope = trio.CancelScope()
                for seat in range(1, players):
                    cfg = table.join_config(seat, name=f"g{seat}")
                    peer = make_guest(seat, cfg) if make_guest else None
                    peer = peer or ClientPeer(cfg, controllers[seat])

                    async def run(seat=seat, peer=peer):
                        if seat == attacker:
                            with attack_scope:
                                await peer.run()
                            return
                        out[seat] = await peer.run()

                    guests.start_soon(run)
                    while host.lobby.seats[seat] is None and host.session is None:
                        await trio.sleep(0.01)  # seat them in order: g1 holds seat 1

                async def stop_attacker():
                    await honest_done.wait()
                    attack_scope.cancel()

                guests.start_soon(stop_attacker)
                while len(out) < players - (attacker is not None):
                    await trio.sleep(0.05)
                honest_done.set()
    return out


def _verdicts(tmp_path: Path, seats) -> list:
    """Each honest seat's log, replayed: (verdict, code, blamed) per seat."""
    names = {0: "host"} | {s: f"g{s}" for s in range(1, 4)}
    reports = [audit_log(tmp_path / f"{names[s]}.chklog", workers=0) for s in seats]
    return [(r.verdict, r.code, r.blamed) for r in reports]


# ---------------------------------------------------------- 1. empty-turn timing


class Withholder(Session):
    """Honest until its deal first owes decryption shares; then it withholds them, sends
    one ``deal/shares`` for a step far in the future (held by the others' deals, which
    reset the old stalled-game counter), and empty turns after it, so that an honest
    peer's own automatic empty turn is the one that reaches the limit."""

    withholding = False
    sent_future = False

    @property
    def decision(self):
        return None if self.withholding else super().decision

    def next_entry(self):
        if not self.withholding:
            if not (self.phase == Phase.PLAYING and self.floor == self.seat
                    and any(m.get("t") == "deal/shares" for m in self.game._out)):
                return super().next_entry()
            self.withholding = True
        if self.finished or self.floor != self.seat:
            return None
        self.game.outbox()  # withheld
        items = [] if self.sent_future else [
            {"t": "deal/shares", "step": 30, "pos": [], "d": b"", "proof": b""}]
        self.sent_future = True
        entry = make_entry(self.identity, game=self.table.game, seat=self.seat,
                           seq=self.chain.next_seq[self.seat], prev=self.chain.head,
                           kind="turn", body={"d": items})
        self._track(entry)
        return entry

    def receive(self, entry, *, checked=False):
        if not self.withholding or entry.kind == "abort":
            return super().receive(entry, checked=checked)
        self.check(entry)
        self._track(entry)

    def _track(self, entry) -> None:
        c = self.chain
        c.head, c.length = entry.id, c.length + 1
        c.next_seq[entry.seat] = entry.seq + 1
        self.bodies.append(entry.body)
        self._floor = (entry.seat + 1) % self.table.players


class SwappedLink(SeatLink):
    """A joiner's link whose session is of another class (the attacker's)."""

    session_class: type = Session

    def entry(self, body, msg, now):
        super().entry(body, msg, now)
        if self.session is not None and type(self.session) is Session:
            self.session.__class__ = self.session_class


class SwappedClient(ClientPeer):
    link_class = SwappedLink


@pytest.mark.parametrize("players", [2, 4])
async def test_withheld_shares_with_timed_empty_turns_blame_the_withholder(tmp_path, players,
                                                                        autojump_clock):
    def make(seat, cfg):
        if seat == 1:
            peer = SwappedClient(cfg, RecordingController(seat))
            peer.core.session_class = Withholder
            return peer
        return None

    out = await _table(tmp_path, players, make_guest=make, attacker=1)
    for seat, o in out.items():
        assert o.aborted is not None, f"seat {seat}: {o}"
        assert o.aborted.blamed_seat == 1 and o.aborted.by_seat == seat
        assert o.aborted.code is ErrorCode.PROTOCOL_VIOLATION
        assert o.aborted.standing == Standing.PROVEN
    verdicts = _verdicts(tmp_path, sorted(out))
    assert verdicts[0] == (INVALID, "protocol_violation", 1)
    assert all(v == verdicts[0] for v in verdicts)


# ------------------------------------------------------------ 2. drop-and-resume cycling


CYCLE = dataclasses.replace(FAST, reconnect=3.0, turn=4.0, idle=6.0)


class Cycler(ClientPeer):
    """Once its bot holds the floor (and never plays), it drops its connection and comes
    back for a moment every (allowance - 1) seconds, for ever."""

    def __init__(self, config, controller: GatedController) -> None:
        super().__init__(config, controller)
        self.gate = controller
        self.cycles = 0
        self.held_at: float | None = None  # when its bot first held the floor

    async def _connected(self, stream):
        if not self.gate.holding.is_set():
            async with trio.open_nursery() as n:
                async def drop_when_holding():
                    await self.gate.holding.wait()
                    self.held_at = trio.current_time()
                    n.cancel_scope.cancel()

                n.start_soon(drop_when_holding)
                result = await super()._connected(stream)
                n.cancel_scope.cancel()
                return result
            with trio.CancelScope(shield=True):
                await stream.aclose()
            return False
        self.cycles += 1
        with trio.move_on_after(0.05):  # a moment connected, then the line "breaks"
            await super()._connected(stream)
        with trio.CancelScope(shield=True):
            await stream.aclose()
        await trio.sleep(self.timeouts.reconnect - 1)
        return False


@pytest.mark.parametrize("players", [2, 4])
async def test_drop_and_resume_cycling_runs_out_of_allowance(tmp_path, players, autojump_clock):
    cyclers = []
    host_ctl = RecordingController(0)

    def make(seat, cfg):
        if seat == 1:
            cyclers.append(Cycler(cfg, GatedController(gate_at=2)))
            return cyclers[0]
        return None

    out = await _table(tmp_path, players, make_guest=make, timeouts=CYCLE, attacker=1,
                       limit=60, host_ctl=host_ctl)
    ended = trio.current_time()
    assert cyclers[0].cycles >= 2 and cyclers[0].held_at is not None
    host = out[0]
    assert host.aborted is not None and host.aborted.by_seat == 0
    assert host.aborted.blamed_seat == 1
    assert host.aborted.code in (ErrorCode.PEER_LEFT, ErrorCode.TIMEOUT)
    assert host.aborted.standing == Standing.OWED
    # The stated bound: no seat delays the match by more than its move limit plus its
    # allowance (plus slack for the peers' scheduling on a loaded machine), far less than
    # an honest joiner waits before it concludes that the host stops the game.
    assert ended - cyclers[0].held_at < CYCLE.turn + CYCLE.reconnect + 8
    for seat, o in out.items():
        assert o.aborted == host.aborted or (o.aborted is not None
                                             and o.aborted.blamed_seat == 1), seat
    verdicts = _verdicts(tmp_path, sorted(out))
    # The host's flag on the seat to play: the match is lost on time (PROTOCOL.md 12.3).
    assert host.aborted.flag == 1 and host.winner_side == 0
    assert all(v == (VALID, "on_time", 1) for v in verdicts), verdicts
    # What a client shows: the clocks, seat 1 away with its allowance running down across
    # the drops (never refilled by a resume).
    readings = [e for e in host_ctl.events if isinstance(e, ClockReading)]
    assert any(r.of(1).owes and not r.of(1).connected for r in readings)
    left = [e.seconds for e in host_ctl.events if isinstance(e, Waiting) and e.seat == 1]
    assert left and min(left) < CYCLE.reconnect - 1.5
    assert left == sorted(left, reverse=True)


# ---------------------------------------------------------- 3. unsigned link messages


JUNK = [
    {"t": "lobby", "players": 2, "seats": [{"seat": 0, "key": 5, "name": "x"},
                                            {"seat": 1, "key": "str", "name": 7}]},
    {"t": "lobby", "seats": "nope"},
    {"t": "lobby", "seats": [None, {"key": b"\x00" * 3, "name": "\x1b[2J"}]},
    {"t": "lobby", "seats": [{"key": b"k" * 32, "name": ["x"]}, 7]},
    {"t": "wait", "seat": [1], "secs": "x"},
    {"t": "wait", "seat": 99, "secs": -5},
    {"t": "back", "seat": {"a": 1}},
    {"t": "back", "seat": True},
    {"t": "chat", "seat": "0", "text": 5},
    {"t": "chat", "seat": 9, "text": "hi"},
]


class JunkTable(HostTable):
    """A host that sends every joiner malformed unsigned messages: in the lobby and at
    every entry of the game."""

    def _lobby_changed(self, now: float) -> None:
        self._junk()
        super()._lobby_changed(now)

    def _entry_out(self, body: bytes) -> None:
        super()._entry_out(body)
        self._junk()

    def _junk(self) -> None:
        # Straight onto every seat's connection: a hostile host consults no table.
        for msg in JUNK:
            for conn in self.links.values():
                self.out.append(Send(conn, wire.encode(msg)))


class JunkHost(HostPeer):
    table_class = JunkTable


@pytest.mark.parametrize("players", [2, 4])
async def test_malformed_unsigned_messages_are_ignored(tmp_path, players, autojump_clock):
    # A match to 1 point, one hand, the junk after each of its entries: a joiner's link
    # reads junk the same way whichever hand it is, and to 11 (three or four hands) the
    # match cost about twice the CPU for the same checks.
    out = await _table(tmp_path, players, host_class=JunkHost, rules=Ruleset(target=1))
    assert all(o.completed for o in out.values()), [o for o in out.values()]
    assert len({o.done for o in out.values()}) == 1
    verdicts = _verdicts(tmp_path, sorted(out))
    assert all(v[0] == "valid" for v in verdicts)


# ------------------------------------------------- 4. an unauthenticated error frame


class Switch:
    """A front for the host's port on the table's memory network: the first
    ``impostor`` connections are answered by an impostor (one ``error unknown_game``
    frame), the others are forwarded."""

    ADDRESS = "10.0.0.9"

    def __init__(self, table: InMemoryTable, impostor: int = 0, kind: str = "error") -> None:
        self.table = table
        self.transport = table.network.transport(self.ADDRESS)
        self.impostor = impostor
        self.kind = kind  # "error" (unknown_game), "silent" or "garbled" (a bad greeting)
        self.refused = trio.Event()

    async def serve(self, task_status=trio.TASK_STATUS_IGNORED):
        listeners = await self.transport.listen(0, "")
        task_status.started(self.transport.port_of(listeners[0]))
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, stream) -> None:
        if self.impostor > 0:
            self.impostor -= 1
            if self.kind == "error":
                err = {"t": "error", "code": int(ErrorCode.UNKNOWN_GAME),
                       "name": "unknown_game", "msg": "no such game"}
                await stream.send_all(wire.frame(wire.encode(err)))
            elif self.kind == "garbled":
                await stream.send_all(wire.frame(wire.encode({"t": "host", "key": 5})))
            else:  # silent: the handshake times out
                await trio.sleep(self.table.timeouts.handshake + 1)
            self.refused.set()
            await stream.aclose()
            return
        upstream = await self.transport.connect(InMemoryTable.HOST_ADDRESS,
                                                self.table.host.port)

        async def pipe(a, b):
            try:
                while data := await a.receive_some(65536):
                    await b.send_all(data)
                await b.send_eof()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass

        async with trio.open_nursery() as n:
            n.start_soon(pipe, stream, upstream)
            n.start_soon(pipe, upstream, stream)


@pytest.mark.parametrize("kind", ["error", "silent", "garbled"])
async def test_an_unauthenticated_unknown_game_error_deletes_nothing(tmp_path, kind,
                                                                     autojump_clock):
    """An impostor at the host's address (an ``error unknown_game``, a handshake that
    never completes, a garbled greeting) delays a resume but neither deletes the saved
    state nor ends the game.  A refusal is retried within the host's allowance; silence
    or garbage, before our host ever answered in this run, is like nobody listening:
    that run stops, signing nothing, and the next one resumes (PROTOCOL.md 12.4)."""
    identity = Identity.generate()
    state = tmp_path / "g1.state"
    gate = GatedController(gate_at=2)
    table = InMemoryTable(tmp_path, controllers=[RecordingController(0), gate],
                          timeouts=FAST)
    out: dict[str, Outcome] = {}
    host_done = trio.Event()
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await table.host.run(task_status)
                host_done.set()

            await nursery.start(run_host)
            switch = Switch(table)
            front = await nursery.start(switch.serve)
            cfg = dataclasses.replace(
                table.join_config(1, name="g1", identity=identity, state_path=state),
                address=f"{Switch.ADDRESS}:{front}")
            first, gone = trio.CancelScope(), trio.Event()

            async def run_first():
                try:
                    with first:
                        await ClientPeer(cfg, gate).run()
                finally:
                    gone.set()

            nursery.start_soon(run_first)
            await gate.holding.wait()
            first.cancel()  # "the process died" mid-game, holding the floor
            await gone.wait()
            saved = state.read_bytes()
            switch.impostor, switch.kind = 1, kind  # the next connection meets an impostor
            second = ClientPeer(cfg, RecordingController(1))

            async def watch():
                await switch.refused.wait()
                out["state_after_error"] = state.exists() and state.read_bytes() == saved

            nursery.start_soon(watch)
            out["guest"] = await second.run()
            if kind != "error":
                stopped = out["guest"]
                assert stopped.error_code == OutcomeError.CONNECT_FAILED
                assert stopped.aborted is None
                assert stopped.error_reason == "no_host_answered"
                assert state.read_bytes() == saved
                out["guest"] = await ClientPeer(cfg, RecordingController(1)).run()
            await host_done.wait()
            nursery.cancel_scope.cancel()  # the switch
    assert out["state_after_error"] is True
    assert out["guest"].completed, out["guest"]
    assert out["host"].completed and out["host"].done == out["guest"].done
    assert read_log(tmp_path / "host.chklog").bodies == \
        read_log(tmp_path / "g1.chklog").bodies


# ----------------------------------------------------------- 5. a bare claim as fact


class AccusingLink(SeatLink):
    """Plays honestly until its second entry, then signs an ``abort`` blaming seat 0
    (``illegal_move``) with no evidence, or citing the host's last entry (which passes
    every check) as its evidence."""

    cite = False

    def _entry_out(self, body: bytes) -> None:
        s = self.session
        if s is not None and s.phase == Phase.PLAYING and not s.finished \
                and s.length > s.table.players + 4:
            others = [b for b in s.bodies if wire.open_entry(b).seat != s.seat]
            evidence = others[-1] if self.cite else None
            abort = s.abort(ErrorCode.ILLEGAL_MOVE, 0, "seat 0 cheated", evidence)
            super()._entry_out(abort.body)
            return
        super()._entry_out(body)


class Accuser(ClientPeer):
    link_class = AccusingLink


@pytest.mark.parametrize("cite", [False, True], ids=["bare", "cites-an-honest-entry"])
@pytest.mark.parametrize("players", [2, 4])
async def test_an_accusation_is_shown_as_a_claim_and_refuted_by_its_evidence(
        tmp_path, players, cite, autojump_clock):
    def make(seat, cfg):
        if seat == 1:
            peer = Accuser(cfg, RecordingController(seat))
            peer.core.cite = cite
            return peer
        return None

    out = await _table(tmp_path, players, make_guest=make, attacker=1)
    for seat, o in out.items():
        a = o.aborted
        assert a is not None and (a.by_seat, a.blamed_seat) == (1, 0), seat
        # Every other seat says what an auditor of the log says (an honest entry cited
        # as evidence refutes the claim: PROTOCOL 12.5); the accuser never calls its own
        # claim refuted.
        refuted = cite and seat != 1
        assert a.standing == (Standing.REFUTED if refuted else Standing.CLAIMED), seat
        assert not a.proven
        text = words(o, EN)
        assert "seat 1 says seat 0" in text
        assert ("the claim is refuted" if refuted else "nothing in the log shows it") in text
        assert "blaming seat 0" not in text
    reports = [audit_log(tmp_path / ("host.chklog" if s == 0 else f"g{s}.chklog"), workers=0)
               for s in sorted(out)]
    for r in reports:
        assert r.verdict == INCOMPLETE and r.code == "aborted"
        assert r.blamed is None  # nobody convicted on a claim
        assert r.standing == (Standing.REFUTED if cite else Standing.CLAIMED)
        assert r.claim_refuted is cite
        summary = said(r)
        assert f"says {r.names[0]} is at fault" in summary  # in the players' names
        assert ("refuted" if cite else "nothing in the log shows it") in summary
    assert len({(r.verdict, r.code, r.blamed, r.standing) for r in reports}) == 1


# ------------------------------------------------------- what no check foresaw


class Brittle(Session):
    """A session whose own code fails on the 12th entry it receives (a bug, or input no
    check foresaw)."""

    def receive(self, entry, *, checked=False):
        self.received = getattr(self, "received", 0) + 1
        if self.received == 12:
            raise RuntimeError("no check foresaw this")
        return super().receive(entry, checked=checked)


class BrittleTable(HostTable):
    def _lobby_changed(self, now: float) -> None:
        super()._lobby_changed(now)
        if self.session is not None and type(self.session) is Session:
            self.session.__class__ = Brittle


class BrittleHost(HostPeer):
    table_class = BrittleTable


async def test_an_entry_our_own_code_fails_on_ends_the_game_cleanly(tmp_path, autojump_clock):
    out = await _table(tmp_path, 2, host_class=BrittleHost)
    a = out[0].aborted
    assert a is not None and a.by_seat == 0 and a.blamed_seat is None
    assert "internal error" in a.detail
    assert out[1].aborted is not None and out[1].aborted.blamed_seat is None
