"""Rows a PDF's text layer prints without column gaps, read back into the header's cells: a row with one space
between its cells ("Instance5332.1 13.698 ms … 33 476.136 …") and a row whose figures a ruling set off by a cell.
Each reading is taken only where it gives exactly as many cells as the header has. Pure."""

from __future__ import annotations

import re

from . import wrapped_grids

_is_number = wrapped_grids.is_number

_UNIT_TOKEN = re.compile(r"(?:ms|s|%|MB|KB|GB)$", re.IGNORECASE)
_GROUP = re.compile(r"\d{1,3}")
_GROUPED = re.compile(r"\d{3}(?:\.\d+)?")


def one_cell_row(text: str, width: int) -> list[str] | None:
    """A row a PDF printed with single spaces between its cells ("Instance5332.1 13.698 ms 5.490 ms … 33 476.136
    …"): its name and figures, a unit kept with its figure, and a thousands group a space sets off ("33 476.136")
    joined where that, and only that, gives as many cells as the header has; None when no reading does."""
    words = text.split()
    if len(words) < 2 or _is_number(words[0]):
        return None
    figures: list[str] = []
    for word in words[1:]:
        if _UNIT_TOKEN.fullmatch(word) and figures:
            figures[-1] += f" {word}"
        elif _is_number(word):
            figures.append(word)
        else:
            return None
    extra = len(figures) - (width - 1)
    joins = [i for i in range(len(figures) - 1) if _GROUP.fullmatch(figures[i]) and _GROUPED.fullmatch(figures[i + 1])]
    if extra < 0 or len(joins) != extra or any(b - a < 2 for a, b in zip(joins, joins[1:])):
        return None
    for i in reversed(joins):
        figures[i:i + 2] = [f"{figures[i]} {figures[i + 1]}"]
    return [words[0], *figures]


def respaced(cells: list[str], numbers: list[int], width: int, *, lead: bool = True) -> tuple[list[str], list[int]]:
    """A row whose figures a PDF's ruling set off by a cell ("Instance1", "", "0.901", "0.583 387.787", …):
    its numbers one a column, in order, when that gives exactly as many cells as the header has; any
    other row as printed. `lead`: a figure printed with the row's name is its first column's (a report's
    "Instance8243.1 10.876"; never a document's "Run 1")."""
    name, *led = cells[0].split() if cells and cells[0].strip() else [""]
    led = led if lead and led and all(_is_number(token) for token in led) else []
    tokens = led + [token for cell in cells[1:] for token in cell.split()]
    misplaced = bool(led) or any(len(cell.split()) > 1 for cell in cells[1:]) or any(not cell for cell in cells[1:width])
    if not misplaced or len(tokens) != width - 1 or not all(_is_number(token) for token in tokens):
        return cells, numbers
    return [name if led else cells[0], *tokens], [numbers[0]] * width
