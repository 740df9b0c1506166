"""What Jetstress prints, and what it means: labels, column headers, section titles, values.

Format-independent and pure, so the HTML parser and a later parser of report text
extracted from PDFs share one vocabulary. Lookups take text as printed and normalise it
here. Value parsers live in `values` and are re-exported here; they raise
`ValueError` with the offending text, and the caller turns that into a `ParseError` that
names the file, section and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence, Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from ...schema.vocabulary import REPORT_TYPES, TRANSACTIONAL_REPORT_TYPES
from .values import (  # noqa: F401  (re-exported: the vocabulary's value half)
    DATETIME_FORMATS,
    THREAD_SCOPES,
    is_not_available,
    parse_bool,
    parse_datetime,
    parse_duration_seconds,
    parse_instance_paths,
    parse_int,
    parse_lines,
    parse_number,
    parse_percent,
    parse_size_mb,
    parse_text,
    parse_thread_count,
    parse_verdict,
    parse_volume_label,
)

# --- text normalisation -------------------------------------------------------------

_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=4096)  # labels and headers repeat in every report; the regexes cost more than a lookup
def normalise_label(text: str) -> str:
    """Case-folded, markup-free, single-spaced, without a trailing colon: the lookup key."""
    text = _TAG.sub("", text).replace("\xa0", " ")
    return _SPACE.sub(" ", text).strip().rstrip(":").strip().casefold()


# --- versions and report types ------------------------------------------------------

RELEASE_BY_MAJOR = {8: "2007", 14: "2010", 15: "2013"}
_VERSION = re.compile(r"\s*0*(\d+)\.0*(\d+)")


def release_from_version(version: str | None) -> str | None:
    """ "08.02.0060.000" -> "2007", "14.01.0225.017" -> "2010", "15.00…" -> "2013", "15.01…" -> "2016"."""
    match = _VERSION.match(version or "")
    if not match:
        return None
    major, minor = int(match[1]), int(match[2])
    return "2016" if major == 15 and minor >= 1 else RELEASE_BY_MAJOR.get(major)


_YEAR = re.compile(r"jetstress\D*(20\d\d)", re.IGNORECASE)


def release_from_title(title: str | None) -> str | None:
    """ "Microsoft Exchange Jetstress 2010" -> "2010"; the 2007 title carries no year."""
    match = _YEAR.search(title or "")
    return match[1] if match else None


# Jetstress names a report file after its type: Performance_<timestamp>.html, DBChecksum_<timestamp>.html.
_FILE_PREFIX = re.compile(r"(?P<type>" + "|".join(REPORT_TYPES) + r")[_ ]", re.IGNORECASE)


def report_type_from_filename(name: str) -> str | None:
    """ "Stress_2015_7_17_14_9_16.html" -> "Stress" (the file name is Jetstress's own record)."""
    base = re.split(r"[\\/]", name)[-1]
    match = _FILE_PREFIX.match(base)
    if not match:
        return None
    return next(t for t in REPORT_TYPES if t.lower() == match["type"].lower())


SUBTITLE_REPORT_TYPES = {
    "performance": "Performance",
    "stress": "Stress",
    "database backup": "DatabaseBackup",
    "databasebackup": "DatabaseBackup",
    "streaming backup": "DatabaseBackup",
    "softrecovery": "SoftRecovery",
    "soft recovery": "SoftRecovery",
    "soft-recovery": "SoftRecovery",
    "dbchecksum": "DBChecksum",
    "database checksum": "DBChecksum",
    "checksum": "DBChecksum",
}
_SUBTITLE = re.compile(r"(?P<kind>.+?)\s+test\s+result\s+report", re.IGNORECASE)


def report_type_from_subtitle(text: str | None) -> str | None:
    """ "Performance Test Result Report" -> "Performance"; "Database backup Test Result Report" -> "DatabaseBackup"."""
    match = _SUBTITLE.search(_SPACE.sub(" ", text or ""))
    return SUBTITLE_REPORT_TYPES.get(normalise_label(match["kind"])) if match else None


# --- key/value labels -> JetstressReport fields --------------------------------------


def _one(field: str, parser: Callable[[str], object]) -> Callable[[str], dict[str, object]]:
    return lambda value: {field: parser(value)}


def _threads(value: str) -> dict[str, object]:
    count, scope = parse_thread_count(value)
    return {"thread_count": count, "thread_scope": scope}


# Normalised label -> how its value fills report fields. 2007 wording beside 2010+ wording.
LABEL_FIELDS: dict[str, Callable[[str], dict[str, object]]] = {
    "overall test result": _one("overall_result", parse_verdict),
    "machine name": _one("machine_name", parse_text),
    "test description": _one("test_description", parse_text),
    "test start time": _one("test_start", parse_datetime),
    "test end time": _one("test_end", parse_datetime),
    "collection start time": _one("collection_start", parse_datetime),
    "collection end time": _one("collection_end", parse_datetime),
    "jetstress version": _one("jetstress_version", parse_text),
    "ese version": _one("ese_version", parse_text),
    "operating system": _one("operating_system", parse_text),
    "performance log": _one("performance_logs", parse_lines),
    "test issues": _one("test_issues", parse_lines),
    "achieved transactional i/o per second": _one("achieved_iops", parse_number),
    "achieved i/o per second": _one("achieved_iops", parse_number),
    "target transactional i/o per second": _one("target_iops", parse_number),
    "target i/o per second": _one("target_iops", parse_number),
    "initial database size (bytes)": _one("initial_database_bytes", parse_int),
    "initial database size": _one("initial_database_bytes", parse_int),
    "final database size (bytes)": _one("final_database_bytes", parse_int),
    "final database size": _one("final_database_bytes", parse_int),
    "database files (count)": _one("database_file_count", parse_int),
    "thread count": _threads,
    "log buffers": _one("log_buffers", parse_int),
    "minimum database cache": _one("min_database_cache_mb", parse_size_mb),
    "maximum database cache": _one("max_database_cache_mb", parse_size_mb),
    "insert operations": _one("insert_percent", parse_percent),
    "delete operations": _one("delete_percent", parse_percent),
    "replace operations": _one("replace_percent", parse_percent),
    "read operations": _one("read_percent", parse_percent),
    "lazy commits": _one("lazy_commit_percent", parse_percent),
    "run background database maintenance": _one("background_maintenance", parse_bool),
    "number of copies per database": _one("copies_per_database", parse_int),
}


def interpret_label(label: str, value: str) -> dict[str, object] | None:
    """Report fields a printed label/value row fills, or None for a label with no field."""
    interpret = LABEL_FIELDS.get(normalise_label(label))
    return interpret(value) if interpret else None


# --- section titles -----------------------------------------------------------------

IO_SCOPES_BY_TITLE = {
    "transactional i/o performance": "transactional",
    "background database maintenance i/o performance": "background_maintenance",
    "log replication i/o performance": "log_replication",
    "total i/o performance": "total",
    "disk subsystem performance": "disk_subsystem",
}
# Other sections, by kind. Titles such as "Database Backup Statistics - All" lose the " - All".
SECTION_KINDS_BY_TITLE = {
    "test summary": "summary",
    "database sizing and throughput": "sizing",
    "jetstress system parameters": "parameters",
    "database configuration": "configuration",
    "host system performance": "host",
    "test log": "log",
    "database backup statistics": "backup",
    "soft-recovery statistics": "recovery",
    "soft recovery statistics": "recovery",
    "softrecovery statistics": "recovery",
}
_TITLE_QUALIFIER = re.compile(r"\s*[-–]\s*(all|total)$")


def normalise_title(title: str) -> str:
    return _TITLE_QUALIFIER.sub("", normalise_label(title))


def io_scope_for_title(title: str) -> str | None:
    """ "Transactional I/O Performance" -> "transactional"; None for other sections."""
    return IO_SCOPES_BY_TITLE.get(normalise_title(title))


def section_kind(title: str) -> str | None:
    """ "io", "summary", "host", "backup", … or None for a section nobody knows."""
    key = normalise_title(title)
    if key in IO_SCOPES_BY_TITLE:
        return "io"
    if key in SECTION_KINDS_BY_TITLE:
        return SECTION_KINDS_BY_TITLE[key]
    return "checksum" if "checksum" in key else None


# --- column headers -----------------------------------------------------------------

_UNIT_SUFFIX = re.compile(r"\((?:msec|ms|sec|seconds)\)")
_WORD_SYNONYMS = (("database", "db"), ("average", "avg"), ("(attached)", ""))


@lru_cache(maxsize=4096)
def canonical_header(text: str) -> str:
    """One spelling for the many: "I/O Database Reads Average Latency (msec)" and
    "I/O DB Reads Avg Latency" both become "i/o db reads avg latency"."""
    key = _UNIT_SUFFIX.sub("", normalise_label(text)).replace(".", "")
    for word, synonym in _WORD_SYNONYMS:
        key = key.replace(word, synonym)
    key = re.sub(r"\s*/\s*", "/", key)
    return _SPACE.sub(" ", key).strip()


# Canonical header -> IoRow field, for "MSExchange Database ==> Instances" tables (2010+).
IO_COLUMNS = {
    "i/o db reads avg latency": "db_read_latency",
    "i/o db writes avg latency": "db_write_latency",
    # Seed 001's Total I/O table prints bare "I/O DB Reads"/"I/O DB Writes" over the latencies.
    "i/o db reads": "db_read_latency",
    "i/o db writes": "db_write_latency",
    "i/o db reads/sec": "db_reads_per_s",
    "i/o db writes/sec": "db_writes_per_s",
    "i/o db reads avg bytes": "db_read_avg_bytes",
    "i/o db writes avg bytes": "db_write_avg_bytes",
    "i/o log reads avg latency": "log_read_latency",
    "i/o log writes avg latency": "log_write_latency",
    "i/o log reads/sec": "log_reads_per_s",
    "i/o log writes/sec": "log_writes_per_s",
    "i/o log reads avg bytes": "log_read_avg_bytes",
    "i/o log writes avg bytes": "log_write_avg_bytes",
    "db maintenance io reads/sec": "maintenance_reads_per_s",
    "db maintenance io reads avg bytes": "maintenance_read_avg_bytes",
}
# 2007 LogicalDisk columns map to a role-relative suffix: db_* on a database volume, log_* on a log volume.
DISK_COLUMNS = {
    "avg disk sec/read": "read_latency",
    "avg disk sec/write": "write_latency",
    "disk reads/sec": "reads_per_s",
    "disk writes/sec": "writes_per_s",
    "avg disk bytes/read": "read_avg_bytes",
    "avg disk bytes/write": "write_avg_bytes",
}
_DB_IO = ("db_read_latency", "db_write_latency", "db_reads_per_s", "db_writes_per_s")
REQUIRED_IO_FIELDS = {
    "transactional": (*_DB_IO, "log_write_latency", "log_writes_per_s"),
    "total": (*_DB_IO, "log_write_latency", "log_writes_per_s"),
    "background_maintenance": ("maintenance_reads_per_s",),
    "log_replication": ("log_reads_per_s",),
    "disk_subsystem": ("read_latency", "write_latency", "reads_per_s", "writes_per_s"),
}
# Printed name of each field, for "column … not found" messages.
COLUMN_DISPLAY = {
    "instance": "MSExchange Database ==> Instances",
    "db_read_latency": "I/O Database Reads Average Latency (msec)",
    "db_write_latency": "I/O Database Writes Average Latency (msec)",
    "db_reads_per_s": "I/O Database Reads/sec",
    "db_writes_per_s": "I/O Database Writes/sec",
    "log_write_latency": "I/O Log Writes Average Latency (msec)",
    "log_writes_per_s": "I/O Log Writes/sec",
    "log_reads_per_s": "I/O Log Reads/sec",
    "maintenance_reads_per_s": "Database Maintenance IO Reads/sec",
    "read_latency": "Avg. Disk sec/Read",
    "write_latency": "Avg. Disk sec/Write",
    "reads_per_s": "Disk Reads/sec",
    "writes_per_s": "Disk Writes/sec",
}
LATENCY_UNIT_BY_SCOPE = {"disk_subsystem": "s"}  # LogicalDisk counters are seconds; ESE counters msec
_INSTANCE_HEADER = re.compile(r"instances?\b|logicaldisk|volume")


def disk_field(role: str, suffix: str) -> str:
    """("database", "read_latency") -> "db_read_latency"; ("log", …) -> "log_read_latency"."""
    return ("db_" if role == "database" else "log_") + suffix


@dataclass(frozen=True)
class Columns:
    """Headers resolved once per table: a field name (or None) per column, in column order."""

    fields: tuple[str | None, ...]
    unknown: tuple[str, ...]  # headers no field claims, as printed
    duplicate: tuple[str, ...]  # headers naming a field an earlier column already claimed


def resolve_columns(
    headers: Sequence[str],
    vocabulary: dict[str, str],
    required: Sequence[str],
    *,
    display: dict[str, str] | None = None,
    instance_pattern: re.Pattern[str] | None = _INSTANCE_HEADER,
) -> Columns:
    """Map each header to a field; raise ValueError naming a missing required one and listing the headers found."""
    fields: list[str | None] = []
    unknown, duplicate, seen = [], [], set()
    for header in headers:
        key = canonical_header(header)
        field = vocabulary.get(key)
        if field is None and instance_pattern is not None and "instance" not in seen and instance_pattern.search(key):
            field = "instance"
        if field is not None and field in seen:
            duplicate.append(header)
            field = None
        elif field is None:
            unknown.append(header)
        else:
            seen.add(field)
        fields.append(field)
    for field in required:
        if field not in seen:
            found = ", ".join(f'"{h}"' for h in headers) or "no headers"
            name = (display or COLUMN_DISPLAY).get(field, field)
            raise ValueError(f'column "{name}" not found; found: {found}')
    return Columns(tuple(fields), tuple(unknown), tuple(duplicate))


def resolve_io_columns(headers: Sequence[str], scope: str) -> Columns:
    """Columns of a per-instance I/O table; 2007 disk tables resolve to role-relative suffixes."""
    vocabulary = DISK_COLUMNS if scope == "disk_subsystem" else IO_COLUMNS
    return resolve_columns(headers, vocabulary, ("instance", *REQUIRED_IO_FIELDS[scope]))


HOST_COLUMNS = {
    "counter": "name",
    "avg": "average",  # canonical_header spells "Average" as "avg"
    "minimum": "minimum",
    "min": "minimum",
    "maximum": "maximum",
    "max": "maximum",
}
HOST_STATS = ("average", "minimum", "maximum")
HOST_DISPLAY = {"name": "Counter", "average": "Average"}
BACKUP_COLUMNS = {
    "db instance": "instance",
    "db size (mbytes)": "database_size_mb",
    "elapsed backup time": "elapsed_seconds",
    "mbytes transferred/sec": "mb_per_s",
}
BACKUP_DISPLAY = {
    "instance": "Database Instance",
    "database_size_mb": "Database Size (MBytes)",
    "elapsed_seconds": "Elapsed Backup Time",
    "mb_per_s": "MBytes Transferred/sec",
}
RECOVERY_COLUMNS = {
    "db instance": "instance",
    "log files replayed": "log_files_replayed",
    "elapsed seconds": "elapsed_seconds",
}
RECOVERY_DISPLAY = {
    "instance": "Database Instance",
    "log_files_replayed": "Log files replayed",
    "elapsed_seconds": "Elapsed seconds",
}
# DBChecksum tables (layout not seen): the column naming the database or volume.
CHECKSUM_INSTANCE_HEADER = re.compile(r"instance|database|db|volume|logicaldisk|storage group|disk|path")
# Summary rows under the backup/recovery statistics (inferred "Avg"/"Sum"): not instances.
AGGREGATE_ROW_LABELS = frozenset({"avg", "average", "sum", "total", "_total"})


# Test Summary rows every Jetstress version prints; without them the report was cut short.
SUMMARY_REQUIRED = ("Overall Test Result", "Machine Name", "Test Start Time", "Test End Time")
# The section a report of each type cannot do without: (section kind, title as printed).
REQUIRED_SECTION = {
    "Performance": ("summary", "Test Summary"),
    "Stress": ("summary", "Test Summary"),
    "DatabaseBackup": ("backup", "Database Backup Statistics"),
    "SoftRecovery": ("recovery", "Soft-Recovery Statistics"),
}


def expected_sections(report_type: str, jetstress_version: str | None, io_scopes: AbstractSet[str],
                      background_maintenance: bool | None, copies_per_database: int | None) -> dict[str, str]:
    """Section kind/scope -> title of the optional sections a report of this kind normally has.

    Shared by the HTML parser and the document reader, so both warn about the same gaps.
    """
    expected = {"host": "Host System Performance", "log": "Test Log"}
    if report_type in TRANSACTIONAL_REPORT_TYPES:
        expected |= {"sizing": "Database Sizing and Throughput", "parameters": "Jetstress System Parameters"}
        if "disk_subsystem" in io_scopes or release_from_version(jetstress_version) == "2007":
            expected["disk_subsystem"] = "Disk Subsystem Performance"
        else:
            expected |= {"transactional": "Transactional I/O Performance", "total": "Total I/O Performance"}
            if background_maintenance is not False:
                expected["background_maintenance"] = "Background Database Maintenance I/O Performance"
            if (copies_per_database or 1) > 1:
                expected["log_replication"] = "Log Replication I/O Performance"
    return expected
