"""The catalogue's own listings: solutions and runs, as plain rows for any renderer.

Disk counts are the stored ones (`solution_disk_counts`, kept by queries/run_figures.sql), so the
listing counts disks on each basis by the same rule as every per-disk figure. A run's IOPS are the
canned view's (`run_iops`): a run known only from a document's table shows the figures that table
prints, and `iops_from` says where they come from.
"""

from __future__ import annotations

from sqlalchemy import Engine, text

from ..schema.keys import require_solutions
from .adhoc import QueryResult

SOLUTIONS_SQL = """
SELECT s.key, s.vendor, s.model, s.label, s.connectivity, s.raid_level,
       COALESCE(c.all_disk_count, 0)::int AS disk_count,
       COALESCE(c.active_disk_count, 0)::int AS active_disk_count,
       s.usable_capacity_bytes, s.list_price_amount, s.list_price_currency,
       (SELECT count(*) FROM runs r WHERE r.solution_id = s.id)::int AS run_count,
       CASE WHEN s.provisional THEN 'provisional' ELSE 'confirmed' END AS status,
       (SELECT f.file_name FROM source_files f WHERE f.id = s.derived_from_source_file_id) AS read_from
FROM solutions s LEFT JOIN solution_disk_counts c ON c.solution_id = s.id
ORDER BY s.key
"""

RUNS_SQL = """
SELECT r.id AS run_id, s.key AS solution, r.run_label, r.scenario, r.report_type, r.jetstress_release,
       r.machine_name, r.test_start, r.reported_verdict AS verdict,
       round(COALESCE(r.achieved_iops, i.achieved_iops)::numeric, 3)::float8 AS achieved_iops,
       round(i.total_iops::numeric, 3)::float8 AS total_iops, r.target_iops,
       CASE WHEN i.total_iops IS NULL AND i.achieved_iops IS NULL THEN NULL ELSE i.iops_source END AS iops_from,
       (SELECT count(*) FROM instances i WHERE i.run_id = r.id)::int AS instance_count,
       (SELECT count(*) FROM instances i WHERE i.run_id = r.id AND i.volume_role = 'database')::int
           AS database_volume_count,
       (SELECT count(*) FROM instances i WHERE i.run_id = r.id AND i.volume_role = 'log')::int AS log_volume_count,
       f.file_name AS source_file, r.source_line
FROM runs r
JOIN source_files f ON f.id = r.source_file_id
LEFT JOIN solutions s ON s.id = r.solution_id
LEFT JOIN run_iops i ON i.run_id = r.id
WHERE (CAST(:solution AS text) IS NULL OR s.key = :solution)
ORDER BY s.key NULLS LAST, r.test_start NULLS LAST, r.id
"""


def _rows(engine: Engine, sql: str, **params) -> QueryResult:
    with engine.connect() as conn:
        result = conn.execute(text(sql), params)
        return QueryResult(columns=list(result.keys()), rows=[tuple(r) for r in result])


def solutions(engine: Engine) -> QueryResult:
    return _rows(engine, SOLUTIONS_SQL)


def runs(engine: Engine, *, solution: str | None = None) -> QueryResult:
    """Every run, or one solution's; an unknown key is an error, never an empty list."""
    if solution is not None:
        require_solutions(engine, solution)
    return _rows(engine, RUNS_SQL, solution=solution)
