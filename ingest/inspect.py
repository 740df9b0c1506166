"""`parse_file`: detect a file's format and show its parsed record as JSON, for people debugging
a file (`esrpdb parse FILE`). Stage one keeps units as printed; `normalised=True` shows the run
and latency rows the loader would write.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from . import bounded_read, registry
from .formats.document.records import ReportDocument
from .jetstress import normalise
from .jetstress.records import JetstressReport


def json_default(value: object) -> str:
    """`default=` for `json.dumps`: dates as ISO 8601, decimals as exact strings. The loader writes
    a report's rows in the same spelling `esrpdb parse` prints; anything else is a bug, not a value."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot serialise {type(value).__name__}")


PREVIEW_ROWS = 20  # streamed formats (perfmon) show their header, columns and first rows (all with --normalised)


def _normalised(report: JetstressReport) -> dict:
    return {
        "run": normalise.run_values(report),
        "latencies": [normalise.latency_values(t, r) | {"instance": r.instance} for t in report.io_tables for r in t.rows],
    }


def parse_file(path: Path, *, normalised: bool = False) -> str:
    info = bounded_read.regular_file(path)
    module = registry.detect(path.name, bounded_read.read_head(path, registry.HEAD_BYTES),
                             rest=bounded_read.chunks(path))
    bounded_read.check_size(path, info.st_size, module)
    record: Any
    if getattr(module, "open_perfmon", None) is not None:  # a streamed export: its head and first rows
        with path.open("rb") as stream, module.open_perfmon(str(path), stream) as reader:
            rows = list(reader) if normalised else [row for _, row in zip(range(PREVIEW_ROWS), reader)]
            record = {"header": dataclasses.asdict(reader.header), "columns": [str(c) for c in reader.columns],
                      ("rows" if normalised else "first_rows"): [[stamp, values] for stamp, values in rows]}
    else:
        record = module.parse(str(path), bounded_read.read_bounded(path, module))
        if normalised and isinstance(record, JetstressReport):
            record = _normalised(record)
        elif normalised and isinstance(record, ReportDocument):
            record = {"reports": [_normalised(r) for r in record.reports]}
        elif dataclasses.is_dataclass(record) and not isinstance(record, type):
            record = dataclasses.asdict(record)
    return json.dumps({"format": module.FORMAT, "record": record}, default=json_default, indent=2, ensure_ascii=False)
