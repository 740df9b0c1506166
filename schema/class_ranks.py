"""The rows of mailbox_class_ranks, stored and rebuilt once after a batch of writes (revision 0025).

A rank needs its whole class, so ranks kept as each write commits would make one ingested document
rewrite up to a class (20,000 rows at 50,000 solutions). Instead a write that may change a rank only
counts itself in `mailbox_class_ranks_freshness` (statement triggers on solution_designs and
mailbox_classes; recovery_stats marks the designs), and the writer rebuilds these rows once at the end
of its batch (db/class_ranks.py). The view reads them while fresh and computes the ranks otherwise, so
a missed rebuild is slower, never wrong. Nothing here is entered by hand.
"""


from sqlalchemy import BigInteger, Boolean, CheckConstraint, Integer, PrimaryKeyConstraint, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class MailboxClassRankRow(Base):
    """One row of mailbox_class_ranks: a solution in a class (two rows if the owner's bounds overlap)."""

    __tablename__ = "mailbox_class_rank_rows"
    # Keyed by solution first: mailbox_class_ranks_of(solution) reads a solution's rows by it while fresh.
    __table_args__ = (PrimaryKeyConstraint("solution", "mailbox_class_order"),)

    # The view's columns in its order (mailbox_class_ranks_computed() returns this row type).
    mailbox_class: Mapped[str] = mapped_column(Text)
    mailbox_class_order: Mapped[int] = mapped_column(Integer, autoincrement=False)
    solution: Mapped[str] = mapped_column(String(100))
    mailbox_count: Mapped[int | None] = mapped_column(Integer)
    run_id: Mapped[int | None] = mapped_column(Integer)  # no foreign key: rebuilt after the write, not with it
    jetstress_release: Mapped[int | None] = mapped_column(Integer)
    report_type: Mapped[str | None] = mapped_column(Text)
    iops_per_mailbox: Mapped[float | None]
    total_iops: Mapped[float | None]
    total_iops_rank: Mapped[int | None] = mapped_column(BigInteger)
    db_read_latency_ms: Mapped[float | None]
    db_read_latency_rank: Mapped[int | None] = mapped_column(BigInteger)
    logs_per_s_per_server: Mapped[float | None]
    log_replay_rank: Mapped[int | None] = mapped_column(BigInteger)
    like_for_like: Mapped[bool | None] = mapped_column(Boolean)


class MailboxClassRanksFreshness(Base):
    """One row: writes that may change a rank, counted, and the count the stored rows were built at."""

    __tablename__ = "mailbox_class_ranks_freshness"
    __table_args__ = (CheckConstraint("one_row", name="one_row"),)

    one_row: Mapped[bool] = mapped_column(Boolean, primary_key=True, server_default=text("true"))
    write_count: Mapped[int] = mapped_column(BigInteger)
    built_write_count: Mapped[int] = mapped_column(BigInteger)
