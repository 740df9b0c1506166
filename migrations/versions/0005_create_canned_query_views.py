"""Create the canned query views from queries/*.sql.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 21:20:00
"""

from __future__ import annotations

from alembic import op

from esrpdb.queries import canned

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    canned.create_views(op.execute)


def downgrade() -> None:
    canned.drop_views(op.execute)
