"""Output that cannot crash: markup-like values print as they are, JSON is strict for every type."""

from __future__ import annotations

import io
import json
import math
from datetime import timedelta
from decimal import Decimal
from uuid import UUID

from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.cli.render import OutputFormat, render

runner = CliRunner()


def test_sql_prints_markup_like_values_as_they_are(fresh_database_url):
    result = runner.invoke(app, ["--database-url", fresh_database_url, "sql", "select '[/x]' as v, '[[disks]]' as \"[b]w\""])
    assert result.exit_code == 0, result.output
    assert "[/x]" in result.stdout and "[[disks]]" in result.stdout and "[b]w" in result.stdout


def test_table_renderer_escapes_every_cell_title_and_header():
    out = io.StringIO()
    render(["[red]machine"], [("WIN-[/x]",), ("[[disks]] missing",)], OutputFormat.table, title="[bold]Runs", out=out)
    text = out.getvalue()
    for expected in ("[red]machine", "WIN-[/x]", "[[disks]] missing", "[bold]Runs"):
        assert expected in text


def test_sql_json_is_strict_for_every_postgresql_type(fresh_database_url):
    statement = (
        "select interval '1 day 2 hours 3.5 seconds' as i, time '10:11:12' as t, "
        "'4f1a6a2e-1b7e-4c55-9d0e-1c7c1f8f6a11'::uuid as u, '\\xdead'::bytea as b, "
        "'NaN'::float8 as nan, '-Infinity'::float8 as ninf, 'Infinity'::numeric as inf, '10.0.0.1/8'::inet as ip, "
        "'{\"a\": [1, 2.5]}'::jsonb as j, int4range(1, 5) as r, 'infinity'::timestamp as ts, "
        "'-infinity'::date as d, 2.5::numeric as n, array[1, 2] as a")
    result = runner.invoke(app, ["--database-url", fresh_database_url, "sql", statement, "--format", "json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))[0]
    assert row == {
        "i": "P1DT2H3.5S", "t": "10:11:12", "u": "4f1a6a2e-1b7e-4c55-9d0e-1c7c1f8f6a11", "b": "\\xdead",
        "nan": "NaN", "ninf": "-Infinity", "inf": "Infinity", "ip": "10.0.0.1/8", "j": {"a": [1, 2.5]},
        "r": "[1, 5)", "ts": "infinity", "d": "-infinity", "n": 2.5, "a": [1, 2],
    }


def test_csv_writes_jsonb_and_arrays_as_json():
    out = io.StringIO()
    render(["j", "a", "x"], [({"a": [1, 2]}, [1, None], None)], OutputFormat.csv, out=out)
    assert out.getvalue().splitlines()[1] == '"{""a"": [1, 2]}","[1, null]",'


def test_json_renderer_never_writes_a_bare_nan():
    out = io.StringIO()
    render(["f", "d", "td", "u"], [(math.nan, Decimal("NaN"), timedelta(minutes=90), UUID(int=1))], OutputFormat.json, out=out)
    assert json.loads(out.getvalue()) == [{"f": "NaN", "d": "NaN", "td": "PT1H30M", "u": str(UUID(int=1))}]


def test_a_multi_problem_error_prints_every_problem(tmp_path):
    from tests.helpers import FIXTURES

    invalid = FIXTURES / "config" / "JetstressConfig-template-invalid.xml"
    result = runner.invoke(app, ["parse", str(invalid)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0].endswith("invalid Jetstress configuration, 6 problems:")
    assert len([line for line in lines if line.lstrip().startswith("- ")]) == 6


def test_an_80_column_table_never_splits_a_number(capsys):
    """Too wide for 80 characters: the columns that fit, every number whole, the others named on stderr
    (issue 47: a table that fits, not a block per row); with --columns, the ones asked for."""
    out = io.StringIO()
    columns = ["solution", "run_label", "disk_basis", "achieved_iops_per_disk", "log_iops_per_disk",
               "total_iops_per_disk", "db_read_latency_ms", "active_power_w", "iops_source"]
    rows = [("dell-eql-2x-ps5000xv", "Run 2", "active", 5239.764, 422.697, 5662.461, 16.125, 292.1, "document_table")]
    render(columns, rows, OutputFormat.table, out=out, width=80)
    text = out.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines())
    for number in ("5239.76", "422.697", "5662.46"):
        assert number in text, text
    assert "achieved" in text and "IOPS/disk" in text and "row 1" not in text  # the header wrapped between words
    assert capsys.readouterr().err.startswith(
        "note: 3 of 9 columns left out to fit 80 characters: db_read_latency_ms, active_power_w, iops_source")
    out = io.StringIO()
    render(columns, rows, OutputFormat.table, out=out, width=80,
           chosen=["solution,db_read_latency_ms,active_power_w,iops_source"])
    text = out.getvalue()
    assert "16.125" in text and "292.1" in text and "DB read" in text and "active power (W)" in text
    assert capsys.readouterr().err == ""


def test_a_narrow_table_stays_a_table_with_word_headers():
    out = io.StringIO()
    render(["solution", "total_iops"], [("hp-eva4400", 3576.421)], OutputFormat.table, out=out, width=80)
    text = out.getvalue()
    assert "┃ solution   ┃ total IOPS ┃" in text and "3576.42" in text
