"""Whether a file is a power log, from its first line: a timestamp column and a watts column (what
detection needs; the reader reads the header with the same names)."""

from __future__ import annotations

import csv

from ...decoding import head_text

# Header spellings, compared after lower-casing and collapsing spaces.
TIMESTAMP_HEADERS = ("timestamp", "time", "date/time", "date time", "datetime", "time stamp")
WATTS_HEADERS = ("watts", "watt", "w", "power (w)", "power(w)", "power [w]", "power_w", "power", "active power (w)")


def _norm(header: str) -> str:
    return " ".join(header.strip().lower().split())


def _header_columns(cells: list[str]) -> tuple[int, int] | None:
    names = [_norm(cell) for cell in cells]
    time_index = next((i for i, n in enumerate(names) if n in TIMESTAMP_HEADERS), None)
    watts_index = next((i for i, n in enumerate(names) if n in WATTS_HEADERS), None)
    return None if time_index is None or watts_index is None else (time_index, watts_index)


def identify(name: str, head: bytes) -> bool:
    """First line is a CSV header with a timestamp column and a watts column."""
    text = head_text(head)
    first = text.lstrip("\r\n").splitlines()[0] if text.strip() else ""
    if not first or len(first) > 1000:
        return False
    return _header_columns(next(csv.reader([first]))) is not None
