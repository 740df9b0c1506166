"""One report, one run: a report seen again (its HTML file and the same report inside its document,
or another encoding of the file) becomes a second source of the run it already is.

Identity comes from what the report says, never from file hashes: the machine, the test start,
the Jetstress version and the achieved IOPS; a report that prints no machine or start (backup
and soft-recovery reports) is known by its type, version and per-instance figures. The report
type is compared, not part of the identity: a document's appendix may call a run "Stress" that
Jetstress titled "Performance". Values the two sources print differently are stored as warnings
(`report_seen_twice`), which the audit reports as findings.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from ...schema import IngestWarning, Run, RunSource, SourceFile, table_of
from ..jetstress import normalise
from ..jetstress.records import JetstressReport

NOT_COMPARED = ("source_line", "product_title", "performance_logs")
DOCUMENT_FORMAT = "document_text"


def identity_key(report: JetstressReport) -> str | None:
    """What makes two sightings one run; None when the report prints too little to tell."""
    version = report.jetstress_version or ""
    if report.machine_name and report.test_start:
        achieved = "" if report.achieved_iops is None else f"{report.achieved_iops:.3f}"
        return f"{report.machine_name.casefold()}|{report.test_start.isoformat()}|{version}|{achieved}"
    rows: list[tuple[object, ...]] = [(b.instance, b.database_size_mb, b.elapsed_seconds, b.mb_per_s)
                                      for b in report.backup_rows]
    rows += [(r.instance, r.log_files_replayed, r.elapsed_seconds) for r in report.recovery_rows]
    if not rows:
        return None
    digest = hashlib.sha256(repr(sorted(rows, key=repr)).encode()).hexdigest()[:16]
    return f"{report.report_type}|{version}|{digest}"


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a))
    if isinstance(a, datetime) and isinstance(b, datetime):
        return a.replace(tzinfo=None) == b.replace(tzinfo=None)
    return a == b


def conflicts(run: Run, report: JetstressReport) -> list[tuple[str, object, object]]:
    """(column, stored value, value this source prints) for every column the two sources disagree on."""
    found = []
    for column, value in normalise.run_values(report).items():
        if column in NOT_COMPARED:
            continue
        stored = getattr(run, column)
        if not _same(value, stored) and not (value is None and stored is None):
            found.append((column, stored, value))
    return found


_RUNS = table_of(Run)
_ADD_SOURCE = pg_insert(table_of(RunSource)).on_conflict_do_nothing()  # built once: compiled once
_RUN_WITH_KEY = (select(_RUNS.c.id).where(_RUNS.c.identity_key == bindparam("key"), _RUNS.c.origin == "report")
                 .order_by(_RUNS.c.id).limit(1))


def add_source(session: Session, run_id: int, source_file_id: int, report_index: int, line: int | None) -> None:
    session.execute(_ADD_SOURCE, {"run_id": run_id, "source_file_id": source_file_id,
                                  "report_index": report_index, "source_line": line})


def seen_before(session: Session, source_file_id: int, report: JetstressReport, report_index: int,
                solution_id: int | None) -> tuple[int, list[str]] | None:
    """The run this report already is (the sighting recorded, conflicts stored), or None for a new report."""
    key = identity_key(report)
    if key is None:
        return None
    run_id = session.execute(_RUN_WITH_KEY, {"key": key}).scalar()
    if run_id is None:
        return None  # the usual case: one cheap indexed lookup, no ORM object
    run = session.get_one(Run, run_id)
    add_source(session, run.id, source_file_id, report_index, report.source_line)
    files = dict(session.execute(select(SourceFile.id, SourceFile.file_name).where(
        SourceFile.id.in_([run.source_file_id, source_file_id]))).all())
    messages = [f"the report is also printed in {files.get(run.source_file_id)} (run {run.id}); {column} differs: "
                f"{stored!r} there, {printed!r} in {files.get(source_file_id)}"
                for column, stored, printed in conflicts(run, report)]
    for message in messages:
        session.add(IngestWarning(source_file_id=source_file_id, run_id=run.id, check_name="report_seen_twice",
                                  message=message))
    changes: dict[str, object] = {}
    if run.solution_id is None and solution_id is not None:
        changes["solution_id"] = solution_id
    formats = dict(session.execute(select(SourceFile.id, SourceFile.format).where(
        SourceFile.id.in_([run.source_file_id, source_file_id]))).all())
    if formats.get(source_file_id) == DOCUMENT_FORMAT and formats.get(run.source_file_id) != DOCUMENT_FORMAT:
        # The publication is the run's first source: the audit reads a document's reports with its tables.
        changes.update(source_file_id=source_file_id, report_index=report_index, source_line=report.source_line)
    if changes:
        session.execute(update(Run).where(Run.id == run.id).values(**changes))
    session.flush()
    return run.id, messages
