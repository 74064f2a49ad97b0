"""Hostile peers against the link's cores, in every state (no trio, no socket): a seat
that says anything in the lobby, in the game and after it, a host that sends anything to
a joiner.  Nothing raises out of a core, only the hostile side's connection is closed,
and no verdict ever blames an honest seat."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_link_cores import LIMITS, Table

from chkobba_p2p.link.events import Chat, Spectators
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.link.seat import Close, Decide, Emit
from chkobba_p2p.wire import codec as wire

WIRE_INT = st.integers(-(2**63), 2**64 - 1)
ANY = st.one_of(st.none(), st.booleans(), WIRE_INT, st.text(max_size=20),
                st.binary(max_size=20))
SEAT_TYPES = ["chat", "start", "away", "rematch", "ping", "pong", "sig", "lobby", "wait",
              "back", "welcome", "hello", "watch", "spectators", "x"]
SEAT_MSG = st.fixed_dictionaries(
    {"t": st.sampled_from(SEAT_TYPES)},
    optional={"text": st.text(max_size=300) | WIRE_INT,
              "seating": WIRE_INT | st.booleans() | st.none(),
              "accept": st.booleans() | WIRE_INT | st.none(),
              "seat": WIRE_INT | st.booleans(),
              "secs": WIRE_INT,
              "names": st.lists(ANY, max_size=70),
              "max": WIRE_INT,
              "p": st.binary(max_size=40),
              "s": st.binary(max_size=70)})
#: What the hostile seat does: a message of its own making, the replay of an entry of
#: the transcript so far (any seat's), or nothing but time passing.
ACTION = st.one_of(
    st.tuples(st.just("msg"), SEAT_MSG),
    st.tuples(st.just("replay"), st.integers(0, 200)),
    st.tuples(st.just("wait"), st.floats(0, 20)),
    st.tuples(st.just("forge"), st.tuples(
        st.sampled_from(["turn", "ready", "cut", "done", "abort", "deal", "x"]),
        st.dictionaries(st.sampled_from(["card", "take", "pos", "result", "code", "seat",
                                         "x"]), ANY, max_size=3),
        st.integers(-1, 1), st.booleans())),
)


def _hostile_table(players: int, hostile_plays: bool) -> Table:
    """A table whose game runs; seat 1's messages are the attacker's to send (its own
    core's entries go out only if ``hostile_plays``)."""
    table = Table(players=players, target=1)
    real = table._carry

    def carry(seat, core, effect):
        if seat == 1 and isinstance(effect, Decide) and not hostile_plays:
            return
        real(seat, core, effect)

    table._carry = carry  # type: ignore[method-assign]
    return table


def _settle(table: Table) -> None:
    """What the shell does: effects carried out; a closed seat's read loop ends."""
    table.run()
    for conn in list(table.closed):
        seat = table.conns.get(conn)
        if seat is not None and table.host.links.get(seat) == conn:
            table.host.seat_gone(conn, seat, table.now)
            table.run()


def _tick_all(table: Table) -> None:
    for core in (table.host, *table.seats.values()):
        core.tick(table.now)
    _settle(table)


def _assert_only_the_attacker_blamed(table: Table) -> None:
    for core in (table.host, *(c for s, c in table.seats.items() if s != 1)):
        s = core.session
        if s is not None and s.aborted is not None:
            # Blamed: the attacker, or nobody in an abort the attacker signed itself
            # (any seat may stop a game; "seat 1 ended the game, blaming nobody").
            a = s.aborted
            assert a.blamed_seat == 1 or (a.blamed_seat is None and a.by_seat == 1), \
                (core, a)
    assert set(table.closed) <= {"c1"}, table.closed


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["lobby", "game", "over"]), st.sampled_from([2, 4]),
       st.lists(ACTION, max_size=30))
def test_a_hostile_seat_in_any_state_gets_only_itself_blamed(state, players, script):
    """Seat 1 sends anything (sig before, during and after the game, rematch during
    it, start after it, chat floods, wait/back/spectators a seat may not send) in the
    lobby, in the game and once it is over, while time passes: nothing raises out of
    the host's table nor the honest joiners' links, only seat 1's connection is
    closed, and every verdict blames seat 1."""
    if state == "lobby":
        players = 4  # seats 0 and 1 only: the table stays a lobby
    table = _hostile_table(players, hostile_plays=state == "over")
    for n in range(1, players if state != "lobby" else 2):
        table.join(f"p{n}")
    host = table.host
    assert (host.session is None) == (state == "lobby")
    assert (host.session is not None and host.session.finished) == (state == "over")
    for kind, arg in script:
        conn = "c1"
        if kind == "wait":
            table.now += arg
            _tick_all(table)
            continue
        if conn in table.closed:
            continue
        if kind == "forge":  # signed with seat 1's own key, on the chain or near it
            s = host.session
            if s is None:
                continue
            k, fields, dseq, on_head = arg
            try:
                entry = wire.make_entry(
                    table.seats[1]._identity, game=s.table.game, seat=1,
                    seq=max(0, s.chain.next_seq[1] + dseq),
                    prev=s.chain.head if on_head else bytes(32), kind=k, body=fields)
            except Exception:  # noqa: BLE001 - a body make_entry itself refuses
                continue
            body, msg = entry.body, wire.decode(entry.body)
        elif kind == "replay":
            bodies = host.session.bodies if host.session is not None else []
            if not bodies:
                continue
            body = bodies[arg % len(bodies)]
            msg = wire.decode(body)
        else:
            msg = arg
            body = wire.encode(msg)
        going_on = host.seat_message(conn, 1, read_frame(body, msg), table.now)
        closes = [e for e in host.out if isinstance(e, Close)]
        assert all(e.to == conn and e.code is not None for e in closes)
        assert going_on == (not closes)
        _settle(table)
    # Then the clocks run out, whatever state the attack left.
    for _ in range(int(LIMITS.bound) + 2):
        table.now += 1.0
        _tick_all(table)
    _assert_only_the_attacker_blamed(table)


HOST_TYPES = ["ping", "pong", "sig", "lobby", "wait", "back", "away", "spectators",
              "rematch", "chat", "start", "welcome", "x"]
HOST_MSG = st.fixed_dictionaries(
    {"t": st.sampled_from(HOST_TYPES)},
    optional={"text": st.text(max_size=300) | WIRE_INT,
              "seat": WIRE_INT | st.booleans() | st.none(),
              "secs": WIRE_INT | st.floats(allow_nan=True) | st.none(),
              "away": ANY, "restart": ANY,
              "accept": st.booleans() | WIRE_INT | st.none(),
              "names": st.lists(ANY, max_size=70) | st.lists(st.text(max_size=40),
                                                              max_size=300),
              "max": WIRE_INT,
              "seats": st.lists(ANY | st.dictionaries(st.text(max_size=5), ANY,
                                                       max_size=3), max_size=6),
              "ready": st.lists(ANY, max_size=6),
              "seating": ANY,
              "p": st.binary(max_size=40),
              "s": st.binary(max_size=70)})


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["lobby", "game", "over"]),
       st.lists(st.tuples(HOST_MSG, st.floats(0, 3)), max_size=40))
def test_anything_a_host_sends_a_joiner_never_raises_nor_blames_another_seat(state, script):
    """A host's unsigned messages in the lobby, during a game and after it (wait/back for
    seats out of range, spectators with lists too long, rematch during the game, lobby
    after it, chat and spectator floods): the joiner's link raises nothing, shows at most
    its limits (5 chat lines a seat, one spectators line a window), and blames nobody
    but the host."""
    if state == "lobby":
        table = Table(players=4)
        table.join("p1")
    else:
        table = _hostile_table(2, hostile_plays=state == "over")
        table.fill()
    joiner = table.seats[1]
    joiner.take()
    start = table.now
    shown: list[object] = []
    for msg, dt in script:
        table.now += dt
        joiner.message("host", read_frame(wire.encode(msg), msg), table.now)
        joiner.tick(table.now)
        shown += [e.event for e in joiner.take() if isinstance(e, Emit)]
        assert not any(isinstance(e, Close) for e in joiner.out)
    if joiner.session is not None and joiner.session.aborted is not None:
        assert joiner.session.aborted.blamed_seat == 0
    span = table.now - start
    chats: dict[int, int] = {}
    for ev in shown:
        if isinstance(ev, Chat):
            chats[ev.seat] = chats.get(ev.seat, 0) + 1
    assert all(n <= 5 + span / 2 + 1 for n in chats.values()), chats
    lines = sum(isinstance(ev, Spectators) for ev in shown)
    assert lines <= 1 + span / joiner.watchers.announcer.window + 1
