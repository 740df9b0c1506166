"""Write parsed records into the catalogue. The caller owns the transaction (one per file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...db.sessions import as_writer, driver_connection
from ...db.statements import Sql
from ...schema.vocabulary import DOCUMENT_READER, REPORT_SEEN_TWICE
from ..draft import DraftedDocument
from ..formats.document.fingerprint import content_fingerprint
from ..formats.document.records import DocumentTable as DocumentTableRecord
from ..jetstress import normalise
from ..jetstress.records import JetstressReport
from ..jetstress.rules import Finding, check_report
from ..jetstress.values import cell_number
from . import identity, provisional, report_statement
from .readback import CELL_COLUMNS, ReadBack, TableRead
from .report_statement import INSTANCE_KEY, ReportRows
from .rows import copy_dicts as copy_dicts, copy_rows as copy_rows, solution_id_for as solution_id_for

if TYPE_CHECKING:
    from ...db.sessions import WriterSession


@dataclass(frozen=True)
class SourceInfo:
    sha256: str
    path: str
    file_name: str
    format: str
    parser_version: str
    size_bytes: int


# The fixed statements of every document's write as text: `esrpdb ingest FILE` is a new process each time,
# and SQLAlchemy compiled each built statement once in it (~1 ms apiece). The casts are those it compiled.
_CLAIM_SOURCE = Sql(
    "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
    "VALUES (CAST(:sha256 AS varchar), CAST(:path AS varchar), CAST(:file_name AS varchar), CAST(:format AS varchar), "
    "CAST(:parser_version AS varchar), CAST(:size_bytes AS bigint)) ON CONFLICT (sha256) DO NOTHING RETURNING id")
# The document's row and its file's fingerprint, in one round trip.
_ADD_DOCUMENT = Sql(
    "WITH new_document AS (INSERT INTO documents (source_file_id, title, title_line, esrp_version, esrp_version_line, "
    "tested_on, tested_on_line, page_start_lines) VALUES (CAST(:source_file_id AS integer), CAST(:title AS varchar), "
    "CAST(:title_line AS integer), CAST(:esrp_version AS varchar), CAST(:esrp_version_line AS integer), "
    "CAST(:tested_on AS date), CAST(:tested_on_line AS integer), CAST(:page_start_lines AS integer[]))) "
    "UPDATE source_files SET content_fingerprint = CAST(:fingerprint AS varchar) "
    "WHERE source_files.id = CAST(:source_file_id AS integer)")
# Every table of a document as one JSON array (report_statement.py's way: the server converts each value to
# its column's type), inserted in the array's order.
_ADD_TABLES = Sql(
    "INSERT INTO document_tables (source_file_id, ordinal, kind, title, columns, stub, source_line) "
    "SELECT CAST(:source_file_id AS integer), r.ordinal, r.kind, r.title, r.columns, r.stub, r.source_line "
    "FROM jsonb_array_elements(CAST(:rows AS jsonb)) WITH ORDINALITY AS e(value, n) "
    "CROSS JOIN LATERAL jsonb_populate_record(NULL::document_tables, e.value) r ORDER BY e.n RETURNING id")


def claim_source_file(session: WriterSession, source: SourceInfo) -> int | None:
    """Insert the file's row; None when a file with this SHA-256 is already in the catalogue."""
    return as_writer(session).execute(_CLAIM_SOURCE, source.__dict__).scalar_one_or_none()


def load_report(
    session: WriterSession,
    source_file_id: int,
    report: JetstressReport,
    *,
    report_index: int = 0,
    solution_id: int | None = None,
    locked: bool = False,
) -> tuple[int, list[Finding]]:
    """Write one report (run, instances, I/O tables, log, ...) and its check warnings, in one statement.

    A report already in the catalogue (same content, another file) only adds this file as a source.
    `locked`: the caller holds the report's identity lock (report_statement.lock).
    """
    session = as_writer(session)
    findings = check_report(report)
    rows = report_rows(source_file_id, report, findings, report_index=report_index, solution_id=solution_id)
    written = report_statement.write_report(driver_connection(session), rows, locked=locked)
    if written.new_run_id is not None:
        return written.new_run_id, findings
    run_id = written.existing_run_id
    messages = identity.record_sighting(session, run_id, source_file_id, report, report_index, solution_id)
    return run_id, [Finding(REPORT_SEEN_TWICE, message) for message in messages]


def report_rows(source_file_id: int, report: JetstressReport, findings: list[Finding], *, report_index: int = 0,
                solution_id: int | None = None) -> ReportRows:
    """Every row one report writes, as plain values: pure, so what is written can be tested without a server."""
    run = {"source_file_id": source_file_id, "report_index": report_index, "solution_id": solution_id,
           "identity_key": identity.identity_key(report), **normalise.run_values(report)}
    config_by_name = {i.name: i for i in report.instances}
    role_by_name: dict[str, str] = {}
    for table in report.io_tables:
        for row in table.rows:
            if row.volume_role:
                role_by_name.setdefault(row.instance, row.volume_role)
    instances = []
    for name in normalise.instance_names(report):
        config = config_by_name.get(name)
        instances.append({
            "name": name,
            "volume_role": role_by_name.get(name),
            "database_paths": list(config.database_paths) if config and config.database_paths else None,
            "log_path": config.log_path if config else None,
        })
    children = {
        "latencies": [{INSTANCE_KEY: row.instance, **normalise.latency_values(table, row)}
                      for table in report.io_tables for row in table.rows],
        "host_counters": [{"counter_name": c.name, "average": c.average, "minimum": c.minimum, "maximum": c.maximum,
                           "source_line": c.line} for c in _unique_by_name(report.host_counters)],
        "test_issues": [{"ordinal": n, "message": message} for n, message in enumerate(report.test_issues, 1)],
        "log_events": [{"ordinal": n, "logged_at": e.logged_at, "message": e.message, "source_line": e.line}
                       for n, e in enumerate(report.log_events, 1)],
        "report_fields": [{"ordinal": n, "section": kv.section, "label": kv.label, "value": kv.value,
                           "source_line": kv.line} for n, kv in enumerate(report.key_values, 1)],
        "backup_stats": [{INSTANCE_KEY: b.instance, "database_size_mb": b.database_size_mb,
                          "elapsed_s": b.elapsed_seconds, "transfer_mb_per_s": b.mb_per_s} for b in report.backup_rows],
        "recovery_stats": [{INSTANCE_KEY: r.instance, "log_files_replayed": r.log_files_replayed,
                            "elapsed_s": r.elapsed_seconds} for r in report.recovery_rows],
        "ingest_warnings": [{"source_file_id": source_file_id, "check_name": f.check_name, "message": f.message}
                            for f in findings],
    }
    return ReportRows(run["identity_key"], run, instances, children)


def _unique_by_name(counters):
    """Host counters are keyed by name; a repeated row (PDF extraction) keeps the first."""
    seen = {}
    for counter in counters:
        seen.setdefault(counter.name, counter)
    return list(seen.values())


def load_document_tables(session: WriterSession, source_file_id: int, tables: list[DocumentTableRecord],
                         read_back: ReadBack | None = None) -> list[int]:
    """Every table of a document in one INSERT and all their cells in one COPY: a 200-page volume prints
    over a hundred tables, and a round trip or two each was a third of its write. `read_back`: where
    the document's drafted systems will find them, without reading them back."""
    if not tables:
        return []
    session = as_writer(session)
    rows = [{"ordinal": ordinal, "kind": table.kind, "title": table.title, "columns": list(table.columns),
             "stub": table.stub, "source_line": table.line} for ordinal, table in enumerate(tables)]
    # Ids in the rows' order, as SQLAlchemy's sorted insertmanyvalues had them: the rows go in that order.
    table_ids = sorted(session.execute(_ADD_TABLES, {"source_file_id": source_file_id,
                                                     "rows": report_statement.dumps(rows)}).scalars())
    # Tuples in CELL_COLUMNS' order, not dicts: a dict a cell made then made a list for COPY again.
    cells = [
        (table_id, r, c, row.label, table.columns[c] if c < len(table.columns) else None, value, cell_number(value),
         row.line_of(c))
        for table_id, table in zip(table_ids, tables)
        for r, row in enumerate(table.rows)
        for c, value in enumerate(row.values)
    ]
    copy_rows(session, "document_cells", CELL_COLUMNS, cells)
    if read_back is not None:
        read_back.seed_tables(source_file_id, [TableRead(i, t.title, t.kind, list(t.columns))
                                               for i, t in zip(table_ids, tables)], cells)
    return table_ids


def load_document(
    session: WriterSession, source_file_id: int, drafted: DraftedDocument, *, solution_id: int | None = None
) -> tuple[int, list[str]]:
    """Every embedded report as a run (in document order), every table, and the reader's and drafter's
    warnings. Without a solution, the document's runs go to the provisional solutions of the systems
    it tests, as drafted."""
    session = as_writer(session)
    document = drafted.document
    warnings = [*document.warnings, *drafted.warnings]
    messages = list(warnings)
    program = document.program
    fingerprint = document.fingerprint or content_fingerprint(document)
    session.execute(_ADD_DOCUMENT, {
        "source_file_id": source_file_id, "title": document.title, "title_line": document.title_line,
        "esrp_version": program.esrp_version, "esrp_version_line": program.esrp_version_line,
        "tested_on": program.tested_on, "tested_on_line": program.tested_on_line,
        "page_start_lines": list(document.page_starts) or None, "fingerprint": fingerprint})
    # Every lock the document needs, in one statement and one order (no two ingests wait on each other):
    # its reports' identities, and its content (two copies ingested at once: the second finds the first).
    keys = [report_statement.identity_lock(key) for key in map(identity.identity_key, document.reports)
            if key is not None]
    report_statement.lock(driver_connection(session),
                          keys + ([provisional.document_lock(fingerprint)] if solution_id is None else []))
    for index, report in enumerate(document.reports):
        _, findings = load_report(session, source_file_id, report, report_index=index, solution_id=solution_id,
                                  locked=True)
        messages.extend(f.message for f in findings)
    read_back = ReadBack()  # the document's tables and runs, read once for all its systems
    load_document_tables(session, source_file_id, document.tables, read_back)
    stored: list[dict] = []
    if solution_id is None:
        messages.extend(provisional.document_systems(session, source_file_id, drafted, fingerprint, read_back, stored))
    copy_dicts(session, "ingest_warnings", stored + [
        {"source_file_id": source_file_id, "run_id": None, "check_name": DOCUMENT_READER, "message": w}
        for w in warnings
    ])
    return len(document.reports), messages
