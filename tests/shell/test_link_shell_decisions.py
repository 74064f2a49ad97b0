"""Decisions the trio shell used to make on its own, now in the link's cores and tested
in memory (no trio, no socket, no clock: ``now`` is a number the test moves): how many
strangers the host holds for its file descriptors, what it does when it runs out of
them, how soon a joiner tries its host again, and which fingerprint a joiner requires."""

from __future__ import annotations

import pytest

from chkobba_p2p.link.admission import (
    FILES_WARNING,
    RESERVED_FILES,
    STRANGERS,
    Admission,
    AdmissionPolicy,
    strangers_for_files,
)
from chkobba_p2p.link.joiner import RETRY_FIRST, RETRY_MOST, SeatLink, pinned_fingerprint
from chkobba_p2p.link.messages import read_frame
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire.codec import Identity, encode


def test_the_strangers_budget_leaves_room_for_the_seats_the_log_and_the_runtime():
    assert strangers_for_files(STRANGERS, None) == STRANGERS  # no limit: the maximum
    assert strangers_for_files(STRANGERS, 1024) == STRANGERS
    # Each stranger costs about two descriptors, past the ones kept for the rest.
    assert strangers_for_files(STRANGERS, RESERVED_FILES + 20) == 10
    assert strangers_for_files(STRANGERS, RESERVED_FILES + 21) == 10
    # However few files the process may open, two strangers are held (one may be a
    # returning seat: a budget of one would let every newcomer push it out).
    assert strangers_for_files(STRANGERS, 10) == 2
    assert strangers_for_files(STRANGERS, 0) == 2
    assert strangers_for_files(3, 10_000) == 3


def test_out_of_files_lets_the_stranger_go_that_a_full_budget_would():
    a: Admission[str] = Admission(AdmissionPolicy(strangers=8))
    a.opened("honest", "203.0.113.7", 0.0)
    a.opened("flood0", "198.51.100.9", 1.0)
    a.opened("flood1", "198.51.100.9", 2.0)
    a.seated("seat")  # not a stranger: never shed
    first = a.out_of_files(5.0)
    assert first.victim == "flood0" and first.warn
    assert not a.is_stranger("flood0") and a.evicted == 1 and a.lost == 0
    # One warning per FILES_WARNING seconds, however often accept() fails.
    # The groups hold one each now: the oldest goes.
    second = a.out_of_files(5.0 + FILES_WARNING)
    assert second.victim == "honest" and not second.warn
    third = a.out_of_files(5.0 + FILES_WARNING + 0.01)
    assert third.victim == "flood1" and third.warn
    # Nobody left to let go: the connection being accepted is the one lost.
    none = a.out_of_files(6.0 + 2 * FILES_WARNING)
    assert none.victim is None and none.warn
    assert a.lost == 1 and a.refused == a.evicted + a.lost == 4
    assert a.strangers == 0


def _link() -> SeatLink[str]:
    return SeatLink(Identity.generate(), "host:7777", None, Limits(move=30, allowance=10))


def test_a_joiner_tries_its_host_again_sooner_and_sooner_then_once_a_second():
    link = _link()
    delays = [link.retry_delay() for _ in range(8)]
    assert delays[0] == RETRY_FIRST
    assert all(b == min(2 * a, RETRY_MOST) for a, b in zip(delays, delays[1:], strict=False))
    assert delays[-1] == RETRY_MOST
    # A connection that got past its welcome starts the count again: its drop is news.
    link.was_connected = True
    assert link.retry_delay() == RETRY_FIRST and not link.was_connected
    assert link.retry_delay() == 2 * RETRY_FIRST


def test_the_fingerprint_a_joiner_requires_is_the_codes_or_the_configured_one_never_two():
    fp = Identity.generate().fingerprint
    assert pinned_fingerprint(None, None) is None
    assert pinned_fingerprint(fp, None) == fp
    assert pinned_fingerprint(None, fp) == fp
    assert pinned_fingerprint(fp, fp.upper()) == fp  # the same, however written
    other = Identity.generate().fingerprint
    with pytest.raises(ValueError, match="two different host fingerprints"):
        pinned_fingerprint(fp, other)


def test_what_the_host_takes_from_a_seat_or_a_spectator_is_what_its_state_table_reads():
    from chkobba_p2p.game.rules import Ruleset
    from chkobba_p2p.link.host import SEAT_MESSAGES, SPECTATOR_MESSAGES, HostTable
    from chkobba_p2p.link.seat import Close
    from chkobba_p2p.link.states import HOST, MESSAGE_TYPES, refusal_of

    # An ``error`` is a peer's last word: the connection ends before the table reads it.
    assert SEAT_MESSAGES | {"error"} == set(HOST.table["IN_GAME"])
    assert SPECTATOR_MESSAGES | {"error"} == set(HOST.table["WATCHING"])
    table: HostTable[str] = HostTable(Identity.generate(), "hedi", Ruleset(), 2, False,
                                      Limits(move=30, allowance=10), spectator_limit=2,
                                      is_closed=lambda c: False)
    for t in (*MESSAGE_TYPES, "emoji"):
        if t in ("error", "sig"):
            continue  # sig before the game: the entry is read first (its own errors)
        code = refusal_of(HOST, "SEATED", t)
        table.take()
        frame = read_frame(encode({"t": t}))
        # A connection of its own each: one refused hears nothing more.
        assert table.seat_message(f"c-{t}", 1, frame, 0.0) is (code is None), t
        closes = [e for e in table.take() if isinstance(e, Close)]
        assert [c.code for c in closes] == ([] if code is None else [code]), t
        answers, refusal = HostTable.spectator_message("s", frame)
        assert (None if refusal is None else refusal.error_code) == \
            refusal_of(HOST, "WATCHING", t), t
        assert len(answers) == (t == "ping")
