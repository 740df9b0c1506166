"""Performance per watt reads published power in one pass, from a partial index of just those rows.

At 50,000 solutions the 0016 view looked a run's published power up once per median run (375,000
index lookups, 1.2 s of its 1.25 s). The view now joins every run's power grouped once, and the
index `ix_run_published_values_power` holds only the power rows (a few percent of the table), so
the grouping reads them alone. Same columns and rows: CREATE OR REPLACE keeps the reader's grant and
the column comments of 0020. The view is frozen in views_0021/.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-26 20:55:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]
POWER_ROWS = "metric IN ('active_power_w', 'idle_power_w')"


def upgrade() -> None:
    op.create_index("ix_run_published_values_power", "run_published_values", ["run_id"],
                    postgresql_where=sa.text(POWER_ROWS), postgresql_include=["metric", "value"])
    op.execute((MIGRATIONS / "views_0021" / "perf_per_watt.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute((MIGRATIONS / "views_0016" / "perf_per_watt.sql").read_text(encoding="utf-8"))
    op.drop_index("ix_run_published_values_power", table_name="run_published_values")
