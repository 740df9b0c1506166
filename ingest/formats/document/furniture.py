"""Page furniture: the running headers and footers a document prints on every page, and its page numbers.

A PDF's text, or a text exported from one, repeats a header or footer on each page ("Norrland Storage AB -
NS-5240 Reference Architecture - page 4"), and a page number alone between the pages' lines. `mark_furniture`
marks each such line (`Line.furniture`), so that no table reads it as a row and no prose as a sentence:
a line printed on other pages too (its page number aside), a page-number line, a short footer set out in
columns; never a report's own line, nor the value under a report's label. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ...jetstress.vocabulary import LABEL_FIELDS, normalise_label, section_kind
from .line import Line
from .wrapped_grids import is_column_header, is_header_words, split_by_vocabulary

_PAGE_NUMBER = re.compile(r"(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?", re.IGNORECASE)
_PAGE_WORD = re.compile(r"\bpage\s+\d{1,4}\b", re.IGNORECASE)
_TIMESTAMP = re.compile(r"\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}")
_KNOWN_STARTS = tuple(sorted(LABEL_FIELDS, key=len, reverse=True))


def _is_report_text(text: str) -> bool:
    key = normalise_label(text)
    return section_kind(text) is not None or key.startswith(_KNOWN_STARTS) or "log path:" in key \
        or split_by_vocabulary(text) is not None or is_column_header(text) \
        or is_header_words(text)  # a report table's header, single-spaced or wrapped


def _paged(text: str) -> str:
    return _PAGE_WORD.sub("page #", text)


def _has_page_word(text: str) -> bool:
    """_PAGE_WORD's search, asked only where "page" is (most lines): under re.IGNORECASE only characters lowering
    to its letters match them (of ASCII letters only "i" and "s" match others), so the lowered text holds it."""
    return "page" in text.lower() and _PAGE_WORD.search(text) is not None


def _is_furniture(line: Line, counts: Counter[str]) -> bool:
    """Not a table row, unless it is a page's footer set out in columns ("Lab report 12  Page 2"): short, or
    printed on other pages too, its page number aside (a long product name is no reason to read it as a row)."""
    if line.separated:
        return _has_page_word(line.text) and (len(line.text.split()) <= 12 or counts.get(_paged(line.text), 0) > 1) \
            and not _is_report_text(line.text)
    return _furniture_text(line.text, counts)


def _furniture_text(text: str, counts: Counter[str]) -> bool:
    """A page number, or a long line printed verbatim more than once; never a report's own line (the
    costlier test, so asked last)."""
    if not text:
        return False
    # (words counted where they matter; counts.get: a line never counted calls no Counter.__missing__)
    printed_as_furniture = _PAGE_NUMBER.fullmatch(text) or (_has_page_word(text) and len(text.split()) <= 12) or \
        (counts.get(text, 0) > 1 and len(text.split()) >= 6 and "\\" not in text)
    return bool(printed_as_furniture) and not _TIMESTAMP.search(text) and not _is_report_text(text)


def mark_furniture(lines: list[Line], page_starts: list[int] | None = None) -> list[Line]:
    """Running headers/footers: page-number lines, and long prose lines printed verbatim more than once,
    a printing wrapped over two lines (a narrow column) counting as one; in a paged text (form feeds at
    `page_starts`), a page's first or last line that other pages print too, its numbers aside."""
    edges = _page_edges(lines, page_starts or [])
    counts = Counter(line.text for line in lines if not line.separated and len(line.text) >= 30)
    counts.update(_paged(line.text) for line in lines if line.separated and _has_page_word(line.text))
    wrapped = {}  # index of a line -> the long line it and its neighbour print together
    for n, (first, second) in enumerate(zip(lines, lines[1:])):
        if first.separated or second.separated or not first.text or not second.text:
            continue
        together = f"{first.text} {second.text}"
        if together in counts:
            counts[together] += 1
            wrapped[n] = wrapped[n + 1] = together
    # (_is_furniture asked only of a line starting with a digit, counted twice or holding "page" once lowered: one
    # of these each of its tests needs, and most lines are none of them; 88 -> 51 ms for 40 PDFs)
    return [replace(line, furniture=True)
            if (line.text and (line.text[0].isdigit() or counts.get(line.text, 0) > 1 or "page" in line.text.lower())
                and _is_furniture(line, counts) and not _labelled_value(lines, n))
            or (n in wrapped and _furniture_text(wrapped[n], counts)) or n in edges
            else line for n, line in enumerate(lines)]


_PAGE_COUNTER = re.compile(r"(?<![\d.,])\d+\s*(?:/|of)\s*\d+\s*$|(?<![\d.,])\d+\s*$", re.IGNORECASE)  # "3/36", "Page 3 of 36"
EDGE_PAGES = 3  # pages that print a line at their top or foot before it is the running header or footer
EDGE_SHARE = 0.2  # and at least this share of the pages: a report that starts each page is not furniture


def _without_counter(text: str) -> str:
    """_PAGE_COUNTER.sub("#", text), run on the text's tail only: a match ends the text and holds only digits,
    whitespace, "/" and "of", so it starts after the last other character, kept for the lookbehind (a log's long
    lines at pages' edges: 18 -> 1 ms for 40 PDFs)."""
    tail = len(text)
    while tail and (text[tail - 1] in "/oOfF" or text[tail - 1].isdecimal() or text[tail - 1].isspace()):
        tail -= 1
    cut = max(tail - 1, 0)
    return text if tail == len(text) else text[:cut] + _PAGE_COUNTER.sub("#", text[cut:])


def _page_edges(lines: list[Line], page_starts: list[int]) -> set[int]:
    """Indexes of lines at a page's top or foot that EDGE_PAGES pages or more print alike, their page counter
    aside (a browser's date and title, "file:///… 3/36"): running furniture however short."""
    if len(page_starts) + 1 < EDGE_PAGES:
        return set()
    bounds = [0, *page_starts, len(lines)]
    at_edge: dict[str, list[int]] = {}
    for start, end in zip(bounds, bounds[1:]):  # (a page's first and last filled lines found from its ends: 14 -> 1 ms)
        first = next((i for i in range(start, end) if lines[i].text), None)
        if first is not None:
            for i in {first, next(i for i in range(end - 1, first - 1, -1) if lines[i].text)}:
                at_edge.setdefault(_without_counter(lines[i].text), []).append(i)
    least = max(EDGE_PAGES, round(EDGE_SHARE * (len(bounds) - 2)))
    return {i for key, found in at_edge.items() if len(found) >= least and re.search(r"[^\W\d_]{2}", key)
            and not _is_report_text(lines[found[0]].text) for i in found}  # a report's own heading is no header


def _labelled_value(lines: list[Line], n: int) -> bool:
    """A line right under a report's own label, with no blank between ("Number of Copies per Database" then
    "1"; "Test Description" then the description every host's report repeats): the label's value, not a page
    number or a running header."""
    above = lines[n - 1] if n > 0 else None
    return (above is not None and above.number == lines[n].number - 1 and not above.separated
            and bool(above.text) and normalise_label(above.text).startswith(_KNOWN_STARTS)
            and section_kind(above.text) is None)
