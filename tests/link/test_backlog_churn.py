"""A backlog streamed with flow control, and spectators' comings and goings coalesced
(PROTOCOL.md 18).

The cores are pure (``link.backlog.Backlog``, ``link.spectators.SpectatorAnnouncer``):
Hypothesis drives them with any times.  The trio shell is checked on an in-memory
stream (a backlog far longer than the connection's queue arrives whole, in order, with
what was relayed meanwhile after it) and on a real host on loopback under a MockClock
(a spectator churning in a tight loop gives the players a bounded number of lines, the
last one true)."""

from __future__ import annotations

import dataclasses
import math
import socket

import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st
from support.audit import make_sessions
from support.frames import watch_message
from support.net import FAST, RawClient, host_config

from chkobba_p2p._shell import stream
from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p._shell.net import HostPeer
from chkobba_p2p._shell.peer import BotController
from chkobba_p2p._shell.stream import Link
from chkobba_p2p.bots.levels import make_bot
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.backlog import Backlog
from chkobba_p2p.link.events import Spectators
from chkobba_p2p.link.spectators import ANNOUNCE_WINDOW, SpectatorAnnouncer
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.logfile import SavedGame, TranscriptWriter

# ------------------------------------------------------------------ the pure cores

NAMES = st.lists(st.sampled_from(["amel", "bilel", "chaima"]), max_size=3, unique=True)
CHANGES = st.lists(st.tuples(st.floats(0, 12, allow_nan=False), NAMES.map(tuple)),
                   max_size=40)


@given(CHANGES, st.sampled_from([0.0, 1.0, ANNOUNCE_WINDOW]))
def test_announcements_keep_the_window_and_the_last_state_arrives(changes, window):
    """Any changes at any times, the shell's timer firing when due: no two announcements
    closer than the window; each says the state of its time; by the window's end after
    the last change, the last state has been announced."""
    core = SpectatorAnnouncer(window)
    now, state = 0.0, ()
    said: list[tuple[float, tuple[str, ...]]] = []

    def timer_until(t: float) -> None:  # the shell's timer, firing when due before t
        while (due := core.due) is not None and due <= t:
            news = core.tick(due)
            assert news.names == state
            said.append((due, news.names))

    for gap, names in changes:
        timer_until(now + gap)
        now += gap
        state = names
        news = core.changed(names, now)
        if news.names is not None:
            assert news.names == state
            said.append((now, news.names))
        assert news.due == core.due
        assert news.due is None or news.due > now
    last_change = now
    timer_until(math.inf)
    assert core.due is None
    for (t0, _), (t1, _) in zip(said, said[1:], strict=False):
        assert t1 >= t0 + window
    if said:
        assert said[-1][1] == state and said[-1][0] <= last_change + window
    else:
        assert state == ()  # nothing to say: nobody came, or they left unannounced
    for (_, a), (_, b) in zip(said, said[1:], strict=False):
        assert a != b  # a line says something new


def test_a_burst_is_one_line_now_and_one_at_the_windows_end():
    core = SpectatorAnnouncer(5.0)
    assert core.changed(("amel",), 100.0).names == ("amel",)
    for i in range(500):  # 500 comings and goings within a second
        news = core.changed(("amel", "x") if i % 2 == 0 else ("amel",), 100.0 + i / 500)
        assert news.names is None
        assert news.due == (105.0 if i % 2 == 0 else None)  # back as it was: nothing due
    core.changed(("amel", "bilel"), 100.9)
    assert core.tick(104.9).names is None
    assert core.tick(105.0).names == ("amel", "bilel") and core.due is None


@given(st.lists(st.binary(max_size=300), max_size=50), st.integers(-3, 60),
       st.integers(1, 1000))
def test_a_backlog_gives_every_entry_once_in_order(bodies, start, batch):
    backlog = Backlog(bodies, start)
    frozen = len(bodies)
    bodies.append(b"later")  # relayed live afterwards: not part of this backlog
    out: list[bytes] = []
    while not backlog.done:
        got = backlog.take(batch)
        assert got, "a batch never stalls"
        assert len(got) == 1 or sum(map(len, got)) <= batch
        out.extend(got)
    assert out == bodies[min(max(start, 0), frozen):frozen]
    assert backlog.take(batch) == [] and len(backlog) == 0


# ------------------------------------------------------------------ the trio shell


async def test_a_backlog_longer_than_the_queue_arrives_whole_with_live_frames_after():
    """10,000 entries (the queue holds 4,096 frames), a reader slower than the writer,
    and frames relayed meanwhile: all arrive, none twice, in order, and the link is not
    dropped."""
    here, there = trio.testing.memory_stream_pair()
    link = Link(here, FAST)
    backlog = [wire.encode({"t": "sig", "n": i, "pad": b"x" * 100}) for i in range(10_000)]
    got: list[dict] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.writer)
        link.send_msg({"t": "watching", "have": len(backlog)})
        link.send_backlog(backlog)
        decoder = wire.FrameDecoder()
        live = 0
        while len(got) < 1 + 10_000 + 100:
            data = await there.receive_some(4096)  # a small window: flow control
            got.extend(wire.decode(b) for b in decoder.feed(data))
            if live < 100:  # live traffic while the backlog streams
                link.send_msg({"t": "live", "n": live})
                backlog.append(wire.encode({"t": "sig", "n": -1}))  # grows: not resent
                live += 1
        link.finish()
        assert await there.receive_some(4096) == b""
    assert not link.closed or link.written.is_set()
    assert got[0]["t"] == "watching"
    assert [m["n"] for m in got[1:10_001]] == list(range(10_000))
    assert [m["n"] for m in got[10_001:]] == list(range(100))
    assert all(m["t"] == "live" for m in got[10_001:])


async def test_a_peer_that_lets_its_live_queue_fill_is_still_dropped():
    here, _there = trio.testing.memory_stream_pair()
    link = Link(here, FAST)  # no writer: nothing is taken off the queue
    link.send_backlog([b"x"] * 100_000)  # one place, whatever its length
    for _ in range(stream.QUEUE - 1):
        link.send(wire.encode({"t": "ping"}))
    assert not link.closed
    link.send(wire.encode({"t": "ping"}))
    assert link.closed


async def test_entries_relayed_one_by_one_to_a_reader_that_stopped_take_no_places():
    """A spectator that reads nothing while 20,000 entries are relayed one by one (the
    queue holds 4,096 frames): each entry extends the cursor queued last, so the link is
    never dropped; a frame of another kind between them keeps its place in the order."""
    here, there = trio.testing.memory_stream_pair()
    link = Link(here, FAST)  # no writer yet: the reader has stopped
    bodies: list[bytes] = []
    order: list[int | str] = []
    for i in range(20_000):
        bodies.append(wire.encode({"t": "sig", "n": i}))
        link.send_backlog(bodies, i, i + 1)
        order.append(i)
        if i % 1000 == 999:  # now and then a frame of another kind, in its place
            link.send_msg({"t": "wait", "n": f"w{i}"})
            order.append(f"w{i}")
    assert not link.closed
    got: list[int | str] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.writer)
        decoder = wire.FrameDecoder()
        while len(got) < len(order):
            data = await there.receive_some(65536)
            got.extend(wire.decode(b)["n"] for b in decoder.feed(data))
        link.finish()
    assert got == order  # every entry once, in order, the other frames where they were


async def test_a_cursor_is_not_extended_past_what_it_already_sent():
    """Once the writer has sent a backlog to its end, the next entry is queued anew: it
    is sent, once."""
    here, there = trio.testing.memory_stream_pair()
    link = Link(here, FAST)
    bodies = [wire.encode({"t": "sig", "n": 0})]
    decoder = wire.FrameDecoder()
    got: list[int] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.writer)
        link.send_backlog(bodies, 0, 1)
        while len(got) < 1:
            got.extend(wire.decode(b)["n"] for b in decoder.feed(await there.receive_some()))
        bodies.append(wire.encode({"t": "sig", "n": 1}))
        link.send_backlog(bodies, 1, 2)
        while len(got) < 2:
            got.extend(wire.decode(b)["n"] for b in decoder.feed(await there.receive_some()))
        link.finish()
        assert await there.receive_some() == b""
    assert got == [0, 1]


def test_the_host_relays_an_entry_to_a_spectator_as_a_cursor_into_the_transcript():
    """The host core's effect for a spectator is a cursor (SendBacklog) over the entry's
    place in the transcript; a seat still gets the frame itself."""
    from test_link_cores import Table

    from chkobba_p2p.link.seat import Send, SendBacklog

    table = Table(players=2)
    host = table.host
    effects: list = []
    real = table._carry

    inside = []

    def carry(seat, core, effect):
        if not inside:  # not the frames the harness carries out for a cursor
            effects.append(effect)
        inside.append(effect) if isinstance(effect, SendBacklog) else None
        try:
            real(seat, core, effect)
        finally:
            if isinstance(effect, SendBacklog):
                inside.pop()

    table._carry = carry  # type: ignore[method-assign]
    sid = host.spectator_arrived("spectator", "sam", table.now)
    table.run()
    table.fill()
    s = host.session
    assert s is not None and s.done is not None and sid in host.spectators
    sent = [e for e in effects if getattr(e, "to", None) == "spectator"]
    cursors = [e for e in sent if isinstance(e, SendBacklog)]
    assert cursors and all(e.end == e.start + 1 for e in cursors[1:])
    assert [e.start for e in cursors[1:]] == sorted(e.start for e in cursors[1:])
    assert not [e for e in sent if isinstance(e, Send) and e.body in s.bodies]


async def test_spectator_churn_gives_the_players_one_line_a_window(tmp_path, mock_clock):
    """A spectator coming and going in a tight loop, 60 times in no time (the clock
    stands still), then for 12 s, 30 times a second: the host's player gets at most one
    Spectators event per window, and once the churn stops, the true state (nobody but
    the one who stays)."""
    timeouts = Timeouts(handshake=60, frame=60, idle=600, reconnect=600, turn=900)
    host_ctl = _Events()
    host = HostPeer(dataclasses.replace(host_config(tmp_path, 2, spectators=4),
                                        timeouts=timeouts), host_ctl)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)

        async def watch(name: str) -> RawClient:
            c = await RawClient.connect(port)
            assert (await c.receive())["t"] == "host"
            await c.send(watch_message(name, 1))
            assert (await c.receive())["t"] == "watching"
            return c

        stays = await watch("stays")
        for _ in range(60):
            c = await watch("churn")
            await c.stream.aclose()
            await trio.testing.wait_all_tasks_blocked()
        for _ in range(12 * 30):
            mock_clock.jump(1 / 30)
            c = await watch("churn")
            await c.stream.aclose()
            await trio.testing.wait_all_tasks_blocked()
        end = trio.current_time()
        mock_clock.jump(timeouts.announce)
        await trio.testing.wait_all_tasks_blocked()
        seen = [(t, e.names) for t, e in host_ctl.events if isinstance(e, Spectators)]
        nursery.cancel_scope.cancel()
    assert seen and seen[-1][1] == ("stays",)
    assert seen[-1][0] <= end + timeouts.announce
    for (t0, _), (t1, _) in zip(seen, seen[1:], strict=False):
        assert t1 >= t0 + timeouts.announce
    assert len(seen) <= 12 / timeouts.announce + 2  # 840 changes: 3 or 4 lines
    await stays.stream.aclose()


class _Events(BotController):
    def __init__(self) -> None:
        super().__init__("greedy", 0)
        self.events: list[tuple[float, object]] = []

    def on_event(self, event: object) -> None:
        self.events.append((trio.current_time(), event))


# ------------------------------------------------- a long match, end to end (loopback)


def _long_match(entries: int) -> tuple[list, list]:
    """Two in-process sessions (greedy bots, a target of 1000 points) played on until
    their transcript holds ``entries`` entries: a long match, not over."""
    ss, ids = make_sessions(2, Ruleset(target=1000), False, key=b"a long match")
    bots = [make_bot("greedy", 1 + i) for i in range(2)]
    while ss[0].length < entries:
        for i, s in enumerate(ss):
            if s.floor != i:
                continue
            d = s.decision
            if d is not None:
                bot = bots[i]
                s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))
            entry = s.next_entry()
            s.take_events()
            if entry is not None:
                ss[1 - i].receive(entry)
                ss[1 - i].take_events()
    assert not ss[0].finished
    return ss, ids


def _save(path, session, identity, seat, host, bodies, state) -> None:
    w = TranscriptWriter(path)
    w.write_header(game=session.table.game, seat=seat, key=identity.public,
                   name=session.table.seats[seat].name, host=host)
    for body in bodies:
        w.append(body)
    w.close()
    SavedGame(session.table.game, seat, host, session.master, str(path)).save(state)


async def test_a_spectator_after_5000_entries_gets_every_entry(tmp_path):
    """The host restarts from a log of 5,000 entries; a spectator arrives and reads
    slowly (2 KiB at a time): it gets every entry, each once, in order, and is not cut
    off (it used to be, past 4,096 queued frames)."""
    (s0, s1), (id0, id1) = _long_match(5000)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    _save(tmp_path / "h.chklog", s0, id0, 0, f"port:{port}", s0.bodies, tmp_path / "h.state")
    cfg = dataclasses.replace(host_config(tmp_path, spectators=1), port=port, identity=id0,
                              state_path=tmp_path / "h.state",
                              log_path=tmp_path / "unused.chklog")
    host = HostPeer(cfg, BotController("greedy", 0))
    assert host.session is not None and host.session.length >= 5000
    got: list[bytes] = []
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            await nursery.start(host.run)
            watcher = await RawClient.connect(port)
            assert (await watcher.receive())["t"] == "host"
            await watcher.send(watch_message("late", 1))
            admitted = await watcher.receive()
            assert admitted["t"] == "watching"
            have = admitted["have"]
            # (The host's own bot may have signed its next turn since: the chain only grows.)
            assert 5000 <= have <= host.session.length
            bodies, watcher.frames = watcher.frames, []  # what it read past `watching`
            while len(got) < have:
                for body in bodies:
                    msg = wire.decode(body)
                    if msg["t"] == "sig":
                        got.append(body)
                    elif msg["t"] == "ping":
                        await watcher.send({"t": "pong"})
                data = await watcher.stream.receive_some(2048)  # a slow reader
                assert data, f"the host cut the spectator off after {len(got)} entries"
                bodies = watcher.decoder.feed(data)
            nursery.cancel_scope.cancel()
    assert len(got) >= have and got == host.session.bodies[:len(got)]  # live ones after
    assert host.error_code is None


async def test_a_host_flooding_a_spectator_with_who_is_watching_shows_one_line_a_window(
        tmp_path, mock_clock):
    """A hostile host sends ``spectators`` 500 times in no time, then keeps on for 12 s:
    the spectator's own client shows at most one line a window, and the last list."""
    from support.frames import spectators_message

    from chkobba_p2p._shell.watch import WatchConfig, watch_match
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.link.handshake import HostHandshake
    from chkobba_p2p.link.handshake import Lobby as Seating
    from chkobba_p2p.testing import MemoryNetwork
    from chkobba_p2p.wire.codec import Identity

    network = MemoryNetwork()
    listeners = await network.transport("192.0.2.10").listen(7777, "192.0.2.10")
    transport = network.transport("192.0.2.20")
    seen: list[tuple[float, tuple[str, ...]]] = []

    def on_event(event: object) -> None:
        if isinstance(event, Spectators):
            seen.append((trio.current_time(), event.names))

    async def hostile_host() -> None:
        stream = await listeners[0].accept()
        hs = HostHandshake(Seating(Identity.generate(), "h", Ruleset(), 2), None)
        await stream.send_all(wire.frame(wire.encode(hs.greeting())))
        decoder = wire.FrameDecoder()
        while not decoder.feed(await stream.receive_some(4096)):
            pass  # the spectator's watch
        await stream.send_all(wire.frame(wire.encode({"t": "watching", "id": 1, "have": 0})))
        for i in range(500):
            await stream.send_all(wire.frame(wire.encode(
                spectators_message((f"s{i}",), 8))))
        for i in range(12 * 10):
            mock_clock.jump(0.1)
            await stream.send_all(wire.frame(wire.encode(
                spectators_message((f"t{i}",), 8))))
        await trio.testing.wait_all_tasks_blocked()  # the spectator has read them all
        end = trio.current_time()
        mock_clock.jump(5.01)  # a window after the last change: the last list is shown
        await trio.testing.wait_all_tasks_blocked()
        assert seen and seen[-1][1] == ("t119",) and seen[-1][0] <= end + 5.01
        await stream.aclose()

    config = WatchConfig("192.0.2.10:7777", name="w", log_path=tmp_path / "w.chklog",
                         timeouts=Timeouts(idle=600, frame=60, handshake=60),
                         transport=transport)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hostile_host)
        await watch_match(config, on_event)
    assert len(seen) <= 12 / 5 + 2, seen
    for (t0, _), (t1, _) in zip(seen, seen[1:], strict=False):
        assert t1 >= t0 + 5
