"""Figures a document prints as a bulleted list, one item per host with its figures below it:

    - MBXSIM1
      - DB Reads/sec = 412.30
      - Log writes/sec = 40.12
    - MBXSIM2
      ...

is a table in all but layout: a row per named item, a column per figure label. Read as one, it goes
where every other table goes (stored, drafted, checked against the reports its rows name). Items
are told by their bullet, not by their indentation, which text extraction often loses; a list is a
table only when two or more items each hold two or more "label = number" / "label: number" lines and
share their labels. Pure: lines in, tables out.
"""

from __future__ import annotations

import re

from .lines import Line
from .records import DocumentRow, DocumentTable

_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u25e6\u25aa\u2023\u2043o]|\d{1,2}[.)])\s+(?P<rest>.+)$")
_FIGURE = re.compile(r"^(?P<label>[^=:]{2,60}?)\s*[=:]\s*(?P<value>[-+]?\$?\d[\d,]*(?:\.\d+)?\s*(?:%|ms|MB/s|IOPS)?)\s*$",
                     re.IGNORECASE)
_NAME = re.compile(r"^[\w][\w .()/-]{0,40}$")
MIN_ITEMS = 2  # a table has at least two rows
MIN_FIGURES = 2  # and two columns


def _item(line: Line) -> str | None:
    match = _BULLET.match(line.text) if not line.separated and not line.heading else None
    return match["rest"].strip() if match else None


def _groups(lines: list[Line], consumed: set[int]) -> list[list[tuple[str, int, list[tuple[str, str, int]]]]]:
    """Runs of consecutive items: (name, line, [(label, value, line)]) for each named item."""
    runs: list[list[tuple[str, int, list[tuple[str, str, int]]]]] = [[]]
    for line in lines:  # (a run is ended by starting a new one, once: an empty run is dropped all the same)
        if line.number in consumed or line.furniture:
            if runs[-1]:
                runs.append([])
            continue
        if not line.text:
            continue  # blank lines between items keep the list together
        rest = _item(line)
        if rest is None:
            if runs[-1]:
                runs.append([])
            continue
        figure = _FIGURE.match(rest)
        current = runs[-1]
        if figure and current:
            current[-1][2].append((figure["label"].strip(), figure["value"].strip(), line.number))
        elif not figure and _NAME.match(rest.rstrip(":")) and not re.fullmatch(r"[\d.,\s:]+", rest):
            current.append((rest.rstrip(":").strip(), line.number, []))
        else:
            runs.append([])
    return [run for run in runs if run]


def bullet_tables(lines: list[Line], consumed: set[int], title_of) -> list[DocumentTable]:
    """Each bulleted list of named items with their figures, as a table; `title_of(line)` its title."""
    tables = []
    for run in _groups(lines, consumed):
        items = [(name, number, figures) for name, number, figures in run if len(figures) >= MIN_FIGURES]
        if len(items) < MIN_ITEMS:
            continue
        labels: list[str] = []
        for _, _, figures in items:
            labels += [label for label, _, _ in figures if label not in labels]
        shared = [label for label in labels if sum(any(f[0] == label for f in fig) for _, _, fig in items) >= MIN_ITEMS]
        if len(shared) < MIN_FIGURES:
            continue
        rows = []
        for name, number, figures in items:
            values = {label: value for label, value, _ in figures}
            rows.append(DocumentRow(name, tuple(values.get(label, "") for label in shared),
                                    min((n for _, _, n in figures), default=number)))
        first = items[0][1]
        tables.append(DocumentTable("bulleted_figures", title_of(first), tuple(shared), tuple(rows), first))
    return tables
