"""Per-run figures computed once, when the data they come from is written, for the canned views.

Nothing here is entered by hand: the SQL function `refresh_run_figures` (migration 0008;
perf counter means over each run's window since 0011) fills these tables from runs, latencies,
published values and perf samples. Statement triggers on those tables list the runs they touch
in `run_figures_stale`, and a deferred trigger recomputes exactly those runs (and their trial
peers, whose median may move) when the writing transaction commits, so the views never read a
half-written run and never re-rank the whole catalogue per call.
"""


from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, one_of

# Which samples a counter's stored mean covers: those inside its run's window, or the whole export.
SAMPLE_WINDOWS = ("run", "export")
FIGURE_SAMPLE_WINDOWS = (*SAMPLE_WINDOWS, "mixed")  # a run's figures may mix counters of both


class RunFigures(Base):
    """IOPS, the median-run choice, the I/O summary and disk throughput of one run."""

    __tablename__ = "run_figures"
    __table_args__ = (one_of("perfmon_sample_window", FIGURE_SAMPLE_WINDOWS),)

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    # Copied from the run, its solution and trial, so a view reads this one table: a run, a
    # solution or a trial changed marks the run stale like any other write.
    solution_id: Mapped[int | None] = mapped_column(Integer, index=True)
    trial_id: Mapped[int | None] = mapped_column(Integer)
    run_label: Mapped[str | None] = mapped_column(Text)
    report_type: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(Text)
    solution: Mapped[str | None] = mapped_column(String(100), index=True)  # the solution's key
    trial: Mapped[str | None] = mapped_column(Text)  # the trial's label
    jetstress_release: Mapped[int | None] = mapped_column(Integer)
    machine_name: Mapped[str | None] = mapped_column(Text)
    test_start: Mapped[datetime | None] = mapped_column(DateTime)
    reported_verdict: Mapped[str | None] = mapped_column(Text)
    target_iops: Mapped[float | None]
    # run_iops (Performance and Stress runs only; NULL for other report types)
    achieved_iops: Mapped[float | None]
    log_iops: Mapped[float | None]
    total_iops: Mapped[float | None]
    # median_runs: ranked by total IOPS within the run's trial (a run outside a trial is its own)
    trial_rank_ordinal: Mapped[int | None] = mapped_column(BigInteger)
    trial_run_count: Mapped[int | None] = mapped_column(BigInteger)
    is_median_run: Mapped[bool | None] = mapped_column(Boolean)
    trial_min_total_iops: Mapped[float | None]
    trial_max_total_iops: Mapped[float | None]
    spread_percent: Mapped[float | None]
    # run_summary: transactional (or 2007 disk subsystem) instances; NULL when the run has none
    database_instance_count: Mapped[int | None] = mapped_column(BigInteger)
    db_reads_per_s: Mapped[float | None]
    db_writes_per_s: Mapped[float | None]
    db_read_latency_ms: Mapped[float | None]
    db_write_latency_ms: Mapped[float | None]
    log_write_latency_ms: Mapped[float | None]
    # run_throughput: perfmon LogicalDisk(_Total) means over the run's window (perf_counter_means),
    # else the document's printed figure
    disk_transfers_per_s: Mapped[float | None]
    read_mb_per_s: Mapped[float | None]
    write_mb_per_s: Mapped[float | None]
    transfer_mb_per_s: Mapped[float | None]
    read_latency_ms: Mapped[float | None]
    write_latency_ms: Mapped[float | None]
    throughput_source: Mapped[str | None] = mapped_column(Text)  # perfmon | document_table | NULL: none
    # run | export | mixed: the samples the perfmon figures average (revision 0013); NULL without them
    perfmon_sample_window: Mapped[str | None] = mapped_column(Text)


class SolutionDiskCounts(Base):
    """disk_counts: a solution's disks on both bases (only solutions that list disks)."""

    __tablename__ = "solution_disk_counts"

    solution_id: Mapped[int] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), primary_key=True)
    all_disk_count: Mapped[int] = mapped_column(BigInteger)  # hot spares and system disks included
    active_disk_count: Mapped[int | None] = mapped_column(BigInteger)  # NULL: no active disks listed


class RunDiskFigures(Base):
    """per_disk_iops, row for row: each ranked run's IOPS divided by its solution's disks, on both bases."""

    __tablename__ = "run_disk_figures"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    disk_basis: Mapped[str] = mapped_column(Text, primary_key=True)  # all | active
    solution: Mapped[str | None] = mapped_column(String(100), index=True)
    trial: Mapped[str | None] = mapped_column(Text)
    run_label: Mapped[str | None] = mapped_column(Text)
    is_median_run: Mapped[bool | None] = mapped_column(Boolean)
    disk_count: Mapped[int | None] = mapped_column(Integer)
    achieved_iops: Mapped[float | None]
    log_iops: Mapped[float | None]
    total_iops: Mapped[float | None]
    per_disk_achieved_iops: Mapped[float | None]
    per_disk_log_iops: Mapped[float | None]
    per_disk_total_iops: Mapped[float | None]
    iops_source: Mapped[str] = mapped_column(Text)  # report | document_table


class RunScopeLatency(Base):
    """latency_summary: one run's instances aggregated per I/O scope."""

    __tablename__ = "run_scope_latencies"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    scope: Mapped[str] = mapped_column(Text, primary_key=True)
    solution: Mapped[str | None] = mapped_column(String(100), index=True)  # copied from the run, like these
    run_label: Mapped[str | None] = mapped_column(Text)
    threshold_db_read_avg_ms: Mapped[float | None]
    threshold_log_write_avg_ms: Mapped[float | None]
    instance_row_count: Mapped[int] = mapped_column(BigInteger)
    avg_db_read_latency_ms: Mapped[float | None]
    min_db_read_latency_ms: Mapped[float | None]
    max_db_read_latency_ms: Mapped[float | None]
    avg_db_write_latency_ms: Mapped[float | None]
    avg_log_write_latency_ms: Mapped[float | None]
    max_log_write_latency_ms: Mapped[float | None]
    over_read_threshold_count: Mapped[int] = mapped_column(BigInteger)
    over_log_threshold_count: Mapped[int] = mapped_column(BigInteger)


class PerfCounterMean(Base):
    """Sum and counts of one linked perfmon counter's samples over its run's window (migration 0011).

    The run's window is [test_start, test_end], local wall-clock time read with the export's bias
    as ingest/load/link.py reads it (UTC = local + bias minutes). When the run has no window, or no
    sample of the export falls in it, the sums cover the whole export; `sample_window` says which.
    A refresh of the counter's run recomputes the row when the run's window is no longer the one
    stored here (the counter relinked to another run, or the run's times changed).
    """

    __tablename__ = "perf_counter_means"
    __table_args__ = (one_of("sample_window", SAMPLE_WINDOWS),)

    counter_id: Mapped[int] = mapped_column(ForeignKey("perf_counters.id", ondelete="CASCADE"), primary_key=True)
    sample_window: Mapped[str] = mapped_column(Text)  # run: samples inside the run's window | export: all samples
    # The run's window in UTC the sums were computed against (used or not); NULL: the run has no window.
    run_window_start_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    run_window_end_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sample_count: Mapped[int] = mapped_column(BigInteger)  # rows in sample_window, blank samples included
    value_count: Mapped[int] = mapped_column(BigInteger)  # non-blank samples in sample_window
    value_sum: Mapped[float | None]  # in the counter's own unit, like perf_samples.value


class RunFiguresStale(Base):
    """Runs written in the current transaction whose figures are recomputed at commit."""

    __tablename__ = "run_figures_stale"

    run_id: Mapped[int] = mapped_column(Integer, primary_key=True)  # no key: the run may be gone
