"""Time series: perfmon counters and power analyser samples.

`perf_samples` is keyed by the export file it came from (`source_file_id`, the partition
key) rather than by run: a perfmon export is loaded before it is matched to a run by machine
and time window, and one export belongs to exactly one run, so partitioning by source file
keeps a run's samples together just the same.
"""


from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, non_negative, one_of
from .vocabulary import POWER_BOUNDARIES


class PerfCounter(Base):
    """One column of a perfmon export: \\\\machine\\object(instance)\\counter."""

    __tablename__ = "perf_counters"
    __table_args__ = (
        UniqueConstraint("source_file_id", "column_index", name="uq_perf_counters_source_column"),
        UniqueConstraint("source_file_id", "id", name="uq_perf_counters_source_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    column_index: Mapped[int] = mapped_column(Integer)
    machine: Mapped[str | None] = mapped_column(Text)
    object_name: Mapped[str] = mapped_column(Text)
    instance_name: Mapped[str | None] = mapped_column(Text)
    counter_name: Mapped[str] = mapped_column(Text)
    counter_path: Mapped[str] = mapped_column(Text)  # as printed in the header


class PerfSample(Base):
    """One value of one counter at one time.

    Deliberately without foreign keys: row-level FK checks cut COPY throughput from ~311k to
    ~83k rows/s (measured on this project's 2-core machine). The loader writes samples in the
    same transaction as their `perf_counters` rows, and a statement-level trigger (migration
    0001) deletes samples when their counters are deleted, so cascades still hold.
    """

    __tablename__ = "perf_samples"

    source_file_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    counter_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sampled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    value: Mapped[float | None]  # NULL where perfmon wrote a blank sample (" ")


class PowerSample(Base):
    """One reading of a power log.

    Without a foreign key, like `perf_samples` and for the same reason (row-level checks cut COPY
    to a quarter); a statement-level trigger (migration 0014) deletes the samples of a deleted
    `power_files` row, which the cascade from `source_files` deletes.
    """

    __tablename__ = "power_samples"
    __table_args__ = non_negative("power_w")

    source_file_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Power analysers log local wall-clock time, like the Jetstress report they sit beside.
    sampled_at: Mapped[datetime] = mapped_column(DateTime, primary_key=True)
    power_w: Mapped[float | None]


class RunPower(Base):
    """Idle and active power for a run, measured by a power log or taken from a manifest."""

    __tablename__ = "run_power"
    __table_args__ = (*non_negative("idle_power_w", "active_power_w"), one_of("boundary", POWER_BOUNDARIES))

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    source_file_id: Mapped[int | None] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    idle_power_w: Mapped[float | None]
    active_power_w: Mapped[float | None]
    boundary: Mapped[str | None] = mapped_column(Text)
