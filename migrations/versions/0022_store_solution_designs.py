"""Each solution's test design and representative run stored, kept at commit for the solutions a write touches.

At 50,000 solutions test_designs chose every solution's figures from 1.8 million claims at each call
(889 ms, 7.7x a read of `runs`; 756 ms for one solution, whose filter could not reach the claims),
and mailbox_class_ranks read it and representative_runs (a sort of every ranked run) again. The
choice is now made once, when what it comes from is written: `solution_designs` holds one row per
solution (test_designs without the mailbox class, the representative run and the figures the
classes rank it by), `refresh_solution_designs` fills it (solution_designs_0022.sql, computing what
the 0019 views computed), statement triggers on the tables it reads list the solutions a statement
touched in `solution_designs_stale`, and a deferred trigger refreshes them at commit. The views read
the table (views_0022/): same columns and rows; CREATE OR REPLACE keeps the reader's grant and the
column comments of 0020. The class stays a join when read, since the owner may change its bounds.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27 14:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
REFRESH_SQL = MIGRATIONS / "solution_designs_0022.sql"
VIEWS = ("test_designs", "representative_runs", "mailbox_class_ranks")  # creation order
VIEWS_BEFORE = {"test_designs": "views_0019", "representative_runs": "views_0019",
                "mailbox_class_ranks": "views_0018"}

# (table, the function that marks its solutions, events): a statement trigger per event.
TRIGGERS = (
    ("claims", "solution_designs_mark_solutions", ("insert", "update", "delete")),
    ("solution_facts", "solution_designs_mark_solutions", ("insert", "update", "delete")),
    ("runs", "solution_designs_mark_solutions", ("insert", "update", "delete")),
    ("run_figures", "solution_designs_mark_solutions", ("insert", "update", "delete")),
    ("test_configs", "solution_designs_mark_runs", ("insert", "update", "delete")),
    ("run_sources", "solution_designs_mark_runs", ("insert", "update", "delete")),
    ("documents", "solution_designs_mark_documents", ("insert", "update", "delete")),
    ("source_files", "solution_designs_mark_files", ("update",)),
    ("solutions", "solution_designs_mark_keys", ("insert", "update", "delete")),
)
TRANSITIONS = {"insert": "NEW TABLE AS new_rows", "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
               "delete": "OLD TABLE AS old_rows"}
FUNCTIONS = (
    "solution_designs_mark_keys()", "solution_designs_mark_files()", "solution_designs_mark_documents()",
    "solution_designs_of_files(integer[])", "solution_designs_mark_runs()", "solution_designs_mark_solutions()",
    "refresh_stale_solution_designs()", "mark_solution_designs_stale(integer[])",
    "refresh_solution_designs(integer[])",
)

# The words of schema/comments.py for the new tables, as this revision wrote them (frozen).
TABLE_WORDS = {
    "solution_designs": "Each solution's test design and representative run, kept at commit: what test_designs, "
                        "representative_runs and mailbox_class_ranks read.",
    "solution_designs_stale": "Solutions written in the current transaction whose design is recomputed at commit.",
}
COLUMN_WORDS = {
    "solution_designs": {
        "solution_id": "The solution (join solutions.id).",
        "solution": "The solution's key (solutions.key), copied so that a filter by key reads this table alone.",
        "mailbox_count": "Mailboxes simulated.",
        "mailbox_count_source": "File and line the count is printed on (or the JetstressConfig.xml).",
        "mailbox_size_mb": "Mailbox size (quota), MB.",
        "iops_per_mailbox": "I/O operations per second per mailbox the test simulated.",
        "database_count": "Databases in the test.",
        "database_copy_count": "Copies of each database: the most any of the solution's runs reports.",
        "esrp_version": "ESRP program version as printed, e.g. '3.0'.",
        "esrp_version_source": "File and line the ESRP version is printed on.",
        "tested_on": "The tested date the document prints.",
        "representative_run_id": "The run that stands for the solution (join runs.id; representative_runs); NULL: "
                                 "no ranked run.",
        "run_label": "The representative run's name as printed.",
        "trial": "The representative run's trial label; NULL: a run outside any trial.",
        "trial_run_count": "Runs in the representative run's trial.",
        "jetstress_release": "The representative run's Jetstress release year.",
        "report_type": "The representative run's test type: Performance or Stress.",
        "total_iops": "The representative run's total IOPS (achieved + log).",
        "db_read_latency_ms": "The representative run's average database read latency, ms.",
    },
    "solution_designs_stale": {"xact_id": "The transaction that wrote it (pg_current_xact_id()): the one that "
                                          "refreshes it at commit.",
                               "solution_id": "A solution to refresh at commit (no foreign key: it may be gone)."},
}


def _column(table: str, name: str, kind: sa.types.TypeEngine, nullable: bool = True) -> sa.Column:
    return sa.Column(name, kind, nullable=nullable, comment=COLUMN_WORDS[table][name])


def _create_tables() -> None:
    words = COLUMN_WORDS["solution_designs"]
    kinds: dict[str, sa.types.TypeEngine] = {
        "solution_id": sa.Integer(), "solution": sa.String(length=100), "mailbox_count": sa.Integer(),
        "mailbox_count_source": sa.Text(), "mailbox_size_mb": sa.Double(), "iops_per_mailbox": sa.Double(),
        "database_count": sa.Integer(), "database_copy_count": sa.Integer(), "esrp_version": sa.Text(),
        "esrp_version_source": sa.Text(), "tested_on": sa.Date(), "representative_run_id": sa.Integer(),
        "run_label": sa.Text(), "trial": sa.Text(), "trial_run_count": sa.BigInteger(),
        "jetstress_release": sa.Integer(), "report_type": sa.Text(), "total_iops": sa.Double(),
        "db_read_latency_ms": sa.Double()}
    op.create_table(
        "solution_designs",
        *(_column("solution_designs", name, kinds[name], nullable=name not in ("solution_id", "solution"))
          for name in words),
        sa.PrimaryKeyConstraint("solution_id", name=op.f("pk_solution_designs")),
        comment=TABLE_WORDS["solution_designs"],
    )
    op.create_index(op.f("ix_solution_designs_solution"), "solution_designs", ["solution"], unique=False)
    op.create_table(
        "solution_designs_stale",
        _column("solution_designs_stale", "xact_id", sa.BigInteger(), nullable=False),
        _column("solution_designs_stale", "solution_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("xact_id", "solution_id", name=op.f("pk_solution_designs_stale")),
        comment=TABLE_WORDS["solution_designs_stale"],
    )


def upgrade() -> None:
    _create_tables()
    op.execute(REFRESH_SQL.read_text(encoding="utf-8"))
    for table, function, events in TRIGGERS:
        for event in events:
            op.execute(f"CREATE TRIGGER {table}_designs_{event} AFTER {event.upper()} ON {table} "
                       f"REFERENCING {TRANSITIONS[event]} FOR EACH STATEMENT EXECUTE FUNCTION {function}()")
    op.execute("CREATE CONSTRAINT TRIGGER solution_designs_stale_refresh AFTER INSERT ON solution_designs_stale "
               "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refresh_stale_solution_designs()")
    op.execute("SELECT refresh_solution_designs(NULL)")
    for view in VIEWS:
        op.execute((MIGRATIONS / "views_0022" / f"{view}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    for view in VIEWS:
        op.execute((MIGRATIONS / VIEWS_BEFORE[view] / f"{view}.sql").read_text(encoding="utf-8"))
    for table, _, events in TRIGGERS:
        for event in events:
            op.execute(f"DROP TRIGGER {table}_designs_{event} ON {table}")
    # A refresh this transaction queued runs now: a table with pending trigger events cannot be dropped.
    op.execute("SET CONSTRAINTS solution_designs_stale_refresh IMMEDIATE")
    op.execute("DROP TRIGGER solution_designs_stale_refresh ON solution_designs_stale")
    for function in FUNCTIONS:
        op.execute(f"DROP FUNCTION {function}")
    op.drop_table("solution_designs_stale")
    op.drop_table("solution_designs")
