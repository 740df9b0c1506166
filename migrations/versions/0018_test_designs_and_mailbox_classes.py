"""The test design as data, mailbox classes, ESRP's other tests per solution.

`documents` holds what a document says about itself (title, ESRP program version, tested date,
each with its line); documents ingested before this revision get their row when ingested again.

`test_designs` gives each solution's mailbox count, mailbox size, IOPS per mailbox and database
count from the document that prints them (claims, then drafted facts, each with its file and line)
or from JetstressConfig.xml; `mailbox_classes` holds the class bounds (rows the owner may change;
seeded with the defaults of schema/classes.py as they were at this revision); `esrp_tests` gives
backup, checksum and log replay per solution (what `compare` reads); `representative_runs` names the
one run that stands for each solution (compare, the site, the classes); `mailbox_class_ranks` ranks
solutions within their class. Views frozen in views_0018/.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25 17:00:00
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

VIEWS = Path(__file__).resolve().parents[1] / "views_0018"
NAMES = ("test_designs", "esrp_tests", "representative_runs", "mailbox_class_ranks")
SEED = (  # frozen here: later changes to the defaults are later revisions
    (1, "up to 1,000 mailboxes", 0, 1000),
    (2, "1,001–5,000 mailboxes", 1001, 5000),
    (3, "5,001–10,000 mailboxes", 5001, 10000),
    (4, "over 10,000 mailboxes", 10001, None),
)


def upgrade() -> None:
    op.create_table(
        "documents",
        sa.Column("source_file_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("title_line", sa.Integer(), nullable=True),
        sa.Column("esrp_version", sa.Text(), nullable=True),
        sa.Column("esrp_version_line", sa.Integer(), nullable=True),
        sa.Column("tested_on", sa.Date(), nullable=True),
        sa.Column("tested_on_line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["source_file_id"], ["source_files.id"],
                                name=op.f("fk_documents_source_file_id_source_files"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("source_file_id", name=op.f("pk_documents")),
    )
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
    archive.restore("0018", "documents",
                    "INSERT INTO documents SELECT k.* FROM jsonb_to_recordset(:rows) AS k(source_file_id integer, "
                    "title text, title_line integer, esrp_version text, esrp_version_line integer, tested_on date, "
                    "tested_on_line integer) WHERE EXISTS (SELECT 1 FROM source_files f WHERE f.id = k.source_file_id)")
    archive.restore("0018", "mailbox_classes",  # bounds the owner had changed, kept by a downgrade
                    "INSERT INTO mailbox_classes SELECT k.* FROM jsonb_to_recordset(:rows) AS k(class_ordinal integer, "
                    "label text, min_mailbox_count integer, max_mailbox_count integer)")
    seed = ", ".join(f"({o}, '{label}', {low}, {'NULL' if high is None else high})" for o, label, low, high in SEED)
    op.execute(f"INSERT INTO {classes.name} SELECT * FROM (VALUES {seed}) AS v "
               "WHERE NOT EXISTS (SELECT 1 FROM mailbox_classes)")
    for name in NAMES:
        op.execute((VIEWS / f"{name}.sql").read_text(encoding="utf-8"))


def downgrade() -> None:
    archive.stash("0018", "documents", "SELECT * FROM documents")
    archive.stash("0018", "mailbox_classes", "SELECT * FROM mailbox_classes")
    for name in reversed(NAMES):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.drop_table("mailbox_classes")
    op.drop_table("documents")
