"""Index the five foreign-key columns that had none, so deleting a document or run is cheap.

Without an index, every row deleted from `runs`, `solutions`, `source_files` or
`document_tables` made PostgreSQL scan the whole referencing table to cascade or set NULL.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 09:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# (table, column): the index is named ix_<table>_<column>, as the models' `index=True` names it.
FOREIGN_KEYS = (
    ("claims", "run_id"),
    ("claims", "other_run_id"),
    ("claims", "other_solution_id"),
    ("run_published_values", "document_table_id"),
    ("run_power", "source_file_id"),
)


def upgrade() -> None:
    for table, column in FOREIGN_KEYS:
        op.create_index(op.f(f"ix_{table}_{column}"), table, [column], unique=False)


def downgrade() -> None:
    for table, column in reversed(FOREIGN_KEYS):
        op.drop_index(op.f(f"ix_{table}_{column}"), table_name=table)
