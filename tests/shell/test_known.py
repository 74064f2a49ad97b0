"""Known players, like ssh's known hosts: new, recognised, and a changed key."""

from __future__ import annotations

import os
import stat

from chkobba_p2p._shell.known import KnownPlayers, Recognition, config_dir
from chkobba_p2p.wire.codec import fingerprint

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


LOOKALIKES = ["Amel", "amel ", "AMEL", "\uff41\uff4d\uff45\uff4c", "\u0430mel", "ame\u0049",
              "am\u200bel", " \u0410m\u0435l", "ame1"]


def test_a_lookalike_of_a_known_name_with_another_key_is_a_changed_key(tmp_path):
    """An impostor sitting as a name that passes for a remembered one (case, spaces,
    fullwidth, Cyrillic letters, I for l) gets the loud warning, naming whom it looks
    like; with the remembered key it is that person, known."""
    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("amel", A), ("hana", B)])
    for name in LOOKALIKES:
        seen = known.check(name, B)
        assert seen.status is Recognition.CHANGED, name
        assert seen.like == "amel" and seen.before == fingerprint(A), name
        assert known.check(name, A).status is Recognition.KNOWN, name
    assert known.check("amel", B).like is None  # the name itself: the plain warning
    for other in ("hana2", "amal", "samel", "amelie"):
        assert known.check(other, B).status is Recognition.NEW, other


def test_the_lookalike_warning_is_worded_in_both_languages(tmp_path):
    from chkobba_cli.tui.parts.trust import seat_lines
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p._shell.peer import Lobby, TableState

    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("amel", A)])
    st = TableState(my_fingerprint=fingerprint(A)).apply(Lobby(
        (("hana", fingerprint(A)), ("\u0430mel", fingerprint(B))), ready=(True, False),
        seating=2, keys=(A, B)))
    for lang, words in (("en", "looks like amel, whom you met with another key"),
                        ("fr", "ressemble à amel, rencontré(e) avec une autre clé")):
        lines = seat_lines(st, Translator(lang), known, 200, ready_check=True)
        text = "\n".join("".join(part for _, part in line) for line in lines)
        assert words in text, text
