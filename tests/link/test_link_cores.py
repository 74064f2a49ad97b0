"""The link's cores on their own: a host's table and joiners' links, joined in memory by
a synchronous loop that carries their effects (no trio, no socket, no clock: ``now`` is
a number the test moves).  Whole matches, a hostile seat's messages, the clocks'
verdicts and the joiner's rules about a host that stalls or goes away."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.bots.simple import GreedyBot
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.admission import AdmissionPolicy
from chkobba_p2p.link.door import DoorCore, DoorStep
from chkobba_p2p.link.events import Chat, RematchAnswer, RematchOffered, Spectators, Waiting
from chkobba_p2p.link.host import HostTable, Started
from chkobba_p2p.link.joiner import Committed, HandshakeStep, SeatLink
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.link.seat import (
    AskReady,
    CancelAsk,
    Close,
    Decide,
    Emit,
    Finished,
    Send,
    SendBacklog,
)
from chkobba_p2p.transcript.caps import CAP_REMATCH_OFFER, SPOKEN
from chkobba_p2p.transcript.clocks import CLOCK_TOLERANCE, Limits
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity

LIMITS = Limits(move=30.0, allowance=10.0)


def _frame(msg):
    """A map as the cores take it once read from a connection."""
    return read_frame(wire.encode(msg), msg)


@dataclass
class Table:
    """A host's table and its joiners' links, with every effect carried out at once."""

    players: int = 2
    target: int = 11
    now: float = 100.0
    host: HostTable = field(init=False)
    seats: dict[int, SeatLink] = field(default_factory=dict)
    conns: dict[str, int] = field(default_factory=dict)  # a connection's seat
    closed: dict[str, ErrorCode | None] = field(default_factory=dict)
    events: dict[int, list[object]] = field(default_factory=dict)
    sent: dict[str, list[dict]] = field(default_factory=dict)  # what a conn got
    #: Every seat's ``hold_bound`` (its controller answers within it; None: a person).
    hold_bound: float | None = None

    def __post_init__(self) -> None:
        rules = Ruleset(target=self.target)
        self.host = HostTable(Identity.generate(), "hedi", rules, self.players, False,
                              LIMITS, spectator_limit=2,
                              is_closed=lambda c: c in self.closed)
        self.host.hold_bound = self.hold_bound
        #: The host's door: every in-memory join runs its sans-IO handshake.
        self.door: DoorCore[str] = DoorCore(self.host, AdmissionPolicy(spectators=2))
        self.bots = {seat: GreedyBot() for seat in range(self.players)}
        self.events = {seat: [] for seat in range(self.players)}

    def join(self, seat_name: str, caps: tuple[str, ...] = SPOKEN) -> int:
        """A joiner's handshake, as the shells run it, and its seat (``caps``: what its
        hello announces)."""
        link = SeatLink(Identity.generate(), "host:7777", None, LIMITS)
        link.hold_bound = self.hold_bound
        # The lowest free seat is the one the host gives: the connection is named after it.
        seat = self.host.lobby.seats.index(None)
        conn = f"c{seat}"
        # A connection of that name before (its seat freed) is gone by now: the shell
        # tells the door when a connection ends.
        self.door.closed(conn)
        arrival = self.door.opened(conn, "192.0.2.1", self.now).arrival
        assert link.connect(seat_name, caps) == []  # the host greets first
        greeting = arrival.greeting()
        step = link.receive_handshake("host", greeting, read_frame(greeting), self.now)
        (hello,) = step.send
        body = wire.encode(hello)
        assert arrival.receive(body, read_frame(body), self.now) == DoorStep()
        self.conns[conn] = seat
        self.seats[seat] = link
        assert arrival.admit(self.now).seat == seat
        # The welcome is the first thing on the connection: the joiner checks it.
        first = self.host.out.pop(0)
        assert isinstance(first, Send) and first.to == conn
        step = link.receive_handshake("host", first.body, read_frame(first.body), self.now)
        assert step == HandshakeStep() and link.welcome_seat == seat
        assert link.state == "LOBBY" and not link.handshaking
        self.run()
        return seat

    def run(self) -> None:
        """Carry out effects until nothing is left to do."""
        busy = True
        while busy:
            busy = False
            for seat, core in [(0, self.host), *self.seats.items()]:
                effects = core.take()
                busy = busy or bool(effects)
                for effect in effects:
                    self._carry(seat, core, effect)

    def _carry(self, seat: int, core, effect) -> None:
        if isinstance(effect, Send):
            msg = wire.decode(effect.body)
            if seat == 0:
                self.sent.setdefault(effect.to, []).append(msg)
                if effect.to in self.closed:
                    return
                target = self.seats.get(self.conns.get(effect.to, -1))
                if target is not None:
                    target.message("host", read_frame(effect.body, msg), self.now)
            elif f"c{seat}" not in self.closed:
                self.host.seat_message(f"c{seat}", seat, read_frame(effect.body, msg), self.now)
        elif isinstance(effect, SendBacklog):
            assert seat == 0 and self.host.session is not None
            for body in self.host.session.bodies[effect.start:effect.end]:
                self._carry(0, core, Send(effect.to, body))
        elif isinstance(effect, Close):
            self.closed[effect.to] = effect.code
        elif isinstance(effect, Emit):
            self.events[seat].append(effect.event)
        elif isinstance(effect, Decide):
            hand = effect.decision.hand
            bot = self.bots[seat]
            choice = bot.choose_play(hand) if effect.decision.kind == "play" \
                else bot.choose_cut(hand)
            core.decide(effect.decision, choice, self.now)
        elif isinstance(effect, AskReady):
            core.confirmed(effect.lobby.seating, self.now) if seat == 0 \
                else core.confirmed(effect.lobby.seating)
        else:
            assert isinstance(effect, CancelAsk | Finished | Started | Committed) or \
                type(effect).__name__ == "SeatsMoved", effect

    def fill(self) -> None:
        for n in range(1, self.players):
            self.join(f"p{n}")


def test_a_whole_match_between_the_cores_with_no_io():
    table = Table(players=2)
    table.fill()
    host, joiner = table.host, table.seats[1]
    assert host.finished and joiner.finished
    assert host.session.done is not None
    assert joiner.session.done == host.session.done
    # Both hold the same transcript, byte for byte, and nothing was closed.
    assert joiner.session.bodies == host.session.bodies
    assert not table.closed


def test_a_four_seat_match_between_the_cores():
    table = Table(players=4, target=1)
    table.fill()
    done = table.host.session.done
    assert done is not None
    assert all(s.session.done == done for s in table.seats.values())


def test_the_host_relays_chat_with_the_seat_it_knows_and_its_limit():
    table = Table(players=4)
    table.join("p1")
    table.join("p2")
    for i in range(8):  # a burst: 5 go through, then the bucket is empty
        table.host.seat_message("c1", 1, _frame({"t": "chat", "seat": 3, "text": f"x{i}"}),
                                table.now)
    table.run()
    relayed = [m for m in table.sent["c2"] if m["t"] == "chat"]
    assert [(m["seat"], m["text"]) for m in relayed] == [(1, f"x{i}") for i in range(5)]
    assert [e for e in table.events[2] if isinstance(e, Chat)] == \
        [Chat(1, f"x{i}") for i in range(5)]
    table.now += 2.0  # one line every 2 s after the burst
    table.host.seat_message("c1", 1, _frame({"t": "chat", "text": "later"}), table.now)
    table.run()
    assert table.sent["c2"][-1] == {"t": "chat", "seat": 1, "text": "later"}


WIRE_INT = st.integers(-(2**63), 2**64 - 1)  # what msgpack can carry
JUNK = st.one_of(
    st.fixed_dictionaries({"t": st.sampled_from(["chat", "start", "away", "rematch", "ping",
                                                  "pong", "sig", "lobby", "wait", "back",
                                                  "welcome", "hello", "x"])},
                          optional={"text": st.text(max_size=300) | WIRE_INT,
                                    "seating": WIRE_INT | st.booleans() | st.none(),
                                    "accept": st.booleans() | WIRE_INT,
                                    "seat": st.integers(-1, 5),
                                    "p": st.binary(max_size=40),
                                    "s": st.binary(max_size=70)}),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2), JUNK, st.floats(0, 5)), max_size=25))
def test_hostile_messages_never_raise_and_close_only_their_sender(script):
    """Any message, in any order, at any time, from seated peers in the lobby: nothing
    raises out of the host's table; a connection it closes is the sender's, with a named
    code; the lobby's seats stay those of the people who joined."""
    table = Table(players=4)
    table.join("p1")
    table.join("p2")
    for seat, msg, dt in script:
        conn = f"c{seat}"
        if conn in table.closed:
            continue
        table.now += dt
        body = wire.encode(msg)
        going_on = table.host.seat_message(conn, seat, read_frame(body, msg), table.now)
        effects = table.host.out
        closes = [e for e in effects if isinstance(e, Close)]
        assert all(e.to == conn and e.code is not None for e in closes)
        assert going_on == (not closes)
        table.run()
        table.host.tick(table.now)
        table.run()
    assert [s.name if s else None for s in table.host.lobby.seats] == \
        ["hedi", "p1", "p2", None]
    assert table.host.session is None  # nobody can start a table that is not full


def _started_game(players: int = 2) -> Table:
    """A table whose game runs with seat 1 holding the floor (its bot never answers)."""
    table = Table(players=players)
    real = table._carry

    def carry(seat, core, effect):
        if isinstance(effect, Decide) and seat == 1:
            return  # seat 1's person thinks forever
        real(seat, core, effect)

    table._carry = carry  # type: ignore[method-assign]
    table.fill()
    s = table.host.session
    assert s is not None and not s.finished
    return table


def test_a_dropped_seat_gets_countdowns_then_the_signed_verdict_on_its_allowance():
    table = _started_game()
    host = table.host
    assert host.session.floor == 1
    table.closed["c1"] = None
    host.seat_gone("c1", 1, table.now)
    table.run()
    waits = [e for e in table.events[0] if isinstance(e, Waiting)]
    assert waits and waits[-1].seat == 1 and waits[-1].seconds == LIMITS.allowance
    start = table.now
    while not host.finished:
        wake = host.next_wake(table.now)
        assert wake > table.now - 1e-9
        table.now = wake
        host.tick(table.now)
        table.run()
        assert table.now - start < LIMITS.allowance + 2, "no verdict on time"
    aborted = host.session.aborted
    assert aborted is not None and aborted.blamed_seat == 1
    assert aborted.code is ErrorCode.PEER_LEFT
    # Countdowns came about once a second, going down.
    secs = [e.seconds for e in table.events[0] if isinstance(e, Waiting)]
    assert secs == sorted(secs, reverse=True) and len(secs) >= LIMITS.allowance - 1


def _time_away_runs_out(table: Table) -> None:
    host = table.host
    start = table.now
    while not host.finished:
        table.now = host.next_wake(table.now)
        host.tick(table.now)
        table.run()
        assert table.now - start < LIMITS.allowance + 2, "no verdict on time"


@pytest.mark.parametrize("crowd", ["none", "before", "while_away", "back_then_away"])
def test_no_flag_stands_for_time_away_while_strangers_were_let_go_for_room(crowd):
    """Strangers let go for room while a seat is away may have been that seat coming
    back (a flood turns the budget over faster than a knock arrives over Tor): its
    allowance still ends the game, but as no loss on time (PROTOCOL.md 12.3).  A crowd
    before it went away, or before an earlier return, does not excuse this absence."""
    table = _started_game()
    host = table.host
    assert host.session.phase == Phase.PLAYING and host.session.floor == 1
    if crowd == "before":
        host.strangers_let_go()
    table.closed["c1"] = None
    host.seat_gone("c1", 1, table.now)
    table.run()
    if crowd == "while_away":
        table.now += 1
        host.strangers_let_go()
    if crowd == "back_then_away":
        host.strangers_let_go()
        del table.closed["c1"]
        table.seats[1].lost()
        hs = host.handshake(lambda s: host.allowance_left_of(s, table.now))
        link = table.seats[1]
        ch = link.hello_for(link._identity, "b", SPOKEN)
        hello = ch.on_host(hs.greeting())
        welcome, seat, resume, replaced = host.on_hello(hs, hello, wire.encode(hello))
        host.seated("c1", seat, welcome, False, resume, replaced, table.now)
        assert 1 not in host.crowded_out
        table.closed["c1"] = None
        host.seat_gone("c1", 1, table.now)
    _time_away_runs_out(table)
    aborted = host.session.aborted
    assert aborted is not None and aborted.blamed_seat == 1
    assert aborted.code is ErrorCode.PEER_LEFT
    if crowd == "while_away":
        assert aborted.flag is None and not aborted.on_time
        assert "crowded" in aborted.detail
        assert aborted.loser is None and aborted.winner_side(2) is None
    else:
        assert aborted.flag == 1 and aborted.on_time


def test_a_joiners_allowance_for_its_host_is_spent_across_drops_then_claimed():
    table = _started_game()
    joiner = table.seats[1]
    joiner.lost()
    t0 = table.now
    assert joiner.unreachable(t0) is False  # the countdown starts
    waits = [e.event for e in joiner.take() if isinstance(e, Emit)
             and isinstance(e.event, Waiting)]
    assert waits == [Waiting(0, int(LIMITS.allowance), False)]
    assert joiner.unreachable(t0 + 4) is False
    joiner.reconnected(t0 + 4)  # back for a while: not the host's time away
    joiner.lost()
    assert joiner.unreachable(t0 + 100) is False
    assert joiner.unreachable(t0 + 100 + LIMITS.allowance - 4 - 0.5) is False
    assert joiner.unreachable(t0 + 100 + LIMITS.allowance - 4) is True
    aborted = joiner.session.aborted
    assert aborted is not None and aborted.blamed_seat == 0
    assert "unreachable" in aborted.detail


def test_a_joiner_names_the_hosts_refusal_in_its_claim():
    table = _started_game()
    joiner = table.seats[1]
    joiner.lost()
    assert joiner.refused(_frame({"t": "error", "code": int(ErrorCode.UNKNOWN_GAME), "msg": "?"})) \
        is False  # in a game an unsigned refusal proves nothing: retried
    assert joiner.unreachable(table.now) is False
    assert joiner.unreachable(table.now + LIMITS.allowance) is True
    assert "no longer has this game" in joiner.session.aborted.detail


def test_a_host_that_stalls_the_game_is_claimed_against_after_the_bound():
    table = _started_game()
    joiner = table.seats[1]
    s = joiner.session
    # Seat 1 holds the floor: nothing to conclude about the host while it is ours.
    assert s.floor == 1
    joiner.tick(table.now)
    joiner.tick(table.now + 10 * joiner.stalled_host_limit())
    assert not joiner.finished
    # The host's floor: pretend the host never plays (a stalled host) by ticking on.
    table2 = Table(players=2)
    real = table2._carry

    def carry(seat, core, effect):
        if isinstance(effect, Decide) and seat == 0:
            return  # the host never plays
        real(seat, core, effect)

    table2._carry = carry  # type: ignore[method-assign]
    table2.fill()
    joiner = table2.seats[1]
    assert joiner.session.floor == 0  # the host's turn came, and it never plays
    # The host's own move clock is one a joiner runs itself: past the move limit and the
    # tolerance for the entry's way, the joiner flags the host (PROTOCOL.md 12.6), as
    # the host flags a seat -- long before the bound of a claim.
    limit = joiner.limits().move + CLOCK_TOLERANCE
    assert limit < joiner.stalled_host_limit()
    joiner.tick(table2.now)
    joiner.tick(table2.now + limit - 0.5)
    assert not joiner.finished
    joiner.tick(table2.now + limit + 0.5)
    a = joiner.session.aborted
    assert joiner.finished and a.blamed_seat == 0 and a.flag == 0 and a.on_time
    assert a.winner_side(2) == 1


def test_rematch_answers_once_per_seat_and_a_seat_gone_answers_no():
    table = Table(players=4, target=1)
    table.fill()
    host = table.host
    assert host.finished
    host.seat_message("c1", 1, _frame({"t": "rematch", "accept": True}), table.now)
    host.seat_message("c1", 1, _frame({"t": "rematch", "accept": False}), table.now)
    table.closed["c2"] = None
    host.seat_gone("c2", 2, table.now)
    host.match_over()
    table.run()
    answers = [e for e in table.events[0] if isinstance(e, RematchAnswer)]
    assert answers == [RematchAnswer(1, True), RematchAnswer(2, False, left=True)]
    host.answered(True)
    table.run()
    assert {"t": "rematch", "accept": True} in table.sent["c3"]
    assert {"t": "rematch", "accept": True} not in table.sent.get("c2", [])


#: What a joiner of before the rematch offer announces (it still answers a rematch).
OLDER = tuple(c for c in SPOKEN if c != CAP_REMATCH_OFFER)
OFFER = {"t": "rematch-offer"}


def _offers(events: list[object]) -> list[object]:
    return [e for e in events if isinstance(e, RematchOffered | RematchAnswer)]


def test_the_hosts_rematch_offer_reaches_once_only_the_joiners_that_speak_it():
    """A mixed table: seat 1 speaks rematch-offer/v1, seat 2 is an older joiner.  The
    host's person presses r: seat 1 is told at once, before answering; seat 2 hears
    nothing new, and both read the host's final ``rematch`` as before."""
    table = Table(players=3, target=1)
    table.join("p1")
    table.join("p2", OLDER)
    host = table.host
    assert host.finished
    assert not host.offer_rematch()  # nobody asked about a rematch yet: nothing goes
    table.run()
    assert OFFER not in table.sent.get("c1", [])
    host.match_over()
    assert host.offer_rematch()
    assert not host.offer_rematch()  # once a match
    table.run()
    assert table.sent["c1"].count(OFFER) == 1
    assert OFFER not in table.sent["c2"]
    assert _offers(table.events[1]) == [RematchOffered(0)]
    assert _offers(table.events[2]) == []
    # The joiners answer knowing it; the host's answer keeps its old meaning.
    for seat in (1, 2):
        table.seats[seat].answer_rematch(True)
    table.run()
    assert [e for e in table.events[0] if isinstance(e, RematchAnswer)] == [
        RematchAnswer(1, True), RematchAnswer(2, True)]
    host.answered(True)
    table.run()
    assert not host.offer_rematch()  # answered: nothing to offer any more
    assert _offers(table.events[1]) == [RematchOffered(0), RematchAnswer(0, True)]
    assert _offers(table.events[2]) == [RematchAnswer(0, True)]
    assert table.closed == {}  # nobody broke a rule


@pytest.mark.parametrize("answer", [False, True])
def test_a_joiner_that_answered_already_is_not_offered_a_rematch(answer):
    """It declined, or it said yes and waits for the host's ``rematch``: "waits for your
    answer" would not be true of it."""
    table = Table(players=3, target=1)
    table.fill()
    table.seats[1].answer_rematch(answer)
    table.run()
    table.host.match_over()
    assert table.host.offer_rematch()
    table.run()
    assert OFFER not in table.sent["c1"] and table.sent["c2"].count(OFFER) == 1


@pytest.mark.parametrize("junk", [
    {"t": "rematch-offer", "accept": "yes", "seat": 3, "x": [1, {"y": b"z"}]},
    {"t": "rematch-offer", "t2": None},
])
def test_a_joiner_shows_the_offer_only_after_the_end_once_and_ignores_junk(junk):
    table = _started_game()
    joiner = table.seats[1]
    joiner.message("host", _frame(OFFER), table.now)  # early: the game still runs
    joiner.message("host", _frame(junk), table.now)
    assert joiner.take() == [] and not joiner.finished
    table = Table(target=1)
    table.fill()
    joiner = table.seats[1]
    assert joiner.finished
    joiner.message("host", _frame(junk), table.now)  # extra fields: still an offer
    joiner.message("host", _frame(OFFER), table.now)  # a second: nothing more
    assert [e.event for e in joiner.take()] == [RematchOffered(0)]
    later = Table(target=1)
    later.fill()
    late = later.seats[1]
    late.message("host", _frame({"t": "rematch", "accept": False}), later.now)
    late.message("host", _frame(OFFER), later.now)  # after the host's answer: stale
    assert [e.event for e in late.take()] == [RematchAnswer(0, False)]


def test_a_seat_that_sends_a_rematch_offer_to_the_host_is_refused():
    """The offer is the host's to send: from a seat it is a type the host's table does
    not read there (unknown_type), and only that seat's connection ends."""
    table = Table(players=3, target=1)
    table.fill()
    table.host.seat_message("c1", 1, _frame(OFFER), table.now)
    table.run()
    assert table.closed == {"c1": ErrorCode.UNKNOWN_TYPE}


def test_a_backlog_is_the_transcript_as_of_its_decision_not_as_of_its_sending():
    """A spectator admitted, then an entry made, before the shell carries anything out:
    the spectator gets that entry once (the backlog stops where the transcript stood
    when it was decided; the entry is then relayed), never twice."""
    table = _started_game()
    host = table.host
    s = host.session
    seen_before = len(s.bodies)
    host.spectator_arrived("w1", "amel", table.now)
    # Seat 1's move arrives before the shell has carried out the spectator's effects.
    joiner = table.seats[1]
    decision = joiner.session.decision
    assert decision is not None
    bot = table.bots[1]
    choice = bot.choose_play(decision.hand) if decision.kind == "play" \
        else bot.choose_cut(decision.hand)
    joiner.decide(decision, choice, table.now)
    for effect in joiner.take():
        if isinstance(effect, Send):
            host.seat_message("c1", 1, read_frame(effect.body), table.now)
    assert len(s.bodies) > seen_before
    table.run()
    got = [wire.encode(m) for m in table.sent["w1"] if m["t"] == "sig"]
    assert got == s.bodies, "every entry once, in order"



def test_a_seat_that_joins_after_a_spectator_is_told_who_watches():
    """Issue 43, item 2: the host announces spectators when the list changes; a seat
    welcomed later (the spectator came first) still hears who watches, once."""
    table = Table(players=3, target=1)
    table.host.opened(table.now)
    table.host.spectator_arrived("w1", "amel", table.now)
    table.run()
    table.join("p1")
    table.now += 1.0  # inside the announcement window: the list has not changed
    table.join("p2")
    for seat in (1, 2):
        told = [e for e in table.events[seat] if isinstance(e, Spectators)]
        assert told == [Spectators(("amel",), 2)], (seat, told)
    # The host's own screen heard it once, when the spectator came.
    assert [e for e in table.events[0] if isinstance(e, Spectators)] == \
        [Spectators(("amel",), 2)]


def test_a_seat_that_joins_before_any_spectator_hears_no_empty_list():
    table = Table(players=2, target=1)
    table.fill()
    assert not [e for e in table.events[1] if isinstance(e, Spectators)]


def test_a_joiners_clocks_take_the_hosts_word_on_a_move_only_if_it_is_not_played_yet():
    """A welcome's ``limits.used`` is about the move at the host's chain length: a joiner
    at that length takes it at once; one whose chain is past it (the move is played)
    ignores it (PROTOCOL.md 12.3)."""
    table = _started_game()
    joiner = table.seats[1]
    s = joiner.session
    assert s.floor == 1 and joiner.clock is not None
    before = joiner.clocks(table.now)[1].move_left
    joiner._host_said = (None, 12, s.length - 1, table.now)  # a move already played
    joiner._take_host_said(joiner.clock)
    assert joiner.clocks(table.now)[1].move_left == before
    assert joiner.clock._told_used is None  # nothing kept for a move that is played
    joiner._host_said = (4, 12, s.length, table.now)  # the move it owes now
    joiner._take_host_said(joiner.clock)
    mine = joiner.clocks(table.now)[1]
    assert (mine.move_left, mine.allowance_left) == (LIMITS.move - 12, 4)
    assert joiner._host_said is None  # taken once


def test_a_joiner_counts_with_the_limits_a_restarted_host_announces():
    """A host restarted from its log with a move limit of 60 s (its seat's clocks had
    started on 30): the joiner's countdowns are the host's new ones at its next
    welcome, not the ones its clocks started with (a hostile peer's finding: a player
    shown 14:09 left was flagged on time at 60 s)."""
    table = _started_game()
    joiner = table.seats[1]
    assert joiner.clocks(table.now)[1].move_left == LIMITS.move
    table.now += 5.0
    joiner.lost()
    hs = table.host.handshake(lambda s: table.host.allowance_left_of(s, table.now),
                              move_used=lambda: table.host.move_used_of(table.now))
    ch = joiner.hello_for(joiner._identity, "p1", SPOKEN)
    welcome, seat, _, _ = table.host.on_hello(hs, (hello := ch.on_host(hs.greeting())),
                                              wire.encode(hello))
    welcome["limits"] |= {"move": 60, "away": 8, "used": 2}  # the restarted host's word
    joiner.take()
    joiner.welcomed("host", ch, _frame(welcome), seat, table.now)
    mine = joiner.clocks(table.now)[1]
    assert (mine.move_left, mine.allowance_left) == (60 - 2, 8)
    readings = [e.event for e in joiner.take() if isinstance(e, Emit)
                and type(e.event).__name__ == "ClockReading"]
    assert readings and readings[-1].limits == Limits(60, 8)
    assert readings[-1].clocks[1].move_left == 60 - 2


def test_each_seats_connection_has_its_state_and_the_host_consults_its_table():
    """SEATED until the genesis, IN_GAME from it (PROTOCOL.md 5.1): what a seat may send
    is its state's row, anything else is refused with that table's code, and a sig
    before the genesis (well formed or not) is a violation, not an entry to read."""
    from chkobba_p2p.link.states import HOST, MESSAGE_TYPES, refusal_of

    table = Table(players=3)
    table.join("p1")
    assert table.host.conn_states == {"c1": "SEATED"}
    for t in ("sig", "lobby", "later-version"):
        probe = Table(players=3)
        probe.join("p1")
        probe.host.take()
        going_on = probe.host.seat_message("c1", 1, _frame({"t": t}), probe.now)
        [close] = [e for e in probe.host.take() if isinstance(e, Close)]
        assert not going_on and close.code == refusal_of(HOST, "SEATED", t), t
    table.join("p2")  # the table is full: the genesis is made
    assert table.host.session is not None
    assert table.host.conn_states == {"c1": "IN_GAME", "c2": "IN_GAME"}
    for t in (*MESSAGE_TYPES, "later-version"):
        if t in ("error", "sig"):
            continue  # a peer's last word; an entry is read as one
        code = refusal_of(HOST, "IN_GAME", t)
        going_on = table.host.seat_message("c1", 1, _frame({"t": t}), table.now)
        closes = [e for e in table.host.take() if isinstance(e, Close)]
        assert going_on is (code is None) and [c.code for c in closes] == (
            [] if code is None else [code]), t
        table.host.conn_states["c1"] = "IN_GAME"  # as if each were its first word
    table.host.seat_gone("c1", 1, table.now)
    assert "c1" not in table.host.conn_states


def test_a_refused_choice_is_reported_as_data_and_asked_again():
    """A seat's controller answers its first play with a move that captures itself and
    then with no move at all: each refusal reaches it as data (the rule broken; the
    misuse's family, code and data), never the library's English, and the game goes on."""
    from chkobba_p2p.game.rules import Move
    from chkobba_p2p.link.events import ChoiceRefused

    table = Table()
    real = table._carry
    wrong: list[object] = []

    def carry(seat, core, effect):
        if isinstance(effect, Decide) and seat == 1 and effect.decision.kind == "play" \
                and len(wrong) < 2:
            hand = effect.decision.hand
            card = next(c for c in hand.hand_of(hand.turn) if c is not None)
            wrong.append(Move(card, frozenset([card])) if not wrong else "7D")
            core.decide(effect.decision, wrong[-1], table.now)
            return
        real(seat, core, effect)

    table._carry = carry  # type: ignore[method-assign]
    table.fill()
    refused = [e for e in table.events[1] if isinstance(e, ChoiceRefused)]
    assert refused == [ChoiceRefused(rule="capture_not_on_table"),
                       ChoiceRefused(family="transcript_misuse", code="play_takes_a_move")]
    s = table.host.session
    assert s is not None and s.finished
