"""A table's seat secret over loopback TCP (PROTOCOL.md 5.5; issue 42 item 5): a stranger
who knows the table's address but not its join code's secret is refused at once
(``secret_required``: no seat taken, nothing to free), a wrong secret too
(``secret_wrong``), and the friend with the whole join code sits.  MockClock where a test
takes one (``patient_clock``: the sockets are real)."""

from __future__ import annotations

import pytest
import trio
from support.net import host_config, join_config
from test_net_table import Person

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import JoinConfig, Outcome
from chkobba_p2p.address import new_secret
from chkobba_p2p.wire.codec import Identity

HOST = Identity.generate()


@pytest.mark.slow
async def test_the_stranger_is_refused_and_the_friend_with_the_join_code_sits(
        tmp_path, patient_clock):
    secret = new_secret()
    host_ctl, friend_ctl = Person(0), Person(1)  # nobody confirms: the seat is the point
    host = HostPeer(host_config(tmp_path, identity=HOST, secret=secret), host_ctl)
    out: dict[str, Outcome] = {}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            stranger = ClientPeer(join_config(tmp_path, port, "mallory"), Person(2))
            out["stranger"] = await stranger.run()
            wrong = ClientPeer(join_config(tmp_path, port, "mallory", secret=new_secret()),
                               Person(3))
            out["wrong"] = await wrong.run()
            assert host.core.lobby.seats[1] is None  # nothing taken
            code = f"127.0.0.1:{port}#{HOST.fingerprint}+{secret}"
            friend = ClientPeer(JoinConfig(code, name="sami", log_path=tmp_path / "s.chklog",
                                           timeouts=join_config(tmp_path, port, "x").timeouts),
                                friend_ctl)
            nursery.start_soon(friend.run)
            await friend_ctl.asked.wait()  # seated at a full table, asked to confirm
            assert host.core.lobby.seats[1].name == "sami"
            # (The match itself: tests/e2e/test_seat_secret_processes.py, real processes.)
            nursery.cancel_scope.cancel()
    assert out["stranger"].error_code == "secret_required"
    assert out["stranger"].error_reason == "refused"
    assert "join code" in str(out["stranger"].error_data["host_text"])
    assert out["wrong"].error_code == "secret_wrong"


@pytest.mark.slow
async def test_a_friend_dropped_mid_game_resumes_proving_the_secret_again(tmp_path):
    """Review of issue 42: a key that sat with the secret proves it again on its resume
    (PROTOCOL.md 5.5); the joiner's link keeps the code's secret for every connection,
    so a dropped friend comes back and the match completes."""
    from support.net import GatedBot, RecordingBot, cut_the_wire

    from chkobba_p2p._shell.peer import Resumed

    secret = new_secret()
    gate, host_ctl = GatedBot(gate_at=3), RecordingBot(0)
    host = HostPeer(host_config(tmp_path, identity=HOST, secret=secret), host_ctl)
    out: dict[str, Outcome] = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host.run(task_status)

        port = await nursery.start(run_host)
        code = f"127.0.0.1:{port}#{HOST.fingerprint}+{secret}"
        guest = ClientPeer(JoinConfig(code, name="sami", log_path=tmp_path / "s.chklog",
                                      timeouts=join_config(tmp_path, port, "x").timeouts),
                           gate)
        nursery.start_soon(cut_the_wire, gate, guest)
        out["guest"] = await guest.run()
    assert out["host"].completed and out["guest"].completed, out
    assert any(isinstance(e, Resumed) and e.seat == 1 for e in host_ctl.events)
    assert HOST.public not in host.core.lobby.proven
    assert host.core.lobby.proven == {guest.identity.public}


@pytest.mark.slow
async def test_a_friend_back_from_a_crash_with_the_bare_address_still_proves_the_secret(
        tmp_path):
    """The seat's saved game keeps the secret its join code carried (0600, beside the
    deal secrets): a friend whose process died comes back with the bare address (a
    table picked on the LAN: codes there carry no secret) and resumes, proving it."""
    from support.net import GatedBot

    from chkobba_p2p._shell.peer import BotController
    from chkobba_p2p.wire.logfile import SavedGame

    secret = new_secret()
    identity, state = Identity.generate(), tmp_path / "sami.state"
    gate = GatedBot(gate_at=2)
    out: dict[str, Outcome] = {}
    host = HostPeer(host_config(tmp_path, identity=HOST, secret=secret),
                    BotController("greedy", 0))
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host.run(task_status)

        port = await nursery.start(run_host)
        code = f"127.0.0.1:{port}#{HOST.fingerprint}+{secret}"
        timeouts = join_config(tmp_path, port, "x").timeouts
        async with trio.open_nursery() as crashing:  # the friend's first process dies
            crashing.start_soon(ClientPeer(JoinConfig(
                code, name="sami", identity=identity, state_path=state,
                log_path=tmp_path / "s.chklog", timeouts=timeouts), gate).run)
            await gate.holding.wait()
            crashing.cancel_scope.cancel()
        saved = SavedGame.load(state)
        assert saved is not None and saved.seat_secret == secret
        with trio.fail_after(60):
            out["back"] = await ClientPeer(JoinConfig(
                f"127.0.0.1:{port}", name="sami", identity=identity, state_path=state,
                log_path=tmp_path / "s.chklog", timeouts=timeouts),
                BotController("greedy", 1)).run()
    assert out["back"].completed, out["back"]
    assert out["host"].completed and out["host"].done == out["back"].done


@pytest.mark.slow
async def test_a_host_back_from_a_crash_keeps_the_secret_its_seats_proved(tmp_path):
    """The host's saved game keeps its seat secret: restarted (the command makes a new
    secret each run), it checks the seats' returns against the one they proved, so a
    resume is never taken on the key alone (a local bot's key is well known); the
    friend comes back and the match completes."""
    import dataclasses
    import socket

    from support.net import GatedBot

    from chkobba_p2p._shell.peer import BotController
    from chkobba_p2p.wire.logfile import SavedGame

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    secret, friend = new_secret(), Identity.generate()
    state = tmp_path / "host.state"
    first = dataclasses.replace(host_config(tmp_path, identity=HOST, secret=secret),
                                port=port, state_path=state)
    gate = GatedBot(gate_at=2)
    code = f"127.0.0.1:{port}#{HOST.fingerprint}+{secret}"
    timeouts = join_config(tmp_path, port, "x").timeouts
    out: dict[str, Outcome] = {}
    async with trio.open_nursery() as nursery:
        host_gate = trio.CancelScope()

        async def run_first_host(task_status=trio.TASK_STATUS_IGNORED):
            with host_gate:  # the host's process dies
                await HostPeer(first, BotController("greedy", 0)).run(task_status)

        await nursery.start(run_first_host)

        async def run_friend():
            out["friend"] = await ClientPeer(JoinConfig(
                code, name="sami", identity=friend, log_path=tmp_path / "s.chklog",
                timeouts=timeouts), gate).run()

        nursery.start_soon(run_friend)
        await gate.holding.wait()
        host_gate.cancel()
        saved = SavedGame.load(state)
        assert saved is not None and saved.seat_secret == secret
        again = dataclasses.replace(first, secret=new_secret())  # a new run's own
        host = HostPeer(again, BotController("greedy", 0))
        assert host.core.lobby.former_secret == secret
        assert host.core.lobby.proven == {friend.public}

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host.run(task_status)

        await nursery.start(run_host)
        gate.release.set()
    assert out["host"].completed and out["friend"].completed, out
    assert out["host"].done == out["friend"].done
