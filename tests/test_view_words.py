"""A canned view newer than revision 0020's words needs no line in schema/comments.py: the revision that
creates it writes the words of its frozen copy's header (migrations/view_words.py), and schema.comments
reads the same words from the live file, so the no-drift test of tests/test_schema_comments.py holds."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from esrpdb.migrations import view_words
from esrpdb.queries import canned
from esrpdb.schema import comments
from tests.helpers import REPO_ROOT

TRIAL = """-- title: Runs per solution
-- description: How many runs each solution has: a trial canned view,
--   written for this test (its words: "quoted", with colons: and 'apostrophes').
-- column solution: the solution's key
-- column run_count: its runs
CREATE OR REPLACE VIEW trial_run_counts AS
SELECT s.key AS solution, count(r.id) AS run_count
FROM solutions s LEFT JOIN runs r ON r.solution_id = s.id
GROUP BY s.key;
"""


def test_the_three_readers_of_a_header_agree_on_every_canned_view():
    for view in canned.view_order():
        path = REPO_ROOT / "queries" / f"{view}.sql"
        query = canned.get(view)
        words, columns = view_words.header_words(path.read_text(encoding="utf-8"))
        assert (words, columns) == comments.header_words(path)
        assert words == query.description and columns == query.columns


def test_a_new_view_is_created_with_its_headers_words(fresh_database_url, tmp_path):
    path = tmp_path / "trial_run_counts.sql"
    path.write_text(TRIAL, encoding="utf-8")
    engine = create_engine(fresh_database_url)
    try:
        with engine.begin() as conn:
            view_words.create_view(path, execute=conn.execute)
            described = conn.execute(text(
                "SELECT obj_description('trial_run_counts'::regclass, 'pg_class'), a.attname, "
                "col_description('trial_run_counts'::regclass, a.attnum) FROM pg_attribute a "
                "WHERE a.attrelid = 'trial_run_counts'::regclass AND a.attnum > 0 ORDER BY a.attnum")).all()
            assert conn.execute(text("SELECT count(*) FROM trial_run_counts")).scalar() == 0
    finally:
        engine.dispose()
    words, columns = comments.view_header_words("trial_run_counts", tmp_path)
    assert words.startswith("How many runs each solution has: a trial canned view, written for this test")
    assert described == [(words, column, note) for column, note in columns.items()]
    assert columns == {"solution": "the solution's key", "run_count": "its runs"}


def test_a_view_of_revision_0020_keeps_its_frozen_words():
    assert comments.view_header_words("log_replay") is None  # VIEWS names it: 0020's words stay
    assert comments.relation_comment("log_replay") == comments.VIEWS["log_replay"]
