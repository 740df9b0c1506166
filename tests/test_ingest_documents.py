"""`esrpdb ingest` on the seed documents themselves: every embedded report and table lands."""

from __future__ import annotations

import json
import shutil

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import DOCUMENTS

runner = CliRunner()
SEED_NAMES = ("000_cfe3f1c33c0344dc.txt", "001_4559286d3491bdeb.txt", "002_2e1b37b2175e5892.txt",
              "003_d69a140947d8d140.txt")
TABLES = ("source_files", "runs", "instances", "latencies", "log_events", "report_fields", "host_counters",
          "backup_stats", "recovery_stats", "document_tables", "document_cells", "ingest_warnings")


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


@pytest.fixture
def seeds(tmp_path):
    """A folder with only the four real seed documents (fixtures/documents also holds prose and a synthetic one)."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    for name in SEED_NAMES:
        shutil.copy(DOCUMENTS / name, folder / name)
    return folder


@pytest.fixture
def seeds_loaded(fresh_database_url, seeds):
    result = invoke(fresh_database_url, "ingest", str(seeds), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_seed_loads_with_its_reports(seeds_loaded, catalog):
    assert [o["status"] for o in seeds_loaded] == ["loaded"] * 4
    assert [o["runs"] for o in seeds_loaded] == [2, 4, 2, 0]
    with catalog.engine.connect() as conn:
        runs = conn.execute(text(
            "select f.file_name, r.report_type, r.reported_verdict, r.achieved_iops, r.source_line "
            "from runs r join source_files f on f.id = r.source_file_id where r.origin = 'report' "
            "order by f.file_name, r.report_index")).all()
        backup = conn.execute(text("select count(*), avg(transfer_mb_per_s) from backup_stats")).one()
        table_runs = dict(conn.execute(text(
            "select left(f.file_name, 3), count(*) from runs r join source_files f on f.id = r.source_file_id "
            "where r.origin = 'document_table' group by 1")).all())
    by_file = {}
    for name, report_type, verdict, achieved, line in runs:
        by_file.setdefault(name[:3], []).append((report_type, verdict, achieved))
        assert line is not None  # provenance: where the report starts
    assert by_file["000"] == [("Performance", "Pass", 6667.51), ("Performance", "Pass", 2684.535)]
    assert [(t, a) for t, _, a in by_file["001"]] == [
        ("Stress", 1488.848), ("Performance", 1573.982), ("DatabaseBackup", None), ("SoftRecovery", None)]
    assert [a for _, _, a in by_file["002"]] == [3834.843, 10650.201]
    assert backup[0] == 8 and round(backup[1], 2) == 60.05
    # Runs printed only as table columns: 000 Runs 1 and 3 of two arrays (Figure 7), 002 the two
    # non-median runs of each configuration (Appendix A), 003 Runs 1-3 of three arrays (Figure 5) and
    # the Fibre Channel array's configurations 1 and 3 (Figure 4), 001 the MD1220's degraded and
    # rebuilding RAID 5 states (scenario runs: "RAID5 Performance").
    assert table_runs == {"000": 4, "001": 2, "002": 4, "003": 11}


def test_seed_003_per_run_table_is_kept_cell_by_cell(seeds_loaded, catalog):
    with catalog.engine.connect() as conn:
        cells = conn.execute(text(
            "select c.row_label, c.column_ordinal, c.value_number from document_cells c "
            "join document_tables t on t.id = c.table_id join source_files f on f.id = t.source_file_id "
            "where f.file_name like '003%' and t.kind = 'results_by_run'")).all()
    totals = {(label, col): value for label, col, value in cells if label.startswith("Total IOPS")}
    assert [totals[("Total IOPS – Run 2", c)] for c in range(3)] == [5662.461, 3333.521, 3771.458]
    vm_rows = {label for label, _, _ in cells if label.startswith("VM ")}
    assert len(vm_rows) == 4 * 3 * 3  # four VMs x achieved/log/total x three runs


def test_every_warning_names_a_line(seeds_loaded, catalog):
    with catalog.engine.connect() as conn:
        messages = [m for (m,) in conn.execute(text(
            "select message from ingest_warnings where check_name = 'document_reader'"))]
    assert messages and all("line " in m for m in messages)


def test_ingesting_the_seeds_twice_changes_nothing(fresh_database_url, seeds, seeds_loaded, catalog):
    def counts():
        with catalog.engine.connect() as conn:
            return {t: conn.execute(text(f"select count(*) from {t}")).scalar_one() for t in TABLES}
    before = counts()
    again = invoke(fresh_database_url, "ingest", str(seeds), "--format", "json")
    assert again.exit_code == 0
    assert {o["status"] for o in json.loads(again.stdout)} == {"skipped"}
    assert counts() == before
