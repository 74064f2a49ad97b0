"""Known players, like ssh's known hosts: new, recognised, and a changed key."""

from __future__ import annotations

import os
import stat

from chkobba_p2p.known import KnownPlayers, Recognition, config_dir
from chkobba_p2p.wire import fingerprint

A, B = bytes(range(32)), bytes(range(1, 33))


def test_a_changed_key_for_a_known_name_is_reported(tmp_path):
    path = tmp_path / "cfg" / "known_players"
    known = KnownPlayers(path)
    assert known.check("hana", A).status is Recognition.NEW
    known.remember([("hana", A), ("sami", B)])
    again = KnownPlayers(path)  # read back from the file
    assert again.check("hana", A).status is Recognition.KNOWN
    seen = again.check("hana", B)
    assert seen.status is Recognition.CHANGED and seen.before == fingerprint(A)
    assert again.check("sami", B).status is Recognition.KNOWN
    assert again.check("imposter", B).also_known_as == ("sami",)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # The person accepted the new key: it replaces the old one.
    again.remember([("hana", B)])
    assert KnownPlayers(path).check("hana", B).status is Recognition.KNOWN


def test_junk_lines_are_skipped_and_the_file_size_is_bounded(tmp_path):
    path = tmp_path / "known_players"
    path.write_bytes(b"zz not hex\n" + A.hex().encode() + b" hana\n" + b"\xff\xfe\n"
                     + B.hex().encode() + b" " + b"x" * 40 + b"\n")
    known = KnownPlayers(path)
    assert known.entries == {"hana": A}
    big = tmp_path / "big"
    big.write_bytes((A.hex() + " someone\n").encode() * 30000)  # > 1 MiB
    assert KnownPlayers(big).check("someone", A).status is Recognition.KNOWN


def test_the_default_file_follows_the_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path))
    assert config_dir() == tmp_path
    assert KnownPlayers().path == tmp_path / "known_players"
