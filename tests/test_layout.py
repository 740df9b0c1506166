"""The house stays easy to see: small modules, one package per format, an audit that flows one way."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from esrpdb.ingest import registry
from tests.conftest import REPO_ROOT

CODE_FOLDERS = ("ingest", "schema", "queries", "cli", "db", "site")
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


def _sibling_imports(path: Path) -> set[str]:
    """Modules of the same package that `path` imports (`from .x import ...`, `from . import x`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
    return {name.split(".")[0] for name in found}


def test_the_audit_flows_one_way():
    """No audit module imports, directly or not, a module that imports it."""
    folder = REPO_ROOT / "queries" / "audit"
    graph = {p.stem: _sibling_imports(p) for p in folder.glob("*.py") if p.stem != "__init__"}
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
    assert "judge" not in graph["values"] | graph["context"] | graph["capacity"]  # candidates come before the judge


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
