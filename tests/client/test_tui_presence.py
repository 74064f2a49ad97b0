"""The clocks on the terminal client's screen (cli/tui/model/presence.py), on a fake clock:
when a move clock shows, the warning under 30 s, the peer's own readings winning over
the estimate, and the countdown of a seat away or dropped (the host's at a joiner)."""

from __future__ import annotations

from dataclasses import replace

from chkobba_cli.tui.model.presence import Presence, clock_text
from chkobba_cli.tui.model.view import TableView, card_style
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Resumed, Waiting
from chkobba_p2p.game import rules as R
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.transcript.clocks import ClockReading, SeatClock
from chkobba_p2p.transcript.events import HandStarted
from chkobba_p2p.transcript.table import SeatInfo, TableInfo


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def playing(seat: int = 0, turn: int = 1) -> TableState:
    st = TableState(seat=seat).with_players(2)
    return replace(st.apply(HandStarted(1, 0)), turn=turn)


def view(st: TableState) -> TableView:
    return TableView(st, Translator("en"), card_style(st, None, True))


def text(lines) -> str:
    return "\n".join("".join(f[1] for f in line) for line in lines)


def test_clock_text_rounds_up():
    assert clock_text(272.2) == "4:33" and clock_text(0) == "0:00" and clock_text(-3) == "0:00"
    assert clock_text(59.01) == "1:00"


def test_a_long_move_limit_always_shows_for_the_seat_to_play():
    """Issue 26: running out of the move clock loses the match on time, so the clock of
    whoever is to play is always on screen, even at the default 900 s."""
    now = Clock()
    p = Presence(900, now)
    st = playing(turn=1)
    p.on_event(HandStarted(1, 0), st, st)
    assert round(p.move_left(st, 1, False)) == 900
    assert "⏱ 15:00 left" in text([p.seat_clock(view(st), 1, False)])
    mine = playing(seat=0, turn=0)
    # Our own calm clock is on our seat's line; the line under the prompt is the hurry.
    assert "⏱ 15:00 left" in text([p.seat_clock(view(mine), 0, False)])
    assert p.own_clock(view(mine), 60, False) == []
    now.t += 880
    assert round(p.move_left(st, 1, False)) == 20
    assert "0:20 left" in text([p.seat_clock(view(st), 1, False)])
    assert p.move_left(st, 0, False) is None  # not seat 0's turn
    assert p.move_left(st, 1, True) is None  # the match is over


def test_a_short_limit_always_shows_and_warns_the_local_player_late():
    now = Clock()
    p = Presence(45, now)
    st = playing(seat=0, turn=0)
    p.on_event(HandStarted(1, 0), st, st)
    assert "0:45 left" in text([p.seat_clock(view(st), 0, False)])
    now.t += 20
    assert "Hurry: 0:25 left to play" in text(p.own_clock(view(st), 60, False))


def test_the_peers_reading_wins_over_the_estimate():
    now = Clock()
    p = Presence(45, now)
    st = playing(turn=1)
    reading = ClockReading((SeatClock(0, False, True, 45, 300, 7.0),
                            SeatClock(1, True, True, 12.0, 300, 7.0)))
    p.on_event(reading, st, st)
    assert round(p.move_left(st, 1, False)) == 12
    now.t += 5
    assert round(p.move_left(st, 1, False)) == 7


def test_away_and_dropped_seats_count_down_and_the_host_comes_back_with_our_link():
    now = Clock()
    p = Presence(None, now)
    st = playing(seat=1)
    table = TableInfo(b"g" * 16, 1, 2, R.Ruleset(), (SeatInfo(0, b"a" * 32, "amel"),
                                                      SeatInfo(1, b"b" * 32, "sami")))
    st = st.with_table(table, 1)
    p.on_event(Waiting(0, 272, away=True), st, st)
    assert "amel stepped away: 4:32 left to come back" in text(p.countdown_lines(view(st)))
    now.t += 60
    assert "3:32 left" in text(p.countdown_lines(view(st)))
    p.on_event(Waiting(0, 200), st, st)
    assert "amel lost the connection: 3:20" in text(p.countdown_lines(view(st)))
    p.on_event(Resumed(1), st, st)  # our own link is up again: the host is back
    assert p.countdown_lines(view(st)) == []
    # A host restarted from its log waits for the others: nothing says they left (only
    # a seat that left is waited for "to come back").
    p.on_event(Waiting(0, 100, awaited=True), st, st)
    shown = text(p.countdown_lines(view(st)))
    assert "reconnecting with amel… (1:40 left)" in shown
    assert "come back" not in shown and "waiting for" not in shown


def test_the_hosts_announced_limit_is_the_one_shown():
    """A joiner started with a long --turn-timeout at a table whose host plays 45 s
    moves: the lobby carries the host's limits, and the short clock shows."""
    from chkobba_p2p._shell.peer import Limits, Lobby

    now = Clock()
    p = Presence(900, now)
    st = playing(seat=0, turn=0)
    p.on_event(Lobby((("h", "f"), None), limits=Limits(move=45, allowance=300)), st, st)
    p.on_event(HandStarted(1, 0), st, st)
    assert "0:45 left" in text([p.seat_clock(view(st), 0, False)])


def test_a_resumed_joiner_takes_the_limit_from_the_clocks():
    """After a resume no lobby comes: the peer's clock readings carry the table's limits."""
    from chkobba_p2p._shell.peer import Limits

    now = Clock()
    p = Presence(900, now)
    st = playing(seat=0, turn=0)
    reading = ClockReading((SeatClock(0, True, True, 45.0, 300.0, now.t),
                            SeatClock(1, False, True, 45.0, 300.0, now.t)),
                           Limits(move=45, allowance=300))
    p.on_event(reading, st, st)
    assert p.turn_timeout == 45
    assert "0:45 left" in text([p.seat_clock(view(st), 0, False)])
    off = Presence(None, now)  # a client that shows no move clock (against local bots)
    off.on_event(reading, st, st)
    assert off.turn_timeout is None and off.move_left(st, 0, False) is None


def test_ascii_draws_no_clock_symbol():
    """--ascii turned the clock's symbol into "?", which read like the help key."""
    now = Clock()
    p = Presence(900, now)
    st = playing(turn=1)
    p.on_event(HandStarted(1, 0), st, st)
    plain = TableView(st, Translator("en"), card_style(st, None, False))
    shown = text([p.seat_clock(plain, 1, False)])
    assert shown.strip() == "15:00 left" and "?" not in shown and "⏱" not in shown
    mine = playing(seat=0, turn=0)
    now.t += 890  # under 30 s: the hurry line under the prompt
    hurry = text(p.own_clock(TableView(mine, Translator("en"), card_style(mine, None, False)),
                             60, False))
    assert "0:10" in hurry and "?" not in hurry and "⏱" not in hurry
    assert "⏱" in text(p.own_clock(view(mine), 60, False))
