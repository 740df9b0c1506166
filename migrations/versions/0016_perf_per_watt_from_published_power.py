"""Performance per watt reads a run's power as a document's table prints it.

Whitepapers print idle and active power per run (seed 002's Appendix A); a catalogue built from the
documents alone has no power log, and the solution-level figure is a rounded summary. The view now
takes, for each run, the power log's average, else the run's published `active_power_w`, else the
solution's figure, and says which (`power_source`: power_log, document_table, manifest). Same
columns: CREATE OR REPLACE keeps the reader's grant. The view is frozen in views_0016/.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25 15:40:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]


def upgrade() -> None:
    op.execute((MIGRATIONS / "views_0016" / "perf_per_watt.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute((MIGRATIONS / "views_0008" / "perf_per_watt.sql").read_text(encoding="utf-8"))
