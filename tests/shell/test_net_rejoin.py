"""Coming back without a game to come back to: a seat whose saved state is not on this
machine, a host that already closed the table, a saved game that is already over, a host
that sends no usable table.  None of them may sign anything against the host (PROTOCOL.md
5, 12.4, 13)."""

from __future__ import annotations

import dataclasses
import shutil
import socket

import pytest
import trio
from support.net import FAST, GatedBot, host_config, join_config, run_then_vanish

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import (
    BotController,
    Lobby,
    Notice,
    NoticeKind,
    OutcomeError,
    Resumed,
    Waiting,
)
from chkobba_p2p.link.handshake import HostHandshake
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire.codec import ErrorCode, Identity, open_entry
from chkobba_p2p.wire.logfile import read_log


def _free_tcp_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostWatcher(BotController):
    """The host's bot; ``away`` is set once the host reports seat 1 away."""

    def __init__(self) -> None:
        super().__init__("greedy", 0)
        self.away = trio.Event()
        self.back = False

    def on_event(self, event: object) -> None:
        if isinstance(event, Waiting) and event.seat == 1:
            self.away.set()
        if isinstance(event, Resumed) and event.seat == 1:
            self.back = True


async def _play_then_vanish(nursery: trio.Nursery, tmp_path, port: int, identity: Identity,
                            state, gate: GatedBot) -> ClientPeer:
    """A joiner with a saved game plays until its second move, then its process "dies"
    (no leave signed; its socket closed)."""
    cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), identity=identity,
                              state_path=state)
    peer = ClientPeer(cfg, gate)
    await run_then_vanish(nursery, peer, gate)
    return peer


@pytest.mark.slow
async def test_a_seat_without_its_saved_state_signs_nothing_and_blames_no_one(tmp_path):
    """The host takes a fresh hello from a seated identity back as a resume from have =
    0; the entries it replays include ours, signed on "another machine": the fresh peer
    stops with a sentence, writes and signs nothing, and the host's game goes on with the
    seat away, its allowance running."""
    identity = Identity.generate()
    state = tmp_path / "amel.state"
    host_ctl = HostWatcher()
    host = HostPeer(host_config(tmp_path), host_ctl)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        await _play_then_vanish(nursery, tmp_path, port, identity, state, GatedBot(2))
        await host_ctl.away.wait()
        assert state.exists()
        state.unlink()  # the saved game is lost (another machine, a wiped data dir)
        host_ctl.away = trio.Event()
        again = dataclasses.replace(join_config(tmp_path, port, "again"), identity=identity,
                                    state_path=state)
        seen = GatedBot(1)
        host_ctl.back = False
        with trio.fail_after(20):
            out = await ClientPeer(again, seen).run()
            await host_ctl.away.wait()  # seat 1 dropped again, as a step away
        assert not host_ctl.back  # never announced back: nobody came back to play
        assert host.session is not None and not host.session.finished
        assert 1 in host.absent and 1 in host.away_seats
        clock = host.clocks()[1]
        assert not clock.connected and clock.running == "allowance"
        host_session = host.session
        nursery.cancel_scope.cancel()
    assert out.error_code == OutcomeError.SAVED_GAME_MISSING
    assert out.aborted is None and out.done is None and out.table is None
    assert out.error_reason == "saved_game_missing" and out.error_data == {}
    # Nothing written, nothing signed, nothing shown of a game it cannot play.
    assert not (tmp_path / "again.chklog").exists()
    assert not state.exists()
    assert seen.plays == 0 and not seen.events
    assert not host_session.finished
    assert all(open_entry(b).kind != "abort"
               for b in read_log(tmp_path / "host.chklog").bodies)


async def _abandoned_game(tmp_path, port: int, identity: Identity, state) -> None:
    """A game the joiner stepped out of; then the host's process is gone too."""
    async with trio.open_nursery() as nursery:
        cfg = dataclasses.replace(host_config(tmp_path), port=port)
        await nursery.start(HostPeer(cfg, BotController("greedy", 0)).run)
        await _play_then_vanish(nursery, tmp_path, port, identity, state, GatedBot(2))
        nursery.cancel_scope.cancel()


@pytest.mark.slow
async def test_a_host_that_closed_the_table_is_reported_at_once_not_blamed(tmp_path):
    port = _free_tcp_port()
    identity = Identity.generate()
    state = tmp_path / "amel.state"
    await _abandoned_game(tmp_path, port, identity, state)
    log = tmp_path / "amel.chklog"
    before = read_log(log).bodies
    cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), identity=identity,
                              state_path=state)
    peer = ClientPeer(cfg, BotController("greedy", 1))
    assert peer.session is not None  # resumed from the saved game
    with trio.fail_after(cfg.timeouts.reconnect / 2):  # long before the host's allowance
        out = await peer.run()
    assert out.error_code == OutcomeError.CONNECT_FAILED
    assert out.aborted is None
    assert out.error_reason == "unreachable_closed"
    assert out.error_data == {"where": f"127.0.0.1:{port}"}
    assert read_log(log).bodies == before  # nothing signed
    assert state.exists()  # the game can still be resumed once the host is back


@pytest.mark.slow
async def test_a_saved_game_that_is_already_over_is_told_and_never_blocks_a_join(tmp_path):
    port = _free_tcp_port()
    identity = Identity.generate()
    state = tmp_path / "amel.state"
    gate = GatedBot(2)
    host_ctl = HostWatcher()
    async with trio.open_nursery() as nursery:
        host = HostPeer(dataclasses.replace(host_config(tmp_path), port=port), host_ctl)
        await nursery.start(host.run)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), identity=identity,
                                  state_path=state)
        out: dict[str, object] = {}

        async def run_guest() -> None:
            out["guest"] = await ClientPeer(cfg, gate).run()

        nursery.start_soon(run_guest)
        await gate.holding.wait()
        shutil.copy(state, tmp_path / "kept.state")  # a save the end failed to delete
        left = host.leave("the host closed the table")
        assert left is not None
        host.send_entry(left)
        gate.release.set()
    guest = out["guest"]
    assert guest.aborted is not None and guest.aborted.code is ErrorCode.PEER_LEFT
    assert not state.exists()
    shutil.copy(tmp_path / "kept.state", state)
    with socket.socket() as listener:  # something at the address, to see any connect
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(4)
        listener.setblocking(False)
        seen = RecordingController(1)
        ended_log = read_log(tmp_path / "amel.chklog").bodies
        peer = ClientPeer(cfg, seen)
        with trio.fail_after(30):
            again = await peer.run()
        try:
            listener.accept()[0].close()
            connected = True
        except BlockingIOError:
            connected = False
    # A save of a match that is over never stands in the way: removed, the person told
    # where the end is, and this join goes on afresh (here to a port where no chkobba
    # host answers), signing nothing into the old log.
    assert connected and again.aborted is None and again.table is None
    assert again.error_reason != "already_over"
    over = [e for e in seen.events if isinstance(e, Notice)
            and e.kind is NoticeKind.SAVED_GAME_OVER]
    assert [n.path for n in over] == [tmp_path / "amel.chklog"]
    assert read_log(tmp_path / "amel.chklog").bodies == ended_log
    assert not state.exists()


class BadLobbyTable(HostTable):
    """Welcomes joiners, then sends only lobbies whose host name hides an escape (or,
    ``silent``, no lobby at all)."""

    silent = False

    def _lobby_changed(self, now: float) -> None:
        if not self.silent:
            super()._lobby_changed(now)

    def lobby_message(self) -> dict:
        msg = super().lobby_message()
        msg["seats"][0] = dict(msg["seats"][0], name="Fake\x1b[2J")
        return msg


class BadLobbyHost(HostPeer):
    table_class = BadLobbyTable


@pytest.mark.parametrize("silent", [False, True])
async def test_a_host_sending_no_usable_table_is_named(tmp_path, silent, autojump_clock):
    """A host that answers the handshake but sends only lobbies a joiner refuses (or
    none): after the handshake timeout the joiner stops, saying what was wrong, rather
    than wait for a table that does not come (in memory, on the table's own clock)."""
    table = InMemoryTable(tmp_path, host_class=BadLobbyHost)
    table.host.core.silent = silent
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        peer = table.joiner(1)
        start = trio.current_time()
        out = await peer.run()
        waited = trio.current_time() - start
        nursery.cancel_scope.cancel()
    handshake = table.timeouts.handshake
    assert handshake <= waited < handshake + 1  # the handshake timeout, no longer
    assert out.error_code == OutcomeError.BAD_LOBBY and out.table is None
    why = {} if silent else {"detail": "seat 0's name is not printable",
                             "violation": "seat_name_unprintable", "facts": (("seat", 0),)}
    assert out.error_reason == "no_table"
    assert out.error_data == {"seconds": handshake, **why}
    assert not (tmp_path / "seat1.chklog").exists()


def test_a_lobby_problem_names_the_field():
    from chkobba_p2p.link.messages import Lobby, Malformed, read_frame
    from chkobba_p2p.wire.codec import encode

    def parse(msg):
        msg = {"t": "lobby", **msg}
        return read_frame(encode(msg), msg)

    key = bytes(32)
    good = {"seats": [{"seat": 0, "key": key, "name": "hedi"}, None]}
    assert isinstance(parse(good), Lobby)
    cases = {
        "no list of seats": {"seats": "x"},
        "1 seats (a table has 2 to 4)": {"seats": [None]},
        "seat 1 is not a map": {"seats": [None, 3]},
        "seat 0's key is not 32 bytes": {"seats": [{"key": b"k", "name": "a"}, None]},
        "seat 0's name is not 1 to 32 characters": {"seats": [{"key": key, "name": ""},
                                                             None]},
        "seat 0's name is not printable": {"seats": [{"key": key, "name": "a\u202e"},
                                                     None]},
    }
    for why, msg in cases.items():
        bad = parse(msg)
        assert isinstance(bad, Malformed) and bad.error.detail == why


class RenamingTable(HostTable):
    """Its lobbies give seat 0 another name (or, ``impostor``, another key)."""

    impostor = False

    def lobby_message(self) -> dict:
        msg = super().lobby_message()
        seat0 = dict(msg["seats"][0], name="Someone Else")
        if self.impostor:
            seat0["key"] = bytes(32)
        msg["seats"][0] = seat0
        return msg


class RenamingHost(HostPeer):
    table_class = RenamingTable


async def test_seat_0_is_the_host_the_greeting_named(tmp_path, autojump_clock):
    """The greeting's name and key are covered by the host's proof of possession; a
    lobby's are not: seat 0 keeps the greeting's name, and a lobby that seats another
    key at seat 0 is no table at all (in memory)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    table = InMemoryTable(tmp_path / "a", host_class=RenamingHost, name="hedi")
    outcomes = await table.run()
    assert all(out.completed for out in outcomes), [o for o in outcomes]
    lobbies = table.controllers[1].of(Lobby)
    assert lobbies and all(lb.seats[0][0] == "hedi" for lb in lobbies)
    impostor = InMemoryTable(tmp_path / "b", host_class=RenamingHost)
    impostor.host.core.impostor = True
    async with trio.open_nursery() as nursery:
        await nursery.start(impostor.host.run)
        out = await impostor.joiner(1).run()
        nursery.cancel_scope.cancel()
    assert out.error_code == OutcomeError.BAD_LOBBY
    assert out.error_reason == "no_table"
    assert out.error_data["detail"] == "seat 0 is not the host"


class _Recorder(BotController):
    """Records its events; ``back`` once seat 1 is reported back."""

    def __init__(self, seat: int) -> None:
        super().__init__("greedy", seat)
        self.events: list[object] = []
        self.back = trio.Event()

    def on_event(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, Resumed) and event.seat == 1:
            self.back.set()


@pytest.mark.parametrize("mode", ["close", "silent", "garbage"])
@pytest.mark.slow
async def test_a_saved_game_whose_address_answers_no_chkobba_host_is_kept(tmp_path, mode):
    """A saved game; at the host's address something accepts the connection and closes
    it, says nothing, or says nothing of our protocol (a port forward with nothing
    behind it, another program): like nobody listening, the joiner stops at once, says
    so, signs nothing, spends none of the host's allowance and keeps its saved state."""
    port = _free_tcp_port()
    identity = Identity.generate()
    state = tmp_path / "amel.state"
    await _abandoned_game(tmp_path, port, identity, state)
    log = tmp_path / "amel.chklog"
    before = read_log(log).bodies
    cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), identity=identity,
                              state_path=state)
    listener = trio.socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    await listener.bind(("127.0.0.1", port))
    listener.listen(16)
    accepted: list[trio.socket.SocketType] = []

    async def serve() -> None:
        while True:
            conn, _ = await listener.accept()
            accepted.append(conn)
            if mode == "close":
                conn.close()
            elif mode == "garbage":
                await conn.send(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4)

    recorder = _Recorder(1)
    with listener:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(serve)
            with trio.fail_after(cfg.timeouts.handshake + 20):
                out = await ClientPeer(cfg, recorder).run()
            nursery.cancel_scope.cancel()
    for conn in accepted:
        conn.close()
    assert len(accepted) == 1  # one try, not a retry loop
    assert out.error_reason == "no_host_answered"
    assert out.error_data == {"where": f"127.0.0.1:{port}"}
    assert out.error_code == OutcomeError.CONNECT_FAILED
    assert out.aborted is None and out.done is None
    assert not [e for e in recorder.events if isinstance(e, Waiting)]  # no countdown
    assert read_log(log).bodies == before  # nothing signed
    assert state.exists()


class _ImpostorHandshake(HostHandshake):
    """Another host's handshake that takes any resume as one of its own game's, at seat
    1, and announces the tightest limits it can (move 1 s, no time away)."""

    def on_hello(self, msg, body=None, have=0):
        from chkobba_p2p.link.messages import Hello
        if isinstance(msg, Hello) and msg.resume is not None:
            self.running = msg.resume[0]
            self.lobby.seat_of = lambda key: 1
        return super().on_hello(msg, body, 3)


def _host_with(handshake_class: type, base: type[HostTable] = HostTable) -> type[HostPeer]:
    """A host whose table greets with ``handshake_class`` (a hostile handshake)."""

    class Table(base):  # type: ignore[valid-type, misc]
        def handshake(self, allowance_left, move_used=None):
            hs = super().handshake(allowance_left, move_used)
            hs.__class__ = handshake_class
            return hs

    class Host(HostPeer):
        table_class = Table

    return Host


_ImpostorHost = _host_with(_ImpostorHandshake)


async def test_an_impostors_welcome_does_not_shorten_the_wait(tmp_path, autojump_clock):
    """Another key at the host's address welcomes our resume announcing limits {move 1,
    away 0}: nothing in a welcome is our host's word until its key is checked, so the
    joiner keeps the table's allowance, saved with the game (PROTOCOL.md 13: an impostor
    delays, never ends, a resume).  In memory: the impostor listens where our host did."""
    identity = Identity.generate()
    state = tmp_path / "seat1.state"
    gate = GatedController(2)
    table = InMemoryTable(tmp_path, controllers=[RecordingController(0), gate])
    async with trio.open_nursery() as nursery:  # a game; then both processes are gone
        await nursery.start(table.host.run)
        nursery.start_soon(table.joiner(1, identity=identity, state_path=state).run)
        await gate.holding.wait()
        nursery.cancel_scope.cancel()
    assert state.exists()
    played = len(table.connections_of(1))
    other = tmp_path / "other"
    other.mkdir()
    short = dataclasses.replace(FAST, reconnect=3.0)
    impostor_cfg = dataclasses.replace(
        table.host.config, port=table.host.port, identity=None,
        log_path=other / "host.chklog",
        timeouts=dataclasses.replace(FAST, reconnect=0.0, turn=1.0))
    recorder = RecordingController(1)
    async with trio.open_nursery() as nursery:
        await nursery.start(_ImpostorHost(impostor_cfg, RecordingController(0)).run)
        peer = table.joiner(1, recorder, identity=identity, state_path=state, timeouts=short)
        start = trio.current_time()
        out = await peer.run()
        nursery.cancel_scope.cancel()
    assert len(table.connections_of(1)) > played  # the impostor was met (and welcomed us)
    # The impostor's figures were never taken: the table's, as our host announced them
    # (kept with the saved game), and its allowance in full.
    table_limits = Limits(table.timeouts.turn, table.timeouts.reconnect)
    assert peer.host_limits == table_limits
    assert trio.current_time() - start >= table_limits.allowance
    waits = recorder.of(Waiting)
    assert waits and waits[0].seconds == table_limits.allowance
    assert out.aborted is not None and out.aborted.blamed_seat == 0


class _LyingHandshake(HostHandshake):
    """Says it holds a chain of 50 entries before any game."""

    def on_hello(self, msg, body=None, have=0):
        return super().on_hello(msg, body, have or 50)


_LyingHost = _host_with(_LyingHandshake, BadLobbyTable)


@pytest.mark.parametrize("silent", [False, True])
async def test_a_welcome_announcing_a_chain_it_never_sends_ends_the_join(tmp_path, silent,
                                                                        autojump_clock):
    """A welcome with have > 0 before any game, then no genesis and no usable lobby: the
    joiner stops within the handshake timeout, as for any host that sends no table."""
    table = InMemoryTable(tmp_path, host_class=_LyingHost)
    table.host.core.silent = silent
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        start = trio.current_time()
        out = await table.joiner(1).run()
        assert trio.current_time() - start < table.timeouts.handshake + 1
        nursery.cancel_scope.cancel()
    assert out.error_code == OutcomeError.BAD_LOBBY and out.table is None
    assert out.error_reason == "no_table"
    assert not (tmp_path / "seat1.chklog").exists()


async def test_a_restarted_host_waits_for_the_other_seats_rather_than_saying_they_left(
        tmp_path, autojump_clock):
    """The host's process dies and restarts from its log: it has not seen the other seats
    since, so it reports them waited for (``Waiting.awaited``), not as having lost their
    connection; once a seat is back, that mark is gone (a later drop is a drop).  In
    memory: the restarted host listens where the first one did."""
    gate = GatedController(2)
    table = InMemoryTable(tmp_path, controllers=[RecordingController(0), gate])
    cfg = dataclasses.replace(table.host.config, port=40999, identity=Identity.generate(),
                              state_path=tmp_path / "host.state")
    table.host = HostPeer(cfg, table.controllers[0])
    async with trio.open_nursery() as nursery:
        first = trio.CancelScope()

        async def run_first(task_status=trio.TASK_STATUS_IGNORED):
            with first:
                await table.host.run(task_status)

        await nursery.start(run_first)
        nursery.start_soon(table.joiner(1, identity=Identity.generate(),
                                        state_path=tmp_path / "seat1.state").run)
        await gate.holding.wait()
        first.cancel()  # the host's process dies: nothing sent
        restarted = RecordingController(0)
        host = HostPeer(cfg, restarted)
        assert host.session is not None  # resumed from its log
        await nursery.start(host.run)
        gate.release.set()
        await restarted.until(lambda c: any(isinstance(e, Resumed) and e.seat == 1
                                            for e in c.events))  # the joiner's retries
        assert 1 not in host.awaited_seats
        nursery.cancel_scope.cancel()
    waits = [e for e in restarted.events if isinstance(e, Waiting) and e.seat == 1]
    assert waits and waits[0].awaited and not waits[0].away
