"""Every key a person types is checked: one line naming what was given and what exists, exit 1."""

from __future__ import annotations

import json
import re

from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import FIXTURES

runner = CliRunner()
EVA = FIXTURES / "jetstress_html" / "seed000-hp-eva4400"


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def one_error_line(result) -> str:
    assert result.exit_code != 0, result.output
    lines = [line for line in result.stderr.strip().splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_compare_an_unknown_solution_names_the_closest(seed_catalog_url):
    line = one_error_line(invoke(seed_catalog_url, "compare", "md1220", "hp-eva4400"))
    assert line.startswith("Error: unknown solution 'md1220' (did you mean 'dell-powervault-md1220'?); known: "
                           "dell-powervault-md1220, ")
    assert one_error_line(invoke(seed_catalog_url, "compare", "nosuch", "hp-eva4400")).startswith(
        "Error: unknown solution 'nosuch'; known: dell-eql-2x-ps4000xv, ")


def test_runs_and_audit_refuse_unknown_keys(seed_catalog_url):
    assert one_error_line(invoke(seed_catalog_url, "runs", "--solution", "nosuch")).startswith(
        "Error: unknown solution 'nosuch'")
    assert one_error_line(invoke(seed_catalog_url, "audit", "--verdict", "mismatches")).startswith(
        "Error: unknown verdict 'mismatches' (did you mean 'mismatch'?)")
    assert "Invalid value for '--disk-basis'" in one_error_line(
        invoke(seed_catalog_url, "compare", "hp-eva4400", "hp-lefthand-p4500", "--disk-basis", "bogus"))
    assert "Error: unknown metric 'speed'; known: " in one_error_line(
        invoke(seed_catalog_url, "compare", "hp-eva4400", "hp-lefthand-p4500", "--metric", "speed"))


def test_ingest_never_creates_a_solution_implicitly(catalog, fresh_database_url):
    report = str(next(EVA.glob("*.html")))
    refused = invoke(fresh_database_url, "ingest", report, "--solution", "eva")
    assert one_error_line(refused) == "Error: unknown solution 'eva'; the catalogue has none yet"
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select count(*) from solutions")).scalar_one() == 0
        assert conn.execute(text("select count(*) from source_files")).scalar_one() == 0
    created = invoke(fresh_database_url, "ingest", report, "--solution", "eva", "--new-solution")
    assert created.exit_code == 0, created.output
    listed = json.loads(invoke(fresh_database_url, "runs", "--solution", "eva", "-f", "json").stdout)
    assert len(listed) == 1


def test_assign_moves_runs_of_a_file_and_keeps_the_move(catalog, fresh_database_url):
    report = next(EVA.glob("*.html"))
    assert invoke(fresh_database_url, "ingest", str(report), "--solution", "wrong", "--new-solution").exit_code == 0
    again = invoke(fresh_database_url, "ingest", str(report), "--solution", "wrong")
    assert "skipped" in again.stdout  # re-ingesting cannot mend it: assign does
    refused = invoke(fresh_database_url, "assign", str(report), "--solution", "right")
    assert one_error_line(refused).startswith("Error: unknown solution 'right'")
    moved = invoke(fresh_database_url, "assign", str(report), "--solution", "right", "--new-solution")
    assert moved.exit_code == 0, moved.output
    assert re.fullmatch(r"run \d+: wrong -> right\n", moved.stdout)
    with catalog.engine.connect() as conn:
        row = conn.execute(text(
            "select f.key, t.key, a.reason from run_assignments a join solutions f on f.id = a.from_solution_id "
            "join solutions t on t.id = a.to_solution_id")).one()
    assert row[0] == "wrong" and row[1] == "right" and row[2].startswith(f"file {report.name} (")
    assert invoke(fresh_database_url, "assign", str(report), "--solution", "right").stdout.startswith("nothing to move")
    assert one_error_line(invoke(fresh_database_url, "assign", "99999", "--solution", "right")).startswith(
        "Error: no run 99999 in the catalogue")


def test_compare_states_the_seed_comparisons_with_their_ranges(seed_catalog_url):
    rows = json.loads(invoke(seed_catalog_url, "compare", "intel-x25e-3-ssd", "savvio-15k-24-hdd", "-f", "json").stdout)
    by_metric = {(r["metric"], r["disk_basis"]): r for r in rows}
    iops, mb = by_metric[("total_iops", None)], by_metric[("throughput_mb_per_s", None)]
    assert re.fullmatch(r"intel-x25e-3-ssd delivered 188% more total IOPS than savvio-15k-24-hdd "
                        r"\(\d+–\d+% across the runs\)", iops["sentence"])
    assert re.fullmatch(r"intel-x25e-3-ssd delivered 172% more MB/s than savvio-15k-24-hdd "
                        r"\(\d+–\d+% across the runs\)", mb["sentence"])
    for row in (iops, mb):
        assert row["percent_more_min"] < row["percent_more"] < row["percent_more_max"]
    per_disk = json.loads(invoke(seed_catalog_url, "compare", "dell-eql-2x-ps4000xv", "hp-lefthand-p4500",
                                 "--metric", "total_iops_per_disk", "--disk-basis", "active", "-f", "json").stdout)
    assert per_disk[0]["sentence"].startswith(
        "dell-eql-2x-ps4000xv delivered 118% more total IOPS per disk (active disks) than hp-lefthand-p4500")
    assert set(per_disk[0]) == {"metric", "disk_basis", "value_a", "value_b", "percent_more", "percent_more_min",
                                "percent_more_max", "sentence", "unlike_tests"}


def test_compare_flags_unlike_tests(seed_catalog_url):
    result = invoke(seed_catalog_url, "compare", "dell-powervault-md1220", "hp-eva4400", "--metric", "total_iops")
    assert result.exit_code == 0, result.output
    assert "note: unlike tests — Jetstress: 2010 (dell-powervault-md1220) vs 2007 (hp-eva4400)" in result.stdout


def test_compare_json_and_csv_carry_the_unlike_note_the_table_prints(seed_catalog_url):
    """A script sees what a person sees: the same notes, on every row of JSON and CSV; null where alike."""
    import csv
    import io

    args = ("compare", "dell-powervault-md1220", "hp-eva4400", "--metric", "total_iops", "--metric", "achieved_iops")
    table = invoke(seed_catalog_url, *args).stdout
    notes = [line.split("note: unlike tests — ", 1)[1] for line in table.splitlines() if line.startswith("note: unlike")]
    assert notes and "Jetstress: 2010 (dell-powervault-md1220) vs 2007 (hp-eva4400)" in notes
    rows = json.loads(invoke(seed_catalog_url, *args, "-f", "json").stdout)
    assert [row["unlike_tests"] for row in rows] == ["; ".join(notes)] * 2
    cells = list(csv.DictReader(io.StringIO(invoke(seed_catalog_url, *args, "-f", "csv").stdout)))
    assert [row["unlike_tests"] for row in cells] == ["; ".join(notes)] * 2
    alike = json.loads(invoke(seed_catalog_url, "compare", "intel-x25e-3-ssd", "savvio-15k-24-hdd",
                              "--metric", "total_iops", "-f", "json").stdout)
    assert [row["unlike_tests"] for row in alike] == [None]


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and re.fullmatch(r"esrpdb \d+\.\d+\.\d+\S*\n", result.stdout)


def test_an_unknown_canned_query_names_the_closest(seed_catalog_url):
    line = one_error_line(invoke(seed_catalog_url, "query", "per-disk"))
    assert line.startswith("Error: unknown canned query 'per-disk' (did you mean 'per-disk-iops'?); known: per-disk-iops")


def test_query_params_that_name_nothing_are_errors_not_empty_tables(seed_catalog_url):
    line = one_error_line(invoke(seed_catalog_url, "query", "per-disk-iops", "--param", "solution=hp-eva44"))
    assert "unknown solution 'hp-eva44'" in line and "did you mean 'hp-eva4400'" in line
    line = one_error_line(invoke(seed_catalog_url, "query", "per-disk-iops", "--param", "disk_basis=activ"))
    assert "did you mean 'active'" in line
    line = one_error_line(invoke(seed_catalog_url, "query", "run-summary", "--param", "run_id=999999"))
    assert "unknown run id '999999'" in line
    # a filter that names real things but matches no row is still "(no rows)", exit 0
    from sqlalchemy import create_engine

    engine = create_engine(seed_catalog_url)
    with engine.connect() as conn:
        other = conn.execute(text("select min(r.id) from runs r join solutions s on s.id = r.solution_id "
                                  "where s.key <> 'hp-eva4400'")).scalar_one()
    engine.dispose()
    quiet = invoke(seed_catalog_url, "query", "per-disk-iops", "--param", "solution=hp-eva4400",
                   "--param", f"run_id={other}", "--param", "disk_basis=all")
    assert quiet.exit_code == 0 and "(no rows)" in quiet.output, quiet.output


def test_plot_an_unknown_chart_and_compare_a_solution_with_itself(seed_catalog_url, tmp_path):
    line = one_error_line(invoke(seed_catalog_url, "plot", "perf_per_wat", "-o", str(tmp_path / "x.svg")))
    assert "did you mean 'perf_per_watt'" in line and '"' not in line
    line = one_error_line(invoke(seed_catalog_url, "compare", "hp-eva4400", "hp-eva4400"))
    assert "two different solutions" in line


def test_the_disk_basis_choices_are_the_stored_vocabulary():
    from esrpdb.cli.compare_command import DiskBasis
    from esrpdb.schema.vocabulary import DISK_BASES

    assert tuple(basis.value for basis in DiskBasis) == DISK_BASES
