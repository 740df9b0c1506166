"""`ingest_paths`: files and folders in, one transaction per file, a line of outcome per file.

A file that fails writes nothing and the batch goes on; a file already in the catalogue
(same SHA-256) is skipped without being parsed again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from sqlalchemy import Engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from esrpdb.ingest import load, registry
from esrpdb.ingest.errors import ParseError, UnknownFormat
from esrpdb.schema import SourceFile

PARSER_VERSION = "1"
MAX_FILE_BYTES = 2 * 1024**3  # whole-file formats refuse more in their own parsers; this bounds hashing


@dataclass
class FileOutcome:
    path: str
    status: str  # loaded | skipped | failed | ignored
    format: str | None = None
    runs: int = 0
    message: str = ""
    warnings: list[str] = field(default_factory=list)


def iter_files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named_explicitly) for each path; folders are walked recursively in sorted order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")):
                yield child, False
        else:
            yield path, True


def _already_loaded(engine: Engine, sha256: str) -> bool:
    with engine.connect() as conn:
        return conn.execute(select(SourceFile.id).where(SourceFile.sha256 == sha256)).first() is not None


def ingest_file(engine: Engine, path: Path, *, explicit: bool = True, solution_key: str | None = None) -> FileOutcome:
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        return FileOutcome(name, "failed", message=f"{name}: cannot read: {error.strerror or error}")
    try:
        module = registry.detect(path.name, data[: registry.HEAD_BYTES])
    except UnknownFormat as error:
        if explicit:
            return FileOutcome(name, "failed", message=f"{name}: {error.message}")
        return FileOutcome(name, "ignored", message="not a recognised format")
    sha256 = hashlib.sha256(data).hexdigest()
    if _already_loaded(engine, sha256):
        return FileOutcome(name, "skipped", module.FORMAT, message="already ingested")
    try:
        report = module.parse(name, data)
    except ParseError as error:
        return FileOutcome(name, "failed", module.FORMAT, message=str(error))
    source = load.SourceInfo(sha256, name, path.name, module.FORMAT, f"{module.FORMAT}/{PARSER_VERSION}", len(data))
    try:
        with Session(engine) as session, session.begin():
            source_id = load.claim_source_file(session, source)
            if source_id is None:
                return FileOutcome(name, "skipped", module.FORMAT, message="already ingested")
            solution_id = load.solution_id_for(session, solution_key) if solution_key else None
            _, findings = load.load_report(session, source_id, report, solution_id=solution_id)
    except SQLAlchemyError as error:
        detail = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        return FileOutcome(name, "failed", module.FORMAT, message=f"{name}: database refused the data: {detail}")
    return FileOutcome(name, "loaded", module.FORMAT, runs=1, warnings=[f.message for f in findings])


def ingest_paths(
    engine: Engine,
    paths: Iterable[str | Path],
    *,
    solution_key: str | None = None,
    failfast: bool = False,
    on_outcome: Callable[[FileOutcome], None] | None = None,
) -> list[FileOutcome]:
    outcomes = []
    for path, explicit in iter_files(paths):
        if not path.exists():
            outcome = FileOutcome(str(path), "failed", message=f"{path}: no such file or folder")
        else:
            outcome = ingest_file(engine, path, explicit=explicit, solution_key=solution_key)
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
        if failfast and outcome.status == "failed":
            break
    return outcomes
