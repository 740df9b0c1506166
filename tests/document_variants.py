"""The same document as different extractors print it: variants of a seed's text, for metamorphic tests.

Each variant rewrites only the form (separators, markup, line ends, page furniture, PDF) and
never a value, so every variant must read to the records of the original. The rules are
structural (a line with tabs is a table row; a short unpunctuated line after a blank is a
heading), never a vendor's wording or a position in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from esrpdb.ingest.jetstress import normalise

PAGE_LINES = 45  # lines per printed page, for running headers and PDF pages
HEADER = "Storage Solution Review for Microsoft Exchange Server"
_HEADING = re.compile(r"[A-Z][^.:;,!?]{2,60}")


def _blocks(lines: list[str]) -> list[list[int]]:
    """Indices of each run of consecutive tab-separated lines (one table)."""
    blocks: list[list[int]] = []
    for index, line in enumerate(lines):
        if "\t" in line:
            if blocks and blocks[-1][-1] == index - 1:
                blocks[-1].append(index)
            else:
                blocks.append([index])
    return blocks


def _is_heading(lines: list[str], index: int) -> bool:
    line = lines[index]
    return ("\t" not in line and bool(_HEADING.fullmatch(line.strip())) and len(line.split()) <= 8
            and (index == 0 or not lines[index - 1].strip()))


_MARKUP = re.compile(r"</?b>|\*\*")


def _visible(cell: str) -> int:
    return len(_MARKUP.sub("", cell))


def spaces(text: str) -> str:
    """`pdftotext -layout`: columns padded with spaces to a common visible width, empty cells left blank."""
    lines = text.split("\n")
    for block in _blocks(lines):
        rows = [[cell.strip() for cell in lines[i].split("\t")] for i in block]
        widths = [max(_visible(row[c]) for row in rows if c < len(row)) for c in range(max(map(len, rows)))]
        for i, row in zip(block, rows):
            lines[i] = "   ".join(cell + " " * (widths[c] - _visible(cell)) for c, cell in enumerate(row)).rstrip()
    return "\n".join(lines)


def markdown(text: str) -> str:
    """Markdown: pipe tables with a rule under their first row, `##` headings."""
    lines = text.split("\n")
    firsts = {block[0] for block in _blocks(lines)}
    out = []
    for index, line in enumerate(lines):
        if "\t" in line:
            cells = [cell.strip() for cell in line.split("\t")]
            out.append("| " + " | ".join(cells) + " |")
            if index in firsts:
                out.append("|" + "---|" * len(cells))
        elif _is_heading(lines, index):
            out.append("## " + line.strip())
        else:
            out.append(line)
    return "\n".join(out)


def _first_cells(text: str, wrap: Callable[[str], str]) -> str:
    """Row labels and headings wrapped in inline markup."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if "\t" in line:
            first, rest = line.split("\t", 1)
            lines[index] = (wrap(first.strip()) if first.strip() else first) + "\t" + rest
        elif _is_heading(lines, index):
            lines[index] = wrap(line.strip())
    return "\n".join(lines)


def html_bold(text: str) -> str:
    return _first_cells(text, lambda cell: f"<b>{cell}</b>")


def markdown_bold(text: str) -> str:
    return _first_cells(text, lambda cell: f"**{cell}**")


def plain(text: str) -> str:
    """Plain tab-separated text: inline markup and Markdown heading marks removed (seed 002 has both)."""
    lines = [_MARKUP.sub("", line) for line in text.split("\n")]
    return "\n".join(re.sub(r"^#{1,6}\s+", "", line) for line in lines)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def pages(text: str) -> str:
    """A form feed, a running header and a page-number footer every PAGE_LINES lines."""
    lines = text.split("\n")
    out: list[str] = []
    for start in range(0, len(lines), PAGE_LINES):
        page = start // PAGE_LINES + 1
        out += lines[start : start + PAGE_LINES]
        out += ["", f"Page {page} of {len(lines) // PAGE_LINES + 1}", f"\f{HEADER}", ""]
    return "\n".join(out)


def pdf(text: str) -> bytes:
    """A PDF whose pages place each cell at its column, read back by pypdf's layout extraction."""
    from tests.helpers import make_pdf

    lines = text.split("\n")
    x_of: dict[int, list[int]] = {}
    for block in _blocks(lines):
        rows = [lines[i].split("\t") for i in block]
        widths = [max(_visible(row[c].strip()) for row in rows if c < len(row)) for c in range(max(map(len, rows)))]
        starts = [40]
        for width in widths:
            starts.append(starts[-1] + 6 * width + 30)
        for i in block:
            x_of[i] = starts
    page_rows: list[list[list[tuple[int, str]] | None]] = []
    for start in range(0, len(lines), PAGE_LINES):
        rows: list[list[tuple[int, str]] | None] = []
        for i in range(start, min(len(lines), start + PAGE_LINES)):
            cells = lines[i].split("\t") if i in x_of else [lines[i]]
            xs = x_of.get(i, [40])
            rows.append([(xs[c], cell.strip()) for c, cell in enumerate(cells) if cell.strip()] or None)
        page_rows.append(rows)
    safe = [[[(x, t.encode("cp1252", "replace").decode("cp1252")) for x, t in row] if row else None for row in page]
            for page in page_rows]
    return make_pdf(safe, width=6000, height=PAGE_LINES * 15 + 80)


# Invented names for every system the seeds test (vendor and product line), longest first so that a
# name inside another is replaced with it. The server, switch and disk vendors keep their names.
RENAMES = (
    ("Dell EqualLogic", "Zorbex Quantum"), ("EqualLogic", "Quantum"), ("PS5000XV", "QX-500"),
    ("PS4000XV", "QX-400"), ("HP StorageWorks", "Vantiq Stratus"), ("StorageWorks", "Stratus"),
    ("HP LeftHand", "Vantiq Meridian"), ("LeftHand", "Meridian"), ("P4500", "M-45"),
    ("4400 Enterprise Virtual Array", "S44 Enterprise Array"), ("EVA 4400", "S44"), ("EVA4400", "S44"),
    ("Dell™ PowerVault™ MD1220", "Zorbex™ Vault™ Z1220"), ("Dell PowerVault MD1220", "Zorbex Vault Z1220"),
    ("PowerVault", "Vault"), ("MD1220", "Z1220"),
    ("Intel X25-E Extreme", "Nimbo Q9 Extreme"), ("Intel X25-E", "Nimbo Q9"), ("X25-E", "Q9"),
    ("Seagate Savvio", "Krell Orbit"), ("Savvio", "Orbit"),
)


def renamed(text: str) -> str:
    """Every system named otherwise: what ingest makes of the document must not depend on a name."""
    for old, new in RENAMES:
        text = text.replace(old, new)
    return text


def swapped(text: str) -> str:
    """The first two value columns of every tab-separated table exchanged: systems in another order."""
    lines = text.split("\n")
    for block in _blocks(lines):
        rows = [lines[i].split("\t") for i in block]
        if max(map(len, rows)) < 3:
            continue
        for i, row in zip(block, rows):
            if len(row) >= 3:
                row[1], row[2] = row[2], row[1]
                lines[i] = "\t".join(row)
    return "\n".join(lines)


_LONG_WORD = re.compile(r"\b([A-Za-z]{5})([A-Za-z]{5,})\b")


def typeset(text: str) -> str:
    """As a word processor's PDF gives its text back: ligature glyphs and soft hyphens in long words."""
    text = text.replace("ffi", "\ufb03").replace("ff", "\ufb00").replace("fi", "\ufb01").replace("fl", "\ufb02")
    return _LONG_WORD.sub(lambda m: f"{m[1]}\u00ad{m[2]}", text)


VARIANTS: dict[str, Callable[[str], str | bytes]] = {
    "typeset": typeset,
    "plain": plain, "spaces": spaces, "markdown": markdown, "html_bold": html_bold, "markdown_bold": markdown_bold,
    "crlf": crlf, "pages": pages, "pdf": pdf,
}


def records(document) -> list[dict]:
    """Each report's normalised run, instances and latencies, without the lines they were read from."""
    out = []
    for report in document.reports:
        run = normalise.run_values(report)
        run.pop("source_line")
        latencies = []
        for table in report.io_tables:
            for row in table.rows:
                values = normalise.latency_values(table, row)
                values.pop("source_line")
                latencies.append({"instance": row.instance, "role": row.volume_role, **values})
        out.append({"run": run, "instances": normalise.instance_names(report),
                    "latencies": latencies})
    return out
