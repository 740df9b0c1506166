"""Delete what came from a source file (a report, export, document or manifest) or a solution.

One transaction: the source files go, and foreign keys cascade to everything read from them
(runs, latencies, samples, document tables, claims), except runs another file also prints, which
stay with that file as their source; the stored per-run figures of the runs
left behind are recomputed when it commits. What went is counted per table from the
transaction's own statistics (`pg_stat_xact_user_tables`, read before and after: counts of
earlier transactions may not be flushed yet), so a dry run performs the delete, reports the
same counts and rolls back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import text

from ..db.class_ranks import rebuild_class_ranks

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

# Derived rows (recomputed at commit), not "what came from" the file: left out of the report.
DERIVED_TABLES = {"run_figures", "run_scope_latencies", "perf_counter_means", "solution_disk_counts",
                  "run_disk_figures", "run_figures_stale"}
MIN_SHA_PREFIX = 8


class NothingToDelete(LookupError):
    """No source file or solution matches; the message says what was looked for."""


@dataclass
class DeleteReport:
    target: str
    source_files: list[tuple[str, str]] = field(default_factory=list)  # (sha256, path)
    rows_by_table: dict[str, int] = field(default_factory=dict)
    committed: bool = False
    kept_runs: int = 0  # runs these files print that another file still prints: kept, re-sourced


_FIND_SOURCE = """
SELECT id, sha256, path FROM source_files
WHERE sha256 = lower(:ref) OR (length(:ref) >= :min_prefix AND sha256 LIKE lower(:ref) || '%')
   OR path = :ref OR file_name = :ref
ORDER BY id
"""

# A solution's own files: manifests whose claims are all about it, files whose runs are all
# its own, and the evidence (perfmon, logs, configs, power) linked to those runs.
_SOLUTION_FILES = """
WITH sol AS (SELECT id FROM solutions WHERE key = :key),
its_runs AS (SELECT r.id FROM runs r JOIN sol ON r.solution_id = sol.id)
SELECT f.id, f.sha256, f.path FROM source_files f WHERE f.id IN (
    SELECT r.source_file_id FROM runs r GROUP BY r.source_file_id
    HAVING bool_and(r.solution_id IS NOT DISTINCT FROM (SELECT id FROM sol))
    UNION SELECT c.manifest_file_id FROM claims c WHERE c.manifest_file_id IS NOT NULL GROUP BY c.manifest_file_id
    HAVING bool_and(c.solution_id IS NOT DISTINCT FROM (SELECT id FROM sol))
    UNION SELECT source_file_id FROM perf_files WHERE run_id IN (SELECT id FROM its_runs)
    UNION SELECT source_file_id FROM test_logs WHERE run_id IN (SELECT id FROM its_runs)
    UNION SELECT source_file_id FROM test_configs WHERE run_id IN (SELECT id FROM its_runs)
    UNION SELECT source_file_id FROM power_files WHERE run_id IN (SELECT id FROM its_runs))
ORDER BY f.id
"""

# A run the deleted files print that another file prints too stays, sourced from that file:
# deleting a document must not take a report its HTML file still holds. A remaining document is
# preferred, as ingest prefers one (ingest/load/identity.py: the audit reads a document's reports
# with its tables), then the file ingested first. The run keeps the rows first read for it (the
# sightings print the same report; where they differed, ingest stored `report_seen_twice` warnings).
_KEEP_RUNS_SEEN_ELSEWHERE = """
UPDATE runs r SET source_file_id = other.source_file_id, report_index = other.report_index,
                  source_line = other.source_line
FROM (SELECT DISTINCT ON (rs.run_id) rs.run_id, rs.source_file_id, rs.report_index, rs.source_line
      FROM run_sources rs JOIN runs main ON main.id = rs.run_id
      JOIN source_files f ON f.id = rs.source_file_id
      WHERE main.source_file_id = ANY(:ids) AND rs.source_file_id <> ALL(:ids)
      ORDER BY rs.run_id, (f.format = 'document_text') DESC, rs.source_file_id, rs.report_index) other
WHERE r.id = other.run_id
"""

# The systems ingest drafted from a deleted document go with it, unless a run another file prints
# keeps one (then it stays, holding that run); so delete + ingest gives back the same catalogue.
_DRAFTED_SOLUTIONS = "SELECT id FROM solutions WHERE provisional AND derived_from_source_file_id = ANY(:ids)"
_EMPTY_SOLUTIONS = """
DELETE FROM solutions s WHERE s.id = ANY(:ids) AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.solution_id = s.id)
"""

_DELETED = "SELECT relname, n_tup_del FROM pg_stat_xact_user_tables WHERE n_tup_del > 0 ORDER BY relname"


def _deleted_rows(conn: Connection) -> dict[str, int]:
    return {name: count for name, count in conn.execute(text(_DELETED)) if name not in DERIVED_TABLES}


def _finish(conn: Connection, report: DeleteReport, before: dict[str, int], dry_run: bool) -> DeleteReport:
    after = _deleted_rows(conn)
    report.rows_by_table = {t: n - before.get(t, 0) for t, n in after.items() if n > before.get(t, 0)}
    if dry_run:
        conn.rollback()
    else:
        conn.commit()
        report.committed = True
        rebuild_class_ranks(conn.engine)  # the class ranks read stored rows again
    return report


def delete(engine: Engine, *, source: str | None = None, solution: str | None = None,
           dry_run: bool = False) -> DeleteReport:
    """`esrpdb delete`: one source file (`delete_source`) or one solution (`delete_solution`), never both."""
    if (source is None) == (solution is None):
        raise ValueError("name either a source file or a solution")
    if solution is not None:
        return delete_solution(engine, solution, dry_run=dry_run)
    return delete_source(engine, source, dry_run=dry_run)


def delete_source(engine: Engine, ref: str, *, dry_run: bool = False) -> DeleteReport:
    """Delete one source file, named by its SHA-256 (or a prefix of 8+ digits), path or file name."""
    with engine.connect() as conn:
        found = conn.execute(text(_FIND_SOURCE), {"ref": ref, "min_prefix": MIN_SHA_PREFIX}).all()
        if not found:
            raise NothingToDelete(f"no source file has SHA-256, path or file name {ref!r}")
        if len(found) > 1:
            names = ", ".join(f"{sha[:12]} {path}" for _, sha, path in found[:5])
            raise NothingToDelete(f"{ref!r} names {len(found)} source files ({names}); give the SHA-256")
        (source_id, sha256, path), = found
        before = _deleted_rows(conn)
        kept = conn.execute(text(_KEEP_RUNS_SEEN_ELSEWHERE), {"ids": [source_id]}).rowcount
        drafted = conn.execute(text(_DRAFTED_SOLUTIONS), {"ids": [source_id]}).scalars().all()
        conn.execute(text("DELETE FROM source_files WHERE id = :id"), {"id": source_id})
        conn.execute(text(_EMPTY_SOLUTIONS), {"ids": drafted})
        report = DeleteReport(target=ref, source_files=[(sha256, path)], kept_runs=kept)
        return _finish(conn, report, before, dry_run)


def delete_solution(engine: Engine, key: str, *, dry_run: bool = False) -> DeleteReport:
    """Delete a solution, its runs and the files that were only about it."""
    with engine.connect() as conn:
        if conn.execute(text("SELECT 1 FROM solutions WHERE key = :key"), {"key": key}).first() is None:
            raise NothingToDelete(f"no solution {key!r}")
        files = conn.execute(text(_SOLUTION_FILES), {"key": key}).all()
        before = _deleted_rows(conn)
        conn.execute(text("DELETE FROM source_files WHERE id = ANY(:ids)"), {"ids": [f[0] for f in files]})
        conn.execute(text("DELETE FROM runs WHERE solution_id = (SELECT id FROM solutions WHERE key = :key)"),
                     {"key": key})
        conn.execute(text("DELETE FROM solutions WHERE key = :key"), {"key": key})
        report = DeleteReport(target=f"solution {key}", source_files=[(sha, path) for _, sha, path in files])
        return _finish(conn, report, before, dry_run)
