"""The real PowerShell Export-Counter recording (fixtures/perfmon/real): CSV and TSV twins.

Lower-case counter paths, UTF-8 without BOM, `" "` blanks in the first row and a
"(Pacific Standard Time)(480)" banner: the reader must take it as printed.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from esrpdb.ingest import registry
from esrpdb.ingest.formats import perfmon as perfmon_csv
from esrpdb.ingest.formats.perfmon import CounterPath, open_perfmon

REAL = Path(__file__).parents[1] / "fixtures" / "perfmon" / "real"
PST = timezone(timedelta(hours=-8))


def read(name: str):
    with (REAL / name).open("rb") as stream, open_perfmon(name, stream) as reader:
        return reader.header, reader.columns, list(reader)


@pytest.mark.parametrize("name", ["CounterSamples.csv", "CounterSamples.tsv"])
def test_real_export_parses_to_25_samples_of_10_counters(name):
    head = (REAL / name).read_bytes()[: registry.HEAD_BYTES]
    assert registry.detect(name, head) is perfmon_csv
    header, columns, rows = read(name)
    assert header.encoding == "utf-8"
    assert header.separator == ("," if name.endswith(".csv") else "\t")
    assert header.time_zone_name == "Pacific Standard Time" and header.bias_minutes == 480
    assert len(columns) == 10 and len(rows) == 25
    assert all(len(values) == 10 for _, values in rows)
    assert columns[0] == CounterPath(
        "charlieparker", "network interface", "intel[r] ethernet connection i218-lm", "bytes total/sec"
    )
    assert columns[2].instance == "isatap.{ea2a01ef-c879-4737-9677-c2fbbc1b5af4}"
    assert columns[6] == CounterPath("charlieparker", "memory", None, "% committed bytes in use")
    assert columns[8] == CounterPath("charlieparker", "physicaldisk", "_total", "% disk time")
    # first row: rates are " " (need two raw samples); the instantaneous counters have values
    first_stamp, first = rows[0]
    assert first_stamp == datetime(2016, 11, 26, 13, 46, 30, 874000, PST)
    assert first == [None] * 6 + [86.93735103284412, None, None, 0.0]
    assert all(v is not None for _, values in rows[1:] for v in values)
    assert rows[1][1][1] == 2345.3290343446924
    assert rows[-1][0] == datetime(2016, 11, 26, 13, 47, 42, 983000, PST)
    stamps = [stamp for stamp, _ in rows]
    assert stamps == sorted(stamps) and all(s.tzinfo is not None for s in stamps)


def test_csv_and_tsv_are_identical():
    csv_header, csv_columns, csv_rows = read("CounterSamples.csv")
    tsv_header, tsv_columns, tsv_rows = read("CounterSamples.tsv")
    assert csv_columns == tsv_columns
    assert csv_rows == tsv_rows
    assert (csv_header.pdh_format, tsv_header.pdh_format) == ("PDH-CSV 4.0", "PDH-TSV 4.0")
