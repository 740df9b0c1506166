"""A Jetstress result folder (report + config + log + perfmon + power) loads as one run with
everything attached, and the canned queries read throughput and power from the samples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import DELL_HTML, FIXTURES, SAMPLE_CONFIGS, write_log_from_report

runner = CliRunner()


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


@pytest.fixture
def dell_folder(tmp_path) -> Path:
    folder = tmp_path / "dell-run2"
    folder.mkdir()
    shutil.copy(DELL_HTML, folder / DELL_HTML.name)
    shutil.copy(FIXTURES / "perfmon" / "seed000-dell-equallogic.csv", folder / "Performance_2008_9_18_12_48_31.csv")
    shutil.copy(SAMPLE_CONFIGS / "JetstressConfig-HM.xml", folder / "JetstressConfig.xml")
    write_log_from_report(DELL_HTML, folder / "Performance_2008_9_18_12_48_31.log")
    return folder


def test_result_folder_yields_one_run_with_everything_attached(fresh_database_url, catalog, dell_folder):
    result = invoke(fresh_database_url, "ingest", str(dell_folder), "--solution", "dell-eql", "--new-solution", "--format", "json")
    assert result.exit_code == 0, result.output
    formats = sorted(o["format"] for o in json.loads(result.stdout))
    assert formats == ["jetstress_config", "jetstress_html", "jetstress_log", "perfmon_csv"]
    with catalog.engine.connect() as conn:
        (run_id,) = conn.execute(text("select id from runs")).one()
        linked = conn.execute(text(
            "select (select run_id from test_configs), (select run_id from test_logs), "
            "(select run_id from perf_files), (select count(distinct run_id) from perf_counters)")).one()
        config = conn.execute(text(
            "select database_count, mailbox_count, iops_per_mailbox, mailbox_quota_mb, database_copy_count, duration_s "
            "from test_configs")).one()
        thresholds = dict(conn.execute(text("select name, log_write_max_ms from config_thresholds")).all())
    assert linked == (run_id, run_id, run_id, 1)
    assert tuple(config) == (4, 300, 1, 100, 3, 900)
    assert thresholds == {"Strict": 100, "Lenient": 200}


@pytest.mark.parametrize("spelling", ["as relog writes it", "lower case, as Export-Counter writes it",
                                      "PhysicalDisk only"])
def test_throughput_per_disk_comes_from_the_samples(fresh_database_url, catalog, dell_folder, spelling):
    export = dell_folder / "Performance_2008_9_18_12_48_31.csv"
    header, rest = export.read_bytes().split(b"\n", 1)
    if spelling.startswith("lower"):  # the banner stays as written; every counter path is lower case
        banner, paths = header.split(b",", 1)
        header = banner + b"," + paths.lower()
    elif spelling.startswith("Physical"):
        header = header.replace(b"\\LogicalDisk(", b"\\PhysicalDisk(")
    export.write_bytes(header + b"\n" + rest)
    assert invoke(fresh_database_url, "ingest", str(dell_folder), "--solution", "dell-eql", "--new-solution").exit_code == 0
    with catalog.engine.begin() as conn:  # the manifest's disk facts (seed 000: 32 disks in two shelves)
        conn.execute(text("insert into disks (solution_id, disk_count, media, role) select id, 32, 'HDD', 'active' from solutions"))
    result = invoke(fresh_database_url, "query", "throughput-per-disk", "--param", "disk_basis=all", "--format", "json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert row["throughput_source"] == "perfmon"
    assert round(row["transfer_mb_per_s"], 1) == 63.4  # seed 000 Figure 7
    assert round(row["transfer_mb_per_s_per_disk"], 2) == 1.98  # seed 000 Figure 3
    assert round(row["read_mb_per_s"], 3) == 21.824 and round(row["write_mb_per_s"], 3) == 41.549
    assert round(row["disk_transfers_per_s"]) == 8249


@pytest.mark.parametrize(
    "case, html, power, idle_w, active_w",
    [
        ("hdd", "seed002-savvio-hdd/Performance_2008_10_21_16_24_35.html", "seed002-savvio-hdd.csv", 275.6, 292.1),
        ("ssd", "seed002-x25e-ssd/Performance_2008_10_5_21_32_32.html", "seed002-x25e-ssd.csv", 111.57, 115.83),
    ],
)
def test_power_log_gives_idle_and_active_watts(fresh_database_url, catalog, tmp_path, case, html, power, idle_w, active_w):
    shutil.copy(FIXTURES / "jetstress_html" / html, tmp_path / Path(html).name)
    shutil.copy(FIXTURES / "power" / power, tmp_path / power)
    assert invoke(fresh_database_url, "ingest", str(tmp_path), "--solution", case, "--new-solution").exit_code == 0
    with catalog.engine.connect() as conn:
        measured = conn.execute(text("select idle_power_w, active_power_w from run_power")).one()
    decimals = len(str(idle_w).split(".")[1])
    assert (round(measured.idle_power_w, decimals), round(measured.active_power_w, decimals)) == (idle_w, active_w)


def test_a_broken_perfmon_export_writes_nothing(fresh_database_url, catalog, tmp_path):
    good = (FIXTURES / "perfmon" / "seed000-hp-eva4400.csv").read_bytes()
    lines = good.split(b"\r\n")
    lines[200] = lines[200].replace(b'","', b'","x', 1)  # a non-number deep inside the stream
    (tmp_path / "broken.csv").write_bytes(b"\r\n".join(lines))
    result = invoke(fresh_database_url, "ingest", str(tmp_path / "broken.csv"), "--format", "json")
    assert result.exit_code == 1
    (outcome,) = json.loads(result.stdout)
    assert "broken.csv" in outcome["message"] and "line 201" in outcome["message"]
    with catalog.engine.connect() as conn:
        counts = conn.execute(text(
            "select (select count(*) from source_files), (select count(*) from perf_counters), "
            "(select count(*) from perf_samples)")).one()
    assert tuple(counts) == (0, 0, 0)


def test_deleting_a_perfmon_file_deletes_its_samples(fresh_database_url, catalog):
    csv = FIXTURES / "perfmon" / "seed000-hp-eva4400.csv"
    assert invoke(fresh_database_url, "ingest", str(csv)).exit_code == 0
    with catalog.engine.begin() as conn:
        assert conn.execute(text("select count(*) from perf_samples")).scalar_one() > 1000
        conn.execute(text("delete from source_files"))
        assert conn.execute(text("select count(*) from perf_samples")).scalar_one() == 0
