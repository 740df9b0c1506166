"""An average outside its own minimum and maximum in any document table that prints the three side by
side: an array manager's latency table ("Array read latency Avg | Min | Max"), a counter table, any
vendor's layout. Columns are grouped by what they measure (the heading without its Avg/Min/Max word);
a row whose average lies above its maximum or below its minimum has one of the three misprinted.
The same check as the reports' host counters (document_checks.py), on the document's own tables.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..gather import AuditData, Cell, DocTable
from ..terms import MISMATCH, fmt
from .finding import Finding, evidence

KIND = "average_outside_range"
_STAT = re.compile(r"(?:^|\s)\(?(avg|average|mean|min|minimum|max|maximum)\.?\)?(?=\s|$)", re.IGNORECASE)
_NAMES = {"avg": "average", "average": "average", "mean": "average", "min": "minimum", "minimum": "minimum",
          "max": "maximum", "maximum": "maximum"}


def _ranges(table: DocTable) -> dict[str, dict[str, int]]:
    """What each group of columns measures -> {average, minimum, maximum: column index}."""
    groups: dict[str, dict[str, int]] = defaultdict(dict)
    for index, label in enumerate(table.columns):
        found = list(_STAT.finditer(label or ""))
        if len(found) != 1:
            continue
        measure = " ".join((label[:found[0].start()] + label[found[0].end():]).split())
        groups[measure.casefold()].setdefault(_NAMES[found[0][1].casefold()], index)
    return {measure: stats for measure, stats in groups.items() if "average" in stats
            and ("minimum" in stats or "maximum" in stats)}


def table_range_findings(data: AuditData) -> list[Finding]:
    out = []
    for table in data.tables.values():
        ranges = _ranges(table)
        if not ranges:
            continue
        rows: dict[int, dict[int, Cell]] = defaultdict(dict)
        for cell in table.cells:
            rows[cell.row][cell.column] = cell
        for cells in rows.values():
            for measure, stats in ranges.items():
                average = cells.get(stats["average"])
                if average is None or average.number is None:
                    continue
                bounds: dict[str, float | None] = {stat: cells[stats[stat]].number for stat in ("minimum", "maximum")
                                                   if stat in stats and stats[stat] in cells}
                high, low, value = bounds.get("maximum"), bounds.get("minimum"), average.number
                if not ((high is not None and value > high) or (low is not None and value < low)):
                    continue
                side = f"above its maximum {fmt(high)}" if high is not None and value > high else \
                    f"below its minimum {fmt(low)}"
                label = average.row_label
                out.append(Finding(
                    solution=None, other_solution=None, kind=KIND, metric="table_average", verdict=MISMATCH,
                    printed=average.printed, recomputed=None, relative_difference=None,
                    explanation=(f"'{table.title}' prints {label}'s {measure} average {average.printed}, {side}: "
                                 "an average lies between its minimum and maximum, so one of them is misprinted"),
                    inputs={"table": table.title, "row": label, "measure": measure, **bounds},
                    place=table.title, line=average.line, **evidence(data, table.source_file_id)))
    return out
