"""A report's table as other extractions print it: headers wrapped over several lines, or no column gaps at all.

A Jetstress table's column headers are long ("I/O Database Reads Average Latency (msec)"), so a
narrow PDF column wraps them over two to five lines, each word under its column; and an extractor
that keeps no layout prints header and rows with single spaces. The columns are the same either
way: a wrapped header is joined by where its words stand (the column of each word is the nearest
column start of the table's widest line), and a single-spaced header is cut where the known
column vocabulary says one header ends and the next begins. Its rows are then a name and as many
numbers as the header has columns after the name. Pure: lines in, headers and cells out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from ...jetstress.vocabulary import (
    BACKUP_COLUMNS,
    DISK_COLUMNS,
    HOST_COLUMNS,
    IO_COLUMNS,
    RECOVERY_COLUMNS,
    canonical_header,
    parse_number,
)


class Line(Protocol):
    """What of a line (lines.Line) is read here: its cells and where they start. A protocol, so that lines.py
    can ask this module whether a line is a report's header without a circle."""

    @property
    def cells(self) -> tuple[str, ...]: ...

    @property
    def starts(self) -> tuple[int, ...]: ...

_KNOWN = frozenset({*IO_COLUMNS, *DISK_COLUMNS, *HOST_COLUMNS, *BACKUP_COLUMNS, *RECOVERY_COLUMNS})
# The first column names the rows: "MSExchange Database ==> Instances", "LogicalDisk", "Counter", "Database Instance".
_ROW_NAMES = re.compile(r"(?:==>\s*)?instances?$|logicaldisk$|volume$|counter$|db instance$")
RULE = re.compile(r"[-–—_=|+:]+")  # a drawn rule's piece, never a header's word
MAX_HEADER_WORDS = 8  # the longest known header is six words with its unit


def is_number(text: str) -> bool:
    try:
        return parse_number(text) is not None
    except ValueError:
        return False


def nearest_columns(starts: tuple[int, ...], columns: tuple[int, ...]) -> list[int]:
    """The column of each cell: the nearest column start, in order (two cells never share a column)."""
    found: list[int] = []
    for start in starts:
        best = min(range(len(columns)), key=lambda j: (abs(columns[j] - start), j))
        found.append(min(max(best, found[-1] + 1), len(columns) - 1) if found else best)
    return found


def _words_at(line: Line) -> list[tuple[int, str]]:
    """Each word of an aligned line with the place it starts at (a cell may hold two columns' words
    one space apart when the columns are narrow: "Maintenance Maintenance")."""
    placed = []
    for start, cell in zip(line.starts, line.cells):
        for match in re.finditer(r"\S+", cell):
            if not RULE.fullmatch(match.group(0)):  # a drawn rule printed between a header's lines
                placed.append((start + match.start(), match.group(0)))
    return placed


def join_wrapped_header(block: Sequence[Line], widest: Line | None) -> list[str] | None:
    """The headers of a header printed over several lines, each word under its column; None when the
    lines carry no positions (tabs, pipes) and cannot be joined by place. The columns start where the
    block's widest line starts its cells, or the first row's when it has more."""
    def width(line: Line) -> int:
        return len([c for c in line.cells if c])

    reference = max(block, key=width)
    if widest is not None and widest.starts and width(widest) > width(reference):
        reference = widest
    if not reference.starts or any(not line.starts for line in block):
        return None
    columns = reference.starts
    headers = [""] * len(columns)
    for line in block:
        for place, word in _words_at(line):
            column = max((j for j, start in enumerate(columns) if start <= place + 1), default=0)
            headers[column] = f"{headers[column]} {word}".strip()
    return headers


_UNIT_WORD = re.compile(r"\((?:msec|ms|sec|seconds)\)", re.IGNORECASE)


def _known(words: tuple[str, ...]) -> bool:
    """A known header; a unit ends the header before it, never starts one."""
    return not _UNIT_WORD.fullmatch(words[0]) and canonical_header(" ".join(words)) in _KNOWN


# The vocabulary's words as printed (canonical headers drop units and spell "average" short).
_HEADER_WORDS = frozenset(word.casefold() for header in _KNOWN for word in header.split()) | {
    "msexchange", "==>", "average", "database", "databases", "instances", "(msec)", "(ms)", "msec", "(sec)",
    "/sec", "per", "second", "transactional", "physical", "logicaldisk", "volume"}


def is_header_words(text: str) -> bool:
    """A line of a report table's header wrapped like prose ("Latency (msec) I/O Log Reads/sec I/O Log"):
    every word one of the column vocabulary's. Printed once per report, such a line repeats in a
    document of several reports and must not be taken for a running page header."""
    words = text.casefold().split()
    return len(words) >= 2 and all(word in _HEADER_WORDS for word in words)


def names_rows(text: str) -> bool:
    """The header of a table's first column, naming its rows ("Counter", "MSExchange Database ==> Instances")."""
    return _names_rows(tuple(text.split())) if text.strip() else False


def is_column_header(text: str) -> bool:
    """A report table's column header on a line of its own ("I/O Log Writes Average Latency (msec)")."""
    words = tuple(text.split())
    return bool(words) and (_known(words) or _names_rows(words))


def _names_rows(words: tuple[str, ...]) -> bool:
    return bool(_ROW_NAMES.search(canonical_header(" ".join(words))))


@lru_cache(maxsize=256)
def split_by_vocabulary(header: str) -> tuple[str, ...] | None:
    """"MSExchange Database ==> Instances I/O Database Reads Average Latency (msec) I/O ..." -> its headers:
    the first naming the rows, then the fewest known headers that cover every word; None when none do."""
    words = tuple(header.split())
    for first in range(1, min(len(words), MAX_HEADER_WORDS) + 1):
        if not _names_rows(words[:first]):
            continue
        best: list[list[str] | None] = [None] * (len(words) + 1)
        best[first] = [" ".join(words[:first])]
        for i in range(first, len(words)):
            if best[i] is None:
                continue
            for j in range(i + 1, min(len(words), i + MAX_HEADER_WORDS) + 1):
                if _known(words[i:j]):
                    candidate = [*best[i], " ".join(words[i:j])]
                    if best[j] is None or len(candidate) < len(best[j]):
                        best[j] = candidate
        if best[len(words)] is not None and len(best[len(words)]) > 1:
            return tuple(best[len(words)])
    return None


_GROUP = re.compile(r"\d{3}(?:\.\d+)?")
_LEAD = re.compile(r"[+-]?\d{1,3}(?: \d{3})*")


def _grouped(tokens: list[str]) -> list[str]:
    """Numbers printed with a space between thousands, one after another ("33 555 517.306 33 212 326.915"):
    a number runs on over three-digit groups until a group with decimals ends it."""
    numbers: list[str] = []
    for token in tokens:
        if numbers and _GROUP.fullmatch(token) and _LEAD.fullmatch(numbers[-1]):
            numbers[-1] = f"{numbers[-1]} {token}"
        else:
            numbers.append(token)
    return numbers


def headers_of(texts: list[str]) -> tuple[str, ...] | None:
    """The headers printed above a table's rows without gaps: one a line (as an extractor prints an HTML
    table's cells), else the last line or all of them cut by the vocabulary."""
    texts = [t for t in texts if t.strip()]
    for start in range(len(texts) - 1, -1, -1):  # the rows' name header is the first line of the block
        block = texts[start:]
        if len(block) > 1 and _names_rows(tuple(block[0].split())) and all(_known(tuple(t.split())) for t in block[1:]):
            return tuple(block)
    if texts:
        last = split_by_vocabulary(texts[-1])
        return last if last is not None else split_by_vocabulary(" ".join(texts))
    return None


def split_row(text: str, columns: int) -> list[str] | None:
    """A single-spaced row: its name, then exactly `columns - 1` numbers at its end. Read token by token
    when that gives as many numbers as columns; else with space-grouped thousands joined, when that does;
    else not at all (the row is ambiguous, and a guess would put a figure in another column)."""
    tokens = text.split()
    tail = len(tokens)
    while tail > 0 and is_number(tokens[tail - 1]):
        tail -= 1
    name, numbers = tokens[:tail], tokens[tail:]
    if not name or len(numbers) < columns - 1:
        return None
    if len(numbers) > columns - 1:
        numbers = _grouped(numbers)
        if len(numbers) != columns - 1:
            return None
    return [" ".join(name), *numbers]
