"""Chat: an unsigned link message the host relays with the sender's seat (never the
sender's word for it), rate-limited per connection, display-only.  The library's own
host and joining peers, in the lobby of a 4-seat table (no game needed: chat works from
the welcome on): in memory on trio's mock clock (chkobba_p2p.testing), and one test on
real loopback TCP."""

from __future__ import annotations

import pytest
import trio
from support.net import host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import MAX_CHAT, Chat, Lobby, SeatController, clean_chat
from chkobba_p2p.link import messages as lm
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.link.seat import ChatBucket
from chkobba_p2p.testing import InMemoryTable


class Watcher(SeatController):
    """Records events; ``until`` waits (without polling) for a condition on them."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self._changed = trio.Event()

    def on_event(self, event: object) -> None:
        self.events.append(event)
        self._changed.set()
        self._changed = trio.Event()

    def chats(self) -> list[tuple[int, str]]:
        return [(e.seat, e.text) for e in self.events if isinstance(e, Chat)]

    async def until(self, pred) -> None:
        with trio.fail_after(10):
            while not pred():
                await self._changed.wait()


def seated(n: int):
    def pred(w: Watcher) -> bool:
        lobbies = [e for e in w.events if isinstance(e, Lobby)]
        return bool(lobbies) and sum(s is not None for s in lobbies[-1].seats) == n
    return pred


async def test_chat_is_relayed_with_the_connection_seat_and_rate_limited(
        tmp_path, autojump_clock):
    host_w, a_w, b_w = Watcher(), Watcher(), Watcher()
    table = InMemoryTable(tmp_path, players=4, controllers=[host_w, a_w, b_w, Watcher()])
    async with trio.open_nursery() as nursery:
        await nursery.start(table.host.run)
        a = table.joiner(1)
        nursery.start_soon(a.run)
        await a_w.until(lambda: seated(2)(a_w))
        b = table.joiner(2)
        nursery.start_soon(b.run)
        for w in (host_w, a_w, b_w):
            await w.until(lambda w=w: seated(3)(w))

        # A joining peer's line reaches the host's controller and the other peer, with
        # its seat; its own controller sees it once (the host does not echo it back).
        assert a_w.send_chat("  hello, table  ")
        await host_w.until(lambda: (1, "hello, table") in host_w.chats())
        await b_w.until(lambda: (1, "hello, table") in b_w.chats())
        assert a_w.chats() == [(1, "hello, table")]

        # The host's own line reaches everyone, as seat 0.
        assert host_w.send_chat("marhba")
        await a_w.until(lambda: (0, "marhba") in a_w.chats())
        await b_w.until(lambda: (0, "marhba") in b_w.chats())
        assert host_w.chats()[-1] == (0, "marhba")

        # A forged seat is overwritten with the connection's.
        a.link.send_msg({"t": "chat", "seat": 0, "text": "I am the host"})
        await b_w.until(lambda: (1, "I am the host") in b_w.chats())
        assert (1, "I am the host") in host_w.chats()
        assert (0, "I am the host") not in host_w.chats() + b_w.chats()

        # Invalid lines are refused locally, and dropped by the host without closing
        # the connection when a peer sends them anyway.
        for bad in ("   ", "two\nlines", "bell\a", "x" * (MAX_CHAT + 1)):
            assert not a_w.send_chat(bad)
        a.link.send_msg({"t": "chat", "text": 42})
        a.link.send_msg({"t": "chat", "text": "tab\there"})
        assert a_w.send_chat("still here")
        await b_w.until(lambda: (1, "still here") in b_w.chats())
        assert [c for c in b_w.chats() if c[0] == 1] == \
            [(1, "hello, table"), (1, "I am the host"), (1, "still here")]

        # A burst of 10 (around the peer's own limit): the host lets 5 through.  After
        # the bucket refills one token, a last line shows all 10 were handled before it.
        for i in range(10):
            b.link.send_msg({"t": "chat", "text": f"spam {i}"})
        await trio.sleep(2.2)
        b.link.send_msg({"t": "chat", "text": "last"})
        await host_w.until(lambda: (2, "last") in host_w.chats())
        from_b = [text for seat, text in host_w.chats() if seat == 2]
        assert from_b == [f"spam {i}" for i in range(5)] + ["last"]
        await a_w.until(lambda: (2, "last") in a_w.chats())
        assert [text for seat, text in a_w.chats() if seat == 2] == from_b
        # No echo ever came back to the sender (it would have come before "last").
        assert [c for c in a_w.chats() if c[0] == 1] == [(1, "hello, table"), (1, "still here")]

        # The sender's own limit: 5 lines at once, then refused.
        assert [b_w.send_chat(f"mine {i}") for i in range(6)] == [True] * 5 + [False]
        nursery.cancel_scope.cancel()


def test_chat_bucket_refills_with_the_time_it_is_given():
    bucket = ChatBucket(burst=5, period=10.0)
    assert [bucket.take(100.0) for _ in range(6)] == [True] * 5 + [False]
    assert not bucket.take(101.9)
    assert bucket.take(102.1) and not bucket.take(102.1)  # 2 s: one token back
    # never more than the burst
    assert [bucket.take(162.1) for _ in range(6)] == [True] * 5 + [False]


def test_clean_chat():
    assert clean_chat("  salut  ") == "salut"
    assert clean_chat("é" * MAX_CHAT) == "é" * MAX_CHAT
    assert clean_chat("é" * (MAX_CHAT + 1)) is None
    assert clean_chat("") is None and clean_chat(" \t ") is None
    assert clean_chat("a\x00b") is None and clean_chat("a\u2028b") is None
    assert clean_chat(b"bytes") is None and clean_chat(None) is None


class FloodingTable(HostTable):
    """Once a joiner is seated, relays 30 lines "from" itself and 30 "from" seat 2, then
    one line from seat 3."""

    def _lobby_changed(self, now: float) -> None:
        super()._lobby_changed(now)
        if 1 in self.links and not getattr(self, "flooded", False):
            self.flooded = True
            for i in range(30):
                self._broadcast(lm.Chat(f"host {i}", 0))
                self._broadcast(lm.Chat(f"other {i}", 2))
            self._broadcast(lm.Chat("last", 3))


class FloodingHost(HostPeer):
    table_class = FloodingTable


@pytest.mark.slow
async def test_a_joiner_limits_the_chat_the_host_relays(tmp_path):
    """The joining peer applies the host's limit to each seat's relayed lines (5 at once,
    then one every 2 s): a flooding host cannot bury the game's events under chat."""
    watcher = Watcher()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(FloodingHost(host_config(tmp_path, players=4),
                                                Watcher()).run)
        nursery.start_soon(ClientPeer(join_config(tmp_path, port, "alice"), watcher).run)
        await watcher.until(lambda: (3, "last") in watcher.chats())
        nursery.cancel_scope.cancel()
    chats = watcher.chats()
    assert [t for s, t in chats if s == 0] == [f"host {i}" for i in range(5)]
    assert [t for s, t in chats if s == 2] == [f"other {i}" for i in range(5)]
    assert chats[-1] == (3, "last")
