"""The derived stores' marking functions and refresh scaffolding generated from one declaration.

Revisions 0008-0025 wrote each derived store's mechanism by hand, each its own way: 18 `*_mark_*` trigger
functions, `mark_{store}_stale` and `refresh_stale_{store}` for the two stores rebuilt at commit. They are
now spelt by migrations/derived_sql.py from migrations/derived_stores.py (per store: the key of its rows
each table it reads names, and how it is rebuilt); this revision runs the frozen output
(derived_stores_0030.sql). The same functions, by the same names, so no trigger and no table changes:
CREATE OR REPLACE keeps their owner and grants. What they do is the same; the differences are of form:
an update marks its old and new keys in one call (not two), and the refreshes at commit take a lock key
derived from the declaration (one for run_figures and solution_designs, which reads run_figures: two would
deadlock) instead of 'esrr'. Each store's own rebuild (refresh_run_figures, …) is untouched.

The downgrade puts back the hand-written definitions, frozen as 0029 left them (derived_stores_0029.sql).

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-02 14:00:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

MIGRATIONS = Path(__file__).resolve().parents[1]


def upgrade() -> None:
    op.execute((MIGRATIONS / "derived_stores_0030.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    op.execute((MIGRATIONS / "derived_stores_0029.sql").read_text(encoding="utf-8"))
