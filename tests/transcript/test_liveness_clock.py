"""The clocks of PROTOCOL.md 12, sans-IO: times are passed in, nothing reads a clock."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.transcript.clocks import Clocks, Limits

L = Limits(move=10.0, allowance=6.0)


def test_the_move_clock_runs_only_for_the_seat_that_owes():
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=5)
    assert c.expired(9.9) is None
    e = c.expired(10.0)
    assert e is not None and (e.seat, e.code) == (1, "timeout")
    c.floor(0, 10.0, move=6)  # the floor moves on: a new move, a fresh clock
    assert c.expired(19.0) is None
    assert c.read(19.0)[1].move_left == L.move and not c.read(19.0)[1].owes


def test_a_resume_does_not_reset_the_move_clock():
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=3)
    c.drop(1, 4.0)
    c.back(1, 5.0)  # a second away: charged to the allowance, not the move
    c.floor(1, 5.0, move=3)  # the same move (a resume replays nothing new)
    r = c.read(5.0)[1]
    assert (r.move_left, r.allowance_left) == (6.0, 5.0)
    assert c.expired(10.9) is None and c.expired(11.0).code == "timeout"


def test_the_hosts_word_on_a_move_applies_to_that_move_once_the_copy_reaches_it():
    c = Clocks(2, L, now=0.0)
    c.floor(0, 0.0, move=3)
    c.told_move_used(5, 4.0, 1.0)  # a resume's welcome: move 5 has run 4 s
    assert c.read(1.0)[0].move_left == L.move - 1.0  # move 3 goes on as it was
    c.floor(1, 2.0, move=4)
    assert c.read(2.0)[1].move_left == L.move  # move 4: a fresh clock
    c.floor(0, 2.5, move=5)  # caught up: the host's 4 s and the 1.5 s since it said so
    assert c.read(2.5)[0].move_left == L.move - 5.5
    c.floor(1, 3.0, move=6)
    assert c.read(3.0)[1].move_left == L.move  # said once, for that move only


def test_the_hosts_word_on_the_move_that_holds_the_floor_applies_at_once_and_within_bounds():
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=7)
    c.told_move_used(7, 3.0, 0.5)
    assert c.read(0.5)[1].move_left == L.move - 3.0
    c.told_move_used(7, 1e9, 0.5)  # never past the limit (nor below zero)
    assert c.read(0.5)[1].move_left == 0.0
    c.told_move_used(7, -5, 0.5)
    assert c.read(0.5)[1].move_left == L.move


def test_the_allowance_is_spent_across_drops_and_runs_out():
    c = Clocks(4, L, now=0.0)
    c.floor(2, 0.0, move=1)
    t = 0.0
    for _ in range(3):  # away 1.9 s, back 0.1 s, again and again
        c.drop(2, t)
        c.back(2, t + 1.9)
        t += 2.0
        assert c.expired(t) is None
    c.drop(2, t)
    assert abs(c.read(t)[2].allowance_left - (6.0 - 3 * 1.9)) < 1e-9
    assert c.expired(t + 0.29) is None
    e = c.expired(t + 0.3)
    assert e is not None and (e.seat, e.code) == (2, "peer_left")


def test_a_seat_away_that_owes_nothing_is_never_timed_out():
    c = Clocks(2, L, now=0.0)
    c.floor(0, 0.0, move=1)
    c.drop(1, 0.0)
    assert c.expired(9.0) is None  # seat 1 is away past its allowance but owes nothing
    c.floor(1, 9.0, move=2)  # now it owes the next entry, with its allowance spent
    e = c.expired(9.0)
    assert e is not None and (e.seat, e.code) == (1, "peer_left")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["drop", "back", "wait"]),
                          st.floats(0.0, 3.0)), max_size=40))
def test_no_move_outlasts_the_bound(script):
    """Whatever a seat does with its connection, one move ends within move + allowance
    (the host's watchdog wakes at :meth:`Clocks.next_deadline`)."""
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=1)
    t, ended = 0.0, None
    for action, dt in [*script, ("wait", 1e9)]:
        deadline = c.next_deadline(t)
        assert deadline is not None
        if deadline <= t + dt:
            ended = deadline
            break
        t += dt
        # Never early, but for expired()'s rounding tolerance (1e-9 s).
        assert c.expired(t) is None or t >= deadline - 1e-9
        if action == "drop":
            c.drop(1, t)
        elif action == "back":
            c.back(1, t)
    assert ended is not None and c.expired(ended) is not None
    assert ended <= L.bound + 1e-6


def test_the_deadline_is_never_later_than_the_expiry_after_many_drops():
    # Found by Hypothesis: three drops ~3 s apart summed the allowance a hair short of
    # 6 s; expired() (with its rounding tolerance) fired before next_deadline() said.
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=1)
    t = 0.0
    for dt in (0.0, 2.9999999999999996, 2.9999999999999996):
        t += dt
        deadline = c.next_deadline(t)
        assert deadline is not None
        if c.expired(t) is not None:
            assert deadline - 1e-9 <= t
        c.drop(1, t)
    assert c.expired(c.next_deadline(t)) is not None  # the watchdog's wake finds it


def test_the_time_since_the_hosts_word_counts_only_while_the_seat_is_connected():
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=3)
    c.drop(0, 0.5)  # the seat the word is about is away, as far as this copy knows
    c.told_move_used(4, 2.0, 1.0)
    c.floor(0, 5.0, move=4)  # 4 s later: its move clock stood still meanwhile
    assert c.read(5.0)[0].move_left == L.move - 2.0


def test_new_limits_count_from_now_and_what_is_spent_stays_spent():
    c = Clocks(2, L, now=0.0)
    c.floor(1, 0.0, move=3)
    c.drop(0, 1.0)
    c.relimit(Limits(move=60.0, allowance=3.0), 4.0)  # seat 0 had 3 s of 6 left: 3
    r = c.read(4.0)
    assert (r[1].move_left, r[0].allowance_left, r[1].allowance_left) == (56.0, 3.0, 3.0)
    assert c.expired(59.9) is None  # on the old 10 s it would have run out at 10
    assert c.expired(60.0).code == "timeout"
