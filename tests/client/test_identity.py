"""One identity per person for hosting and joining (issue 43): an older version kept
``host-identity.key`` for ``host`` and ``identity.key`` for ``join`` and ``play``, so
one person was two players in ``history``.  The first run finds both, keeps the host's
as the one key, and the other as an alias that both keys signed; ``history`` then
shows one player with every match, signed by either key."""

from __future__ import annotations

import json
import stat

import pytest
from support.audit import play
from support.history import SAMI, _sessions, identity, write_log

from chkobba_cli.main import main
from chkobba_cli.support.identity import (
    ALIASES,
    KEY,
    OLD_HOST_KEY,
    migrate,
    own_aliases,
    own_identity,
    own_keys,
)
from chkobba_p2p.wire.logfile import write_private

AS_HOST = identity("nour as host")
AS_JOINER = identity("nour as joiner")


@pytest.fixture
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(folder))
    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    return folder


def _old_keys(folder) -> None:
    write_private(folder / OLD_HOST_KEY, AS_HOST.seed)
    write_private(folder / KEY, AS_JOINER.seed)


def _logs(folder) -> None:
    """Two matches against sami: nour hosting (seat 0, host key), nour joining sami's
    table (seat 1, the join key), each in nour's own copy."""
    logs = folder / "logs"
    hosted = play(2, sessions=_sessions([AS_HOST, SAMI], ["nour", "sami"], "id-host"),
                  seed=3)
    write_log(hosted, logs / "hosted.chklog", 0, "2026-03-01T20:00:00+00:00")
    joined = play(2, sessions=_sessions([SAMI, AS_JOINER], ["sami", "nour"], "id-join"),
                  seed=4)
    write_log(joined, logs / "joined.chklog", 1, "2026-03-02T20:00:00+00:00")


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_two_old_keys_become_one_identity_and_history_one_player(data, capsys):
    _old_keys(data)
    _logs(data)
    told = []
    me = own_identity(None, lambda key, old, new: told.append((key, old, new)))
    # The host's key is kept as the one identity; the join key is put aside, still 0600.
    assert me.public == AS_HOST.public
    assert not (data / OLD_HOST_KEY).exists()
    assert _mode(data / KEY) == 0o600
    aside = data / f"identity-old-{AS_JOINER.fingerprint}.key"
    assert aside.read_bytes() == AS_JOINER.seed and _mode(aside) == 0o600
    assert told == [("id_merged", AS_JOINER.fingerprint, AS_HOST.fingerprint)]
    assert own_aliases() == {AS_JOINER.public: AS_HOST.public}
    assert own_keys() == [AS_HOST.public, AS_JOINER.public]
    # Said once: the next run finds one key and says nothing.
    assert own_identity(None, lambda *a: told.append(a)).public == AS_HOST.public
    assert len(told) == 1

    # history: one nour, with both matches, under the one key.
    assert main(["history", str(data / "logs"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2
    nours = {s["key"] for r in rows for s in r["seats"] if s["name"] == "nour"}
    assert nours == {AS_HOST.public.hex()}
    assert main(["history", str(data / "logs"), "--ratings", str(data / "logs"),
                 "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.count("nour") == 1 and AS_HOST.fingerprint in out, out
    assert AS_JOINER.fingerprint not in out, out
    assert main(["history", str(data / "logs"), "--with", "sami", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.count("2 matches, you") == 1, out  # the record (beside the total)


def test_before_the_merge_history_already_counts_both(data, capsys):
    """An aside key that nobody vouched for is no alias: a forged line is ignored."""
    _old_keys(data)
    assert sorted(own_keys()) == sorted([AS_JOINER.public, AS_HOST.public])
    (data / ALIASES).write_text(f"{identity('mallory').public.hex()} {'00' * 64} "
                                f"{'00' * 64}\n")
    migrate(data)
    assert own_aliases() == {AS_JOINER.public: AS_HOST.public}


def test_a_fresh_data_dir_has_one_key(data):
    told = []
    me = own_identity(None, lambda *a: told.append(a))
    assert sorted(p.name for p in data.iterdir()) == [KEY]
    assert _mode(data / KEY) == 0o600 and not told
    assert own_identity(None).public == me.public


def test_a_lone_host_key_becomes_the_identity(data):
    write_private(data / OLD_HOST_KEY, AS_HOST.seed)
    told = []
    assert own_identity(None, lambda *a: told.append(a)).public == AS_HOST.public
    assert sorted(p.name for p in data.iterdir()) == [KEY] and not told
    assert _mode(data / KEY) == 0o600


def test_a_game_saved_under_the_join_key_waits_for_the_merge(data):
    """A join to resume under the old key would lose its saved game: merged later."""
    _old_keys(data)
    (data / "resume").mkdir()
    (data / "resume" / f"{AS_JOINER.fingerprint}-127.0.0.1_7000.state").write_bytes(b"x")
    assert own_identity(None).public == AS_JOINER.public
    assert (data / OLD_HOST_KEY).exists()


def test_an_identity_file_given_is_used_as_is(data, tmp_path):
    _old_keys(data)
    path = tmp_path / "other.key"
    me = own_identity(str(path))
    assert _mode(path) == 0o600 and me.public not in (AS_HOST.public, AS_JOINER.public)
    assert (data / OLD_HOST_KEY).exists()  # nothing migrated by a run with its own key

