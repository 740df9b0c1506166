"""The rest of a Jetstress result folder: test design, text logs, perfmon and power exports.

Each file is stored on its own (keyed by its source file) and linked to the run it belongs
to when one is found — by folder, machine, paths or time window (see `ingest/load/link.py`).
"""


from datetime import datetime

from sqlalchemy import ARRAY, Boolean, DateTime, ForeignKey, Integer, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, non_negative


class TestConfig(Base):
    """A JetstressConfig.xml: what the tester asked for (the report says what happened)."""

    __tablename__ = "test_configs"
    __table_args__ = non_negative(
        "duration_s", "mailbox_quota_mb", "target_iops", "log_interval_ms", "iops_margin_percent"
    )

    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    jetstress_version: Mapped[str | None] = mapped_column(Text)
    ese_version: Mapped[str | None] = mapped_column(Text)
    test_type: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)
    duration_iso: Mapped[str | None] = mapped_column(Text)
    duration_s: Mapped[float | None]
    thread_count: Mapped[int | None] = mapped_column(Integer)  # NULL: Jetstress tunes it
    mailbox_count: Mapped[int | None] = mapped_column(Integer)
    mailbox_quota_mb: Mapped[float | None]
    iops_per_mailbox: Mapped[float | None]
    iops_margin_percent: Mapped[float | None]
    database_copy_count: Mapped[int | None] = mapped_column(Integer)
    database_count: Mapped[int | None] = mapped_column(Integer)
    target_iops: Mapped[float | None]
    log_interval_ms: Mapped[float | None]
    settings: Mapped[dict] = mapped_column(JSONB)  # every element, as parsed


class ConfigInstance(Base):
    __tablename__ = "config_instances"

    source_file_id: Mapped[int] = mapped_column(
        ForeignKey("test_configs.source_file_id", ondelete="CASCADE"), primary_key=True
    )
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    iops_bias: Mapped[float | None]
    database_paths: Mapped[list[str]] = mapped_column(ARRAY(Text))
    log_path: Mapped[str | None] = mapped_column(Text)
    database_backup_path: Mapped[str | None] = mapped_column(Text)


class ConfigThreshold(Base):
    __tablename__ = "config_thresholds"

    source_file_id: Mapped[int] = mapped_column(
        ForeignKey("test_configs.source_file_id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(Text, primary_key=True)  # Strict, Lenient
    test_run_types: Mapped[list[str]] = mapped_column(ARRAY(Text))
    db_read_avg_ms: Mapped[float | None]
    db_read_max_ms: Mapped[float | None]
    log_write_avg_ms: Mapped[float | None]
    log_write_max_ms: Mapped[float | None]


class TestLog(Base):
    """A Jetstress *.log file."""

    __tablename__ = "test_logs"

    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    first_event_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_event_at: Mapped[datetime | None] = mapped_column(DateTime)
    event_count: Mapped[int] = mapped_column(Integer)
    threshold_db_read_avg_ms: Mapped[float | None]
    threshold_db_read_max_ms: Mapped[float | None]
    threshold_log_write_avg_ms: Mapped[float | None]
    threshold_log_write_max_ms: Mapped[float | None]


class TestLogEvent(Base):
    __tablename__ = "test_log_events"

    source_file_id: Mapped[int] = mapped_column(
        ForeignKey("test_logs.source_file_id", ondelete="CASCADE"), primary_key=True
    )
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    logged_at: Mapped[datetime | None] = mapped_column(DateTime)
    message: Mapped[str] = mapped_column(Text)
    source_line: Mapped[int | None] = mapped_column(Integer)


class PerfFile(Base):
    """One perfmon export (relog CSV/TSV): its machine, time zone and time span."""

    __tablename__ = "perf_files"

    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    machine: Mapped[str | None] = mapped_column(Text)
    time_zone_name: Mapped[str | None] = mapped_column(Text)
    bias_minutes: Mapped[int | None] = mapped_column(Integer)  # UTC = local + bias
    assumed_utc: Mapped[bool] = mapped_column(Boolean)  # no zone in the banner (typeperf)
    first_sample_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_sample_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    row_count: Mapped[int] = mapped_column(Integer)


class PowerFile(Base):
    __tablename__ = "power_files"

    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    first_sample_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_sample_at: Mapped[datetime | None] = mapped_column(DateTime)
    sample_count: Mapped[int] = mapped_column(Integer)
