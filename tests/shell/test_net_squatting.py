"""Lobby squatting over loopback TCP (issue 42 item 5; PROTOCOL.md 5.3): a stranger who
knows the table's address takes the free seat and answers pings but never confirms the
table; the friend's join is refused (the table is full) until the ready check's time runs
out, then the friend sits and the match is played.  MockClock (``patient_clock``: the
sockets are real): the wait costs nothing."""

from __future__ import annotations

import pytest
import trio
from support.net import FAST, host_config, join_config
from test_net_table import Person

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController, Outcome, ReadyLapsed
from chkobba_p2p.link.host import READY_WAIT
from chkobba_p2p.wire.codec import Identity


@pytest.mark.slow
async def test_a_squatter_that_never_confirms_is_freed_and_the_friend_sits(
        tmp_path, patient_clock):
    host_ctl, squatter_ctl = Person(0), Person(1)
    host_ctl.ready.set()  # the host's person confirms; the stranger never does
    host = HostPeer(host_config(tmp_path), host_ctl)
    out: dict[str, Outcome] = {}
    with trio.fail_after(10 * READY_WAIT):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await host.run(task_status)

            port = await nursery.start(run_host)
            squatter = ClientPeer(join_config(tmp_path, port, "mallory"), squatter_ctl)

            async def run_squatter():
                out["squatter"] = await squatter.run()

            nursery.start_soon(run_squatter)
            await squatter_ctl.asked.wait()  # seated at a full table, asked to confirm
            full_at = trio.current_time()
            # The friend, meanwhile: every seat is taken.
            early = ClientPeer(join_config(tmp_path, port, "sami"), BotController("greedy"))
            assert (await early.run()).error_code == "table_full"
            await host_ctl.until(lambda: any(isinstance(e, ReadyLapsed)
                                             for e in host_ctl.events))
            freed_after = trio.current_time() - full_at
            # Pings kept the stranger's connection alive all along (idle: FAST.idle);
            # only the ready check's time freed the seat, not a minute later.
            assert READY_WAIT <= freed_after < READY_WAIT + 1 and FAST.idle < READY_WAIT
            lapsed = [e for e in host_ctl.events if isinstance(e, ReadyLapsed)]
            assert lapsed == [ReadyLapsed(1, "mallory", 60)]
            friend = ClientPeer(join_config(tmp_path, port, "sami"), BotController("greedy"))
            out["friend"] = await friend.run()
    assert out["squatter"].error_code == "ready_timeout"
    assert out["squatter"].error_reason == "lobby_ended"
    assert out["squatter"].error_data["code"] == "ready_timeout"
    assert out["friend"].completed and out["host"].completed
    assert out["friend"].seat == 1
    assert out["host"].done == out["friend"].done


@pytest.mark.slow
async def test_a_host_that_admits_only_its_friends_key_refuses_the_stranger(
        tmp_path, patient_clock):
    """``chkobba host --headless --allow FINGERPRINT``: nobody at the host frees a seat,
    so the table names who may sit; the stranger is refused at once, the friend plays."""
    friend = Identity.generate()
    host = HostPeer(host_config(tmp_path, admits=(friend.fingerprint,)),
                    BotController("greedy"))
    out: dict[str, Outcome] = {}
    with trio.fail_after(10 * READY_WAIT):
        async with trio.open_nursery() as nursery:
            async def run_host(task_status=trio.TASK_STATUS_IGNORED):
                out["host"] = await host.run(task_status)

            port = await nursery.start(run_host)
            stranger = ClientPeer(join_config(tmp_path, port, "mallory"),
                                  BotController("greedy"))
            out["stranger"] = await stranger.run()
            out["friend"] = await ClientPeer(
                join_config(tmp_path, port, "sami", identity=friend),
                BotController("greedy")).run()
    assert out["stranger"].error_code == "seat_refused"
    assert out["friend"].completed and out["host"].completed
