"""DOM mechanics of a Jetstress HTML report, with no Jetstress meaning attached.

Sections are ``<fieldset><legend>Title</legend>…``; label/value rows put the label in a
``grid_row_header`` cell; grids have a header row (``grid_header`` class or ``<th>`` cells,
or simply the first row) and one row per instance. Cell text keeps ``<br>`` as a line break
and collapses every other whitespace, so ``<b>`` wrappers and source line wrapping vanish.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from lxml.html import HtmlElement

from esrpdb.ingest.jetstress_vocabulary import section_kind

_SPACE = re.compile(r"\s+")
_BREAKS = frozenset({"br", "p", "div", "li", "tr"})
_CELLS = ("td", "th")
_RULE = re.compile(r"[-=_\s]*")  # a row of dashes drawn as a separator


def cell_text(element: HtmlElement) -> str:
    """Visible text, one line per ``<br>``, whitespace collapsed, blank lines dropped."""
    if len(element) == 0:
        return _SPACE.sub(" ", element.text or "").strip()
    pieces: list[str] = []
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if event == "start":
            if node is not element and node.tag in _BREAKS:
                pieces.append("\n")
            if isinstance(node.tag, str) and node.text:
                pieces.append(_SPACE.sub(" ", node.text))
        elif node is not element and node.tail:
            pieces.append(_SPACE.sub(" ", node.tail))
    return "\n".join(line.strip() for line in "".join(pieces).split("\n") if line.strip())


def text_lines(element: HtmlElement, *, skip: HtmlElement | None = None) -> list[tuple[int | None, str]]:
    """(source line, text) per visual line: split at ``<br>`` and at source newlines.

    Line numbers resynchronise on every element's `sourceline`, so they point at the
    file even when a whole log sits on one source line.
    """
    lines: list[tuple[int | None, str]] = []
    pending: list[str] = []
    state = {"line": element.sourceline, "start": element.sourceline}

    def flush() -> None:
        text = "".join(pending).strip()
        if text:
            lines.append((state["start"], text))
        pending.clear()

    def feed(text: str) -> None:
        for number, part in enumerate(text.split("\n")):
            if number:
                flush()
                state["line"] = None if state["line"] is None else state["line"] + 1
            if part.strip() and not "".join(pending).strip():
                state["start"] = state["line"]
            pending.append(part)

    for event, node in etree.iterwalk(element, events=("start", "end")):
        if event == "start":
            if node is not element and node.sourceline is not None:
                state["line"] = node.sourceline
            if node is not element and node.tag in _BREAKS:
                flush()
            if isinstance(node.tag, str) and node.text and node is not skip and not _inside(node, skip):
                feed(node.text)
        elif node is not element and node.tail and not _inside(node, skip):
            feed(node.tail)
    flush()
    return lines


def _inside(node: HtmlElement, ancestor: HtmlElement | None) -> bool:
    return ancestor is not None and any(parent is ancestor for parent in node.iterancestors())


@dataclass(frozen=True)
class Section:
    title: str  # legend text as printed
    kind: str | None  # from the vocabulary: "summary", "io", "host", "log", …
    line: int | None
    element: HtmlElement = field(repr=False)


def find_sections(doc: HtmlElement) -> list[Section]:
    """Every ``<fieldset>``, titled by its legend."""
    sections = []
    for fieldset in doc.iter("fieldset"):
        legend = next(fieldset.iter("legend"), None)
        title = " ".join(cell_text(legend).split()) if legend is not None else ""
        sections.append(Section(title, section_kind(title), fieldset.sourceline, fieldset))
    return sections


def _rows(section: Section) -> list[tuple[HtmlElement, list[HtmlElement]]]:
    rows = []
    for tr in section.element.iter("tr"):
        cells = [cell for cell in tr if cell.tag in _CELLS]
        if cells:
            rows.append((tr, cells))
    return rows


def _is_header_row(tr: HtmlElement, cells: list[HtmlElement]) -> bool:
    return "grid_header" in (tr.get("class") or "").split() or all(cell.tag == "th" for cell in cells)


@dataclass(frozen=True)
class LabelledValue:
    label: str
    value: str  # lines joined by "\n"
    label_line: int | None
    value_line: int | None


def read_key_values(section: Section) -> list[LabelledValue]:
    """Label/value pairs: a ``grid_row_header`` (or ``<th>``) cell and the cell after it.

    A two-cell row with no marked label still counts, for reports that drop the class.
    """
    pairs = []
    for tr, cells in _rows(section):
        if len(cells) > 1 and all(cell.tag == "th" for cell in cells):
            continue
        labels = [i for i, cell in enumerate(cells) if _is_label_cell(cell)] or ([0] if len(cells) == 2 else [])
        for i in labels:
            value = cells[i + 1] if i + 1 < len(cells) and not _is_label_cell(cells[i + 1]) else None
            label = " ".join(cell_text(cells[i]).split())
            text = cell_text(value) if value is not None else ""
            line = value.sourceline if value is not None else cells[i].sourceline
            pairs.append(LabelledValue(label, text, cells[i].sourceline, line))
    return pairs


def _is_label_cell(cell: HtmlElement) -> bool:
    return "grid_row_header" in (cell.get("class") or "").split() or cell.tag == "th"


@dataclass(frozen=True)
class GridRow:
    cells: tuple[str, ...]
    lines: tuple[int | None, ...]
    line: int | None


@dataclass(frozen=True)
class Grid:
    headers: tuple[str, ...]
    line: int | None
    rows: tuple[GridRow, ...]


def read_grid(section: Section) -> Grid | None:
    """Header row (marked, or else the first row) and the data rows after it.

    Consecutive header rows of equal width merge column by column ("Avg. Disk" over
    "sec/Read"); blank rows and rows of dashes are dropped. None for a section without rows.
    """
    rows = _rows(section)
    if not rows:
        return None
    start = next((i for i, (tr, cells) in enumerate(rows) if _is_header_row(tr, cells)), 0)
    headers = [" ".join(cell_text(cell).split()) for cell in rows[start][1]]
    line = rows[start][0].sourceline
    data = rows[start + 1 :]
    while data and _is_header_row(*data[0]) and len(data[0][1]) == len(headers):
        headers = [" ".join(f"{a} {cell_text(b)}".split()) for a, b in zip(headers, data[0][1])]
        data = data[1:]
    grid_rows = []
    for tr, cells in data:
        texts = tuple(cell_text(cell) for cell in cells)
        if all(_RULE.fullmatch(text) for text in texts):
            continue
        grid_rows.append(GridRow(texts, tuple(cell.sourceline for cell in cells), tr.sourceline))
    return Grid(tuple(headers), line, tuple(grid_rows))


def find_text(doc: HtmlElement, css_class: str) -> tuple[str, int | None] | None:
    """Text of the first element carrying `css_class` (e.g. the "title" div)."""
    for element in doc.find_class(css_class):
        text = " ".join(cell_text(element).split())
        if text:
            return text, element.sourceline
    return None


def heading_texts(doc: HtmlElement) -> list[str]:
    """Texts that may carry the product title or the report kind when no classed div does."""
    return [" ".join(cell_text(element).split()) for element in doc.iter("title", "h1", "h2", "h3", "h4")]


def section_before(doc: HtmlElement, line: int | None) -> str | None:
    """Title of the last section starting at or before `line`: where a parser error happened."""
    titles = [s.title for s in find_sections(doc) if line is None or (s.line or 0) <= line]
    return titles[-1] if titles else None
