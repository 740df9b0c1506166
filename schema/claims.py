"""A vendor's published figure, kept as printed so its precision is known."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from esrpdb.schema.base import Base


class Claim(Base):
    __tablename__ = "claims"

    id: Mapped[int] = mapped_column(primary_key=True)
    source_file_id: Mapped[int | None] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    # For comparative claims ("86 percent more ... than B"): the B side.
    other_solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"))
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    metric: Mapped[str] = mapped_column(Text)
    value_printed: Mapped[str] = mapped_column(Text)  # "208.4", "86 percent"
    unit: Mapped[str | None] = mapped_column(Text)
    location: Mapped[str | None] = mapped_column(Text)  # "Figure 1", "line 22", "page 3"
    line: Mapped[int | None] = mapped_column(Integer)
