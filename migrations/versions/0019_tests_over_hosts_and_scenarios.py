"""A test run on several hosts at once is one test; a run may name its scenario.

Vendors run one Jetstress test on several hosts at once (one report per host). Those reports are
one test: `runs.origin` takes `hosts` for the test's own run, whose figures are its host reports'
sums (IOPS and rates summed, latencies weighted by IOPS), and each host report points at it
(`runs.test_run_id`, NULL on any other run). Per-disk, per-dollar and per-watt figures use the
test's figures, and a trial's median is taken across tests: host reports are not ranked.
`runs.scenario` is what a document calls a test under an abnormal condition ("Drive failure",
"Rebuild"); NULL for a normal test, which the representative run prefers. `test_designs` counts
the databases of a design that states them per server: that times its servers (stated, else the
hosts its reports name). A host counter keeps the line its row is printed on (`source_line`), so the
audit can cite it.

The function is migrations/run_figures_0019.sql (frozen; its head comment lists the changes to
0013's, which the downgrade puts back with 0008's run_figures_mark_runs, run_figures_marks_0008.sql);
the views are views_0019/ (the downgrade puts back views_0008/ and views_0018/).

A downgrade cannot keep a test over hosts (0018 knows no such run): it keeps the tests, what points
at them (host reports, claims, evidence, published values, assignments) and every run's scenario in
the downgrade archive, and this upgrade puts them back.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26 10:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
VIEWS = MIGRATIONS / "views_0019"
VIEWS_BEFORE = {"run_iops": "views_0008", "median_runs": "views_0008", "run_summary": "views_0008",
                "representative_runs": "views_0018", "test_designs": "views_0018"}
ORIGINS_0018 = "origin IN ('report', 'document_table')"
ORIGINS_0019 = "origin IN ('report', 'document_table', 'hosts')"

TESTS = "SELECT id FROM runs WHERE origin = 'hosts'"
# Tables whose rows point at a run and go with it (ON DELETE SET NULL): kept as (key, run_id).
LINKS = {"perf_files": "source_file_id", "perf_counters": "id", "power_files": "source_file_id",
         "test_logs": "source_file_id", "test_configs": "source_file_id"}
# Rows that go with a deleted run (ON DELETE CASCADE): kept whole; put back when what they name exists.
ROWS = {
    "run_published_values": "(k.document_table_id IS NULL OR EXISTS (SELECT 1 FROM document_tables t "
                            "WHERE t.id = k.document_table_id))",
    "run_power": "(k.source_file_id IS NULL OR EXISTS (SELECT 1 FROM source_files f WHERE f.id = k.source_file_id))",
    "run_assignments": "EXISTS (SELECT 1 FROM solutions s WHERE s.id = k.to_solution_id) "
                       "AND (k.from_solution_id IS NULL OR EXISTS (SELECT 1 FROM solutions s "
                       "WHERE s.id = k.from_solution_id))",
}
RESTORE_TESTS = """INSERT INTO runs SELECT k.* FROM jsonb_populate_recordset(NULL::runs, :rows) AS k
WHERE EXISTS (SELECT 1 FROM source_files f WHERE f.id = k.source_file_id)
  AND (k.solution_id IS NULL OR EXISTS (SELECT 1 FROM solutions s WHERE s.id = k.solution_id))
  AND (k.trial_id IS NULL OR EXISTS (SELECT 1 FROM trials t WHERE t.id = k.trial_id))
ON CONFLICT DO NOTHING"""
RESTORE_MARKS = """UPDATE runs r SET scenario = k.scenario,
    test_run_id = (SELECT t.id FROM runs t WHERE t.id = k.test_run_id AND t.origin = 'hosts')
FROM jsonb_to_recordset(:rows) AS k(id integer, test_run_id integer, scenario text) WHERE r.id = k.id"""
RESTORE_CLAIMS = """UPDATE claims c
SET run_id = COALESCE(c.run_id, (SELECT r.id FROM runs r WHERE r.id = k.run_id)),
    other_run_id = COALESCE(c.other_run_id, (SELECT r.id FROM runs r WHERE r.id = k.other_run_id))
FROM jsonb_to_recordset(:rows) AS k(id integer, run_id integer, other_run_id integer) WHERE c.id = k.id"""


def upgrade() -> None:
    op.drop_constraint(op.f("ck_runs_origin_allowed"), "runs", type_="check")
    op.create_check_constraint(op.f("ck_runs_origin_allowed"), "runs", ORIGINS_0019)
    op.add_column("runs", sa.Column("test_run_id", sa.Integer(), nullable=True))
    op.add_column("runs", sa.Column("scenario", sa.Text(), nullable=True))
    op.add_column("host_counters", sa.Column("source_line", sa.Integer(), nullable=True))
    op.create_foreign_key(op.f("fk_runs_test_run_id_runs"), "runs", "runs", ["test_run_id"], ["id"],
                          ondelete="SET NULL")
    op.create_index(op.f("ix_runs_test_run_id"), "runs", ["test_run_id"], unique=False)
    op.execute((MIGRATIONS / "run_figures_0019.sql").read_text(encoding="utf-8"))
    for name in VIEWS_BEFORE:
        op.execute((VIEWS / f"{name}.sql").read_text(encoding="utf-8"))
    # What a downgrade kept; the commit-time triggers then refresh the runs written here.
    archive.restore("0019", "tests", RESTORE_TESTS)
    archive.restore("0019", "marks", RESTORE_MARKS)
    archive.restore("0019", "claims", RESTORE_CLAIMS)
    for table, key in LINKS.items():
        archive.restore("0019", table, f"UPDATE {table} x SET run_id = k.run_id "
                        "FROM jsonb_to_recordset(:rows) AS k(key integer, run_id integer) "
                        f"WHERE x.{key} = k.key AND x.run_id IS NULL "
                        "AND EXISTS (SELECT 1 FROM runs r WHERE r.id = k.run_id)")
    for table, names_exist in ROWS.items():
        archive.restore("0019", table, f"INSERT INTO {table} SELECT k.* FROM jsonb_populate_recordset(NULL::{table}, "
                        f":rows) AS k WHERE EXISTS (SELECT 1 FROM runs r WHERE r.id = k.run_id) AND {names_exist} "
                        "ON CONFLICT DO NOTHING")


def downgrade() -> None:
    archive.stash("0019", "tests", f"SELECT * FROM runs WHERE id IN ({TESTS})")
    archive.stash("0019", "marks", "SELECT id, test_run_id, scenario FROM runs "
                                   "WHERE test_run_id IS NOT NULL OR scenario IS NOT NULL")
    archive.stash("0019", "claims", f"SELECT id, run_id, other_run_id FROM claims "
                                    f"WHERE run_id IN ({TESTS}) OR other_run_id IN ({TESTS})")
    for table, key in LINKS.items():
        archive.stash("0019", table, f"SELECT {key} AS key, run_id FROM {table} WHERE run_id IN ({TESTS})")
    for table in ROWS:
        archive.stash("0019", table, f"SELECT * FROM {table} WHERE run_id IN ({TESTS})")
    op.execute((MIGRATIONS / "run_figures_marks_0008.sql").read_text(encoding="utf-8"))
    op.execute((MIGRATIONS / "run_figures_0013.sql").read_text(encoding="utf-8"))
    for name, folder in VIEWS_BEFORE.items():
        op.execute((MIGRATIONS / folder / f"{name}.sql").read_text(encoding="utf-8"))
    op.execute(f"DELETE FROM runs WHERE id IN ({TESTS})")  # their host reports are ranked again, at commit
    op.drop_index(op.f("ix_runs_test_run_id"), table_name="runs")
    op.drop_constraint(op.f("fk_runs_test_run_id_runs"), "runs", type_="foreignkey")
    op.drop_column("host_counters", "source_line")
    op.drop_column("runs", "scenario")
    op.drop_column("runs", "test_run_id")
    op.drop_constraint(op.f("ck_runs_origin_allowed"), "runs", type_="check")
    op.create_check_constraint(op.f("ck_runs_origin_allowed"), "runs", ORIGINS_0018)
