"""Indexes that hold what four canned views read, and one solution's class ranks counted from an index.

At 50,000 solutions each canned view was within 1.5x of a full read of `runs`, but some were not within
1.5x of a plain read of as many rows as they return (issue 36's wording): disk_counts read all of
`solutions` (78 MB) for the key of each solution with disks, mb_per_dollar read it all to keep the
priced ones (15,000) and cast a numeric quotient through text twice a row, run_throughput read all of
run_figures (93 MB) to keep the quarter with a throughput, and one solution of mailbox_class_ranks
ranked every class three ways. Now:

- `ix_solutions_id_key`, solutions (id) INCLUDE (key): disk_counts joins the keys by an index-only scan.
- `ix_solutions_priced_capacity`, the priced solutions' key, capacity and price columns: mb_per_dollar
  reads it alone (views_0024/mb_per_dollar.sql, whose usable_mb is the same double by float arithmetic).
- `ix_run_figures_throughput` (revision 0023) also carries the read and write latencies and the perfmon
  sample window: run_throughput reads it alone, as throughput_per_disk does.
- `ix_solution_designs_mailbox_count`, solution_designs (mailbox_count) INCLUDE the figures a class is
  ranked and compared by, and `mailbox_class_ranks_of(solution)` (views_0024/), one solution's rows of
  mailbox_class_ranks, each rank 1 + the count of better rows of the class, read from that index;
  `esrpdb query mailbox-class-ranks -p solution=…` uses it (queries/canned.py, ONE_SOLUTION).

Nothing is stored that a write must keep beyond its indexes; no table is rewritten (an index-only scan
needs the visibility map, which a rewrite would empty). The downgrade puts back views_0008/mb_per_dollar.sql
and 0023's throughput index.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28 03:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
THROUGHPUT_0023 = ["solution", "trial", "trial_rank_ordinal", "run_id", "run_label", "is_median_run",
                   "transfer_mb_per_s", "read_mb_per_s", "write_mb_per_s", "disk_transfers_per_s", "throughput_source"]
THROUGHPUT_0024 = [*THROUGHPUT_0023, "read_latency_ms", "write_latency_ms", "perfmon_sample_window"]
PRICED = "usable_capacity_bytes IS NOT NULL AND list_price_amount IS NOT NULL"
PRICED_COLUMNS = ["usable_capacity_bytes", "list_price_amount", "list_price_currency", "list_price_type"]
CLASS_FIGURES = ["total_iops", "db_read_latency_ms", "jetstress_release", "report_type", "iops_per_mailbox"]


def _throughput_index(columns: list[str]) -> None:
    op.create_index("ix_run_figures_throughput", "run_figures", ["solution_id"], postgresql_include=columns,
                    postgresql_where=sa.text("throughput_source IS NOT NULL"))


def upgrade() -> None:
    op.create_index("ix_solutions_id_key", "solutions", ["id"], postgresql_include=["key"])
    op.create_index("ix_solutions_priced_capacity", "solutions", ["key"], postgresql_include=PRICED_COLUMNS,
                    postgresql_where=sa.text(PRICED))
    op.drop_index("ix_run_figures_throughput", table_name="run_figures")
    _throughput_index(THROUGHPUT_0024)
    op.create_index("ix_solution_designs_mailbox_count", "solution_designs", ["mailbox_count"],
                    postgresql_include=CLASS_FIGURES, postgresql_where=sa.text("mailbox_count IS NOT NULL"))
    for name in ("mb_per_dollar", "mailbox_class_ranks_of"):
        op.execute((MIGRATIONS / "views_0024" / f"{name}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute("DROP FUNCTION mailbox_class_ranks_of(text)")
    op.execute((MIGRATIONS / "views_0008" / "mb_per_dollar.sql").read_text(encoding="utf-8"))
    op.drop_index("ix_solution_designs_mailbox_count", table_name="solution_designs")
    op.drop_index("ix_run_figures_throughput", table_name="run_figures")
    _throughput_index(THROUGHPUT_0023)
    op.drop_index("ix_solutions_priced_capacity", table_name="solutions")
    op.drop_index("ix_solutions_id_key", table_name="solutions")
