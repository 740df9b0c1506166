"""The stage-one/stage-two boundary: a record that lies about its types never reaches SQL."""

from __future__ import annotations

import dataclasses
import types

import pytest
from sqlalchemy import text

from esrpdb.ingest import sanity
from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES

GOOD = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"


def good_report():
    return jetstress_html.parse(GOOD.name, GOOD.read_bytes())


def test_parsed_fixtures_pass():
    assert sanity.problems(good_report()) == []


def test_a_string_in_a_float_field_and_a_negative_rate_are_named():
    report = good_report()
    row = dataclasses.replace(report.io_tables[0].rows[2], db_reads_per_s=-1.0)
    table = dataclasses.replace(report.io_tables[0], rows=(report.io_tables[0].rows[0], report.io_tables[0].rows[1], row))
    bad = dataclasses.replace(report, achieved_iops="1573.982", io_tables=[table, *report.io_tables[1:]])
    with pytest.raises(ParseError) as error:
        sanity.check("x.html", bad)
    message = str(error.value)
    assert message.startswith("x.html: the parsed record fails its sanity check: ")
    assert "achieved_iops: '1573.982' is a str, expected float or int" in message
    assert "io_tables[0].rows[2].db_reads_per_s: -1.0 is negative" in message


def test_infinity_and_nan_are_named():
    """Neither is a measurement, and neither can travel in the JSON a report is written as."""
    report = good_report()
    bad = dataclasses.replace(report, achieved_iops=float("inf"), target_iops=float("nan"))
    found = sanity.problems(bad)
    assert "achieved_iops: inf is not a finite number" in found and "target_iops: nan is not a finite number" in found


def test_the_pipeline_refuses_such_a_record_before_any_sql(fresh_database_url, catalog, tmp_path):
    """A format module of our own (injected, as a library user would) returns a lying record."""
    (tmp_path / "lying.html").write_bytes(GOOD.read_bytes())
    liar = types.SimpleNamespace(
        FORMAT="jetstress_html",
        identify=lambda name, head: True,
        parse=lambda name, data: dataclasses.replace(good_report(), target_iops="a lot"),
    )
    (outcome,) = ingest_paths(catalog.engine, [tmp_path / "lying.html"], modules=[liar])
    assert outcome.status == "failed"
    assert "target_iops: 'a lot' is a str" in outcome.message
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select count(*) from source_files")).scalar_one() == 0
