"""What a downgrade drops, kept for the upgrade that comes back: a round trip loses no row.

A downgrade that removes a table or a column first copies what it removes into
`esrpdb_downgrade_archive` (one JSON array per revision and item); the revision's upgrade, when it
finds its items there, puts the rows back (those whose runs, solutions and files still exist) and
deletes them from the archive. The archive table goes when it is empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

ARCHIVE = "esrpdb_downgrade_archive"


def stash(revision: str, item: str, rows_sql: str) -> None:
    """Keep the rows `rows_sql` selects (one row each, any columns) under (revision, item)."""
    op.execute(f"CREATE TABLE IF NOT EXISTS {ARCHIVE} (revision text, item text, rows jsonb NOT NULL, "
               "PRIMARY KEY (revision, item))")
    op.execute(f"INSERT INTO {ARCHIVE} (revision, item, rows) "
               f"SELECT '{revision}', '{item}', coalesce(jsonb_agg(to_jsonb(kept)), '[]'::jsonb) FROM ({rows_sql}) kept "
               "ON CONFLICT (revision, item) DO UPDATE SET rows = EXCLUDED.rows")


def stash_any(revision: str, item: str, rows_sql: str) -> None:
    """`stash`, where `rows_sql` selects anything: no archive table is made for nothing kept."""
    if op.get_bind().execute(sa.text(f"SELECT EXISTS ({rows_sql})")).scalar():
        stash(revision, item, rows_sql)


def restore(revision: str, item: str, statement: str) -> None:
    """Run `statement` with `:rows` standing for the kept JSON array, if the archive holds the item."""
    body = statement.replace(":rows", f"(SELECT rows FROM {ARCHIVE} WHERE revision = '{revision}' AND item = '{item}')")
    where = f"revision = '{revision}' AND item = '{item}'"
    op.execute(f"""
DO $$
DECLARE found boolean; emptied boolean;
BEGIN
  IF to_regclass('{ARCHIVE}') IS NULL THEN
    RETURN;  -- no downgrade kept anything
  END IF;
  EXECUTE $q$SELECT EXISTS (SELECT 1 FROM {ARCHIVE} WHERE {where})$q$ INTO found;
  IF found THEN
    EXECUTE $restore${body}$restore$;
    EXECUTE $q$DELETE FROM {ARCHIVE} WHERE {where}$q$;
  END IF;
  EXECUTE $q$SELECT NOT EXISTS (SELECT 1 FROM {ARCHIVE})$q$ INTO emptied;
  IF emptied THEN
    EXECUTE $q$DROP TABLE {ARCHIVE}$q$;
  END IF;
END $$""")
