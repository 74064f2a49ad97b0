"""The library under ``python -O``: an ``assert`` is stripped there, so nothing the
program needs may happen inside one (a ``:=`` binding in an assert left ``y`` unbound in
the deal's share check, and every match aborted at its first deal under -O)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

LIBRARY = Path(__file__).resolve().parent.parent / "chkobba_p2p"


def _bindings_in_asserts(tree: ast.AST) -> list[int]:
    return [node.lineno for a in ast.walk(tree) if isinstance(a, ast.Assert)
            for node in ast.walk(a) if isinstance(node, ast.NamedExpr)]


def test_no_assert_in_the_library_binds_a_name():
    found = {str(p.relative_to(LIBRARY.parent)): lines for p in sorted(LIBRARY.rglob("*.py"))
             if (lines := _bindings_in_asserts(ast.parse(p.read_text(encoding="utf-8"))))}
    assert found == {}


def test_the_scan_sees_a_binding_in_an_assert():
    assert _bindings_in_asserts(ast.parse("assert (y := f()) is not None\n")) == [1]
    assert _bindings_in_asserts(ast.parse("y = f()\nassert y is not None\n")) == []


@pytest.mark.slow
def test_a_match_with_proofs_plays_to_its_end_under_python_O():
    code = ("import sys; sys.path.insert(0, 'tests')\n"
            "from support.audit import play\n"
            "p = play(3, key=b'optimized', proofs=True)\n"
            "print([str(s.phase) for s in p.sessions], [s.aborted for s in p.sessions])\n")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                         cwd=LIBRARY.parent, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "['done', 'done', 'done'] [None, None, None]"
