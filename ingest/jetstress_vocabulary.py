"""What Jetstress prints, and what it means: labels, column headers, section titles, values.

Format-independent and pure, so the HTML parser and a later parser of report text
extracted from PDFs share one vocabulary. Lookups take text as printed and normalise it
here; value parsers raise `ValueError` with the offending text, and the caller turns that
into a `ParseError` that names the file, section and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

# --- text normalisation -------------------------------------------------------------

_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def normalise_label(text: str) -> str:
    """Case-folded, markup-free, single-spaced, without a trailing colon: the lookup key."""
    text = _TAG.sub("", text).replace("\xa0", " ")
    return _SPACE.sub(" ", text).strip().rstrip(":").strip().casefold()


# --- value parsers ------------------------------------------------------------------

_NOT_AVAILABLE = frozenset({"", "(n/a)", "n/a", "na", "-", "--", "nan"})
# US digits only: "6,667.51", "1,337,014,042,624", "0.019", "1.05381856535713", "1e-05".
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?")


def is_not_available(text: str) -> bool:
    return text.strip().casefold() in _NOT_AVAILABLE


def parse_number(text: str) -> float | None:
    """A printed number, thousands separators allowed; "(n/a)" and blanks are None."""
    if is_not_available(text):
        return None
    cleaned = text.strip()
    if not _NUMBER.fullmatch(cleaned) or not any(c.isdigit() for c in cleaned):
        raise ValueError(f"not a number: {text!r}")
    return float(cleaned.replace(",", ""))


def parse_int(text: str) -> int | None:
    """An integer, exact even for byte counts beyond 2**53."""
    number = parse_number(text)
    if number is None:
        return None
    cleaned = text.strip().replace(",", "")
    try:
        return int(cleaned)
    except ValueError:
        if number.is_integer():
            return int(number)
        raise ValueError(f"not a whole number: {text!r}") from None


_PERCENT = re.compile(r"(?P<n>[\d.,]+)\s*(?:%|percent)?", re.IGNORECASE)


def parse_percent(text: str) -> float | None:
    """"40%", "40 percent" or "40" -> 40.0."""
    if is_not_available(text):
        return None
    match = _PERCENT.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a percentage: {text!r}")
    return parse_number(match["n"])


_SIZE = re.compile(r"(?P<n>[\d.,]+)\s*(?P<unit>bytes|byte|b|kb|mb|gb|tb)", re.IGNORECASE)
_SIZE_IN_MB = {"bytes": 1 / 1024**2, "byte": 1 / 1024**2, "b": 1 / 1024**2, "kb": 1 / 1024, "mb": 1.0, "gb": 1024.0, "tb": 1024.0**2}


def parse_size_mb(text: str) -> float | None:
    """A cache size as Jetstress prints it ("256.0 MB", "3,328.0 MB", "2.0 GB") in MB (binary prefixes)."""
    if is_not_available(text):
        return None
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a size with a unit (KB, MB, GB, TB): {text!r}")
    return parse_number(match["n"]) * _SIZE_IN_MB[match["unit"].lower()]


_THREADS = re.compile(r"(?P<n>\d[\d,]*)\s*(?:\((?P<scope>[^)]*)\))?")
THREAD_SCOPES: dict[str, str] = {
    "per storage group": "per_storage_group",
    "per database": "per_database",
    "global": "global",
}


def parse_thread_count(text: str) -> tuple[int | None, str | None]:
    """"21 (per-storage group)" -> (21, "per_storage_group"); a bare "7" is global (2013+)."""
    if is_not_available(text):
        return None, None
    match = _THREADS.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a thread count: {text!r}")
    if match["scope"] is None:
        return parse_int(match["n"]), "global"
    scope = _SPACE.sub(" ", match["scope"].replace("-", " ")).strip().casefold()
    if scope not in THREAD_SCOPES:
        raise ValueError(f"unknown thread count scope {match['scope']!r}; known: {', '.join(THREAD_SCOPES)}")
    return parse_int(match["n"]), THREAD_SCOPES[scope]


_BOOLEANS = {"true": True, "yes": True, "false": False, "no": False}


def parse_bool(text: str) -> bool | None:
    if is_not_available(text):
        return None
    try:
        return _BOOLEANS[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"not True/False: {text!r}") from None


_DURATION = re.compile(r"(?:(?P<d>\d+)\.)?(?P<h>\d+):(?P<m>\d{2}):(?P<s>\d{2}(?:\.\d+)?)")


def parse_duration_seconds(text: str) -> float | None:
    """"05:51:58" (or .NET "1.05:51:58", or plain seconds) -> seconds."""
    if is_not_available(text):
        return None
    match = _DURATION.fullmatch(text.strip())
    if not match:
        return parse_number(text)
    days = int(match["d"] or 0)
    return ((days * 24 + int(match["h"])) * 60 + int(match["m"])) * 60 + float(match["s"])


DATETIME_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %I:%M %p")


def parse_datetime(text: str) -> datetime | None:
    """Jetstress local time "9/18/2008 2:54:59 PM" (US order, no zero padding, no zone)."""
    if is_not_available(text):
        return None
    cleaned = _SPACE.sub(" ", text.strip()).upper()
    for fmt in DATETIME_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
    raise ValueError(f"not a Jetstress date-time (M/D/YYYY h:mm:ss AM): {text!r}")


_VERDICTS = {"pass": "Pass", "passed": "Pass", "fail": "Fail", "failed": "Fail"}


def parse_verdict(text: str) -> str:
    try:
        return _VERDICTS[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"not Pass or Fail: {text!r}") from None


def parse_lines(text: str) -> list[str]:
    """A multi-line value (Performance Log paths, Test Issues): one entry per non-blank line."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_text(text: str) -> str | None:
    return text.strip() or None


_VOLUME = re.compile(r"(?P<role>database|log)\s*\(\s*(?P<volume>.+?)\s*\)", re.IGNORECASE)


def parse_volume_label(text: str) -> tuple[str, str]:
    """2007 LogicalDisk row label "Database (c:\\db1)" -> ("database", "c:\\db1")."""
    match = _VOLUME.fullmatch(_TAG.sub("", text).strip())
    if not match:
        raise ValueError(f'not a volume label like "Database (c:\\db1)" or "Log (F:)": {text!r}')
    return match["role"].lower(), match["volume"]


_INSTANCE_PATH = re.compile(r"(?P<key>log path|database)\s*:\s*(?P<path>.*)", re.IGNORECASE)


def parse_instance_paths(text: str) -> tuple[str | None, tuple[str, ...], list[str]]:
    """"Log path: …" / "Database: …" lines -> (log path, database paths, lines not understood)."""
    log_path, databases, other = None, [], []
    for line in parse_lines(text):
        match = _INSTANCE_PATH.fullmatch(line)
        if not match:
            other.append(line)
        elif match["key"].lower() == "log path":
            log_path = match["path"].strip() or None
        elif match["path"].strip():
            databases.append(match["path"].strip())
    return log_path, tuple(databases), other


# --- versions and report types ------------------------------------------------------

RELEASE_BY_MAJOR = {"08": "2007", "8": "2007", "14": "2010", "15": "2013"}  # 15.x also serves Exchange 2016


def release_from_version(version: str | None) -> str | None:
    """"14.01.0225.017" -> "2010"."""
    major = (version or "").strip().split(".")[0]
    return RELEASE_BY_MAJOR.get(major)


_YEAR = re.compile(r"jetstress\D*(20\d\d)", re.IGNORECASE)


def release_from_title(title: str | None) -> str | None:
    """"Microsoft Exchange Jetstress 2010" -> "2010"; the 2007 title carries no year."""
    match = _YEAR.search(title or "")
    return match[1] if match else None


REPORT_TYPE_PREFIXES = ("Performance", "Stress", "DatabaseBackup", "SoftRecovery", "DBChecksum")
_FILE_PREFIX = re.compile(r"(?P<type>" + "|".join(REPORT_TYPE_PREFIXES) + r")[_ ]", re.IGNORECASE)


def report_type_from_filename(name: str) -> str | None:
    """"Stress_2015_7_17_14_9_16.html" -> "Stress" (the file name is Jetstress's own record)."""
    base = re.split(r"[\\/]", name)[-1]
    match = _FILE_PREFIX.match(base)
    if not match:
        return None
    return next(t for t in REPORT_TYPE_PREFIXES if t.lower() == match["type"].lower())


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
    """"Performance Test Result Report" -> "Performance"; "Database backup Test Result Report" -> "DatabaseBackup"."""
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
    """"Transactional I/O Performance" -> "transactional"; None for other sections."""
    return IO_SCOPES_BY_TITLE.get(normalise_title(title))


def section_kind(title: str) -> str | None:
    """"io", "summary", "host", "backup", … or None for a section nobody knows."""
    key = normalise_title(title)
    if key in IO_SCOPES_BY_TITLE:
        return "io"
    if key in SECTION_KINDS_BY_TITLE:
        return SECTION_KINDS_BY_TITLE[key]
    return "checksum" if "checksum" in key else None


# --- column headers -----------------------------------------------------------------

_UNIT_SUFFIX = re.compile(r"\((?:msec|ms|sec|seconds)\)")
_WORD_SYNONYMS = (("database", "db"), ("average", "avg"), ("(attached)", ""))


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


HOST_COLUMNS = {"counter": "name", "average": "average", "avg": "average", "minimum": "minimum", "min": "minimum", "maximum": "maximum", "max": "maximum"}
HOST_DISPLAY = {"name": "Counter", "average": "Average"}
BACKUP_COLUMNS = {
    "db instance": "instance",
    "db size (mbytes)": "database_size_mb",
    "elapsed backup time": "elapsed_seconds",
    "mbytes transferred/sec": "mb_per_s",
}
BACKUP_DISPLAY = {"instance": "Database Instance", "database_size_mb": "Database Size (MBytes)",
                  "elapsed_seconds": "Elapsed Backup Time", "mb_per_s": "MBytes Transferred/sec"}
RECOVERY_COLUMNS = {"db instance": "instance", "log files replayed": "log_files_replayed", "elapsed seconds": "elapsed_seconds"}
RECOVERY_DISPLAY = {"instance": "Database Instance", "log_files_replayed": "Log files replayed", "elapsed_seconds": "Elapsed seconds"}
# DBChecksum tables (layout not seen): the column naming the database or volume.
CHECKSUM_INSTANCE_HEADER = re.compile(r"instance|database|db|volume|logicaldisk|storage group|disk|path")
# Summary rows under the backup/recovery statistics (inferred "Avg"/"Sum"): not instances.
AGGREGATE_ROW_LABELS = frozenset({"avg", "average", "sum", "total", "_total"})
