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
from functools import lru_cache
from typing import TYPE_CHECKING

from ...db.sessions import as_writer
from ...db.statements import Sql
from ...schema.tables import RunRow
from ...schema.vocabulary import REPORT_SEEN_TWICE
from ..jetstress import normalise
from ..jetstress.records import JetstressReport
from .rows import copy_dicts

if TYPE_CHECKING:
    from ...db.sessions import WriterSession

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


def conflicts(run: RunRow, report: JetstressReport) -> list[tuple[str, object, object]]:
    """(column, stored value, value this source prints) for every column the two sources disagree on."""
    found = []
    for column, value in normalise.run_values(report).items():
        if column in NOT_COMPARED:
            continue
        stored = getattr(run, column)
        if not _same(value, stored) and not (value is None and stored is None):
            found.append((column, stored, value))
    return found


# The run and both files' names and formats, in one round trip.
_SIGHTED_RUN = Sql(
    "SELECT runs.*, stored.file_name AS stored_name, stored.format AS stored_format, printed.file_name AS printed_name, "
    "printed.format AS printed_format FROM runs LEFT OUTER JOIN source_files AS stored ON stored.id = runs.source_file_id "
    "LEFT OUTER JOIN source_files AS printed ON printed.id = CAST(:source_file_id AS integer) "
    "WHERE runs.id = CAST(:run_id AS integer)")
# The columns a sighting may change on its run (record_sighting), each an integer.
_CHANGEABLE = ("solution_id", "source_file_id", "report_index", "source_line")


def record_sighting(session: WriterSession, run_id: int, source_file_id: int, report: JetstressReport,
                    report_index: int, solution_id: int | None) -> list[str]:
    """This file prints run `run_id` again (the report statement found it by identity and added this file
    as a source of it): store what the two sources print differently, and return those messages."""
    session = as_writer(session)
    run = session.execute(_SIGHTED_RUN, {"run_id": run_id, "source_file_id": source_file_id}).one()
    stored_in, printed_in = (run.stored_name, run.stored_format), (run.printed_name, run.printed_format)
    messages = [f"the report is also printed in {stored_in[0]} (run {run.id}); {column} differs: "
                f"{stored!r} there, {printed!r} in {printed_in[0]}"
                for column, stored, printed in conflicts(run, report)]
    copy_dicts(session, "ingest_warnings", [  # before the run's update, as the ORM's flush wrote them
        {"source_file_id": source_file_id, "run_id": run.id, "check_name": REPORT_SEEN_TWICE, "message": message}
        for message in messages])
    changes: dict[str, object] = {}
    if run.solution_id is None and solution_id is not None:
        changes["solution_id"] = solution_id
    if printed_in[1] == DOCUMENT_FORMAT and stored_in[1] != DOCUMENT_FORMAT:
        # The publication is the run's first source: the audit reads a document's reports with its tables.
        changes.update(source_file_id=source_file_id, report_index=report_index, source_line=report.source_line)
    if changes:
        assert changes.keys() <= set(_CHANGEABLE), "a column _CHANGEABLE does not list"
        session.execute(_update_of(tuple(c for c in _CHANGEABLE if c in changes)), {**changes, "run_id": run.id})
    return messages


@lru_cache(maxsize=None)
def _update_of(columns: tuple[str, ...]) -> Sql:
    """The run's UPDATE of these columns: one statement a set of them (at most four kinds)."""
    return Sql(f"UPDATE runs SET {', '.join(f'{c} = CAST(:{c} AS integer)' for c in columns)} "
               "WHERE runs.id = CAST(:run_id AS integer)")
