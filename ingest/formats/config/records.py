"""Typed records for a JetstressConfig.xml (and its `XmlConfig_<ts>.xml` copy).

The config is the test *design* (what the tester asked for); the HTML report is what
happened. Keeping both lets an auditor compare them (e.g. asked 1 IOPS/mailbox x 300
mailboxes, achieved 287). Every element of the two real samples has a typed field;
anything else lands in `JetstressConfig.extra` as ``(path, text)`` so nothing is lost.

Units: the numbers are kept as Jetstress writes them; the field name says the unit where
it is known (latency thresholds are milliseconds in Jetstress 2010+, `LogInterval` is
milliseconds, `MailboxQuota` megabytes, `DatabasePageSize` bytes, `LogFileSize` KiB).
"""

from __future__ import annotations

from dataclasses import dataclass

from ....schema.vocabulary import REPORT_TYPES

# TestDesignInfo/Type: a configuration designs every kind of test but the checksum (DBChecksum).
TEST_TYPES: tuple[str, ...] = tuple(t for t in REPORT_TYPES if t != "DBChecksum")

# Where the plain fields come from: (record field, XML element, kind), read by name by the parser.
# kind is text | int | float | bool.
TEST_DESIGN_ELEMENTS: tuple[tuple[str, str, str], ...] = (
    ("multi_host_break", "MultiHostBreak", "bool"),
    ("binary_perf_log", "BinaryPerfLog", "bool"),
    ("verify_checksum", "VerifyChecksum", "bool"),
    ("run_database_maintenance_performance", "RunDatabaseMaintenancePerformance", "bool"),
    ("run_database_maintenance_soft_recovery", "RunDatabaseMaintenanceSoftRecovery", "bool"),
    ("continue_on_errors", "ContinueOnErrors", "bool"),
    ("suppress_tuning", "SuppressTuning", "bool"),
    ("use_ese_counters", "UseEseCounters", "bool"),
    ("preload_jet_cache_fraction", "PreloadJetCache", "float"),
    ("backup_to_disk", "BackupToDisk", "bool"),
    ("log_files_to_replay", "LogFilesToReplay", "int"),
    ("log_files_to_checksum", "LogFilesToChecksum", "int"),
    ("log_interval_ms", "LogInterval", "int"),
    ("log_interval2_ms", "LogInterval2", "int"),
    ("retrieve_lv_on_read", "RetrieveLVOnRead", "bool"),
    ("retrieve_lv_on_scan", "RetrieveLVOnScan", "bool"),
    ("preread_on_read", "PrereadOnRead", "bool"),
    ("preread_on_scan", "PrereadOnScan", "bool"),
    ("update_lv", "UpdateLV", "bool"),
    ("scan_percent", "ScanPercentage", "float"),
    ("restore_backup_path", "RestoreBackupPath", "text"),
    ("output_path", "OutputPath", "text"),
    ("maximum_checksum_buffers", "MaximumChecksumBuffers", "int"),
    ("maximum_checksum_threads", "MaximumChecksumThreads", "int"),
    ("maximum_latency_errors", "MaximumLatencyErrors", "int"),
    ("sluggish_sessions", "SluggishSessions", "int"),
    ("batch_records", "BatchRecords", "int"),
    ("batch_updates", "BatchUpdates", "int"),
    ("bulky1_percent", "Bulky1Percentage", "float"),
)

EXCHANGE_PROFILE_ELEMENTS: tuple[tuple[str, str, str], ...] = (
    ("trans_per_sec", "TransPerSec", "float"),
    ("throughput_percent", "ThroughputPercentage", "float"),
    ("database_source", "DatabaseSource", "text"),
    ("database_sizing", "DatabaseSizing", "text"),
    ("capacity_percent", "CapacityPercentage", "float"),
    ("iops_margin_fraction", "MarginIops", "float"),
    ("long_pad_length", "LongPadLength", "int"),
    ("short_pad_length", "ShortPadLength", "int"),
    ("database_space_reserved_percent", "DatabaseSpaceReserved", "float"),
    ("database_copy_count", "DatabaseCopyCount", "int"),
)

THRESHOLD_ELEMENTS: tuple[tuple[str, str], ...] = (
    ("db_read_avg_ms", "AverageDatabaseReadLatency"),
    ("db_read_max_ms", "MaximumDatabaseReadLatency"),
    ("log_write_avg_ms", "AverageLogWriteLatency"),
    ("log_write_max_ms", "MaximumLogWriteLatency"),
)


@dataclass(frozen=True)
class LatencyThresholds:
    """One ``<Thresholds Name=… TestRunTypes=…>`` block (Jetstress 2013: Strict, Lenient)."""

    name: str | None
    test_run_types: tuple[str, ...]  # () = applies to every test type
    db_read_avg_ms: float | None
    db_read_max_ms: float | None
    log_write_avg_ms: float | None
    log_write_max_ms: float | None
    line: int | None = None


@dataclass(frozen=True)
class OperationMix:
    """``<OperationMix …/>`` attributes; reads are the remainder (100 - insert - delete - replace)."""

    lock_ops: bool | None
    insert_percent: float | None
    delete_percent: float | None
    replace_percent: float | None
    lazy_commit_percent: float | None

    @property
    def read_percent(self) -> float | None:
        parts = (self.insert_percent, self.delete_percent, self.replace_percent)
        return None if None in parts else 100.0 - sum(parts)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TestDesign:
    """``<TestDesignInfo>``: what kind of test, for how long, with which switches."""

    __test__ = False  # not a pytest test class despite the name

    test_type: str  # one of TEST_TYPES
    description: str | None  # None for ``<Description />``
    duration_iso: str | None  # as written, e.g. "P0Y0M0DT1H90M0S"
    duration_s: float | None  # 9000.0 for the example above (1 h + 90 min)
    multi_host_break: bool | None
    binary_perf_log: bool | None
    verify_checksum: bool | None
    run_database_maintenance_performance: bool | None
    run_database_maintenance_soft_recovery: bool | None
    continue_on_errors: bool | None
    suppress_tuning: bool | None
    use_ese_counters: bool | None
    preload_jet_cache_fraction: float | None  # 0.9 = preload 90 % of the cache
    backup_to_disk: bool | None
    log_files_to_replay: int | None
    log_files_to_checksum: int | None
    log_interval_ms: int | None  # perfmon sample interval of the test
    log_interval2_ms: int | None
    operation_mix: OperationMix | None
    retrieve_lv_on_read: bool | None
    retrieve_lv_on_scan: bool | None
    preread_on_read: bool | None
    preread_on_scan: bool | None
    update_lv: bool | None
    scan_percent: float | None
    restore_backup_path: str | None
    output_path: str | None
    maximum_checksum_buffers: int | None  # as written (20971520; unit undocumented, probably bytes)
    maximum_checksum_threads: int | None
    maximum_latency_errors: int | None
    sluggish_sessions: int | None
    batch_records: int | None
    batch_updates: int | None
    bulky1_percent: float | None
    thresholds: tuple[LatencyThresholds, ...]


@dataclass(frozen=True)
class EseInstanceConfig:
    """One ``<EseInstance>``: one database (2010+) with its paths."""

    iops_bias: float | None
    database_paths: tuple[str, ...]
    log_path: str | None
    database_backup_path: str | None = None  # optional child written by some scripts
    line: int | None = None


@dataclass(frozen=True)
class ExchangeProfile:
    """``<ExchangeProfile>``: the simulated mailbox load and the database layout."""

    thread_count: int | None  # None = empty element: Jetstress auto-tunes the thread count
    trans_per_sec: float | None
    throughput_percent: float | None
    database_source: str | None  # "New" | "Open" (others kept as written)
    database_sizing: str | None  # "Profile" | …
    capacity_percent: float | None
    mailbox_count: int | None
    mailbox_quota_mb: float | None
    iops_per_mailbox: float | None  # <MailboxIops>
    iops_margin_fraction: float | None  # <MarginIops> 0.05 = 5 % below target still passes
    long_pad_length: int | None
    short_pad_length: int | None
    database_space_reserved_percent: float | None
    database_copy_count: int | None
    ese_instances: tuple[EseInstanceConfig, ...]

    @property
    def target_iops(self) -> float | None:
        """mailboxes x IOPS per mailbox: the target the report prints (before tuning)."""
        if self.mailbox_count is None or self.iops_per_mailbox is None:
            return None
        return self.mailbox_count * self.iops_per_mailbox


@dataclass(frozen=True)
class JetSystemParams:
    """``<JetSystemParams>``: ESE engine settings."""

    database_page_size_bytes: int | None
    circular_log: int | None  # 1 = circular logging on
    log_file_size_kib: int | None
    max_ver_pages: int | None
    dbm_throttling: int | None


@dataclass(frozen=True)
class JetstressConfig:
    """Everything one JetstressConfig.xml says."""

    source_name: str
    jetstress_version: str | None  # <JetstressVersionGenerated>, e.g. "15.0.995.0"
    ese_version: str | None  # <EseVersionGenerated>
    test_design: TestDesign
    profile: ExchangeProfile
    jet_system_params: JetSystemParams | None
    extra: tuple[tuple[str, str], ...] = ()  # unknown elements/attributes: (path, text)
