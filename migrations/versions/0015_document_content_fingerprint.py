"""A document is recognised by its content: `source_files.content_fingerprint`.

The same ESRP submission arrives as text and as PDF, or extracted by two tools: different bytes,
the same reports and tables. The fingerprint (a SHA-256 of what the document prints: its reports'
identities and its tables' numbers, `ingest/formats/document/fingerprint.py`) lets a second copy add
a source to the solutions the first made instead of making its own. Files other than documents
leave it NULL.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("source_files", sa.Column("content_fingerprint", sa.String(64), nullable=True))
    op.create_index("ix_source_files_content_fingerprint", "source_files", ["content_fingerprint"])
    archive.restore("0015", "content_fingerprint",
                    "UPDATE source_files f SET content_fingerprint = k.content_fingerprint "
                    "FROM jsonb_to_recordset(:rows) AS k(id integer, content_fingerprint text) WHERE f.id = k.id")


def downgrade() -> None:
    archive.stash("0015", "content_fingerprint",
                  "SELECT id, content_fingerprint FROM source_files WHERE content_fingerprint IS NOT NULL")
    op.drop_index("ix_source_files_content_fingerprint", table_name="source_files")
    op.drop_column("source_files", "content_fingerprint")
