"""The house stays easy to see: small modules, one package per format, layers imported downwards only,
no import circle (function-level imports included), an audit that flows one way, a package list derived
from the tree."""

from __future__ import annotations

import ast
import runpy
import tomllib
from pathlib import Path

from esrpdb.ingest import registry
from tests.helpers import REPO_ROOT

CODE_FOLDERS = ("ingest", "schema", "queries", "audit", "workflows", "cli", "db", "site")
# The top-level packages, lowest first: a package imports only packages of its own layer or below.
# db and migrations are one layer (db runs the migrations; Alembic's env.py asks db for the URL).
LAYERS = (
    ("schema", "fixtures"),
    ("db", "migrations"),
    ("ingest",),
    ("queries",),
    ("audit",),
    ("site", "workflows"),
    ("cli",),
)
MAX_LINES = 400


def test_no_code_module_is_over_400_lines():
    long = {str(p.relative_to(REPO_ROOT)): n for folder in CODE_FOLDERS for p in (REPO_ROOT / folder).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_ingest_has_at_most_ten_top_level_modules():
    assert len(list((REPO_ROOT / "ingest").glob("*.py"))) <= 10


def _shipped_packages() -> list[str]:
    """The packages a wheel holds, as setup.py derives them from the tree (esrpdb, esrpdb.ingest, …)."""
    setup = runpy.run_path(str(REPO_ROOT / "setup.py"), run_name="esrpdb_setup")  # not __main__: no setup()
    return setup["shipped_packages"](str(REPO_ROOT))


def test_every_format_package_is_in_the_registry_and_shipped():
    """A format package is any package under formats/ whose face names a FORMAT (perfmon/blg nests)."""
    formats = REPO_ROOT / "ingest" / "formats"
    packages = sorted(".".join(p.parent.relative_to(formats).parts) for p in formats.rglob("__init__.py")
                      if "\nFORMAT = " in p.read_text(encoding="utf-8"))
    registered = sorted(m.__name__.split(".formats.", 1)[1] for m in registry.format_modules())
    assert registered == packages
    assert {f"esrpdb.ingest.formats.{p}" for p in packages} <= set(_shipped_packages())


def test_every_top_level_package_ships_and_has_its_layer():
    """The package list is derived (setup.py): every package folder ships, none is listed by hand, and
    a new top-level package must take its place in LAYERS (so the layer test below holds it too)."""
    shipped = set(_shipped_packages())

    def packages(folder: Path) -> list[str]:
        found = [".".join(("esrpdb", *folder.relative_to(REPO_ROOT).parts))]
        return found + [name for sub in sorted(folder.iterdir()) if (sub / "__init__.py").is_file() for name in packages(sub)]

    folders = {name for top in REPO_ROOT.iterdir() if (top / "__init__.py").is_file() and top.name != "tests"
               for name in packages(top)}
    assert folders | {"esrpdb"} == shipped
    top_level = {name.split(".")[1] for name in shipped if name.count(".") == 1}
    layered = {package for packages in LAYERS for package in packages}
    assert top_level == layered


def _imported_modules(path: Path) -> set[str]:
    """Every `esrpdb` module `path` imports, at any depth of the file (function-level imports too),
    relative imports resolved against the file's own package."""
    package = ["esrpdb", *path.relative_to(REPO_ROOT).parent.parts]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            names = [node.module] if node.module else [alias.name for alias in node.names]
            found |= {".".join([*base, name]) for name in names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("esrpdb."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("esrpdb.")}
    return found


def test_no_package_imports_a_layer_above_its_own():
    layer = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}
    upward = sorted(f"{path.relative_to(REPO_ROOT)} imports {module}"
                    for package in layer for path in (REPO_ROOT / package).rglob("*.py")
                    for module in _imported_modules(path)
                    if module.split(".")[1] in layer and layer[module.split(".")[1]] > layer[package])
    assert upward == []


def test_no_migration_imports_live_code():
    """A revision is history: it reads its own frozen files, never a module that moves on."""
    live = sorted(f"{path.name} imports {module}" for path in (REPO_ROOT / "migrations" / "versions").glob("*.py")
                  for module in _imported_modules(path) if not module.startswith("esrpdb.migrations"))
    assert live == []


def test_the_audit_flows_one_way():
    """gather and terms -> candidates -> judge and doubts -> findings -> causes -> the package's face, and no audit module
    imports, directly or not, a module that imports it."""
    folder = REPO_ROOT / "audit"
    graph = {".".join(p.relative_to(folder).with_suffix("").parts): {m.removeprefix("esrpdb.audit.")
                                                                     for m in _imported_modules(p)
                                                                     if m.startswith("esrpdb.audit.")}
             for p in folder.rglob("*.py")}
    graph = {name.removesuffix(".__init__"): targets for name, targets in graph.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for target in graph.get(name, ()):
            visit(target, (*path, name))
        done.add(name)

    for module in graph:
        visit(module, ())
    step = {"gather": 0, "terms": 0, "candidates": 1, "judge": 2, "doubts": 2, "findings": 3, "causes": 4, "__init__": 5}
    later = sorted(f"{name} imports {target}" for name, targets in graph.items() for target in targets
                   if step[target.split(".")[0]] > step[name.split(".")[0]])
    assert later == []  # candidates come before the judge, the judge before the findings


def test_every_file_a_migration_reads_is_package_data():
    """A wheel carries only what package-data names: a frozen view or SQL file left out breaks `init`."""
    from pathlib import PurePosixPath

    package_data = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]
    patterns = [*package_data.get("*", []), *package_data["esrpdb.migrations"]]
    migrations = REPO_ROOT / "migrations"  # esrpdb.migrations (setup.py maps the root onto esrpdb)
    shipped = {path.relative_to(migrations).as_posix() for path in migrations.rglob("*")
               if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".sql", ".py", ".mako")}
    missing = [name for name in sorted(shipped)
               if not (name.endswith(".py") and "/" not in name)  # the package's own modules ship as code
               and not any(PurePosixPath(name).match(pattern) and name.count("/") == pattern.count("/")
                           for pattern in patterns)]
    assert missing == []


# --- no import circle, function-level imports included -------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST):
    """Every Import and ImportFrom at any depth (in functions too), less those under `if TYPE_CHECKING:`,
    which never run."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(("esrpdb", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _module_graph() -> dict[str, set[str]]:
    """Module -> the modules importing it runs: the module named, and the packages on the way to it that
    are not the importer's own (their __init__ runs too). `from pkg import name` names pkg.name when
    that is a module, else pkg itself (its face), even when pkg is the importer's own package."""
    files = {_module_name(p): p for top in _shipped_packages() if top.count(".") == 1
             for p in (REPO_ROOT / top.split(".")[1]).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        own = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()

        def add(target: str) -> None:
            if target not in files:
                return
            parts = target.split(".")
            targets.update(package for package in (".".join(parts[:i]) for i in range(2, len(parts)))
                           if not (name == package or name.startswith(package + ".")))
            targets.add(target)

        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
                continue
            if node.level:
                base = own.split(".")[: len(own.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in files else module)
        graph[name] = targets - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[str]:
    """One shortest circle per strongly connected group of modules (Tarjan), as 'a -> b -> a'."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    circles = []
    for group in groups:
        start = min(group)
        paths = {start: [start]}
        queue = [start]
        while queue:  # breadth first: the shortest way back to start
            node = queue.pop(0)
            for target in sorted(graph[node] & group):
                if target == start:
                    circle = [*paths[node], start]
                    break
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    queue.append(target)
            else:
                continue
            break
        circles.append(" -> ".join(m.removeprefix("esrpdb.") for m in circle))
    return sorted(circles)


def test_the_import_graph_resolves_relative_and_function_level_imports():
    """The graph the circle test reads: a function-level import is an arrow, a package's face is a node."""
    graph = _module_graph()
    assert "esrpdb.schema" in graph["esrpdb.ingest.jetstress.normalise"] | {
        t.rpartition(".")[0] for t in graph["esrpdb.ingest.jetstress.normalise"]}
    assert any(t.startswith("esrpdb.ingest.") for t in graph["esrpdb.cli.ingest_command"])  # imported when run


def test_no_import_circle_function_level_imports_included():
    """No module imports, directly or not, a module that imports it, at any depth of either file."""
    assert _circles(_module_graph()) == []


def test_no_test_module_imports_another_or_conftest():
    """Test modules share what they share through tests/helpers.py and the helper modules beside it:
    a test module imported by another would fail that one's collection on its own imports or skips."""
    wrong = []
    for path in sorted((REPO_ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names if alias.name.startswith("tests.")]
            elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("tests")):
                module = node.module or ""
                names = [f"{module}.{alias.name}" for alias in node.names] if module in ("", "tests") else [module]
            else:
                continue
            wrong += [f"{path.relative_to(REPO_ROOT)} imports {name}" for name in names
                      if any(part.startswith("test_") or part == "conftest" for part in name.split("."))]
    assert wrong == []
