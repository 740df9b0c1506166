"""Power-analyser CSV: seed 002 idle/active watts from the fixtures, windows, and bad input."""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import config as jetstress_config, perfmon as perfmon_csv, power as power_log
from esrpdb.ingest.formats.power import PowerSample, parse, parse_timestamp
from esrpdb.ingest.pipeline import ingest_paths

REPO = Path(__file__).parents[1]
POWER = REPO / "fixtures" / "power"
SEED002 = REPO / "fixtures" / "documents" / "002_2e1b37b2175e5892.txt"
REPORTS = {"seed002-savvio-hdd.csv": REPO / "fixtures" / "jetstress_html" / "seed002-savvio-hdd"
                                     / "Performance_2008_10_21_16_24_35.html",
           "seed002-x25e-ssd.csv": REPO / "fixtures" / "jetstress_html" / "seed002-x25e-ssd"
                                   / "Performance_2008_10_5_21_32_32.html"}

# (fixture, Appendix A row prefix, median run column, Appendix D Test Start / End, printed idle, active)
CASES = [
    (
        "seed002-savvio-hdd.csv",
        "24 Seagate Savvio 15K SAS HDDs",
        1,
        "10/21/2008 4:05:25 PM",
        "10/21/2008 6:49:53 PM",
        "275.6",
        "292.1",
    ),
    (
        "seed002-x25e-ssd.csv",
        "3 Intel X25-E Extreme SATA SSDs",
        0,
        "10/5/2008 9:14:21 PM",
        "10/5/2008 11:32:49 PM",
        "111.57",
        "115.83",
    ),
]


def _seed_text() -> str:
    assert SEED002.is_file(), f"seed missing: {SEED002}"
    return SEED002.read_text()


def _printed_power(table: str, run: int) -> tuple[str, str]:
    """Idle and active watts of one run, read from the seed's Appendix A table."""
    text = _seed_text()
    block = text[text.index(table) :]
    idle = re.search(r"Idle power \(lower is better\)\t(\S+)\t(\S+)\t(\S+)", block).groups()
    active = re.search(r"Active power \(lower is better\)\t(\S+)\t(\S+)\t(\S+)", block).groups()
    return idle[run], active[run]


def _run_power(url: str, folder: Path, report: Path, power_log_name: str, power_log: bytes) -> tuple[float, float]:
    """Ingest a report and a power log as a result folder holds them; the run's idle and active watts
    as the catalogue stores them (run_power, computed in SQL when the log is linked)."""
    from sqlalchemy import create_engine, text

    shutil.copy(report, folder / report.name)
    (folder / power_log_name).write_bytes(power_log)
    engine = create_engine(url)
    try:
        outcomes = ingest_paths(engine, [folder])
        assert [o.status for o in outcomes] == ["loaded", "loaded"], [o.message for o in outcomes]
        with engine.connect() as conn:
            return tuple(conn.execute(text("select idle_power_w, active_power_w from run_power")).one())
    finally:
        engine.dispose()


@pytest.mark.parametrize(("fixture", "table", "run", "start", "end", "idle_w", "active_w"), CASES)
def test_idle_and_active_power_reproduce_seed_002(fresh_database_url, tmp_path, fixture, table, run, start, end,
                                                  idle_w, active_w):
    assert _printed_power(table, run) == (idle_w, active_w)
    text = _seed_text()
    assert f"Test Start Time** {start}" in text or f"Test Start Time</b>\t{start}" in text
    assert f"Test End Time** {end}" in text or f"Test End Time</b>\t{end}" in text

    idle, active = _run_power(fresh_database_url, tmp_path, REPORTS[fixture], fixture, (POWER / fixture).read_bytes())

    digits = len(idle_w.split(".")[1])
    assert f"{idle:.{digits}f}" == idle_w
    assert f"{active:.{digits}f}" == active_w


@pytest.mark.parametrize(("fixture", "table", "run", "start", "end", "idle_w", "active_w"), CASES)
def test_fixture_shape(fixture, table, run, start, end, idle_w, active_w):
    data = (POWER / fixture).read_bytes()
    assert len(data) < 1_000_000
    log = parse(fixture, data)
    stamps = [s.timestamp for s in log.samples]
    assert all(b - a == timedelta(seconds=1) for a, b in zip(stamps, stamps[1:]))
    run_start, run_end = parse_timestamp(start), parse_timestamp(end)
    assert log.start < run_start - timedelta(seconds=120) and log.end >= run_end  # lead-in and tail exist
    assert all(s.watts is not None and s.watts > 0 for s in log.samples)


def test_headers_as_printed():
    hdd = parse("h.csv", (POWER / "seed002-savvio-hdd.csv").read_bytes())
    ssd = parse("s.csv", (POWER / "seed002-x25e-ssd.csv").read_bytes())
    assert (hdd.timestamp_column, hdd.watts_column) == ("timestamp", "watts")
    assert (ssd.timestamp_column, ssd.watts_column) == ("Time", "Power (W)")
    assert ssd.samples[0] == PowerSample(datetime(2008, 10, 5, 21, 11, 21), 113.75)


@pytest.mark.parametrize(
    "header",
    [
        "timestamp,watts",
        "Timestamp,Watts",
        "Time,Power (W)",
        "Date/Time, power(w)",
        "time,volts,amps,W",
        "DateTime,x,Power [W]",
    ],
)
def test_header_spellings(header):
    row = ["10/21/2008 4:05:25 PM"] + ["1.5"] * header.count(",")  # the timestamp column is first in each
    data = f"{header}\r\n{','.join(row)}\r\n".encode()
    assert power_log.identify("power.csv", data)
    log = parse("power.csv", data)
    assert log.samples == (PowerSample(datetime(2008, 10, 21, 16, 5, 25), 1.5),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2008-10-21T16:05:25", datetime(2008, 10, 21, 16, 5, 25)),
        ("2008-10-21 16:05:25.5", datetime(2008, 10, 21, 16, 5, 25, 500000)),
        ("2008-10-21T20:05:25Z", datetime(2008, 10, 21, 20, 5, 25, tzinfo=timezone.utc)),
        ("10/21/2008 4:05:25 PM", datetime(2008, 10, 21, 16, 5, 25)),
        ("10/21/2008 12:00:00 AM", datetime(2008, 10, 21, 0, 0, 0)),
        ("10/21/2008 12:30:00 PM", datetime(2008, 10, 21, 12, 30, 0)),
        ("10/21/2008 16:05:25", datetime(2008, 10, 21, 16, 5, 25)),
        ("10/21/2008 13:05:25 PM", None),
        ("21.10.2008 16:05", None),
    ],
)
def test_timestamps(text, expected):
    assert parse_timestamp(text) == expected


def test_windows_are_half_open_and_blank_samples_skipped(fresh_database_url, tmp_path):
    """Idle: the 120 s before the run's start; active: start <= t < end; a blank sample counts in neither."""
    report = REPORTS["seed002-savvio-hdd.csv"]  # Test Start 10/21/2008 4:05:25 PM, Test End 6:49:53 PM
    start, end = datetime(2008, 10, 21, 16, 5, 25), datetime(2008, 10, 21, 18, 49, 53)
    rows = [(start - timedelta(seconds=121), "1000")]  # just before the idle window
    rows += [(start - timedelta(seconds=120) + timedelta(seconds=i), str(i)) for i in range(4)]  # 0..3
    rows += [(start + timedelta(seconds=i), str(4 + i)) for i in range(6)]  # 4..9: the run
    rows += [(start + timedelta(seconds=6), ""), (end, "1000")]  # a blank sample; the end itself is outside
    log = "timestamp,watts\n" + "".join(f"{stamp:%Y-%m-%dT%H:%M:%S},{watts}\n" for stamp, watts in rows)
    assert _run_power(fresh_database_url, tmp_path, report, "power.csv", log.encode()) == (1.5, 6.5)


def test_identify():
    for path in POWER.glob("*.csv"):
        head = path.read_bytes()[:8192]
        assert power_log.identify(path.name, head)
        assert not perfmon_csv.identify(path.name, head) and not jetstress_config.identify(path.name, head)
    others = [
        *REPO.joinpath("fixtures", "perfmon").glob("*.[ct]sv"),
        SEED002,
        *REPO.joinpath("fixtures", "jetstress_html").rglob("*.html"),
    ]
    others.append(REPO / "fixtures" / "config" / "JetstressConfig-HM.xml")
    for path in others:
        assert not power_log.identify(path.name, path.read_bytes()[:8192]), path


# --- bad input: every error names the file and the line ----------------------------------------

GOOD = "timestamp,watts\r\n2008-10-21T16:02:25,281.6\r\n2008-10-21T16:02:26,280.1\r\n"


def _error(name: str, data: bytes) -> str:
    with pytest.raises(ParseError) as caught:
        parse(name, data)
    text = str(caught.value)
    assert text.startswith(name), text
    return text


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"", None, "empty file"),
        (b"timestamp,watts\r\n", "line 1", "no samples after the header"),
        ((GOOD + "2008-10-21T16:02:2").encode(), "line 4", "row has 1 cell, the header has 2"),  # truncated
        ((GOOD + '2008-10-21T16:02:27,"28').encode(), "line 4", "malformed CSV"),  # truncated inside quotes
        ((GOOD + "yesterday,280.0\r\n").encode(), "line 4", "bad timestamp 'yesterday'"),
        ((GOOD + "2008-10-21T16:02:27,280,5\r\n").encode(), "line 4", "row has 3 cells"),
        (
            (GOOD + "2008-10-21T16:02:27,two hundred\r\n").encode(),
            "line 4",
            "column 'watts': 'two hundred' is not a number",
        ),
        ((GOOD + "2008-10-21T16:02:27,-5\r\n").encode(), "line 4", "out of range"),
        (b"timestamp,volts\r\n2008-10-21T16:02:25,230\r\n", "line 1", "has no timestamp and watts columns"),
        ((GOOD + "2008-10-21T16:02:27+00:00,280\r\n").encode(), None, "mix local times"),
        (GOOD.encode() + "2008-10-21T16:02:27,28\u00b70\r\n".encode("latin-1"), "line 4", "not valid utf-8"),
        (
            b"\xff\xfe"
            + "timestamp,watts\r\n".encode("utf-16-le")
            + "2008-10-21T16:02:25,281\u00b76\r\n".encode("latin-1"),
            "line 2",
            "not valid utf-16-le",
        ),
        (GOOD.encode() + b"\x00\x01\x02\r\n", "line 4", "binary data"),
    ],
    ids=[
        "empty",
        "header-only",
        "truncated",
        "truncated-quote",
        "timestamp",
        "cells",
        "non-numeric",
        "negative",
        "header",
        "mixed-zones",
        "latin1",
        "latin1-in-utf16",
        "nul",
    ],
)
def test_bad_input(data, line, message):
    text = _error("power.csv", data)
    assert message in text
    assert line is None or line in text


def test_html_report_is_refused_at_its_header_line():
    html = next((REPO / "fixtures" / "jetstress_html").rglob("*.html"))
    assert "line 1" in _error(html.name, html.read_bytes())


def test_five_megabyte_line_is_refused():
    text = _error("huge.csv", ("timestamp,watts\r\n2008-10-21T16:02:25," + "9" * (5 * 2**20) + "\r\n").encode())
    assert "line 2: line longer than 1,048,576 characters" in text
