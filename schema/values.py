"""Each ranked run's price and power, kept when what they come from is written (revision 0023).

Nothing here is entered by hand: the SQL function `refresh_run_value_figures`
(queries/run_value_figures.sql) fills `run_value_figures` from run_figures, solutions, run_power and
the power a document's table prints, and statement triggers on run_figures, run_power and solutions
(price or power changed) refresh the runs a write touches, so iops_per_dollar, dollars_per_kiops and
perf_per_watt read the rows they show instead of every ranked run and every solution at each call.
Also here: the covering index throughput_per_disk and run_throughput read (the runs with a throughput,
a quarter of run_figures), declared on run_figures' table.
"""


from decimal import Decimal

from sqlalchemy import Boolean, ForeignKey, Index, Integer, Numeric, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, one_of
from .figures import RunFigures

POWER_SOURCES = ("power_log", "document_table", "manifest")


class RunValueFigures(Base):
    """A ranked run of a solution with a list price or a power figure: what the per-dollar and per-watt views show."""

    __tablename__ = "run_value_figures"
    __table_args__ = (one_of("power_source", POWER_SOURCES),)

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    # Copied from run_figures and solutions, so the views read this one table; no key to solutions:
    # a solution deleted sets its runs' solution NULL, whose refresh then drops their rows.
    solution_id: Mapped[int] = mapped_column(Integer)
    solution: Mapped[str | None] = mapped_column(String(100), index=True)
    trial: Mapped[str | None] = mapped_column(Text)
    run_label: Mapped[str | None] = mapped_column(Text)
    is_median_run: Mapped[bool | None] = mapped_column(Boolean)
    total_iops: Mapped[float | None]
    list_price_amount: Mapped[Decimal | None] = mapped_column(Numeric(14, 2))  # NULL: no price (a per-watt row)
    list_price_currency: Mapped[str | None] = mapped_column(String(3))
    list_price_type: Mapped[str | None] = mapped_column(Text)
    # Resolved as perf_per_watt shows it: the power log's, else the document table's, else the solution's.
    active_power_w: Mapped[float | None]  # NULL: no power figure (a per-dollar row)
    idle_power_w: Mapped[float | None]
    power_boundary: Mapped[str | None] = mapped_column(Text)
    power_source: Mapped[str] = mapped_column(Text)


# throughput_per_disk and run_throughput read these columns of the runs with a throughput (120,000 of
# 465,000 at 50,000 solutions) from this index alone: 16 MB instead of run_figures' 93 MB (the latencies
# and the sample window since revision 0024, for run_throughput).
THROUGHPUT_COLUMNS = ("solution", "trial", "trial_rank_ordinal", "run_id", "run_label", "is_median_run",
                      "transfer_mb_per_s", "read_mb_per_s", "write_mb_per_s", "disk_transfers_per_s",
                      "throughput_source", "read_latency_ms", "write_latency_ms", "perfmon_sample_window")
Index("ix_run_figures_throughput", RunFigures.__table__.c.solution_id, postgresql_include=list(THROUGHPUT_COLUMNS),
      postgresql_where=text("throughput_source IS NOT NULL"))
