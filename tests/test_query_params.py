"""`--param column=value` is read as the column's type: booleans in words, typos refused."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest

from esrpdb.queries import canned
from esrpdb.queries.params import BadValue, convert


@pytest.mark.parametrize("text, expected", [
    ("true", True), ("True", True), ("yes", True), ("1", True), ("on", True),
    ("false", False), ("FALSE", False), ("no", False), ("0", False),
])
def test_booleans_in_words(text, expected):
    assert convert(16, text) is expected


def test_numbers_dates_and_text():
    assert convert(23, " 42 ") == 42 and convert(20, "-7") == -7
    assert convert(701, "1.5e3") == 1500.0
    assert convert(1700, "12.50") == Decimal("12.50")
    assert convert(1114, "2008-09-18 12:48:31") == datetime(2008, 9, 18, 12, 48, 31)
    assert convert(25, " as typed ") == " as typed "
    assert convert(None, "x") == "x"


@pytest.mark.parametrize("oid, text", [(16, "maybe"), (23, "1.5"), (23, "1_000"), (701, "fast"),
                                       (1700, "NaN"), (1114, "yesterday")])
def test_values_that_are_not_the_type_are_refused(oid, text):
    with pytest.raises(BadValue):
        convert(oid, text)


def test_typed_filters_on_the_seed(seed_catalog):
    engine = seed_catalog.engine
    everything = canned.query(engine, "median-runs")
    medians = {r for r in everything.rows if r[everything.columns.index("is_median_run")]}
    for word in ("true", "True", "yes", "1"):
        assert set(canned.query(engine, "median-runs", {"is_median_run": word}).rows) == medians
    run_id = everything.rows[0][everything.columns.index("run_id")]
    (row,) = canned.query(engine, "median-runs", {"run_id": str(run_id)}).rows
    assert row == everything.rows[0]
    assert len(canned.query(engine, "per-disk-iops", {"disk_basis": "all", "is_median_run": "no"}).rows) > 0


@pytest.mark.parametrize("params, words", [
    ({"is_median_run": "maybe"}, "is_median_run is a boolean"),
    ({"run_id": "Run 2"}, "run_id is an integer"),
    ({"total_iops": "lots"}, "total_iops is a number"),
    ({"no_such_column": "1"}, "has no column no_such_column"),
])
def test_bad_parameters_name_the_column_and_the_type(seed_catalog, params, words):
    with pytest.raises(canned.BadParameter, match=words):
        canned.query(seed_catalog.engine, "median-runs", params)
