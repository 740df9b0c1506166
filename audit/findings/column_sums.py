"""A table's "Total" column against its own row: each host's or part's figure printed beside their sum.

`tables.sum_findings` checks a total *row* against the part rows above it; a table that sets its hosts
as columns prints the total as a column of its own ("MBX1  MBX2  MBX3  Total"). A summable run figure
(IOPS) in that column must be the sum of the row's other figures, to their printed digits. Averages are
never sums; a row whose other cells are not all numbers is left alone.
"""

from __future__ import annotations

import re

from ..gather import AuditData, DocTable
from .table_rows import SUMMABLE, Row, column_label

KIND = "table_sum"
_TOTAL_COLUMN = re.compile(r"(?:total|sum|combined|all\s+(?:hosts|servers|vms|nodes))\b", re.IGNORECASE)


def column_sum_findings(data: AuditData, table: DocTable, rows: list[Row], owners, addition) -> list:
    """`addition(data, table, row, column, owners, parts, kind, words)`: tables._addition, over the cells
    of one row (each part a one-cell row of its own)."""
    totals = [c for c in range(len(table.columns)) if _TOTAL_COLUMN.match(column_label(table, c) or "")]
    if len(totals) != 1:
        return []
    total = totals[0]
    out = []
    for row in rows:
        if row.metric not in SUMMABLE or row.number(total) is None:
            continue
        others = [c for c in sorted(row.cells) if c != total]
        if len(others) < 2 or any(row.number(c) is None for c in others):
            continue
        parts = [Row(row.ordinal, column_label(table, c) or f"column {c}", row.section, row.heading, None, row.run,
                     row.metric, row.per_disk, {total: row.cells[c]}) for c in others]
        found = addition(data, table, row, total, owners, parts, KIND, f"the sum of its {len(parts)} columns")
        out += [found] if found else []
    return out
