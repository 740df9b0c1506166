"""The Jetstress vocabulary: labels, headers, titles and printed values, independent of HTML."""

from __future__ import annotations

from datetime import datetime

import pytest

from esrpdb.ingest.jetstress import vocabulary as v


@pytest.mark.parametrize(
    ("printed", "key"),
    [
        ("<b>Overall Test Result</b>", "overall test result"),
        ("  Ese   Version ", "ese version"),
        ("ESE Version", "ese version"),
        ("Thread\xa0count:", "thread count"),
        ("Initial Database Size (bytes)", "initial database size (bytes)"),
    ],
)
def test_normalise_label(printed, key):
    assert v.normalise_label(printed) == key


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("6,667.51", 6667.51),
        ("1573.982", 1573.982),
        ("1,337,014,042,624", 1337014042624.0),
        ("0.019", 0.019),
        ("1.05381856535713", 1.05381856535713),
        ("-3", -3.0),
        ("1e-05", 1e-05),
        (" 42 ", 42.0),
        ("(n/a)", None),
        ("", None),
        ("NaN", None),
    ],
)
def test_parse_number(printed, value):
    assert v.parse_number(printed) == value


@pytest.mark.parametrize("printed, value", [
    ("1 177.258", 1177.258), ("9 649 470 964 612", 9649470964612), ("1\u00a0080", 1080), ("1\u202f080.5", 1080.5),
    ("12'345.6", 12345.6), ("14.076 ms", 14.076), ("0.9 msec", 0.9), ("1 234.5 ms", 1234.5),
])
def test_parse_number_as_other_extractions_print_it(printed, value):
    """A space (or no-break space, or apostrophe) between thousands, a latency cell with its unit."""
    assert v.parse_number(printed) == value
    assert v.parse_int("9 649 470 964 612") == 9649470964612


@pytest.mark.parametrize("printed", ["abc", "1.2.3", "12,34", "1,2345", "12 s", "12 IOPS", "1 23", "12 345 6", ".", "∞"])
def test_parse_number_rejects_text(printed):
    with pytest.raises(ValueError, match="not a number"):
        v.parse_number(printed)


def test_parse_int_is_exact_beyond_float_precision():
    assert v.parse_int("9,007,199,254,740,993") == 9007199254740993
    assert v.parse_int("9,000") == 9000
    assert v.parse_int("8.0") == 8
    with pytest.raises(ValueError, match="not a whole number: '8.5'"):
        v.parse_int("8.5")


@pytest.mark.parametrize(("printed", "value"), [("40%", 40.0), ("40 percent", 40.0), ("5", 5.0), ("55 Percent", 55.0)])
def test_parse_percent(printed, value):
    assert v.parse_percent(printed) == value


@pytest.mark.parametrize(
    ("printed", "mb"), [("256.0 MB", 256.0), ("3,328.0 MB", 3328.0), ("2.0 GB", 2048.0), ("512 KB", 0.5)]
)
def test_parse_size_mb(printed, mb):
    assert v.parse_size_mb(printed) == mb


def test_parse_size_mb_needs_a_unit():
    with pytest.raises(ValueError, match=r"not a size with a unit \(KB, MB, GB, TB\): '256'"):
        v.parse_size_mb("256")


@pytest.mark.parametrize(
    ("printed", "parsed"),
    [
        ("21 (per-storage group)", (21, "per_storage_group")),
        ("10 (per storage group)", (10, "per_storage_group")),
        ("7 (per database)", (7, "per_database")),
        ("7 (per-database)", (7, "per_database")),
        ("7", (7, "global")),
        ("(n/a)", (None, None)),
    ],
)
def test_parse_thread_count(printed, parsed):
    assert v.parse_thread_count(printed) == parsed


def test_parse_thread_count_unknown_scope_lists_known_ones():
    with pytest.raises(
        ValueError, match="unknown thread count scope 'per server'; known: per storage group, per database, global"
    ):
        v.parse_thread_count("3 (per server)")


@pytest.mark.parametrize(("printed", "value"), [("True", True), ("false", False), ("YES", True), ("", None)])
def test_parse_bool(printed, value):
    assert v.parse_bool(printed) is value


@pytest.mark.parametrize(
    ("printed", "seconds"),
    [
        ("05:51:58", 21118.0),
        ("06:12:12", 22332.0),
        ("1.02:00:00", 93600.0),
        ("00:00:01.5", 1.5),
        ("788.4409848", 788.4409848),
    ],
)
def test_parse_duration_seconds(printed, seconds):
    assert v.parse_duration_seconds(printed) == seconds


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("9/18/2008 10:13:13 AM", datetime(2008, 9, 18, 10, 13, 13)),
        ("9/18/2008 2:54:59 PM", datetime(2008, 9, 18, 14, 54, 59)),
        ("12/1/2011 12:00:01 AM", datetime(2011, 12, 1, 0, 0, 1)),
        ("10/21/2008  4:05:25 pm", datetime(2008, 10, 21, 16, 5, 25)),
    ],
)
def test_parse_datetime(printed, value):
    assert v.parse_datetime(printed) == value


def test_parse_datetime_rejects_other_orders():
    with pytest.raises(ValueError, match=r"not a Jetstress date-time \(M/D/YYYY h:mm:ss AM\): '18.09.2008 14:04:47'"):
        v.parse_datetime("18.09.2008 14:04:47")


def test_parse_verdict():
    assert (v.parse_verdict("Pass"), v.parse_verdict(" fail ")) == ("Pass", "Fail")
    with pytest.raises(ValueError, match="not Pass or Fail: 'Maybe'"):
        v.parse_verdict("Maybe")


@pytest.mark.parametrize(
    ("printed", "parsed"),
    [
        ("Database (c:\\db1)", ("database", "c:\\db1")),
        ("Log (c:\\log13)", ("log", "c:\\log13")),
        ("<b>Database (E:)</b>", ("database", "E:")),
        ("log (F:)", ("log", "F:")),
    ],
)
def test_parse_volume_label(printed, parsed):
    assert v.parse_volume_label(printed) == parsed


def test_parse_volume_label_rejects_other_rows():
    with pytest.raises(ValueError, match="not a volume label"):
        v.parse_volume_label("_Total")


def test_parse_instance_paths():
    text = "Log path: C:\\db\\log1\nDatabase: C:\\db\\db1\\Jetstress001001.edb\nDatabase: D:\\db1b\\Jetstress001002.edb\nnoise"
    assert v.parse_instance_paths(text) == (
        "C:\\db\\log1",
        ("C:\\db\\db1\\Jetstress001001.edb", "D:\\db1b\\Jetstress001002.edb"),
        ["noise"],
    )


@pytest.mark.parametrize(
    ("version", "release"),
    [
        ("08.02.0060.000", "2007"),
        ("14.01.0225.017", "2010"),
        ("15.00.0995.000", "2013"),
        ("15.01.0225.042", "2016"),
        ("9.1", None),
        ("", None),
        (None, None),
    ],
)
def test_release_from_version(version, release):
    assert v.release_from_version(version) == release


def test_release_from_title():
    assert v.release_from_title("Microsoft Exchange Jetstress 2013") == "2013"
    assert v.release_from_title("Microsoft Exchange Server Jetstress") is None


@pytest.mark.parametrize(
    ("name", "report_type"),
    [
        ("Stress_2015_7_17_14_9_16.html", "Stress"),
        ("C:\\out\\DatabaseBackup_2015_7_17_13_43_55.html", "DatabaseBackup"),
        ("reports/softrecovery_2015_7_17_13_24_24.html", "SoftRecovery"),
        ("DBChecksum 2008 9 18 14 55 0.html", "DBChecksum"),
        ("Performance.html", None),
        ("MyPerformance_1.html", None),
    ],
)
def test_report_type_from_filename(name, report_type):
    assert v.report_type_from_filename(name) == report_type


@pytest.mark.parametrize(
    ("subtitle", "report_type"),
    [
        ("Performance Test Result Report", "Performance"),
        ("Stress Test Result Report", "Stress"),
        ("Database backup Test Result Report", "DatabaseBackup"),
        ("SoftRecovery Test Result Report", "SoftRecovery"),
        ("Soft Recovery Test Result Report", "SoftRecovery"),
        ("Some Other Thing", None),
        (None, None),
    ],
)
def test_report_type_from_subtitle(subtitle, report_type):
    assert v.report_type_from_subtitle(subtitle) == report_type


@pytest.mark.parametrize(
    ("label", "value", "fields"),
    [
        ("Achieved I/O per Second", "6,667.51", {"achieved_iops": 6667.51}),
        ("Achieved Transactional I/O per Second", "1573.982", {"achieved_iops": 1573.982}),
        ("Initial database size", "1,337,014,042,624", {"initial_database_bytes": 1337014042624}),
        ("Initial Database Size (bytes)", "10743244652544", {"initial_database_bytes": 10743244652544}),
        ("Thread Count", "7 (per database)", {"thread_count": 7, "thread_scope": "per_database"}),
        ("Thread count", "21 (per-storage group)", {"thread_count": 21, "thread_scope": "per_storage_group"}),
        ("Ese Version", "08.01.0240.005", {"ese_version": "08.01.0240.005"}),
        ("Lazy commits", "55 percent", {"lazy_commit_percent": 55.0}),
        ("Maximum database cache", "3,328.0 MB", {"max_database_cache_mb": 3328.0}),
        ("Run Background Database Maintenance", "True", {"background_maintenance": True}),
        ("Performance Log", "a.blg\nb.blg", {"performance_logs": ["a.blg", "b.blg"]}),
        ("Test Issues", "Fail - one\nFail - two", {"test_issues": ["Fail - one", "Fail - two"]}),
        ("Test Description", "", {"test_description": None}),
        ("Something Jetstress never printed", "x", None),
    ],
)
def test_interpret_label(label, value, fields):
    assert v.interpret_label(label, value) == fields


@pytest.mark.parametrize(
    ("title", "scope"),
    [
        ("Transactional I/O Performance", "transactional"),
        ("Background Database Maintenance I/O Performance", "background_maintenance"),
        ("Log Replication I/O Performance", "log_replication"),
        ("Total I/O Performance", "total"),
        ("Disk Subsystem Performance", "disk_subsystem"),
        ("  transactional   I/O performance ", "transactional"),
        ("Host System Performance", None),
    ],
)
def test_io_scope_for_title(title, scope):
    assert v.io_scope_for_title(title) == scope


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Test Summary", "summary"),
        ("Database Backup Statistics - All", "backup"),
        ("Soft-Recovery Statistics - All", "recovery"),
        ("Database Checksum Statistics", "checksum"),
        ("Total I/O Performance", "io"),
        ("Legal Notice", None),
    ],
)
def test_section_kind(title, kind):
    assert v.section_kind(title) == kind


SEED_001_TRANSACTIONAL = [
    "MSExchange Database ==> Instances",
    "I/O DB Reads Average Latency (msec)",
    "I/O Database Writes Average Latency (msec)",
    "I/O DB Reads /sec",
    "I/O DB Writes /sec",
    "I/O DB Reads Average Bytes",
    "I/O DB Writes Average Bytes",
    "I/O Log Reads Average Latency (msec)",
    "I/O Log Writes Average Latency (msec)",
    "I/O Log Reads /sec",
    "I/O Log Writes /sec",
    "I/O Log Reads Avg Bytes",
    "I/O Log Writes Avg Bytes",
]


def test_io_headers_resolve_whatever_the_spelling():
    columns = v.resolve_io_columns(SEED_001_TRANSACTIONAL, "transactional")
    assert columns.fields == (
        "instance",
        "db_read_latency",
        "db_write_latency",
        "db_reads_per_s",
        "db_writes_per_s",
        "db_read_avg_bytes",
        "db_write_avg_bytes",
        "log_read_latency",
        "log_write_latency",
        "log_reads_per_s",
        "log_writes_per_s",
        "log_read_avg_bytes",
        "log_write_avg_bytes",
    )
    assert columns.unknown == () and columns.duplicate == ()


def test_io_headers_in_any_order_and_with_2013_attached_wording():
    headers = [
        "I/O Log Writes/sec",
        "I/O Database Reads (Attached) Average Latency (msec)",
        "I/O Database Reads (Recovery) Average Latency (msec)",
        "MSExchange Database ==> Instances",
        "I/O Database Writes (Attached) Average Latency (msec)",
        "I/O Database Reads (Attached)/sec",
        "I/O Database Writes (Attached)/sec",
        "I/O Log Writes Average Latency (msec)",
    ]
    columns = v.resolve_io_columns(headers, "total")
    assert columns.fields == (
        "log_writes_per_s",
        "db_read_latency",
        None,
        "instance",
        "db_write_latency",
        "db_reads_per_s",
        "db_writes_per_s",
        "log_write_latency",
    )
    assert columns.unknown == ("I/O Database Reads (Recovery) Average Latency (msec)",)


def test_seed_001_total_table_bare_reads_writes_are_latencies():
    headers = [
        "MSExchange Database ==> Instances",
        "I/O DB Reads",
        "I/O DB Writes",
        "I/O DB Reads /sec",
        "I/O DB Writes /sec",
        "I/O Log Writes Avg Latency (msec)",
        "I/O Log Writes /sec",
    ]
    assert v.resolve_io_columns(headers, "total").fields[1:3] == ("db_read_latency", "db_write_latency")


def test_io_headers_unknown_and_duplicate_are_reported_not_fatal():
    headers = [*SEED_001_TRANSACTIONAL, "I/O DB Average Bytes", "I/O Database Reads Average Latency"]
    columns = v.resolve_io_columns(headers, "transactional")
    assert columns.unknown == ("I/O DB Average Bytes",)
    assert columns.duplicate == ("I/O Database Reads Average Latency",)
    assert columns.fields[-2:] == (None, None)


def test_missing_required_io_column_names_it_and_lists_found():
    headers = ["MSExchange Database ==> Instances", "I/O Database Reads Average Latency (msec)"]
    with pytest.raises(ValueError) as caught:
        v.resolve_io_columns(headers, "transactional")
    assert str(caught.value) == (
        'column "I/O Database Writes Average Latency (msec)" not found; found: '
        '"MSExchange Database ==> Instances", "I/O Database Reads Average Latency (msec)"'
    )


def test_missing_instance_column():
    with pytest.raises(
        ValueError,
        match='column "MSExchange Database ==> Instances" not found; found: "Database Maintenance IO Reads/sec"',
    ):
        v.resolve_io_columns(["Database Maintenance IO Reads/sec"], "background_maintenance")


def test_logical_disk_headers_resolve_to_role_relative_fields():
    headers = [
        "LogicalDisk",
        "Avg. Disk sec/Read",
        "Avg. Disk sec/Write",
        "Disk Reads/sec",
        "Disk Writes/sec",
        "Avg. Disk Bytes/Write",
    ]
    columns = v.resolve_io_columns(headers, "disk_subsystem")
    assert columns.fields == (
        "instance",
        "read_latency",
        "write_latency",
        "reads_per_s",
        "writes_per_s",
        "write_avg_bytes",
    )
    assert v.disk_field("database", "read_latency") == "db_read_latency"
    assert v.disk_field("log", "write_avg_bytes") == "log_write_avg_bytes"
    assert v.LATENCY_UNIT_BY_SCOPE["disk_subsystem"] == "s"
