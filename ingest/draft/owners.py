"""Which system an embedded report belongs to, from the document's content, never its position.

In order: the data (a table with a column per system prints the report's achieved IOPS in one
system's column), then the heading the report sits under (the lines just before its title name
one system), then the words of its appendix heading and machine name. A document that tests one
system owns every report. A report none of these place belongs to no system (ingest keeps it
under the document's fallback solution and says so). Pure.
"""

from __future__ import annotations

import re

from ..formats.document.records import ReportDocument
from ..jetstress.vocabulary import normalise_label
from .deferred import deferred
from .names import best
from .run_rows import RUN, printed_equals, row_metric

HEADING_LINES = 6  # non-empty lines above a report's title searched for the system's name


def _by_data(document: ReportDocument, achieved: float | None, distinct: list[set[str]]) -> int | None:
    if achieved is None:
        return None
    found = set()
    for table in document.tables:
        if len(table.columns) < 2 or any(RUN.search(c) for c in table.columns):
            continue
        for row in table.rows:
            if not re.search(r"achieved", row.label, re.IGNORECASE):
                continue
            for column, cell in enumerate(row.values[:len(table.columns)]):
                if printed_equals(cell, achieved, min_decimals=1):  # a rounded figure names no run
                    owner = best(table.columns[column], distinct)
                    if owner is not None:
                        found.add(owner)
    return found.pop() if len(found) == 1 else None


def _by_heading(document: ReportDocument, line: int | None, previous_end: int, distinct: list[set[str]],
                appendix_line: int | None = None) -> int | None:
    """The system the lines just above the report name; never above its appendix heading (the text
    before that heading is the document's, about any system)."""
    if line is None:
        return None
    seen = 0
    for candidate in reversed(document.lines):
        if candidate.number >= line:
            continue
        if candidate.number <= previous_end or seen >= HEADING_LINES or \
                (appendix_line is not None and candidate.number < appendix_line):
            break
        if candidate.text.strip():
            seen += 1
            owner = best(candidate.text, distinct)
            if owner is not None:
                return owner
    return None


def report_owners(document: ReportDocument, count: int, distinct: list[set[str]]) -> dict[int, int]:
    """Report index -> system index (see the module docstring)."""
    owners: dict[int, int] = {}
    previous_end = 0
    for index, report in enumerate(document.reports):
        if count == 1:
            owners[index] = 0
            continue
        heading = next((kv for kv in report.key_values if kv.section == "Document"), None)
        appendix = heading.value if heading is not None else ""
        owner = _by_data(document, report.achieved_iops, distinct)
        if owner is None:
            owner = _by_heading(document, report.source_line, previous_end, distinct,
                                heading.line if heading is not None else None)
        if owner is None:
            owner = best(f"{appendix} {report.machine_name or ''}", distinct)
        if owner is not None:
            owners[index] = owner
        previous_end = report.source_line or previous_end
    return owners


def report_label(document: ReportDocument, index: int, column_tables: list) -> str:
    """"Run N" when a result table prints this report's achieved IOPS for run N; else "Report N"."""
    achieved = document.reports[index].achieved_iops
    for table, column in column_tables:
        for row in table.rows:
            if not normalise_label(row.label).startswith(("achieved iops", "median achieved")) and \
                    row_metric(row.label)[0] != "achieved_iops":
                continue
            run = RUN.search(row.label) or (RUN.search(table.columns[column]) if column < len(table.columns) else None)
            cell = row.values[column] if column < len(row.values) else ""
            if run and achieved is not None and printed_equals(cell, achieved):
                return f"Run {run[1]}"
    heading = next((kv.value for kv in document.reports[index].key_values if kv.section == "Document"), "")
    stated = _RUN_OF.search(heading)  # "Jetstress report of the median run (Run 2 of 3)"
    return f"Run {stated[1]}" if stated else f"Report {index + 1}"


_RUN_OF = deferred(r"\brun\s*#?\s*(\d+)\s+of\s+\d+\b", re.IGNORECASE)
