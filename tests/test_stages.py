"""Ingest flows one way: read (formats, pdf, parallel) -> draft -> write (load), driven by the pipeline.

A PDF's path from `ingest` to a stored run crosses each stage once and never returns to one it has
left: no read module imports draft or write, no draft module imports write or the pipeline, and the
write stage chooses its writer by the record's type. Imports at any depth count (a function-level
import is an arrow like any other)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import REPO_ROOT

INGEST = REPO_ROOT / "ingest"
STAGES = {  # stage -> the folders it holds, under ingest/
    "read": ("formats", "pdf", "parallel", "jetstress"),
    "draft": ("draft",),
    "write": ("load",),
}
MAY_IMPORT = {"read": {"read"}, "draft": {"read", "draft"}, "write": {"read", "draft", "write"}}
SHARED = {"errors", "decoding", "bounded_read", "registry", "sanity", "checks"}  # ingest's own utilities


def _stage(module: str) -> str | None:
    """"ingest.draft.facts" -> "draft"; a shared utility or the pipeline -> None."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "ingest":
        return None
    return next((stage for stage, folders in STAGES.items() if parts[1] in folders), None)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth, resolved to `ingest.…` names (relative imports only:
    the package imports itself relatively)."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def test_each_ingest_stage_imports_only_itself_and_the_stages_before_it():
    wrong = []
    for path in sorted(INGEST.rglob("*.py")):
        stage = _stage(_module_name(path))
        if stage is None:
            continue
        for target in _imports(path):
            other = _stage(target)
            if other is not None and other not in MAY_IMPORT[stage]:
                wrong.append(f"{path.relative_to(REPO_ROOT)} ({stage}) imports {target} ({other})")
    assert wrong == []


def test_no_stage_imports_the_pipeline_and_no_shared_utility_imports_a_stage():
    wrong = []
    for path in sorted(INGEST.rglob("*.py")):
        name = _module_name(path)
        for target in _imports(path):
            if target.startswith("ingest.pipeline") and _stage(name) is not None:
                wrong.append(f"{name} imports the pipeline")
            if name.split(".")[-1] in SHARED and name.count(".") == 1 and _stage(target) in ("draft", "write"):
                wrong.append(f"{name} (shared) imports {target}")
    assert wrong == []


def test_the_pipeline_never_chooses_a_writer_by_format_name():
    text = (INGEST / "pipeline.py").read_text(encoding="utf-8")
    for name in ('"jetstress_html"', '"document_text"', '"perfmon_csv"', '"perfmon_blg"', '"jetstress_config"',
                 '"jetstress_log"', '"power_log"'):
        assert name not in text, name
    assert '"solution_manifest"' not in text  # a manifest is known by its record, like every other file
    inspect = (INGEST / "inspect.py").read_text(encoding="utf-8")
    assert '"perfmon_csv"' not in inspect and '"perfmon_blg"' not in inspect
