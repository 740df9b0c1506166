"""Seed documents laid out as a word processor would print them, printed to PDF by headless Chromium.

The rendering is the project's own means (HTML and CSS, then Chromium's print-to-PDF): ruled
tables with a proportional font and a label column narrow enough that long labels and headers
wrap over several lines, bold labels, ligatures, Chromium's running header (date, title) and
footer (file, page "3/27"), tables that break across pages with their header row repeated, a word
longer than its column (a path) broken where the line ends as word processors break it, and a
variant whose prose is set in two columns. Nothing here reads the PDF: tests compare what the
document reader makes of it with what it makes of the text.
"""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from pathlib import Path

from tests.helpers import chromium

CSS = """
body { font-family: 'DejaVu Serif', 'Liberation Serif', serif; font-size: 10pt; font-variant-ligatures: common-ligatures; }
table { border-collapse: collapse; width: 100%; margin: 6pt 0; }
td, th { border: 0.75pt solid #333; padding: 2pt 3pt; vertical-align: top; font-size: 8.5pt; text-align: left; }
td:first-child, th:first-child { width: 30%; font-weight: bold; }
thead { display: table-header-group; }
p { margin: 3pt 0; overflow-wrap: anywhere; }
h2 { font-size: 12pt; margin: 8pt 0 4pt; }
.columns { column-count: 2; column-gap: 18pt; }
"""
_MARKUP = re.compile(r"</?b>|\*\*")


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([_*\\\[\]()#])")


def _visible(text: str) -> str:
    """What a word processor shows of the text's markup: link text, unescaped characters, no emphasis marks."""
    return _ESCAPE.sub(r"\1", _LINK.sub(r"\1", _MARKUP.sub("", text))).strip()


def _visible_keep(line: str) -> str:
    """The line's visible text with its spaces kept (its columns stand where they are)."""
    return _ESCAPE.sub(r"\1", _LINK.sub(r"\1", _MARKUP.sub("", line))).rstrip()


def _aligned_rows(lines: list[str]) -> list[list[str]]:
    """A table set out with spaces as a word processor's table: the columns those of the block's widest line;
    a line of as many cells (words two spaces or more apart) one a column in order, a header one short over
    the value columns, any other line's indented cells each in the first column that ends after it starts
    (a group's heading over its columns), its first cell, unindented, in the label column."""
    placed = [[(m.start(), m[0]) for m in re.finditer(r"\S+(?: \S+)*", line)] for line in lines]
    widest = max(placed, key=len)
    columns = [start for start, _ in widest]
    ends = [start + len(cell) for start, cell in widest]
    rows = []
    for cells in placed:
        row = [""] * len(columns)
        if len(cells) == len(columns):  # a cell a column, in order, whatever each is aligned to (numbers right)
            rows.append([cell for _, cell in cells])
            continue
        if len(cells) == len(columns) - 1 and cells and cells[0][0] > columns[0]:  # a header over the value columns
            rows.append(["", *(cell for _, cell in cells)])
            continue
        for start, cell in cells:  # a group's heading over columns: in the first column it stands over
            column = next((j for j in range(1, len(columns)) if ends[j] > start), len(columns) - 1) \
                if start > columns[0] + 2 and len(columns) > 1 else 0
            row[column] = f"{row[column]} {cell}".strip()
        rows.append(row)
    return rows


def _cells(line: str) -> list[str]:
    return [_visible(cell) for cell in line.split("\t")]


_ALIGNED = re.compile(r"\S {2,}\S")
_PIPE_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?")


def _aligned_block(lines: list[str], i: int) -> int:
    """How many lines from `i` make a table set out with spaces or pipes (two lines at least), else 0."""
    def aligned(line: str) -> bool:
        return bool(_ALIGNED.search(line.strip()) or line.lstrip().startswith("|")) and "\t" not in line

    end = i
    while end < len(lines) and (aligned(lines[end]) or (lines[end].startswith("        ") and lines[end].strip())):
        end += 1
    return end - i if end - i >= 2 and aligned(lines[i]) else 0


def seed_html(text: str, *, title: str, two_columns: bool = False, plain_tables: bool = False) -> str:
    """The text as a word processor's page: tab-separated blocks as ruled tables, the rest as paragraphs.
    `plain_tables`: a Markdown pipe table is a ruled table too, and a table set out with spaces is kept as
    laid out as the ruled table it stands for (each cell in the column nearest where it starts)."""
    lines = text.split("\n")
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
           f"<style>{CSS}</style></head><body>"]
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.append(f"<div class='{'columns' if two_columns else 'prose'}'>" + "".join(prose) + "</div>")
            prose.clear()

    i = 0
    while i < len(lines):
        block = _aligned_block(lines, i) if plain_tables else 0
        if block and lines[i].lstrip().startswith("|"):
            flush()
            rows = [[_visible(c) for c in line.strip().strip("|").split("|")] for line in lines[i:i + block]
                    if not _PIPE_RULE.fullmatch(line.strip())]
            width = max(map(len, rows))
            out.append("<table><tbody>" + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in
                                                                   row + [""] * (width - len(row))) + "</tr>"
                                                 for row in rows) + "</tbody></table>")
            i += block
            continue
        if block:
            flush()
            rows = _aligned_rows([_visible_keep(line) for line in lines[i:i + block]])
            out.append("<table><tbody>" + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                                                 for row in rows) + "</tbody></table>")
            i += block
            continue
        if "\t" in lines[i]:
            flush()
            rows = []
            while i < len(lines) and ("\t" in lines[i] or (not lines[i].strip() and i + 1 < len(lines)
                                                              and "\t" in lines[i + 1])):
                if lines[i].strip():
                    rows.append(_cells(lines[i]))
                i += 1
            width = max(map(len, rows))
            padded = [row + [""] * (width - len(row)) for row in rows]
            # a header row (no figures after its label) is repeated on every page the table runs onto
            header = padded[0] if not any(re.fullmatch(r"[\d.,%$ ()-]+", c) for c in padded[0][1:] if c) else None
            head = ("<thead><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in header) + "</tr></thead>"
                    if header else "")
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                           for row in (padded[1:] if header else padded))
            out.append(f"<table>{head}<tbody>{body}</tbody></table>")
            continue
        line = _visible(lines[i])
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            flush()
            out.append(f"<h2>{html.escape(heading[2])}</h2>")
        elif line:
            prose.append(f"<p>{html.escape(line)}</p>")
        i += 1
    flush()
    out.append("</body></html>")
    return "\n".join(out)


def print_pdf(page: str, pdf: Path) -> None:
    """Chromium's print-to-PDF of one HTML page (no network, a throw-away profile)."""
    browser = chromium()
    if browser is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "page.html"
        source.write_text(page, encoding="utf-8")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={work}/profile", f"--print-to-pdf={pdf}", source.as_uri()],
                       check=True, capture_output=True, timeout=120)
