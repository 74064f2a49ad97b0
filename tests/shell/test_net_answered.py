"""A join pinned to a key remembers the endpoint where that key proved itself (the
host's welcome, signed over this connection's own nonce) as soon as it did, not when the
join returns: a join ended by Ctrl-C in the lobby still keeps the table's place in a
later LAN list (``lan_answered``, PROTOCOL.md section 15; issue 42).  A greeting or a
refusal alone proves nothing (anyone can replay the one and write the other): nothing
is remembered then, nor for another key, nor without a pinned key.  Loopback TCP, on
trio's MockClock (``patient_clock``: the sockets are real)."""

from __future__ import annotations

import pytest
import trio
from support.net import host_config, join_config
from test_net_table import Person

from chkobba_p2p import AnsweredEndpoints
from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController, OutcomeError
from chkobba_p2p.wire.codec import Identity

HOST = Identity.generate()


@pytest.mark.parametrize("pinned", [True, False])
@pytest.mark.slow
async def test_the_endpoint_is_remembered_once_the_key_proved_itself_and_a_cancel_keeps_it(
        tmp_path, patient_clock, pinned):
    path = tmp_path / "lan_answered"
    host = HostPeer(host_config(tmp_path, identity=HOST), Person(0))
    joiner_ctl = Person(1)  # never confirms: the join is cut short in the lobby
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            joiner = ClientPeer(join_config(
                tmp_path, port, "sami", host_fingerprint=HOST.fingerprint if pinned else None,
                answered=AnsweredEndpoints(path)), joiner_ctl)
            nursery.start_soon(joiner.run)
            await joiner_ctl.asked.wait()  # welcomed and seated: the lobby
            if pinned:  # already on disk, while the join runs
                assert (HOST.fingerprint, "127.0.0.1", port) in AnsweredEndpoints(path)
            nursery.cancel_scope.cancel()  # Ctrl-C
    if pinned:
        assert path.read_text() == f"{HOST.fingerprint} 127.0.0.1 {port}\n"
    else:  # no key pinned: the list is of keys, nothing to keep
        assert not path.exists()


async def run_one_join(tmp_path, admits=None, **join) -> tuple[OutcomeError | str | None, int]:
    host = HostPeer(host_config(tmp_path, identity=HOST, admits=admits), Person(0))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            outcome = await ClientPeer(join_config(tmp_path, port, "sami", **join),
                                       BotController("greedy")).run()
            nursery.cancel_scope.cancel()
    return outcome.error_code, port


@pytest.mark.slow
async def test_another_key_or_a_refusal_is_not_remembered(tmp_path, patient_clock):
    path = tmp_path / "lan_answered"
    other = Identity.generate()
    # Another key at the address: refused before anything is written.
    code, _ = await run_one_join(tmp_path, host_fingerprint=other.fingerprint,
                                 answered=AnsweredEndpoints(path))
    assert code == OutcomeError.HOST_KEY_MISMATCH
    # The pinned key's greeting, then a refusal (unsigned): no proof, nothing kept.
    code, _ = await run_one_join(tmp_path, admits=(other.fingerprint,),
                                 host_fingerprint=HOST.fingerprint,
                                 answered=AnsweredEndpoints(path))
    assert code == "seat_refused"
    assert not path.exists()
