"""Perfmon counter means over the run's window, stored at ingest (issue 13).

Until now `perf_counter_means` held the sums of all of a counter's samples, over the whole
export, computed once and never again. An export often covers more than the run (warm-up
before it, idle time after), so the means a run's throughput is read from now cover only the
samples inside the run's window [runs.test_start, runs.test_end], read in the export's time
zone as ingest/link.py reads it, and fall back to the whole export when the run has no window
or none of the samples falls in it. Three columns say which: `sample_window` ('run' | 'export')
and the window the sums were computed against (`run_window_start_at`, `run_window_end_at`, UTC;
NULL when the run has no window). A counter whose run, or whose run's window, is no longer the
one its row was computed for is recomputed by the next refresh of its run (a relinked counter
marks its new run stale, a run whose times change marks itself).

`refresh_run_figures` is replaced (migrations/run_figures_0011.sql, frozen); upgrade recomputes
the means and every run's figures (a full refresh, as 0008's upgrade: 35-55 s on the
10,000-solution benchmark catalogue, docs/scaling.md), and downgrade restores 0008's definition,
read from migrations/run_figures_0008.sql, and recomputes the means as 0008 did (whole exports).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
REFRESH_SQL = MIGRATIONS / "run_figures_0011.sql"
REFRESH_SQL_0008 = MIGRATIONS / "run_figures_0008.sql"
CHECK = "ck_perf_counter_means_sample_window_allowed"


def refresh_run_figures_0008() -> str:
    """0008's `CREATE FUNCTION refresh_run_figures … $fn$;` as written there, as CREATE OR REPLACE."""
    text = REFRESH_SQL_0008.read_text(encoding="utf-8")
    start = text.index("CREATE FUNCTION refresh_run_figures(")
    end = text.index("\n$fn$;", start) + len("\n$fn$;")
    return "CREATE OR REPLACE" + text[start + len("CREATE"):end]


def _recompute() -> None:
    """Every linked counter's sums by the function now in place, then every run's figures from them."""
    op.execute("DELETE FROM perf_counter_means")
    op.execute("SELECT refresh_run_figures(NULL)")


def upgrade() -> None:
    op.add_column("perf_counter_means", sa.Column("sample_window", sa.Text(), nullable=True))
    op.add_column("perf_counter_means", sa.Column("run_window_start_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("perf_counter_means", sa.Column("run_window_end_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(REFRESH_SQL.read_text(encoding="utf-8"))
    _recompute()
    op.alter_column("perf_counter_means", "sample_window", nullable=False)
    op.create_check_constraint(op.f(CHECK), "perf_counter_means", "sample_window IN ('run', 'export')")


def downgrade() -> None:
    op.drop_constraint(op.f(CHECK), "perf_counter_means", type_="check")
    for column in ("run_window_end_at", "run_window_start_at", "sample_window"):
        op.drop_column("perf_counter_means", column)
    op.execute(refresh_run_figures_0008())
    _recompute()
