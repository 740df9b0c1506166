"""Issue 36: test_designs, representative_runs and mailbox_class_ranks read each solution's design and
representative run as stored at commit (solution_designs, revision 0022), and give exactly the rows the
revision-0021 views computed from every claim, fact, configuration and ranked run at each call: on the
seed catalogue, after each kind of write that changes a design, and across the revision's downgrade.

The 0021 definitions are the frozen files the migrations keep (views_0019/, views_0018/), created in a
schema of their own over the same tables, in a transaction rolled back.
"""

from __future__ import annotations

import shutil
import threading

import psycopg
import pytest
from sqlalchemy import create_engine, inspect, text

from esrpdb.db import migrate
from esrpdb.ingest.load.assign import assign
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import canned
from esrpdb.workflows.delete import delete_solution, delete_source
from tests.helpers import (
    DELL_HTML,
    DOCUMENTS,
    FIXTURES,
    REPO_ROOT,
    SAMPLE_CONFIGS,
    live_and_built_functions,
    plain,
    run_sql,
    sort_key,
    sql_scalar,
    table_rows,
)

MIGRATIONS = REPO_ROOT / "migrations"
FROZEN = {"test_designs": "views_0019", "representative_runs": "views_0019", "mailbox_class_ranks": "views_0018"}


def _rows(conn, relation: str) -> tuple[list[str], list[tuple]]:
    result = conn.execute(text(f"SELECT * FROM {relation}"))
    return list(result.keys()), [tuple(row) for row in result]


def views_now_and_at_0021(engine) -> tuple[dict, dict]:
    """Each view's columns and rows as it reads now, and as the 0021 definitions compute them."""
    with engine.connect() as conn:
        now = {view: _rows(conn, view) for view in FROZEN}
        conn.execute(text("CREATE SCHEMA frozen_0021"))
        conn.execute(text("SET LOCAL search_path TO frozen_0021, public"))
        for view, folder in FROZEN.items():  # mailbox_class_ranks then reads the frozen two
            conn.execute(text((MIGRATIONS / folder / f"{view}.sql").read_text(encoding="utf-8")))
        before = {view: _rows(conn, f"frozen_0021.{view}") for view in FROZEN}
        conn.rollback()
    return now, before


def assert_as_at_0021(engine) -> dict[str, list[dict]]:
    """The three views give the 0021 rows (representative_runs in the same order: by solution)."""
    now, before = views_now_and_at_0021(engine)
    for view, (columns, rows) in before.items():
        assert now[view][0] == columns, view
        if view == "representative_runs":
            assert now[view][1] == rows
        else:
            assert sorted(now[view][1], key=sort_key) == sorted(rows, key=sort_key), view
    assert_no_stale(engine)
    return {view: [dict(zip(columns, row)) for row in rows] for view, (columns, rows) in now.items()}


def assert_no_stale(engine) -> None:
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM solution_designs_stale")).scalar() == 0


def design(engine, key: str) -> dict:
    (row,) = [d for d in assert_as_at_0021(engine)["test_designs"] if d["solution"] == key]
    return row


def representative(engine, key: str) -> int | None:
    runs = [r["run_id"] for r in assert_as_at_0021(engine)["representative_runs"] if r["solution"] == key]
    return runs[0] if runs else None


write, scalar = run_sql, sql_scalar


def stored(engine) -> list[tuple]:
    return table_rows(engine, "solution_designs")


def assert_a_full_recompute_changes_nothing(engine) -> None:
    kept = stored(engine)
    write(engine, "TRUNCATE solution_designs")
    write(engine, "SELECT refresh_solution_designs(NULL)")
    assert stored(engine) == kept


def test_the_seed_catalogue_gives_the_0021_rows(seed_catalog):
    views = assert_as_at_0021(seed_catalog.engine)
    counts = {view: len(rows) for view, rows in views.items()}
    assert counts["test_designs"] == scalar(seed_catalog.engine, "SELECT count(*) FROM solutions") >= 10
    assert counts["representative_runs"] >= 10 and counts["mailbox_class_ranks"] >= 8
    designs = views["test_designs"]
    assert sum(d["mailbox_count"] is not None for d in designs) >= 8
    assert any(d["esrp_version"] and d["tested_on"] and d["database_copies"] for d in designs)
    assert {r["total_iops_rank"] for r in views["mailbox_class_ranks"]} >= {1, 2}
    assert {r["like_for_like"] for r in views["mailbox_class_ranks"]} == {True, False}


def test_writes_that_change_a_design_keep_the_0021_rows(catalog):
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    key = "hp-eva4400"
    before = design(engine, key)
    solution_id, document = before["solution_id"], before["mailbox_count_source"].rpartition(" line ")[0]
    file_id = scalar(engine, "SELECT id FROM source_files WHERE file_name = :f", f=document)

    # A document's claim added (line 0 of the first file: it wins), then deleted.
    write(engine, "INSERT INTO claims (source_file_id, solution_id, subject, metric, value_printed, line) "
                  "VALUES (:f, :s, 'solution', 'mailboxes', '12,345', 0)", f=file_id, s=solution_id)
    added = design(engine, key)
    assert (added["mailbox_count"], added["mailbox_class_order"]) == (12345, 4)
    assert key in {r["solution"] for r in assert_as_at_0021(engine)["mailbox_class_ranks"]
                   if r["mailbox_class_order"] == 4}
    write(engine, "DELETE FROM claims WHERE value_printed = '12,345'")
    assert design(engine, key) == before

    # The file a figure is printed in renamed; a document's ESRP program and date changed.
    write(engine, "UPDATE source_files SET file_name = 'renamed.txt' WHERE id = :f", f=file_id)
    assert design(engine, key)["mailbox_count_source"].startswith("renamed.txt line ")
    write(engine, "UPDATE documents SET esrp_version = '9.9', tested_on = '2009-01-02' WHERE source_file_id = :f",
          f=file_id)
    assert design(engine, key)["esrp_version"] == "9.9"

    # The representative run: under an abnormal condition, its IOPS changed, its trial renamed, moved away.
    performance = representative(engine, "dell-powervault-md1220")  # a Performance and a Stress run
    write(engine, "UPDATE runs SET scenario = 'Rebuild' WHERE id = :r", r=performance)
    assert representative(engine, "dell-powervault-md1220") not in (performance, None)
    write(engine, "UPDATE runs SET scenario = NULL WHERE id = :r", r=performance)
    assert representative(engine, "dell-powervault-md1220") == performance
    median = representative(engine, key)  # the median of a trial of three: tenfold, it is the trial's best
    write(engine, "UPDATE runs SET achieved_iops = achieved_iops * 10 WHERE id = :r", r=median)
    moved_median = representative(engine, key)
    assert moved_median not in (median, None)
    ranks = {r["solution"]: r for r in assert_as_at_0021(engine)["mailbox_class_ranks"]}
    assert ranks[key]["run_id"] == moved_median
    write(engine, "UPDATE trials SET label = 'renamed trial' WHERE id = (SELECT trial_id FROM runs WHERE id = :r)",
          r=moved_median)
    assert [r["trial"] for r in assert_as_at_0021(engine)["representative_runs"] if r["solution"] == key] == \
        ["renamed trial"]
    assign(engine, str(moved_median), "dell-powervault-md1220")
    assert representative(engine, key) not in (moved_median, None)
    like = {r["mailbox_class_order"]: r["like_for_like"] for r in assert_as_at_0021(engine)["mailbox_class_ranks"]}
    assert like[3] is True  # then one of its solutions' representative runs a Stress test
    write(engine, "UPDATE runs SET report_type = 'Stress' WHERE id = :r", r=representative(engine, "dell-eql-2x-ps5000xv"))
    assert {r["like_for_like"] for r in assert_as_at_0021(engine)["mailbox_class_ranks"]
            if r["mailbox_class_order"] == 3} == {False}

    # The solution renamed, the classes' bounds changed, a document deleted, a solution deleted.
    write(engine, "UPDATE solutions SET key = 'renamed-eva' WHERE id = :s", s=solution_id)
    assert design(engine, "renamed-eva")["solution_id"] == solution_id
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = 4500 WHERE class_ordinal = 2")
    write(engine, "UPDATE mailbox_classes SET min_mailbox_count = 4501 WHERE class_ordinal = 3")
    assert design(engine, "dell-powervault-md1220")["mailbox_class_order"] == 3
    submission = design(engine, "dell-powervault-md1220")
    delete_source(engine, submission["esrp_version_source"].rpartition(" line ")[0])
    gone = design(engine, "dell-powervault-md1220")
    assert gone["esrp_version"] is None and gone["mailbox_count"] is None
    delete_solution(engine, "renamed-eva")
    assert "renamed-eva" not in {d["solution"] for d in assert_as_at_0021(engine)["test_designs"]}
    assert scalar(engine, "SELECT count(*) FROM solution_designs") == scalar(engine, "SELECT count(*) FROM solutions")
    assert_a_full_recompute_changes_nothing(engine)


def test_facts_drafted_from_a_document_and_a_configuration_keep_the_0021_rows(catalog, tmp_path):
    engine = catalog.engine
    (outcome,) = ingest_paths(engine, [DOCUMENTS / "002_2e1b37b2175e5892.txt"])
    assert outcome.status == "loaded", outcome.message
    drafted = [d for d in assert_as_at_0021(engine)["test_designs"] if d["mailbox_count"] is not None]
    assert drafted and scalar(engine, "SELECT count(*) FROM solution_facts") > 0
    key = drafted[0]["solution"]
    write(engine, "DELETE FROM claims WHERE metric = 'mailboxes'")  # the document's claims first, then its facts
    assert design(engine, key)["mailbox_count"] == drafted[0]["mailbox_count"]
    write(engine, "UPDATE solution_facts SET value_number = value_number + 1 WHERE fact = 'mailboxes' "
                  "AND solution_id = (SELECT id FROM solutions WHERE key = :k)", k=key)
    assert design(engine, key)["mailbox_count"] == drafted[0]["mailbox_count"] + 1
    write(engine, "DELETE FROM solution_facts WHERE fact = 'mailboxes'")
    assert design(engine, key)["mailbox_count"] is None

    folder = tmp_path / "dell-run2"  # a report with its JetstressConfig.xml: the design comes from the configuration
    folder.mkdir()
    shutil.copy(DELL_HTML, folder / DELL_HTML.name)
    shutil.copy(SAMPLE_CONFIGS / "JetstressConfig-HM.xml", folder / "JetstressConfig.xml")
    outcomes = ingest_paths(engine, [folder], solution_key="dell-eql", new_solution=True)
    assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]
    configured = design(engine, "dell-eql")
    assert (configured["mailbox_count"], configured["mailbox_count_source"]) == (300, "JetstressConfig.xml")
    write(engine, "UPDATE test_configs SET mailbox_count = 301")
    assert design(engine, "dell-eql")["mailbox_count"] == 301
    delete_source(engine, "JetstressConfig.xml")
    assert design(engine, "dell-eql")["mailbox_count"] is None
    assert_a_full_recompute_changes_nothing(engine)


def test_writers_of_one_solution_wait_only_at_commit(catalog, fresh_database_url):
    """Three transactions add a claim to one solution before any commits (a mark waiting on another
    writer's would stop the second at its insert: lock_timeout fails it), then commit at once."""
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    solution_id, file_id = scalar(engine, "SELECT id FROM solutions WHERE key = 'hp-eva4400'"), \
        scalar(engine, "SELECT min(source_file_id) FROM claims WHERE metric = 'mailboxes'")
    writers = [psycopg.connect(plain(fresh_database_url)) for _ in range(3)]
    try:
        for n, conn in enumerate(writers):
            conn.execute("SET lock_timeout = '5s'")
            conn.execute("INSERT INTO claims (source_file_id, solution_id, subject, metric, value_printed, line) "
                         "VALUES (%s, %s, 'solution', 'mailboxes', %s, %s)", (file_id, solution_id, str(n + 7), n))
        threads = [threading.Thread(target=conn.commit) for conn in writers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for conn in writers:
            conn.close()
    assert design(engine, "hp-eva4400")["mailbox_count"] == 7  # line 0 of the three
    assert_a_full_recompute_changes_nothing(engine)


@pytest.mark.parametrize("custom_plan_solutions", ["1", "1000000"], ids=["custom plan", "generic plan"])
def test_either_plan_of_a_refresh_gives_the_same_designs(catalog, custom_plan_solutions):
    ingest_paths(catalog.engine, [FIXTURES / "catalog"])
    kept = stored(catalog.engine)
    with catalog.engine.begin() as conn:
        ids = conn.execute(text("SELECT array_agg(id) FROM solutions")).scalar()
        conn.execute(text("SELECT set_config('esrpdb.custom_plan_solutions', :n, true)"), {"n": custom_plan_solutions})
        conn.execute(text("TRUNCATE solution_designs"))
        conn.execute(text("SELECT refresh_solution_designs(:ids)"), {"ids": ids})
        mode = conn.execute(text("SELECT current_setting('plan_cache_mode')")).scalar()
    assert stored(catalog.engine) == kept and len(kept) >= 10
    assert mode == "auto"  # the function restores the session's plan mode


def snapshot(engine) -> dict[str, tuple[list[str], list[tuple]]]:
    """The three views' columns and rows, in a stable order."""
    with engine.connect() as conn:
        return {view: (columns, sorted(rows, key=sort_key))
                for view, (columns, rows) in ((view, _rows(conn, view)) for view in FROZEN)}


def test_revision_0022_down_and_up_keeps_the_rows(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        ingest_paths(engine, [FIXTURES / "catalog"])
        assert_as_at_0021(engine)
        at_head = snapshot(engine)
        migrate.downgrade(fresh_database_url, "0021")
        assert not inspect(engine).has_table("solution_designs")
        assert not inspect(engine).has_table("solution_designs_stale")
        assert scalar(engine, "SELECT count(*) FROM pg_proc WHERE proname LIKE '%solution_designs%'") == 0
        assert snapshot(engine) == at_head  # the 0021 views again, over the same tables
        migrate.upgrade(fresh_database_url)
        assert snapshot(engine) == at_head
        assert_as_at_0021(engine)
    finally:
        engine.dispose()


def test_the_live_design_functions_are_what_the_newest_revision_built(fresh_database_url):
    """queries/solution_designs.sql is the live home of the refresh; revisions run frozen copies of it."""
    names, built, live = live_and_built_functions(fresh_database_url, "solution_designs.sql")
    assert sorted(names) == [name for name, _ in built] and len(names) == 2  # the marks: derived_stores.py
    assert live == built


def test_one_solution_reads_its_stored_row_and_every_column_has_words(seed_catalog):
    everything = assert_as_at_0021(seed_catalog.engine)
    for view in FROZEN:
        name = view.replace("_", "-")
        for row in everything[view][:3]:
            result = canned.query(seed_catalog.engine, name, {"solution": row["solution"]})
            assert dict(zip(result.columns, result.rows[0])) in everything[view]
            assert {r[result.columns.index("solution")] for r in result.rows} == {row["solution"]}
    with seed_catalog.engine.connect() as conn:
        words = conn.execute(text(
            "SELECT a.attname, col_description(a.attrelid, a.attnum) FROM pg_attribute a "
            "WHERE a.attrelid IN ('solution_designs'::regclass, 'solution_designs_stale'::regclass) AND a.attnum > 0")).all()
        tables = conn.execute(text("SELECT obj_description('solution_designs'::regclass, 'pg_class'), "
                                   "obj_description('solution_designs_stale'::regclass, 'pg_class')")).one()
    assert len(words) == 21 and all(comment for _, comment in words) and all(tables)
