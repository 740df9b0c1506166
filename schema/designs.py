"""Each solution's test design and representative run, computed once when what they come from is written.

Nothing here is entered by hand: the SQL function `refresh_solution_designs` (revision 0022,
queries/solution_designs.sql) fills `solution_designs` from the claims, the facts drafted from
documents, the runs' JetstressConfig.xml, the documents and the stored run figures. Statement
triggers on those tables list the solutions a write touches in `solution_designs_stale`, and a
deferred trigger recomputes exactly those when the writing transaction commits, so test_designs,
representative_runs and mailbox_class_ranks read one row per solution instead of choosing every
solution's figures from every claim at each call. The mailbox class is not stored (the owner may
change the bounds): the views join mailbox_classes when read.
"""


from datetime import date

from sqlalchemy import BigInteger, Date, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class SolutionDesign(Base):
    """test_designs without the mailbox class, and the solution's representative run with its figures."""

    __tablename__ = "solution_designs"

    # No foreign key, as run_figures_stale: a solution deleted is marked and its row goes at commit, so
    # `esrpdb delete` counts no derived row among what it deleted.
    solution_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    # Copied from the solution, so a view filtered by key reads this one table; a rename marks it stale.
    solution: Mapped[str] = mapped_column(String(100))
    mailbox_count: Mapped[int | None] = mapped_column(Integer)
    mailbox_count_source: Mapped[str | None] = mapped_column(Text)  # file and line, or the JetstressConfig.xml
    mailbox_size_mb: Mapped[float | None]
    iops_per_mailbox: Mapped[float | None]
    database_count: Mapped[int | None] = mapped_column(Integer)
    database_copy_count: Mapped[int | None] = mapped_column(Integer)  # the most any of its runs reports
    esrp_version: Mapped[str | None] = mapped_column(Text)
    esrp_version_source: Mapped[str | None] = mapped_column(Text)
    tested_on: Mapped[date | None] = mapped_column(Date)
    # The run that stands for the solution (representative_runs) and the figures the classes rank it
    # by, copied from run_figures; no foreign key: the commit-time refresh rewrites it with the run.
    representative_run_id: Mapped[int | None] = mapped_column(Integer)
    run_label: Mapped[str | None] = mapped_column(Text)
    trial: Mapped[str | None] = mapped_column(Text)
    trial_run_count: Mapped[int | None] = mapped_column(BigInteger)
    jetstress_release: Mapped[int | None] = mapped_column(Integer)
    report_type: Mapped[str | None] = mapped_column(Text)
    total_iops: Mapped[float | None]
    db_read_latency_ms: Mapped[float | None]


# Revision 0027: representative_runs is an index-only scan already in key order (no sort); a filter by
# solution uses the same index.
REPRESENTATIVE_COLUMNS = ("solution_id", "representative_run_id", "run_label", "trial", "trial_run_count")
Index("ix_solution_designs_solution", SolutionDesign.__table__.c.solution, postgresql_include=list(REPRESENTATIVE_COLUMNS))

# Revision 0024: a class's solutions are a range of this index, with the figures they are ranked and
# compared by; mailbox_class_ranks_of(solution) counts the better rows of one solution's class from it.
CLASS_FIGURES = ("total_iops", "db_read_latency_ms", "jetstress_release", "report_type", "iops_per_mailbox")
Index("ix_solution_designs_mailbox_count", SolutionDesign.__table__.c.mailbox_count,
      postgresql_include=list(CLASS_FIGURES), postgresql_where=text("mailbox_count IS NOT NULL"))


class SolutionDesignsStale(Base):
    """Solutions written in the current transaction whose design is recomputed at commit."""

    __tablename__ = "solution_designs_stale"

    # The writing transaction (pg_current_xact_id()): concurrent writers of one solution never collide.
    xact_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    solution_id: Mapped[int] = mapped_column(Integer, primary_key=True)  # no key: the solution may be gone
