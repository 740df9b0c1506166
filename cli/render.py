"""One renderer for every listing: a rich table, CSV or JSON, chosen by --format."""

from __future__ import annotations

import csv
import json
import sys
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Iterable, Sequence, TextIO, cast

from rich.console import Console
from rich.table import Table


class OutputFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and cast(int, value.as_tuple().exponent) >= 0 else float(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


def _text_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if abs(value) >= 1e6:
            return f"{value:.1f}"  # capacities and byte counts: no exponent
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return "; ".join(_text_value(v) for v in value)
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    return str(value)


def render(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    fmt: OutputFormat = OutputFormat.table,
    *,
    title: str | None = None,
    out: TextIO | None = None,
) -> None:
    out = out or sys.stdout
    if fmt is OutputFormat.json:
        records = [{c: _json_value(v) for c, v in zip(columns, row)} for row in rows]
        out.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
    elif fmt is OutputFormat.csv:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if v is None else _json_value(v) for v in row])
    else:
        table = Table(title=title, show_lines=False)
        for column in columns:
            table.add_column(column, overflow="fold")
        count = 0
        for row in rows:
            table.add_row(*(_text_value(v) for v in row))
            count += 1
        # Piped output gets a wide table rather than rich's 80-column default.
        console = Console(file=out, width=None if out.isatty() else 200)
        console.print(table)
        if count == 0:
            console.print("(no rows)")
