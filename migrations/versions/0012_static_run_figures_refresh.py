"""refresh_run_figures as static SQL: planned once per session, not at every commit (issue 13).

0011's function built each statement as text (EXECUTE format(...)) so that every call was
planned for its own list of runs. Planning those statements cost ~10 ms at each commit that
writes a run, five times the work itself, and every ingested file pays it. The statements are
now static with `= ANY(targets)`; the function picks the plan mode per call: the generic plan,
made once per session, for a list of runs (every commit), a plan for the actual list when it
refreshes every run (refresh_run_figures(NULL)). Figures are unchanged: no data is rewritten.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23 15:00:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]


def upgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0012.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute((MIGRATIONS / "run_figures_0011.sql").read_text(encoding="utf-8"))
