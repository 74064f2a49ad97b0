"""Fair time and blame (issue 40, PROTOCOL.md 12.6): no seat wins on time, or gets another
seat blamed, by lying, flooding or framing.

- A flag carries its signer's clock reading; a flag whose own reading shows time left
  stands for nothing.
- The flagged seat checks a flag against its own copy of the clocks and, when its clock
  showed more than the tolerance left, signs a ``clock_dispute`` citing the flag: the
  match then counts for nobody, and ``history`` shows the dispute against every key.
- A joiner's abort against another joiner is a claim, never ``owed``.
- The loser cannot escape: a signed leave loses; a decided result stands without every
  ``done``; joiners flag a host that stalls on its own move; a copy of the flagged seat
  that stops at the flag's head does not void the flag; at 3 players the seat that loses
  a match this way loses and the two others are scored as they stand.

In memory (``chkobba_p2p.testing``'s time adversaries, MockClock) and on in-process
sessions."""

from __future__ import annotations

import dataclasses

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.audit import Played, said
from test_on_time import _flag, _to_play

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.config import Timeouts
from chkobba_p2p.observe.audit import INCOMPLETE, VALID, audit_bodies, audit_log
from chkobba_p2p.observe.history import (
    DECIDED,
    DISPUTED,
    LEFT,
    ON_TIME,
    disputes,
    games,
    rated_matches,
    record_against,
    summarize,
)
from chkobba_p2p.testing import (
    GatedController,
    HastyJoiner,
    InMemoryTable,
    RecordingController,
    lying_abort,
    lying_host,
)
from chkobba_p2p.transcript.clocks import (
    clock_reading,
    dispute_contradicts,
    flag_holds,
    flag_winner,
    make_clock,
)
from chkobba_p2p.transcript.events import Standing
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire.codec import ErrorCode, open_entry

EN = Translator("en")  # the words a person reads (the client's)

#: A short move clock and allowance (time costs nothing under MockClock).
SHORT = dataclasses.replace(Timeouts(), turn=20.0, reconnect=10.0)


def _logs(tmp_path, played: Played, seats) -> list:
    return [summarize(audit_log(played.write_log(tmp_path / f"s{seat}.chklog", seat),
                                workers=0), f"d{seat}") for seat in seats]


# ------------------------------------------------------------ case 1: a host lies about time


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_host_that_flags_early_is_disputed_and_wins_nothing(
        tmp_path, players, autojump_clock):
    """The host announces 300 s a move but flags after 20 s: the seat's own clock shows
    280 s left, so its client signs a dispute; its log replays disputed, counted for
    nobody, and the ratings over its logs move nobody."""
    ctls: list = [RecordingController(s) for s in range(players)]
    ctls[-1] = GatedController(gate_at=2, seed=players)  # thinks (never plays) at a move
    table = InMemoryTable(tmp_path, players=players, controllers=ctls, timeouts=SHORT,
                          host_class=lying_host(move=300, away=120))
    with trio.fail_after(600):
        outcomes = await table.run()
    victim = outcomes[-1]
    late = victim.seat
    assert late is not None and late != 0
    a = victim.aborted
    # The victim's own screen: a disputed flag, no loss.
    assert a is not None and a.flag is None and a.disputed_by == late, a
    assert victim.winner_side is None and not victim.decided
    assert "disputes it" in words(a, EN)
    name = f"seat{late}.chklog"
    report = audit_log(tmp_path / name, workers=0)
    assert (report.verdict, report.code, report.winner) == (INCOMPLETE, "disputed", None), \
        said(report)
    assert "counts for nobody" in said(report)
    log = summarize(report, name)
    assert log.ending == DISPUTED and not log.counted
    (game,) = games([log])
    assert game.disputed and not game.counted
    assert rated_matches([game]) == []
    assert all(n == 1 for n in disputes([game]).values()) and len(disputes([game])) == players
    # The host got the dispute too (it was sent before the victim wound down): its own
    # copy tells the same story, and together the copies count for nobody.
    host_report = audit_log(tmp_path / "host.chklog", workers=0)
    assert host_report.code == "disputed", said(host_report)
    both = [summarize(host_report, "h"), log]
    assert not any(g.counted for g in games(both))


async def test_an_honest_flag_is_not_disputed(tmp_path, autojump_clock):
    """The same stall at an honest host: the seat's own clock agrees (the move did run
    out), so it signs nothing and the flag stands in every copy."""
    ctls: list = [RecordingController(0), GatedController(gate_at=2, seed=2)]
    table = InMemoryTable(tmp_path, controllers=ctls, timeouts=SHORT)
    with trio.fail_after(600):
        outcomes = await table.run()
    for o in outcomes:
        assert o.aborted is not None and o.aborted.flag == 1 and o.aborted.disputed_by is None
    for name in ("host.chklog", "seat1.chklog"):
        bodies = audit_log(tmp_path / name, workers=0)
        assert (bodies.verdict, bodies.code, bodies.winner) == (VALID, "on_time", 0)
    last = open_entry(table.host.core.session.bodies[-1])
    clock = clock_reading(last.fields.get("clock"))
    assert clock is not None and clock["used"] >= clock["move"] == 20_000


def test_a_flag_whose_own_reading_shows_time_left_stands_for_nothing():
    ss, _ = _to_play(1)
    host, guest = ss
    entry = host.abort(ErrorCode.TIMEOUT, 1, "slow", flag=1,
                       clock=make_clock(300, 120, 3, 120))
    guest.receive(entry)
    assert guest.aborted is not None and guest.aborted.flag is None
    assert audit_bodies(guest.bodies, workers=0).code == "aborted"
    away = host.abort(ErrorCode.PEER_LEFT, 1, "away", flag=1,
                      clock=make_clock(300, 120, 0, 60))
    assert flag_holds(dict(away.fields), 0, players=2, phase=Phase.PLAYING,
                        floor=1) is None


@pytest.mark.parametrize(("used", "stands"), [(3.0, False), (296.0, True), (299.0, True)])
def test_a_dispute_voids_a_flag_only_beyond_the_tolerance(used, stands):
    ss, _ = _to_play(1)
    host, guest = ss
    flag = host.abort(ErrorCode.TIMEOUT, 1, "slow", flag=1,
                      clock=make_clock(300, 120, 300, 120))
    guest.receive(flag)
    dispute = guest.dispute(make_clock(300, 120, used, 120))
    assert dispute is not None
    host.receive(dispute)
    for s in (host, guest):
        a = s.aborted
        assert a is not None and (a.flag == 1) is stands, a
        assert (a.disputed_by is None) is stands
    r = audit_bodies(host.bodies, workers=0)
    assert (r.verdict, r.code) == ((VALID, "on_time") if stands else (INCOMPLETE, "disputed"))


def test_only_the_flagged_seat_can_dispute_and_only_the_flag_it_cites():
    ss, _ = _to_play(1, players=3)
    host = ss[0]
    flag = host.abort(ErrorCode.TIMEOUT, 1, "slow", flag=1,
                      clock=make_clock(300, 120, 300, 120))
    for s in ss[1:]:
        s.receive(flag)
    assert ss[2].dispute(make_clock(300, 120, 1, 120)) is None  # not flagged
    # A third seat's "dispute", forged by hand: it voids nothing.
    forged = ss[2]._sign("abort", {"code": int(ErrorCode.CLOCK_DISPUTE), "blamed": 0,
                                   "why": "x", "evidence": flag.body,
                                   "clock": make_clock(300, 120, 1, 120)})
    host.receive(forged)
    assert host.aborted.flag == 1
    # Citing something else than the flag: nothing either.
    other = ss[1]._sign("abort", {"code": int(ErrorCode.CLOCK_DISPUTE), "blamed": 0,
                                  "why": "x", "evidence": b"not the flag",
                                  "clock": make_clock(300, 120, 1, 120)})
    host.receive(other)
    assert host.aborted.flag == 1
    real = ss[1].dispute(make_clock(300, 120, 1, 120))
    host.receive(real)
    assert host.aborted.flag is None and host.aborted.disputed_by == 1


# ------------------------------------------------------------ case 3: blame where one sees


@pytest.mark.parametrize("players", [3, 4])
def test_a_joiner_blaming_another_joiner_is_only_a_claim(players):
    """Seat 1 signs "seat 2 is too slow" while seat 2 holds the floor: no joiner sees
    another's connection, so every copy and the replay call it a claim, never owed."""
    ss, _ = _to_play(2, players=players)
    entry = ss[1].abort(ErrorCode.TIMEOUT, 2, "seat 2 resigned")
    assert ss[1].aborted.standing == Standing.CLAIMED
    for s in (ss[0], ss[2]):
        s.receive(entry)
        assert s.aborted.standing == Standing.CLAIMED, s.own_seat
        assert "nothing in the log shows it" in words(s.aborted, EN)
    r = audit_bodies(ss[0].bodies, workers=0)
    assert r.standing == Standing.CLAIMED and r.blamed is None, said(r)
    assert "owed" not in said(r)
    # The host's word against the seat to play is still what the log shows.
    ss2, _ = _to_play(2, players=players)
    e2 = ss2[0].abort(ErrorCode.TIMEOUT, 2, "slow")
    ss2[2].receive(e2)
    assert ss2[2].aborted.standing == Standing.OWED


# ------------------------------------------------------------ case 4: the loser can't escape


@pytest.mark.parametrize("players", [2, 4])
def test_a_signed_leave_is_a_loss_for_the_leaver(tmp_path, players):
    ss, ids = _to_play(1, players=players)
    leave = ss[1].leave("bored")
    assert leave is not None
    for s in ss:
        if s is not ss[1]:
            s.receive(leave)
        a = s.aborted
        assert a is not None and a.left and a.winner_side(players) == 0
    r = audit_bodies(ss[0].bodies, workers=0)
    assert (r.verdict, r.code, r.winner, r.loser) == (VALID, "left", 0, 1), said(r)
    log = summarize(r, "d")
    assert log.ending == LEFT and log.counted
    rec = record_against(games([log]), ids[0].public, ids[1].public)
    assert (rec.games, rec.wins, rec.losses) == (1, 1, 0)


def test_a_decided_match_counts_even_if_the_loser_withholds_its_done(tmp_path):
    from support.audit import play

    done = play(2, key=b"decided")
    # Cut the host's copy where the result was decided: before the loser's done.
    bodies = list(done.sessions[0].bodies)
    kinds = [open_entry(b).kind for b in bodies]
    first_done = kinds.index("done")
    winner = done.sessions[0].done.winner_side
    for cut in (first_done, first_done + 1):
        r = audit_bodies(bodies[:cut], workers=0)
        assert (r.verdict, r.code, r.winner) == (VALID, "decided", winner), said(r)
        assert summarize(r, "d").ending == DECIDED and summarize(r, "d").counted


def test_a_copy_of_the_flagged_seat_stopping_at_the_flag_does_not_void_it(tmp_path):
    """The flagged seat writes a copy that ends at the flag's head with its own word that
    the host went silent: the flag still counts (only a dispute citing it could void
    it), and the disagreement is shown as a dispute."""
    ss, ids = _to_play(1)
    host, guest = ss
    host.abort(ErrorCode.TIMEOUT, 1, "seat 1 held the floor too long", flag=1,
               clock=make_clock(20, 10, 20, 10))
    guest.abort(ErrorCode.PEER_LEFT, 0, "the host stayed unreachable")
    logs = _logs(tmp_path, Played(ss, ids), (0, 1))
    assert logs[0].ending == ON_TIME and logs[1].ending == "aborted"
    (game,) = games(logs)
    assert game.counted and game.log.winner == 0 and game.disputed
    rec = record_against([game], ids[0].public, ids[1].public)
    assert (rec.games, rec.wins, rec.losses) == (1, 1, 0)
    assert disputes([game]) == {ids[0].public: 1, ids[1].public: 1}


async def test_joiners_flag_a_host_that_stalls_on_its_own_move(tmp_path, autojump_clock):
    """The host's person never plays: its own peer is honest and times itself out, so
    use a host whose own clock never runs (a host that stops playing) -- the joiner flags
    it after the move limit and the tolerance, and wins on time in its log."""
    from chkobba_p2p._shell.net import HostPeer
    from chkobba_p2p.link.host import HostTable

    class Stalling(HostTable):
        def tick(self, now: float) -> None:  # keeps no clocks: never flags anyone
            self._show_spectators(self.announcer.tick(now))

    class StallingHost(HostPeer):
        table_class = Stalling

    ctls: list = [GatedController(gate_at=2, seed=0), RecordingController(1)]
    table = InMemoryTable(tmp_path, controllers=ctls, timeouts=SHORT,
                          host_class=StallingHost)
    with trio.fail_after(600):
        outcomes = await table.run()
    o = outcomes[1]
    assert o.aborted is not None and o.aborted.by_seat == 1 and o.aborted.flag == 0
    assert o.winner_side == 1
    r = audit_log(tmp_path / "seat1.chklog", workers=0)
    assert (r.verdict, r.code, r.winner) == (VALID, "on_time", 1), said(r)
    assert "as seat1 says" in said(r) and "the host" not in said(r).split(":")[-1]


async def test_a_joiner_that_flags_the_host_early_is_disputed_by_the_host(
        tmp_path, autojump_clock):
    ctls: list = [GatedController(gate_at=2, seed=0), RecordingController(1)]
    table = InMemoryTable(tmp_path, controllers=ctls, timeouts=SHORT)
    out: dict = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out[0] = await table.host.run(task_status)

        await nursery.start(run_host)
        peer = HastyJoiner(table.join_config(1), ctls[1])
        with trio.fail_after(600):
            out[1] = await peer.run()
        ctls[0].release.set()
        with trio.move_on_after(120):
            await table.host.finished.wait() if hasattr(table.host, "finished") else None
        nursery.cancel_scope.cancel()
    host = table.host.core.session
    assert host.aborted is not None and host.aborted.disputed_by == 0, host.aborted
    r = audit_bodies(host.bodies, workers=0)
    assert (r.verdict, r.code) == (INCOMPLETE, "disputed"), said(r)


# ------------------------------------------------------------ 3 players: leaving loses too


@pytest.mark.parametrize("after", [1, 90])
@pytest.mark.parametrize("how", ["resign", "leave", "flag"])
def test_at_three_players_the_seat_that_loses_the_match_loses_and_the_others_stand(
        how, after):
    ss, ids = _to_play(1, players=3, after=after)
    host = ss[0]
    if how == "resign":
        entry = ss[1].resign()
    elif how == "leave":
        entry = ss[1].leave("gone")
    else:
        entry = host.abort(ErrorCode.TIMEOUT, 1, "slow", flag=1,
                           clock=make_clock(20, 10, 20, 10))
    for s in ss:
        if s.own_seat != entry.seat:
            s.receive(entry)
    a = host.aborted
    assert a is not None and a.loser == 1
    totals = a.totals
    assert len(totals) == 3 and (after == 1 or any(totals)), totals
    expect = None if totals[0] == totals[2] else (0 if totals[0] > totals[2] else 2)
    assert a.winner_side(3) == expect
    r = audit_bodies(host.bodies, workers=0)
    assert r.verdict == VALID and r.loser == 1 and r.winner == expect, said(r)
    log = summarize(r, "d")
    assert log.counted
    (m,) = rated_matches(games([log]))
    assert m.loser == 1 and m.winner == expect
    # The loser loses against each of the two others, whatever their score.
    for other in (0, 2):
        rec = record_against(games([log]), ids[1].public, ids[other].public)
        assert (rec.games, rec.losses) == (1, 1)
    # Every seat's outcome is a result, even with nobody winning: the headless peers
    # exit 0 (README), never 3 (a stopped game).
    from chkobba_cli.outputs.headless import report
    from chkobba_p2p.link.events import Outcome
    for s in ss:
        o = Outcome(s.own_seat, s.table, None, aborted=s.aborted)
        assert o.concluded and o.decided is (expect is not None)
        assert report(o, told_log=True) == 0


def test_flag_winner_scores_the_two_others_as_they_stand():
    assert flag_winner(1, 3, (5, 0, 2)) == 0
    assert flag_winner(1, 3, (1, 9, 4)) == 2
    assert flag_winner(1, 3, (3, 0, 3)) is None
    assert flag_winner(0, 2) == 1 and flag_winner(3, 4) == 0


# ------------------------------------------------------------ the adversary, property-based


def test_lying_abort_kit_signs_what_an_adversary_can():
    ss, _ = _to_play(1)
    e = lying_abort(ss[0], code=ErrorCode.TIMEOUT, blamed=1, flag=True, used=2.0)
    assert e.fields["flag"] == 1 and clock_reading(e.fields["clock"])["used"] == 2000
    assert ss[0].aborted.flag is None  # its own reading refutes it
    assert _flag  # the on-time suite's helper is the same kind of tool


# ------------------------------------------------ the rule, against any adversary's abort

@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(players=st.sampled_from([2, 3, 4]), after=st.integers(1, 40),
       adversary=st.integers(0, 3), code=st.sampled_from([ErrorCode.TIMEOUT,
                                                          ErrorCode.PEER_LEFT]),
       claimed_used=st.floats(0, 300), honest_used=st.floats(0, 294))
def test_an_honest_seat_in_time_never_loses_on_time_in_its_own_logs(
        players, after, adversary, code, claimed_used, honest_used):
    """PROTOCOL.md 12.6's guarantee, at 2, 3 and 4 players: whatever abort one adversary
    signs (a flag on the seat to play with any clock reading it likes), the seat to play,
    which answered within its move clock by its own measure (``honest_used`` < the limit
    less the tolerance) and was never away, is never recorded as losing on time in its own
    log, and the logs it holds never count it as losing."""
    adversary %= players
    victim = (adversary + 1) % players
    ss, ids = _to_play(victim, players=players, after=after)
    evil, honest = ss[adversary], ss[victim]
    if adversary == 0 or victim == 0:  # the only flags that can stand
        entry = lying_abort(evil, code=code, blamed=victim, flag=True, used=claimed_used)
    else:  # a joiner against a joiner: all it can do is claim
        entry = lying_abort(evil, code=code, blamed=victim, flag=False)
    honest.receive(entry)
    # The honest client's own check (SeatCore.dispute_flag): its clock, its time away.
    mine = make_clock(300, 120, honest_used, 120)
    flag = honest.flag_to_dispute()
    if flag is not None and dispute_contradicts(
            code, clock_reading(flag.fields.get("clock")), mine):
        honest.dispute(mine)
    r = audit_bodies(honest.bodies, workers=0)
    lost_on_time = r.code == "on_time" and r.blamed == victim
    assert not lost_on_time, said(r)
    log = summarize(r, "own")
    (game,) = games([log])
    for other in range(players):
        if other != victim:
            assert record_against([game], ids[victim].public,
                                  ids[other].public).losses == 0, said(r)


def test_a_seat_that_claims_against_the_host_while_it_holds_the_floor_is_visible(tmp_path):
    """Issue 40, case 4 (the claim that voids): seat 1, to play and losing, signs that the
    host went silent.  Its word cannot count against the host (an honest seat whose host
    crashed signs the same), so the match counts for nobody; but it is no longer silent:
    ``history`` shows it as a dispute against both keys."""
    ss, ids = _to_play(1)
    claim = ss[1].abort(ErrorCode.PEER_LEFT, 0, "the host went silent")
    ss[0].receive(claim)
    logs = _logs(tmp_path, Played(ss, ids), (0, 1))
    assert all(not lg.counted for lg in logs)
    (game,) = games(logs)
    assert game.disputed and not game.counted
    assert disputes([game]) == {ids[0].public: 1, ids[1].public: 1}
    assert rated_matches([game]) == []
