"""A document's identity from what it prints, so a PDF and its text extraction are one document.

Bytes differ between copies (PDF vs text, tabs vs spaces, CRLF, another extractor); what the
document prints does not: its reports (machine, start, achieved IOPS) and the numbers of its
tables. Names are left out on purpose: a renamed copy is another document only if its figures
differ. Pure.
"""

from __future__ import annotations

import hashlib
import re

from .records import ReportDocument

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> list[str]:
    return [n.replace(",", "") for n in _NUMBER.findall(text)]


def content_fingerprint(document: ReportDocument) -> str:
    """SHA-256 (hex) of the document's reports and table figures, independent of layout."""
    reports = sorted(
        f"{(r.machine_name or '').casefold()}|{r.test_start.isoformat() if r.test_start else ''}|"
        f"{r.report_type}|{'' if r.achieved_iops is None else f'{r.achieved_iops:.3f}'}"
        for r in document.reports)
    figures = sorted(n for table in document.tables for row in table.rows for cell in row.values
                     for n in _numbers(cell))
    return hashlib.sha256("\n".join([*reports, "--", *figures]).encode()).hexdigest()
