"""The project's modules import one another without a cycle, and every arrow points down.

The graph is read from the source with :mod:`ast` (nothing is imported): every module
under ``chkobba_p2p/`` and under the client's folder ``cli/`` (whatever name the client is
installed under: the console script's package, so this holds before and after the
folder is installed under a name of ours).  An edge is any ``import`` or ``from ...
import`` of another project module, **at module level and inside functions or
classes alike** (a lazy import is a dependency all the same; it only hides a cycle until
run time); imports under ``if TYPE_CHECKING:`` are left out (they never run).
``from package import name`` counts as importing the submodule ``package.name`` when
there is one, else the package itself.  Importing a submodule is not counted as
importing its parent package's ``__init__``.

The tree is the architecture (docs/architecture.md): one folder per layer, and a rule per
folder, "it imports only what stands below it" (:data:`ORDER`); only ``_shell/`` (and the
test kit ``testing``) import trio, sockets or zeroconf.
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = "chkobba_p2p"
CLIENT_FOLDER = "cli"


def client_package() -> str:
    """The client's import name: the package of the ``chkobba`` console script."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    target = project["scripts"]["chkobba"]
    return target.split(":")[0].split(".")[0]


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    file: str  # relative to the package folder's parent
    line: int

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def discover(folders: dict[str, Path]) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is_package) for every ``.py`` file under each package folder."""
    modules: dict[str, tuple[Path, bool]] = {}
    for package, folder in folders.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            modules[".".join([package, *parts])] = (path, is_package)
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(body: Iterable[ast.AST]) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, except under ``if TYPE_CHECKING:``."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def import_graph(folders: dict[str, Path], aliases: dict[str, str] | None = None) -> list[Edge]:
    """The edges between the modules under ``folders`` (package name -> folder).
    ``aliases`` maps another top-level name to one of those packages (the client's folder
    name, in case a module still imports it under that name)."""
    modules = discover(folders)
    aliases = aliases or {}

    def known(name: str) -> str | None:
        head, dot, rest = name.partition(".")
        name = aliases.get(head, head) + dot + rest
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: list[Edge] = []
    for module, (path, is_package) in modules.items():
        package = module if is_package else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        for node in _import_nodes(tree.body):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            else:
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = known(f"{base}.{alias.name}")
                    targets.append(sub if sub is not None and sub.endswith(f".{alias.name}")
                                   else known(base))
            for target in targets:
                if target is not None and target != module:
                    shown = path.relative_to(folders[module.split(".")[0]].parent).as_posix()
                    edges.append(Edge(module, target, shown, node.lineno))
    return edges


def cycles(edges: list[Edge]) -> list[list[Edge]]:
    """One concrete cycle per strongly connected component that has one (Tarjan)."""
    graph: dict[str, dict[str, Edge]] = {}
    for e in edges:
        graph.setdefault(e.source, {}).setdefault(e.target, e)
        graph.setdefault(e.target, {})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)

    found = []
    for component in components:
        start = min(component)
        # Shortest way back to the start inside the component (breadth first).
        came_from: dict[str, Edge] = {}
        frontier = [start]
        while start not in came_from:
            following = []
            for v in frontier:
                for w, e in sorted(graph[v].items()):
                    if w in component and w not in came_from:
                        came_from[w] = e
                        following.append(w)
            frontier = following
        path = [came_from[start]]
        while path[-1].source != start:
            path.append(came_from[path[-1].source])
        found.append(path[::-1])
    return found


def describe(cycle: list[Edge]) -> str:
    names = " -> ".join([cycle[0].source, *(e.target for e in cycle)])
    return f"{names} ({', '.join(e.where() for e in cycle)})"


def project() -> tuple[dict[str, Path], dict[str, str]]:
    client = client_package()
    folders = {LIBRARY: ROOT / LIBRARY, client: ROOT / CLIENT_FOLDER}
    aliases = {CLIENT_FOLDER: client} if client != CLIENT_FOLDER else {}
    return folders, aliases


@functools.cache
def _project_graph() -> tuple[Edge, ...]:
    """The project's import graph, read once per test process: four tests read it, and
    reading it is parsing every module."""
    return tuple(import_graph(*project()))


def project_graph() -> list[Edge]:
    return list(_project_graph())


def test_no_import_cycle_among_the_projects_modules():
    edges = project_graph()
    assert len({e.source for e in edges}) > 20, "the walk found too few modules to mean anything"
    found = cycles(edges)
    assert not found, "import cycles:\n" + "\n".join(describe(c) for c in found)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_walk_names_a_cycle_through_a_lazy_import_and_ignores_type_checking(tmp_path):
    _write(tmp_path / "pkg", {
        "__init__.py": "",
        "low.py": "import os\n",
        "a.py": "from . import b\nfrom .sub import deep\n",
        "b.py": "def f():\n    from .a import name\n    return name\n",
        "c.py": ("from typing import TYPE_CHECKING\nfrom pkg import low\n"
                 "if TYPE_CHECKING:\n    from .a import x\nelse:\n    import pkg.low\n"),
        "sub/__init__.py": "",
        "sub/deep.py": "from .. import c\nfrom ..low import thing\n",
    })
    _write(tmp_path / "client", {"__init__.py": "", "main.py": "from client import x\n"
                                 "import renamed.tools\nfrom pkg.c import y\n",
                                 "tools.py": ""})
    edges = import_graph({"pkg": tmp_path / "pkg", "renamed": tmp_path / "client"},
                         {"client": "renamed"})
    assert {(e.source, e.target) for e in edges} == {
        ("pkg.a", "pkg.b"), ("pkg.a", "pkg.sub.deep"), ("pkg.b", "pkg.a"),
        ("pkg.c", "pkg.low"), ("pkg.sub.deep", "pkg.c"), ("pkg.sub.deep", "pkg.low"),
        ("renamed.main", "renamed"), ("renamed.main", "renamed.tools"),
        ("renamed.main", "pkg.c"),
    }
    found = cycles(edges)
    assert [describe(c) for c in found] == ["pkg.a -> pkg.b -> pkg.a (pkg/a.py:1, pkg/b.py:2)"]

    # Without the lazy import, and with c's import of a made real, the cycle runs through
    # a subpackage and a parent-relative import.
    _write(tmp_path / "pkg", {"b.py": "", "c.py": "from .a import x\n"})
    found = cycles(import_graph({"pkg": tmp_path / "pkg"}))
    assert [describe(c) for c in found] == [
        "pkg.a -> pkg.sub.deep -> pkg.c -> pkg.a (pkg/a.py:2, pkg/sub/deep.py:1, pkg/c.py:1)"]


#: The library's folders and top-level modules, lowest first.  A module imports its own
#: folder (or module) and what stands on a lower row, never a row of its own or higher:
#: siblings on a row do not import each other.  "" is the package itself (the face for
#: playing); the client stands above the last row.  Every library module has a place.
ORDER: tuple[tuple[str, ...], ...] = (
    ("errors", "text", "_version", "_digest"),
    ("address",),
    ("game",),
    ("wire", "deal", "bots"),
    ("transcript",),
    ("observe",),
    ("link",),
    ("tablestate",),
    ("timeline",),
    ("_shell",),
    ("", "lowlevel", "testing"),
)
PLACE = {unit: row for row, units in enumerate(ORDER) for unit in units}

#: Only these import trio, sockets or zeroconf (the I/O shell and the test kit).
IO_PACKAGES = {"trio", "socket", "zeroconf"}
IO_UNITS = {"_shell", "testing"}


def unit_of(module: str) -> str:
    """The folder or top-level module of a library module ("" for the package)."""
    return module.partition(".")[2].split(".")[0]


def home_of(module: str) -> tuple[str, str]:
    """The library's folder or top-level module a module is in; the client is one."""
    head = module.split(".")[0]
    return (head, unit_of(module) if head == LIBRARY else "")


def place_of(module: str, client: str) -> int | None:
    head = module.split(".")[0]
    if head == client:
        return len(ORDER)
    if head == LIBRARY:
        return PLACE.get(unit_of(module))
    return None


def upward_imports(edges: list[Edge], client: str) -> list[str]:
    found = []
    for e in edges:
        source, target = place_of(e.source, client), place_of(e.target, client)
        if source is None or target is None:
            continue
        same = home_of(e.source) == home_of(e.target)
        if not same and target >= source:
            found.append(f"{e.source} imports {e.target} ({e.where()})")
    # Beyond the order: the library never reaches for the client, whatever the module.
    found += [f"{e.source} imports the client's {e.target} ({e.where()})" for e in edges
              if e.source.startswith(LIBRARY + ".") and e.target.split(".")[0] == client]
    return sorted(set(found))


def test_every_library_module_has_a_place():
    modules = discover({LIBRARY: ROOT / LIBRARY})
    homeless = sorted(m for m in modules if m != LIBRARY and unit_of(m) not in PLACE)
    assert not homeless, f"modules outside ORDER (give them a folder): {homeless}"


def test_every_arrow_between_the_folders_points_down():
    folders, aliases = project()
    client = next(name for name, folder in folders.items() if folder.name == CLIENT_FOLDER)
    found = upward_imports(project_graph(), client)
    assert not found, "imports against the folders' order:\n" + "\n".join(found)


def io_imports(folder: Path) -> list[str]:
    """Each import of trio, socket or zeroconf by a library module outside
    :data:`IO_UNITS` (``folder``: the library's folder)."""
    found = []
    for module, (path, _) in sorted(discover({LIBRARY: folder}).items()):
        if unit_of(module) in IO_UNITS:
            continue
        for node in _import_nodes(ast.parse(path.read_text(), str(path)).body):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if node.level == 0 else [])
            for name in names:
                if name.split(".")[0] in IO_PACKAGES:
                    found.append(f"{module} imports {name} ({path.name}:{node.lineno})")
    return found


def test_only_the_shell_imports_trio_sockets_or_zeroconf():
    found = io_imports(ROOT / LIBRARY)
    assert not found, "I/O outside chkobba_p2p/_shell:\n" + "\n".join(found)


def test_the_folder_checks_name_what_breaks_them(tmp_path):
    _write(tmp_path / "lib", {
        "__init__.py": "def f():\n    from ._shell import peer\n",
        "errors.py": "",
        "game/__init__.py": "", "game/rules.py": "from ..errors import E\nfrom . import cards\n",
        "game/cards.py": "import socket\n",
        "wire/__init__.py": "", "wire/codec.py": "from ..bots import simple\n",
        "bots/__init__.py": "", "bots/simple.py": "from ..game import rules\n",
        "link/__init__.py": "", "link/host.py": "def f():\n    from .._shell import net\n",
        "_shell/__init__.py": "", "_shell/net.py": "import trio\nfrom ..link import host\n",
        "_shell/peer.py": "from trio import sleep\n",
        "lowlevel.py": "from .link.host import HostTable\n",
    })
    _write(tmp_path / "app", {"__init__.py": "", "main.py": "from lib import peer\n"})
    edges = import_graph({LIBRARY: tmp_path / "lib", "app": tmp_path / "app"},
                         {"lib": LIBRARY})
    assert upward_imports(edges, "app") == [
        f"{LIBRARY}.link.host imports {LIBRARY}._shell.net (lib/link/host.py:2)",
        f"{LIBRARY}.wire.codec imports {LIBRARY}.bots.simple (lib/wire/codec.py:1)",
    ]
    assert io_imports(tmp_path / "lib") == [f"{LIBRARY}.game.cards imports socket (cards.py:1)"]


def _module_file(module: str) -> Path:
    """The source file of the library's module ``module`` (``game.rules``, ``deal``)."""
    base = ROOT / LIBRARY / Path(*module.split(".")) if module else ROOT / LIBRARY
    return base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"


def _assigned(path: Path, name: str) -> Any:
    """The literal a module assigns to ``name`` at its top level, read from its source."""
    for node in ast.parse(path.read_text()).body:
        targets = ([node.target] if isinstance(node, ast.AnnAssign)
                   else node.targets if isinstance(node, ast.Assign) else [])
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            assert node.value is not None
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path} assigns no {name}")


#: The library's public API: the modules and folders a client may import.  Named once,
#: in the package (``chkobba_p2p.PUBLIC_MODULES``), and read from its source here ("" is
#: the package itself, the face for playing).
PUBLIC = {"", *_assigned(_module_file(""), "PUBLIC_MODULES")}


def private_imports(edges: list[Edge], client: str) -> list[str]:
    """Each import by a module of ``client`` of a library module outside :data:`PUBLIC`
    (once per statement, sorted)."""
    return sorted({f"{e.source} imports {e.target} ({e.where()})" for e in edges
                   if e.source.split(".")[0] == client and e.target.split(".")[0] == LIBRARY
                   and unit_of(e.target) not in PUBLIC})


def test_the_client_imports_only_the_librarys_public_api():
    folders, aliases = project()
    client = next(name for name, folder in folders.items() if folder.name == CLIENT_FOLDER)
    edges = project_graph()
    assert any(e.source.startswith(client) and e.target == LIBRARY for e in edges)
    found = private_imports(edges, client)
    assert not found, ("the client reaches under the public API (import it from "
                       "chkobba_p2p or chkobba_p2p.lowlevel, or make it public):\n"
                       + "\n".join(found))


def test_the_public_api_check_names_an_import_under_it(tmp_path):
    _write(tmp_path / "lib", {"__init__.py": "", "_shell/__init__.py": "", "_shell/net.py": "",
                              "game/__init__.py": "", "game/rules.py": "",
                              "deal/__init__.py": "", "deal/core.py": ""})
    _write(tmp_path / "app", {"__init__.py": "", "ok.py": "from lib import host_match\n"
                              "from lib.game.rules import Hand\nimport lib\n",
                              "bad.py": "def f():\n    from lib._shell.net import ClientPeer\n"
                              "from lib import deal\nimport lib.deal.core\n"})
    edges = import_graph({LIBRARY: tmp_path / "lib", "app": tmp_path / "app"},
                         {"lib": LIBRARY})
    assert private_imports(edges, "app") == [
        f"app.bad imports {LIBRARY}._shell.net (app/bad.py:2)",
        f"app.bad imports {LIBRARY}.deal (app/bad.py:3)",
        f"app.bad imports {LIBRARY}.deal.core (app/bad.py:4)",
    ]


def _code_blocks(markdown: str) -> list[str]:
    """The ```python blocks of a Markdown text."""
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.S)


def outside_the_public_api(sources: dict[str, str]) -> list[str]:
    """Each import of a library module outside :data:`PUBLIC` in ``sources`` (a name ->
    Python source), with the name and line."""
    found = []
    for name, source in sources.items():
        for node in _import_nodes(ast.parse(source).body):
            targets = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if node.level == 0 else [])
            for target in targets:
                head, _, rest = target.partition(".")
                if head == LIBRARY and rest.split(".")[0] not in PUBLIC:
                    found.append((name, node.lineno, target))
    return [f"{name}:{line}: {target}" for name, line, target in sorted(found)]


def test_the_examples_and_the_readme_import_only_the_public_api():
    """What a newcomer copies uses what the library declares public (the two faces and
    the public modules of :data:`PUBLIC`), never an implementation module."""
    sources = {str(p.relative_to(ROOT)): p.read_text() for p in (ROOT / "examples").glob("*.py")}
    blocks = _code_blocks((ROOT / "README.md").read_text())
    sources |= {f"README.md block {i + 1}": b for i, b in enumerate(blocks)}
    assert len(blocks) >= 2 and any(n.startswith("examples/") for n in sources)
    found = outside_the_public_api(sources)
    assert not found, "under the public API:\n" + "\n".join(found)
    assert outside_the_public_api({
        "x": "from chkobba_p2p.lowlevel import Session\nimport chkobba_p2p.game.rules\n"
             "from chkobba_p2p._shell.net import HostPeer\nimport chkobba_p2p.link.host\n"}) \
        == ["x:3: chkobba_p2p._shell.net", "x:4: chkobba_p2p.link.host"]


def _strict_modules() -> set[str]:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    for override in mypy.get("overrides", []):
        if override.get("disallow_untyped_defs"):
            return set(override["module"])
    return set()


def test_the_strict_type_check_covers_every_library_module():
    """Public or not, the library is typed strictly: pyproject.toml's ``mypy --strict``
    list names every module of it (a pattern ``x.*`` names x's modules at any depth)."""
    strict = _strict_modules()
    untyped = []
    for module in discover({LIBRARY: ROOT / LIBRARY}):
        names = [module] + [".".join(module.split(".")[:n]) + ".*"
                            for n in range(1, module.count(".") + 1)]
        if not strict & set(names):
            untyped.append(module)
    assert not untyped, f"modules outside pyproject.toml's strict list: {sorted(untyped)}"


def test_every_public_module_exists_and_the_faces_export_what_they_name():
    """The one list names real modules or folders, and each face's ``__all__`` holds only
    names it binds (the package's on first use, through ``__getattr__``)."""
    import importlib

    for unit in PUBLIC - {""}:
        assert _module_file(unit).exists(), unit
    for face in ("", "lowlevel", "testing"):
        module = importlib.import_module(".".join(filter(None, (LIBRARY, face))))
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert not missing, (face or LIBRARY, missing)


def test_the_face_for_playing_keeps_the_old_faces_names():
    """What ``peer``, ``watch``, ``tor`` and ``transport`` exported (they moved into the
    private ``_shell``) is what the package exports, plus ``Observer``."""
    import chkobba_p2p

    shell = ROOT / LIBRARY / "_shell"
    names = set()
    for module in ("peer", "watch", "tor", "transport"):
        names |= set(_assigned(shell / f"{module}.py", "__all__"))
    assert names | {"Observer", "PUBLIC_MODULES", "__version__"} == set(chkobba_p2p.__all__)


# slow: a fresh interpreter (a process) imports the package
@pytest.mark.slow
def test_importing_the_package_imports_no_io():
    """``import chkobba_p2p`` stays cheap: its names are imported on first use."""
    import subprocess
    import sys

    code = ("import sys, chkobba_p2p\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('trio', 'zeroconf') or m.startswith('chkobba_p2p.')))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['chkobba_p2p._version']"


# ------------------------------------------------- the layers' diagram in docs/architecture.md

ARCHITECTURE = ROOT / "docs" / "architecture.md"
WRITE = "python tests/test_import_graph.py --write-diagram"
BEGIN = f"<!-- the layers: written by `{WRITE}` from ORDER and the imports; do not edit -->"
END = "<!-- end of the layers -->"


def _label(unit: str, client: str) -> str:
    """How the diagram names a unit: a folder ends in ``/``, a module in ``.py``."""
    if unit == client:
        return f"{CLIENT_FOLDER}/ ({client})" if client != CLIENT_FOLDER else f"{client}/"
    if unit == "":
        return f"{LIBRARY}/__init__.py"
    return f"{unit}/" if (ROOT / LIBRARY / unit).is_dir() else f"{unit}.py"


def folder_imports(edges: list[Edge], client: str) -> dict[str, set[str]]:
    """Which units (library folders and top-level modules, and the client) import which
    library units, from the module graph: an arrow per pair, whatever the modules."""
    found: dict[str, set[str]] = {}
    for e in edges:
        if e.target.split(".")[0] != LIBRARY:
            continue
        head = e.source.split(".")[0]
        source = client if head == client else unit_of(e.source) if head == LIBRARY else None
        target = unit_of(e.target)
        if source is not None and (head == client or source != target):
            found.setdefault(source, set()).add(target)
    return found


def diagram(edges: list[Edge], client: str, width: int = 92) -> str:
    """The layers, highest first: each row of :data:`ORDER` (the client above them all),
    and under each unit the units it imports, read from the code."""
    imports = folder_imports(edges, client)
    rows = [(client,), *reversed(ORDER)]
    rank = {unit: (PLACE.get(unit, len(ORDER)), i)
            for row in rows for i, unit in enumerate(row)}
    lines = ["```"]
    for number, row in enumerate(rows):
        if number:
            lines.append("    |")
            lines.append("    v")
        lines.append("   ".join(_label(u, client) for u in row))
        for unit in row:
            targets = sorted(imports.get(unit, ()), key=lambda t: rank[t], reverse=True)
            named = ", ".join(_label(t, client) for t in targets) or "nothing of the library"
            head = f"  {_label(unit, client)} imports " if len(row) > 1 else "  imports "
            words, line = named.split(" "), head
            for word in words:
                if len(line) + len(word) + 1 > width and line.strip():
                    lines.append(line.rstrip())
                    line = " " * len(head)
                line += word + " "
            lines.append(line.rstrip())
    lines.append("```")
    return "\n".join(lines)


def _current_diagram() -> str:
    folders, aliases = project()
    client = next(name for name, folder in folders.items() if folder.name == CLIENT_FOLDER)
    return diagram(project_graph(), client)


def _with_diagram(text: str, drawn: str) -> str:
    before, begin, rest = text.partition(BEGIN)
    _, end, after = rest.partition(END)
    assert begin and end, f"{ARCHITECTURE.name} lacks the markers {BEGIN!r} ... {END!r}"
    return f"{before}{BEGIN}\n{drawn}\n{END}{after}"


def test_the_architecture_diagram_is_current():
    """docs/architecture.md shows the layers as ORDER and the imports have them now."""
    text = ARCHITECTURE.read_text()
    assert text == _with_diagram(text, _current_diagram()), (
        f"the layers' diagram in docs/architecture.md is stale: run `{WRITE}`")


def test_the_diagram_shows_the_rows_and_the_arrows(tmp_path):
    _write(tmp_path / "lib", {
        "__init__.py": "def f():\n    from ._shell import peer\n",
        "errors.py": "", "game/__init__.py": "", "game/rules.py": "from ..errors import E\n",
        "bots/__init__.py": "", "bots/simple.py": "from ..game import rules\n",
        "_shell/__init__.py": "", "_shell/peer.py": "from ..bots.simple import Bot\n",
    })
    _write(tmp_path / "app", {"__init__.py": "", "main.py": "from lib import peer\n"})
    drawn = diagram(import_graph({LIBRARY: tmp_path / "lib", "app": tmp_path / "app"},
                                 {"lib": LIBRARY}), "app")
    assert "\n  imports chkobba_p2p/__init__.py\n" in drawn  # the client
    assert "  chkobba_p2p/__init__.py imports _shell/\n" in drawn  # a lazy import counts
    assert "\n_shell/\n  imports bots/\n" in drawn
    assert "wire/   deal/   bots/\n" in drawn
    assert "  bots/ imports game/\n" in drawn and "  deal/ imports nothing" in drawn
    assert drawn.index("_shell/") < drawn.index("game/") < drawn.index("errors.py")
    doc = f"intro\n{BEGIN}\nold\n{END}\nrest\n"
    assert _with_diagram(doc, "new") == f"intro\n{BEGIN}\nnew\n{END}\nrest\n"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write-diagram"]:
        sys.exit(f"usage: {WRITE}")
    ARCHITECTURE.write_text(_with_diagram(ARCHITECTURE.read_text(), _current_diagram()))
    print(f"wrote the layers' diagram into {ARCHITECTURE.relative_to(ROOT)}")
