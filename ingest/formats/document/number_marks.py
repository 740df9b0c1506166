"""A document that writes its numbers with a decimal comma ("1.221,8 IOPS", "9,7 ms", "6.000 mailboxes")
or groups thousands with a space ("12 000 mailboxes", "$84 500", "18 860.4 GB") is read as if it
wrote "1,221.8" and "12,000", as everything after reading expects.

The convention is told by the numbers themselves, never by the language of the words around them:
a comma followed by one or two digits, or point-grouped thousands before a decimal comma, occur only
in the comma convention; a point-grouped number before a decimal point only in the other. Embedded
Jetstress reports are left alone: the tool prints its own figures with a decimal point whatever the
document around them does. Space grouping is told the same way: a space-grouped number with decimals
or a currency sign, and no comma-grouped number anywhere. Either rewrite keeps every line's length
(a mark for a mark, a comma for a space), so cells keep their places. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .lines import Line

# Only possible with a decimal comma: "1.221,8", "9,7", "776,0" (a thousands comma groups three digits).
# (Both patterns start at a number's first digit, "\d(?<![\w.,]\d)": nothing before it that a number goes on
# from. Written digit first, the engine tries them at digits alone, not at every character of the text.)
_COMMA_ONLY = re.compile(r"\d(?<![\w.,]\d)(?:\d{0,2}(?:\.\d{3})+,\d+|\d*,\d{1,2})(?![\w]|[.,]\d)")
# Only possible with a decimal point: "1,221.8", "9.7 ms" beside no comma-decimal figure.
_POINT_ONLY = re.compile(r"\d(?<![\w.,]\d)(?:\d{0,2}(?:,\d{3})+\.\d+|\d*\.\d{1,2})(?![\w]|[.,]\d)")
# A number to rewrite under the comma convention: point-grouped thousands, a decimal comma, or both.
# A unit's letter may follow it as printed ("7,2K" drives, "1,2TB"): the number is the digits before it.
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?=(?:[KkMGT]B?)?(?![\w]|[.,]\d))")
_SWAP = str.maketrans(".,", ",.")
# Only possible with space grouping: "18 860.4", "1 104.112", "$84 500".
# (Its first character, a digit or "$", is written first, as above; each branch then asks which it was.)
_SPACE_ONLY = re.compile(r"[\d$](?:(?<=\d)(?<![\w.,]\d)\d{0,2}(?: \d{3})+\.\d+(?![\w]|[.,]\d)|"
                         r"(?<=\$) ?\d{1,3}(?: \d{3})+(?![\w.,]))")
_COMMA_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w]|,\d)")
_SPACE_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?: \d{3})+(?=\.\d|(?![\w]|,\d| \d))")
MIN_EVIDENCE = 5  # comma-decimal figures, at least, before a document is read that way
DOMINANCE = 3  # ... and this many times as many as point-decimal ones


def _own_cells(lines: list[Line], skipped: set[int]) -> str:
    """The document's own text (never a report's line, nor page furniture), cell by cell (a line joins its
    cells with a space, which would make "8" and "397.621" one number). The cells are searched as one text,
    a line break between them (one call, not one a cell): no pattern here matches a line break, and one is
    to their edges what a cell's start or end is, so each count is the one cell by cell."""
    return "\n".join(cell for index, line in enumerate(lines)
                     if index not in skipped and not line.furniture for cell in line.cells)


def convention(lines: list[Line], skipped: set[int]) -> str | None:
    """"comma" when the document's own text (outside the `skipped` line indices) writes decimals with a
    comma, else "space" when it groups thousands with a space, else None: its cells joined once for both."""
    cells = _own_cells(lines, skipped)
    return "comma" if _comma_decimal(cells) else "space" if _space_grouped(cells) else None


def comma_decimal(lines: list[Line], skipped: set[int]) -> bool:
    """The document's own text (outside the `skipped` line indices) writes decimals with a comma."""
    return _comma_decimal(_own_cells(lines, skipped))


def _comma_decimal(cells: str) -> bool:
    comma = len(_COMMA_ONLY.findall(cells))  # too few: the point-decimal figures need no counting
    return comma >= MIN_EVIDENCE and comma >= DOMINANCE * max(len(_POINT_ONLY.findall(cells)), 1)


def _space_grouped(cells: str) -> bool:
    """The text groups thousands with a space, never with a comma."""
    # (the comma-grouped number first: most documents print one early, and every space-grouped one need not be
    # found then; 29 -> 6 ms for 40 PDFs)
    return not _COMMA_GROUPED.search(cells) and len(_SPACE_ONLY.findall(cells)) >= MIN_EVIDENCE


def with_comma_groups(lines: list[Line], skipped: set[int]) -> list[Line]:
    """`lines` with each space-grouped number outside the `skipped` line indices grouped by commas."""
    def grouped(cell: str) -> str:
        return _SPACE_GROUPED.sub(lambda m: m[0].replace(" ", ","), cell)
    return _rewritten(lines, skipped, grouped)


def _swapped(cell: str) -> str:
    return _NUMBER.sub(lambda m: m[0].translate(_SWAP), cell)


def with_decimal_points(lines: list[Line], skipped: set[int]) -> list[Line]:
    """`lines` with each number outside the `skipped` line indices rewritten to the decimal-point convention."""
    return _rewritten(lines, skipped, _swapped)


def _rewritten(lines: list[Line], skipped: set[int], rewrite) -> list[Line]:
    return [line if index in skipped else replace(line, cells=tuple(rewrite(c) for c in line.cells))
            for index, line in enumerate(lines)]
