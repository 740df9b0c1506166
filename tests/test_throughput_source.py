"""Run throughput says where its figures came from (revision 0013): `throughput_source` names where the
MB/s came from, not merely that perfmon was linked; `perfmon_sample_window` which samples they average.

Each export here is the Dell seed export (fixtures/perfmon/seed000-dell-equallogic.csv) cut down
to some of its columns, in the test, beside the Dell report; the expected figures are the CSV's
own means over the run's window, computed in Python.
"""

from __future__ import annotations

import csv
import math
import shutil
from pathlib import Path

from sqlalchemy import text

from esrpdb.db import migrate
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import DELL_EXPORT, DELL_HTML, DELL_WINDOW, MIB, REL_TOL, TOTAL, csv_means

IDLE = f"{TOTAL}\\Avg. Disk Bytes/Write"  # a _Total counter that is none of the view's figures


def cut_export(target: Path, keep: dict[str, str]) -> None:
    """The Dell export with only the columns in `keep` (counter path after the machine -> path to print)."""
    header, *rows = list(csv.reader(DELL_EXPORT.read_text(encoding="utf-8").splitlines()))
    machine = header[1].split("\\")[2]
    by_name = {cell.split("\\", 3)[3]: index for index, cell in enumerate(header) if index}
    columns = [0, *(by_name[name] for name in keep)]
    printed = [header[0], *(f"\\\\{machine}\\{keep[name]}" for name in keep)]
    lines = [printed, *([row[i] for i in columns] for row in rows)]
    target.write_text("\r\n".join(",".join(f'"{cell}"' for cell in line) for line in lines) + "\r\n", encoding="utf-8")


def ingest_with(engine, tmp_path: Path, keep: dict[str, str]) -> tuple[int, Path]:
    folder = tmp_path / "dell"
    folder.mkdir()
    shutil.copy(DELL_HTML, folder / DELL_HTML.name)
    export = folder / "Performance_2008_9_18_12_48_31.csv"
    cut_export(export, keep)
    outcomes = ingest_paths(engine, [folder], solution_key="dell-eql", new_solution=True)
    assert [o.status for o in outcomes] == ["loaded", "loaded"], [o.message for o in outcomes]
    with engine.connect() as conn:
        run_id = conn.execute(text("SELECT id FROM runs")).scalar_one()
        assert conn.execute(text("SELECT DISTINCT run_id FROM perf_counters")).scalars().all() == [run_id]
    return run_id, export


def figures(engine, run_id: int) -> dict:
    with engine.connect() as conn:
        stored = dict(conn.execute(text(
            "SELECT throughput_source, transfer_mb_per_s, read_latency_ms, perfmon_sample_window "
            "FROM run_figures WHERE run_id = :r"),
            {"r": run_id}).mappings().one())
        stored["in_view"] = conn.execute(text("SELECT count(*) FROM run_throughput WHERE run_id = :r"),
                                         {"r": run_id}).scalar_one() == 1
    return stored


def test_a_disk_counter_that_is_no_figure_does_not_make_perfmon_the_source(catalog, tmp_path):
    # The synthetic column: the export's c:\log1 bytes-per-write counter printed as _Total's.
    run_id, _ = ingest_with(catalog.engine, tmp_path, {"LogicalDisk(c:\\log1)\\Avg. Disk Bytes/Write": IDLE})
    assert figures(catalog.engine, run_id) == {"throughput_source": None, "transfer_mb_per_s": None,
                                               "read_latency_ms": None, "perfmon_sample_window": None,
                                               "in_view": False}


def test_latency_counters_alone_are_perfmon_figures_without_mb_per_s(catalog, tmp_path):
    keep = {f"{TOTAL}\\Avg. Disk sec/Read": f"{TOTAL}\\Avg. Disk sec/Read"}
    run_id, export = ingest_with(catalog.engine, tmp_path, keep)
    stored = figures(catalog.engine, run_id)
    assert (stored["throughput_source"], stored["transfer_mb_per_s"], stored["in_view"]) == ("perfmon", None, True)
    expected = csv_means(export, DELL_WINDOW)[f"{TOTAL}\\Avg. Disk sec/Read"][2] * 1000
    assert math.isclose(stored["read_latency_ms"], expected, rel_tol=REL_TOL)


def test_the_bytes_counter_makes_perfmon_the_source(catalog, tmp_path):
    keep = {f"{TOTAL}\\Disk Bytes/sec": f"{TOTAL}\\Disk Bytes/sec"}
    run_id, export = ingest_with(catalog.engine, tmp_path, keep)
    stored = figures(catalog.engine, run_id)
    assert (stored["throughput_source"], stored["perfmon_sample_window"], stored["in_view"]) == ("perfmon", "run", True)
    expected = csv_means(export, DELL_WINDOW)[f"{TOTAL}\\Disk Bytes/sec"][2] / MIB
    assert math.isclose(stored["transfer_mb_per_s"], expected, rel_tol=REL_TOL)


def test_the_view_says_when_the_figures_average_the_whole_export(catalog, tmp_path):
    """The run's window moved a day back: no sample falls in it, so the means cover the export."""
    keep = {f"{TOTAL}\\Disk Bytes/sec": f"{TOTAL}\\Disk Bytes/sec"}
    run_id, export = ingest_with(catalog.engine, tmp_path, keep)
    with catalog.engine.begin() as conn:
        conn.execute(text("UPDATE runs SET test_start = test_start - interval '1 day', "
                          "test_end = test_end - interval '1 day' WHERE id = :r"), {"r": run_id})
    with catalog.engine.connect() as conn:
        window, transfer = conn.execute(text(
            "SELECT perfmon_sample_window, transfer_mb_per_s FROM run_throughput WHERE run_id = :r"), {"r": run_id}).one()
    assert window == "export"
    expected = csv_means(export, None)[f"{TOTAL}\\Disk Bytes/sec"][2] / MIB
    assert math.isclose(transfer, expected, rel_tol=REL_TOL)


def test_the_migration_refreshes_catalogues_ingested_before_it(catalog, tmp_path):
    run_id, _ = ingest_with(catalog.engine, tmp_path, {"LogicalDisk(c:\\log1)\\Avg. Disk Bytes/Write": IDLE})
    migrate.downgrade(catalog.url, "0012")
    with catalog.engine.connect() as conn:
        source = conn.execute(text("SELECT throughput_source FROM run_figures WHERE run_id = :r"), {"r": run_id}).scalar()
        columns = conn.execute(text("SELECT * FROM run_throughput LIMIT 0")).keys()
    assert source == "perfmon" and "perfmon_sample_window" not in columns  # 0012 marked the bare link perfmon
    migrate.upgrade(catalog.url)
    assert figures(catalog.engine, run_id)["throughput_source"] is None
