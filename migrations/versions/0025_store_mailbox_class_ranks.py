"""The rows of mailbox_class_ranks stored, rebuilt once per batch of writes; the view reads them while fresh.

At 50,000 solutions mailbox_class_ranks was 7-9.5x a plain read of its 40,000 rows: three rank windows over
whole classes at each read. A rank needs its class, so ranks kept as each write commits would make one
ingested document rewrite up to a class (20,000 rows), which ingest must not pay. So:

- `mailbox_class_rank_rows` holds the view's rows; `mailbox_class_ranks_freshness` one row, the writes that
  may change a rank counted (write_count) and the count the rows were built at (built_write_count).
- A write only counts itself, once per transaction: statement triggers on solution_designs (written at
  commit, under the designs' advisory lock) and mailbox_classes; recovery_stats (the log replay rate) marks
  its runs' solutions in solution_designs_stale, whose commit-time refresh writes solution_designs.
- `rebuild_mailbox_class_rank_rows()` (mailbox_class_rank_rows_0025.sql) writes the rows that differ, under
  an advisory lock, and records the write_count it read before them; writers call it once at the end of a
  batch (db/class_ranks.py: ingest_paths, delete, assign). Only the owner may call it.
- The view (views_0025/) reads the rows while fresh and otherwise computes the ranks as revision 0022 did
  (`mailbox_class_ranks_computed()`): a missed rebuild is slower, never different. CREATE OR REPLACE keeps
  the reader's grant and the column comments. `mailbox_class_ranks_of(solution)` reads the solution's
  stored rows by key while fresh, and counts its class as revision 0024 did while stale.

The downgrade puts back views_0022/mailbox_class_ranks.sql and views_0024/mailbox_class_ranks_of.sql and
drops the tables, triggers and functions.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-28 04:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
REBUILD_SQL = MIGRATIONS / "mailbox_class_rank_rows_0025.sql"
FUNCTIONS = ("rebuild_mailbox_class_rank_rows()", "mailbox_class_ranks_mark_stale()", "mailbox_class_ranks_computed()")
# (trigger, table, events, what it runs): statement triggers.
TRIGGERS = (
    ("solution_designs_class_ranks", "solution_designs", "INSERT OR UPDATE OR DELETE OR TRUNCATE",
     "mailbox_class_ranks_mark_stale()"),
    ("mailbox_classes_class_ranks", "mailbox_classes", "INSERT OR UPDATE OR DELETE OR TRUNCATE",
     "mailbox_class_ranks_mark_stale()"),
    ("recovery_stats_class_ranks_truncate", "recovery_stats", "TRUNCATE", "mailbox_class_ranks_mark_stale()"),
)
# recovery_stats names a run: its solution's design is refreshed at commit (0022's function), which counts.
RECOVERY_TRIGGERS = {"insert": "NEW TABLE AS new_rows", "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
                     "delete": "OLD TABLE AS old_rows"}

# The words of schema/comments.py for the new tables, as this revision wrote them (frozen).
TABLE_WORDS = {
    "mailbox_class_rank_rows": "The rows of mailbox_class_ranks, rebuilt once after a batch of writes: what the "
                               "view reads while mailbox_class_ranks_freshness says they are fresh.",
    "mailbox_class_ranks_freshness": "One row: writes that may change a class rank, counted, and the count "
                                     "mailbox_class_rank_rows was built at (equal: fresh).",
}
ROW_COLUMNS: dict[str, tuple[sa.types.TypeEngine, str]] = {
    "mailbox_class": (sa.Text(), "The class of the mailbox count (table mailbox_classes)."),
    "mailbox_class_order": (sa.Integer(), "The class's order, smallest first (mailbox_classes.class_ordinal)."),
    "solution": (sa.String(length=100), "The solution's key (solutions.key)."),
    "mailbox_count": (sa.Integer(), "Mailboxes simulated."),
    "run_id": (sa.Integer(), "The solution's representative run (join runs.id)."),
    "jetstress_release": (sa.Integer(), "Jetstress release year: 2007, 2010 or 2013 (2013 and 2016 reports alike)."),
    "report_type": (sa.Text(), "Jetstress test type: Performance, Stress, DatabaseBackup, SoftRecovery or DBChecksum."),
    "iops_per_mailbox": (sa.Double(), "I/O operations per second per mailbox the test simulated."),
    "total_iops": (sa.Double(), "The representative run's total IOPS."),
    "total_iops_rank": (sa.BigInteger(), "Rank in the class by total IOPS, highest first (1 = best)."),
    "db_read_latency_ms": (sa.Double(), "The representative run's average database read latency, ms."),
    "db_read_latency_rank": (sa.BigInteger(), "Rank in the class by read latency, lowest first."),
    "logs_per_s_per_server": (sa.Double(), "Log replay rate, logs per second per server (esrp_tests)."),
    "log_replay_rank": (sa.BigInteger(), "Rank in the class by log replay rate, highest first."),
    "like_for_like": (sa.Boolean(), "True when every solution in the class ran the same release, test type and "
                                    "IOPS per mailbox."),
}
FRESHNESS_WORDS = {
    "one_row": "Always true: the table has one row.",
    "write_count": "Transactions so far that wrote what a class rank reads (designs, class bounds, log replay).",
    "built_write_count": "write_count when mailbox_class_rank_rows was last rebuilt; equal to it: the rows are fresh.",
}
NOT_NULL = ("mailbox_class", "mailbox_class_order", "solution")


def _create_tables() -> None:
    op.create_table(
        "mailbox_class_rank_rows",
        *(sa.Column(name, kind, nullable=name not in NOT_NULL, comment=words)
          for name, (kind, words) in ROW_COLUMNS.items()),
        sa.PrimaryKeyConstraint("solution", "mailbox_class_order", name=op.f("pk_mailbox_class_rank_rows")),
        comment=TABLE_WORDS["mailbox_class_rank_rows"],
    )
    op.create_table(
        "mailbox_class_ranks_freshness",
        sa.Column("one_row", sa.Boolean(), server_default=sa.text("true"), nullable=False,
                  comment=FRESHNESS_WORDS["one_row"]),
        sa.Column("write_count", sa.BigInteger(), nullable=False, comment=FRESHNESS_WORDS["write_count"]),
        sa.Column("built_write_count", sa.BigInteger(), nullable=False, comment=FRESHNESS_WORDS["built_write_count"]),
        sa.CheckConstraint("one_row", name=op.f("ck_mailbox_class_ranks_freshness_one_row")),
        sa.PrimaryKeyConstraint("one_row", name=op.f("pk_mailbox_class_ranks_freshness")),
        comment=TABLE_WORDS["mailbox_class_ranks_freshness"],
    )
    op.execute("INSERT INTO mailbox_class_ranks_freshness (write_count, built_write_count) VALUES (1, 0)")


def upgrade() -> None:
    _create_tables()
    op.execute(REBUILD_SQL.read_text(encoding="utf-8"))
    op.execute("REVOKE EXECUTE ON FUNCTION rebuild_mailbox_class_rank_rows() FROM PUBLIC")
    for name, table, events, function in TRIGGERS:
        op.execute(f"CREATE TRIGGER {name} AFTER {events} ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {function}")
    for event, transition in RECOVERY_TRIGGERS.items():
        op.execute(f"CREATE TRIGGER recovery_stats_class_ranks_{event} AFTER {event.upper()} ON recovery_stats "
                   f"REFERENCING {transition} FOR EACH STATEMENT EXECUTE FUNCTION solution_designs_mark_runs()")
    op.execute("SELECT rebuild_mailbox_class_rank_rows()")
    op.execute("ANALYZE mailbox_class_rank_rows")
    for name in ("mailbox_class_ranks", "mailbox_class_ranks_of"):
        op.execute((MIGRATIONS / "views_0025" / f"{name}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute((MIGRATIONS / "views_0024" / "mailbox_class_ranks_of.sql").read_text(encoding="utf-8"))
    op.execute((MIGRATIONS / "views_0022" / "mailbox_class_ranks.sql").read_text(encoding="utf-8"))
    for event in RECOVERY_TRIGGERS:
        op.execute(f"DROP TRIGGER recovery_stats_class_ranks_{event} ON recovery_stats")
    for name, table, _, _ in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON {table}")
    for function in FUNCTIONS:
        op.execute(f"DROP FUNCTION {function}")
    op.drop_table("mailbox_class_ranks_freshness")
    op.drop_table("mailbox_class_rank_rows")
