"""Bad input at a running host: a clear error code, a clean close, the game intact.

Each test runs a real host and a real joining peer in-process over loopback TCP, feeds the
host one kind of bad input from the side, and checks both the error the offender got and
that the match still completes for both peers.
"""

from __future__ import annotations

import trio
from support.net import GatedBot, RawClient, host_config, join_config

from chkobba_p2p._shell.peer import BotController, host_match
from chkobba_p2p.link.handshake import ClientHandshake
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity


async def _match(tmp_path, attack, *, host_ctl=None, guest_ctl=None, guest_identity=None):
    """Run a 2-player match; ``attack(port, host_ctl, guest_ctl, results)`` runs beside it.

    Without a controller given, the host's bot holds its first play until the attack is
    over: the game is then certainly running while the host is attacked."""
    if host_ctl is None and guest_ctl is None:
        gate = GatedBot(gate_at=1)
        inner = attack

        async def attack(port, h, g, results):
            await gate.holding.wait()
            await inner(port, h, g, results)
            gate.release.set()

        host_ctl = gate
    host_ctl = host_ctl or BotController("greedy", 0)
    guest_ctl = guest_ctl or BotController("greedy", 1)
    results = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            results["host"] = await host_match(host_config(tmp_path), host_ctl,
                                               task_status=task_status)

        port = await nursery.start(run_host)
        attacked = trio.Event()

        async def run_attack():
            await attack(port, host_ctl, guest_ctl, results)
            attacked.set()

        nursery.start_soon(run_attack)
        cfg = join_config(tmp_path, port, "guest", identity=guest_identity)
        from chkobba_p2p._shell.net import ClientPeer

        guest = ClientPeer(cfg, guest_ctl)
        results["peer"] = guest
        results["guest"] = await guest.run()
        with trio.fail_after(10):
            await attacked.wait()
    host, guest = results["host"], results["guest"]
    assert host.completed, host
    assert guest.completed, guest
    assert host.done == guest.done
    return results


async def _handshake_raw(port: int, identity: Identity) -> tuple[RawClient, dict]:
    raw = await RawClient.connect(port)
    hs = ClientHandshake(identity, "raw")
    await raw.send(hs.on_host(await raw.receive()))
    return raw, await raw.receive()


async def test_oversized_frame(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        assert (await raw.receive())["t"] == "host"
        await raw.send_raw((wire.MAX_FRAME + 1).to_bytes(4, "big") + b"\x80")
        err = await raw.until_error()
        assert err["code"] == ErrorCode.FRAME_TOO_LARGE

    await _match(tmp_path, attack)


async def test_malformed_msgpack(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        await raw.receive()
        await raw.send_raw(wire.frame(b"\xc1\x00\x01"))  # 0xc1 is never valid msgpack
        err = await raw.until_error()
        assert err["code"] == ErrorCode.MALFORMED

    await _match(tmp_path, attack)


async def test_unknown_message_type(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        await raw.receive()
        await raw.send({"t": "teleport", "where": "moon"})
        err = await raw.until_error()
        assert err["code"] == ErrorCode.UNKNOWN_TYPE

    await _match(tmp_path, attack)


async def test_slow_loris_is_cut_off(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        await raw.receive()
        await raw.send_raw(b"\x00\x00")  # half a length prefix, then nothing
        with trio.fail_after(5):
            err = await raw.until_error()
        assert err["code"] == ErrorCode.HANDSHAKE_TIMEOUT

    await _match(tmp_path, attack)


async def test_bad_proof_of_possession(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        hs = ClientHandshake(Identity.generate(), "thief")
        hello = hs.on_host(await raw.receive())
        hello["key"] = Identity.generate().public  # claims a key it cannot sign for
        await raw.send(hello)
        err = await raw.until_error()
        assert err["code"] == ErrorCode.BAD_PROOF_OF_POSSESSION

    await _match(tmp_path, attack)


async def test_second_connection_with_a_seated_identity(tmp_path):
    identity = Identity.generate()
    guest_ctl = GatedBot(gate_at=2)

    async def attack(port, host_ctl, guest_ctl_, results):
        await guest_ctl.holding.wait()  # the guest is seated and playing
        raw, reply = await _handshake_raw(port, identity)
        assert reply["t"] == "error" and reply["code"] == ErrorCode.ALREADY_SEATED
        assert await raw.receive() is None
        guest_ctl.release.set()

    await _match(tmp_path, attack, guest_ctl=guest_ctl, guest_identity=identity)


async def _inject_when(gate: GatedBot, results, make_bad, expect: ErrorCode):
    """When ``gate`` holds the floor, the guest's own link sends ``make_bad(session)``;
    the host must answer ``expect`` and close; the guest reconnects and the game goes on."""
    await gate.holding.wait()
    peer = results["peer"]
    session = peer.session
    link = peer.link
    before = session.length
    link.send(make_bad(session))
    with trio.fail_after(5):
        await link.eof.wait()
    assert link.error_code == expect
    assert peer.session.length == before
    gate.release.set()


async def test_bad_signature(tmp_path):
    gate = GatedBot(gate_at=2)

    def bad(session):
        entry = wire.make_entry(session.identity, game=session.table.game, seat=session.seat,
                                seq=session.chain.next_seq[session.seat], prev=session.head,
                                kind="turn", body={"d": []})
        sig = bytearray(entry.signature)
        sig[5] ^= 1
        return wire.encode({"t": "sig", "p": entry.payload, "s": bytes(sig)})

    await _match(tmp_path, lambda p, h, g, r: _inject_when(gate, r, bad,
                                                           ErrorCode.BAD_SIGNATURE),
                 guest_ctl=gate)


async def test_replayed_old_entry(tmp_path):
    gate = GatedBot(gate_at=2)

    def replay(session):
        # The guest's own ready, long accepted, sent again byte for byte.
        mine = [b for b in session.bodies
                if wire.open_entry(b).seat == session.seat]
        return mine[0]

    await _match(tmp_path, lambda p, h, g, r: _inject_when(gate, r, replay,
                                                           ErrorCode.BAD_SEQUENCE),
                 guest_ctl=gate)


async def test_entry_out_of_turn(tmp_path):
    host_gate = GatedBot(gate_at=2)

    def early(session):
        # The host holds the floor (its bot is thinking): a well-signed entry from the
        # guest now is out of turn.
        assert session.floor != session.seat
        return wire.make_entry(session.identity, game=session.table.game, seat=session.seat,
                               seq=session.chain.next_seq[session.seat], prev=session.head,
                               kind="turn", body={"d": []}).body

    await _match(tmp_path, lambda p, h, g, r: _inject_when(host_gate, r, early,
                                                           ErrorCode.OUT_OF_TURN),
                 host_ctl=host_gate)


async def test_slow_loris_after_the_handshake(tmp_path):
    """A seated peer that starts a frame and never finishes it is cut off (frame timeout);
    its identity then resumes with a real peer and the match completes."""
    identity = Identity.generate()
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host_match(host_config(tmp_path), BotController("greedy", 0),
                                           task_status=task_status)

        port = await nursery.start(run_host)
        raw, welcome = await _handshake_raw(port, identity)
        assert welcome["t"] == "welcome"
        await raw.send_raw(b"\x00\x00\x00\x40half")  # 64 bytes announced, 4 sent
        with trio.fail_after(10):
            err = await raw.until_error()
        assert err["code"] == ErrorCode.TIMEOUT
        from chkobba_p2p._shell.net import ClientPeer

        cfg = join_config(tmp_path, port, "again", identity=identity)
        out["guest"] = await ClientPeer(cfg, BotController("greedy", 1)).run()
    assert out["host"].completed and out["guest"].completed
    assert out["host"].done == out["guest"].done


async def test_turn_timeout_ends_the_game_blaming_the_silent_seat(tmp_path):
    import dataclasses

    from support.net import FAST

    cfg = dataclasses.replace(host_config(tmp_path),
                              timeouts=dataclasses.replace(FAST, turn=1.5))
    silent = GatedBot(gate_at=2)  # never released: the guest sits on the floor
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host_match(cfg, BotController("greedy", 0),
                                           task_status=task_status)

        port = await nursery.start(run_host)
        from chkobba_p2p._shell.net import ClientPeer

        with trio.fail_after(20):
            out["guest"] = await ClientPeer(join_config(tmp_path, port, "g"), silent).run()
    for o in out.values():
        assert o.aborted is not None and o.aborted.code is ErrorCode.TIMEOUT
        assert o.aborted.blamed_seat == 1 and o.aborted.by_seat == 0


async def test_resume_with_a_seated_identity_replaces_the_old_connection(tmp_path):
    """A resume (valid proof of possession, the running game) from an identity whose old
    connection still looks alive replaces that connection: a half-open socket must not
    lock its owner out until the idle timeout.  The displaced peer resumes in turn."""
    identity = Identity.generate()
    guest_ctl = GatedBot(gate_at=2)

    async def attack(port, host_ctl, guest_ctl_, results):
        await guest_ctl.holding.wait()  # the guest is seated and playing
        peer = results["peer"]
        old_link = peer.link
        raw = await RawClient.connect(port)
        hs = ClientHandshake(identity, "raw", resume=(peer.session.table.game, 0))
        await raw.send(hs.on_host(await raw.receive()))
        welcome = await raw.receive()
        assert welcome["t"] == "welcome" and hs.on_welcome(welcome) == peer.session.seat
        first = await raw.receive()  # the host replays the transcript from entry 0
        assert first["t"] == "sig" and wire.open_entry(wire.encode(first)).kind == "table"
        with trio.fail_after(5):
            await old_link.eof.wait()  # the old connection was closed by the host
        await raw.stream.aclose()
        guest_ctl.release.set()

    await _match(tmp_path, attack, guest_ctl=guest_ctl, guest_identity=identity)


async def test_hello_without_deal_capability_is_refused(tmp_path):
    async def attack(port, *_):
        raw = await RawClient.connect(port)
        hello = ClientHandshake(Identity.generate(), "nocaps").on_host(await raw.receive())
        hello["caps"] = ["resume/v1"]
        await raw.send(hello)
        err = await raw.until_error()
        assert err["code"] == ErrorCode.BAD_FIELD

    await _match(tmp_path, attack)


async def test_a_refused_join_reports_the_code(tmp_path):
    """Outcome.error_code names the refusal for programs (here: the game has started and
    this identity has no seat)."""
    from chkobba_p2p._shell.net import ClientPeer
    from chkobba_p2p._shell.peer import BotController

    async def attack(port, *_):
        late = ClientPeer(join_config(tmp_path, port, "late"), BotController("greedy", 3))
        out = await late.run()
        assert out.table is None and out.done is None
        assert out.error_code == "table_full", (out.error_reason, out.error_data)

    await _match(tmp_path, attack)
