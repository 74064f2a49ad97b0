"""Drops: a peer whose connection breaks comes back and the match completes; a peer that
never comes back ends the game, after a visible countdown, with a signed record of who
left."""

from __future__ import annotations

import dataclasses
import socket

import trio
from support.net import FAST, GatedBot, host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import (
    BotController,
    Notice,
    NoticeKind,
    OutcomeError,
    Resumed,
    Waiting,
    host_match,
)
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.testing import GatedController, InMemoryTable, RecordingController
from chkobba_p2p.wire.codec import ErrorCode, open_entry
from chkobba_p2p.wire.logfile import read_log


class Recorder(BotController):
    def __init__(self, seed: int) -> None:
        super().__init__("greedy", seed)
        self.events: list[object] = []

    def on_event(self, event: object) -> None:
        self.events.append(event)


async def test_dropped_connection_reconnects_and_the_match_completes(tmp_path):
    gate = GatedBot(gate_at=3)
    host_ctl = Recorder(0)
    host = HostPeer(host_config(tmp_path), host_ctl)
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host.run(task_status)

        port = await nursery.start(run_host)
        guest = ClientPeer(join_config(tmp_path, port, "guest"), gate)

        async def cut_the_wire():
            await gate.holding.wait()
            await guest.link.stream.aclose()  # the connection dies under the guest
            gate.release.set()

        nursery.start_soon(cut_the_wire)
        out["guest"] = await guest.run()
    assert out["host"].completed and out["guest"].completed
    assert out["host"].done == out["guest"].done
    assert any(isinstance(e, Waiting) and e.seat == 1 for e in host_ctl.events)
    assert any(isinstance(e, Resumed) and e.seat == 1 for e in host_ctl.events)
    assert read_log(tmp_path / "host.chklog").bodies == \
        read_log(tmp_path / "guest.chklog").bodies


async def test_peer_that_never_returns_ends_the_game_with_a_signed_record(
        tmp_path, autojump_clock):
    timeouts = dataclasses.replace(FAST, reconnect=1.5)
    host_ctl = RecordingController(0)
    gate = GatedController(seed=2)
    out: dict[str, object] = {}
    ctls = [RecordingController(1), gate, RecordingController(3)]
    table = InMemoryTable(tmp_path, players=4, controllers=[host_ctl, *ctls],
                          timeouts=timeouts)
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await table.host.run(task_status)

        await nursery.start(run_host)

        async def guest(i: int) -> None:
            peer = table.joiner(i + 1)
            if i == 1:
                with trio.CancelScope() as scope:
                    nursery.start_soon(_vanish, gate, scope)
                    out[f"g{i}"] = await peer.run()
                return  # this peer's process "died": nothing more from it
            out[f"g{i}"] = await peer.run()

        with trio.fail_after(30):
            async with trio.open_nursery() as guests:
                for i in range(3):
                    guests.start_soon(guest, i)
    host_out = out["host"]
    assert host_out.aborted is not None
    assert host_out.aborted.code is ErrorCode.PEER_LEFT
    left = host_out.aborted.blamed_seat
    assert left is not None and left != 0
    # The others saw the countdown and ended on the host's signed record.
    for i in (0, 2):
        o = out[f"g{i}"]
        assert o.aborted is not None and o.aborted.code is ErrorCode.PEER_LEFT
        assert o.aborted.by_seat == 0 and o.aborted.blamed_seat == left
        assert any(isinstance(e, Waiting) and e.seat == left for e in ctls[i].events)
    # The record is the last entry of the host's log, signed by seat 0.
    last = open_entry(read_log(tmp_path / "host.chklog").bodies[-1])
    assert last.kind == "abort" and last.seat == 0 and last.fields["blamed"] == left


async def test_a_cut_link_reconnects_in_memory_and_the_match_completes(
        tmp_path, autojump_clock):
    """The in-memory table's own cut: the joiner comes back on a new connection."""
    gate = GatedController(gate_at=3, seed=1)
    table = InMemoryTable(tmp_path, controllers=[RecordingController(0), gate])
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await table.host.run(task_status)

        await nursery.start(run_host)

        async def cut_the_wire():
            await gate.holding.wait()
            table.connections_of(1)[-1].cut()
            gate.release.set()

        nursery.start_soon(cut_the_wire)
        out["guest"] = await table.joiner(1).run()
    assert out["host"].completed and out["guest"].completed
    assert out["host"].done == out["guest"].done
    assert len(table.connections_of(1)) == 2
    host_ctl = table.controllers[0]
    assert any(e.seat == 1 for e in host_ctl.of(Waiting))
    assert any(e.seat == 1 for e in host_ctl.of(Resumed))
    assert read_log(tmp_path / "host.chklog").bodies == \
        read_log(tmp_path / "seat1.chklog").bodies


async def _vanish(gate, scope: trio.CancelScope) -> None:
    await gate.holding.wait()
    scope.cancel()


def _free_tcp_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_saved_game_the_host_does_not_know_is_kept_until_its_allowance_runs_out(
        tmp_path):
    """A peer whose saved game died with its host: the host's ``unknown_game`` refusal is
    unsigned (anyone at that address can send it), so it deletes nothing; the peer keeps
    trying for the host's allowance of time away, then ends its old game with its own
    signed record (a claim against the host) -- and the next run joins the new table."""
    from chkobba_p2p.wire.codec import Identity

    port = _free_tcp_port()
    identity = Identity.generate()
    state = tmp_path / "me.state"
    gate = GatedBot(gate_at=2)
    # The first table's allowance of time away is short, as the waits on it below.
    short = dataclasses.replace(FAST, reconnect=2.0)
    async with trio.open_nursery() as nursery:  # a first game, abandoned mid-hand
        cfg = dataclasses.replace(host_config(tmp_path), port=port, timeouts=short,
                                  log_path=tmp_path / "h1.chklog")
        await nursery.start(HostPeer(cfg, BotController("greedy", 0)).run)
        first = dataclasses.replace(join_config(tmp_path, port, "first"), identity=identity,
                                    state_path=state)
        nursery.start_soon(ClientPeer(first, gate).run)
        await gate.holding.wait()
        nursery.cancel_scope.cancel()
    assert state.exists()
    out = {}
    async with trio.open_nursery() as nursery:  # the same host address, a new table
        cfg = dataclasses.replace(host_config(tmp_path), port=port,
                                  log_path=tmp_path / "h2.chklog")

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(cfg, BotController("greedy", 0)).run(task_status)

        await nursery.start(run_host)
        stale = dataclasses.replace(join_config(tmp_path, port, "first"), identity=identity,
                                    state_path=state, timeouts=short)
        stale_seat = Recorder(1)
        with trio.fail_after(30):
            out["stale"] = await ClientPeer(stale, stale_seat).run()
        second = dataclasses.replace(join_config(tmp_path, port, "second"), identity=identity,
                                     state_path=state)
        with trio.fail_after(30):
            out["guest"] = await ClientPeer(second, BotController("greedy", 1)).run()
    old = out["stale"].aborted
    assert old is not None and (old.code, old.by_seat, old.blamed_seat) == (
        ErrorCode.PEER_LEFT, 1, 0)
    assert not old.proven  # the host's silence is this peer's word
    # The claim says what happened (the host answered), and the refusal was said once
    # (a notice), not once per retry.
    assert old.detail == "the host answered that it no longer has this game"
    refusals = [e for e in stale_seat.events if isinstance(e, Notice)
                and e.kind is NoticeKind.RESUME_REFUSED]
    # The code alone (the host said only its sentence): the client words it.
    assert [(n.code, n.number, n.detail) for n in refusals] == [
        ("unknown_game", int(ErrorCode.UNKNOWN_GAME), "")]
    assert out["stale"].error_code == "aborted"
    assert out["host"].completed and out["guest"].completed
    assert out["host"].done == out["guest"].done
    assert not state.exists()


class SilentTable(HostTable):
    """Seats everyone, sends the genesis, then never relays nor plays anything more."""

    def _entry_out(self, body: bytes) -> None:
        if open_entry(body).kind == "table":
            super()._entry_out(body)

    def _relay(self, from_seat: int, body: bytes, index: int) -> None:
        pass


class SilentHost(HostPeer):
    table_class = SilentTable


async def test_a_stalled_host_is_not_waited_for_forever(tmp_path, autojump_clock):
    timeouts = dataclasses.replace(FAST, turn=1.0, reconnect=1.0)
    table = InMemoryTable(tmp_path, timeouts=timeouts, host_class=SilentHost)
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        with trio.fail_after(20):
            out = await table.joiner(1).run()
        nursery.cancel_scope.cancel()
    # Either the host goes quiet on a live connection (timeout) or it closes and stays
    # away past its allowance (peer_left): the joiner concludes the host stops the game.
    assert out.aborted is not None
    assert out.aborted.code in (ErrorCode.TIMEOUT, ErrorCode.PEER_LEFT)
    assert out.aborted.blamed_seat == 0 and out.aborted.by_seat == 1
    assert not out.aborted.proven


class Clumsy(BotController):
    """First tries a move the rules refuse (a capture not on the table), then plays."""

    def __init__(self) -> None:
        super().__init__("greedy", 5)
        self.refused: list[object] = []
        self.tried = False

    async def choose_play(self, hand):
        if not self.tried:
            self.tried = True
            from chkobba_p2p.game.rules import Move

            card = next(c for c in hand.hand_of(hand.turn) if c is not None)
            return Move(card, frozenset([card]))  # "captures" itself: never on the table
        return await super().choose_play(hand)

    def on_event(self, event):
        from chkobba_p2p._shell.peer import ChoiceRefused

        if isinstance(event, ChoiceRefused):
            self.refused.append(event)


async def test_a_refused_choice_is_asked_again(tmp_path):
    clumsy = Clumsy()
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(host_config(tmp_path), clumsy).run(task_status)

        port = await nursery.start(run_host)
        out["guest"] = await ClientPeer(join_config(tmp_path, port, "g"),
                                        BotController("greedy", 2)).run()
    assert out["host"].completed and out["guest"].completed
    assert len(clumsy.refused) == 1


async def test_a_player_who_leaves_tells_the_others_at_once(tmp_path):
    """Ctrl-C (a cancelled peer with ``leave_on_cancel``) signs an abort peer_left blaming
    itself and sends it before closing: the host ends the game at once, long before its
    reconnect timeout, and both report the same signed record."""
    gate = GatedBot(gate_at=2)
    results = {}
    with trio.fail_after(FAST.reconnect - 2):  # well before the reconnect timeout
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                results["host"] = await host_match(host_config(tmp_path),
                                                   BotController("greedy", 0),
                                                   task_status=task_status)

            port = await nursery.start(run_host)
            guest_scope = trio.CancelScope()

            async def run_guest():
                with guest_scope:
                    cfg = join_config(tmp_path, port, "guest", leave_on_cancel=True)
                    results["guest"] = await ClientPeer(cfg, gate).run()

            nursery.start_soon(run_guest)
            await gate.holding.wait()  # mid-game
            guest_scope.cancel()
    host = results["host"]
    assert "guest" not in results  # cancelled: no outcome returned
    assert host.aborted is not None
    assert (host.aborted.code, host.aborted.blamed_seat, host.aborted.by_seat) == (
        ErrorCode.PEER_LEFT, 1, 1)
    assert host.error_code == OutcomeError.ABORTED
