"""What a report's sections hold, apart from the HTML they were read from: the labelled values and grids
of a section. The document reader builds the same records from a report printed as text, so they live
here, not in dom.py: a process reading a PDF never imports lxml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Section:
    """A report section: its printed title, its kind, where it starts."""

    title: str  # legend text as printed
    kind: str | None  # from the vocabulary: "summary", "io", "host", "log", …
    line: int | None
    element: Any = field(repr=False)  # its lxml element (dom.py); None for a report read from text


@dataclass(frozen=True)
class LabelledValue:
    """A label and its value, each with its line: a row of a key-value table."""

    label: str
    value: str  # lines joined by "\n"
    label_line: int | None
    value_line: int | None


@dataclass(frozen=True)
class GridRow:
    """A table row's cells, each with its line."""

    cells: tuple[str, ...]
    lines: tuple[int | None, ...]
    line: int | None


@dataclass(frozen=True)
class Grid:
    """A table of a report section: its headers and its rows."""

    headers: tuple[str, ...]
    line: int | None
    rows: tuple[GridRow, ...]
