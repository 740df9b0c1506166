"""Jetstress HTML result reports (Performance_, Stress_, DatabaseBackup_, SoftRecovery_,
DBChecksum_*.html) -> `JetstressReport`.

The DOM is read with lxml (no network, no huge trees, comments dropped); sections are found
by legend text, fields by label, columns by header text. A missing required part raises
`ParseError`; a missing optional section only adds a warning, so the report still loads.

The reader is in reader.py, imported by `parse`: detecting a file (every ingest process does) needs
only `identify` (identify.py), not lxml and the DOM code.
"""

from __future__ import annotations

from typing import Any

from ...jetstress.records import JetstressReport  # what `parse` returns (light: records only)
from ..reader_names import reader_name
from .identify import SNIFF_BYTES as SNIFF_BYTES, identify as identify

FORMAT = "jetstress_html"
MAX_BYTES = 64 * 1024 * 1024  # real reports are well under 1 MiB


def parse(name: str, data: bytes) -> JetstressReport:
    """The report one Jetstress HTML file holds; `ParseError` names file, section and line (reader.py,
    imported when a report is read)."""
    from .reader import parse as read_report

    return read_report(name, data, max_bytes=MAX_BYTES)


def __getattr__(name: str) -> Any:
    """The reader's other names, as the package always gave them, loaded when first asked for."""
    return reader_name(__name__, name)
