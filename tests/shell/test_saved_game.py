"""Where a seat's saved game lives: one file per identity and table.

A person who steps away from one table and joins another must still be able to come
back to the first: the second game's save may not replace the first one's secrets.
"""

from chkobba_p2p.wire.logfile import saved_game_path


def test_each_table_of_one_identity_has_its_own_saved_game(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    first = saved_game_path("2935-c4f7", "127.0.0.1:7916")
    second = saved_game_path("2935-c4f7", "127.0.0.1:7917")
    assert first != second
    assert saved_game_path("2935-c4f7", "127.0.0.1:7916") == first  # the same command finds it
    assert saved_game_path("other-key", "127.0.0.1:7916") != first
    assert saved_game_path("2935-c4f7", "host-7916") != first  # hosting is another seat


def test_a_table_name_stays_inside_the_resume_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    for table in ("../../etc/passwd", "[::1]:7777", "a/b\\c", "host\x1b[2J"):
        path = saved_game_path("k", table)
        assert path.parent == tmp_path / "resume"
        assert path.name.endswith(".state") and "/" not in path.name
