"""`esrpdb parse`: stage one and stage two of a file, as JSON, with no database involved."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import FIXTURES

runner = CliRunner()
SSD = FIXTURES / "jetstress_html" / "seed002-x25e-ssd" / "Performance_2008_10_5_21_32_32.html"


def test_raw_keeps_units_as_printed_and_normalised_converts_them():
    raw = json.loads(runner.invoke(app, ["parse", str(SSD)]).stdout)
    assert raw["format"] == "jetstress_html" and raw["record"]["achieved_iops"] == 10650.201
    table = raw["record"]["io_tables"][0]
    assert (table["latency_unit"], table["rows"][0]["db_read_latency"]) == ("s", 0.001)
    normalised = json.loads(runner.invoke(app, ["parse", "--normalised", str(SSD)]).stdout)
    assert normalised["record"]["latencies"][0]["db_read_latency_ms"] == 1.0


def test_perfmon_shows_header_columns_and_first_rows():
    shown = json.loads(runner.invoke(app, ["parse", str(FIXTURES / "perfmon" / "seed000-hp-eva4400.csv")]).stdout)
    assert shown["record"]["header"]["bias_minutes"] == 240
    assert len(shown["record"]["first_rows"]) == 20


def test_unknown_file_is_a_one_line_error(tmp_path):
    stray = tmp_path / "notes.txt"
    stray.write_text("shopping list\n")
    result = runner.invoke(app, ["parse", str(stray)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: notes.txt: not a recognised format")
