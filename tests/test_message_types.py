"""A message's type is read in one place per layer (issue 41, "typed messages"): the wire
codec (``chkobba_p2p/wire/codec.py``: ``message_type``, then the link's
``parse_link_message`` on top of it) and the deal's own parser
(``chkobba_p2p/deal/messages.py``: ``parse_item``, the deal standing beside the codec).
Everywhere else, in the library and the client, code takes the typed message those
parsers give (a class per message) and dispatches on its class, never on the ``"t"``
string: no ``msg["t"]``, no ``msg.get("t")``.  The scan is over the source, with
:mod:`ast` (nothing is imported); building a message's map (``{"t": ...}``) is writing,
not reading, and is left alone.

The tests' shared helpers (``tests/support/``) read messages as the library does and are
scanned too.  The test modules are not: many play a hostile peer or a damaged file on
raw maps (pick the ``deal/shuffle`` to tamper with, forge a frame, check what went out on
the wire), and the wire and parser tests must read ``t`` to test the parsers."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What is scanned: the library, the client and the tests' shared helpers.
SCANNED = ("chkobba_p2p", "cli", "tests/support")
#: The parsers: the only files that read a message's ``t``.
PARSERS = {"chkobba_p2p/wire/codec.py", "chkobba_p2p/deal/messages.py"}


def _is_t(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == "t"


def type_reads(path: Path, root: Path = ROOT) -> list[str]:
    """Each ``x["t"]`` (read) and ``x.get("t", ...)`` in ``path``: ``file:line``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        read = isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
            and _is_t(node.slice)
        got = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get" and bool(node.args) and _is_t(node.args[0])
        if read or got:
            found.append(node.lineno)
    return [f"{path.relative_to(root).as_posix()}:{line}" for line in sorted(found)]


def outside_the_parsers(root: Path = ROOT) -> list[str]:
    out = []
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*.py")):
            if path.relative_to(root).as_posix() not in PARSERS:
                out += type_reads(path, root)
    return out


def test_only_the_parsers_read_a_messages_type():
    found = outside_the_parsers()
    assert found == [], ("a message's type read outside the parsers (take the typed "
                         "message: parse_link_message, parse_item):\n" + "\n".join(found))


def test_the_scan_names_each_read_and_leaves_writes_alone(tmp_path):
    (tmp_path / "chkobba_p2p" / "wire").mkdir(parents=True)
    (tmp_path / "cli").mkdir()
    (tmp_path / "chkobba_p2p" / "wire" / "codec.py").write_text("t = msg.get('t')\n")
    (tmp_path / "chkobba_p2p" / "core.py").write_text(
        "msg = {'t': 'ping'}\n"          # a write: allowed
        "msg['t'] = 'pong'\n"            # a write: allowed
        "if msg['t'] == 'ping':\n"       # a dispatch on the string
        "    pass\n"
        "kind = m.get('t') if m else None\n"
        "other = m.get('type')\n")
    (tmp_path / "cli" / "show.py").write_text("print(msg[\"t\"])\n")
    (tmp_path / "tests" / "support").mkdir(parents=True)
    (tmp_path / "tests" / "support" / "helper.py").write_text("kinds = [d['t'] for d in ds]\n")
    (tmp_path / "tests" / "test_forge.py").write_text("if m['t'] == 'deal/shuffle': pass\n")
    assert outside_the_parsers(tmp_path) == [
        "chkobba_p2p/core.py:3", "chkobba_p2p/core.py:5", "cli/show.py:1",
        "tests/support/helper.py:1"]
