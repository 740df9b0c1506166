"""A table row in another form: two quantities in one row, one disk description spread over cells.

Pure: a table's rows in, (label, value) pairs or `Fact`s out; facts.table_facts reads each row first.
"""

from __future__ import annotations

import re

from ..formats.document.records import DocumentTable
from .deferred import deferred
from .fact import Fact
from .quantities import disk_facts

_TWO_QUANTITIES = deferred(r"\s+/\s+")


def paired(label: str, value: str) -> list[tuple[str, str]]:
    """A row of two quantities in one ("Messages per day per mailbox / IOPS per mailbox | 150 messages /
    0.102 IOPS"): each value with its own label; any other row as it is."""
    labels, values = _TWO_QUANTITIES.split(label), [v.strip() for v in value.split("/")]
    if len(labels) > 1 and len(labels) == len(values) and all(re.search(r"\d", v) for v in values):
        return list(zip(labels, values))
    return [(label, value)]


_DISK_LABEL = deferred(r"\b(?:disks?|drives?|spindles?|media)\b", re.IGNORECASE)
_NOT_DESCRIPTION = deferred(r"\b(?:in use|active|spares?|per|max(?:imum)?|slots?|bays?)\b", re.IGNORECASE)
JOINED = ("disk_capacity", "disk_rpm", "disk_interface")


def joined_disk_facts(table: DocumentTable, systems: bool, read: list[Fact]) -> list[Fact]:
    """A disk printed over two cells ("Drives installed: 48 x 600GB", "Drive type: 15K SAS"): its size, speed
    and interface read from the cells joined, for each system (column) none of whose single cells gave them."""
    found: list[Fact] = []
    for index in range(len(table.columns)) if systems else [None]:
        column = table.columns[index] if index is not None else None
        cells = [(row, row.values[index] if index is not None and index < len(row.values) else " ".join(row.values))
                 for row in table.rows if _DISK_LABEL.search(row.label) and not _NOT_DESCRIPTION.search(row.label)]
        cells = [(row, value.strip()) for row, value in cells if value.strip()]
        given = {f.fact for f in read if f.column == column}
        if len(cells) < 2 or not set(JOINED) - given:
            continue
        text = " ".join(value for _, value in cells) + " drives"
        quote = "; ".join(f"{row.label}: {value}" if column is None else f"{row.label} [{column}]: {value}"
                          for row, value in cells)
        line = cells[0][0].line_of(index)
        found.extend(Fact(f.fact, f.value, f.number, f.unit, line, quote, column, by_quantity=True)
                     for f in disk_facts(text, line, quote) if f.fact in JOINED and f.fact not in given)
    return found
