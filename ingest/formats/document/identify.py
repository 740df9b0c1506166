"""Is this file an ESRP submission or whitepaper? Judged line by line, from the head or the whole text.

Vendors put their reports where they like: a whitepaper may open with 20 KB of prose before its
first table. So the evidence is gathered line by line by `Evidence`, the same rules for the head
(`identify`, fast) and for the whole text (`identify_rest`, streamed chunk by chunk and bounded by
the size cap); no rule depends on where in the file a line sits. Judged from structure, not
words: a README that talks about Jetstress is not claimed. Pure: bytes in, a yes or no out.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable

from ...decoding import byte_order_mark, head_text
from ...jetstress.vocabulary import normalise_label
from ...pdf import PDF_MAGIC as PDF_MAGIC
from .document_bytes import MAX_BYTES
from .markup import clean

EXTENSIONS = (".txt", ".text", ".md", ".markdown", ".pdf")
SNIFF_CHARS = 16384  # of the head
MAX_SCAN_LINE_CHARS = 4096  # a longer line is judged by its start (a report's lines are short)

_NOT_DOCUMENT = re.compile(r"\s*(?:<!doctype|<html|<\?xml|<configuration|\"?\(pdh-(?:csv|tsv))", re.IGNORECASE)
_ACHIEVED = re.compile(r"achieved (?:transactional )?i/o per second\W*\d", re.IGNORECASE)
_OVERALL = re.compile(r"overall test result\W*(?:pass|fail)", re.IGNORECASE)
_TITLE = re.compile(r"\S.*?\s+test\s+result\s+report(?:[\s.]*\d+)?", re.IGNORECASE)
_ESRP = re.compile(r"tested with\s*:?\s*esrp", re.IGNORECASE)
_FIGURE = re.compile(r"(?:figure|table)\s+\d+\s*:.*(?:iops|jetstress)", re.IGNORECASE)
_ESRP_WORD = re.compile(r"\besrp\b")
_IOPS_CELL = re.compile(r"\biops\b|i/o per second", re.IGNORECASE)  # a word: `run_iops` is a name, not a label
_NUMBER_CELL = re.compile(r"[\d,.]+")


class Evidence:
    """What the lines seen so far show; `recognised` once they are enough."""

    def __init__(self) -> None:
        self.jetstress = self.esrp = False
        self.summary = self.overall = self.report_line = False
        self.title = self.figure = self.iops_row = False

    def feed(self, raw: str) -> None:
        raw = raw[:MAX_SCAN_LINE_CHARS]
        folded = raw.casefold()
        self.jetstress = self.jetstress or "jetstress" in folded
        self.esrp = self.esrp or bool(_ESRP_WORD.search(folded))  # the word, not `esrpdb`
        line = clean(re.sub(r"[|\t]", "  ", raw).strip().lstrip("#").strip())
        self.summary = self.summary or normalise_label(line) == "test summary"
        self.overall = self.overall or bool(_OVERALL.match(line))
        self.report_line = self.report_line or bool(_ACHIEVED.match(line) or _ESRP.match(line))
        self.title = self.title or bool(_TITLE.fullmatch(line))
        self.figure = self.figure or bool(_FIGURE.match(line))
        if not self.iops_row and re.search(r"[|\t]|\S {2,}\S", raw):  # tabs, pipes or columns of spaces
            cells = re.split(r"[|\t]| {2,}", raw.strip().strip("|"))
            self.iops_row = bool(_IOPS_CELL.search(cells[0])) and any(
                _NUMBER_CELL.fullmatch(c.strip()) for c in cells[1:])

    @property
    def recognised(self) -> bool:
        return ((self.summary and self.overall) or self.report_line
                or (self.jetstress and (self.title or self.figure))
                or ((self.jetstress or self.esrp) and self.iops_row))


def _eligible(name: str, head: bytes) -> str | None:
    """The head as text when the file may be a document (name, not binary, not another format's start)."""
    if not name.lower().endswith(EXTENSIONS):
        return None
    if byte_order_mark(head, utf32=False) is None and b"\x00" in head:
        return None  # binary: NUL bytes without a UTF-16 mark
    text = head_text(head)[:SNIFF_CHARS]
    return None if _NOT_DOCUMENT.match(text) else text


def identify(name: str, head: bytes) -> bool:
    """True for a document whose head prints a Jetstress report or an ESRP/whitepaper result table."""
    if head.startswith(PDF_MAGIC):
        return True
    text = _eligible(name, head)
    if text is None:
        return False
    evidence = Evidence()
    for raw in text.splitlines():
        evidence.feed(raw)
    return evidence.recognised


def identify_rest(name: str, head: bytes, chunks: Iterable[bytes]) -> bool:
    """The whole text judged as the head is, for a document whose head shows nothing yet.

    `chunks` is the file from its first byte, in pieces; no more than the size cap is read,
    and only one piece and one line are held at a time.
    """
    if head.startswith(PDF_MAGIC) or _eligible(name, head) is None:
        return False
    bom = byte_order_mark(head, utf32=False)
    decoder = codecs.getincrementaldecoder(bom.whole_codec if bom else "utf-8")(errors="ignore")
    evidence, pending, seen = Evidence(), "", 0
    for chunk in chunks:
        chunk = chunk[: max(0, MAX_BYTES - seen)]
        seen += len(chunk)
        if b"\x00" in chunk and bom is None:
            return False
        text = pending + decoder.decode(chunk)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        pending = lines.pop()[:MAX_SCAN_LINE_CHARS]  # a line's start is what is judged
        for raw in lines:
            evidence.feed(raw.replace("\f", " "))
            if evidence.recognised:
                return True
        if seen >= MAX_BYTES:
            break
    evidence.feed(pending + decoder.decode(b"", final=True))
    return evidence.recognised
