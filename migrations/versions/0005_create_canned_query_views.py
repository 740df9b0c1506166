"""Create the canned query views from the copies of queries/*.sql frozen for this revision.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 21:20:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

from esrpdb.queries import canned

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# The views as this revision made them; queries/*.sql has moved on (revision 0008).
FROZEN_VIEWS = Path(__file__).resolve().parents[1] / "views_0005"


def upgrade() -> None:
    canned.create_views(op.execute, FROZEN_VIEWS)


def downgrade() -> None:
    canned.drop_views(op.execute)
