"""Ingest flows one way: read (formats, pdf, parallel) -> draft -> write (load), driven by the pipeline.

A PDF's path from `ingest` to a stored run crosses each stage once and never returns to one it has
left: no read module imports draft or write, no draft module imports write or the pipeline, and the
write stage chooses its writer by the record's type. Imports at any depth count (a function-level
import is an arrow like any other), absolute (`from esrpdb.ingest.load import …`) and relative
(`from ..load import …`) alike. Every module under ingest/ sits in exactly one stage, named below by
its folder or its own name; a name here that no longer exists fails, as does a module in no stage."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT

INGEST = REPO_ROOT / "ingest"
# stage -> what it holds under ingest/ (a folder or a top-level module), in the order data flows:
# a module may import its own stage and the ones above it, never one below.
STAGES = {
    # ingest's own utilities, used by every stage: errors, byte-order marks, bounded reads of a file
    "shared": ("__init__", "errors", "decoding", "bounded_read"),
    # files in, records out (no database): the walk that finds the files, the formats and their
    # registry, the PDF engine, the reading workers, Jetstress's own knowledge, `esrpdb parse`
    # (inspect: detect and parse, no database) and the type check on a read record (sanity); the
    # contract between reading and writing (record types, the formats' protocols) is formats/contract.py
    "read": ("walk", "registry", "formats", "pdf", "parallel", "jetstress", "inspect", "sanity"),
    # a read document's systems as manifest records; reading.py: one file read and drafted, whoever reads
    # it (the batch, a read-ahead worker forked before the formats load)
    "draft": ("draft", "reading"),
    # the catalogue written: the writers, and the links from evidence to runs after a batch (SQL: load/link.py)
    "write": ("load",),
    # ingest_paths: hash, detect, read, draft, sanity, write; imports every stage, none imports it
    "drive": ("pipeline",),
}
ORDER = list(STAGES)
PACKAGE = "esrpdb"  # the installed name of the repository root: `esrpdb.ingest…` is `ingest…`


def _stage(module: str) -> str | None:
    """"ingest.draft.facts" -> "draft"; "ingest" (the package itself) -> "shared"; outside ingest -> None."""
    parts = module.split(".")
    if parts[0] != "ingest":
        return None
    head = parts[1] if len(parts) > 1 else "__init__"
    return next((stage for stage, names in STAGES.items() if head in names), None)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(name: str) -> str:
    """`esrpdb.ingest.load` -> `ingest.load`; any other absolute name as written."""
    return name[len(PACKAGE) + 1:] if name.startswith(PACKAGE + ".") else name


def imports_of(module: str, source: str, *, is_package: bool = False) -> set[str]:
    """Every module `module`'s source imports, at any depth, resolved to names from the repository
    root (`ingest.load.writers`): relative imports against the module's package, absolute ones with
    the installed package's name dropped. `from X import a` counts X and X.a (a may be a module)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module == PACKAGE:
                target = ""
            else:
                target = _absolute(node.module or "")
            found.add(target)
            found.update(f"{target}.{alias.name}".lstrip(".") for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(_absolute(alias.name) for alias in node.names)
    found.discard("")
    return found


def _imports(path: Path) -> set[str]:
    return imports_of(_module_name(path), path.read_text(encoding="utf-8"), is_package=path.name == "__init__.py")


def _upward(module: str, targets: set[str]) -> list[str]:
    stage = _stage(module)
    assert stage is not None, module
    wrong = []
    for target in sorted(targets):
        other = _stage(target)
        if other is not None and ORDER.index(other) > ORDER.index(stage):
            wrong.append(f"{module} ({stage}) imports {target} ({other})")
    return wrong


def test_every_ingest_module_sits_in_one_stage():
    unplaced = [_module_name(path) for path in sorted(INGEST.rglob("*.py")) if _stage(_module_name(path)) is None]
    assert unplaced == []
    names = [name for held in STAGES.values() for name in held]
    assert len(names) == len(set(names)), "a name in two stages"


@pytest.mark.parametrize("name", [name for held in STAGES.values() for name in held])
def test_every_name_a_stage_holds_exists(name):
    assert (INGEST / f"{name}.py").is_file() or (INGEST / name / "__init__.py").is_file(), \
        f"ingest/{name} is named in a stage but no longer exists"


def test_each_ingest_stage_imports_only_itself_and_the_stages_before_it():
    wrong = []
    for path in sorted(INGEST.rglob("*.py")):
        wrong += _upward(_module_name(path), _imports(path))
    assert wrong == []


@pytest.mark.parametrize("source", [
    "from esrpdb.ingest.load import writers",
    "from esrpdb.ingest import load",
    "import esrpdb.ingest.load.writers",
    "from esrpdb import ingest\nfrom ...load.writers import writer_for",
    "def f():\n    from ....ingest.pipeline import ingest_paths",
    "from ...draft import manifests",
])
def test_an_upward_import_is_found_however_it_is_spelled(source):
    assert _upward("ingest.formats.document.tables", imports_of("ingest.formats.document.tables", source)) != []


@pytest.mark.parametrize("source", [
    "from esrpdb.ingest.formats.document import records",
    "from ...jetstress import vocabulary",
    "from ....schema import units",
    "import esrpdb.schema.vocabulary",
    "from .. import document",
])
def test_an_import_from_the_same_stage_or_above_passes(source):
    assert _upward("ingest.formats.document.tables", imports_of("ingest.formats.document.tables", source)) == []


def test_the_pipeline_never_chooses_a_writer_by_format_name():
    text = (INGEST / "pipeline.py").read_text(encoding="utf-8")
    for name in ('"jetstress_html"', '"document_text"', '"perfmon_csv"', '"perfmon_blg"', '"jetstress_config"',
                 '"jetstress_log"', '"power_log"'):
        assert name not in text, name
    assert '"solution_manifest"' not in text  # a manifest is known by its record, like every other file
    inspect = (INGEST / "inspect.py").read_text(encoding="utf-8")
    assert '"perfmon_csv"' not in inspect and '"perfmon_blg"' not in inspect
