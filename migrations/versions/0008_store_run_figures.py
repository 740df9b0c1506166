"""Store per-run figures at ingest and rewrite the canned views to read them.

The 0005 views recomputed everything from the base tables on every call (all latencies,
millions of perf samples, a window over every run). This revision adds the stored tables
(`run_figures`, `run_disk_figures`, `run_scope_latencies`, `perf_counter_means`,
`solution_disk_counts`, and the `run_figures_stale` work list), the functions that fill them
(`refresh_run_figures`, `refresh_solution_disk_counts`) and the triggers that recompute what a
transaction touched when it commits (migrations/run_figures_0008.sql); then it fills them once
and replaces the views with the ones in views_0008/ (queries/*.sql as they stood until 0013).
Downgrade puts the 0005 views back.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 09:30:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
REFRESH_SQL = MIGRATIONS / "run_figures_0008.sql"
VIEWS_0005 = MIGRATIONS / "views_0005"
VIEWS_0008 = MIGRATIONS / "views_0008"  # queries/*.sql as they stood until 0013 (frozen)
# The views of 0005 and 0008 (the same twelve), in creation order (a view after the views it reads); frozen here,
# as the files are, so that later views never change what this revision does.
VIEWS = ("run_iops", "median_runs", "disk_counts", "per_disk_iops", "run_throughput", "throughput_per_disk",
         "iops_per_dollar", "dollars_per_kiops", "mb_per_dollar", "perf_per_watt", "run_summary", "latency_summary")


def create_views(folder: Path) -> None:
    for view in VIEWS:
        op.execute((folder / f"{view}.sql").read_text(encoding="utf-8"))


def drop_views() -> None:
    for view in reversed(VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {view}")

TRIGGERS = (
    ("runs", ("insert", "update", "delete")),
    ("latencies", ("insert", "update", "delete")),
    ("instances", ("update",)),
    ("run_published_values", ("insert", "update", "delete")),
    ("perf_counters", ("insert", "update", "delete")),
    ("solutions", ("update",)),
    ("trials", ("update",)),
)
DISK_TRIGGERS = ("insert", "update", "delete")
FUNCTIONS = (
    "run_figures_mark_renamed()", "run_figures_mark_runs()", "run_figures_mark_changed()",
    "run_figures_mark_old()", "run_figures_mark_new()",
    "refresh_stale_run_figures()", "mark_run_figures_stale(integer[])", "refresh_run_figures(integer[])",
    "disks_mark_new()", "disks_mark_old()", "disks_mark_changed()", "refresh_solution_disk_counts(integer[])",
)


def _float(name: str) -> sa.Column:
    return sa.Column(name, sa.Double(), nullable=True)


def upgrade() -> None:
    drop_views()
    op.create_table(
        "run_figures",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("solution_id", sa.Integer(), nullable=True),
        sa.Column("trial_id", sa.Integer(), nullable=True),
        sa.Column("run_label", sa.Text(), nullable=True),
        sa.Column("report_type", sa.Text(), nullable=False),
        sa.Column("origin", sa.Text(), nullable=False),
        sa.Column("solution", sa.String(length=100), nullable=True),
        sa.Column("trial", sa.Text(), nullable=True),
        sa.Column("jetstress_release", sa.Integer(), nullable=True),
        sa.Column("machine_name", sa.Text(), nullable=True),
        sa.Column("test_start", sa.DateTime(), nullable=True),
        sa.Column("reported_verdict", sa.Text(), nullable=True),
        _float("target_iops"),
        *map(_float, ("achieved_iops", "log_iops", "total_iops")),
        sa.Column("trial_rank_ordinal", sa.BigInteger(), nullable=True),
        sa.Column("trial_run_count", sa.BigInteger(), nullable=True),
        sa.Column("is_median_run", sa.Boolean(), nullable=True),
        *map(_float, ("trial_min_total_iops", "trial_max_total_iops", "spread_percent")),
        sa.Column("database_instance_count", sa.BigInteger(), nullable=True),
        *map(_float, ("db_reads_per_s", "db_writes_per_s", "db_read_latency_ms", "db_write_latency_ms",
                      "log_write_latency_ms", "disk_transfers_per_s", "read_mb_per_s", "write_mb_per_s",
                      "transfer_mb_per_s", "read_latency_ms", "write_latency_ms")),
        sa.Column("throughput_source", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_figures_run_id_runs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", name=op.f("pk_run_figures")),
    )
    op.create_index(op.f("ix_run_figures_solution_id"), "run_figures", ["solution_id"], unique=False)
    op.create_index(op.f("ix_run_figures_solution"), "run_figures", ["solution"], unique=False)
    op.create_table(
        "solution_disk_counts",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("all_disk_count", sa.BigInteger(), nullable=False),
        sa.Column("active_disk_count", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["solution_id"], ["solutions.id"],
                                name=op.f("fk_solution_disk_counts_solution_id_solutions"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("solution_id", name=op.f("pk_solution_disk_counts")),
    )
    op.create_table(
        "run_scope_latencies",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.Text(), nullable=False),
        sa.Column("solution", sa.String(length=100), nullable=True),
        sa.Column("run_label", sa.Text(), nullable=True),
        _float("threshold_db_read_avg_ms"),
        _float("threshold_log_write_avg_ms"),
        sa.Column("instance_row_count", sa.BigInteger(), nullable=False),
        *map(_float, ("avg_db_read_latency_ms", "min_db_read_latency_ms", "max_db_read_latency_ms",
                      "avg_db_write_latency_ms", "avg_log_write_latency_ms", "max_log_write_latency_ms")),
        sa.Column("over_read_threshold_count", sa.BigInteger(), nullable=False),
        sa.Column("over_log_threshold_count", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_scope_latencies_run_id_runs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", "scope", name=op.f("pk_run_scope_latencies")),
    )
    op.create_index(op.f("ix_run_scope_latencies_solution"), "run_scope_latencies", ["solution"], unique=False)
    op.create_table(
        "run_disk_figures",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("disk_basis", sa.Text(), nullable=False),
        sa.Column("solution", sa.String(length=100), nullable=True),
        sa.Column("trial", sa.Text(), nullable=True),
        sa.Column("run_label", sa.Text(), nullable=True),
        sa.Column("is_median_run", sa.Boolean(), nullable=True),
        sa.Column("disk_count", sa.Integer(), nullable=True),
        *map(_float, ("achieved_iops", "log_iops", "total_iops", "per_disk_achieved_iops", "per_disk_log_iops",
                      "per_disk_total_iops")),
        sa.Column("iops_source", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_disk_figures_run_id_runs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", "disk_basis", name=op.f("pk_run_disk_figures")),
    )
    op.create_index(op.f("ix_run_disk_figures_solution"), "run_disk_figures", ["solution"], unique=False)
    op.create_table(
        "perf_counter_means",
        sa.Column("counter_id", sa.Integer(), nullable=False),
        sa.Column("sample_count", sa.BigInteger(), nullable=False),
        sa.Column("value_count", sa.BigInteger(), nullable=False),
        _float("value_sum"),
        sa.ForeignKeyConstraint(["counter_id"], ["perf_counters.id"],
                                name=op.f("fk_perf_counter_means_counter_id_perf_counters"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("counter_id", name=op.f("pk_perf_counter_means")),
    )
    op.create_table(
        "run_figures_stale",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", name=op.f("pk_run_figures_stale")),
    )
    op.execute(REFRESH_SQL.read_text(encoding="utf-8"))
    op.execute("SELECT refresh_solution_disk_counts(NULL)")
    op.execute("SELECT refresh_run_figures(NULL)")
    create_views(VIEWS_0008)


def downgrade() -> None:
    drop_views()
    for table, events in TRIGGERS:
        for event in events:
            op.execute(f"DROP TRIGGER {table}_figures_{event} ON {table}")
    op.execute("DROP TRIGGER run_figures_stale_refresh ON run_figures_stale")
    for event in DISK_TRIGGERS:
        op.execute(f"DROP TRIGGER disks_counts_{event} ON disks")
    for function in FUNCTIONS:
        op.execute(f"DROP FUNCTION {function}")
    for table in ("run_disk_figures", "solution_disk_counts", "run_figures_stale", "perf_counter_means",
                  "run_scope_latencies", "run_figures"):
        op.drop_table(table)
    create_views(VIEWS_0005)
