"""DOM mechanics of a Jetstress HTML report, with no Jetstress meaning attached.

Sections are ``<fieldset><legend>Title</legend>…``; label/value rows put the label in a
``grid_row_header`` cell; grids have a header row (``grid_header`` class or ``<th>`` cells,
or simply the first row) and one row per instance. Cell text keeps ``<br>`` as a line break
and collapses every other whitespace, so ``<b>`` wrappers and source line wrapping vanish.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, cast

from lxml import etree

from ...jetstress.vocabulary import section_kind
from .grid import Grid as Grid, GridRow as GridRow, LabelledValue as LabelledValue, Section as Section

# A plain lxml element (not `lxml.html`'s: see jetstress_html.reader._load). Typed as Any: lxml-stubs leave
# `sourceline` and XPath results untyped, as `lxml.html.HtmlElement` was to mypy before.
HtmlElement = Any

_SPACE = re.compile(r"\s+")
_BREAKS = frozenset({"br", "p", "div", "li", "tr"})
_CELLS = ("td", "th")
_RULE = re.compile(r"[-=_\s]*")  # a row of dashes drawn as a separator


def cell_text(element: HtmlElement) -> str:
    """Visible text, one line per ``<br>``, whitespace collapsed, blank lines dropped."""
    if len(element) == 0:
        return " ".join((element.text or "").split())
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


class _Lines:
    """Collects visual lines, each numbered by the source line its first text sits on."""

    def __init__(self, line: int | None):
        self.line, self.start = line, line
        self.pending: list[str] = []
        self.has_text = False  # some pending piece is more than whitespace
        self.done: list[tuple[int | None, str]] = []

    def resync(self, line: int | None) -> None:
        if line is not None:
            self.line = line

    def feed(self, text: str) -> None:
        for number, part in enumerate(text.split("\n")):
            if number:
                self.flush()
                self.line = None if self.line is None else self.line + 1
            if not self.has_text and part.strip():
                self.start, self.has_text = self.line, True
            self.pending.append(part)

    def flush(self) -> None:
        if self.has_text:
            self.done.append((self.start, "".join(self.pending).strip()))
            self.has_text = False
        self.pending.clear()


def text_lines(element: HtmlElement, *, skip: HtmlElement | None = None) -> list[tuple[int | None, str]]:
    """(source line, text) per visual line: split at ``<br>`` and at source newlines.

    Line numbers resynchronise on every element's `sourceline`, so they point into the
    file even when a whole log sits on one source line. Text inside `skip` is left out.
    """
    lines = _Lines(element.sourceline)
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if node is not element and _inside(node, skip):
            continue
        if event == "start":
            if node is not element:
                lines.resync(node.sourceline)
                if node.tag in _BREAKS:
                    lines.flush()
            if isinstance(node.tag, str) and node.text and node is not skip:
                lines.feed(node.text)
        elif node is not element and node.tail:
            lines.feed(node.tail)
    lines.flush()
    return lines.done


def _inside(node: HtmlElement, ancestor: HtmlElement | None) -> bool:
    return ancestor is not None and any(parent is ancestor for parent in node.iterancestors())


def find_sections(doc: HtmlElement) -> list[Section]:
    """Every ``<fieldset>``, titled by its legend."""
    sections = []
    for fieldset in doc.iter("fieldset"):
        legend = next(fieldset.iter("legend"), None)
        title = " ".join(cell_text(legend).split()) if legend is not None else ""
        sections.append(Section(title, section_kind(title), fieldset.sourceline, fieldset))
    return sections


class _Row(NamedTuple):
    tr: HtmlElement
    cells: list[HtmlElement]

    @property
    def is_header(self) -> bool:
        return "grid_header" in (self.tr.get("class") or "").split() or all(cell.tag == "th" for cell in self.cells)


def _rows(section: Section) -> list[_Row]:
    """Table rows of a section that have at least one cell."""
    rows = (_Row(tr, [cell for cell in tr if cell.tag in _CELLS]) for tr in section.element.iter("tr"))
    return [row for row in rows if row.cells]


def read_key_values(section: Section) -> list[LabelledValue]:
    """Label/value pairs: a ``grid_row_header`` (or ``<th>``) cell and the cell after it.

    A two-cell row with no marked label still counts, for reports that drop the class.
    """
    pairs = []
    for row in _rows(section):
        if len(row.cells) > 1 and all(cell.tag == "th" for cell in row.cells):
            continue  # a column header row
        following = [*row.cells[1:], None]
        in_row = [(cell, after) for cell, after in zip(row.cells, following, strict=True) if _is_label_cell(cell)]
        if not in_row and len(row.cells) == 2:
            in_row = [(row.cells[0], row.cells[1])]
        for label, value in in_row:
            if value is not None and _is_label_cell(value):
                value = None  # two labels in a row: the first has no value
            text = cell_text(value) if value is not None else ""
            value_line = (value if value is not None else label).sourceline
            pairs.append(LabelledValue(" ".join(cell_text(label).split()), text, label.sourceline, value_line))
    return pairs


def _is_label_cell(cell: HtmlElement) -> bool:
    return "grid_row_header" in (cell.get("class") or "").split() or cell.tag == "th"


def read_grid(section: Section) -> Grid | None:
    """Header row (marked, or else the first row) and the data rows after it.

    Consecutive header rows of equal width merge column by column ("Avg. Disk" over
    "sec/Read"); blank rows and rows of dashes are dropped. None for a section without rows.
    """
    rows = _rows(section)
    if not rows:
        return None
    start = next((i for i, row in enumerate(rows) if row.is_header), 0)
    header, data = rows[start], rows[start + 1 :]
    headers = [" ".join(cell_text(cell).split()) for cell in header.cells]
    while data and data[0].is_header and len(data[0].cells) == len(headers):
        headers = [
            " ".join(f"{above} {cell_text(below)}".split()) for above, below in zip(headers, data[0].cells, strict=True)
        ]
        data = data[1:]
    grid_rows = []
    for row in data:
        texts = tuple(cell_text(cell) for cell in row.cells)
        if all(_RULE.fullmatch(text) for text in texts):
            continue
        grid_rows.append(GridRow(texts, tuple(cell.sourceline for cell in row.cells), row.tr.sourceline))
    return Grid(tuple(headers), header.tr.sourceline, tuple(grid_rows))


_CLASSED = etree.XPath("descendant-or-self::*[@class]")
_CLASS_SEPARATOR = re.compile("[ \t\n\r\f]+")  # HTML separates classes by ASCII whitespace only


def class_index(doc: HtmlElement) -> dict[str, list[HtmlElement]]:
    """Elements by each class they carry, in document order: one walk for every class lookup."""
    index: dict[str, list[HtmlElement]] = {}
    elements = cast(list[HtmlElement], _CLASSED(doc))  # an XPath of elements returns a list of elements
    for element in elements:
        for css_class in _CLASS_SEPARATOR.split(element.get("class")):
            if css_class:
                index.setdefault(css_class, []).append(element)
    return index


def first_inside(candidates: list[HtmlElement], ancestor: HtmlElement) -> HtmlElement | None:
    """The first of `candidates` that is `ancestor` or sits inside it."""
    return next((e for e in candidates if e is ancestor or _inside(e, ancestor)), None)


def find_text(classes: dict[str, list[HtmlElement]], css_class: str) -> str | None:
    """Text of the first element carrying `css_class` (e.g. the "title" div)."""
    texts = (" ".join(cell_text(element).split()) for element in classes.get(css_class, ()))
    return next((text for text in texts if text), None)


def heading_texts(doc: HtmlElement) -> list[str]:
    """Texts that may carry the product title or the report kind when no classed div does."""
    return [" ".join(cell_text(element).split()) for element in doc.iter("title", "h1", "h2", "h3", "h4")]


def section_before(doc: HtmlElement, line: int | None) -> str | None:
    """Title of the last section starting at or before `line`: where a parser error happened."""
    titles = [s.title for s in find_sections(doc) if line is None or (s.line or 0) <= line]
    return next(reversed(titles), None)
