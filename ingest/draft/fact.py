"""What a document says about a system it tested, one fact at a time, with the line that says it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    """One thing the document prints about what it tested: its value as printed and where."""

    fact: str  # "disk_count", "media", "usable_capacity" ...
    value: str  # as read: "24", "HDD", "RAID 10", the printed text for text facts
    number: float | None
    unit: str | None
    line: int | None
    quote: str  # the row or line as printed
    column: str | None = None  # the solution column of a table with several
    by_quantity: bool = False  # read from the value's own unit or noun (quantities.py), not from a row label
