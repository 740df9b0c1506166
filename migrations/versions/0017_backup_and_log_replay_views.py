"""Canned queries for ESRP's other tests: backup and checksum throughput, log replay.

`backup_stats` and `recovery_stats` hold the DatabaseBackup, DBChecksum and SoftRecovery reports'
per-database rows; these views give, per run, what the ESRP template and catalogue print: MB/s per
database and per server, and logs replayed, seconds per log and logs per second per database and
per server. Views over small tables (one row per database per run), computed on read. Frozen in
views_0017/.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25 16:20:00
"""

from __future__ import annotations

from pathlib import Path

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

VIEWS = Path(__file__).resolve().parents[1] / "views_0017"
NAMES = ("backup_throughput", "log_replay")


def upgrade() -> None:
    for name in NAMES:
        op.execute((VIEWS / f"{name}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    for name in reversed(NAMES):
        op.execute(f"DROP VIEW IF EXISTS {name}")
