"""A table whose header a PDF's layout printed as one run of words ("Altamira AX-520 StorStack 3100i Marlow
DS-1600" over right-aligned columns): its columns are the names other tables of the document head their
columns with, when the run of words is exactly those names, as many as the rows have cells. Pure."""

from __future__ import annotations

from dataclasses import replace

from .lines import Line
from .records import DocumentTable

LOOK_ABOVE = 4  # non-blank lines above a table's first row searched for its header, its caption above that


def named_headers(tables: list[DocumentTable], lines: list[Line], caption) -> list[DocumentTable]:
    """`tables` with a header found for each table that has none; `caption`: the caption pattern."""
    known = sorted({c.strip() for t in tables if len(t.columns) > 1 for c in t.columns if len(c.split()) > 1},
                   key=len, reverse=True)
    if not known:
        return tables
    by_number = {line.number: line for line in lines}
    return [_headed(t, by_number, known, caption) if not t.columns and t.line is not None else t for t in tables]


def names_in(text: str, known: list[str], count: int) -> list[str] | None:
    """`count` known names that, one after another, make up `text` exactly; None when none do."""
    rest = " ".join(text.split())
    if not rest:
        return [] if count == 0 else None
    if count == 0:
        return None
    for name in known:
        if rest == name or rest.startswith(name + " "):
            tail = names_in(rest[len(name):], known, count - 1)
            if tail is not None:
                return [name, *tail]
    return None


def _headed(table: DocumentTable, by_number: dict[int, Line], known: list[str], caption) -> DocumentTable:
    width = max((len(row.values) for row in table.rows), default=0)
    above = [by_number[n] for n in range((table.line or 0) - 1, max(0, (table.line or 0) - 1 - LOOK_ABOVE * 2), -1)
             if n in by_number and not by_number[n].blank][:LOOK_ABOVE]
    for at, line in enumerate(above):
        names = names_in(line.text, known, width) if width > 1 else None
        if names is None:
            continue
        between = above[:at]  # a group's label printed between the header and its first rows
        titled = next((x.text for x in above[at + 1:] if caption.match(x.text)), table.title)
        rows = table.rows
        if len(between) == 1 and not caption.match(between[0].text) and not between[0].separated:
            group = between[0].text
            first_section = next((i for i, row in enumerate(rows) if not any(v.strip() for v in row.values)), len(rows))
            rows = tuple(replace(row, label=f"{group} – {row.label}") if i < first_section and group not in row.label
                         else row for i, row in enumerate(rows))
        return replace(table, columns=tuple(names), title=titled, rows=rows)
    return table
