"""What ESRP program a submission was tested under, and when: the template's cover lines.

The ESRP template (Microsoft's, the same for every vendor) opens with "Tested with: ESRP - Storage
Version 3.0" and "Tested Date: June 09, 2011". Read by meaning, wherever they are printed: a
version number after "ESRP … version", a date after a "tested date" / "date tested" label. Pure:
the document's lines in, the two figures with their lines out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from .lines import Line

_VERSION = re.compile(r"\bESRP\b[^0-9\n]{0,40}?\bversion\s*:?\s*v?(\d+(?:\.\d+){0,3})\b", re.IGNORECASE)
_TESTED_ON = re.compile(r"^\W*(?:tested\s+date|date\s+tested|test\s+date|tested\s+on)\s*[:\-–]?\s*(.+?)\s*$",
                        re.IGNORECASE)
_DATE_FORMATS = ("%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y", "%m/%d/%Y",
                 "%Y-%m-%d", "%B %Y")


def _may_name_version(text: str) -> bool:
    """Whether _VERSION may match: its matches hold "esrp" and "version", which ASCII text lowered shows as
    re.IGNORECASE reads them (other text is searched as it is)."""
    if not text.isascii():
        return True
    low = text.lower()
    return "esrp" in low and "version" in low


@dataclass(frozen=True)
class Program:
    """The ESRP version and the tested date a submission prints, each with its line."""

    esrp_version: str | None = None
    esrp_version_line: int | None = None
    tested_on: date | None = None
    tested_on_line: int | None = None


def parse_date(text: str) -> date | None:
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", " ".join(text.replace(".", " ").split()))
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, pattern).date()
        except ValueError:
            continue
    return None


def esrp_program(lines: list[Line]) -> Program:
    """The first ESRP version and the first tested date the document prints, each with its line."""
    version = version_line = tested = tested_line = None
    for line in lines:
        if line.furniture or not line.text:
            continue
        if version is None and _may_name_version(line.text) and (found := _VERSION.search(line.text)):
            version, version_line = found[1], line.number
        if tested is None and (label := _TESTED_ON.match(line.text)) and (day := parse_date(label[1])):
            tested, tested_line = day, line.number
        if version is not None and tested is not None:
            break
    return Program(version, version_line, tested, tested_line)
