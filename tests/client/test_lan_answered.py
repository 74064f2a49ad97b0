"""``chkobba join`` remembers the endpoints whose pinned key answered (PROTOCOL.md section
15), so that a later LAN browse keeps their table listed under a flood; an endpoint where
the key did not answer (nobody there, another key, a handshake cut short) is not."""

from __future__ import annotations

import pytest

from chkobba_cli.reach import remember_answered
from chkobba_p2p import AnsweredEndpoints, Outcome, OutcomeError

FP = "0123-4567-89ab-cdef"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    return tmp_path


def outcome(code: str | None) -> Outcome:
    return Outcome(seat=None, table=None, log_path=None, error_code=code)


def test_a_key_that_answered_is_remembered(data_dir):
    remember_answered("192.0.2.5:7777", FP, outcome("table_full"))  # refused after the key
    remember_answered("[fd00::5]:7778", FP, outcome(None))
    answered = AnsweredEndpoints()
    assert (FP, "192.0.2.5", 7777) in answered and (FP, "fd00::5", 7778) in answered


@pytest.mark.parametrize("code", [OutcomeError.CONNECT_FAILED, OutcomeError.HOST_KEY_MISMATCH,
                                  OutcomeError.CONNECTION_CLOSED,
                                  OutcomeError.HANDSHAKE_FAILED])
def test_no_answer_from_the_key_is_not_remembered(data_dir, code):
    remember_answered("192.0.2.5:7777", FP, outcome(code))
    assert len(AnsweredEndpoints()) == 0


def test_unpinned_joins_and_names_are_not_remembered(data_dir):
    remember_answered("192.0.2.5:7777", None, outcome(None))
    remember_answered("table.example:7777", FP, outcome(None))
    assert not (data_dir / "lan_answered").exists()
