"""The test design as data, mailbox classes, ESRP's other tests per solution.

`test_designs` gives each solution's mailbox count, mailbox size, IOPS per mailbox and database
count from the document that prints them (claims, then drafted facts, each with its file and line)
or from JetstressConfig.xml; `mailbox_classes` holds the class bounds (rows the owner may change;
seeded with the defaults of schema/classes.py as they were at this revision); `esrp_tests` gives
backup, checksum and log replay per solution (what `compare` reads); `mailbox_class_ranks` ranks
solutions within their class. Views frozen in views_0018/.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25 17:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

VIEWS = Path(__file__).resolve().parents[1] / "views_0018"
NAMES = ("test_designs", "esrp_tests", "mailbox_class_ranks")
SEED = (  # frozen here: later changes to the defaults are later revisions
    (1, "up to 1,000 mailboxes", 0, 1000),
    (2, "1,001–5,000 mailboxes", 1001, 5000),
    (3, "5,001–10,000 mailboxes", 5001, 10000),
    (4, "over 10,000 mailboxes", 10001, None),
)


def upgrade() -> None:
    classes = op.create_table(
        "mailbox_classes",
        sa.Column("class_ordinal", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("min_mailbox_count", sa.Integer(), nullable=False),
        sa.Column("max_mailbox_count", sa.Integer(), nullable=True),
        sa.CheckConstraint("min_mailbox_count >= 0", name=op.f("ck_mailbox_classes_min_mailboxes_non_negative")),
        sa.CheckConstraint("max_mailbox_count IS NULL OR max_mailbox_count >= min_mailbox_count",
                           name=op.f("ck_mailbox_classes_bounds_ordered")),
        sa.PrimaryKeyConstraint("class_ordinal", name=op.f("pk_mailbox_classes")),
        sa.UniqueConstraint("label", name=op.f("uq_mailbox_classes_label")),
    )
    op.bulk_insert(classes, [{"class_ordinal": o, "label": label, "min_mailbox_count": low, "max_mailbox_count": high}
                             for o, label, low, high in SEED])
    for name in NAMES:
        op.execute((VIEWS / f"{name}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    for name in reversed(NAMES):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.drop_table("mailbox_classes")
