"""Typed records that parsers return: the contract between `ingest.formats.<format>` and `ingest.load`.

Stage one of a two-stage parse: numbers are parsed, but units stay as printed
(`latency_unit="s"` for a Jetstress 2007 LogicalDisk table). `ingest.jetstress.normalise`
turns them into the schema's fixed units (milliseconds, bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

# Jetstress's words as the catalogue stores them (report types, I/O scopes, verdicts): one
# definition, in the schema; the parsers' readers take them from here too.
from ...schema.units import LatencyUnit as LatencyUnit
from ...schema.vocabulary import (
    IoScope as IoScope,
    ReportType as ReportType,
    ThreadScope as ThreadScope,
    Verdict as Verdict,
    VolumeRole as VolumeRole,
)


@dataclass(frozen=True)
class KeyValue:
    """One label/value row exactly as printed, so nothing the report says is lost."""

    section: str
    label: str
    value: str
    line: int | None = None


@dataclass(frozen=True)
class InstanceConfig:
    """One ESE instance (2010+) or storage group (2007) from "Database Configuration"."""

    name: str
    database_paths: tuple[str, ...] = ()
    log_path: str | None = None


@dataclass(frozen=True)
class IoRow:
    """One row of a per-instance I/O table, in the table's own latency unit.

    For 2007 `disk_subsystem` tables `instance` is the volume as printed
    (e.g. ``c:\\db1``) and `volume_role` is ``database`` or ``log``; the LogicalDisk
    columns map to the same fields (Avg. Disk sec/Read -> db_read_latency for a
    database volume, log_read_latency for a log volume, and so on).
    """

    instance: str
    volume_role: VolumeRole | None = None
    db_read_latency: float | None = None
    db_write_latency: float | None = None
    db_reads_per_s: float | None = None
    db_writes_per_s: float | None = None
    db_read_avg_bytes: float | None = None
    db_write_avg_bytes: float | None = None
    log_read_latency: float | None = None
    log_write_latency: float | None = None
    log_reads_per_s: float | None = None
    log_writes_per_s: float | None = None
    log_read_avg_bytes: float | None = None
    log_write_avg_bytes: float | None = None
    maintenance_reads_per_s: float | None = None
    maintenance_read_avg_bytes: float | None = None
    line: int | None = None


@dataclass(frozen=True)
class IoTable:
    """One of a report's I/O tables (per database or per log), its rows as printed."""

    scope: IoScope
    latency_unit: LatencyUnit
    headers: tuple[str, ...]  # as printed, for provenance and error messages
    rows: tuple[IoRow, ...]
    line: int | None = None


@dataclass(frozen=True)
class HostCounter:
    """A host system performance counter's row: average, minimum and maximum as printed."""

    name: str  # as printed, e.g. "% Processor Time"
    average: float | None
    minimum: float | None
    maximum: float | None
    line: int | None = field(default=None, compare=False)  # where the row is printed: provenance, not content


@dataclass(frozen=True)
class LogEvent:
    """One event of the report's test log, at the test machine's local time."""

    logged_at: datetime | None  # local time of the test machine, as printed (no zone)
    message: str
    line: int | None = None


@dataclass(frozen=True)
class Thresholds:
    """Latency thresholds the test log announces, in the unit it prints."""

    unit: LatencyUnit
    db_read_avg: float | None = None
    db_read_max: float | None = None
    log_write_avg: float | None = None
    log_write_max: float | None = None


@dataclass(frozen=True)
class BackupRow:
    """DatabaseBackup report: one row of "Database Backup Statistics"."""

    instance: str
    database_size_mb: float | None
    elapsed_seconds: float | None
    mb_per_s: float | None


@dataclass(frozen=True)
class RecoveryRow:
    """SoftRecovery report: one row of "Soft-Recovery Statistics"."""

    instance: str
    log_files_replayed: int | None
    elapsed_seconds: float | None


@dataclass(frozen=True)
class ChecksumRow:
    """DBChecksum report: one row per database or volume (layout inferred, kept loosely)."""

    instance: str
    values: tuple[tuple[str, float | None], ...]  # (header as printed, value)


@dataclass
class JetstressReport:
    """Everything one Jetstress report says, whatever file it came from."""

    source_name: str
    report_type: ReportType
    product_title: str | None = None  # e.g. "Microsoft Exchange Jetstress 2010"
    source_line: int | None = None  # where the report starts in its file (documents hold several)
    key_values: list[KeyValue] = field(default_factory=list)

    # Test Summary
    overall_result: Verdict | None = None
    machine_name: str | None = None
    test_description: str | None = None
    test_start: datetime | None = None
    test_end: datetime | None = None
    collection_start: datetime | None = None
    collection_end: datetime | None = None
    jetstress_version: str | None = None
    ese_version: str | None = None
    operating_system: str | None = None
    performance_logs: list[str] = field(default_factory=list)

    # Database Sizing and Throughput
    achieved_iops: float | None = None
    target_iops: float | None = None
    initial_database_bytes: int | None = None
    final_database_bytes: int | None = None
    database_file_count: int | None = None

    # Jetstress System Parameters
    thread_count: int | None = None
    thread_scope: ThreadScope | None = None
    log_buffers: int | None = None
    min_database_cache_mb: float | None = None
    max_database_cache_mb: float | None = None
    insert_percent: float | None = None
    delete_percent: float | None = None
    replace_percent: float | None = None
    read_percent: float | None = None
    lazy_commit_percent: float | None = None
    background_maintenance: bool | None = None
    copies_per_database: int | None = None

    instances: list[InstanceConfig] = field(default_factory=list)
    io_tables: list[IoTable] = field(default_factory=list)
    host_counters: list[HostCounter] = field(default_factory=list)
    test_issues: list[str] = field(default_factory=list)
    log_events: list[LogEvent] = field(default_factory=list)
    thresholds: Thresholds | None = None
    backup_rows: list[BackupRow] = field(default_factory=list)
    recovery_rows: list[RecoveryRow] = field(default_factory=list)
    checksum_rows: list[ChecksumRow] = field(default_factory=list)

    # Things the parser could not read but did not need (optional section missing, ...)
    warnings: list[str] = field(default_factory=list)
