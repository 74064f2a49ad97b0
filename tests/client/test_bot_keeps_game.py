"""A host's bot keeps its game for the host's restart (cli/support/botproc.py, keep_game): one
process per seat, a restarted host's new bot never taking the seat from the one that
still plays it, and a new table's bot never resuming a game its host no longer plays."""

from __future__ import annotations

import pytest

from chkobba_cli.support.botproc import keep_game
from chkobba_p2p import Identity, SeatLock, saved_game_path

TABLE = "127.0.0.1:7777"


@pytest.fixture
def bot(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    return Identity.generate()


def test_a_bot_keeps_its_game_under_its_key_and_the_table(bot):
    kept = keep_game(bot, f"{TABLE}#2935-c4f7-816c-a26c+k7m2-x4qa-b3cd-e5fg", True)
    assert kept is not None
    state, lock = kept
    assert state == saved_game_path(bot.fingerprint, TABLE)  # the code's address only
    assert lock is not None
    lock.release()


def test_a_restarted_host_s_bot_leaves_the_seat_to_the_process_playing_it(bot):
    other = SeatLock(saved_game_path(bot.fingerprint, TABLE)).acquire()
    try:
        assert keep_game(bot, TABLE, resuming=True) is None
    finally:
        other.release()


def test_a_resuming_bot_keeps_the_saved_game_it_finds(bot):
    state = saved_game_path(bot.fingerprint, TABLE)
    state.parent.mkdir(parents=True)
    state.write_bytes(b"saved")
    kept = keep_game(bot, TABLE, resuming=True)
    assert kept is not None and kept[1] is not None
    kept[1].release()
    assert state.read_bytes() == b"saved"


def test_a_new_table_s_bot_files_an_older_game_aside(bot):
    """Its host opens a new table: the game saved there before is one the host no longer
    plays (it would have resumed it), filed aside, never resumed in the way."""
    state = saved_game_path(bot.fingerprint, TABLE)
    state.parent.mkdir(parents=True)
    state.write_bytes(b"older")
    kept = keep_game(bot, TABLE, resuming=False)
    assert kept is not None and kept[1] is not None
    kept[1].release()
    assert not state.exists()
    (filed,) = (state.parent / "filed").iterdir()
    assert filed.read_bytes() == b"older"


def test_a_new_table_s_bot_waits_for_an_older_process_then_keeps_nothing(bot):
    other = SeatLock(saved_game_path(bot.fingerprint, TABLE)).acquire()
    try:
        assert keep_game(bot, TABLE, resuming=False, wait=0.3) == (None, None)
    finally:
        other.release()
