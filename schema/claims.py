"""A vendor's published figure, kept as printed so its precision is known."""


from sqlalchemy import ForeignKey, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, one_of
from .vocabulary import CLAIM_SUBJECTS


class Claim(Base):
    __tablename__ = "claims"
    __table_args__ = (one_of("subject", CLAIM_SUBJECTS),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The manifest that states the claim (its claims are replaced when a new version is loaded).
    manifest_file_id: Mapped[int | None] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    # The document where the figure is printed.
    source_file_id: Mapped[int | None] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    subject: Mapped[str] = mapped_column(Text, server_default="solution")
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    # For comparative claims ("86 percent more ... than B"): the B side.
    other_solution_id: Mapped[int | None] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), index=True)
    other_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"), index=True)
    other_metric: Mapped[str | None] = mapped_column(Text)
    # For a comparison with a design the catalogue does not hold: its figure as the document prints it.
    other_value_printed: Mapped[str | None] = mapped_column(Text)
    metric: Mapped[str] = mapped_column(Text)  # METRICS in schema/vocabulary.py, or percent_more:<metric> …
    value_printed: Mapped[str] = mapped_column(Text)  # "12.5", "40", "Run 2": as printed
    unit: Mapped[str | None] = mapped_column(Text)
    disk_basis: Mapped[str | None] = mapped_column(Text)
    qualifier: Mapped[str | None] = mapped_column(Text)  # approximately, nearly, ...
    location: Mapped[str | None] = mapped_column(Text)  # "Figure 1", "Test Result Summary"
    line: Mapped[int | None] = mapped_column(Integer)
    quote: Mapped[str | None] = mapped_column(Text)
