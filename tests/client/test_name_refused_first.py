"""A ``--name`` the peers would refuse is said before a command makes anything (issue 41,
found by house11): ``host --headless`` printed ``log: PATH`` for a log that never came
and made the ``--identity`` key file, ``bot`` made its key and took its seat's lock,
and ``host``, ``join`` and ``play`` made the person's key and the seat's lock before the
screen said no.  Now each says why, in the reader's words, and leaves its data
directory (and the key file asked for) as it found it."""

from __future__ import annotations

import pytest

from chkobba_cli.main import main
from chkobba_cli.words.i18n import Translator

INVISIBLE = "a\u200bb"


def _files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.fixture
def data(tmp_path, monkeypatch):
    path = tmp_path / "data"
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(path))
    monkeypatch.setenv("CHKOBBA_NO_UPNP", "1")
    return path


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("command", [
    ["host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon"],
    ["bot", "127.0.0.1:9"],
    ["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon"],
    ["join", "127.0.0.1:9"],
    ["play"],
])
def test_a_refused_name_leaves_nothing_behind(data, tmp_path, capsys, command, lang):
    key = tmp_path / "keys" / "id.key"
    identity = [] if command[0] == "play" else ["--identity", str(key)]
    status = main([*command, "--name", INVISIBLE, "--lang", lang, *identity])
    out, err = capsys.readouterr()
    assert status == 2
    said = Translator(lang)("lk_name_invisible", name=repr(INVISIBLE), value="U+200B")
    assert err.strip() == f"chkobba {command[0]}: " + Translator(lang)("cx_error", why=said)
    assert "log:" not in out  # no log announced that will never be written
    assert not data.exists() or _files(data) == []
    assert not key.exists()


@pytest.mark.parametrize("name", ["", "x" * 40])
def test_the_screens_names_are_still_taken_as_before(data, capsys, name):
    """An empty ``--name`` (the remembered name instead) and a long one (cut to 32) were
    the screen's to take: still no refusal of the name (the screen's own check, that a
    terminal is there, speaks)."""
    assert main(["play", "--name", name, "--lang", "en"]) == 2
    assert "name" not in capsys.readouterr().err
