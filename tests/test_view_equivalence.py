"""Speed changes no number: the stored-figure views (0008) give the 0005 views' rows.

The 0005 views recomputed every figure from the base tables on each call; 0008 stores them
at ingest. On the seed catalogue both must return the same rows, whether the figures were
filled by the migration (upgrade of a loaded catalogue) or kept current by the commit-time
triggers (ingest at head), and a full recompute must change nothing after deletes.
"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from esrpdb.db import migrate
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import canned
from tests.helpers import FIXTURES, assert_same, scratch_database, sort_key, stored_figures


def snapshot(engine) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every canned view: its columns and its rows in a stable order."""
    out = {}
    with engine.connect() as conn:
        for query in canned.all_queries().values():
            if conn.execute(text("SELECT to_regclass(:v)"), {"v": query.view}).scalar() is None:
                continue  # a view a later revision added (0017): nothing of it to compare
            result = conn.execute(text(f"SELECT * FROM {query.view}"))
            out[query.view] = (list(result.keys()), sorted((tuple(r) for r in result), key=sort_key))
    return out


@pytest.fixture(scope="module")
def old_views(pg_server, tmp_path_factory):
    """The seed catalogue, migrated down to 0007 (the 0005 views, live over the base tables), and their rows.

    The loader writes what the newest revision holds, so the catalogue is loaded at head and
    taken down to the revision before the stored figures; the base tables stay as loaded.
    """
    with scratch_database(pg_server, "eq") as url:
        migrate.upgrade(url)
        engine = create_engine(url)
        outcomes = ingest_paths(engine, [FIXTURES / "catalog"])
        assert not [o.message for o in outcomes if o.status == "failed"]
        migrate.downgrade(url, "0007")
        before = snapshot(engine)
        assert sum(len(rows) for _, rows in before.values()) > 100  # the seed fills every view
        yield url, engine, before
        engine.dispose()


def test_upgrading_a_loaded_catalogue_keeps_every_row(old_views):
    url, engine, before = old_views
    migrate.upgrade(url)
    assert_same(before, snapshot(engine))


def test_figures_kept_by_ingest_give_the_old_rows(old_views, seed_catalog):
    _, _, before = old_views
    assert_same(before, snapshot(seed_catalog.engine))


def test_commit_time_refresh_equals_a_full_recompute_after_deletes(catalog):
    ingest_paths(catalog.engine, [FIXTURES / "catalog"])
    with catalog.engine.begin() as conn:
        # a trial's median run, another run's perfmon export, disks; a solution and a trial renamed
        median = conn.execute(text(
            "SELECT run_id FROM median_runs WHERE is_median_run AND runs_in_trial > 1 ORDER BY run_id LIMIT 1")).scalar()
        conn.execute(text("DELETE FROM runs WHERE id = :id"), {"id": median})
        conn.execute(text("DELETE FROM disks WHERE id = (SELECT min(id) FROM disks WHERE role = 'active')"))
        conn.execute(text("UPDATE disks SET disk_count = disk_count + 1 WHERE id = (SELECT max(id) FROM disks)"))
        conn.execute(text("UPDATE solutions SET key = 'renamed' WHERE key = 'hp-eva4400'"))
        conn.execute(text("UPDATE trials SET label = label || ' (renamed)' WHERE id = (SELECT min(id) FROM trials)"))
        conn.execute(text("DELETE FROM source_files WHERE format IN ('perfmon_csv', 'perfmon_blg') "
                          "AND id = (SELECT min(source_file_id) FROM perf_counters WHERE run_id IS NOT NULL)"))
    kept = stored_figures(catalog.engine)
    with catalog.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM median_runs WHERE solution = 'renamed'")).scalar() > 0
        assert conn.execute(text("SELECT count(*) FROM median_runs WHERE trial LIKE '%(renamed)'")).scalar() > 0
    with catalog.engine.begin() as conn:
        conn.execute(text("TRUNCATE run_figures, run_scope_latencies, perf_counter_means, solution_disk_counts, "
                          "run_disk_figures"))
        conn.execute(text("SELECT refresh_solution_disk_counts(NULL)"))
        conn.execute(text("SELECT refresh_run_figures(NULL)"))
    assert_same(kept, stored_figures(catalog.engine))
    with catalog.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM run_figures_stale")).scalar() == 0


@pytest.mark.parametrize("custom_plan_runs", ["1", "1000000"], ids=["custom plan", "generic plan"])
def test_either_plan_of_a_refresh_gives_the_same_figures(catalog, custom_plan_runs):
    """Revision 0013 plans a refresh of many runs for its values, of few with the session's generic plan."""
    ingest_paths(catalog.engine, [FIXTURES / "catalog"])
    kept = stored_figures(catalog.engine)
    with catalog.engine.begin() as conn:
        ids = conn.execute(text("SELECT array_agg(id) FROM runs")).scalar()
        conn.execute(text("SELECT set_config('esrpdb.custom_plan_runs', :n, true)"), {"n": custom_plan_runs})
        conn.execute(text("TRUNCATE run_figures, run_scope_latencies, run_disk_figures"))
        conn.execute(text("SELECT refresh_run_figures(:ids)"), {"ids": ids})
        mode = conn.execute(text("SELECT current_setting('plan_cache_mode')")).scalar()
    assert_same(kept, stored_figures(catalog.engine))
    assert mode == "auto"  # the function restores the session's plan mode


def test_the_reader_role_reads_the_stored_figures_and_every_view(fresh_database_url):
    from esrpdb.db.connection import derived_reader_url

    reader = create_engine(derived_reader_url(fresh_database_url))
    try:
        with reader.connect() as conn:
            assert conn.execute(text("SELECT current_user")).scalar() == "esrpdb_reader"
            for relation in ("run_figures", "run_disk_figures", "run_scope_latencies", "perf_counter_means",
                             "solution_disk_counts", *(q.view for q in canned.all_queries().values())):
                conn.execute(text(f"SELECT count(*) FROM {relation}")).scalar()
    finally:
        reader.dispose()
