"""One renderer for every listing: a rich table, CSV or JSON, chosen by --format."""

from __future__ import annotations

import csv
import json
import math
import os
import sys
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from enum import Enum
from typing import Any, Iterable, Sequence, TextIO, cast

from .safe_text import printable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet runs as a formula (OWASP's list)


def spreadsheet_safe(value: Any) -> Any:
    """A text CSV cell a spreadsheet would run as a formula gets a leading apostrophe; numbers never
    do. ESRPDB_RAW_CSV=1 keeps cells as stored."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and os.environ.get("ESRPDB_RAW_CSV") != "1":
        return "'" + value
    return value


class OutputFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


def _non_finite(value: float | Decimal) -> str:
    # As PostgreSQL's own to_json writes them: strict JSON has no NaN or Infinity literal.
    return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")


def json_value(value: Any) -> Any:
    """Any value psycopg returns, as a strict-JSON value (numbers stay numbers where finite)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else _non_finite(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            return _non_finite(value)
        return int(value) if value == value.to_integral_value() and cast(int, value.as_tuple().exponent) >= 0 else float(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        import isodate

        return isodate.duration_isoformat(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "\\x" + bytes(value).hex()  # PostgreSQL's hex output for bytea
    if isinstance(value, Enum):
        return json_value(value.value)
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return str(value)  # UUID, IPv4Address/IPv6Network (inet, cidr), Range, …


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    converted = json_value(value)
    if isinstance(converted, (dict, list)):
        return json.dumps(converted, ensure_ascii=False)
    return printable(spreadsheet_safe(converted)) if isinstance(converted, str) else converted


def _text_value(value: Any) -> str:
    return printable(_plain_text(value))


def _plain_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if abs(value) >= 1e6:
            return f"{value:.1f}"  # capacities and byte counts: no exponent
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return "; ".join(_plain_text(v) for v in value)
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dict, bytes, bytearray, memoryview, timedelta, Decimal)):
        return str(json_value(value))
    return str(value)


def chosen_columns(columns: Sequence[str], rows: Iterable[Sequence[Any]], chosen: Sequence[str] | None
                   ) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    """`--columns a,b` (repeatable): those columns in that order; a name that is no column is a one-line
    error naming the closest."""
    names = [n.strip() for item in chosen or () for n in item.split(",") if n.strip()]
    if not names:
        return columns, rows
    unknown = [n for n in names if n not in columns]
    if unknown:
        from ..schema.keys import unknown_message
        from .errors import fail

        fail(unknown_message("column", unknown[0], columns))
    at = [list(columns).index(n) for n in names]
    return names, [[row[i] for i in at] for row in rows]


def render(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    fmt: OutputFormat = OutputFormat.table,
    *,
    title: str | None = None,
    out: TextIO | None = None,
    width: int | None = None,
    chosen: Sequence[str] | None = None,
) -> None:
    out = out or sys.stdout
    columns, rows = chosen_columns(columns, rows, chosen)
    if fmt is OutputFormat.json:
        records = [{c: json_value(v) for c, v in zip(columns, row)} for row in rows]
        out.write(printable(json.dumps(records, indent=2, ensure_ascii=False, allow_nan=False)) + "\n")
    elif fmt is OutputFormat.csv:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([printable(c) for c in columns])
        for row in rows:
            writer.writerow([_csv_value(v) for v in row])
    else:
        from .terminal_table import print_table

        # On a terminal, its own width; piped, as wide as its widest row (print_table): never cut.
        print_table(columns, list(rows), _text_value, title=title, out=out, width=width)
