"""Add run assignments: runs moved to another solution after ingest, kept as evidence.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 08:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run_assignments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("from_solution_id", sa.Integer(), nullable=True),
        sa.Column("to_solution_id", sa.Integer(), nullable=False),
        sa.Column("assigned_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_run_assignments_run_id_runs"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["from_solution_id"], ["solutions.id"],
                                name=op.f("fk_run_assignments_from_solution_id_solutions"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["to_solution_id"], ["solutions.id"],
                                name=op.f("fk_run_assignments_to_solution_id_solutions"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_assignments")),
    )
    for column in ("run_id", "from_solution_id", "to_solution_id"):
        op.create_index(op.f(f"ix_run_assignments_{column}"), "run_assignments", [column])


def downgrade() -> None:
    op.drop_table("run_assignments")
