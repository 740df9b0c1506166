"""A table printed with the things it compares as rows turned so that they are its columns.

Documents print the same table both ways: systems (or hosts, or runs) as columns and quantities as
rows, or one row per system with a quantity in each column ("System | List price | Usable GB |
IOPS per dollar"). Everything after reading takes the first form, so a table whose column headings
are quantities and whose row labels are not is turned: its rows become its columns. Each cell keeps
the line it is printed on (`DocumentRow.cell_lines`), so a figure is still cited where it stands.
Which form a table is in is told by words alone: a heading is a quantity when it names a unit or a
measure (IOPS, latency, price, capacity, disks, watts, RAID, ...), never by a vendor's wording.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from .records import DocumentRow, DocumentTable

# A unit's letters glued to a number after them ("KB-31", "MS-8") are a model's name, not the unit:
# a unit is printed after its number, or alone ("Usable GB", "(ms)").
_QUANTITY = re.compile(
    r"iops|\bi/o\b|latenc|\bms\b(?![-\u2010\u2011]?\d)|msec|\bprice|\bcost|\$|\busd\b|\bwatts?\b|\bpower\b|capacity|"
    r"\b[gmkt]i?b\b(?![-\u2010\u2011]?\d)|"
    r"\bdisks?\b|\bdrives?\b|spindles?|\braid\b|\bmodel\b|\bvendor\b|\bper\s+(?:disk|drive|dollar|watt|ssd|hdd)\b|"
    r"\breads?\b|\bwrites?\b|/\s*s(?:ec)?\b|\bresult\b|\bverdict\b|\bpass(?:/fail)?\b|mailbox|\bthroughput\b|"
    r"\bspares?\b|connectivity|\binterface\b|\brpm\b|\bmedia\b|\bprotocol\b|enclosures?|shelves|controllers?|"
    r"\bcache\b|firmware|\btarget\b|\bachieved\b|\bmb/s\b|\bdatabases?\b|\bcopies\b|\bqueue\b|\bcpu\b|\bmemory\b|"
    r"\((?:w|kw|ms|msec|s|sec|gb|tb|mb|%|\$|usd|iops|rpm)\)",
    re.IGNORECASE)
_AGGREGATE = re.compile(r"(?:total|sum|average|avg|mean|aggregate|overall)\b.*", re.IGNORECASE)
QUANTITY_SHARE = 0.6  # of the column headings, at least
NAME_SHARE = 0.34  # of the row labels, at most, may read as quantities


def is_aggregate(text: str) -> bool:
    """A "Total", "Average" or "Sum" row or column: a figure over the others, never one of them."""
    return bool(_AGGREGATE.fullmatch(text.strip()))


@functools.lru_cache(maxsize=4096)  # pure; headings and labels repeat (3,422 asked of 40 PDFs, 536 distinct: 0.55 µs a character)
def is_quantity(text: str) -> bool:
    return bool(_QUANTITY.search(text))


def _labels(rows: tuple[DocumentRow, ...]) -> list[str]:
    return [row.label for row in rows if row.label.strip() and not is_aggregate(row.label)]


_HOST_OR_RUN = re.compile(r"(?:(?:jetstress|exchange|mailbox|test)\s+)?(?:servers?|hosts?|vms?|virtual\s+machines?|"
                          r"nodes?|run|test|iteration)[\s-]*#?\s*(?:\d{1,3}|[a-z])\b.*", re.IGNORECASE)


def quantities_as_columns(columns: tuple[str, ...], rows: tuple[DocumentRow, ...],
                          machines: frozenset[str] = frozenset()) -> bool:
    """The headings are quantities and the row labels are systems: one row per system compared. A row per
    host or per run (a report's machine name, "Server 2", "Run 3") is a test's parts, read as printed."""
    headings = [c for c in columns if c.strip()]
    labels = _labels(rows)
    if any(label.strip().casefold() in machines or _HOST_OR_RUN.fullmatch(label.strip()) for label in labels):
        return False
    if len(headings) < 2 or len(labels) < 2 or any(not any(v.strip() for v in row.values) for row in rows):
        return False  # a row with no cells is a sub-heading: a table of quantities in rows
    quantity_headings = sum(1 for h in headings if is_quantity(h))
    quantity_labels = sum(1 for label in labels if is_quantity(label))
    return quantity_headings >= QUANTITY_SHARE * len(headings) and quantity_labels <= NAME_SHARE * len(labels)


_RUN_ONLY = re.compile(r"(?:run|test|iteration)\s*#?\s*\d+\s*(?:[(\[][^)\]]*[)\]]|\*)?\s*", re.IGNORECASE)
_CAPTION_NUMBER = re.compile(r"^(?:table|figure|exhibit)\s+\d+[a-z]?\s*[.:\-–—]?\s*", re.IGNORECASE)


def captioned_quantity(title: str, columns: tuple[str, ...], rows: tuple[DocumentRow, ...],
                       machines: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """A table of systems as rows whose caption names the quantity and whose headings only qualify it
    ("Table 2 - Power (watts)": "System | Under load | While idle"): each heading says the quantity, so the
    table reads as one with the quantity in every heading ("Power (watts) – While idle")."""
    quantity = _CAPTION_NUMBER.sub("", title).strip()
    headings = [c for c in columns if c.strip()]
    if not quantity or not is_quantity(quantity) or not headings or any(is_quantity(h) for h in headings):
        return columns
    named = tuple(f"{quantity} – {c.strip()}" if c.strip() else c for c in columns)
    return named if quantities_as_columns(named, rows, machines) else columns


def captioned_runs(title: str, rows: tuple[DocumentRow, ...]) -> tuple[DocumentRow, ...]:
    """A table whose rows are runs only ("Run 1", "Run 3 (median run)") holds the quantity its caption
    names ("Table 2. Achieved transactional IOPS"): each row's label says so, as a row per quantity does."""
    labels = [row.label.strip() for row in rows if row.label.strip()]
    quantity = _CAPTION_NUMBER.sub("", title).strip()
    if len(labels) < 2 or not all(_RUN_ONLY.fullmatch(label) for label in labels) or not is_quantity(quantity):
        return rows
    return tuple(DocumentRow(f"{quantity} – {row.label.strip()}", row.values, row.line, row.cell_lines)
                 if row.label.strip() else row for row in rows)


def grouped_runs(rows: tuple[DocumentRow, ...]) -> tuple[DocumentRow, ...]:
    """Run rows under a quantity's heading row ("Log write IOPS" with no cells, then "Run 1", "Run 2
    (median run)"): each run row's label says the quantity, as a row per quantity and run does."""
    found: list[DocumentRow] = []
    heading: str | None = None
    for row in rows:
        label = row.label.strip()
        if label and not any(v.strip() for v in row.values):
            heading = label if is_quantity(label) else None
        elif heading is not None and _RUN_ONLY.fullmatch(label):
            row = DocumentRow(f"{heading} – {label}", row.values, row.line, row.cell_lines)
        elif label:
            heading = None
        found.append(row)
    return tuple(found)


def _run_rows_only(table: DocumentTable) -> bool:
    labels = [row.label for row in table.rows if row.label.strip()]
    return bool(labels) and all(_CAPTIONED_RUN.search(label) for label in labels)


_CAPTIONED_RUN = re.compile(r" – (?:run|test|iteration)\s*#?\s*\d+", re.IGNORECASE)


def one_table_per_quantity(tables: list[DocumentTable]) -> list[DocumentTable]:
    """Consecutive tables of the same columns, each one quantity over the same runs (a lab prints achieved
    IOPS, log IOPS and total IOPS each in a table of its own): one results table, as one with a row per
    quantity and run, under the first table's caption."""
    merged: list[DocumentTable] = []
    for table in tables:
        previous = merged[-1] if merged else None
        if previous is not None and previous.columns == table.columns and len(table.columns) > 0 \
                and _run_rows_only(previous) and _run_rows_only(table):
            merged[-1] = replace(previous, rows=previous.rows + table.rows)
        else:
            merged.append(table)
    return merged


def turned(columns: tuple[str, ...], rows: tuple[DocumentRow, ...]) -> tuple[tuple[str, ...], tuple[DocumentRow, ...]]:
    """The same cells with rows and columns exchanged; each cell keeps its own line."""
    new_columns = tuple(row.label for row in rows)
    new_rows = []
    for index, heading in enumerate(columns):
        values = tuple(row.values[index] if index < len(row.values) else "" for row in rows)
        lines = tuple(row.line_of(index) for row in rows)
        first = next((line for line in lines if line is not None), None)
        new_rows.append(DocumentRow(heading, values, first, lines))
    return new_columns, tuple(new_rows)
