"""walk6 (80x24): a command's one-line error was left to the terminal, which cut it
inside a word: `chkobba join` with a typo in the join code ended a row with "(1" and
began the next with "6 chiffres hexadécimaux"; `host` on a port in use broke "hôte" as
"hôt" / "e"; `replay` of a file that is not a log broke "file's" as "f" / "ile's" (and
spoke of "magic bytes"); so was any library error main() words (a key file refused).
On a terminal each error is now broken between words, its continuation indented; into a
pipe or a file it stays one line (grep)."""

from __future__ import annotations

import io
import sys

import pytest

from chkobba_cli.main import main


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _said(monkeypatch, argv: list[str], cols: int, tty: bool) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(cols))
    err = _Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(argv) == 2
    return err.getvalue().rstrip("\n").split("\n")


def _not_a_log(tmp_path) -> str:
    path = tmp_path / "notes.txt"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    return str(path)


def _open_key(tmp_path) -> str:
    path = tmp_path / "friend-of-mine-whose-key-this-is.key"
    path.write_bytes(bytes(32))
    path.chmod(0o644)  # readable by others: refused (the error main() says)
    return str(path)


CASES = {
    "key-file": lambda tmp: ["bot", "127.0.0.1:1", "--identity", _open_key(tmp)],
    "join-code": lambda tmp: ["join", "127.0.0.1:7777#abcd-ef01-2345-678"],
    "not-a-log": lambda tmp: ["replay", _not_a_log(tmp)],
}


@pytest.mark.parametrize("cols", [80, 120])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_error_fits_the_terminal_between_words(monkeypatch, tmp_path, case, lang, cols):
    argv = [*CASES[case](tmp_path), "--lang", lang]
    (whole,) = _said(monkeypatch, argv, cols, tty=False)  # a pipe: one line
    rows = _said(monkeypatch, argv, cols, tty=True)
    assert all(len(r) < cols for r in rows), rows
    assert "".join(whole.split()) == "".join("".join(rows).split())  # the same words
    # ... none cut (a path may break after a "/" only: whole, never shortened)
    words, paths = set(whole.split()), [w for w in whole.split() if "/" in w]
    assert all(w in words or any(w in p for p in paths) for r in rows for w in r.split()), rows
    if len(whole) >= cols:
        assert len(rows) > 1 and all(r.startswith("  ") for r in rows[1:]), rows
    # French: no row begins with a closing mark, no « ends one.
    assert not any(r.strip()[:1] in ":;»" or r.endswith("«") for r in rows), rows


@pytest.mark.parametrize("lang, words", [
    ("en", "not a chkobba log (a log is a .chklog file that chkobba play, host, join, bot "
           "and watch write; 'chkobba history' lists yours)"),
    ("fr", "pas un journal de chkobba (un journal est un fichier .chklog qu'écrivent "
           "chkobba play, host, join, bot et watch ; « chkobba history » liste les "
           "vôtres)")])
def test_a_file_that_is_not_a_log_is_said_without_jargon(monkeypatch, tmp_path, lang, words):
    (line,) = _said(monkeypatch, ["replay", _not_a_log(tmp_path), "--lang", lang], 80, False)
    assert line.endswith(words) and "magi" not in line, line
