"""No private reach across modules (issue 41, "one of each"): the I/O shell
(``chkobba_p2p/_shell``) uses the cores, the controllers and its own modules through
public methods only; the client (``cli/``) never touches a private name of the library,
nor one of its own modules' private names from another.  A private name (``_x``) may be
read off an object only in the module that defines it (tor.py's own
``control._authenticate``, say): the scan is by name, over the source, with no import."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "chkobba_p2p"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, and the targets of its
    assignments (``self._x = ...``, ``_x: int = ...``, class attributes)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)  # another object's ``x._y = ...`` is a reach, not a def
    return {n for n in names if _private(n)}


def reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """Each ``x._name`` read or set whose object is not the code's own (``self``, ``cls``,
    ``super()``): line and source."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) \
                and owner.func.id == "super":
            continue
        found.append((node.lineno, node.attr))
    return found


def foreign_reaches(folder: Path, forbidden: set[str] | None = None,
                    root: Path = ROOT) -> list[str]:
    """Each reach in ``folder``'s modules for a private name the module does not define
    (only those among ``forbidden``, when given), named from ``root``."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = defined(tree)
        for line, name in reaches(tree):
            if name not in own and (forbidden is None or name in forbidden):
                out.append(f"{path.relative_to(root)}:{line}: .{name}")
    return out


def test_the_shell_reaches_into_no_other_modules_private_names():
    found = foreign_reaches(LIBRARY / "_shell")
    assert not found, "private reach across modules (make it a public method):\n" + \
        "\n".join(found)


def test_the_client_reaches_into_no_private_name_of_the_library():
    found = foreign_reaches(ROOT / "cli", private_names(LIBRARY))
    assert not found, "the client uses a private name of chkobba_p2p:\n" + "\n".join(found)


def private_names(folder: Path) -> set[str]:
    """The private names the modules under ``folder`` define."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        names |= defined(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return names


def test_the_clients_modules_reach_into_no_private_name_of_one_another():
    """Within the client too: a module uses another's objects through public names (a
    private name of a library outside the project, argparse's ``_actions``, is not the
    client's own and is left to that library's own promises)."""
    client = ROOT / "cli"
    found = foreign_reaches(client, private_names(client))
    assert not found, "private reach between the client's modules (make it public):\n" + \
        "\n".join(found)


#: A dotted name of the library with a private part (``chkobba_p2p._shell.peer``).
_PRIVATE_PATH = re.compile(r"chkobba_p2p(?:\.\w+)*\._[a-z]\w*")


def private_paths(folder: Path, root: Path = ROOT) -> list[str]:
    """Each mention, in code, docstrings or comments, of a private module or name of the
    library (its public faces are what a reader of the client should look up)."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{path.relative_to(root)}:{n}: {m}" for m in _PRIVATE_PATH.findall(line)]
    return out


def test_the_clients_words_for_developers_name_the_librarys_public_face():
    found = private_paths(ROOT / "cli")
    assert not found, "the client names a private part of chkobba_p2p (name the face):\n" + \
        "\n".join(found)
    assert _PRIVATE_PATH.findall("(:func:`chkobba_p2p._shell.peer.join_match`), "
                                 "chkobba_p2p.join_match, chkobba_p2p.game._masks") == [
        "chkobba_p2p._shell", "chkobba_p2p.game._masks"]


def test_the_scan_names_a_reach_and_passes_the_modules_own(tmp_path):
    (tmp_path / "a.py").write_text(
        "class A:\n"
        "    def __init__(self):\n"
        "        self._mine = 1\n"
        "    def f(self, other, core):\n"
        "        other._mine\n"  # the module's own name: allowed
        "        super()._hook()\n"
        "        core._sink = print\n"
        "        return core._entry_out(b''), core.__class__\n")
    assert foreign_reaches(tmp_path, root=tmp_path) == ["a.py:7: ._sink", "a.py:8: ._entry_out"]
    assert foreign_reaches(tmp_path, {"_hook"}, root=tmp_path) == []
    assert foreign_reaches(tmp_path, {"_entry_out"}, root=tmp_path) == ["a.py:8: ._entry_out"]


def test_a_controller_attached_to_its_peer_acts_through_it_and_keeps_what_is_not_given():
    """The public hook the shell sets a controller's actions through (no ``_sink`` set
    from outside): each given replaces the one before, one not given stays."""
    from chkobba_p2p.link.events import SeatController

    controller = SeatController()
    assert not controller.send_chat("salam") and not controller.free_seat(1)
    said: list[object] = []
    controller.attach(chat=lambda text: said.append(text) or True,
                      resign=lambda: said.append("resign") or True)
    controller.attach(free=lambda seat: said.append(seat) or True)
    assert controller.send_chat("salam") and controller.resign() and controller.free_seat(2)
    assert not controller.step_away() and not controller.offer_rematch()
    assert said == ["salam", "resign", 2]
