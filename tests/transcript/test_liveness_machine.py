"""A stateful Hypothesis test of liveness over the sans-IO layer (issue 12).

Every seat runs the real :class:`~chkobba_p2p.transcript.session.Session`; seat 0 is the host, which
relays and runs the real :class:`~chkobba_p2p.transcript.clocks.Clocks` on a virtual time.  The
links are in-memory queues (in order on each link, as TCP) and a scheduler drawn by
Hypothesis interleaves deliveries across links, drops and resumes connections (in-flight
frames are lost; a resume replays what the other side lacks, as PROTOCOL.md 13 says),
and lets time pass.  One seat misbehaves *in time*: it stalls on the floor, cycles its
connection, or withholds what it owes behind empty turns.  Checked throughout: no honest
peer raises, no honest peer blames an honest seat; at the end the match completes, or
ends with the misbehaving seat blamed within the stated bound (move limit + allowance).
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from support.sessions import Table
from test_liveness_attacks import Withholder

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.clocks import Clocks, Limits
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, ProtocolError

LIMITS = Limits(move=10.0, allowance=6.0)
MAX_TICK = 2.0


class LivenessMachine(RuleBasedStateMachine):
    @initialize(players=st.sampled_from([2, 4]),
                mode=st.sampled_from(["honest", "stall", "cycle", "withhold"]),
                seed=st.integers(0, 2**16), stall_from=st.integers(4, 40))
    def setup(self, players, mode, seed, stall_from):
        self.n = players
        self.t = Table(players, rules=Ruleset().with_target(1), key=b"live%d" % seed)
        self.s = self.t.sessions
        self.bad = 1 + seed % (players - 1)
        self.mode = mode
        self.stall_from = stall_from
        if mode == "withhold":
            self.s[self.bad].__class__ = Withholder
        self.rng = random.Random(seed)
        self.now = 0.0
        self.clocks = Clocks(players, LIMITS, 0.0)
        self.up: dict[int, deque] = {j: deque() for j in range(1, players)}
        self.down: dict[int, deque] = {j: deque() for j in range(1, players)}
        self.connected = {j: True for j in range(1, players)}
        self.worst_hold = 0.0
        self._floor_since = (None, 0.0)
        self._sync_clock()

    # ---------------------------------------------------------------- helpers

    @property
    def host(self):
        return self.s[0]

    def honest(self, seat: int) -> bool:
        return seat != self.bad or self.mode == "honest"

    def _sync_clock(self) -> None:
        h = self.host
        self.clocks.floor(h.owing, self.now, move=h.length)
        key = (h.owing, h.length)
        if key != self._floor_since[0]:
            self._floor_since = (key, self.now)

    def _host_abort(self, code: ErrorCode, blamed, detail: str, evidence=None,
                    proven=False) -> None:
        entry = self.host.abort(code, blamed, detail, evidence, proven=proven)
        self._broadcast(entry.body)

    def _broadcast(self, body: bytes, except_seat: int | None = None) -> None:
        for j in range(1, self.n):
            if j != except_seat and self.connected[j]:
                self.down[j].append(body)

    def _host_receives(self, j: int, body: bytes) -> None:
        h = self.host
        entry = wire.open_entry(body)
        try:
            if entry.seat != j:
                raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "another seat's entry")
            h.check(entry)
        except ProtocolError:
            if not h.finished:
                self._drop(j)  # the host closes that connection; the game is intact
            return
        self._broadcast(body, except_seat=j)
        try:
            h.receive(entry, checked=True)
        except GameFault as fault:
            self._host_abort(fault.error_code, fault.blamed_seat, fault.detail, body,
                             proven=True)
        self._after_host()

    def _after_host(self) -> None:
        h = self.host
        while (e := h.next_entry()) is not None:
            self._broadcast(e.body)
        self._sync_clock()

    def _joiner_receives(self, j: int, body: bytes) -> None:
        s = self.s[j]
        if s.finished:
            return
        entry = wire.open_entry(body)
        try:
            s.receive(entry)
        except GameFault as fault:
            self.up[j].append(s.abort(fault.error_code, fault.blamed_seat, fault.detail,
                                      body, proven=True).body)
        except ProtocolError as exc:
            # The host relayed something that does not fit: the joiner blames the host.
            self.up[j].append(s.abort(exc.error_code, 0, str(exc), body).body)

    def _speak(self, seat: int) -> bool:
        s = self.s[seat]
        if s.finished or s.floor != seat:
            return False
        if seat == self.bad and self.mode in ("stall", "cycle") \
                and s.length >= self.stall_from:
            return False  # it sits on the floor
        if seat != 0 and not self.connected[seat]:
            return False
        d = s.decision
        if d is not None:
            bot = self.t.bots[seat]
            s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))
        spoke = False
        while (e := s.next_entry()) is not None:
            spoke = True
            if seat == 0:
                self._broadcast(e.body)
            else:
                self.up[seat].append(e.body)
        if seat == 0:
            self._sync_clock()
        return spoke

    def _drop(self, j: int) -> None:
        if not self.connected[j]:
            return
        self.connected[j] = False
        self.up[j].clear()
        self.down[j].clear()
        self.clocks.drop(j, self.now)

    def _resume(self, j: int) -> None:
        if self.connected[j]:
            return
        self.connected[j] = True
        self.clocks.back(j, self.now)
        h, s = self.host, self.s[j]
        # The host replays what the peer lacks; the peer resends its own entries the
        # host lacks (the welcome carries the host's length).
        self.down[j].extend(h.bodies[s.length:] if s.length <= len(h.bodies) else [])
        if h.length < s.length and not s.finished:
            self.up[j].extend(s.bodies[h.length:])

    def _step_network(self) -> bool:
        """One scheduler step among everything that can happen now; False if nothing."""
        moves = []
        for j in range(1, self.n):
            if self.up[j]:
                moves.append(("up", j))
            if self.down[j]:
                moves.append(("down", j))
        for seat in range(self.n):
            s = self.s[seat]
            if not s.finished and s.floor == seat and (seat == 0 or self.connected[seat]):
                moves.append(("speak", seat))
        self.rng.shuffle(moves)
        for kind, j in moves:
            if kind == "up":
                self._host_receives(j, self.up[j].popleft())
                return True
            if kind == "down":
                self._joiner_receives(j, self.down[j].popleft())
                return True
            if self._speak(j):
                return True
        return False

    def _tick(self, dt: float) -> None:
        """Time passes -- only while the misbehaving seat owes the next entry (honest
        seats answer at once), then the host's clocks are checked, as its watchdog does."""
        h = self.host
        if h.finished or h.owing != self.bad or self.mode == "honest":
            return
        self.now += dt
        self.worst_hold = max(self.worst_hold, self.now - self._floor_since[1])
        expiry = self.clocks.expired(self.now)
        if expiry is not None:
            code = ErrorCode.TIMEOUT if expiry.code == "timeout" else ErrorCode.PEER_LEFT
            self._host_abort(code, expiry.seat, expiry.detail)
            self._sync_clock()

    # ---------------------------------------------------------------- rules

    @rule(steps=st.integers(1, 400))
    def run_network(self, steps):
        for _ in range(steps):
            if not self._step_network():
                break

    @rule(dt=st.floats(0.1, MAX_TICK))
    def time_passes(self, dt):
        self._tick(dt)

    @rule()
    def honest_blip(self):
        """An honest joiner's connection breaks and comes back at once."""
        j = self.rng.choice([j for j in range(1, self.n) if self.honest(j)] or [None])
        if j is not None:
            self._drop(j)
            self._resume(j)

    @rule(away=st.booleans())
    def bad_seat_cycles(self, away):
        if self.mode != "cycle":
            return
        if away:
            self._drop(self.bad)
        else:
            self._resume(self.bad)

    # ---------------------------------------------------------------- checks

    @invariant()
    def no_honest_seat_is_blamed(self):
        for seat, s in enumerate(self.s):
            a = s.aborted
            if self.honest(seat) and a is not None and self.honest(a.by_seat):
                # An honest signer blames only the misbehaving seat.
                assert a.blamed_seat == self.bad and self.mode != "honest", (seat, a)

    @invariant()
    def within_the_bound(self):
        assert self.worst_hold <= LIMITS.bound + MAX_TICK

    def teardown(self):
        if not hasattr(self, "s"):
            return
        # Play on to the end: the network settles, time passes while the bad seat owes.
        for _ in range(20000):
            if self.host.finished and not any(self.down.values()) \
                    and not any(self.up.values()):
                break
            if not self._step_network():
                if self.mode == "cycle" and not self.connected[self.bad] \
                        and self.host.owing != self.bad:
                    self._resume(self.bad)  # it comes back to get the floor again
                elif self.host.owing == self.bad:
                    if self.mode == "cycle":  # mostly away, back now and then
                        if self.connected[self.bad] and self.rng.random() < 0.6:
                            self._drop(self.bad)
                        elif not self.connected[self.bad] and self.rng.random() < 0.2:
                            self._resume(self.bad)
                    self._tick(MAX_TICK)
                else:
                    for j in range(1, self.n):
                        self._resume(j)
                    if not self._step_network():
                        break
        else:
            raise AssertionError("the match neither ended nor completed")
        h = self.host
        assert h.finished, "the host's match is still running"
        self.no_honest_seat_is_blamed()
        self.within_the_bound()
        if self.mode == "honest":
            assert h.phase == Phase.DONE
        for seat, s in enumerate(self.s):
            if self.honest(seat) and seat != 0 and self.connected[seat]:
                assert s.finished, seat
                assert (s.done, s.aborted is None) == (h.done, h.aborted is None)


# Modest, so the suite stays fast; whole matches make each example take a while on a
# loaded machine, which is not a fault of the data.
LivenessMachine.TestCase.settings = settings(max_examples=12, stateful_step_count=12,
                                             deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
TestLiveness = pytest.mark.filterwarnings("ignore")(LivenessMachine.TestCase)
