"""A test printed only as a table with a column per host ("Host 1 | Host 2 | Host 3", no report): one run
over the hosts' columns (`[runs.table] columns = [...]`), each figure their sum, a latency their average
weighted by their achieved IOPS (log write latency: by their log IOPS), as a test over host reports is.

The document is written here (SYNTHETIC, three made-up hosts); every expected figure is computed in the
test from the table's cells as the document reader reads them, never typed in.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from esrpdb.ingest.formats import document as document_format
from esrpdb.ingest.load.plan import host_figure
from esrpdb.ingest.pipeline import ingest_paths

DOCUMENT = """# Exchange 2016 on the Sample Array S1: best practices

The Sample Array S1 was tested from three hosts at once.

Table 1. Jetstress results per host

Result\tHost 1\tHost 2\tHost 3
Achieved IOPS\t700.5\t650.25\t710.125
Log writes/sec\t170.5\t160.0\t175.25
Database read latency (ms)\t11.5\t9.0\t12.5
Log write latency (ms)\t0.8\t1.2\t0.6
"""

MANIFEST = """schema = 1

[solution]
key = "sample-s1"
vendor = "Sample"
model = "Array S1"

[[disks]]
count = 24
media = "HDD"
role = "active"

[[runs]]
label = "Three hosts"
[runs.table]
document = "paper.txt"
title = "Table 1"
columns = ["Host 1", "Host 2", "Host 3"]
achieved_iops = "Achieved IOPS"
log_iops = "Log writes/sec"
db_read_latency = "Database read latency (ms)"
log_write_latency = "Log write latency (ms)"
latency_unit = "ms"
"""


def test_a_figure_over_hosts_is_their_sum_and_a_latency_their_weighted_average():
    sums = {"achieved_iops": [100.0, 300.0], "log_iops": [10.0, 30.0], "db_read_latency": [10.0, 20.0],
            "log_write_latency": [1.0, 3.0]}
    assert host_figure("achieved_iops", sums) == 400.0
    assert host_figure("db_read_latency", sums) == pytest.approx((10 * 100 + 20 * 300) / 400)
    assert host_figure("log_write_latency", sums) == pytest.approx((1 * 10 + 3 * 30) / 40)
    assert host_figure("db_read_latency", {"db_read_latency": [10.0, 20.0]}) == 15.0  # no weights: plain average
    assert host_figure("db_read_latency", {"db_read_latency": [10.0], "achieved_iops": [5.0]}) == 10.0  # one host


def _table():
    document = document_format.parse("paper.txt", DOCUMENT.encode())
    (table,) = document.tables
    return {row.label: [float(v) for v in row.values] for row in table.rows}


@pytest.mark.db
def test_a_manifest_naming_the_hosts_columns_loads_one_summed_run(catalog, tmp_path):
    (tmp_path / "paper.txt").write_text(DOCUMENT, encoding="utf-8")
    (tmp_path / "sample.toml").write_text(MANIFEST, encoding="utf-8")
    outcomes = ingest_paths(catalog.engine, [tmp_path / "sample.toml"])
    assert [o.status for o in outcomes] == ["loaded"], [o.message for o in outcomes]
    cells = _table()
    achieved, logs = cells["Achieved IOPS"], cells["Log writes/sec"]
    with catalog.engine.connect() as conn:
        runs = conn.execute(text("SELECT r.id, r.origin FROM runs r JOIN solutions s ON s.id = r.solution_id "
                                 "WHERE s.key = 'sample-s1'")).all()
        assert [origin for _, origin in runs] == ["document_table"]
        published = {metric: (value, printed, labels) for metric, value, printed, labels in conn.execute(text(
            "SELECT metric, value, value_printed, row_labels FROM run_published_values WHERE run_id = :r"),
            {"r": runs[0][0]})}
        figures = conn.execute(text("SELECT achieved_iops, log_iops, total_iops FROM run_figures WHERE run_id = :r"),
                               {"r": runs[0][0]}).one()
    assert figures.achieved_iops == pytest.approx(sum(achieved))
    assert figures.log_iops == pytest.approx(sum(logs))
    assert figures.total_iops == pytest.approx(sum(achieved) + sum(logs))
    read = cells["Database read latency (ms)"]
    assert published["db_read_latency_ms"][0] == pytest.approx(sum(r * a for r, a in zip(read, achieved)) / sum(achieved))
    log_latency = cells["Log write latency (ms)"]
    assert published["log_write_latency_ms"][0] == pytest.approx(
        sum(w * n for w, n in zip(log_latency, logs)) / sum(logs))
    # What was added, as printed; each row named once (a host's column is a part of the test, not the run's figure)
    assert published["achieved_iops"][1:] == ("700.5 + 650.25 + 710.125", ["Achieved IOPS"])


@pytest.mark.db
def test_a_hosts_column_the_table_does_not_print_is_named_in_the_error(catalog, tmp_path):
    (tmp_path / "paper.txt").write_text(DOCUMENT, encoding="utf-8")
    (tmp_path / "sample.toml").write_text(MANIFEST.replace('"Host 3"]', '"Host 4"]'), encoding="utf-8")
    outcomes = ingest_paths(catalog.engine, [tmp_path / "sample.toml"])
    failed = [o for o in outcomes if o.status == "failed"]
    assert len(failed) == 1 and "no column 'Host 4'" in failed[0].message and "runs[0].table.columns" in failed[0].message
    with catalog.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM solutions WHERE key = 'sample-s1'")).scalar() == 0
