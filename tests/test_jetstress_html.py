"""Jetstress HTML reports: every fixture, golden numbers the seeds print, tolerance, bad input."""

from __future__ import annotations

import os
import time
import tracemalloc
from datetime import datetime
from pathlib import Path

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.jetstress.records import BackupRow, ChecksumRow, HostCounter, InstanceConfig, IoRow, RecoveryRow, Thresholds
from tests.golden import HTML_FIXTURES, compare_expected, html_fixtures

FIXTURES = html_fixtures()
SEED_001_PERF = HTML_FIXTURES / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
SEED_001_BACKUP = HTML_FIXTURES / "seed001-md1220" / "DatabaseBackup_2011_6_3_10_55_33.html"
SEED_001_RECOVERY = HTML_FIXTURES / "seed001-md1220" / "SoftRecovery_2011_6_4_10_48_19.html"
SEED_000_DELL = HTML_FIXTURES / "seed000-dell-equallogic" / "Performance_2008_9_18_12_48_31.html"
SEED_002_SSD = HTML_FIXTURES / "seed002-x25e-ssd" / "Performance_2008_10_5_21_32_32.html"
FAIL_2013 = HTML_FIXTURES / "synthetic-2013-fail" / "Performance_2015_5_28_11_38_30.html"


def parse(path: Path):
    return jetstress_html.parse(path.name, path.read_bytes())


def variant(path: Path, old: bytes, new: bytes) -> bytes:
    """The fixture with one piece of markup changed: bad input built from a real layout."""
    data = path.read_bytes()
    assert data.count(old) >= 1, old
    return data.replace(old, new)


def parse_error(name: str, data: bytes) -> str:
    with pytest.raises(ParseError) as caught:
        jetstress_html.parse(name, data)
    return str(caught.value)


# --- every fixture ------------------------------------------------------------------


def test_fixtures_exist():
    assert FIXTURES, f"no fixtures under {HTML_FIXTURES}/**/*.html"


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_is_identified_and_parses(fixture: Path):
    data = fixture.read_bytes()
    assert jetstress_html.identify(fixture.name, data[: jetstress_html.SNIFF_BYTES])
    report = jetstress_html.parse(fixture.name, data)
    assert report.source_name == fixture.name
    assert report.key_values and report.log_events


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_matches_its_expected_json(fixture: Path):
    problem = compare_expected(fixture)
    assert problem is None, problem


# --- golden values the seeds print --------------------------------------------------


def test_seed_001_performance_2010():
    report = parse(SEED_001_PERF)
    assert report.report_type == "Performance"
    assert report.product_title == "Microsoft Exchange Jetstress 2010"
    assert (report.overall_result, report.jetstress_version, report.ese_version) == (
        "Pass",
        "14.01.0225.017",
        "14.01.0218.012",
    )
    assert report.achieved_iops == 1573.982 and report.target_iops == 1000
    assert (report.initial_database_bytes, report.final_database_bytes) == (10743244652544, 10748000993280)
    assert (report.thread_count, report.thread_scope, report.copies_per_database) == (7, "per_database", 2)
    assert (report.min_database_cache_mb, report.max_database_cache_mb) == (256.0, 2048.0)
    assert (report.insert_percent, report.delete_percent, report.replace_percent, report.read_percent) == (
        40,
        20,
        5,
        35,
    )
    assert report.test_description == "5000 mailboxes\n.2 IOP\n2048GB mailboxes"
    assert report.test_start == datetime(2011, 5, 28, 11, 38, 14)
    assert report.collection_end == datetime(2011, 5, 28, 13, 40, 11)
    assert len(report.instances) == 8
    assert report.instances[0] == InstanceConfig(
        "Instance2836.1", ("C:\\databases\\dbs_set1\\db1\\Jetstress001001.edb",), "C:\\databases\\dbs_set1\\log1"
    )
    tables = {table.scope: table for table in report.io_tables}
    assert list(tables) == ["transactional", "background_maintenance", "log_replication", "total"]
    assert {table.latency_unit for table in tables.values()} == {"ms"}
    first = tables["transactional"].rows[0]
    assert (first.instance, first.db_read_latency, first.db_reads_per_s, first.log_write_latency) == (
        "Instance2836.1",
        16.661,
        122.475,
        1.609,
    )
    assert [row.instance for row in tables["transactional"].rows] == [f"Instance2836.{n}" for n in range(1, 9)]
    assert tables["background_maintenance"].rows[0].maintenance_reads_per_s == 25.494
    assert tables["log_replication"].rows[0].log_read_avg_bytes == 232060.297
    # Seed 001's Total I/O header reads only "I/O DB Reads"; the values are read latencies.
    assert (tables["total"].rows[0].db_read_latency, tables["total"].rows[0].db_reads_per_s) == (16.661, 147.969)
    assert report.host_counters[0] == HostCounter("% Processor Time", 2.559, 0.935, 3.816)
    assert report.thresholds == Thresholds(
        unit="ms", db_read_avg=20, db_read_max=100, log_write_avg=10, log_write_max=100
    )
    assert report.log_events[0].message == "Jetstress testing begins ..."
    assert report.warnings == []


def test_seed_000_dell_2007_disk_subsystem():
    report = parse(SEED_000_DELL)
    assert (report.jetstress_version, report.ese_version) == ("08.02.0060.000", "08.01.0240.005")
    assert report.achieved_iops == 6667.51 and report.target_iops == 2550
    assert report.initial_database_bytes == 1337014042624
    assert (report.thread_count, report.thread_scope, report.log_buffers) == (21, "per_storage_group", 9000)
    assert report.max_database_cache_mb == 3328.0 and report.lazy_commit_percent == 55
    assert report.performance_logs == [
        "C:\\Program Files\\Exchange Jetstress\\Performance_2008_9_18_12_48_31.blg",
        "C:\\Program Files\\Exchange Jetstress\\DBChecksum_2008_9_18_14_55_0.blg",
    ]
    [table] = report.io_tables
    assert (table.scope, table.latency_unit) == ("disk_subsystem", "s")
    roles = [row.volume_role for row in table.rows]
    assert (roles.count("database"), roles.count("log")) == (13, 13)
    db1 = table.rows[0]
    assert (db1.instance, db1.db_read_latency, db1.db_write_latency, db1.db_reads_per_s) == (
        "c:\\db1",
        0.019,
        0.006,
        217.757,
    )
    assert db1.db_write_avg_bytes is None and db1.log_write_latency is None  # "(n/a)", and not a log volume
    log1 = next(row for row in table.rows if row.instance == "c:\\log1")
    assert (log1.log_write_latency, log1.log_writes_per_s, log1.log_write_avg_bytes) == (0.003, 132.335, 5036.292)
    assert report.host_counters[1] == HostCounter("Available Mbytes", 11721.519, 11218.0, 11749.0)
    assert report.thresholds == Thresholds(
        unit="s", db_read_avg=0.02, db_read_max=0.05, log_write_avg=0.01, log_write_max=0.05
    )
    assert len(report.log_events) == 77


def test_seed_002_ssd():
    report = parse(SEED_002_SSD)
    assert report.achieved_iops == 10650.201
    assert report.test_description is None
    assert [(row.instance, row.volume_role) for row in report.io_tables[0].rows] == [("E:", "database"), ("F:", "log")]


def test_seed_001_database_backup():
    report = parse(SEED_001_BACKUP)
    assert report.report_type == "DatabaseBackup"
    assert len(report.backup_rows) == 8
    assert report.backup_rows[0] == BackupRow("Instance2836.1", 1287466.59, 5 * 3600 + 51 * 60 + 58, 60.96)
    mean = sum(row.mb_per_s for row in report.backup_rows) / len(report.backup_rows)
    assert mean == pytest.approx(60.05, abs=0.005)
    assert report.overall_result is None  # the backup report prints no Test Summary
    assert (
        'Transactional I/O Performance: column "I/O DB Average Bytes" not recognised; its values are not kept'
        in report.warnings
    )


def test_seed_001_soft_recovery():
    report = parse(SEED_001_RECOVERY)
    assert report.report_type == "SoftRecovery"
    assert report.recovery_rows[0] == RecoveryRow("Instance2836.1", 507, 788.4409848)
    assert sum(row.log_files_replayed for row in report.recovery_rows) == 4079


def test_2013_fail_with_test_issues():
    report = parse(FAIL_2013)
    assert report.overall_result == "Fail"
    assert report.jetstress_version == "15.00.0995.000"
    assert (report.thread_count, report.thread_scope) == (7, "global")
    assert report.test_issues == [
        "Fail - The test has 1.05381856535713 Average Database Page Fault Stalls/sec. This should be not higher than 1.",
        "Fail - Instance2836.4 has 27.2 for I/O Database Reads Average Latency. This should be not higher than 20.",
    ]


def test_every_label_value_row_is_kept_with_its_line():
    report = parse(SEED_001_PERF)
    row = next(kv for kv in report.key_values if kv.label == "Achieved Transactional I/O per Second")
    assert (row.section, row.value) == ("Database Sizing and Throughput", "1573.982")
    assert (
        SEED_001_PERF.read_text().splitlines()[row.line - 1]
        == '<td class="grid_row_header">Achieved Transactional I/O per Second</td>'
    )
    sections = {kv.section for kv in report.key_values}
    assert sections == {
        "Test Summary",
        "Database Sizing and Throughput",
        "Jetstress System Parameters",
        "Database Configuration",
    }


# --- identify -----------------------------------------------------------------------

CONFIG_XML = b"""<?xml version="1.0"?>
<configuration xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <JetstressVersionGenerated>15.0.995.0</JetstressVersionGenerated>
  <TestDesignInfo><Type>Performance</Type></TestDesignInfo>
</configuration>"""
PERFMON_CSV = b'"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\\\HOST\\MSExchange Database ==> Instances(JetstressWin/Instance1.1)\\I/O Database Reads/sec"\r\n'
SEED_TEXT = b"""Microsoft Exchange *JetStress 2010*

Performance Test Result Report

Test Summary
<b>Overall Test Result</b>\t<b>Pass</b>
"""
BLOG_HTML = b"""<!DOCTYPE html><html><head><title>Running Jetstress</title></head><body>
<p>Jetstress writes a Performance Test Result Report when it finishes.</p><table><tr><td>tip</td></tr></table></body></html>"""


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("JetstressConfig.xml", CONFIG_XML),
        ("Performance_2011_5_28_11_38_30.csv", PERFMON_CSV),
        ("seed.txt", SEED_TEXT),
        ("Performance_2011_5_28_11_38_30.txt", SEED_TEXT),
        ("jetstress-howto.html", BLOG_HTML),
        ("index.html", b"<html><body><fieldset><legend>Login</legend></fieldset></body></html>"),
        ("Performance_1.html", b""),
    ],
)
def test_identify_refuses(name, head):
    assert not jetstress_html.identify(name, head)


def test_identify_needs_no_file_name_prefix():
    assert jetstress_html.identify("report.htm", SEED_001_PERF.read_bytes()[:8192])
    assert jetstress_html.identify("x.html", SEED_001_PERF.read_text().encode("utf-16")[:8192])


# --- tolerance: inline reports ------------------------------------------------------


def report_html(
    *sections: str, title: str = "Microsoft Exchange Jetstress 2010", subtitle: str = "Performance Test Result Report"
) -> bytes:
    body = "\n".join(sections)
    return (
        f'<html><body>\n<div class="title">{title}</div>\n<div class="subtitle">{subtitle}</div>\n{body}\n</body></html>\n'
    ).encode()


def kv_section(title: str, rows: list[tuple[str, str]], label_class: str = ' class="grid_row_header"') -> str:
    cells = "\n".join(f"<tr>\n<td{label_class}>{label}</td>\n<td>{value}</td>\n</tr>" for label, value in rows)
    return f"<fieldset><legend>{title}</legend><table>\n{cells}\n</table></fieldset>"


def grid_section(
    title: str,
    headers: list[str],
    rows: list[list[str]],
    *,
    header_cell: str = "th",
    header_class: str = ' class="grid_header"',
) -> str:
    head = "".join(f"<{header_cell}>{h}</{header_cell}>" for h in headers)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<fieldset><legend>{title}</legend><table>\n<tr{header_class}>{head}</tr>\n{body}\n</table></fieldset>"


SUMMARY = kv_section(
    "Test Summary",
    [
        ("Overall Test Result", "Pass"),
        ("Machine Name", "HOST1"),
        ("Test Start Time", "5/28/2011 11:38:14 AM"),
        ("Test End Time", "5/28/2011 1:40:37 PM"),
        ("Jetstress Version", "14.01.0225.017"),
    ],
)
IO_HEADERS = [
    "MSExchange Database ==> Instances",
    "I/O Database Reads Average Latency (msec)",
    "I/O Database Writes Average Latency (msec)",
    "I/O Database Reads/sec",
    "I/O Database Writes/sec",
    "I/O Log Writes Average Latency (msec)",
    "I/O Log Writes/sec",
]
IO_ROW = ["Instance1.1", "16.661", "8.916", "122.475", "72.839", "1.609", "60.743"]
TEST_LOG = '<fieldset><legend>Test Log</legend><div class="test_log">5/28/2011 11:38:14 AM -- Jetstress testing begins ...</div></fieldset>'


def test_tolerates_td_headers_without_class_bold_cells_label_case_and_column_order():
    headers = [IO_HEADERS[3], "<b>MSExchange Database ==&gt; Instances</b>", *IO_HEADERS[1:3], *IO_HEADERS[4:]]
    row = [IO_ROW[3], "<b>Instance1.1</b>", *IO_ROW[1:3], *IO_ROW[4:]]
    params = kv_section(
        "Jetstress System Parameters",
        [("<b>thread   COUNT</b>", "7 (per database)"), ("Minimum database cache", "(n/a)")],
    )
    html = report_html(
        SUMMARY,
        params,
        grid_section("Transactional I/O Performance", headers, [row], header_cell="td", header_class=""),
        TEST_LOG,
    )
    report = jetstress_html.parse("report.html", html)
    assert report.report_type == "Performance"  # from the subtitle: the name has no prefix
    assert (report.thread_count, report.thread_scope, report.min_database_cache_mb) == (7, "per_database", None)
    [table] = report.io_tables
    assert table.rows[0] == IoRow(
        instance="Instance1.1",
        db_read_latency=16.661,
        db_write_latency=8.916,
        db_reads_per_s=122.475,
        db_writes_per_s=72.839,
        log_write_latency=1.609,
        log_writes_per_s=60.743,
        line=table.rows[0].line,
    )


def test_two_line_logical_disk_header_merges():
    disk = grid_section(
        "Disk Subsystem Performance",
        ["LogicalDisk", "Avg. Disk", "Avg. Disk", "Disk", "Disk", "Avg. Disk"],
        [],
    ).replace(
        "</tr>\n\n",
        '</tr>\n<tr class="grid_header"><th></th><th>sec/Read</th><th>sec/Write</th><th>Reads/sec</th><th>Writes/sec</th><th>Bytes/Write</th></tr>\n'
        "<tr><td>Database (E:)</td><td>0.001</td><td>0.004</td><td>5,593.976</td><td>5056.225</td><td>(n/a)</td></tr>\n",
    )
    report = jetstress_html.parse(
        "Performance_1.html", report_html(SUMMARY, disk, TEST_LOG, title="Microsoft Exchange Server Jetstress")
    )
    [row] = report.io_tables[0].rows
    assert (row.instance, row.volume_role, row.db_read_latency, row.db_reads_per_s, row.db_write_avg_bytes) == (
        "E:",
        "database",
        0.001,
        5593.976,
        None,
    )


def test_dbchecksum_rows_kept_by_header():
    checksum = grid_section(
        "Database Checksum Statistics - All",
        ["Database", "Seen pages", "Elapsed Time", "MBytes/sec"],
        [["c:\\db1", "1,024", "00:01:40", "60.5"], ["c:\\db2", "2048", "n/a", "oops"]],
    )
    report = jetstress_html.parse(
        "DBChecksum_2008_9_18_14_55_0.html", report_html(checksum, TEST_LOG, subtitle="DBChecksum Test Result Report")
    )
    assert report.checksum_rows == [
        ChecksumRow("c:\\db1", (("Seen pages", 1024.0), ("Elapsed Time", 100.0), ("MBytes/sec", 60.5))),
        ChecksumRow("c:\\db2", (("Seen pages", 2048.0), ("Elapsed Time", None), ("MBytes/sec", None))),
    ]
    assert any("\"MBytes/sec\" value 'oops' is not a number; kept as None" in w for w in report.warnings)


def test_test_log_without_its_div_and_an_unknown_section():
    log = (
        "<fieldset><legend>Test Log</legend>\n5/28/2011 11:38:14 AM -- Jetstress testing begins ...<br>\n"
        "5/28/2011 11:38:30 AM -- Database read latency thresholds:<br>(average: 20 msec/read, maximum: 100 msec/read).\n"
        "</fieldset>"
    )
    extra = kv_section("Vendor Notes", [("Array", "Model 9")])
    html = report_html(SUMMARY, extra, log)
    source = html.decode().splitlines()
    line_of = lambda text: next(n for n, line in enumerate(source, start=1) if text in line)  # noqa: E731
    report = jetstress_html.parse("Stress_2011_5_28_11_38_30.html", html)
    assert [(event.message, event.line) for event in report.log_events] == [
        ("Jetstress testing begins ...", line_of("testing begins")),
        (
            "Database read latency thresholds: (average: 20 msec/read, maximum: 100 msec/read).",
            line_of("latency thresholds"),
        ),
    ]
    assert report.thresholds == Thresholds(unit="ms", db_read_avg=20, db_read_max=100)
    assert report.report_type == "Stress"
    assert report.warnings[:2] == [
        'file name says Stress but the subtitle says "Performance Test Result Report"; using Stress',
        f'section "Vendor Notes" (line {line_of("Vendor Notes")}) not recognised; label/value rows kept',
    ]
    assert ("Vendor Notes", "Array", "Model 9") in [(kv.section, kv.label, kv.value) for kv in report.key_values]


def test_backup_summary_rows_go_to_key_values():
    backup = grid_section(
        "Database Backup Statistics - All",
        ["Database Instance", "Database Size (MBytes)", "Elapsed Backup Time", "MBytes Transferred/sec"],
        [["Instance1.1", "1,287,466.59", "05:51:58", "60.96"], ["Avg", "", "", "60.96"], ["Sum", "", "", "60.96"]],
    )
    report = jetstress_html.parse(
        "DatabaseBackup_1.html", report_html(backup, TEST_LOG, subtitle="Database Backup Test Result Report")
    )
    assert report.backup_rows == [BackupRow("Instance1.1", 1287466.59, 21118.0, 60.96)]
    sums = [(kv.label, kv.value) for kv in report.key_values if kv.label.startswith(("Avg", "Sum"))]
    assert ("Avg: MBytes Transferred/sec", "60.96") in sums and ("Sum: MBytes Transferred/sec", "60.96") in sums


def test_latin1_bytes_without_charset():
    data = variant(SEED_001_PERF, b"WIN-PVCKE1IJFQ1", "SÉRVEUR-Ä".encode("latin-1")).replace(b"; charset=utf-8", b"")
    assert jetstress_html.parse(SEED_001_PERF.name, data).machine_name == "SÉRVEUR-Ä"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_utf16_with_or_without_bom_and_utf8_bom(codec):
    data = SEED_001_PERF.read_text(encoding="utf-8").encode(codec)
    assert jetstress_html.parse(SEED_001_PERF.name, data) == parse(SEED_001_PERF)


def test_whole_report_on_one_line():
    data = SEED_001_PERF.read_bytes().replace(b"\n", b" ")
    report = jetstress_html.parse(SEED_001_PERF.name, data)
    assert report.achieved_iops == 1573.982 and len(report.log_events) == 47
    assert {event.line for event in report.log_events} == {1}


# --- bad input: each error names the file (and the section where there is one) ----------


def test_empty_file():
    assert parse_error("Performance_1.html", b"") == "Performance_1.html: file is empty"
    assert parse_error("Performance_1.html", b" \r\n\t") == "Performance_1.html: file is empty"


def test_binary_data():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    assert (
        parse_error("Performance_1.html", png)
        == "Performance_1.html: binary data (NUL byte at offset 8), not an HTML report"
    )
    noise = bytes(range(1, 32)) * 300
    assert parse_error("Stress_1.html", noise) == "Stress_1.html: binary data (control characters), not an HTML report"


def test_undecodable_utf16():
    data = SEED_001_PERF.read_text(encoding="utf-8").encode("utf-16-le")[:-1]
    assert parse_error("Performance_1.html", data).startswith(
        "Performance_1.html: cannot be decoded as utf-16-le: truncated data at byte "
    )


def test_larger_than_the_limit():
    data = b"<html>" + b" " * jetstress_html.MAX_BYTES
    assert parse_error("Performance_1.html", data) == (
        f"Performance_1.html: file is {len(data):,} bytes; reports larger than 67,108,864 bytes are refused"
    )


def test_not_a_jetstress_report():
    html = b"<html><body><fieldset><legend>Login</legend><table><tr><td>User</td><td></td></tr></table></fieldset></body></html>"
    assert (
        parse_error("page.html", html)
        == 'page.html: not a Jetstress report: no section with a known title; found: "Login"'
    )
    assert (
        parse_error("page.html", BLOG_HTML)
        == "page.html: not a Jetstress report: no section with a known title; found: no <fieldset> sections"
    )


def test_report_type_unknown():
    message = parse_error("report.html", report_html(SUMMARY, subtitle="Results"))
    assert message.startswith("report.html: cannot tell the report type: the file name has no Performance_/Stress_/")


def test_test_summary_missing():
    data = variant(SEED_001_PERF, b"<legend>Test Summary</legend>", b"<legend>Summary of Tests</legend>")
    message = parse_error(SEED_001_PERF.name, data)
    assert message.startswith(
        f"{SEED_001_PERF.name} › Test Summary: section missing; a Performance report needs it; found: "
    )


def test_truncated_inside_the_test_summary():
    data = SEED_001_PERF.read_bytes()
    message = parse_error(SEED_001_PERF.name, data[: data.index(b"Test End Time")])
    assert (
        message
        == f"{SEED_001_PERF.name} › Test Summary › line 6: Test Summary is incomplete: no Test End Time row; the file looks truncated"
    )


def test_truncated_inside_an_io_table():
    data = SEED_001_PERF.read_bytes()
    message = parse_error(SEED_001_PERF.name, data[: data.index(b"<td>122.475</td>")])
    assert message == (
        f'{SEED_001_PERF.name} › Transactional I/O Performance › line 180: row "Instance2836.1" has 3 cells '
        "but the header has 13; the table looks truncated"
    )


def test_truncated_after_the_summary():
    data = SEED_001_PERF.read_bytes()
    cut = data[: data.index(b"<td>1573.982</td>") + 15]  # inside "Achieved Transactional I/O per Second"
    assert parse_error(SEED_001_PERF.name, cut) == (
        f"{SEED_001_PERF.name} › Database Sizing and Throughput › line 55: the file ends inside this section without "
        "</html>; it looks truncated (missing: Host System Performance, Test Log, Jetstress System Parameters, "
        "Transactional I/O Performance, Total I/O Performance, Background Database Maintenance I/O Performance)"
    )


def test_truncated_between_sections():
    data = SEED_001_PERF.read_bytes()
    message = parse_error(SEED_001_PERF.name, data[: data.index(b"<fieldset>\n<legend>Host")])
    assert message == (
        f"{SEED_001_PERF.name} › Total I/O Performance › line 402: the file ends inside this section without </html>; "
        "it looks truncated (missing: Host System Performance, Test Log)"
    )


def test_missing_closing_tag_alone_is_a_warning():
    data = SEED_001_PERF.read_bytes().replace(b"</body></html>", b"")
    report = jetstress_html.parse(SEED_001_PERF.name, data)
    assert report.warnings == ["the document does not end with </html>; it may be truncated"]


def test_optional_section_missing_is_a_warning():
    data = SEED_001_PERF.read_bytes()
    start, end = data.index(b"<fieldset>\n<legend>Background"), data.index(b"<fieldset>\n<legend>Log Replication")
    report = jetstress_html.parse(SEED_001_PERF.name, data[:start] + data[end:])
    assert report.warnings == ['optional section "Background Database Maintenance I/O Performance" is missing']
    assert [table.scope for table in report.io_tables] == ["transactional", "log_replication", "total"]


def test_required_column_missing_names_it_and_lists_headers():
    data = variant(SEED_001_PERF, b"<th>I/O Database Reads/sec</th>", b"<th>I/O Database Frobs/sec</th>")
    message = parse_error(SEED_001_PERF.name, data)
    assert message.startswith(
        f'{SEED_001_PERF.name} › Transactional I/O Performance › line 165: column "I/O Database Reads/sec" not found; '
        'found: "MSExchange Database ==> Instances", "I/O Database Reads Average Latency (msec)", '
        '"I/O Database Writes Average Latency (msec)", "I/O Database Frobs/sec", '
    )


def test_unknown_column_is_a_warning():
    data = variant(SEED_001_PERF, b"<th>I/O Log Reads Average Bytes</th>", b"<th>I/O Log Reads Mystery</th>")
    report = jetstress_html.parse(SEED_001_PERF.name, data)
    assert (
        'Transactional I/O Performance: column "I/O Log Reads Mystery" not recognised; its values are not kept'
        in report.warnings
    )
    assert report.io_tables[0].rows[0].log_read_avg_bytes is None


def test_non_numeric_cell():
    data = variant(SEED_001_PERF, b"<td>122.475</td>", b"<td>12x.475</td>")
    assert parse_error(SEED_001_PERF.name, data) == (
        f'{SEED_001_PERF.name} › Transactional I/O Performance › line 184: instance "Instance2836.1", '
        "column \"I/O Database Reads/sec\": not a number: '12x.475'"
    )


def test_bad_value_in_a_label_row():
    data = variant(SEED_001_PERF, b"<td>5/28/2011 11:38:14 AM</td>", b"<td>yesterday</td>")
    assert parse_error(SEED_001_PERF.name, data) == (
        f'{SEED_001_PERF.name} › Test Summary › line 23: "Test Start Time": '
        "not a Jetstress date-time (M/D/YYYY h:mm:ss AM): 'yesterday'"
    )


# --- hostile input ------------------------------------------------------------------


def test_entity_bomb_is_not_expanded():
    entities = ['<!ENTITY a "' + "a" * 100 + '">'] + [
        f'<!ENTITY {n} "' + f"&{p};" * 100 + '">' for p, n in zip("abc", "bcd", strict=True)
    ]
    doctype = ("<!DOCTYPE html [" + "".join(entities) + "]>\n").encode()
    data = doctype + variant(SEED_001_PERF, b"<td>WIN-PVCKE1IJFQ1</td>", b"<td>&d;&d;&d;</td>")
    started = time.perf_counter()
    report = jetstress_html.parse(SEED_001_PERF.name, data)
    assert time.perf_counter() - started < 2
    assert report.machine_name == "&d;&d;&d;"
    assert sum(len(kv.value) for kv in report.key_values) < len(data)


def test_external_entities_are_not_fetched_or_read():
    doctype = b'<!DOCTYPE html SYSTEM "http://127.0.0.1:9/x.dtd" [<!ENTITY leak SYSTEM "file:///etc/hostname">]>\n'
    data = doctype + variant(SEED_001_PERF, b"<td>WIN-PVCKE1IJFQ1</td>", b"<td>&leak;</td>")
    assert jetstress_html.parse(SEED_001_PERF.name, data).machine_name == "&leak;"


def test_entity_bomb_alone_is_not_a_report():
    data = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><html><body>&b;&b;</body></html>'
    assert (
        parse_error("Stress_1.html", data)
        == "Stress_1.html: not a Jetstress report: no section with a known title; found: no <fieldset> sections"
    )


def test_twenty_megabyte_text_line_is_refused_within_the_file_size():
    data = variant(SEED_001_PERF, b"<td>5000 mailboxes<br>", b"<td>" + b"x" * 20_000_000 + b"<br>")
    tracemalloc.start()
    try:
        message = parse_error(SEED_001_PERF.name, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert message.startswith(
        f"{SEED_001_PERF.name} › Test Summary › line 19: the HTML parser gave up: a text run or tag is larger than any report holds"
    )
    assert peak < 1.5 * len(data)


def test_twenty_megabyte_line_of_markup_parses_within_the_file_size():
    data = variant(SEED_001_PERF, b"</body>", b"<span></span>" * 1_600_000 + b"</body>").replace(b"\n", b" ")
    assert len(data) > 20_000_000
    tracemalloc.start()
    try:
        report = jetstress_html.parse(SEED_001_PERF.name, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.achieved_iops == 1573.982
    assert peak < 1.5 * len(data)


def test_file_name_in_errors_is_exactly_as_given():
    name = os.path.join("some dir", "Performance_2011_5_28_11_38_30 (copy).html")
    assert parse_error(name, b"") == f"{name}: file is empty"


def test_statistics_summary_rows_under_other_labels_are_not_instances():
    """Real 2013 backup tables end with summary rows that are neither "Avg" nor "Sum"."""
    path = HTML_FIXTURES / "seed001-md1220" / "DatabaseBackup_2011_6_3_10_55_33.html"
    data = path.read_bytes()
    last = data.index(b"<td>57.65</td>\n</tr>\n") + len(b"<td>57.65</td>\n</tr>\n")
    summary = (b"<tr>\n<td>All Databases</td>\n<td>10299732.72</td>\n<td>06:12:12</td>\n<td>461.2</td>\n</tr>\n"
               b"<tr>\n<td>Per Second Overall</td>\n<td>1</td>\n<td>00:00:01</td>\n<td>57.65</td>\n</tr>\n")
    report = jetstress_html.parse(path.name, data[:last] + summary + data[last:])
    assert [row.instance for row in report.backup_rows] == [f"Instance2836.{n}" for n in range(1, 9)]
    warned = [w for w in report.warnings if "names no database instance" in w]
    assert len(warned) == 2 and "'All Databases'" in warned[0] and "'Per Second Overall'" in warned[1]
    assert any(kv.label.startswith("All Databases: ") for kv in report.key_values)


def test_a_number_too_large_for_a_float_is_an_error_at_its_cell():
    """ "1e999" reads as infinity: no measurement, and PostgreSQL's jsonb could not carry it."""
    message = parse_error(SEED_001_PERF.name, variant(SEED_001_PERF, b"<td>3.816</td>", b"<td>1e999</td>"))
    assert "number out of range: '1e999'" in message and "% Processor Time" in message and "line 555" in message


def test_classes_are_separated_by_ascii_whitespace_only():
    """A no-break space joins two words into one class name, as browsers read it: that div is no title."""
    joined = jetstress_html.parse(SEED_001_PERF.name, variant(SEED_001_PERF, b'<div class="title">',
                                                              '<div class="title\u00a0x">'.encode()))
    assert joined.product_title is None
    tabbed = jetstress_html.parse(SEED_001_PERF.name, variant(SEED_001_PERF, b'<div class="title">',
                                                              b'<div class="x\ttitle">'))
    assert tabbed.product_title == "Microsoft Exchange Jetstress 2010"
