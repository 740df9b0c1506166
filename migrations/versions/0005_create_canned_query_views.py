"""Create the canned query views from the copies of queries/*.sql frozen for this revision.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 21:20:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# The views as this revision made them; queries/*.sql has moved on (revision 0008).
FROZEN_VIEWS = Path(__file__).resolve().parents[1] / "views_0005"
# The views this revision knows, in creation order (a view after the views it reads); frozen here,
# as the files are, so that later views never change what this revision does.
VIEWS = ("run_iops", "median_runs", "disk_counts", "per_disk_iops", "run_throughput", "throughput_per_disk",
         "iops_per_dollar", "dollars_per_kiops", "mb_per_dollar", "perf_per_watt", "run_summary", "latency_summary")


def create_views(folder: Path) -> None:
    for view in VIEWS:
        op.execute((folder / f"{view}.sql").read_text(encoding="utf-8"))


def drop_views() -> None:
    for view in reversed(VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {view}")


def upgrade() -> None:
    create_views(FROZEN_VIEWS)


def downgrade() -> None:
    drop_views()
