"""A document's identity from what it prints, so a PDF and its text extraction are one document.

Bytes differ between copies (PDF vs text, tabs vs spaces, Markdown, CRLF, page breaks, another
extractor), and so may the way tables are split into rows; the figures printed do not. The
fingerprint is the document's reports (machine, start, type, achieved IOPS) and the *set* of its
figures of four digits or more, wherever they are printed: a set, because running headers repeat
theirs on every page; four digits, because page numbers are short. Names are left out on
purpose: a renamed copy is the same document. Pure.
"""

from __future__ import annotations

import hashlib
import re

from .records import ReportDocument

# A number: a digit no word or point goes on to (tried at digits alone), of MIN_DIGITS characters or more: three
# digits, commas or points follow its first digit (a shorter one fails there, and at each later digit too, as
# its run ends sooner), so the many short ones are never made into strings (a findall of all: 53 -> 44 ms / 40 PDFs).
_NUMBER = re.compile(r"\d(?<![\w.]\d)(?=[\d,.]{3})[\d,]*(?:\.\d+)?")
MIN_DIGITS = 4


def figures(text: str) -> set[str]:
    """The figures of MIN_DIGITS digits or more in a text, thousands separators removed."""
    found = (n.replace(",", "") for n in _NUMBER.findall(text) if len(n) >= MIN_DIGITS)  # (shorter: fewer digits)
    return {n for n in found if len(n) - n.count(".") >= MIN_DIGITS}  # digits, and one point at most: its digits


def content_fingerprint(document: ReportDocument) -> str:
    """SHA-256 (hex) of the document's reports and figures, independent of layout and names."""
    reports = sorted(
        f"{(r.machine_name or '').casefold()}|{r.test_start.isoformat() if r.test_start else ''}|"
        f"{r.report_type}|{'' if r.achieved_iops is None else f'{r.achieved_iops:.3f}'}"
        for r in document.reports)
    printed = figures("\n".join(line.text for line in document.lines))  # one scan; a figure never spans lines
    return hashlib.sha256("\n".join([*reports, "--", *sorted(printed)]).encode()).hexdigest()
