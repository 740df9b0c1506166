"""One report, one run; every run a solution: run sources, report identity, provisional solutions.

`run_sources` keeps every file a run's report is printed in (the first is `runs.source_file_id`;
existing runs are copied in); `runs.identity_key` is what makes two sightings one run;
`solutions.provisional` and `derived_from_source_file_id` mark a solution derived from a document
nobody wrote a manifest for, and `solution_facts` holds what was read for it, line by line.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run_sources",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("source_file_id", sa.Integer(), nullable=False),
        sa.Column("report_index", sa.Integer(), nullable=False),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_sources_run_id_runs"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["source_file_id"], ["source_files.id"],
                                name=op.f("fk_run_sources_source_file_id_source_files"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", "source_file_id", "report_index", name=op.f("pk_run_sources")),
    )
    op.create_index(op.f("ix_run_sources_source_file_id"), "run_sources", ["source_file_id"], unique=False)
    op.add_column("runs", sa.Column("identity_key", sa.Text(), nullable=True))
    op.create_index(op.f("ix_runs_identity_key"), "runs", ["identity_key"], unique=False)
    op.add_column("solutions", sa.Column("provisional", sa.Boolean(), server_default="false", nullable=False))
    op.add_column("solutions", sa.Column("derived_from_source_file_id", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_solutions_derived_from_source_file_id"), "solutions", ["derived_from_source_file_id"],
                    unique=False)
    op.create_foreign_key(op.f("fk_solutions_derived_from_source_file_id_source_files"), "solutions", "source_files",
                          ["derived_from_source_file_id"], ["id"], ondelete="SET NULL")
    op.create_table(
        "solution_facts",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("fact", sa.Text(), nullable=False),
        sa.Column("value_printed", sa.Text(), nullable=False),
        sa.Column("value_number", sa.Double(), nullable=True),
        sa.Column("unit", sa.Text(), nullable=True),
        sa.Column("source_file_id", sa.Integer(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.Column("quote", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["solution_id"], ["solutions.id"], name=op.f("fk_solution_facts_solution_id_solutions"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["source_file_id"], ["source_files.id"],
                                name=op.f("fk_solution_facts_source_file_id_source_files"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("solution_id", "ordinal", name=op.f("pk_solution_facts")),
    )
    op.execute("INSERT INTO run_sources (run_id, source_file_id, report_index, source_line) "
               "SELECT id, source_file_id, report_index, source_line FROM runs WHERE origin = 'report'")
    # The identity of runs already stored, as ingest.load.identity writes it (backup and recovery
    # reports, known by their per-instance figures, are left without one).
    op.execute("UPDATE runs SET identity_key = lower(machine_name) || '|' "
               "|| to_char(test_start, 'YYYY-MM-DD\"T\"HH24:MI:SS') || '|' || coalesce(jetstress_version, '') || '|' "
               "|| coalesce(to_char(achieved_iops, 'FM999999999990.000'), '') "
               "WHERE origin = 'report' AND machine_name IS NOT NULL AND test_start IS NOT NULL")
    # Back from a downgrade: the sightings, facts and provisional marks it kept (migrations/archive.py).
    archive.restore("0009", "run_sources",
                    "INSERT INTO run_sources SELECT k.* FROM jsonb_populate_recordset(NULL::run_sources, :rows) k "
                    "WHERE k.run_id IN (SELECT id FROM runs) AND k.source_file_id IN (SELECT id FROM source_files) "
                    "ON CONFLICT DO NOTHING")
    archive.restore("0009", "solution_facts",
                    "INSERT INTO solution_facts SELECT k.* FROM jsonb_populate_recordset(NULL::solution_facts, :rows) k "
                    "WHERE k.solution_id IN (SELECT id FROM solutions) AND (k.source_file_id IS NULL OR "
                    "k.source_file_id IN (SELECT id FROM source_files)) ON CONFLICT DO NOTHING")
    # and the identity keys as they were: those of backup and recovery reports (which the statement above
    # leaves without one) and any written by a later rule, so a later copy of a report is still the same run
    archive.restore("0009", "identity_keys",
                    "UPDATE runs r SET identity_key = k.identity_key FROM jsonb_to_recordset(:rows) "
                    "AS k(id integer, identity_key text) WHERE r.id = k.id")
    archive.restore("0009", "provisional",
                    "UPDATE solutions s SET provisional = k.provisional, derived_from_source_file_id = "
                    "(SELECT id FROM source_files WHERE id = k.derived_from_source_file_id) FROM jsonb_to_recordset(:rows) "
                    "AS k(id integer, provisional boolean, derived_from_source_file_id integer) WHERE s.id = k.id")


def downgrade() -> None:
    archive.stash("0009", "run_sources", "SELECT * FROM run_sources")
    archive.stash("0009", "solution_facts", "SELECT * FROM solution_facts")
    archive.stash("0009", "identity_keys", "SELECT id, identity_key FROM runs WHERE identity_key IS NOT NULL")
    archive.stash("0009", "provisional", "SELECT id, provisional, derived_from_source_file_id FROM solutions "
                  "WHERE provisional OR derived_from_source_file_id IS NOT NULL")
    op.drop_table("solution_facts")
    op.drop_constraint(op.f("fk_solutions_derived_from_source_file_id_source_files"), "solutions", type_="foreignkey")
    op.drop_index(op.f("ix_solutions_derived_from_source_file_id"), table_name="solutions")
    op.drop_column("solutions", "derived_from_source_file_id")
    op.drop_column("solutions", "provisional")
    op.drop_index(op.f("ix_runs_identity_key"), table_name="runs")
    op.drop_column("runs", "identity_key")
    op.drop_index(op.f("ix_run_sources_source_file_id"), table_name="run_sources")
    op.drop_table("run_sources")
