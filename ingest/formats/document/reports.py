"""Find the Jetstress reports embedded in a document's lines and cut each into sections.

A report starts at its title ("Performance Test Result Report", even when extraction ran it
into the next heading: "Performance Test Test Summary⇥Result Report"), or at a "Test Summary"
or statistics heading when the title is missing. Section headings are found by meaning
(the shared vocabulary), also when split inside a word ("Host System Perfor⇥mance") or glued
to their first line ("Test Log5/28/2011 11:38:14 AM -- …"). A report ends at the next report,
at an appendix heading, where its last table gives way to prose, or where its test log gives
way to text that cannot continue a log entry. Pure: lines in, raw sections out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...jetstress.vocabulary import IO_SCOPES_BY_TITLE, SECTION_KINDS_BY_TITLE, section_kind
from .lines import Line
from .wrapped_grids import names_rows

_REPORT_TITLE = re.compile(r"(?P<kind>\S.*?)\s+test\s+result\s+report", re.IGNORECASE)
_SUMMARY_WORDS = re.compile(r"\s*\btest\s+summary\b\s*", re.IGNORECASE)
_APPENDIX = re.compile(r"appendix\s+[a-z](?:\b|\d)", re.IGNORECASE)
_TEST_LOG_GLUED = re.compile(r"\s*test\s*log\s*(?=\d{1,2}/\d{1,2}/\d{4})", re.IGNORECASE)
_STARTS_WITH_TIME = re.compile(r"\s*\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}")
_HAS_TIME = re.compile(r"\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}:\d{2}")
_CONTINUATION = re.compile(r"[a-z0-9(\[<]|[A-Za-z]:\\|\\\\|[Jj]et[Ss]tress\\")  # text that can only go on an entry
_FINISHED = re.compile(r"[.:)!?]\s*$")
_PRODUCT = re.compile(r"(?=.*\bexchange\b)(?=.*jetstress)", re.IGNORECASE)


def _names_product(text: str) -> bool:
    """_PRODUCT's search (from every place, to the line's end: slow where it fails), asked only where both words
    are: in ASCII text str.lower() folds as re.IGNORECASE does; other text is searched as it is."""
    low = text.lower() if text.isascii() else None
    return (low is None or ("exchange" in low and "jetstress" in low)) and _PRODUCT.search(text) is not None

GRID_KINDS = frozenset({"io", "host", "backup", "recovery", "checksum"})
OPENING_KINDS = frozenset({"summary", "backup", "recovery"})
MAX_HEADING_CHARS = 80
# A section title is one of the vocabulary's once normalised (case folded, spacing collapsed: every letter
# kept), so it holds that title's longest word: a line holding none of them (most lines) is not asked.
_TITLE_WORDS = tuple(sorted({max(re.findall(r"[a-z]+", title), key=len)
                             for title in (*IO_SCOPES_BY_TITLE, *SECTION_KINDS_BY_TITLE)} | {"checksum"}))


_ANY_TITLE_WORD = re.compile("|".join(map(re.escape, _TITLE_WORDS)))  # one scan, not one `in` a word


_FIGURES_ROW = re.compile(r"^\S+(?:\s+(?:\d[\d.,]*|ms|s|%))+\s*$", re.IGNORECASE)


@dataclass
class RawSection:
    """A report section found in a document's lines, before it is read."""

    title: str  # as printed, with split words rejoined
    kind: str  # vocabulary kind: "summary", "io", "host", "log", …
    line: int
    lines: list[Line] = field(default_factory=list)


@dataclass
class RawReport:
    """An embedded report found in a document's lines: where it starts and its sections."""

    first: int  # index into the document's lines of the report's first line
    line: int  # its line number
    subtitle: str | None  # "Performance Test Result Report" as printed
    appendix: Line | None = None  # the appendix heading the report sits under
    product: Line | None = None  # "Microsoft Exchange Jetstress 2010"
    sections: list[RawSection] = field(default_factory=list)
    last: int = 0  # index of the last line the report took


def _variants(line: Line) -> tuple[str, ...]:
    """The line's text, and its cells run together (a title split inside a word); a line of one cell has one."""
    return (line.text,) if len(line.cells) < 2 else (line.text, line.joined(""))  # (text: its cells, spaced)


_HEADING_WORD = re.compile("report|" + _ANY_TITLE_WORD.pattern)  # a report title's word or a section title's


def _heading_variants(line: Line) -> list[tuple[str, str]]:
    """Each variant short enough for a heading and holding a title's word, with its casefold: what both title
    tests ask, worked out once a line (most lines have none; 40 PDFs' 34,000 lines: 157 -> 137 ms)."""
    found = []
    for variant in _variants(line):
        if len(variant) <= MAX_HEADING_CHARS and _HEADING_WORD.search(folded := variant.casefold()):
            found.append((variant, folded))
    return found


def report_title(line: Line, worded: list[tuple[str, str]] | None = None) -> tuple[str, bool] | None:
    """("Performance Test Result Report", heading also holds "Test Summary") for a report title line."""
    if line.separated and len([c for c in line.cells if c]) > 3:
        return None
    for variant, folded in _heading_variants(line) if worded is None else worded:
        if "report" not in folded:  # (the title's own word)
            continue
        if _REPORT_TITLE.fullmatch(variant):
            return variant, False
        without = _SUMMARY_WORDS.sub(" ", variant).strip()
        if without != variant and _REPORT_TITLE.fullmatch(without):
            return without, True
    return None


def section_title(line: Line, worded: list[tuple[str, str]] | None = None) -> tuple[str, str, str] | None:
    """(title as printed, kind, text glued after it) when the line is a report section heading."""
    dated = "/" in line.text  # (what both patterns' dates hold: most lines are asked neither)
    glued = _TEST_LOG_GLUED.match(line.text) if dated else None
    if glued:
        return "Test Log", "log", line.text[glued.end() :]
    if (dated and _STARTS_WITH_TIME.match(line.text)) or (line.separated and len([c for c in line.cells if c]) > 3):
        return None
    for variant, folded in _heading_variants(line) if worded is None else worded:
        if _ANY_TITLE_WORD.search(folded) is None:
            continue
        kind = section_kind(variant)
        if kind == "checksum" and (len(variant.split()) > 6 or "\\" in variant or "." in variant):
            kind = None
        if kind:
            return variant, kind, ""
    return None


def is_appendix(line: Line) -> bool:
    return not line.separated and len(line.text) <= 120 and bool(_APPENDIX.match(line.text))


class _Segmenter:
    def __init__(self, lines: list[Line]):
        self.lines = lines
        self.reports: list[RawReport] = []
        self.current: RawReport | None = None
        self.section: RawSection | None = None
        self.appendix: Line | None = None
        self.recent: list[Line] = []  # the last few prose lines outside reports (product title candidates)
        self.blank_seen = False
        self.log_unfinished = False
        self.grid_rows = 0

    # -- report and section boundaries --

    def open(self, index: int, line: Line, subtitle: str | None) -> None:
        self.close()
        product = next((prior for prior in reversed(self.recent) if _names_product(prior.text)), None)
        self.current = RawReport(index, line.number, subtitle, self.appendix, product, last=index)
        self.appendix, self.recent = None, []

    def close(self) -> None:
        if self.current is not None:
            self.reports.append(self.current)
        self.current, self.section = None, None

    def start_section(self, index: int, line: Line, title: str, kind: str, glued: str) -> None:
        self.section = RawSection(title, kind, line.number)
        self.current.sections.append(self.section)
        self.current.last = index
        self.blank_seen, self.log_unfinished, self.grid_rows = False, False, 0
        if glued.strip():
            self.take(index, Line(line.number, (glued.strip(),)))

    def take(self, index: int, line: Line) -> None:
        self.section.lines.append(line)
        self.current.last = index
        if self.section.kind == "log":
            last = next((cell for cell in reversed(line.cells) if cell), "")
            self.log_unfinished = not _FINISHED.search(last) or last.rstrip().endswith("--")
            self.blank_seen = False
        elif self.section.kind in GRID_KINDS and line.separated and not line.rule:
            self.grid_rows += 1

    # -- what a line means inside a report --

    def log_takes(self, line: Line) -> bool:
        if line.heading:
            return False
        if _STARTS_WITH_TIME.match(line.text) or (line.separated and any(_HAS_TIME.search(c) for c in line.cells)):
            return True
        if not self.blank_seen:
            return True
        return self.log_unfinished or bool(_CONTINUATION.match(line.text))

    def grid_ended(self, index: int, line: Line) -> bool:
        """A prose line after the table's rows ends the section, unless it is a row label whose cells follow."""
        if line.separated or self.grid_rows < 2 or names_rows(line.text):  # "Instances" under "Database ==>"
            return False
        if _FIGURES_ROW.match(line.text):  # a row with single spaces between its cells: a name and its figures
            return False
        following = next((n for n in self.lines[index + 1 : index + 4] if not n.blank and not n.furniture), None)
        return not (following is not None and following.separated and not following.first)

    def feed(self, index: int, line: Line) -> None:
        if line.furniture:
            return
        if line.blank or line.rule:
            if self.section is not None and self.section.kind == "log":
                self.blank_seen = True
                self.section.lines.append(line)  # a blank line tells a wrapped tail from a new paragraph
            return
        if is_appendix(line):
            self.close()
            self.appendix, self.recent = line, []
            return
        worded = _heading_variants(line)
        title = report_title(line, worded) if worded else None
        if title is not None:
            self.open(index, line, title[0])
            if title[1]:
                self.start_section(index, line, "Test Summary", "summary", "")
            return
        if self.section is not None and self.section.kind == "log":
            if self.log_takes(line):
                self.take(index, line)
                return
            self.close()
        heading = section_title(line, worded) if worded or "/" in line.text else None  # (no title's word, no date)
        if heading is not None:
            self.enter(index, line, *heading)
            return
        if self.section is not None:
            if self.section.kind in GRID_KINDS and self.grid_ended(index, line):
                self.close()
            else:
                self.take(index, line)
                return
        self.outside(line)

    def enter(self, index: int, line: Line, title: str, kind: str, glued: str) -> None:
        if self.current is None:
            if kind not in OPENING_KINDS:
                self.outside(line)
                return
            self.open(index, line, None)
        elif kind in OPENING_KINDS and self.current.sections and not self._own_statistics(kind):
            self.open(index, line, None)
        self.start_section(index, line, title, kind, glued)

    def _own_statistics(self, kind: str) -> bool:
        """A backup or soft-recovery report's own statistics ("SoftRecovery Statistics - All" under "SoftRecovery
        Test Result Report"): the first such section of a report its title names as that test."""
        title = (self.current.subtitle or "").casefold().replace("-", "").replace(" ", "") if self.current else ""
        named = {"backup": "backup", "recovery": "softrecovery"}.get(kind)
        return bool(named and named in title and not any(s.kind == kind for s in self.current.sections))

    def outside(self, line: Line) -> None:
        if self.current is not None and not self.current.sections and _names_product(line.text):
            self.current.product = self.current.product or line
            return
        if self.current is None and not line.separated:
            self.recent = [*self.recent[-2:], line]


def find_reports(lines: list[Line]) -> list[RawReport]:
    """Every embedded report, in document order, with its sections' lines."""
    segmenter = _Segmenter(lines)
    for index, line in enumerate(lines):
        segmenter.feed(index, line)
    segmenter.close()
    return segmenter.reports
