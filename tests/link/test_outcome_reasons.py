"""Why a join got no game is data (issue 41: the library speaks codes and data, not
sentences): every way the joiner's core stops before a game names its case
(``Outcome.error_reason``, one of ``ERROR_REASONS``), its code for programs
(``error_code``: a wire code's name or an ``OutcomeError``) and carries what a sentence
needs (``error_data``), a remote host's free text kept apart as its own words."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from chkobba_p2p.link import messages as m
from chkobba_p2p.link.events import ERROR_REASONS, Outcome, OutcomeError
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.transcript.clocks import Limits
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity

WHERE = "host:7777"


def _core(pinned: str | None = None) -> SeatLink:
    return SeatLink(Identity.generate(), WHERE, pinned, Limits(move=30, allowance=10))


def _outcome(core: SeatLink) -> Outcome:
    return core.outcome(Path("x.log"), 0, 0)


def _in_game(core: SeatLink) -> SeatLink:
    """A core with a saved game's session in the way the checks read it (only its
    presence counts for how a failure to connect is said)."""
    core.session = object()  # type: ignore[assignment]
    return core


def _stopped(case: str) -> Outcome:
    c = _core()
    if case == "host_key_mismatch":
        c = _core(wire.fingerprint(Identity.generate().public))
        assert c.refuse_host_key(Identity.generate().public)
    elif case == "game_unknown":
        c._game_unknown()
    elif case == "refused":
        assert c.refused(m.ErrorMsg(ErrorCode.TABLE_FULL, ErrorCode.TABLE_FULL.sentence
                                    + ": 4 of 4", number=202))
    elif case == "closed_in_handshake":
        assert c.closed_in_handshake()
    elif case == "handshake_failed":
        assert c.handshake_failed("no common version", "version_mismatch",
                                  ErrorCode.VERSION_MISMATCH)
    elif case == "host_changed":
        c.host_key = b"ours"
        assert c.other_host(b"another") is True
    elif case in ("connect_refused", "connect_failed"):
        assert c.connect_failed("[Errno -2] Name or service not known",
                                case == "connect_refused", 10.0)
    elif case in ("unreachable_closed", "unreachable"):
        _in_game(c)
        assert c.connect_failed("timed out", case == "unreachable_closed", 10.0)
        c.session = None
    elif case == "no_host_answered":
        assert c.no_host_answered()
    elif case == "host_away_kept":  # a host's own bot, its host away past its allowance
        c.claims_host_gone = False
        c.session = SimpleNamespace(finished=False)  # type: ignore[assignment]
        assert not c.unreachable(0.0)
        assert c.unreachable(11.0)  # (a claim would have signed: no session for it)
        c.session = None
    elif case == "lobby_shutdown":
        c.closed_in_lobby(m.ErrorMsg(ErrorCode.SHUTDOWN, "bye", number=502))
    elif case == "lobby_ended":
        c.closed_in_lobby(m.ErrorMsg(ErrorCode.READY_TIMEOUT, "too slow", number=208))
    elif case == "lobby_closed":
        c.closed_in_lobby(None)
    elif case == "no_table":
        assert c.no_table()
    elif case == "bad_genesis":
        c.stop(OutcomeError.BAD_GENESIS, "bad_genesis", detail="x")
    elif case == "saved_game_missing":
        c._seat_held_elsewhere()
    elif case == "already_over":  # said by the shell, through the core's stop
        c.stop(None, "already_over")
    return _outcome(c)


#: The cases only a spectator meets (tests/link/test_spectator_core.py names them).
SPECTATOR_ONLY = {"closed", "handshake_timeout"}


@pytest.mark.parametrize("case", sorted(set(ERROR_REASONS) - SPECTATOR_ONLY))
def test_each_case_is_named_with_its_data(case):
    o = _stopped(case)
    assert o.error_reason == case
    assert set(o.error_data) <= set(ERROR_REASONS[case]), o.error_data
    if "where" in ERROR_REASONS[case]:
        assert o.error_data.get("where") == WHERE


def test_the_codes_programs_read_are_kept():
    assert _stopped("refused").error_code == "table_full"
    assert _stopped("lobby_ended").error_code == "ready_timeout"
    assert _stopped("lobby_shutdown").error_code == OutcomeError.HOST_CLOSED
    assert _stopped("handshake_failed").error_code == "version_mismatch"
    for case in ("connect_refused", "connect_failed", "unreachable", "unreachable_closed",
                 "no_host_answered", "host_away_kept"):
        assert _stopped(case).error_code == OutcomeError.CONNECT_FAILED
    for case in ("closed_in_handshake", "lobby_closed"):
        assert _stopped(case).error_code == OutcomeError.CONNECTION_CLOSED


def test_a_refusal_keeps_the_host_s_own_words_apart():
    """The code's sentence is ours (the client words it); only what the host added past
    it is the host's text, its claim."""
    o = _stopped("refused")
    assert o.error_data == {"code": "table_full", "number": 202, "host_text": "4 of 4"}
    c = _core()
    c.refused(m.ErrorMsg(None, "no idea " * 40, number=777))
    o = _outcome(c)
    assert o.error_data["number"] == 777 and o.error_data["code"] == "connection_closed"
    assert len(str(o.error_data["host_text"])) <= 120  # cut short, as it always was


def test_the_data_a_sentence_needs():
    assert _stopped("lobby_ended").error_data == {"code": "ready_timeout",
                                                  "host_text": "too slow"}
    assert _stopped("no_table").error_data == {"seconds": 10.0}
    # The last lobby's flaw: its check's code and facts (a client words them), and its
    # English for logs; the lobby is read as the host's frame is.
    c = _core()
    c.lobby_problem = m.read_frame(wire.encode(
        bad := {"t": "lobby", "seats": [None, {"key": b"k", "name": "a"}]}), bad).error
    assert c.no_table()
    assert _outcome(c).error_data == {
        "seconds": 10.0, "detail": "seat 1's key is not 32 bytes",
        "violation": "seat_key_size", "facts": (("seat", 1),)}
    assert _stopped("connect_failed").error_data == {
        "where": WHERE, "why": "[Errno -2] Name or service not known"}
    assert _stopped("host_key_mismatch").error_data["actual"] != \
        _stopped("host_key_mismatch").error_data["pinned"]
