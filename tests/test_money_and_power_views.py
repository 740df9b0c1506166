"""Revision 0023: iops_per_dollar, dollars_per_kiops and perf_per_watt read run_value_figures (each ranked
run's price and power, kept as it is written), throughput_per_disk a covering index. Each must give the
rows its definition before 0023 computes from the same tables (built in a schema of their own), on the
seed catalogue and after every kind of write that changes a price, a power figure or a ranked run."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text

from esrpdb.db import migrate
from esrpdb.ingest.load.assign import assign
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import canned
from esrpdb.workflows.delete import delete_solution
from tests.helpers import FIXTURES, REPO_ROOT, live_and_built_functions, run_sql, sort_key, sql_scalar, table_rows

MIGRATIONS = REPO_ROOT / "migrations"
# The definitions before 0023, in creation order (dollars_per_kiops reads the frozen iops_per_dollar).
FROZEN = {"iops_per_dollar": "views_0008", "dollars_per_kiops": "views_0008", "perf_per_watt": "views_0021",
          "throughput_per_disk": "views_0008"}


def _rows(conn, relation: str) -> tuple[list[str], list[tuple]]:
    result = conn.execute(text(f"SELECT * FROM {relation}"))
    return list(result.keys()), sorted((tuple(row) for row in result), key=sort_key)


def now_and_before(engine) -> tuple[dict, dict]:
    """Each view's columns and rows as it reads now, and as the definitions before 0023 compute them."""
    with engine.connect() as conn:
        now = {view: _rows(conn, view) for view in FROZEN}
        conn.execute(text("CREATE SCHEMA frozen_0022"))
        conn.execute(text("SET LOCAL search_path TO frozen_0022, public"))
        for view, folder in FROZEN.items():
            conn.execute(text((MIGRATIONS / folder / f"{view}.sql").read_text(encoding="utf-8")))
        before = {view: _rows(conn, f"frozen_0022.{view}") for view in FROZEN}
        conn.rollback()
    return now, before


def assert_as_before(engine) -> dict[str, list[dict]]:
    now, before = now_and_before(engine)
    assert now == before
    return {view: [dict(zip(columns, row)) for row in rows] for view, (columns, rows) in now.items()}


write, scalar = run_sql, sql_scalar


def stored(engine) -> list[tuple]:
    return table_rows(engine, "run_value_figures")


def assert_a_full_recompute_changes_nothing(engine) -> None:
    kept = stored(engine)
    write(engine, "SELECT refresh_run_value_figures(NULL)")
    assert stored(engine) == kept


def rows_of(views: dict, view: str, key: str) -> list[dict]:
    return [r for r in views[view] if r["solution"] == key]


def test_the_seed_catalogue_gives_the_rows_of_before(seed_catalog):
    views = assert_as_before(seed_catalog.engine)
    assert len(views["iops_per_dollar"]) == len(views["dollars_per_kiops"]) >= 5
    assert len(views["throughput_per_disk"]) >= 4
    assert {r["power_source"] for r in views["perf_per_watt"]} >= {"power_log", "document_table"}
    assert scalar(seed_catalog.engine, "SELECT count(*) FROM run_value_figures") == \
        len({r["run_id"] for r in views["iops_per_dollar"] + views["perf_per_watt"]})


def test_writes_that_change_a_price_or_a_power_keep_the_rows_of_before(catalog):
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    views = assert_as_before(engine)
    priced = views["iops_per_dollar"][0]["solution"]
    # A solution without any power figure: given one, its ranked runs show the manifest's power.
    key = scalar(engine, "SELECT min(solution) FROM median_runs WHERE solution <> ALL(:keys)",
                 keys=sorted({r["solution"] for r in views["perf_per_watt"]} | {priced}))
    write(engine, "UPDATE solutions SET active_power_w = 250, idle_power_w = 90, power_boundary = 'drives_only' "
                  "WHERE key = :k", k=key)
    manifest = rows_of(assert_as_before(engine), "perf_per_watt", key)
    assert manifest and {r["power_source"] for r in manifest} == {"manifest"}
    run_id = manifest[0]["run_id"]

    # A price changed, removed and put back; a currency changed.
    price = scalar(engine, "SELECT list_price_amount FROM solutions WHERE key = :k", k=priced)
    write(engine, "UPDATE solutions SET list_price_amount = list_price_amount * 2 WHERE key = :k", k=priced)
    assert rows_of(assert_as_before(engine), "iops_per_dollar", priced)[0]["list_price_amount"] == price * 2
    write(engine, "UPDATE solutions SET list_price_amount = NULL, list_price_currency = NULL WHERE key = :k", k=priced)
    assert rows_of(assert_as_before(engine), "iops_per_dollar", priced) == []
    write(engine, "UPDATE solutions SET list_price_amount = :p, list_price_currency = 'EUR' WHERE key = :k",
          p=price, k=priced)
    assert {r["list_price_currency"] for r in rows_of(assert_as_before(engine), "iops_per_dollar", priced)} == {"EUR"}

    # A solution's power changed and removed; a power log for one of its runs, changed, then deleted.
    write(engine, "UPDATE solutions SET active_power_w = active_power_w + 100, power_boundary = 'system' "
                  "WHERE key = :k", k=key)
    assert {r["power_boundary"] for r in rows_of(assert_as_before(engine), "perf_per_watt", key)} == {"system"}
    write(engine, "INSERT INTO run_power (run_id, idle_power_w, active_power_w, boundary) "
                  "VALUES (:r, 40, 400, 'drives_only')", r=run_id)
    logged = [r for r in assert_as_before(engine)["perf_per_watt"] if r["run_id"] == run_id]
    assert [(r["power_source"], r["active_power_w"]) for r in logged] == [("power_log", 400)]
    write(engine, "UPDATE run_power SET active_power_w = NULL WHERE run_id = :r", r=run_id)
    assert_as_before(engine)
    write(engine, "UPDATE solutions SET active_power_w = NULL, idle_power_w = NULL WHERE key = :k", k=key)
    assert rows_of(assert_as_before(engine), "perf_per_watt", key) == []
    write(engine, "UPDATE run_power SET active_power_w = 410 WHERE run_id = :r", r=run_id)
    assert [r["run_id"] for r in rows_of(assert_as_before(engine), "perf_per_watt", key)] == [run_id]
    write(engine, "DELETE FROM run_power WHERE run_id = :r", r=run_id)
    assert rows_of(assert_as_before(engine), "perf_per_watt", key) == []

    # A document table's power for the run (read at commit through run_figures), then deleted.
    write(engine, "INSERT INTO run_published_values (run_id, metric, value, value_printed, row_labels) "
                  "VALUES (:r, 'active_power_w', 321, '321', '{}'), (:r, 'idle_power_w', 123, '123', '{}')", r=run_id)
    published = rows_of(assert_as_before(engine), "perf_per_watt", key)
    assert [(r["power_source"], r["idle_power_w"]) for r in published] == [("document_table", 123)]
    write(engine, "DELETE FROM run_published_values WHERE run_id = :r AND metric = 'active_power_w'", r=run_id)
    assert rows_of(assert_as_before(engine), "perf_per_watt", key) == []

    # Ranked runs changed: IOPS (the median moves), a trial and a solution renamed, a run moved, deleted.
    median_id = scalar(engine, "SELECT min(run_id) FROM run_figures WHERE is_median_run AND trial_run_count >= 2 "
                               "AND origin = 'report'")
    priced = scalar(engine, "SELECT solution FROM run_figures WHERE run_id = :r", r=median_id)
    write(engine, "UPDATE solutions SET list_price_amount = COALESCE(list_price_amount, 1000), "
                  "list_price_currency = COALESCE(list_price_currency, 'USD') WHERE key = :k", k=priced)
    assert median_id in {r["run_id"] for r in rows_of(assert_as_before(engine), "iops_per_dollar", priced)}
    write(engine, "UPDATE runs SET achieved_iops = achieved_iops * 10 WHERE id = :r", r=median_id)
    moved = {r["run_id"]: r["is_median_run"] for r in assert_as_before(engine)["iops_per_dollar"]}
    assert moved.get(median_id) is not True, moved
    write(engine, "UPDATE trials SET label = 'renamed trial' WHERE id = (SELECT trial_id FROM runs WHERE id = :r)",
          r=median_id)
    write(engine, "UPDATE solutions SET key = 'renamed-priced' WHERE key = :k", k=priced)
    assert {r["trial"] for r in rows_of(assert_as_before(engine), "iops_per_dollar", "renamed-priced")} >= \
        {"renamed trial"}
    unpriced = scalar(engine, "SELECT min(key) FROM solutions WHERE list_price_amount IS NULL")
    assign(engine, str(median_id), unpriced)
    assert median_id not in {r["run_id"] for r in assert_as_before(engine)["iops_per_dollar"]}
    write(engine, "DELETE FROM runs WHERE id = :r", r=views["perf_per_watt"][-1]["run_id"])
    assert_as_before(engine)
    delete_solution(engine, "renamed-priced")
    assert rows_of(assert_as_before(engine), "iops_per_dollar", "renamed-priced") == []
    assert_a_full_recompute_changes_nothing(engine)


def test_a_solution_deleted_in_one_statement_with_its_runs_leaves_no_row(catalog):
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    key = assert_as_before(engine)["perf_per_watt"][0]["solution"]
    write(engine, "DELETE FROM solutions WHERE key = :k", k=key)  # its runs stay, without a solution
    assert rows_of(assert_as_before(engine), "perf_per_watt", key) == []
    assert scalar(engine, "SELECT count(*) FROM run_value_figures WHERE solution = :k", k=key) == 0


def snapshot(engine) -> dict:
    with engine.connect() as conn:
        return {view: _rows(conn, view) for view in FROZEN}


def test_revision_0023_down_and_up_keeps_the_rows(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        ingest_paths(engine, [FIXTURES / "catalog"])
        at_head = snapshot(engine)
        assert at_head["perf_per_watt"][1] and at_head["iops_per_dollar"][1]
        migrate.downgrade(fresh_database_url, "0022")
        assert not inspect(engine).has_table("run_value_figures")
        assert "ix_run_figures_throughput" not in {i["name"] for i in inspect(engine).get_indexes("run_figures")}
        assert scalar(engine, "SELECT count(*) FROM pg_proc WHERE proname LIKE '%run_value_figures%'") == 0
        assert snapshot(engine) == at_head  # the 0022 views again, over the same tables
        migrate.upgrade(fresh_database_url)
        assert snapshot(engine) == at_head
        assert_as_before(engine)
    finally:
        engine.dispose()


def test_the_live_value_functions_are_what_the_newest_revision_built(fresh_database_url):
    """queries/run_value_figures.sql is the live home of the refresh; revisions run frozen copies of it."""
    names, built, live = live_and_built_functions(fresh_database_url, "run_value_figures.sql")
    assert sorted(names) == [name for name, _ in built] and len(names) == 1  # the marks: derived_stores.py
    assert live == built


@pytest.mark.parametrize("view", ["iops_per_dollar", "dollars_per_kiops", "perf_per_watt", "throughput_per_disk"])
def test_one_solution_reads_its_rows(seed_catalog, view):
    everything = assert_as_before(seed_catalog.engine)[view]
    key = everything[0]["solution"]
    result = canned.query(seed_catalog.engine, view.replace("_", "-"), {"solution": key})
    assert sorted((dict(zip(result.columns, row)) for row in result.rows), key=lambda r: sort_key(tuple(r.values()))) \
        == sorted((r for r in everything if r["solution"] == key), key=lambda r: sort_key(tuple(r.values())))
    assert result.rows
