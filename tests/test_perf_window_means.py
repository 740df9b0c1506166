"""Perfmon counter means cover the run's window, not the whole export (issue 13, migration 0011).

An export often runs longer than the test: warm-up before it, idle time after. The stored means a
run's throughput is read from must be the means of the samples inside [test_start, test_end]
(local wall-clock time; the samples are UTC and the export's banner gives the bias), falling back
to the whole export when the run has no window or no sample in it, and recomputed when a counter
is linked to another run. Every expected mean here is computed in Python from the CSV rows
themselves, in the export's own local time, never from the database's samples.
"""

from __future__ import annotations

import csv
import math
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import create_engine, text, update
from sqlalchemy.orm import Session

from esrpdb.db import migrate
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.schema import PerfCounter, PerfFile
from tests.helpers import DELL_EXPORT, DELL_HTML, DELL_WINDOW, FIXTURES, HTML, MIB, REL_TOL, TOTAL, csv_means, scratch_database

HP_HTML = HTML / "seed000-hp-eva4400" / "Performance_2008_9_18_11_31_40.html"
REAL_EXPORT = FIXTURES / "perfmon" / "real" / "CounterSamples.csv"  # 13:46:30-13:47:42 PST, real
# As the reports print them (local wall-clock time of the test machine).
HP_WINDOW = (datetime(2008, 9, 18, 10, 14, 55), datetime(2008, 9, 18, 13, 37, 52))
EDT_BIAS = timedelta(minutes=240)  # the Dell export's banner: (Eastern Daylight Time)(240)


def stamp(moment: datetime) -> str:
    return f"{moment:%m/%d/%Y %H:%M:%S}.{moment.microsecond // 1000:03d}"


def window_export(target: Path) -> None:
    """The Dell export with warm-up rows before the run and idle rows after it.

    Built from the export's own rows: warm-up rows are its rows at a quarter of their values,
    from 09:30 until the run starts; idle rows are its rows at 2 %, from just after the run ends
    to 15:30. Rows exactly at test_start and test_end are in the window (inclusive), one a
    millisecond after test_end is not.
    """
    raw = DELL_EXPORT.read_bytes().decode("utf-8")
    newline = "\r\n" if "\r\n" in raw else "\n"
    header, *rows = list(csv.reader(raw.splitlines()))
    body = [row for row in rows[1:] if all(cell != " " for cell in row)]  # rows with every value

    def scaled(row: list[str], at: datetime, factor: float) -> list[str]:
        return [stamp(at)] + [" " if cell == " " else f"{float(cell) * factor:.6f}" for cell in row[1:]]

    start, end = DELL_WINDOW
    before = [scaled(body[i % len(body)], datetime(2008, 9, 18, 9, 30) + timedelta(seconds=15 * i), 0.25)
              for i in range(int((start - datetime(2008, 9, 18, 9, 30)).total_seconds() // 15))]
    before.append(scaled(body[0], start, 0.25))  # at test_start: inside
    after = [scaled(body[1], end, 0.02), scaled(body[2], end + timedelta(milliseconds=1), 0.02)]
    after += [scaled(body[i % len(body)], end + timedelta(seconds=15 * (i + 1)), 0.02) for i in range(140)]
    lines = [header, *before, *rows, *after]
    text_out = newline.join(",".join(f'"{cell}"' for cell in line) for line in lines) + newline
    target.write_bytes(text_out.encode("utf-8"))


def stored_means(conn, run_id: int) -> dict[str, tuple]:
    rows = conn.execute(text(
        "SELECT c.object_name || COALESCE('(' || c.instance_name || ')', '') || '\\' || c.counter_name, "
        "       m.sample_window, m.run_window_start_at, m.run_window_end_at, m.sample_count, m.value_count, "
        "       m.value_sum / NULLIF(m.value_count, 0) "
        "FROM perf_counters c JOIN perf_counter_means m ON m.counter_id = c.id WHERE c.run_id = :run"),
        {"run": run_id}).all()
    return {name: tuple(rest) for name, *rest in rows}


def assert_means(stored: dict, expected: dict, window: str, bounds: tuple | None) -> None:
    assert stored.keys() == expected.keys()
    for name, (rows, values, mean) in expected.items():
        got_window, start, end, got_rows, got_values, got_mean = stored[name]
        assert (got_window, got_rows, got_values) == (window, rows, values), name
        assert (start, end) == (bounds or (None, None)), name
        assert math.isclose(got_mean, mean, rel_tol=REL_TOL), f"{name}: stored {got_mean}, expected {mean}"


def utc_bounds(window: tuple[datetime, datetime], bias: timedelta) -> tuple[datetime, datetime]:
    """The window as stored: local + bias is UTC (the export's banner, as ingest/load/link.py reads it)."""
    start, end = window
    return (start + bias).replace(tzinfo=timezone.utc), (end + bias).replace(tzinfo=timezone.utc)


def throughput(conn, run_id: int) -> dict:
    row = conn.execute(text(
        "SELECT throughput_source, disk_transfers_per_s, read_mb_per_s, write_mb_per_s, transfer_mb_per_s, "
        "read_latency_ms, write_latency_ms FROM run_figures WHERE run_id = :run"), {"run": run_id}).mappings().one()
    return dict(row)


def assert_throughput(figures: dict, means: dict) -> None:
    """run_figures reads its throughput from exactly these means."""
    expected = {
        "disk_transfers_per_s": means[f"{TOTAL}\\Disk Transfers/sec"][2],
        "read_mb_per_s": means[f"{TOTAL}\\Disk Read Bytes/sec"][2] / MIB,
        "write_mb_per_s": means[f"{TOTAL}\\Disk Write Bytes/sec"][2] / MIB,
        "transfer_mb_per_s": means[f"{TOTAL}\\Disk Bytes/sec"][2] / MIB,
        "read_latency_ms": means[f"{TOTAL}\\Avg. Disk sec/Read"][2] * 1000,
        "write_latency_ms": means[f"{TOTAL}\\Avg. Disk sec/Write"][2] * 1000,
    }
    assert figures["throughput_source"] == "perfmon"
    for column, value in expected.items():
        assert math.isclose(figures[column], value, rel_tol=REL_TOL), f"{column}: {figures[column]} vs {value}"


def ingest_dell(engine, tmp_path: Path) -> tuple[int, Path]:
    """The Dell report and its export (with rows outside the run) in one result folder; its run id."""
    folder = tmp_path / "dell"
    folder.mkdir()
    shutil.copy(DELL_HTML, folder / DELL_HTML.name)
    export = folder / "Performance_2008_9_18_12_48_31.csv"
    window_export(export)
    outcomes = ingest_paths(engine, [folder], solution_key="dell-eql", new_solution=True)
    assert [o.status for o in outcomes] == ["loaded", "loaded"], [o.message for o in outcomes]
    with engine.connect() as conn:
        run_id, start, end = conn.execute(text("SELECT id, test_start, test_end FROM runs")).one()
        assert (start, end) == DELL_WINDOW
        assert conn.execute(text("SELECT DISTINCT run_id FROM perf_counters")).scalars().all() == [run_id]
    return run_id, export


def relink(engine, source_file_id: int, run_id: int | None) -> None:
    """As a manifest naming the export under another run does (ingest/load/manifest.py)."""
    with Session(engine) as session, session.begin():
        session.execute(update(PerfFile).where(PerfFile.source_file_id == source_file_id).values(run_id=run_id))
        session.execute(update(PerfCounter).where(PerfCounter.source_file_id == source_file_id).values(run_id=run_id))


def test_the_synthetic_export_runs_past_the_window_on_both_sides(tmp_path):
    export = tmp_path / "export.csv"
    window_export(export)
    inside, everything = csv_means(export, DELL_WINDOW), csv_means(export, None)
    name = f"{TOTAL}\\Disk Transfers/sec"
    assert everything[name][0] - inside[name][0] > 300  # warm-up and idle rows the window leaves out
    assert inside[name][2] > 1.2 * everything[name][2]  # and they pull the whole-export mean well down


def test_the_stored_mean_covers_only_the_run_window(catalog, tmp_path):
    run_id, export = ingest_dell(catalog.engine, tmp_path)
    inside = csv_means(export, DELL_WINDOW)
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, run_id), inside, "run", utc_bounds(DELL_WINDOW, EDT_BIAS))
        assert_throughput(throughput(conn, run_id), inside)
        view = conn.execute(text("SELECT disk_transfers_per_s FROM run_throughput WHERE run_id = :r"), {"r": run_id}).scalar()
    assert math.isclose(view, inside[f"{TOTAL}\\Disk Transfers/sec"][2], rel_tol=REL_TOL)
    assert not math.isclose(view, csv_means(export, None)[f"{TOTAL}\\Disk Transfers/sec"][2], rel_tol=0.01)


def test_a_run_without_a_window_falls_back_to_the_whole_export(catalog, tmp_path):
    run_id, export = ingest_dell(catalog.engine, tmp_path)
    everything = csv_means(export, None)
    with catalog.engine.begin() as conn:  # the run loses its end time: no window
        conn.execute(text("UPDATE runs SET test_end = NULL WHERE id = :r"), {"r": run_id})
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, run_id), everything, "export", None)
        assert_throughput(throughput(conn, run_id), everything)

    day_before = tuple(moment - timedelta(days=1) for moment in DELL_WINDOW)
    with catalog.engine.begin() as conn:  # a window no sample falls in
        conn.execute(text("UPDATE runs SET test_start = :s, test_end = :e WHERE id = :r"),
                     {"s": day_before[0], "e": day_before[1], "r": run_id})
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, run_id), everything, "export", utc_bounds(day_before, EDT_BIAS))
        assert_throughput(throughput(conn, run_id), everything)

    with catalog.engine.begin() as conn:  # the printed window again
        conn.execute(text("UPDATE runs SET test_start = :s, test_end = :e WHERE id = :r"),
                     {"s": DELL_WINDOW[0], "e": DELL_WINDOW[1], "r": run_id})
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, run_id), csv_means(export, DELL_WINDOW), "run", utc_bounds(DELL_WINDOW, EDT_BIAS))


def test_relinking_a_counter_to_another_run_recomputes_its_mean(catalog, tmp_path):
    dell_run, export = ingest_dell(catalog.engine, tmp_path)
    hp_folder = tmp_path / "hp"
    hp_folder.mkdir()
    shutil.copy(HP_HTML, hp_folder / HP_HTML.name)
    assert [o.status for o in ingest_paths(catalog.engine, [hp_folder], solution_key="hp", new_solution=True)] == ["loaded"]
    with catalog.engine.connect() as conn:
        hp_run, start, end = conn.execute(text("SELECT id, test_start, test_end FROM runs WHERE id <> :r"), {"r": dell_run}).one()
        (export_id,) = conn.execute(text("SELECT source_file_id FROM perf_files")).one()
        assert throughput(conn, hp_run)["throughput_source"] is None  # no export of its own
    assert (start, end) == HP_WINDOW

    relink(catalog.engine, export_id, hp_run)  # the export belongs to the HP run after all
    in_hp = csv_means(export, HP_WINDOW)
    with catalog.engine.connect() as conn:
        assert stored_means(conn, dell_run) == {}
        assert_means(stored_means(conn, hp_run), in_hp, "run", utc_bounds(HP_WINDOW, EDT_BIAS))
        assert_throughput(throughput(conn, hp_run), in_hp)
        assert throughput(conn, dell_run)["throughput_source"] is None

    relink(catalog.engine, export_id, dell_run)  # and back
    in_dell = csv_means(export, DELL_WINDOW)
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, dell_run), in_dell, "run", utc_bounds(DELL_WINDOW, EDT_BIAS))
        assert_throughput(throughput(conn, dell_run), in_dell)
        assert throughput(conn, hp_run)["throughput_source"] is None


def test_the_real_recording_is_read_in_its_own_time_zone(catalog):
    """CounterSamples.csv (Pacific Standard Time, bias 480): a run window in the middle of it."""
    assert [o.status for o in ingest_paths(catalog.engine, [REAL_EXPORT])] == ["loaded"]
    window = (datetime(2016, 11, 26, 13, 46, 45), datetime(2016, 11, 26, 13, 47, 15))
    with catalog.engine.begin() as conn:
        source_id = conn.execute(text(
            "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
            "VALUES (repeat('c', 64), 'r.html', 'r.html', 'jetstress_html', '1', 1) RETURNING id")).scalar()
        run_id = conn.execute(text(
            "INSERT INTO runs (source_file_id, report_type, machine_name, test_start, test_end) "
            "VALUES (:s, 'Performance', 'charlieparker', :a, :b) RETURNING id"),
            {"s": source_id, "a": window[0], "b": window[1]}).scalar()
        (export_id,) = conn.execute(text("SELECT source_file_id FROM perf_files")).one()
    relink(catalog.engine, export_id, run_id)
    inside, everything = csv_means(REAL_EXPORT, window), csv_means(REAL_EXPORT, None)
    assert 0 < inside["memory\\% committed bytes in use"][0] < everything["memory\\% committed bytes in use"][0]
    with catalog.engine.connect() as conn:
        assert_means(stored_means(conn, run_id), inside, "run", utc_bounds(window, timedelta(minutes=480)))


def _refresh_function(conn) -> str:
    return conn.execute(text("SELECT pg_get_functiondef('refresh_run_figures'::regproc)")).scalar()


def test_upgrade_backfills_and_downgrade_restores_0008(empty_database_url, pg_server, tmp_path):
    """A catalogue loaded before 0011 gets window means on upgrade; downgrade gives 0008's back."""
    with scratch_database(pg_server, "w0010") as url_0010:
        migrate.upgrade(url_0010, "0010")
        engine_0010 = create_engine(url_0010)
        try:
            with engine_0010.connect() as conn:
                definition_0008 = _refresh_function(conn)
        finally:
            engine_0010.dispose()

    url = empty_database_url
    migrate.upgrade(url)
    engine = create_engine(url)
    try:
        run_id, export = ingest_dell(engine, tmp_path)
        inside, everything = csv_means(export, DELL_WINDOW), csv_means(export, None)
        migrate.downgrade(url, "0010")
        with engine.connect() as conn:
            assert _refresh_function(conn) == definition_0008
            columns = conn.execute(text("SELECT column_name FROM information_schema.columns "
                                        "WHERE table_name = 'perf_counter_means' ORDER BY ordinal_position")).scalars().all()
            assert columns == ["counter_id", "sample_count", "value_count", "value_sum"]
            whole = dict(conn.execute(text(
                "SELECT c.object_name || '(' || c.instance_name || ')\\' || c.counter_name, m.value_sum / m.value_count "
                "FROM perf_counters c JOIN perf_counter_means m ON m.counter_id = c.id WHERE c.instance_name = '_Total'")).all())
            transfers = throughput(conn, run_id)["disk_transfers_per_s"]
        for name, mean in whole.items():  # 0008 averaged every sample of the export
            assert math.isclose(mean, everything[name][2], rel_tol=REL_TOL), name
        assert math.isclose(transfers, everything[f"{TOTAL}\\Disk Transfers/sec"][2], rel_tol=REL_TOL)

        migrate.upgrade(url)  # the backfill: means over the run's window, and the figures read from them
        with engine.connect() as conn:
            assert _refresh_function(conn) != definition_0008
            assert_means(stored_means(conn, run_id), inside, "run", utc_bounds(DELL_WINDOW, EDT_BIAS))
            assert_throughput(throughput(conn, run_id), inside)
    finally:
        engine.dispose()
