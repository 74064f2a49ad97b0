"""The link core is sans-IO: no module of ``chkobba_p2p.link`` imports trio, a socket,
a clock or an event loop (read with :mod:`ast`, nothing is imported).  Time reaches it
as an argument, bytes and connections as calls from the trio shell."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LINK = Path(__file__).resolve().parent.parent.parent / "chkobba_p2p" / "link"
FORBIDDEN = {"trio", "socket", "time", "asyncio", "selectors", "threading", "anyio"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


MODULES = sorted(LINK.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_link_module_imports_no_io(path: Path) -> None:
    bad = imported_roots(path) & FORBIDDEN
    assert not bad, f"{path.name} imports {sorted(bad)}: the link core must stay sans-IO"


def test_the_check_sees_an_import_of_trio(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("def f():\n    import trio.lowlevel\n    from time import monotonic\n")
    assert imported_roots(sample) >= {"trio", "time"}
