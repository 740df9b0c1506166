"""Issue 35: the catalogue describes itself. Every table, view and column the reader may select has a
COMMENT after the migrations (so a new column without words fails here), none is left by a downgrade
to 0019, and the words in the database are the live ones of schema/comments.py."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from esrpdb.db import migrate
from esrpdb.db.roles import READER_ROLE
from esrpdb.schema import comments

# Every relation and column of the public schema the reader may select, with its comment.
SELECTABLE = text("""
SELECT c.relname, c.relkind::text, obj_description(c.oid, 'pg_class') AS relation_comment,
       a.attname, col_description(c.oid, a.attnum) AS column_comment
FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
  AND has_column_privilege(:reader, c.oid, a.attnum, 'SELECT')
ORDER BY c.relname, a.attnum""")
# Any comment left on an object of the public schema (relations, columns, functions, ...).
ANY_COMMENT = text("""
SELECT c.relname, d.objsubid FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
WHERE d.classoid = 'pg_class'::regclass AND c.relnamespace = 'public'::regnamespace""")


def _selectable(url: str) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(SELECTABLE, {"reader": READER_ROLE})]
    finally:
        engine.dispose()


def _comments_left(url: str) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(ANY_COMMENT)]
    finally:
        engine.dispose()


def test_every_selectable_column_has_a_comment_after_upgrade_and_none_after_downgrade(empty_database_url):
    url = empty_database_url
    migrate.upgrade(url)
    rows = _selectable(url)
    relations = {name for name, *_ in rows}
    assert {"runs", "solutions", "per_disk_iops", "run_summary", "alembic_version"} <= relations
    assert {kind for _, kind, *_ in rows} == {"r", "v"}
    assert [name for name, _, words, _, _ in rows if not words] == []
    assert [f"{name}.{column}" for name, _, _, column, words in rows if not words] == []
    migrate.downgrade(url, "0019")
    assert _comments_left(url) == []
    # now without words: what 0019 holds is what the newest revision holds less what came later (derived,
    # so a revision that adds a view or table needs no line here; the round trips of test_migrations
    # hold what each downgrade drops)
    at_0019 = [(name, column) for name, _, _, column, _ in _selectable(url)]
    assert len(at_0019) > 400 and set(at_0019) < {(name, column) for name, _, _, column, _ in rows}
    migrate.upgrade(url)
    assert _selectable(url) == rows


def test_the_live_comments_are_what_the_newest_revision_wrote(fresh_database_url):
    """Tables are held to schema/comments.py by the no-drift test (the models carry the words); this
    holds the views and their columns too: a change of words in the live modules needs a revision."""
    differ = []
    for name, _, words, column, column_words in _selectable(fresh_database_url):
        if words != comments.relation_comment(name):
            differ.append(name)
        if column_words != comments.column_comment(name, column):
            differ.append(f"{name}.{column}")
    assert sorted(set(differ)) == []


def test_a_column_without_words_is_caught(fresh_database_url):
    """The check above is no tautology: a column added without a comment shows up as one without words."""
    engine = create_engine(fresh_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE runs ADD COLUMN spare_note text"))
            conn.execute(text(f"GRANT SELECT ON runs TO {READER_ROLE}"))
    finally:
        engine.dispose()
    missing = [f"{name}.{column}" for name, _, _, column, words in _selectable(fresh_database_url) if not words]
    assert missing == ["runs.spare_note"]
    assert comments.column_comment("runs", "spare_note") is None
