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

Layers, lowest first (the developers' guide): cards/errors -> rules -> deal/wire ->
session -> (events, config: the types the transport and the public API share) -> net ->
peer (the public face) -> the client.  A module may import its own layer or lower ones;
modules outside the list are held only to the no-cycle rule.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def test_no_import_cycle_among_the_projects_modules():
    edges = import_graph(*project())
    assert len({e.source for e in edges}) > 20, "the walk found too few modules to mean anything"
    found = cycles(edges)
    assert not found, "import cycles:\n" + "\n".join(describe(c) for c in found)


def layer_of(module: str, client: str) -> float | None:
    layers = {
        "cards": 0, "errors": 0,
        "seating": 0.5,  # the shape of the table: above the errors, under the rules
        "rules": 1,
        "deal": 2, "wire": 2, "portmap": 2,
        "session": 3,
        # where streams come from (TCP, memory, Tor): under the shell and its config
        "transport": 3.4,
        "events": 3.5, "config": 3.5, "discovery": 3.5,
        "link": 3.7,  # the link's sans-IO core: below the trio shell, above the session
        "stream": 3.9,  # one framed connection on a trio stream (the shell's byte mover)
        "shell": 3.95,  # what the host's and a joiner's trio shells share
        "accept": 3.97,  # the host's door: accept loop, admission, serving connections
        "net": 4,
        "peer": 5,
        "testing": 5,  # the in-memory table and transport, shipped like trio.testing
    }
    head, _, rest = module.partition(".")
    if head == client:
        return 6
    if head == LIBRARY and rest:
        return layers.get(rest.split(".")[0])
    return None


def test_every_arrow_between_the_layers_points_down():
    folders, aliases = project()
    client = next(name for name, folder in folders.items() if folder.name == CLIENT_FOLDER)
    upward = []
    for e in import_graph(folders, aliases):
        source, target = layer_of(e.source, client), layer_of(e.target, client)
        if source is not None and target is not None and target > source:
            upward.append(f"{e.source} imports {e.target} ({e.where()})")
    # Beyond the chain: the library never reaches for the client, whatever the module.
    upward += [f"{e.source} imports the client's {e.target} ({e.where()})"
               for e in import_graph(folders, aliases)
               if e.source.startswith(LIBRARY + ".") and e.target.split(".")[0] == client]
    assert not upward, "imports against the layers:\n" + "\n".join(upward)


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


def _module_file(module: str) -> Path:
    """The source file of the library's module ``module`` (``rules``, ``deal.core``)."""
    base = ROOT / LIBRARY / Path(*module.split("."))
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


#: The library's public API: the modules a client may import.  Named once, in the
#: package (``chkobba_p2p.PUBLIC_MODULES``), and read from its source here ("" is the
#: package itself).  Everything else is reached through them: ``peer`` re-exports what
#: a client of a live table needs (events, configuration, identities, addresses, the
#: table state) from the modules underneath.
PUBLIC = {"", *_assigned(_module_file(""), "PUBLIC_MODULES")}


def reexported_whole() -> set[str]:
    """The modules whose whole ``__all__`` ``peer`` re-exports (events, config): the
    face's own types, defined underneath only so that imports point down."""
    imported: dict[str, set[str]] = {}
    for node in ast.parse(_module_file("peer").read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            imported.setdefault(node.module, set()).update(a.name for a in node.names)
    whole = set()
    for module, names in imported.items():
        try:
            exported = _assigned(_module_file(module), "__all__")
        except AssertionError:
            continue
        if set(exported) <= names:
            whole.add(module)
    return whole


def _strict_modules() -> set[str]:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    for override in mypy.get("overrides", []):
        if override.get("disallow_untyped_defs"):
            return {m.removeprefix(LIBRARY + ".") for m in override["module"]}
    return set()


def private_imports(edges: list[Edge], client: str) -> list[str]:
    """Each import by a module of ``client`` of a library module outside :data:`PUBLIC`
    (once per statement, sorted)."""
    return sorted({f"{e.source} imports {e.target} ({e.where()})" for e in edges
                   if e.source.split(".")[0] == client and e.target.split(".")[0] == LIBRARY
                   and e.target.partition(".")[2].split(".")[0] not in PUBLIC})


def test_the_client_imports_only_the_librarys_public_api():
    folders, aliases = project()
    client = next(name for name, folder in folders.items() if folder.name == CLIENT_FOLDER)
    edges = import_graph(folders, aliases)
    assert any(e.source.startswith(client) and e.target == f"{LIBRARY}.peer" for e in edges)
    found = private_imports(edges, client)
    assert not found, ("the client reaches under the public API (import it from "
                       "chkobba_p2p.peer, or make it public):\n" + "\n".join(found))


def test_the_public_api_check_names_an_import_under_it(tmp_path):
    _write(tmp_path / "lib", {"__init__.py": "", "peer.py": "", "net.py": "",
                              "rules.py": "", "deal/__init__.py": "", "deal/core.py": ""})
    _write(tmp_path / "app", {"__init__.py": "", "ok.py": "from lib import peer\n"
                              "from lib.rules import Hand\nimport lib\n",
                              "bad.py": "def f():\n    from lib.net import ClientPeer\n"
                              "from lib import deal\nimport lib.deal.core\n"})
    edges = import_graph({LIBRARY: tmp_path / "lib", "app": tmp_path / "app"},
                         {"lib": LIBRARY})
    assert private_imports(edges, "app") == [
        f"app.bad imports {LIBRARY}.deal (app/bad.py:3)",
        f"app.bad imports {LIBRARY}.deal.core (app/bad.py:4)",
        f"app.bad imports {LIBRARY}.net (app/bad.py:2)",
    ]


def test_the_strict_type_check_covers_exactly_the_public_api():
    """Public means typed: pyproject.toml's ``mypy --strict`` list is the public modules
    (but the package's own) and the modules ``peer`` re-exports whole, no more, no less
    (a public module added in one place only fails here)."""
    whole = reexported_whole()
    assert {"events", "config"} <= whole, whole  # the walk sees peer's imports at all
    wanted, strict = (PUBLIC - {""}) | whole, _strict_modules()
    assert strict == wanted, (
        "pyproject.toml's strict list and chkobba_p2p.PUBLIC_MODULES differ: "
        f"missing {sorted(wanted - strict)}, extra {sorted(strict - wanted)}")


def test_every_public_module_exists_and_peer_exports_what_it_names():
    """The one list names real modules, and ``peer.__all__`` (the names of the face)
    holds only names peer defines or imports."""
    for module in PUBLIC - {""}:
        assert _module_file(module).exists(), module
    tree = ast.parse(_module_file("peer").read_text())
    bound = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
             for a in n.names}
    bound |= {n.name for n in tree.body
              if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    missing = set(_assigned(_module_file("peer"), "__all__")) - bound
    assert not missing, missing
