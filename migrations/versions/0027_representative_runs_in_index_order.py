"""representative_runs read in key order from an index, not sorted: the solution index carries its columns.

At 50,000 solutions `representative_runs` (50,000 rows, ORDER BY solution) took 29 ms, 2.7-3.1x a plain
read of as many rows: a sequential scan of solution_designs and a sort that spilled past the default
work_mem (external merge, 3.6 MB on disk). `ix_solution_designs_solution` (revision 0022, on solution
alone) now also INCLUDEs the view's other columns, so the view is an index-only scan already in its
order (2.6 ms in bench_scale.py); a filter by solution still uses it as before. No table is rewritten, no view changes.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-28 13:20:00
"""

from __future__ import annotations

from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

INDEX = "ix_solution_designs_solution"
REPRESENTATIVE_COLUMNS = ["solution_id", "representative_run_id", "run_label", "trial", "trial_run_count"]


def upgrade() -> None:
    op.drop_index(INDEX, table_name="solution_designs")
    op.create_index(INDEX, "solution_designs", ["solution"], postgresql_include=REPRESENTATIVE_COLUMNS)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="solution_designs")
    op.create_index(INDEX, "solution_designs", ["solution"])
