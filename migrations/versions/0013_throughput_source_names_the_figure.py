"""throughput_source names where the run's throughput came from, not whether perfmon was linked.

Until 0012 a run whose linked export had any LogicalDisk/PhysicalDisk(_Total) counter (say
`% Idle Time`) was marked `perfmon` even when none of the throughput counters was in it: its
MB/s then came from a document table, or was blank, and the audit named perfmon as its source.
Now `perfmon` means perfmon gave the MB/s (Disk Bytes/sec, or read + write); else
`document_table` when a document prints it; else `perfmon` when perfmon gave any other figure of
the view (transfers, read or write MB/s, latencies); else NULL (the run is not in run_throughput).

And a long list of runs (more than LONG_LIST_RUNS, as this migration's own refresh passes) is
planned for its values, like a refresh of every run; a commit's short list keeps the session's
generic plan.

The function is 0012's with those two expressions replaced (each checked to occur once), so the
change reads here whole; the runs with linked counters are refreshed.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23 17:20:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
# A list longer than this is planned for its own values: a custom plan hashes the constant array
# (`= ANY`, `<> ALL`), where the generic plan compares every row with every element (0012 took
# minutes on 30,000 runs at 50,000 solutions); a commit lists a handful of runs.
LONG_LIST_RUNS = 500

LINKED_BEFORE = """CASE WHEN pm.run_id IS NOT NULL THEN 'perfmon'
                    WHEN p.has_throughput THEN 'document_table' END"""
WHERE_THE_FIGURE_CAME_FROM = """CASE WHEN COALESCE(pm.bytes_mb_per_s, pm.read_mb_per_s + pm.write_mb_per_s) IS NOT NULL
                         THEN 'perfmon'
                    WHEN p.has_throughput THEN 'document_table'
                    WHEN num_nonnulls(pm.disk_transfers_per_s, pm.read_mb_per_s, pm.write_mb_per_s,
                                      pm.read_latency_ms, pm.write_latency_ms) > 0 THEN 'perfmon' END"""

GENERIC_FOR_EVERY_LIST = """CASE WHEN run_ids IS NULL THEN 'force_custom_plan' ELSE 'force_generic_plan' END"""
GENERIC_FOR_SHORT_LISTS = f"""CASE WHEN run_ids IS NULL OR cardinality(run_ids) > {LONG_LIST_RUNS}
                            THEN 'force_custom_plan' ELSE 'force_generic_plan' END"""

# Only runs with linked counters can change; their trial peers are refreshed with them.
REFRESH_LINKED_RUNS = """SELECT refresh_run_figures(ids) FROM (
    SELECT array_agg(DISTINCT run_id) AS ids FROM perf_counters WHERE run_id IS NOT NULL) linked
WHERE ids IS NOT NULL"""


def function_sql() -> str:
    sql = (MIGRATIONS / "run_figures_0012.sql").read_text(encoding="utf-8")
    for before, after in ((LINKED_BEFORE, WHERE_THE_FIGURE_CAME_FROM), (GENERIC_FOR_EVERY_LIST, GENERIC_FOR_SHORT_LISTS)):
        if sql.count(before) != 1:
            raise RuntimeError("run_figures_0012.sql changed: revision 0013 replaces two expressions of it")
        sql = sql.replace(before, after)
    return sql


def upgrade() -> None:
    op.execute(function_sql())
    op.execute(REFRESH_LINKED_RUNS)


def downgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0012.sql").read_text(encoding="utf-8"))
    op.execute("SELECT refresh_run_figures(NULL)")  # 0012 plans any list generically: slow for a long one
