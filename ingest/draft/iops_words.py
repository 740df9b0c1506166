"""Which IOPS a bare "IOPS" means in one document: achieved (transactional) or total (with log writes).

Jetstress prints two headline rates, achieved transactional IOPS (database reads + writes) and, beside
them, log writes; a document that says only "23.5 IOPS per disk" or "10% fewer IOPS" means one of
the two sums, and says which elsewhere: in the same paragraph ("5,000 total IOPS … for 200 IOPS per
disk"), in a definition ("these results are the sum of database reads and writes and log writes"),
or by how it names its figures everywhere else. With no word either way, the figure is Jetstress's
own headline, achieved IOPS. Pure: paragraphs in, a metric prefix out.
"""

from __future__ import annotations

import re

from .anchored import anchor_starts, matches_somewhere
from .deferred import deferred
from .number_starts import matches_from
from .prefilter import lowered, may

_STATED = deferred(r"\b(total|achieved|transactional)\s+(?:transactional\s+)?(?:IOPS|I/O)\b", re.IGNORECASE)
# Where a match of _STATED starts, in the text lowered (anchored.py): its matches, found by number_starts.matches_from
# at those places alone, are finditer's (0.043 s -> 0.020 s for 40 PDFs' paragraphs).
_STATED_STARTS = deferred(r"t(?=otal)|a(?=chieved)|t(?=ransactional)")
# "the sum of … reads and writes and log writes", "database I/O plus log I/O", "including log writes"
_DEFINES_TOTAL = deferred(r"\b(?:sum|total)\s+of\b[^.]{0,120}\blog\s+(?:disk\s+)?(?:writes|I/?O)\b|"
                          r"\bIOPS\b[^.]{0,80}\b(?:plus|including|includes|and)\s+(?:the\s+)?log\s+(?:disk\s+)?"
                          r"(?:writes|IOPS|I/?O)\b", re.IGNORECASE)
# Where a match of _DEFINES_TOTAL starts ("sum", "total", "IOPS"), in the text lowered (anchored.py): tried there
# alone, not at every character of each paragraph holding "log" (document_iops for 40 PDFs: 30 -> 20 ms)
_DEFINES_TOTAL_STARTS = deferred(r"s(?=um)|t(?=otal)|i(?=ops)")
# "Achieved IOPS includes only database disk I/O": a definition that leaves log writes out.
_DEFINES_ACHIEVED = deferred(r"\bIOPS\b[^.]{0,40}\b(?:only|excludes?|not)\b[^.]{0,40}\blog\b", re.IGNORECASE)


def _kind(word: str) -> str:
    return "total" if word.lower() == "total" else "achieved"


def document_iops(texts: list[str]) -> str:
    """What a bare "IOPS" means across a document: its definition if it gives one, else the kind it
    names more often, else achieved."""
    total = achieved = 0
    for text in texts:
        low = lowered(text)  # every match of _DEFINES_TOTAL holds "log", of _STATED "iops" or "i/o" (case aside)
        if may(low, "log") and matches_somewhere(_DEFINES_TOTAL, _DEFINES_TOTAL_STARTS, text) \
                and not _DEFINES_ACHIEVED.search(text):
            return "total"
        starts = anchor_starts(_STATED_STARTS, text) if may(low, "iops", "i/o") else []
        for match in _STATED.finditer(text) if starts is None else matches_from(_STATED, text, starts):
            if _kind(match[1]) == "total":
                total += 1
            else:
                achieved += 1
    return "total" if total > achieved else "achieved"


def paragraph_iops(text: str, position: int, default: str) -> str:
    """The kind the paragraph names last before `position` ("… 5,000 total IOPS, for 200 IOPS per disk"),
    else the document's."""
    stated = [m for m in _STATED.finditer(text, 0, position)]
    return _kind(stated[-1][1]) if stated else default
