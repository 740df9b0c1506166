"""Each ranked run's price and power stored (run_value_figures), kept as it is written; a covering index for throughput.

At 50,000 solutions iops_per_dollar read all 375,000 ranked runs and the 78 MB of solutions to keep
the 165,000 runs of priced solutions, and perf_per_watt joined every ranked run to its solution, its
power log and its document's power rows to keep 90,000 (1.4-2.6x and 3-6x a read of `runs`). Now
`run_value_figures` holds one row per ranked run of a solution with a list price or a power figure,
its power resolved as perf_per_watt resolves it; `refresh_run_value_figures` fills it
(run_value_figures_0023.sql) and statement triggers refresh the runs a write touches: on run_figures
(which the commit-time refresh rewrites for every run a write reaches), on run_power, and on an
update of a solution's price or power. The two views read it (views_0023/; dollars_per_kiops reads
iops_per_dollar): same columns and rows, and CREATE OR REPLACE keeps the reader's grant and the
column comments of 0020. throughput_per_disk reads the runs with a throughput from a covering partial
index of run_figures instead of the table.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 00:40:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
REFRESH_SQL = MIGRATIONS / "run_value_figures_0023.sql"
VIEWS_BEFORE = {"iops_per_dollar": "views_0008", "perf_per_watt": "views_0021"}

# (table, the function that refreshes its runs, event): a statement trigger each.
TRIGGERS = (
    ("run_figures", "run_value_figures_mark_new", "insert"),
    ("run_figures", "run_value_figures_mark_new", "update"),
    ("run_figures", "run_value_figures_mark_old", "delete"),
    ("run_power", "run_value_figures_mark_new", "insert"),
    ("run_power", "run_value_figures_mark_changed", "update"),
    ("run_power", "run_value_figures_mark_old", "delete"),
    ("solutions", "run_value_figures_mark_solutions", "update"),
)
TRANSITIONS = {"insert": "NEW TABLE AS new_rows", "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
               "delete": "OLD TABLE AS old_rows"}
FUNCTIONS = ("run_value_figures_mark_solutions()", "run_value_figures_mark_changed()",
             "run_value_figures_mark_old()", "run_value_figures_mark_new()", "refresh_run_value_figures(integer[])")
THROUGHPUT_COLUMNS = ["solution", "trial", "trial_rank_ordinal", "run_id", "run_label", "is_median_run",
                      "transfer_mb_per_s", "read_mb_per_s", "write_mb_per_s", "disk_transfers_per_s",
                      "throughput_source"]
# The words of schema/comments.py for the new table, as this revision wrote them (frozen).
TABLE_WORDS = ("Each ranked run of a solution with a list price or a power figure, kept as it is written: what "
               "iops_per_dollar, dollars_per_kiops and perf_per_watt read.")
COLUMN_WORDS = {
    "run_id": "The run (join runs.id).",
    "solution_id": "The solution (join solutions.id).",
    "solution": "The solution's key (solutions.key), copied so that a filter by key reads this table alone.",
    "trial": "The trial's label (trials.label); NULL: a run outside any trial.",
    "run_label": "The run's name as printed, e.g. 'Run 2'.",
    "is_median_run": "True for the run whose total IOPS is its trial's median.",
    "total_iops": "Total IOPS = achieved IOPS + log IOPS (the whitepapers' 'IOPS').",
    "list_price_amount": "The solution's list price, in list_price_currency; NULL: no price (a per-watt row).",
    "list_price_currency": "ISO 4217 currency of the solution's price (e.g. USD).",
    "list_price_type": "What kind of price the solution's is: list, reseller or street.",
    "active_power_w": "Average active power, watts: the run's power log's, else its document table's, else the "
                      "solution's; NULL: no power figure (a per-dollar row).",
    "idle_power_w": "Average idle power, watts, from the same place as active_power_w where it gives one.",
    "power_boundary": "What the power covers: the power log's boundary, else the solution's.",
    "power_source": "Where active_power_w comes from: power_log, document_table or manifest.",
}
KINDS: dict[str, sa.types.TypeEngine] = {
    "run_id": sa.Integer(), "solution_id": sa.Integer(), "solution": sa.String(length=100), "trial": sa.Text(),
    "run_label": sa.Text(), "is_median_run": sa.Boolean(), "total_iops": sa.Double(),
    "list_price_amount": sa.Numeric(precision=14, scale=2), "list_price_currency": sa.String(length=3),
    "list_price_type": sa.Text(), "active_power_w": sa.Double(), "idle_power_w": sa.Double(),
    "power_boundary": sa.Text(), "power_source": sa.Text()}


def upgrade() -> None:
    op.create_table(
        "run_value_figures",
        *(sa.Column(name, KINDS[name], nullable=name not in ("run_id", "solution_id", "power_source"),
                    comment=words) for name, words in COLUMN_WORDS.items()),
        sa.CheckConstraint("power_source IN ('power_log', 'document_table', 'manifest')",
                           name=op.f("ck_run_value_figures_power_source_allowed")),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_value_figures_run_id_runs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", name=op.f("pk_run_value_figures")),
        comment=TABLE_WORDS,
    )
    op.create_index(op.f("ix_run_value_figures_solution"), "run_value_figures", ["solution"], unique=False)
    op.create_index("ix_run_figures_throughput", "run_figures", ["solution_id"],
                    postgresql_include=THROUGHPUT_COLUMNS, postgresql_where=sa.text("throughput_source IS NOT NULL"))
    op.execute(REFRESH_SQL.read_text(encoding="utf-8"))
    for table, function, event in TRIGGERS:
        op.execute(f"CREATE TRIGGER {table}_values_{event} AFTER {event.upper()} ON {table} "
                   f"REFERENCING {TRANSITIONS[event]} FOR EACH STATEMENT EXECUTE FUNCTION {function}()")
    op.execute("SELECT refresh_run_value_figures(NULL)")
    op.execute("ANALYZE run_value_figures")
    for view in VIEWS_BEFORE:
        op.execute((MIGRATIONS / "views_0023" / f"{view}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    for view, folder in VIEWS_BEFORE.items():
        op.execute((MIGRATIONS / folder / f"{view}.sql").read_text(encoding="utf-8"))
    for table, _, event in TRIGGERS:
        op.execute(f"DROP TRIGGER {table}_values_{event} ON {table}")
    for function in FUNCTIONS:
        op.execute(f"DROP FUNCTION {function}")
    op.drop_index("ix_run_figures_throughput", table_name="run_figures")
    op.drop_table("run_value_figures")
