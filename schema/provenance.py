"""Where a run and a provisional solution come from: every source of a report, every derived fact.

One report is one run however often it is seen (an HTML file, the same report inside its
document, another encoding of the file): `run_sources` keeps each sighting as evidence.
A document ingested without a manifest becomes a provisional solution; `solution_facts`
keeps each fact read for it with the file and line it came from.
"""


from sqlalchemy import ForeignKey, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class RunSource(Base):
    """A file that prints the run's report: the first one is `runs.source_file_id`, the others are seen again."""

    __tablename__ = "run_sources"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True,
                                                index=True)
    report_index: Mapped[int] = mapped_column(Integer, primary_key=True)  # nth report in that file
    source_line: Mapped[int | None] = mapped_column(Integer)  # where the report starts in that file


class SolutionFact(Base):
    """A fact read from a document for a provisional solution (title, vendor, disks ...), as printed."""

    __tablename__ = "solution_facts"

    solution_id: Mapped[int] = mapped_column(ForeignKey("solutions.id", ondelete="CASCADE"), primary_key=True)
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    fact: Mapped[str] = mapped_column(Text)  # "disk_count", "media", "usable_capacity", "raid_level" ...
    value_printed: Mapped[str] = mapped_column(Text)
    value_number: Mapped[float | None]  # unit in `unit`
    unit: Mapped[str | None] = mapped_column(Text)
    source_file_id: Mapped[int | None] = mapped_column(ForeignKey("source_files.id", ondelete="SET NULL"))
    source_line: Mapped[int | None] = mapped_column(Integer)
    quote: Mapped[str | None] = mapped_column(Text)  # the line as printed
