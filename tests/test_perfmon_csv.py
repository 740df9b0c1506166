"""PDH CSV/TSV streaming reader: seed 000 Figure 7 from the fixtures, encodings, bad input, memory."""

from __future__ import annotations

import io
import shutil
import tracemalloc
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from esrpdb.fixtures import generate_perfmon_power
from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import config as jetstress_config, perfmon as perfmon_csv, power as power_log
from esrpdb.ingest.formats.perfmon import iter_samples, open_perfmon, parse_counter_path
from esrpdb.ingest.pipeline import ingest_paths

REPO = Path(__file__).parents[1]
PERFMON = REPO / "fixtures" / "perfmon"
REPORTS = {"seed000-dell-equallogic.csv": REPO / "fixtures" / "jetstress_html" / "seed000-dell-equallogic"
                                          / "Performance_2008_9_18_12_48_31.html",
           "seed000-hp-eva4400.csv": REPO / "fixtures" / "jetstress_html" / "seed000-hp-eva4400"
                                     / "Performance_2008_9_18_11_31_40.html"}
SEED000 = REPO / "fixtures" / "documents" / "000_cfe3f1c33c0344dc.txt"
MIB = 2**20
EDT = timezone(timedelta(hours=-4))

# seed 000, Appendix A, Figure 7 (Dell column, HP column), as printed
FIGURE_7 = {
    "Average disk transfers per second (from performance logs)": ("8,249", "3,607"),
    "Average disk read MB per second": ("21.824", "10.187"),
    "Average disk write MB per second": ("41.549", "16.650"),
    "Average disk transfers MB per second": ("63.4", "26.8"),
}


def _read(path: Path):
    with path.open("rb") as stream, open_perfmon(path.name, stream) as reader:
        return reader.header, reader.columns, list(reader)


def _stored(url: str, tmp_path: Path, fixture: str, sql: str) -> list:
    """Ingest the export beside its report, as a result folder holds them, and read what the catalogue
    stores for the run: the figures the views and the audit read come from the SQL, never from Python."""
    from sqlalchemy import create_engine, text

    report = REPORTS[fixture]
    shutil.copy(report, tmp_path / report.name)
    shutil.copy(PERFMON / fixture, tmp_path / report.with_suffix(".csv").name)
    engine = create_engine(url)
    try:
        outcomes = ingest_paths(engine, [tmp_path])
        assert [o.status for o in outcomes] == ["loaded", "loaded"], [o.message for o in outcomes]
        with engine.connect() as conn:
            return conn.execute(text(sql)).all()
    finally:
        engine.dispose()


def test_figure_7_is_what_the_seed_prints():
    assert SEED000.is_file(), f"seed missing: {SEED000}"
    lines = SEED000.read_text().splitlines()
    for label, (dell, hp) in FIGURE_7.items():
        assert f"{label}\t{dell}\t{hp}" in lines, label


@pytest.mark.parametrize(("fixture", "column"), [("seed000-dell-equallogic.csv", 0), ("seed000-hp-eva4400.csv", 1)])
def test_averages_reproduce_seed_000_figure_7(fresh_database_url, tmp_path, fixture, column):
    """The run's throughput as stored from its export's samples (run_throughput) prints as Figure 7 does."""
    ((transfers, read_mib, write_mib, bytes_mib, source),) = _stored(
        fresh_database_url, tmp_path, fixture,
        "select disk_transfers_per_s, read_mb_per_s, write_mb_per_s, transfer_mb_per_s, throughput_source "
        "from run_throughput")
    printed = {label: values[column] for label, values in FIGURE_7.items()}

    assert source == "perfmon"
    assert f"{transfers:,.0f}" == printed["Average disk transfers per second (from performance logs)"]
    assert f"{read_mib:.3f}" == printed["Average disk read MB per second"]
    assert f"{write_mib:.3f}" == printed["Average disk write MB per second"]
    assert f"{bytes_mib:.1f}" == printed["Average disk transfers MB per second"]
    # The seed's own relation: transfers MB/s = read + write (convention-free, so it holds in MiB too).
    assert bytes_mib == pytest.approx(read_mib + write_mib, rel=1e-12)


@pytest.mark.parametrize(
    ("counter", "printed", "digits", "scale"),
    [
        ("LogicalDisk(c:\\db1)\\Disk Reads/sec", "217.757", 3, 1),
        ("LogicalDisk(c:\\db1)\\Disk Writes/sec", "300.666", 3, 1),
        ("LogicalDisk(c:\\db1)\\Avg. Disk sec/Read", "0.0186", 4, 1),  # the log line; the table rounds to 0.019
        ("LogicalDisk(c:\\log1)\\Disk Writes/sec", "132.335", 3, 1),
        ("LogicalDisk(c:\\log1)\\Avg. Disk Bytes/Write", "5,036.292", 3, 1),
        # ESE latency counters are in ms; the same 0.0186 s as the volume
        (
            "MSExchange Database ==> Instances(JetstressWin/Instance524.1)\\I/O Database Reads Average Latency",
            "0.0186",
            4,
            1e-3,
        ),
        ("Processor(_Total)\\% Processor Time", "13.229", 3, 1),
        ("Memory\\Available MBytes", "11,721.519", 3, 1),
    ],
)
def test_dell_volume_instance_and_host_counters_match_appendix_g(fresh_database_url, tmp_path, counter, printed,
                                                                digits, scale):
    """Each counter's mean as stored for the run (perf_counter_means) prints as Appendix G does."""
    assert printed in SEED000.read_text()
    means = dict(_stored(fresh_database_url, tmp_path, "seed000-dell-equallogic.csv",
                         "select c.counter_path, m.value_sum / m.value_count from perf_counters c "
                         "join perf_counter_means m on m.counter_id = c.id"))
    mean = means["\\\\SVCTAG-1F6HWG1\\" + counter] * scale
    assert f"{mean:,.{digits}f}" == printed


def test_header_columns_and_utc_timestamps():
    header, columns, rows = _read(PERFMON / "seed000-dell-equallogic.csv")
    assert header.banner == "(PDH-CSV 4.0) (Eastern Daylight Time)(240)"
    assert (header.pdh_format, header.time_zone_name, header.bias_minutes) == (
        "PDH-CSV 4.0",
        "Eastern Daylight Time",
        240,
    )
    assert (header.assumed_utc, header.separator, header.encoding, header.line) == (False, ",", "utf-8", 1)

    assert len(columns) == 20 and {c.machine for c in columns} == {"SVCTAG-1F6HWG1"}
    instance = next(c for c in columns if c.object == "MSExchange Database ==> Instances")
    assert (instance.instance, instance.parent, instance.instance_name) == (
        "JetstressWin/Instance524.1",
        "JetstressWin",
        "Instance524.1",
    )
    assert any(c.object == "LogicalDisk" and c.instance == "c:\\db1" for c in columns)

    # 505 samples at 15 s inside "Performance logging begins/ends" 12:48:32 PM - 2:54:57 PM EDT
    assert len(rows) == 505
    first, last = rows[0][0], rows[-1][0]
    assert first.tzinfo == timezone.utc
    assert datetime(2008, 9, 18, 12, 48, 32, tzinfo=EDT) <= first < datetime(2008, 9, 18, 12, 48, 33, tzinfo=EDT)
    assert last <= datetime(2008, 9, 18, 14, 54, 57, tzinfo=EDT)
    assert first.hour == 16  # UTC = local + 240 minutes


def test_blank_samples_are_none():
    _, columns, rows = _read(PERFMON / "seed000-dell-equallogic.csv")
    memory = next(i for i, c in enumerate(columns) if c.counter == "Available MBytes")
    first = rows[0][1]
    assert first[memory] is not None and all(v is None for i, v in enumerate(first) if i != memory)
    assert sum(all(v is None for v in values) for _, values in rows) == 3  # dropped whole rows
    values = [row[memory] for _, row in rows]
    assert (sum(v is not None for v in values), sum(v is None for v in values)) == (502, 3)


def test_tsv_utf16_twin_has_the_same_rows():
    header, columns, rows = _read(PERFMON / "seed000-dell-equallogic.tsv")
    _, csv_columns, csv_rows = _read(PERFMON / "seed000-dell-equallogic.csv")
    assert (header.pdh_format, header.separator, header.encoding) == ("PDH-TSV 4.0", "\t", "utf-16-le")
    assert columns == csv_columns and rows == csv_rows


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
        lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
        lambda text: b"\xff\xfe" + text.encode("utf-16-le"),
        lambda text: text.encode("utf-16-le"),  # no byte-order mark
    ],
    ids=["utf-8-bom", "utf-16-be-bom", "utf-16-le-bom", "utf-16-le-no-bom"],
)
def test_other_encodings_give_the_same_rows(encode):
    source = PERFMON / "seed000-hp-eva4400.csv"
    _, columns, rows = _read(source)
    with open_perfmon("re-encoded.csv", io.BytesIO(encode(source.read_bytes().decode()))) as reader:
        assert reader.columns == columns and list(reader) == rows


def test_typeperf_output():
    header, columns, rows = _read(PERFMON / "typeperf-sample.csv")
    assert (header.banner, header.time_zone_name, header.bias_minutes, header.assumed_utc) == (
        "(PDH-CSV 4.0)",
        None,
        None,
        True,
    )
    assert header.line == 2  # after the blank first line
    assert len(rows) == 12  # "Exiting, please wait..." and "The command completed successfully." ignored
    assert rows[0][0] == datetime(2008, 10, 5, 21, 14, 21, 123000, tzinfo=timezone.utc)
    disk = columns[2]
    assert (disk.object, disk.instance, disk.counter) == ("PhysicalDisk", "0 C:", "Disk Transfers/sec")
    assert (columns[3].instance_name, columns[3].instance_index) == ("svchost", 1)


def test_iter_samples_flattens_the_rows():
    path = PERFMON / "seed000-hp-eva4400.csv"
    _, columns, rows = _read(path)
    with path.open("rb") as stream, open_perfmon(path.name, stream) as reader:
        flat = list(iter_samples(reader))
    assert len(flat) == sum(v is not None for _, values in rows for v in values)
    assert flat[0] == (rows[0][0], 19, rows[0][1][19])  # only Memory has a value in row 0


def test_column_index_names_what_exists():
    path = PERFMON / "seed000-dell-equallogic.csv"
    with path.open("rb") as stream, open_perfmon(path.name, stream) as reader:
        assert reader.column_index("disk transfers/sec", instance="_Total") == 0
        with pytest.raises(ParseError) as caught:
            reader.column_index("Disk Reads/sec", instance="c:\\db9")
    text = str(caught.value)
    assert text.startswith(path.name) and "line 1" in text and "c:\\db9" in text and "LogicalDisk(c:\\db1)" in text


@pytest.mark.parametrize(
    ("path", "machine", "obj", "instance", "counter"),
    [
        ("\\\\HOST\\Memory\\Available MBytes", "HOST", "Memory", None, "Available MBytes"),
        ("\\Processor(_Total)\\% Processor Time", None, "Processor", "_Total", "% Processor Time"),
        ("\\\\H\\LogicalDisk(c:\\db1)\\Avg. Disk sec/Read", "H", "LogicalDisk", "c:\\db1", "Avg. Disk sec/Read"),
        (
            "\\\\H\\MSExchange Database ==> Instances(edgetransport/Transport Mail Database)"
            "\\I/O Database Reads (Attached) Average Latency",
            "H",
            "MSExchange Database ==> Instances",
            "edgetransport/Transport Mail Database",
            "I/O Database Reads (Attached) Average Latency",
        ),
        (
            "\\\\H\\Network Interface(Intel(R) PRO, port 2 (copper))\\Bytes Total/sec",
            "H",
            "Network Interface",
            "Intel(R) PRO, port 2 (copper)",
            "Bytes Total/sec",
        ),
        ("\\\\H\\Process(svchost#12)\\% Processor Time", "H", "Process", "svchost#12", "% Processor Time"),
    ],
)
def test_counter_paths(path, machine, obj, instance, counter):
    parsed = parse_counter_path(path)
    assert (parsed.machine, parsed.object, parsed.instance, parsed.counter) == (machine, obj, instance, counter)
    assert str(parsed) == path


@pytest.mark.parametrize(
    "text", ["Disk Transfers/sec", "\\\\HOST", "\\\\HOST\\Object(x\\Counter", "\\\\HOST\\\\Counter", "\\\\H\\Obj\\"]
)
def test_not_counter_paths(text):
    with pytest.raises(ValueError):
        parse_counter_path(text)


def test_identify():
    for path in PERFMON.glob("*.[ct]sv"):
        head = path.read_bytes()[:8192]
        assert perfmon_csv.identify(path.name, head), path
        assert not power_log.identify(path.name, head) and not jetstress_config.identify(path.name, head), path
    others = [
        *REPO.joinpath("fixtures", "power").glob("*.csv"),
        SEED000,
        *REPO.joinpath("fixtures", "jetstress_html").rglob("*.html"),
    ]
    others.append(REPO / "fixtures" / "config" / "JetstressConfig-HM.xml")
    for path in others:
        assert not perfmon_csv.identify(path.name, path.read_bytes()[:8192]), path


def test_fixtures_are_reproducible_byte_for_byte():
    first, second = generate_perfmon_power.build_all(), generate_perfmon_power.build_all()
    assert first == second
    for relative, (data, _) in first.items():
        assert (REPO / "fixtures" / relative).read_bytes() == data, f"{relative} is stale: run the generator"


# --- bad input: every error names the file and the line ----------------------------------------

HEADER = (
    '"(PDH-CSV 4.0) (Eastern Daylight Time)(240)",'
    '"\\\\H\\LogicalDisk(_Total)\\Disk Transfers/sec","\\\\H\\Memory\\Available MBytes"\r\n'
)
ROW = '"09/18/2008 12:48:32.417","8249.000","11721.519"\r\n'


def _error(name: str, data: bytes) -> str:
    with pytest.raises(ParseError) as caught:
        with open_perfmon(name, io.BytesIO(data)) as reader:
            for _ in reader:
                pass
    text = str(caught.value)
    assert text.startswith(name), text
    return text


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"", None, "empty file"),
        (b"\r\n\r\n", None, "empty file"),
        ((HEADER + ROW + '"09/18/2008 12:48:47.417","82').encode(), "line 3", "malformed CSV"),  # truncated
        ((HEADER + ROW + '"09/18/2008 12:48:47.417","1"\r\n').encode(), "line 3", "row has 2 cells, the header has 3"),
        ((HEADER + '"2008-09-18 12:48:32","1","2"\r\n').encode(), "line 2", "bad timestamp"),
        ((HEADER + '"09/31/2008 12:48:32.000","1","2"\r\n').encode(), "line 2", "bad timestamp"),
        (
            (HEADER + ROW + '"09/18/2008 12:48:47.417","1,5","2"\r\n').encode(),
            "line 3",
            "column \"\\\\H\\LogicalDisk(_Total)\\Disk Transfers/sec\": '1,5' is not a number",
        ),
        (('"(PDH-CSV 4.0) (UTC)(0)"\r\n').encode(), "line 1", "expected a PDH header"),
        (('"Time","\\\\H\\Memory\\Available MBytes"\r\n').encode(), "line 1", "expected a PDH banner"),
        (
            ('"(PDH-CSV 4.0)","Available MBytes"\r\n').encode(),
            "line 1",
            "column 1: 'Available MBytes' is not a counter path",
        ),
        (HEADER.encode() + ROW.encode() + b'"09/18/2008 12:48:47.417","\x00\x01\x02","3"\r\n', "line 3", "binary data"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "line 1", "not valid utf-8"),
    ],
    ids=[
        "empty",
        "blank-lines",
        "truncated",
        "cells",
        "iso-time",
        "no-such-day",
        "non-numeric",
        "no-counters",
        "banner",
        "path",
        "nul",
        "png",
    ],
)
def test_bad_input(data, line, message):
    text = _error("bad.csv", data)
    assert message in text
    assert line is None or line in text


def test_html_report_is_refused_at_line_1():
    html = next((REPO / "fixtures" / "jetstress_html").rglob("*.html"))
    assert "line 1" in _error(html.name, html.read_bytes())


def test_invalid_utf8_is_found_on_its_line():
    data = (HEADER + ROW).encode() + '"09/18/2008 12:48:47.417","8249.000","caf\u00e9"\r\n'.encode("latin-1")
    assert "line 3: bytes that are not valid utf-8" in _error("latin1.csv", data)


def test_latin1_where_utf16_is_declared():
    good = b"\xff\xfe" + (HEADER + ROW).encode("utf-16-le")
    text = _error("mixed.csv", good + '"09/18/2008 12:48:47.417","8249.000","caf\u00e9"\r\n'.encode("latin-1"))
    assert "line 3" in text


@pytest.mark.parametrize("where", ["header", "row"])
def test_five_megabyte_line_is_refused_without_reading_it_whole(where):
    huge = '"' + "9" * (5 * MIB) + '"'
    data = (
        HEADER.replace("\r\n", "," + huge + "\r\n")
        if where == "header"
        else HEADER + ROW.replace("\r\n", "," + huge + "\r\n")
    )
    tracemalloc.start()
    try:
        text = _error("huge.csv", data.encode())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"line {1 if where == 'header' else 2}: line longer than 1,048,576 characters" in text
    assert peak < 5 * MIB + 4 * MIB  # the 5 MB input itself, plus at most one bounded line


@pytest.mark.slow
def test_streaming_uses_constant_memory(tmp_path):
    """~50 MB streamed with a peak of Python allocations far below the file size."""
    columns = 40
    header = ",".join(
        ['"(PDH-CSV 4.0) (Eastern Daylight Time)(240)"']
        + [f'"\\\\H\\LogicalDisk(c:\\db{i})\\Disk Transfers/sec"' for i in range(columns)]
    )
    values = ",".join(f'"{8249.2130458968 + i:.10f}"' for i in range(columns))
    start = datetime(2008, 9, 18, 12, 48, 32)
    path = tmp_path / "big.csv"
    rows = 50 * MIB // (len(values) + 28)
    with path.open("w", newline="") as out:
        out.write(header + "\r\n")
        out.writelines(f'"{start + timedelta(seconds=15 * n):%m/%d/%Y %H:%M:%S}.417",{values}\r\n' for n in range(rows))
    assert path.stat().st_size > 45 * MIB

    tracemalloc.start()
    try:
        with path.open("rb") as stream, open_perfmon(path.name, stream) as reader:
            count = sum(1 for _ in reader)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == rows
    assert peak < 4 * MIB, f"peak {peak / MIB:.1f} MiB"
