"""What a document yields besides its Jetstress reports: the tables it prints, cell by cell."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...jetstress.records import JetstressReport
from .program import Program


@dataclass(frozen=True)
class DocumentRow:
    """One row of a table printed in a document: its label and its cells, as printed."""

    label: str
    values: tuple[str, ...]
    line: int | None = None
    cell_lines: tuple[int | None, ...] = ()  # each cell's own line, when the row was a column (orientation.py)

    def line_of(self, index: int | None) -> int | None:
        """The line cell `index` is printed on: the row's line unless the cells stand on lines of their own."""
        if index is not None and index < len(self.cell_lines) and self.cell_lines[index] is not None:
            return self.cell_lines[index]
        return self.line


@dataclass(frozen=True)
class DocumentTable:
    """A table of an ESRP submission or whitepaper that is not part of a Jetstress report.

    `kind` is a stable machine name (e.g. ``esrp_simulated_exchange_configuration``,
    ``esrp_test_result_summary``, ``results_by_run``); `title` is the caption or heading as printed.
    """

    kind: str
    title: str
    columns: tuple[str, ...]  # header cells after the label column (e.g. solution names)
    rows: tuple[DocumentRow, ...]
    line: int | None = None
    stub: str | None = None  # the header row's first (row-label) cell, e.g. "24 HDDs" above "Run 1 | Run 2"


@dataclass
class ReportDocument:
    """An ESRP submission or whitepaper (text, Markdown or PDF): its reports and its tables."""

    source_name: str
    title: str | None = None
    reports: list[JetstressReport] = field(default_factory=list)
    tables: list[DocumentTable] = field(default_factory=list)
    # "line 812: Host System Performance: row could not be read: …" — the document still loads.
    warnings: list[str] = field(default_factory=list)
    title_line: int | None = None  # where the title is printed
    # The numbered lines it was read from: the reader's working material, never loaded as they are
    # ("loaded": False: the sanity check at the loader's door passes them by).
    lines: list = field(default_factory=list, repr=False, compare=False, metadata={"loaded": False})
    # (first, last) line of each embedded report: prose there is the report's, not the document's.
    report_spans: list = field(default_factory=list, repr=False, compare=False, metadata={"loaded": False})
    program: Program = field(default_factory=Program)  # the ESRP version and tested date it prints

    # What the document prints, independent of layout and names (fingerprint.py): made while its lines are at
    # hand, so a document read ahead travels without them.
    fingerprint: str = field(default="", compare=False)
    # A PDF's page count (None for text): what a person watching a long ingest plans by.
    pages: int | None = field(default=None, compare=False, metadata={"loaded": False})
    # A PDF's page starts (the line each page begins on, page 1 first; empty for text): stored, so the audit
    # names the page of a line.
    page_starts: tuple[int, ...] = field(default=(), compare=False)
