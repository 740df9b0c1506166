"""A PDF document's page starts stored: `documents.page_start_lines`, so a finding names its page.

Where each page begins was known only while a PDF was read (`PdfText.page_starts`, used to add
"(page N)" to the reader's warnings); the audit cited lines of esrpdb's own extracted text, which an
auditor holding the PDF cannot find. One array per document (the line number of each page's first
line, page 1 first) is the smallest sound record: every line the catalogue keeps for a document
(claims, table cells, report fields, host counters, warnings) maps to its page by the same lookup
the reader's warnings use, so no table of lines needs a page column beside its line, and a line
stored later needs nothing new. NULL for text documents and for PDFs ingested before this revision
(`esrpdb delete FILE` then `esrpdb ingest FILE` stores them). The downgrade keeps the arrays for
the upgrade that comes back (archive.py).

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-02 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from esrpdb.migrations import archive

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

# The words of schema/comments.py for the new column, as this revision wrote them (frozen).
WORDS = "Line each page of a PDF starts on, page 1 first (a line's page: the last start at or before it); NULL: not a PDF."


def upgrade() -> None:
    op.add_column("documents", sa.Column("page_start_lines", sa.ARRAY(sa.Integer()), nullable=True, comment=WORDS))
    archive.restore("0028", "page_start_lines",
                    "UPDATE documents d SET page_start_lines = k.page_start_lines "
                    "FROM jsonb_to_recordset(:rows) AS k(source_file_id integer, page_start_lines integer[]) "
                    "WHERE d.source_file_id = k.source_file_id")


def downgrade() -> None:
    kept = "SELECT source_file_id, page_start_lines FROM documents WHERE page_start_lines IS NOT NULL"
    if op.get_bind().execute(sa.text(f"SELECT EXISTS ({kept})")).scalar():  # no archive table for nothing kept
        archive.stash("0028", "page_start_lines", kept)
    op.drop_column("documents", "page_start_lines")
