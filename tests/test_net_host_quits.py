"""When the host quits -- resigns, leaves, or steps away -- its message reaches the
joining peers before the connections close: they see the end (or the host away) at once,
never after waiting out the host's allowance (PROTOCOL.md 13, 17)."""

from __future__ import annotations

import dataclasses

import trio
from test_net_support import FAST, GatedBot, host_config, join_config

from chkobba_p2p.net import ClientPeer, HostPeer
from chkobba_p2p.peer import BotController, LeftLobby, Lobby, OutcomeError, Waiting
from chkobba_p2p.wire import ErrorCode

#: A long allowance: a joiner that missed the host's message would wait a minute.
PATIENT = dataclasses.replace(FAST, reconnect=60.0, idle=30.0)
AT_ONCE = 15  # seconds: far below PATIENT.reconnect, generous for a loaded machine


class HostResigner(BotController):
    """Plays seat 0 and resigns at its ``at``-th play."""

    def __init__(self, at: int = 2) -> None:
        super().__init__("greedy", 0)
        self.at, self.plays = at, 0
        self.resigned: bool | None = None

    async def choose_play(self, hand):
        self.plays += 1
        if self.plays == self.at:
            self.resigned = self.resign()
            await trio.sleep_forever()  # the match ends; the peer cancels this
        return await super().choose_play(hand)


async def test_the_hosts_resignation_reaches_the_joiner_at_once(tmp_path):
    host_ctl = HostResigner()
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            cfg = dataclasses.replace(host_config(tmp_path), timeouts=PATIENT)
            out["host"] = await HostPeer(cfg, host_ctl).run(task_status)

        port = await nursery.start(run_host)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), timeouts=PATIENT)
        with trio.fail_after(AT_ONCE):
            out["guest"] = await ClientPeer(cfg, BotController("greedy", 1)).run()
    assert host_ctl.resigned is True
    for o in out.values():
        assert o.aborted is not None and o.aborted.resigned and o.aborted.by_seat == 0
        assert o.winner_side == 1


async def test_a_host_that_leaves_on_cancel_tells_the_joiner_at_once(tmp_path):
    """A host cancelled with ``leave_on_cancel`` (a normal end of its process) signs
    ``peer_left`` against itself; the joiner, waiting for its own move, gets it."""
    gate = GatedBot(2)
    out = {}
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            cfg = dataclasses.replace(host_config(tmp_path), timeouts=PATIENT,
                                      leave_on_cancel=True)
            with host_scope:
                await HostPeer(cfg, BotController("greedy", 0)).run(task_status)

        port = await nursery.start(run_host)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), timeouts=PATIENT)

        async def run_guest():
            out["guest"] = await ClientPeer(cfg, gate).run()

        nursery.start_soon(run_guest)
        await gate.holding.wait()
        host_scope.cancel()
        with trio.fail_after(AT_ONCE):
            while "guest" not in out:
                await trio.sleep(0.05)
    a = out["guest"].aborted
    assert a is not None and a.code is ErrorCode.PEER_LEFT
    assert a.by_seat == 0 and a.blamed_seat == 0  # the host's own record, not a claim


async def test_a_host_that_steps_away_is_shown_away_at_once(tmp_path):
    gate = GatedBot(2)
    out = {}
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()
        host_ctl = BotController("greedy", 0)

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            cfg = dataclasses.replace(host_config(tmp_path), timeouts=PATIENT)
            with host_scope:
                await HostPeer(cfg, host_ctl).run(task_status)

        port = await nursery.start(run_host)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), timeouts=PATIENT)
        guest = ClientPeer(cfg, gate)

        async def run_guest():
            out["guest"] = await guest.run()

        nursery.start_soon(run_guest)
        await gate.holding.wait()
        assert host_ctl.step_away()
        host_scope.cancel()
        with trio.fail_after(AT_ONCE):
            while not any(isinstance(e, Waiting) and e.seat == 0 for e in gate.events):
                await trio.sleep(0.05)
        away = [e for e in gate.events if isinstance(e, Waiting) and e.seat == 0]
        assert away[0].away  # stepped away, not "lost the connection"
        assert guest.session is not None and not guest.session.finished
        nursery.cancel_scope.cancel()


class LobbyEvents(BotController):
    """Records the events; ``seated`` once a lobby shows ``want`` seats taken, ``left``
    once a player left the table before the game."""

    def __init__(self, seat: int, want: int = 2) -> None:
        super().__init__("greedy", seat)
        self.want = want
        self.seated = trio.Event()
        self.left = trio.Event()
        self.events: list[object] = []

    def on_event(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, Lobby) and sum(s is not None for s in event.seats) >= self.want:
            self.seated.set()
        if isinstance(event, LeftLobby):
            self.left.set()


async def test_a_host_that_closes_its_table_in_the_lobby_tells_the_joiner(tmp_path):
    """The host's process ends before the game (its person left the lobby): the joiner
    is told the table is closed (``error shutdown``), not left with a bare closed
    connection and no reason; the host does not report the joiner as having left."""
    watcher = LobbyEvents(1)
    host_ctl = LobbyEvents(0)
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            cfg = dataclasses.replace(host_config(tmp_path, players=4), timeouts=PATIENT)
            with host_scope:
                await HostPeer(cfg, host_ctl).run(task_status)

        port = await nursery.start(run_host)
        cfg = dataclasses.replace(join_config(tmp_path, port, "amel"), timeouts=PATIENT)
        out = {}

        async def run_guest():
            out["guest"] = await ClientPeer(cfg, watcher).run()

        nursery.start_soon(run_guest)
        await watcher.seated.wait()
        host_scope.cancel()
        with trio.fail_after(AT_ONCE):
            while "guest" not in out:
                await trio.sleep(0.05)
    guest = out["guest"]
    assert guest.table is None and guest.aborted is None
    assert guest.error_code == OutcomeError.HOST_CLOSED
    assert guest.error == "the host closed the table before the game started"
    assert not host_ctl.left.is_set()  # the host closed it: nobody left


async def test_a_joiner_leaving_the_lobby_is_announced_to_the_host(tmp_path):
    host_ctl = LobbyEvents(0)
    async with trio.open_nursery() as nursery:
        cfg = dataclasses.replace(host_config(tmp_path, players=4), timeouts=PATIENT)
        port = await nursery.start(HostPeer(cfg, host_ctl).run)
        guest_scope = trio.CancelScope()

        async def run_guest():
            with guest_scope:
                await ClientPeer(join_config(tmp_path, port, "amel"),
                                 BotController("greedy", 1)).run()

        nursery.start_soon(run_guest)
        await host_ctl.seated.wait()
        assert not host_ctl.left.is_set()
        guest_scope.cancel()
        with trio.fail_after(AT_ONCE):
            await host_ctl.left.wait()
        nursery.cancel_scope.cancel()
    assert [e for e in host_ctl.events if isinstance(e, LeftLobby)] == [LeftLobby(1, "amel")]
    last = [e for e in host_ctl.events if isinstance(e, Lobby)][-1]
    assert last.seats[1] is None  # the seat is free again
