"""A seat whose controller answers at once keeps its turn for its choice (issue 44):
its deal messages and its first play of a round travel in one turn, one round of the
floor sooner; a person's messages never wait (PROTOCOL.md 6.2).  The link's cores joined
in memory (``test_link_cores.Table``), with each choice answered the way a shell answers
it: after the cores sent what they had (the bot runs in a worker thread), ``think``
seconds later on the test's clock."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pytest
from test_link_cores import Table

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.seat import MAX_HOLD, Decide
from chkobba_p2p.testing import InMemoryTable, RecordingController
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.logfile import read_log


@dataclass
class Later(Table):
    """Choices answered ``think`` seconds after they were asked, once every core has
    sent what it would send without them; every entry's time (when the host took it)."""

    think: float = 0.0
    pending: list[tuple[float, int, object, object]] = field(default_factory=list)
    #: Per entry of the host's transcript: the time the host took it.
    times: list[float] = field(default_factory=list)

    def _carry(self, seat: int, core, effect) -> None:
        if isinstance(effect, Decide):
            if not any(p[1] == seat for p in self.pending):
                self.pending.append((self.now + self.think, seat, core, effect.decision))
            return
        super()._carry(seat, core, effect)
        s = self.host.session
        if s is not None:
            self.times.extend(self.now for _ in range(len(self.times), s.length))

    def play(self, limit: int = 200_000) -> None:
        cores = [self.host, *self.seats.values()]
        for _ in range(limit):
            if all(c.finished for c in cores):
                return
            due = min((p[0] for p in self.pending), default=math.inf)
            self.now = max(self.now, min(due, *(c.next_wake(self.now) for c in cores)))
            for p in [p for p in self.pending if p[0] <= self.now]:
                self.pending.remove(p)
                _, seat, core, decision = p
                bot = self.bots[seat]
                choice = bot.choose_play(decision.hand) if decision.kind == "play" \
                    else bot.choose_cut(decision.hand)
                core.decide(decision, choice, self.now)
            for c in cores:
                c.tick(self.now)
            self.run()
        raise AssertionError("the match did not end")


def _alone(table: Later) -> list[float]:
    """Every turn that carries deal messages and no action while the game waits for its
    sender's choice (as an observer reads the transcript): the seconds since the entry
    before it."""
    bodies = table.host.session.bodies
    watcher = Session.observe(wire.open_entry(bodies[0]))
    out = []
    for i, body in enumerate(bodies[1:table.host.session.length], 1):
        e = wire.open_entry(body)
        watcher.receive(e)
        if e.kind == "turn" and e.fields.get("d") and "a" not in e.fields \
                and watcher.game.waits_for(e.seat):
            out.append(table.times[i] - table.times[i - 1])
    return out


def _match(players: int, bound: float | None, think: float) -> Later:
    table = Later(players=players, target=3, hold_bound=bound, think=think)
    table.fill()
    table.play()
    s = table.host.session
    assert s.done is not None
    assert all(link.session.bodies == s.bodies for link in table.seats.values())
    return table


def test_a_bot_sends_its_messages_with_its_choice():
    """Answering at once, no seat sends its deal messages alone while it chooses; a
    person's seat (no bound) sends them at once, as before.  (At 2 players: the first
    player of a round then owes its shares of that round's cards; at 3 and 4 the seats
    after it still owe theirs when the floor reaches it, so it has no choice to make
    yet, and its messages go alone either way.)"""
    bot = _match(2, 0.25, 0.0)
    person = _match(2, None, 0.0)
    assert _alone(bot) == []
    assert len(_alone(person)) >= 3  # one per round of cards at least
    assert all(dt == 0 for dt in _alone(person))  # at once: nothing waited
    # Fewer turns for the same kind of match: a round of the floor less each time.
    per_play = [len(t.host.session.bodies) / sum(
        1 for b in t.host.session.bodies if "a" in wire.open_entry(b).fields)
        for t in (bot, person)]
    assert per_play[0] < per_play[1]


@pytest.mark.parametrize("players, bound", [(2, 0.25), (2, 5.0), (4, 0.25)])
def test_a_slow_answer_holds_the_floor_no_longer_than_the_bound(players, bound):
    """A controller slower than its bound: its messages go alone when the bound runs
    out (at most MAX_HOLD), never later; the match goes on and ends as ever."""
    table = _match(players, bound, 2.0)
    waited = _alone(table)
    assert all(dt == min(bound, MAX_HOLD) for dt in waited)
    assert waited or players > 2


async def test_through_the_shells_the_controllers_bound_decides(tmp_path, autojump_clock):
    """Real peers in memory: the shell passes each controller's bound to its core; a
    bot's first play of a round travels with its shares, a person's shares go at once."""
    def alone(path) -> int:
        bodies = read_log(path).bodies
        watcher = Session.observe(wire.open_entry(bodies[0]))
        count = 0
        for body in bodies[1:]:
            e = wire.open_entry(body)
            watcher.receive(e)
            count += e.kind == "turn" and bool(e.fields.get("d")) and "a" not in e.fields \
                and watcher.game.waits_for(e.seat)
        return count

    counts = []
    for bound in (0.25, None):
        (tmp_path / str(bound)).mkdir()
        table = InMemoryTable(tmp_path / str(bound), players=2, rules=Ruleset(target=3),
                              controllers=[RecordingController(s, answers_within=bound)
                                           for s in range(2)])
        outcomes = await table.run()
        assert all(o.done is not None and o.done == outcomes[0].done for o in outcomes)
        counts.append(alone(outcomes[1].log_path))
    assert counts[0] == 0 < counts[1]
