"""Documents (ESRP submissions, whitepapers) and the tables they print outside the Jetstress reports.

Kept cell by cell, as printed, with a parsed number beside it where the cell is one, so
manifests and the claim audit can point at "Figure 7, row 'IOPS - Run 2', column 1".
"""


from datetime import date

from sqlalchemy import ARRAY, Date, ForeignKey, Integer, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class Document(Base):
    """What a document says about itself: its title and the ESRP program it was tested under, each with its line."""

    __tablename__ = "documents"

    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), primary_key=True)
    title: Mapped[str | None] = mapped_column(Text)
    title_line: Mapped[int | None] = mapped_column(Integer)
    esrp_version: Mapped[str | None] = mapped_column(Text)  # "3.0", as printed after "ESRP … Version"
    esrp_version_line: Mapped[int | None] = mapped_column(Integer)
    tested_on: Mapped[date | None] = mapped_column(Date)
    tested_on_line: Mapped[int | None] = mapped_column(Integer)
    # A PDF's page starts (0028): the line each page begins on, so a finding names the page of its line.
    page_start_lines: Mapped[list[int] | None] = mapped_column(ARRAY(Integer))


class DocumentTable(Base):
    __tablename__ = "document_tables"
    __table_args__ = (UniqueConstraint("source_file_id", "ordinal", name="uq_document_tables_source_ordinal"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source_file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id", ondelete="CASCADE"), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(Text)  # stable machine name, e.g. "results_by_run"
    title: Mapped[str] = mapped_column(Text)  # caption or heading as printed
    columns: Mapped[list[str]] = mapped_column(ARRAY(Text))
    stub: Mapped[str | None] = mapped_column(Text)  # the header row's label cell, when printed
    source_line: Mapped[int | None] = mapped_column(Integer)


class DocumentCell(Base):
    __tablename__ = "document_cells"

    table_id: Mapped[int] = mapped_column(ForeignKey("document_tables.id", ondelete="CASCADE"), primary_key=True)
    row_ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    column_ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    row_label: Mapped[str] = mapped_column(Text)
    column_label: Mapped[str | None] = mapped_column(Text)
    value_printed: Mapped[str] = mapped_column(Text)
    value_number: Mapped[float | None]  # the printed value read as a number, when it is one
    source_line: Mapped[int | None] = mapped_column(Integer)
