"""The catalogue describes itself: a COMMENT on every table, view and column an analyst may select.

What each holds, its unit and basis (which disks a per-disk figure divides by, which IOPS) and the
key to join on, so `\\d+ runs` in psql, a BI tool's column notes and `esrpdb schema` say the same.
The words are migrations/comments_0020.py, a frozen copy of schema/comments.py and
schema/column_words.py at this revision (the models take their comments from the live modules, so
the no-drift test holds them equal to what the newest revision wrote). 0019 had no comment at all:
the downgrade removes every one this revision wrote.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 10:00:00
"""

from __future__ import annotations

from alembic import op

from esrpdb.migrations import comments_0020

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def _literal(words: str | None) -> str:
    """A SQL string literal (COMMENT takes no bind parameter); `\\:` keeps text() from reading a colon as one."""
    if words is None:
        return "NULL"
    return "'" + words.replace("'", "''").replace(":", "\\:") + "'"


def _statements(written: bool) -> list[str]:
    """One statement per relation: its comment and its columns' (NULL on the way down)."""
    kinds = {**{name: "TABLE" for name in comments_0020.TABLES}, **{name: "VIEW" for name in comments_0020.VIEWS}}
    words = {**comments_0020.TABLES, **comments_0020.VIEWS}
    statements = []
    for relation, columns in comments_0020.COLUMNS.items():
        lines = [f'COMMENT ON {kinds[relation]} "{relation}" IS {_literal(words[relation] if written else None)}']
        lines += [f'COMMENT ON COLUMN "{relation}"."{column}" IS {_literal(text if written else None)}'
                  for column, text in columns.items()]
        statements.append(";\n".join(lines))
    return statements


def upgrade() -> None:
    for statement in _statements(written=True):
        op.execute(statement)


def downgrade() -> None:
    for statement in _statements(written=False):
        op.execute(statement)
