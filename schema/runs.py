"""One Jetstress test execution and everything its report says, in fixed units.

Tables that grow with report size (latencies, log events, report fields) carry `run_id`
in their primary key, so they can be partitioned by run without a schema change.
"""


from datetime import datetime

from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, non_negative, one_of
from .units import LATENCY_UNITS
from .vocabulary import IO_SCOPES, REPORT_TYPES, THREAD_SCOPES, VERDICTS, VOLUME_ROLES

RUN_ORIGINS = ("report", "document_table", "hosts")

_RUN_MEASURES = (
    "achieved_iops",
    "target_iops",
    "thread_count",
    "log_buffers",
    "min_database_cache_mb",
    "max_database_cache_mb",
    "insert_percent",
    "delete_percent",
    "replace_percent",
    "read_percent",
    "lazy_commit_percent",
    "copies_per_database",
    "initial_database_bytes",
    "final_database_bytes",
    "database_file_count",
    "threshold_db_read_avg_ms",
    "threshold_db_read_max_ms",
    "threshold_log_write_avg_ms",
    "threshold_log_write_max_ms",
)


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        UniqueConstraint("source_file_id", "report_index", name="uq_runs_source_report"),
        one_of("report_type", REPORT_TYPES),
        one_of("origin", RUN_ORIGINS),
        one_of("reported_verdict", VERDICTS),
        one_of("thread_scope", THREAD_SCOPES),
        *non_negative(*_RUN_MEASURES),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    report_index: Mapped[int] = mapped_column(Integer, server_default="0")  # nth report in a document
    source_line: Mapped[int | None] = mapped_column(Integer)  # where the report starts in its file
    solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="SET NULL"), index=True)
    trial_id: Mapped[int | None] = mapped_column(ForeignKey("trials.id", ondelete="SET NULL"), index=True)
    run_label: Mapped[str | None] = mapped_column(Text)  # "Run 2"
    # "report": a Jetstress report; "document_table": only a document's result table gives its figures;
    # "hosts": a test over several hosts, whose figures are its host reports' (runs.test_run_id) sums.
    origin: Mapped[str] = mapped_column(Text, server_default="report")
    # On a host's report: the test over several hosts it is one host of (origin "hosts").
    test_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    # What a document calls a test under an abnormal condition ("Drive failure", "Rebuild"); NULL: a normal test.
    scenario: Mapped[str | None] = mapped_column(Text)
    # What makes two sightings of a report one run: machine, test start, Jetstress version, achieved IOPS.
    identity_key: Mapped[str | None] = mapped_column(Text, index=True)

    report_type: Mapped[str] = mapped_column(Text)
    product_title: Mapped[str | None] = mapped_column(Text)
    jetstress_version: Mapped[str | None] = mapped_column(Text)
    jetstress_release: Mapped[int | None] = mapped_column(Integer)  # 2007, 2010, 2013
    ese_version: Mapped[str | None] = mapped_column(Text)
    machine_name: Mapped[str | None] = mapped_column(Text)
    test_description: Mapped[str | None] = mapped_column(Text)
    operating_system: Mapped[str | None] = mapped_column(Text)
    # Local wall-clock time of the test machine, as the report prints it (no zone given).
    test_start: Mapped[datetime | None] = mapped_column(DateTime)
    test_end: Mapped[datetime | None] = mapped_column(DateTime)
    collection_start: Mapped[datetime | None] = mapped_column(DateTime)
    collection_end: Mapped[datetime | None] = mapped_column(DateTime)
    performance_logs: Mapped[list[str] | None] = mapped_column(ARRAY(Text))

    reported_verdict: Mapped[str | None] = mapped_column(Text)
    achieved_iops: Mapped[float | None]
    target_iops: Mapped[float | None]
    initial_database_bytes: Mapped[int | None] = mapped_column(BigInteger)
    final_database_bytes: Mapped[int | None] = mapped_column(BigInteger)
    database_file_count: Mapped[int | None] = mapped_column(Integer)

    thread_count: Mapped[int | None] = mapped_column(Integer)
    thread_scope: Mapped[str | None] = mapped_column(Text)
    log_buffers: Mapped[int | None] = mapped_column(Integer)
    min_database_cache_mb: Mapped[float | None]
    max_database_cache_mb: Mapped[float | None]
    insert_percent: Mapped[float | None]
    delete_percent: Mapped[float | None]
    replace_percent: Mapped[float | None]
    read_percent: Mapped[float | None]
    lazy_commit_percent: Mapped[float | None]
    background_maintenance: Mapped[bool | None] = mapped_column(Boolean)
    copies_per_database: Mapped[int | None] = mapped_column(Integer)

    # Thresholds the test log announced, converted to milliseconds.
    threshold_db_read_avg_ms: Mapped[float | None]
    threshold_db_read_max_ms: Mapped[float | None]
    threshold_log_write_avg_ms: Mapped[float | None]
    threshold_log_write_max_ms: Mapped[float | None]

    instances: Mapped[list["Instance"]] = relationship(back_populates="run", cascade="all, delete-orphan")


class Instance(Base):
    """An ESE instance (2010+) or a LogicalDisk volume (2007)."""

    __tablename__ = "instances"
    __table_args__ = (
        UniqueConstraint("run_id", "name", name="uq_instances_run_name"),
        UniqueConstraint("run_id", "id", name="uq_instances_run_id"),  # target of (run_id, instance_id) keys
        one_of("volume_role", VOLUME_ROLES),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(Text)
    volume_role: Mapped[str | None] = mapped_column(Text)  # 2007 volumes only
    database_paths: Mapped[list[str] | None] = mapped_column(ARRAY(Text))
    log_path: Mapped[str | None] = mapped_column(Text)

    run: Mapped[Run] = relationship(back_populates="instances")


_LATENCY_MEASURES = (
    "db_read_latency_ms",
    "db_write_latency_ms",
    "db_reads_per_s",
    "db_writes_per_s",
    "db_read_avg_bytes",
    "db_write_avg_bytes",
    "log_read_latency_ms",
    "log_write_latency_ms",
    "log_reads_per_s",
    "log_writes_per_s",
    "log_read_avg_bytes",
    "log_write_avg_bytes",
    "maintenance_reads_per_s",
    "maintenance_read_avg_bytes",
)


class Latency(Base):
    """The I/O table: one row per instance and scope (transactional, total, ...)."""

    __tablename__ = "latencies"
    __table_args__ = (
        ForeignKeyConstraint(
            ["run_id", "instance_id"],
            ["instances.run_id", "instances.id"],
            ondelete="CASCADE",
            name="fk_latencies_run_instance",
        ),
        one_of("scope", IO_SCOPES),
        one_of("source_latency_unit", LATENCY_UNITS),
        *non_negative(*_LATENCY_MEASURES),
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    instance_id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(Text, primary_key=True)
    db_read_latency_ms: Mapped[float | None]
    db_write_latency_ms: Mapped[float | None]
    db_reads_per_s: Mapped[float | None]
    db_writes_per_s: Mapped[float | None]
    db_read_avg_bytes: Mapped[float | None]
    db_write_avg_bytes: Mapped[float | None]
    log_read_latency_ms: Mapped[float | None]
    log_write_latency_ms: Mapped[float | None]
    log_reads_per_s: Mapped[float | None]
    log_writes_per_s: Mapped[float | None]
    log_read_avg_bytes: Mapped[float | None]
    log_write_avg_bytes: Mapped[float | None]
    maintenance_reads_per_s: Mapped[float | None]
    maintenance_read_avg_bytes: Mapped[float | None]
    source_latency_unit: Mapped[str] = mapped_column(Text)  # provenance: the unit the report printed
    source_line: Mapped[int | None] = mapped_column(Integer)


class HostCounter(Base):
    __tablename__ = "host_counters"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    counter_name: Mapped[str] = mapped_column(Text, primary_key=True)
    average: Mapped[float | None]
    minimum: Mapped[float | None]
    maximum: Mapped[float | None]
    source_line: Mapped[int | None] = mapped_column(Integer)  # where the row is printed in its file


class TestIssue(Base):
    """A 2013+ "Test Issues" line: one failed criterion."""

    __tablename__ = "test_issues"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    message: Mapped[str] = mapped_column(Text)


class LogEvent(Base):
    __tablename__ = "log_events"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    logged_at: Mapped[datetime | None] = mapped_column(DateTime)  # test machine's local time
    message: Mapped[str] = mapped_column(Text)
    source_line: Mapped[int | None] = mapped_column(Integer)


class ReportField(Base):
    """Every label/value row exactly as printed, so nothing a report says is lost."""

    __tablename__ = "report_fields"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    section: Mapped[str] = mapped_column(Text)
    label: Mapped[str] = mapped_column(Text)
    value: Mapped[str] = mapped_column(Text)
    source_line: Mapped[int | None] = mapped_column(Integer)


class IngestWarning(Base):
    """Something a file said that does not add up, or could not be read but was not needed."""

    __tablename__ = "ingest_warnings"

    id: Mapped[int] = mapped_column(primary_key=True)
    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    check_name: Mapped[str] = mapped_column(Text)  # e.g. "achieved_iops_vs_instances"
    message: Mapped[str] = mapped_column(Text)


class BackupStat(Base):
    __tablename__ = "backup_stats"
    __table_args__ = (
        ForeignKeyConstraint(
            ["run_id", "instance_id"],
            ["instances.run_id", "instances.id"],
            ondelete="CASCADE",
            name="fk_backup_stats_run_instance",
        ),
        *non_negative("database_size_mb", "elapsed_s", "transfer_mb_per_s"),
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    instance_id: Mapped[int] = mapped_column(primary_key=True)
    database_size_mb: Mapped[float | None]
    elapsed_s: Mapped[float | None]
    transfer_mb_per_s: Mapped[float | None]


class RecoveryStat(Base):
    __tablename__ = "recovery_stats"
    __table_args__ = (
        ForeignKeyConstraint(
            ["run_id", "instance_id"],
            ["instances.run_id", "instances.id"],
            ondelete="CASCADE",
            name="fk_recovery_stats_run_instance",
        ),
        *non_negative("log_files_replayed", "elapsed_s"),
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    instance_id: Mapped[int] = mapped_column(primary_key=True)
    log_files_replayed: Mapped[int | None] = mapped_column(Integer)
    elapsed_s: Mapped[float | None]


PUBLISHED_METRICS = (
    "achieved_iops", "log_iops", "total_iops", "throughput_mb_per_s", "db_reads_per_s", "db_writes_per_s",
    "db_read_latency_ms", "db_write_latency_ms", "log_write_latency_ms", "idle_power_w", "active_power_w",
)


class PublishedValue(Base):
    """A run's figure as a document's result table prints it (the run's report may be unpublished)."""

    __tablename__ = "run_published_values"
    __table_args__ = (
        one_of("metric", PUBLISHED_METRICS), *non_negative("value"),
        # the few power rows, read together by perf_per_watt (revision 0021)
        Index("ix_run_published_values_power", "run_id", postgresql_include=["metric", "value"],
              postgresql_where=text("metric IN ('active_power_w', 'idle_power_w')")),
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    metric: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[float]  # unit by metric: IOPS, MB/s (2^20 bytes), ms or W
    value_printed: Mapped[str] = mapped_column(Text)  # "1,318.962 + 1,458.143 + …" when rows are added up
    document_table_id: Mapped[int | None] = mapped_column(
        ForeignKey("document_tables.id", ondelete="CASCADE"), index=True
    )
    row_labels: Mapped[list[str]] = mapped_column(ARRAY(Text))
