"""The house stays easy to see: small modules, one package per format, an audit that flows one way."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from esrpdb.ingest import registry
from tests.conftest import REPO_ROOT

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


def test_every_format_package_is_in_the_registry_and_in_pyproject():
    """A format package is any package under formats/ whose face names a FORMAT (perfmon/blg nests)."""
    formats = REPO_ROOT / "ingest" / "formats"
    packages = sorted(".".join(p.parent.relative_to(formats).parts) for p in formats.rglob("__init__.py")
                      if "\nFORMAT = " in p.read_text(encoding="utf-8"))
    registered = sorted(m.__name__.split(".formats.", 1)[1] for m in registry.format_modules())
    assert registered == packages
    listed = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert {f"esrpdb.ingest.formats.{p}" for p in packages} <= set(listed)


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
    """gather and terms -> candidates -> judge -> findings -> the package's face, and no audit module
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
    step = {"gather": 0, "terms": 0, "candidates": 1, "judge": 2, "findings": 3, "__init__": 4}
    later = sorted(f"{name} imports {target}" for name, targets in graph.items() for target in targets
                   if step[target.split(".")[0]] > step[name.split(".")[0]])
    assert later == []  # candidates come before the judge, the judge before the findings


def test_every_file_a_migration_reads_is_package_data():
    """A wheel carries only what package-data names: a frozen view or SQL file left out breaks `init`."""
    from pathlib import PurePosixPath

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = config["package-data"]["esrpdb.migrations"]
    migrations = REPO_ROOT / config["package-dir"]["esrpdb.migrations"]
    shipped = {path.relative_to(migrations).as_posix() for path in migrations.rglob("*")
               if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".sql", ".py", ".mako")}
    missing = [name for name in sorted(shipped)
               if not (name.endswith(".py") and "/" not in name)  # the package's own modules ship as code
               and not any(PurePosixPath(name).match(pattern) and name.count("/") == pattern.count("/")
                           for pattern in patterns)]
    assert missing == []
