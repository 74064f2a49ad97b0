"""A host's own bot over loopback TCP (PROTOCOL.md 5.6; issue 42, bot vouchers): the bot
sits under a key derived from the host's identity with the host's voucher in its hello;
the host's lobby shows it, a joining person's lobby event checks it against the
greeting's key, and both logs' headers carry the voucher, from which the history reads
the seat as the host's bot of that level (and a rating may anchor it).  MockClock."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from support.net import host_config, join_config
from test_net_table import Person

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p.observe.history import games, index_logs
from chkobba_p2p.observe.vouch import bot_identity, check_voucher, voucher
from chkobba_p2p.wire.codec import Identity
from chkobba_p2p.wire.logfile import read_header

# Real hosts and joiners over loopback TCP: the slow tier.
pytestmark = pytest.mark.slow

HOST = Identity.generate()


async def test_the_hosts_bot_is_vouched_for_in_every_lobby_and_log(tmp_path,
                                                                   patient_clock):
    bot = bot_identity(HOST, "expert", 1)
    sig = voucher(HOST, bot.public, "expert")
    host_ctl, person = Person(0), Person(2)
    host_ctl.ready.set()
    person.ready.set()
    host = HostPeer(host_config(tmp_path, 3, identity=HOST), host_ctl)
    # Virtual seconds (autojump): the clock jumps whenever every task waits, on the real
    # sockets and the proof workers too, so a loaded machine spends more of them.
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            bot_peer = ClientPeer(join_config(tmp_path, port, "bot1", identity=bot,
                                              bot=("expert", sig)),
                                  BotController("greedy", 1))
            nursery.start_soon(bot_peer.run)
            await host_ctl.until(lambda: host.core.lobby.seats[1] is not None)
            guest = ClientPeer(join_config(tmp_path, port, "sami"), person)
            nursery.start_soon(guest.run)
            await person.got_cards.wait()
            await host_ctl.got_cards.wait()
            nursery.cancel_scope.cancel()
    seen = person.lobbies()[-1]
    assert seen.keys[1] == bot.public and seen.bots == (None, "expert", None)
    assert host_ctl.lobbies()[-1].bots == (None, "expert", None)
    for name in ("host", "sami", "bot1"):
        header = read_header(tmp_path / f"{name}.chklog")
        assert header is not None
        (b,) = header["bots"]
        assert (b["key"], b["level"]) == (bot.public, "expert")
        assert check_voucher(HOST.public, b["key"], b["level"], b["sig"])
    gs = games(index_logs(tmp_path, cache=None))
    assert gs and all(g.seats[1].vouched == "expert" and g.seats[2].vouched is None
                      for g in gs)


async def test_a_host_cannot_call_a_person_its_bot_in_the_persons_own_log(tmp_path,
                                                                          patient_clock):
    """A host that vouches for a person's key (it may sign anything) shows it in its
    lobby and writes it in its own log; the person's own log keeps no voucher for its
    own key, so its history never reads itself as the host's bot (and, a key anchored
    in one log and not in another being no anchor at all, no rating treats it as one)."""
    sami = Identity.generate()
    host_ctl, person = Person(0), Person(1)
    host_ctl.ready.set()
    person.ready.set()
    host = HostPeer(host_config(tmp_path, identity=HOST), host_ctl)
    host.core.lobby.bots[sami.public] = ("expert", voucher(HOST, sami.public, "expert"))
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            guest = ClientPeer(join_config(tmp_path, port, "sami", identity=sami), person)
            nursery.start_soon(guest.run)
            await person.got_cards.wait()
            await host_ctl.got_cards.wait()
            nursery.cancel_scope.cancel()
    host_header = read_header(tmp_path / "host.chklog")
    sami_header = read_header(tmp_path / "sami.chklog")
    assert host_header is not None and sami_header is not None
    assert [b["key"] for b in host_header["bots"]] == [sami.public]  # the host's word
    assert "bots" not in sami_header
