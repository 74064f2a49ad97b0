"""What a person at the table relies on, over real loopback TCP: the ready check holds the
deal until every seated person confirmed the seats and fingerprints, and every player gets
their cards while the first to act is still thinking (early-deal/v1)."""

from __future__ import annotations

import pytest
import trio
from support.net import host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController, Lobby
from chkobba_p2p.game.rules import DealEvent, Ruleset
from chkobba_p2p.link.handshake import Lobby as SeatLobby
from chkobba_p2p.transcript.caps import CAP_READY_CHECK, CAPABILITIES
from chkobba_p2p.transcript.events import TableReady
from chkobba_p2p.wire.codec import Identity


class Person(BotController):
    """A bot seat that behaves like a person in the lobby: it is ready only when the test
    says so; it records what it is shown."""

    def __init__(self, seed: int, hold_first_play: bool = False) -> None:
        super().__init__("greedy", seed)
        self.ready = trio.Event()
        self.asked = trio.Event()
        self.events: list[object] = []
        self.changed = trio.Event()
        self.hold_first_play = hold_first_play
        self.holding = trio.Event()
        self.release = trio.Event()
        self.seat: int | None = None
        self.got_cards = trio.Event()
        self.mine: list = []

    async def ready_to_start(self, lobby: Lobby) -> None:
        self.asked.set()
        await self.ready.wait()

    async def choose_play(self, hand):
        if self.hold_first_play and not self.release.is_set():
            self.holding.set()
            await self.release.wait()
        return await super().choose_play(hand)

    def on_event(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, TableReady):
            self.seat = event.seat
        if isinstance(event, DealEvent) and self.seat in event.recipients:
            # (A cutter who keeps the drawn card gets it, then two more.)
            self.mine += [c for r, c in zip(event.recipients, event.cards, strict=True)
                          if r == self.seat]
            if len(self.mine) >= 3 and None not in self.mine:
                self.got_cards.set()
        self.changed.set()
        self.changed = trio.Event()

    def lobbies(self) -> list[Lobby]:
        return [e for e in self.events if isinstance(e, Lobby)]

    async def until(self, pred) -> None:
        while not pred():
            await self.changed.wait()


@pytest.mark.slow
async def test_the_deal_waits_until_every_person_is_ready(tmp_path):
    host_ctl, guest_ctl = Person(0), Person(1)
    host = HostPeer(host_config(tmp_path), host_ctl)
    out = {}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await host.run(task_status)

            port = await nursery.start(run_host)
            guest = ClientPeer(join_config(tmp_path, port, "guest"), guest_ctl)

            async def run_guest():
                out["guest"] = await guest.run()

            nursery.start_soon(run_guest)
            # The table is full: both people are asked, nobody has confirmed, no game.
            await host_ctl.asked.wait()
            await guest_ctl.asked.wait()
            await guest_ctl.until(lambda: any(lb.full for lb in guest_ctl.lobbies()))
            full = [lb for lb in guest_ctl.lobbies() if lb.full][-1]
            assert full.ready == (False, False)
            assert [s[0] for s in full.seats if s] == ["host", "guest"]
            assert host.session is None and guest.session is None
            # The guest presses Enter: everyone sees it; still no game.
            guest_ctl.ready.set()
            await host_ctl.until(lambda: host_ctl.lobbies()[-1].ready == (False, True))
            await guest_ctl.until(lambda: guest_ctl.lobbies()[-1].ready == (False, True))
            assert host.session is None
            # The host presses Enter: the game starts and runs to its end.
            host_ctl.ready.set()
    assert out["host"].completed and out["guest"].completed
    assert out["host"].done == out["guest"].done


@pytest.mark.slow
async def test_both_players_get_their_cards_while_the_first_to_play_thinks(tmp_path):
    ctls = [Person(0, hold_first_play=True), Person(1, hold_first_play=True)]
    for c in ctls:
        c.ready.set()
    host = HostPeer(host_config(tmp_path), ctls[0])
    out = {}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await host.run(task_status)

            port = await nursery.start(run_host)
            guest = ClientPeer(join_config(tmp_path, port, "guest"), ctls[1])

            async def run_guest():
                out["guest"] = await guest.run()

            nursery.start_soon(run_guest)
            first = trio.Event()

            async def watch(c: Person):
                await c.holding.wait()
                first.set()

            async with trio.open_nursery() as watchers:
                for c in ctls:
                    watchers.start_soon(watch, c)
                await first.wait()
                watchers.cancel_scope.cancel()
            thinker = next(c for c in ctls if c.holding.is_set())
            other = next(c for c in ctls if c is not thinker)
            # The other player holds its three cards while the first to play thinks.
            await other.got_cards.wait()
            await thinker.got_cards.wait()
            assert not thinker.release.is_set()
            for c in ctls:
                c.release.set()
    assert out["host"].completed and out["guest"].completed


def test_ready_check_seating_rules():
    """A start for an older seating does not count; a new face clears every ready; a
    joiner that does not speak ready-check/v1 counts as ready."""
    ids = [Identity.generate() for _ in range(4)]
    lobby = SeatLobby(ids[0], "host", Ruleset(), 4)
    lobby.take_seat(ids[1].public, "ana")
    old = lobby.seating
    lobby.take_seat(ids[2].public, "bo")
    assert not lobby.mark_ready(1, old)  # confirmed a seating with an empty seat 2
    assert lobby.mark_ready(1, lobby.seating)
    lobby.take_seat(ids[3].public, "old client",
                    tuple(c for c in CAPABILITIES if c != CAP_READY_CHECK))
    assert lobby.ready_flags() == [False, False, False, True]  # the new face clears ana
    for seat in (0, 1, 2):
        assert not lobby.all_ready
        assert lobby.mark_ready(seat, lobby.seating)
    assert lobby.all_ready
    msg = lobby.lobby_message()
    assert msg["ready"] == [True] * 4 and msg["seating"] == lobby.seating
    lobby.leave(2)
    assert not lobby.all_ready and lobby.ready_flags() == [False, False, False, True]
