"""Jetstress *.log files: events with timestamps and thresholds; bad input named by file and line."""

from __future__ import annotations

from datetime import datetime

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import log as jetstress_log
from tests.helpers import FIXTURES

LOG = (
    "5/28/2011 11:38:14 AM -- Jetstress testing begins ...\r\n"
    "5/28/2011 11:38:30 AM -- Database read latency thresholds: (average: 20 msec/read, maximum: 100 msec/read).\r\n"
    "5/28/2011 11:38:30 AM -- Log write latency thresholds: (average: 10 msec/write, maximum: 100 msec/write).\r\n"
    "5/28/2011 1:40:37 PM -- Instance2836.1 (complete), Instance2836.2 (complete)\r\n"
    "C:\\Jetstress\\results\\Performance_2011_5_28_11_38_30.blg has 486 samples.\r\n"
)


def parse(data: bytes, name: str = "Performance_2011_5_28_11_38_30.log"):
    return jetstress_log.parse(name, data)


def test_events_thresholds_and_continuation_lines():
    log = parse(LOG.encode())
    assert [e.logged_at for e in log.events][:2] == [datetime(2011, 5, 28, 11, 38, 14), datetime(2011, 5, 28, 11, 38, 30)]
    assert log.events[-1].logged_at == datetime(2011, 5, 28, 13, 40, 37)
    assert "486 samples" in log.events[-1].message  # the wrapped line belongs to the event before it
    t = log.thresholds
    assert (t.unit, t.db_read_avg, t.db_read_max, t.log_write_avg, t.log_write_max) == ("ms", 20, 100, 10, 100)


def test_utf16_with_bom_reads_the_same():
    assert parse(LOG.encode("utf-16")).events == parse(LOG.encode()).events


@pytest.mark.parametrize("name, head, expected", [
    ("Performance_x.log", LOG.encode(), True),
    ("notes.txt", b"5/28/2011 11:38:14 AM -- Jetstress testing begins ...\n", True),
    ("notes.txt", b"5/28/2011 11:38:14 AM -- backup finished\n", False),
    ("x.html", (FIXTURES / "jetstress_html" / "seed002-x25e-ssd" / "Performance_2008_10_5_21_32_32.html").read_bytes()[:8192], False),
    ("x.csv", (FIXTURES / "perfmon" / "typeperf-sample.csv").read_bytes()[:8192], False),
])
def test_identify(name, head, expected):
    assert jetstress_log.identify(name, head) is expected


@pytest.mark.parametrize("data, fragment", [
    (b"", "the file is empty"),
    (b"\x00\x01\x02binary\x00" * 10, "line 1: binary data"),
    ("5/28/2011 11:38:14 AM -- caf\u00e9\n".encode("latin-1"), "line 1: byte 28 is not valid utf-8"),
    (b"<html><body>not a log</body></html>", "line 1: no timestamped Jetstress events"),
    (LOG.encode()[:12], "line 1: no timestamped Jetstress events"),  # truncated inside the first timestamp
    (LOG.encode() + b"5/28/2011 1:41:00 PM -- " + b"x" * (2 << 20) + b"\n", "line 6: line is longer than"),
])
def test_bad_input_names_file_and_line(data, fragment):
    with pytest.raises(ParseError) as error:
        parse(data, "bad.log")
    assert str(error.value).startswith("bad.log")
    assert fragment in str(error.value).replace(" › ", ": ")
