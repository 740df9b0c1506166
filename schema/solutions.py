"""What was tested: a storage solution, its disk groups, and trials of repeated runs."""


from datetime import datetime
from decimal import Decimal

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, non_negative, one_of
from .vocabulary import DISK_MEDIA, DISK_ROLES, POWER_BOUNDARIES

PRICED_CAPACITY_COLUMNS = ("usable_capacity_bytes", "list_price_amount", "list_price_currency", "list_price_type")


class Solution(Base):
    __tablename__ = "solutions"
    __table_args__ = (
        *non_negative("usable_capacity_bytes", "list_price_amount", "idle_power_w", "active_power_w"),
        CheckConstraint("list_price_currency ~ '^[A-Z]{3}$'", name="list_price_currency_iso"),
        CheckConstraint(
            "list_price_amount IS NULL OR list_price_currency IS NOT NULL", name="list_price_has_currency"
        ),
        one_of("power_boundary", POWER_BOUNDARIES),
        # Revision 0024: what disk_counts and mb_per_dollar read, by index-only scans instead of the table
        # (78 MB at 50,000 solutions, most of it columns those views do not show).
        Index("ix_solutions_id_key", "id", postgresql_include=["key"]),
        Index("ix_solutions_priced_capacity", "key", postgresql_include=list(PRICED_CAPACITY_COLUMNS),
              postgresql_where=text("usable_capacity_bytes IS NOT NULL AND list_price_amount IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(100), unique=True)  # short handle used on the command line
    vendor: Mapped[str | None] = mapped_column(Text)
    model: Mapped[str | None] = mapped_column(Text)
    label: Mapped[str | None] = mapped_column(Text)  # as the source documents name it
    connectivity: Mapped[str | None] = mapped_column(Text)
    raid_level: Mapped[str | None] = mapped_column(Text)
    usable_capacity_bytes: Mapped[int | None] = mapped_column(BigInteger)
    usable_capacity_printed: Mapped[str | None] = mapped_column(Text)  # e.g. "2,089 GB (GB = 2^30 bytes)"
    list_price_amount: Mapped[Decimal | None] = mapped_column(Numeric(14, 2))
    list_price_currency: Mapped[str | None] = mapped_column(String(3))
    list_price_year: Mapped[int | None] = mapped_column(Integer)
    list_price_type: Mapped[str | None] = mapped_column(Text)  # list / reseller / street
    list_price_includes: Mapped[str | None] = mapped_column(Text)
    list_price_source: Mapped[str | None] = mapped_column(Text)
    idle_power_w: Mapped[float | None]
    active_power_w: Mapped[float | None]
    power_boundary: Mapped[str | None] = mapped_column(Text)
    power_source: Mapped[str | None] = mapped_column(Text)
    notes: Mapped[str | None] = mapped_column(Text)
    # Derived from a document nobody wrote a manifest for; a manifest naming the document takes it over.
    provisional: Mapped[bool] = mapped_column(Boolean, server_default="false")
    derived_from_source_file_id: Mapped[int | None] = mapped_column(
        ForeignKey("source_files.id", ondelete="SET NULL"), index=True)

    disk_groups: Mapped[list["DiskGroup"]] = relationship(back_populates="solution", cascade="all, delete-orphan")


class DiskGroup(Base):
    """A set of identical disks in one role; per-disk figures divide by a sum of these."""

    __tablename__ = "disks"
    __table_args__ = (
        CheckConstraint("disk_count > 0", name="disk_count_positive"),
        *non_negative("speed_rpm", "raw_capacity_bytes"),
        one_of("media", DISK_MEDIA),
        one_of("role", DISK_ROLES),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    solution_id: Mapped[int] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    disk_count: Mapped[int] = mapped_column(Integer)
    model: Mapped[str | None] = mapped_column(Text)
    media: Mapped[str | None] = mapped_column(Text)
    speed_rpm: Mapped[int | None] = mapped_column(Integer)
    raw_capacity_bytes: Mapped[int | None] = mapped_column(BigInteger)  # per disk
    interface: Mapped[str | None] = mapped_column(Text)
    firmware: Mapped[str | None] = mapped_column(Text)
    role: Mapped[str] = mapped_column(Text, server_default="active")

    solution: Mapped[Solution] = relationship(back_populates="disk_groups")


class Trial(Base):
    """Repeated runs of one configuration (Run 1..3); the median run is chosen within it."""

    __tablename__ = "trials"
    __table_args__ = (UniqueConstraint("solution_id", "label", name="uq_trials_solution_label"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    solution_id: Mapped[int] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)


class RunAssignment(Base):
    """A run moved to another solution after ingest (`esrpdb assign`): who it belonged to, and when."""

    __tablename__ = "run_assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    from_solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="SET NULL"), index=True)
    to_solution_id: Mapped[int] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    assigned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    reason: Mapped[str] = mapped_column(Text)  # what was named: "file Performance_….html" or "run 12"
