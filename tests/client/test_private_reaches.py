"""No module of the client imports another module's private name (issue 41): what one
module shares with another is public (``chkobba watch`` reached into the guest runner's
``_stderr_held``; holding stderr under a full screen is now ``support.term.stderr_held``,
which the players' runner and the spectator's screen both use)."""

from __future__ import annotations

import ast
from pathlib import Path

import chkobba_cli

CLIENT = Path(chkobba_cli.__file__).parent


def _private_imports() -> list[str]:
    found = []
    for path in sorted(CLIENT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                found += [f"{path.relative_to(CLIENT)}:{node.lineno}: {alias.name}"
                          for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


def test_no_client_module_imports_a_private_name():
    assert _private_imports() == []


def test_the_scan_finds_a_private_import(tmp_path, monkeypatch):
    """The scan above would see one (it reads the client's files, whatever they hold)."""
    (tmp_path / "a.py").write_text("from .guest import _stderr_held\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "CLIENT", tmp_path)
    assert _private_imports() == ["a.py:1: _stderr_held"]
