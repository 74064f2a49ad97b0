"""When the host quits -- resigns, leaves, or steps away -- its message reaches the
joining peers before the connections close: they see the end (or the host away) at once,
never after waiting out the host's allowance (PROTOCOL.md 13, 17).  In memory on trio's
mock clock: "at once" is measured in the table's own time, not guessed with a margin."""

from __future__ import annotations

import dataclasses

import trio
from support.net import FAST

from chkobba_p2p._shell.peer import LeftLobby, Lobby, OutcomeError, Waiting
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.wire.codec import ErrorCode

#: A long allowance: a joiner that missed the host's message would wait a minute.
PATIENT = dataclasses.replace(FAST, reconnect=60.0, idle=30.0)
#: Seconds of the table's time within which "at once" holds (a few link round trips).
AT_ONCE = 1.0


class HostResigner(RecordingController):
    """Plays seat 0 and resigns at its ``at``-th play."""

    def __init__(self, at: int = 2) -> None:
        super().__init__(0)
        self.at, self.plays = at, 0
        self.resigned: bool | None = None

    async def choose_play(self, hand):
        self.plays += 1
        if self.plays == self.at:
            self.resigned = self.resign()
            await trio.sleep_forever()  # the match ends; the peer cancels this
        return await super().choose_play(hand)


def _table(tmp_path, host_ctl, guest_ctl, players: int = 2, **options) -> InMemoryTable:
    controllers = [host_ctl, guest_ctl,
                   *(RecordingController(seat) for seat in range(2, players))]
    return InMemoryTable(tmp_path, players, controllers=controllers, timeouts=PATIENT,
                         **options)


async def test_the_hosts_resignation_reaches_the_joiner_at_once(tmp_path, autojump_clock):
    host_ctl = HostResigner()
    table = _table(tmp_path, host_ctl, RecordingController(1))
    host, guest = await table.run()
    assert host_ctl.resigned is True
    for o in (host, guest):
        assert o.aborted is not None and o.aborted.resigned and o.aborted.by_seat == 0
        assert o.winner_side == 1


async def _cancel_host_when_holding(table: InMemoryTable, gate: GatedController,
                                    before=None) -> tuple[float, dict]:
    """Run the table; once the joiner holds the floor, cancel the host (after
    ``before()``); returns when that happened and the joiner's outcome (if it ended)."""
    out: dict = {}
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            with host_scope:
                await table.host.run(task_status)

        await nursery.start(run_host)

        seen = trio.Event()  # the joiner's game ended, or it shows the host away

        async def run_guest():
            out["guest"] = await table.joiner(1).run()
            seen.set()

        async def host_away():
            await gate.until(lambda g: any(isinstance(e, Waiting) and e.seat == 0
                                           for e in g.events))
            seen.set()

        nursery.start_soon(run_guest)
        nursery.start_soon(host_away)
        await gate.holding.wait()
        if before is not None:
            before()
        host_scope.cancel()
        cancelled = trio.current_time()
        await seen.wait()
        nursery.cancel_scope.cancel()
    return cancelled, out


async def test_a_host_that_leaves_on_cancel_tells_the_joiner_at_once(tmp_path,
                                                                      autojump_clock):
    """A host cancelled with ``leave_on_cancel`` (a normal end of its process) signs
    ``peer_left`` against itself; the joiner, waiting for its own move, gets it."""
    gate = GatedController(2)
    table = _table(tmp_path, RecordingController(0), gate, leave_on_cancel=True)
    cancelled, out = await _cancel_host_when_holding(table, gate)
    assert trio.current_time() - cancelled < AT_ONCE
    a = out["guest"].aborted
    assert a is not None and a.code is ErrorCode.PEER_LEFT
    assert a.by_seat == 0 and a.blamed_seat == 0  # the host's own record, not a claim


async def test_a_host_that_steps_away_is_shown_away_at_once(tmp_path, autojump_clock):
    gate = GatedController(2)
    host_ctl = RecordingController(0)
    table = _table(tmp_path, host_ctl, gate)
    cancelled, out = await _cancel_host_when_holding(
        table, gate, before=lambda: host_ctl.step_away() or 1 / 0)
    assert trio.current_time() - cancelled < AT_ONCE
    away = [e for e in gate.events if isinstance(e, Waiting) and e.seat == 0]
    assert away and away[0].away  # stepped away, not "lost the connection"
    assert "guest" not in out  # the game waits for the host: nothing ended


class LobbyEvents(RecordingController):
    """Records the events; ``seated`` once a lobby shows ``want`` seats taken, ``left``
    once a player left the table before the game."""

    def __init__(self, seat: int, want: int = 2) -> None:
        super().__init__(seat)
        self.want = want
        self.seated = trio.Event()
        self.left = trio.Event()

    def on_event(self, event: object) -> None:
        super().on_event(event)
        if isinstance(event, Lobby) and sum(s is not None for s in event.seats) >= self.want:
            self.seated.set()
        if isinstance(event, LeftLobby):
            self.left.set()


async def test_a_host_that_closes_its_table_in_the_lobby_tells_the_joiner(tmp_path,
                                                                           autojump_clock):
    """The host's process ends before the game (its person left the lobby): the joiner
    is told the table is closed (``error shutdown``), not left with a bare closed
    connection and no reason; the host does not report the joiner as having left."""
    watcher = LobbyEvents(1)
    host_ctl = LobbyEvents(0)
    table = _table(tmp_path, host_ctl, watcher, players=4)
    out = {}
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            with host_scope:
                await table.host.run(task_status)

        await nursery.start(run_host)

        async def run_guest():
            out["guest"] = await table.joiner(1).run()

        nursery.start_soon(run_guest)
        await watcher.seated.wait()
        host_scope.cancel()
        cancelled = trio.current_time()
    assert trio.current_time() - cancelled < AT_ONCE
    guest = out["guest"]
    assert guest.table is None and guest.aborted is None
    assert guest.error_code == OutcomeError.HOST_CLOSED
    assert guest.error_reason == "lobby_shutdown" and guest.error_data == {}
    assert not host_ctl.left.is_set()  # the host closed it: nobody left


async def test_a_joiner_leaving_the_lobby_is_announced_to_the_host(tmp_path, autojump_clock):
    host_ctl = LobbyEvents(0)
    table = _table(tmp_path, host_ctl, RecordingController(1), players=4)
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        guest_scope = trio.CancelScope()

        async def run_guest():
            with guest_scope:
                await table.joiner(1, name="amel").run()

        nursery.start_soon(run_guest)
        await host_ctl.seated.wait()
        assert not host_ctl.left.is_set()
        guest_scope.cancel()
        cancelled = trio.current_time()
        await host_ctl.left.wait()
        assert trio.current_time() - cancelled < AT_ONCE
        nursery.cancel_scope.cancel()
    assert host_ctl.of(LeftLobby) == [LeftLobby(1, "amel")]
    last = host_ctl.of(Lobby)[-1]
    assert last.seats[1] is None  # the seat is free again
