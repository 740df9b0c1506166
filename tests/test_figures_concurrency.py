"""Two transactions adding runs to one trial at once: the stored median is the full recompute's.

Each commit refreshes its runs and their trial under an advisory lock, and re-reads the trial
after taking it, so the second commit ranks the first one's run too, whichever commits first.
"""

from __future__ import annotations

import hashlib
import threading

import psycopg
from sqlalchemy import text

from tests.helpers import assert_same, stored_figures


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _add_run(conn: psycopg.Connection, solution_id: int, trial_id: int, label: str, total_iops: float) -> None:
    sha = hashlib.sha256(label.encode()).hexdigest()
    source_id = conn.execute(
        "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
        "VALUES (%s, %s, %s, 'document_text', 'document_text/1', 1) RETURNING id", (sha, label, label)).fetchone()[0]
    run_id = conn.execute(
        "INSERT INTO runs (source_file_id, solution_id, trial_id, run_label, origin, report_type) "
        "VALUES (%s, %s, %s, %s, 'document_table', 'Performance') RETURNING id",
        (source_id, solution_id, trial_id, label)).fetchone()[0]
    conn.execute("INSERT INTO run_published_values (run_id, metric, value, value_printed, row_labels) "
                 "VALUES (%s, 'total_iops', %s, %s, ARRAY[%s])", (run_id, total_iops, str(total_iops), label))


def test_concurrent_commits_to_one_trial_rank_every_run(catalog, fresh_database_url):
    url = _plain(fresh_database_url)
    with psycopg.connect(url, autocommit=True) as setup:
        solution_id = setup.execute("INSERT INTO solutions (key) VALUES ('s') RETURNING id").fetchone()[0]
        trial_id = setup.execute("INSERT INTO trials (solution_id, label) VALUES (%s, 't') RETURNING id",
                                 (solution_id,)).fetchone()[0]
    writers = [psycopg.connect(url) for _ in range(3)]
    try:
        for n, conn in enumerate(writers):
            _add_run(conn, solution_id, trial_id, f"Run {n + 1}", 100.0 * (n + 1))
        threads = [threading.Thread(target=conn.commit) for conn in writers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for conn in writers:
            conn.close()
    with catalog.engine.connect() as conn:
        rows = conn.execute(text("SELECT run_label, rank_in_trial, runs_in_trial, is_median_run FROM median_runs "
                                 "ORDER BY run_label")).all()
    assert [tuple(r) for r in rows] == [("Run 1", 1, 3, False), ("Run 2", 2, 3, True), ("Run 3", 3, 3, False)]
    kept = stored_figures(catalog.engine)
    with catalog.engine.begin() as conn:
        conn.execute(text("SELECT refresh_run_figures(NULL)"))
    assert_same(kept, stored_figures(catalog.engine))
