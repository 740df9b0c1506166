"""Run throughput says where its figures came from: throughput_source and perfmon_sample_window.

Until 0012 a run whose linked export had any LogicalDisk/PhysicalDisk(_Total) counter (say
`% Idle Time`) was marked `perfmon` even when none of the throughput counters was in it: its
MB/s then came from a document table, or was blank, and the audit named perfmon as its source.
Now `perfmon` means perfmon gave the MB/s (Disk Bytes/sec, or read + write); else
`document_table` when a document prints it; else `perfmon` when perfmon gave any other figure of
the view (transfers, read or write MB/s, latencies); else NULL (the run is not in run_throughput).

And a reader can tell which samples the perfmon figures average: `perfmon_sample_window` is
`run` (the samples inside the run's window), `export` (the whole export: the run has no window or
no sample in it) or `mixed`, in `run_figures` and as the last column of `run_throughput`.

And a refresh of more than 500 runs (the listed ones with their trial peers: this migration's
own refresh, say) is planned for its values: 0012 planned every list generically, comparing each
row with each element of the list, which did not finish in 200 s for the 30,000 linked runs of
a 50,000-solution catalogue (76 s now). The setting `esrpdb.custom_plan_runs` moves the 500.

The function is migrations/run_figures_0013.sql (frozen; its head comment lists the three
changes to 0012's); the view is views_0013/run_throughput.sql, and the downgrade puts back views_0008/.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23 17:20:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
VIEWS_0008 = MIGRATIONS / "views_0008"
RUN_THROUGHPUT_0013 = MIGRATIONS / "views_0013" / "run_throughput.sql"  # frozen: the view as 0013 made it
# The views of 0008, which the downgrade puts back, in creation order (a view after the views it reads); frozen here,
# as the files are, so that later views never change what this revision does.
VIEWS = ("run_iops", "median_runs", "disk_counts", "per_disk_iops", "run_throughput", "throughput_per_disk",
         "iops_per_dollar", "dollars_per_kiops", "mb_per_dollar", "perf_per_watt", "run_summary", "latency_summary")


def create_views(folder: Path) -> None:
    for view in VIEWS:
        op.execute((folder / f"{view}.sql").read_text(encoding="utf-8"))


def drop_views() -> None:
    for view in reversed(VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {view}")

# Only runs with linked counters can change; their trial peers are refreshed with them.
REFRESH_LINKED_RUNS = """SELECT refresh_run_figures(ids) FROM (
    SELECT array_agg(DISTINCT run_id) AS ids FROM perf_counters WHERE run_id IS NOT NULL) linked
WHERE ids IS NOT NULL"""


def upgrade() -> None:
    op.add_column("run_figures", sa.Column("perfmon_sample_window", sa.Text(), nullable=True))
    op.create_check_constraint("perfmon_sample_window_allowed", "run_figures",
                               "perfmon_sample_window IN ('run', 'export', 'mixed')")
    op.execute((MIGRATIONS / "run_figures_0013.sql").read_text(encoding="utf-8"))
    op.execute(RUN_THROUGHPUT_0013.read_text(encoding="utf-8"))  # run_throughput gains its last column
    op.execute(REFRESH_LINKED_RUNS)


def downgrade() -> None:
    drop_views()  # a view cannot lose a column by CREATE OR REPLACE
    create_views(VIEWS_0008)
    op.execute((MIGRATIONS / "run_figures_0012.sql").read_text(encoding="utf-8"))
    op.drop_constraint("perfmon_sample_window_allowed", "run_figures", type_="check")
    op.drop_column("run_figures", "perfmon_sample_window")
    op.execute("SELECT refresh_run_figures(NULL)")  # 0012 plans any list generically: slow for a long one
