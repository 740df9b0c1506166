"""Sections of a report printed in document text -> the records the HTML parser makes.

Label/value rows are matched by the shared vocabulary's labels, so "Achieved I/O per Second
2,684.535" reads the same with a tab, a run of spaces, a pipe or one space between label and
value; values wrapped onto following lines are joined. Tables become the same header/row grid
the HTML parser reads (`jetstress_html.tables` turns both into records, so the records are
identical): two-line headers are merged, a header repeated after a page break is dropped, rows
split over two lines are rejoined. What cannot be read is skipped with a warning naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ....schema.vocabulary import REPORT_TYPES
from ...errors import ParseError
from ...jetstress.records import JetstressReport
from ...jetstress.vocabulary import LABEL_FIELDS, canonical_header, normalise_label
from ..jetstress_html import tables
from ..jetstress_html.grid import Grid, GridRow, LabelledValue, Section
from . import wrapped_grids
from .lines import Line
from .reports import RawSection
from .spaced_rows import one_cell_row, respaced

# Labels whose value may wrap onto the next lines (the others hold one number or word).
MULTILINE_LABELS = frozenset({"test description", "performance log", "test issues", "operating system"})
MAX_LABEL_WORDS = 8
_HAS_WORD = re.compile(r"[^\W_]")
_INSTANCE_LINE = re.compile(r"(?P<name>\S.*?)\s+(?P<rest>(?:log path|database)\s*:.*)", re.IGNORECASE)
_PATH_LINE = re.compile(r"(?:log path|database)\s*:", re.IGNORECASE)
_BARE_INSTANCE = re.compile(r"(?:instance|storage group|sg)\s*[\w.]*\d", re.IGNORECASE)
_UNIT_FRAGMENT = re.compile(r"\((?:msec|ms|sec|seconds)\)", re.IGNORECASE)
_DRIVE = re.compile(r"\s+(?=(?:[A-Za-z]:\\|\\\\))")
_JETSTRESS_FILE = re.compile(rf"\b({'|'.join(REPORT_TYPES)}|XmlConfig)"
                             r"((?:[ _]\d{1,4}){6})\.(blg|blq|xml|html|log|evt)\b")
_DOUBLED_E = re.compile(r"\bMSE[Ee]?[Xx]change\b")
# What every match of _JETSTRESS_FILE holds: sought from its point (the engine skips to one), not tried at every
# word of each cell as _JETSTRESS_FILE is (40 PDFs' 17,000 report cells: 23 -> 9 ms, with "MSE" asked of _DOUBLED_E's)
_FILE_EXTENSION = re.compile(r"\.(?:blg|blq|xml|html|log|evt)\b")


def repair(text: str) -> str:
    """Extraction damage the HTML fixtures repair too: underscores lost under underlining in
    Jetstress file names ("Performance 2008 9 18 12 48 31.blg"), OCR's ".blq", "MSEExchange"."""
    def file_name(match: re.Match[str]) -> str:
        return f"{match[1]}{match[2].replace(' ', '_')}.{'blg' if match[3] == 'blq' else match[3]}"

    text = _JETSTRESS_FILE.sub(file_name, text) if _FILE_EXTENSION.search(text) else text
    return _DOUBLED_E.sub("MSExchange", text) if "MSE" in text else text


def repair_line(line: Line) -> Line:
    cells = tuple(repair(cell) for cell in line.cells)
    return line if cells == line.cells else replace(line, cells=cells)


def join_paths(value: str) -> str:
    """Performance Log paths wrapped by the PDF ("C:\\Program Files\\Exchange" / "Jetstress\\Perf…"): one per line."""
    paths: list[str] = []
    for fragment in (piece for part in value.splitlines() for piece in _DRIVE.split(part.strip()) if piece.strip()):
        if paths and not re.match(r"[A-Za-z]:\\|\\\\", fragment):
            paths[-1] = f"{paths[-1]} {fragment.strip()}"
        else:
            paths.append(fragment.strip())
    return "\n".join(repair(path) for path in paths)


def shared_section(raw: RawSection) -> Section:
    """The section as `jetstress_html.tables` takes it: it reads only title and line (text has no DOM)."""
    return Section(raw.title, raw.kind, raw.line, element=None)


def _content(raw: RawSection) -> list[Line]:
    return [line for line in raw.lines if not line.blank and not line.rule and not line.furniture]


# --- label/value sections -----------------------------------------------------------


def split_label(text: str) -> tuple[str, str] | None:
    """"Achieved I/O per Second 2,684.535" -> ("Achieved I/O per Second", "2,684.535"), by the longest known label."""
    words = text.split()
    for count in range(min(MAX_LABEL_WORDS, len(words)), 0, -1):
        label = " ".join(words[:count])
        if normalise_label(label) in LABEL_FIELDS:
            return label.rstrip(":").strip(), " ".join(words[count:])
    return None


def _is_known(label: str) -> bool:
    return normalise_label(label) in LABEL_FIELDS


def key_value_pairs(raw: RawSection, warnings: list[str]) -> list[LabelledValue]:
    pairs: list[list] = []  # [label, value lines, label line, value line]

    def add(label: str, value: str, number: int) -> None:
        pairs.append([label, [value] if value else [], number, number])

    for line in _content(raw):
        if not _HAS_WORD.search(line.text):
            continue  # ". ~" and similar extraction debris
        cells = [cell for cell in line.cells]
        first, rest = (cells[0], [c for c in cells[1:] if c]) if line.separated else (line.text, [])
        split = split_label(first) if first else None
        if first and line.separated and (_is_known(first) or (rest and split is None)):
            add(first.rstrip(":").strip(), " ".join(rest), line.number)
        elif split is not None:
            add(split[0], " ".join([split[1], *rest]).strip(), line.number)
        else:
            text = " ".join(rest) if line.separated and not first else line.text
            if pairs and (not pairs[-1][1] or normalise_label(pairs[-1][0]) in MULTILINE_LABELS
                          or not _is_known(pairs[-1][0])):  # a label alone on its line: its value follows
                pairs[-1][1].append(text)
                if len(pairs[-1][1]) == 1:
                    pairs[-1][3] = line.number
            else:
                warnings.append(f"line {line.number}: {raw.title}: text not understood, skipped: {text[:80]!r}")
    result = []
    for label, values, label_line, value_line in pairs:
        value = "\n".join(values)
        if normalise_label(label) == "performance log":
            value = join_paths(value)
        result.append(LabelledValue(label, value, label_line, value_line))
    return result


def configuration_pairs(raw: RawSection, warnings: list[str]) -> list[LabelledValue]:
    """"Instance2836.1 Log path: C:\\…" then "Database: C:\\…": instance name and its path lines."""
    pairs: list[list] = []
    for line in _content(raw):
        cells = [cell for cell in line.cells if cell]
        text = " ".join(cells)
        match = _INSTANCE_LINE.fullmatch(text)
        if _PATH_LINE.match(text) and pairs:
            pairs[-1][1].append(text)
        elif _BARE_INSTANCE.fullmatch(text):  # the instance's name alone, its paths on the lines after it
            pairs.append([text, [], line.number])
        elif line.separated and len(cells) >= 2 and _PATH_LINE.match(cells[1]):
            pairs.append([cells[0], [" ".join(cells[1:])], line.number])
        elif match and not _PATH_LINE.match(text):
            pairs.append([match["name"], [match["rest"]], line.number])
        else:
            warnings.append(f"line {line.number}: {raw.title}: text not understood, skipped: {text[:80]!r}")
    return [LabelledValue(name, "\n".join(values), number, number) for name, values, number in pairs]


def apply_pairs(source: str, raw: RawSection, pairs: list[LabelledValue], report: JetstressReport) -> None:
    """Each row goes to key_values and fills its field; a value that cannot be read becomes a warning."""
    for pair in pairs:
        try:
            tables.apply_key_values(source, shared_section(raw), [pair], report, cite_value=True)
        except ParseError as error:
            where = error.line or pair.value_line
            report.warnings.append(f"line {where}: {raw.title}: {error.message}; value not used")


# --- tables ---------------------------------------------------------------------------


_is_number = wrapped_grids.is_number


def _merge_header(headers: list[str], cells: list[str]) -> None:
    """A header's second line: "sec/Read" goes under "Avg. Disk"; a lone "(msec)" joins the nearest
    latency column printed without a unit, or is dropped when every latency column has one."""
    for index, cell in enumerate(cells):
        cell = " ".join(word for word in cell.split() if not wrapped_grids.RULE.fullmatch(word))  # a rule drawn under it
        if not cell or index >= len(headers):
            continue
        if _UNIT_FRAGMENT.fullmatch(cell):
            lacking = [i for i, header in enumerate(headers)
                       if "latency" in canonical_header(header) and not _UNIT_FRAGMENT.search(header)]
            if lacking:
                target = min(lacking, key=lambda i: (abs(i - index), i))
                headers[target] = f"{headers[target]} {cell}"
            continue
        headers[index] = f"{headers[index]} {cell}".strip()


def _one_cell_a_line(lines: list[Line]) -> Grid | None:
    """A table an extractor printed one cell a line (each header, then each row's name and its numbers)."""
    count = 0
    while count < len(lines) and (wrapped_grids.is_column_header(lines[count].text) if count else
                                  wrapped_grids.names_rows(lines[count].text)):
        count += 1
    if count < 2:
        return None
    rows, index = [], count
    while index + count <= len(lines):
        cells = [line.text for line in lines[index:index + count]]
        if _is_number(cells[0]) or not all(_is_number(c) for c in cells[1:]):
            break
        rows.append(GridRow(tuple(cells), tuple(line.number for line in lines[index:index + count]), lines[index].number))
        index += count
    headers = tuple(line.text for line in lines[:count])
    return Grid(headers, lines[0].number, tuple(rows)) if rows else None


def _single_spaced_grid(raw: RawSection, lines: list[Line]) -> Grid | None:
    """A table printed without column gaps: its header on one line or one header a line (cut by the column
    vocabulary), then rows of a name and numbers."""
    one_a_line = _one_cell_a_line(lines)
    if one_a_line is not None:
        return one_a_line
    first_row = next((i for i, line in enumerate(lines) if _NUMBER_AT_END.search(line.text)), None)
    if not first_row:
        return None
    headers = wrapped_grids.headers_of([line.text for line in lines[:first_row]])
    if headers is None:
        return None
    rows = []
    for row in lines[first_row:]:
        cells = wrapped_grids.split_row(row.text, len(headers))
        if cells is None:
            break
        rows.append(GridRow(tuple(cells), (row.number,) * len(cells), row.number))
    return Grid(headers, lines[first_row - 1].number, tuple(rows)) if rows else None


_NUMBER_AT_END = re.compile(r"\s\d[\d,.]*$")


def _lone_row_name(line: Line, header: Line) -> bool:
    """A word of the first column's header on a line of its own ("Instances" under "MSExchange /
    Database ==>"): an extraction drops the spaces after a line's only cell."""
    return bool(header.starts) and len(line.cells) == 1 and wrapped_grids.names_rows(line.text) \
        and not any(ch.isdigit() for ch in line.text)  # never a row ("Instance5332.1 13.698 ms …")


def _parted(cells: list[str], filled: list[bool]) -> list[str]:
    """Two header words a PDF's layout set in one cell beside an empty one ("Writes/sec Reads", ""), where the
    rows below print a figure under each: one word a column."""
    out = list(cells)
    for i in range(len(out) - 1):
        words = out[i].split()
        if len(words) == 2 and not out[i + 1] and i + 1 < len(filled) and filled[i] and filled[i + 1]:
            out[i], out[i + 1] = words
    return out


def _header_block(lines: list[Line], start: int) -> tuple[list[str], int]:
    """The header line at `start` with the lines wrapped under it (no number in them), joined by where
    their words stand; returns the headers and the index of the first line after the block."""
    end = start + 1
    first = normalise_label(lines[start].cells[0]) if lines[start].cells else ""
    while end < len(lines) and (lines[end].separated or _lone_row_name(lines[end], lines[start])) \
            and not any(_is_number(word) for c in lines[end].cells for word in c.split()) \
            and not (first and normalise_label(lines[end].cells[0]) == first):  # a header printed again: read below
        if not lines[end].separated:  # "Instances" alone under "Database ==>": the first column's last word
            lines[end] = replace(lines[end], separated=True, starts=(lines[start].starts or (0,))[:1])
        end += 1
    if end - start > 1:
        widest = next((line for line in lines[end:] if line.separated), None)
        joined = wrapped_grids.join_wrapped_header(lines[start:end], widest)
        if joined is not None:
            return joined, end
        filled = [bool(c) for c in widest.cells] if widest is not None else []
        headers = _parted(list(lines[start].cells), filled)  # tabs or pipes: each cell under its column
        for line in lines[start + 1 : end]:
            _merge_header(headers, _parted(list(line.cells), filled))
        return headers, end
    return list(lines[start].cells), start + 1


def read_grid(raw: RawSection, warnings: list[str]) -> Grid | None:
    lines = _content(raw)
    start = next((i for i, line in enumerate(lines) if line.separated), None)
    if start is None:
        grid = _single_spaced_grid(raw, lines)
        if grid is None:
            warnings.append(f"line {raw.line}: {raw.title}: section has no table rows")
        return grid
    headers, after = _header_block(lines, start)
    header_line = lines[start].number
    while headers and not headers[-1]:
        headers.pop()
    rows: list[tuple[list[str], list[int]]] = []
    for line in lines[after:]:
        cells = list(line.cells)
        previous = rows[-1] if rows else None
        if not line.separated:
            if previous and len(previous[0]) == 1 and line.text and _is_number(line.text.split()[0]):
                previous[0][0] += " " + line.text  # a one-cell row a narrow page wrapped onto the next line
                continue
            rows.append(([line.text], [line.number]))  # a row label alone; its cells follow
        elif not rows and not cells[0] and not any(_is_number(c) for c in cells if c):
            _merge_header(headers, cells)
        elif headers[0] and normalise_label(cells[0]) == normalise_label(headers[0]):
            repeated = [c for c in cells]
            while repeated and not repeated[-1]:
                repeated.pop()
            if not rows and repeated != headers:  # printed twice, differently: the later one is the clean one
                warnings.append(f"line {header_line}: {raw.title}: header printed again on line {line.number}; "
                                "the later one is used")
                headers, header_line = repeated, line.number
        elif previous and len(previous[0]) < len(headers) and (not cells[0] or _is_number(cells[0])):
            more = cells[1:] if not cells[0] else cells
            previous[0].extend(more)
            previous[1].extend([line.number] * len(more))
        else:
            rows.append((cells, [line.number] * len(cells)))
    grid_rows = []
    for cells, numbers in rows:
        if len(cells) == 1 or (1 < len([c for c in cells if c]) < len(headers) and any(" " in c for c in cells[1:])):
            # one cell, or cells two of which a single space joins ("231 350.438 10 158.760"): read by its words
            spaced = one_cell_row(" ".join(c for c in cells if c), len(headers))
            if spaced is not None:
                cells, numbers = spaced, [numbers[0]] * len(spaced)
        cells, numbers = respaced(cells, numbers, len(headers))
        last = max((i for i, c in enumerate(cells) if c), default=0)
        keep = max(len(headers), last + 1)
        grid_rows.append(GridRow(tuple(cells[:keep]), tuple(numbers[:keep]), numbers[0]))
    return Grid(tuple(headers), header_line, tuple(grid_rows))


def _valid_rows(grid: Grid, check: Callable[[Grid], object], title: str, warnings: list[str]) -> Grid:
    """Rows the shared table code accepts; each refused row is skipped with its line and reason."""
    good = []
    for row in grid.rows:
        try:
            check(Grid(grid.headers, grid.line, (row,)))  # the shared code raises on a row it cannot read
        except ParseError as error:
            reason = error.message
            if len(row.cells) < len(grid.headers):
                reason = f'row "{row.cells[0]}" has {len(row.cells)} cells but the header has {len(grid.headers)}; ' \
                         "the table looks truncated"
            warnings.append(f"line {row.line}: {title}: {reason}; row skipped")
            continue
        good.append(row)
    return Grid(grid.headers, grid.line, tuple(good))


def read_table_section(source: str, raw: RawSection, report: JetstressReport) -> None:
    """A grid section -> I/O table, host counters, backup/recovery/checksum rows, as the HTML parser fills them."""
    grid = read_grid(raw, report.warnings)
    if grid is None:
        return
    section = shared_section(raw)
    readers: dict[str, Callable[[Grid, list[str], JetstressReport], Any]] = {
        "io": lambda g, w, r: tables.io_table(source, section, g, w),
        "host": lambda g, w, r: tables.host_counters(source, section, g, w),
        "backup": lambda g, w, r: tables.backup_rows(source, section, g, r),
        "recovery": lambda g, w, r: tables.recovery_rows(source, section, g, r),
        "checksum": lambda g, w, r: tables.checksum_rows(source, section, g, w),
    }

    def attempt(candidate: Grid) -> tuple[Any, list[str], JetstressReport]:
        scratch = JetstressReport(source_name=source, report_type=report.report_type)
        found: list[str] = []
        return readers[raw.kind](candidate, found, scratch), found, scratch

    try:
        result, found, scratch = attempt(grid)
    except ParseError:
        try:
            attempt(Grid(grid.headers, grid.line, ()))
        except ParseError as error:
            report.warnings.append(f"line {error.line or grid.line}: {raw.title}: {error.message}; table skipped")
            return
        grid = _valid_rows(grid, attempt, raw.title, report.warnings)
        result, found, scratch = attempt(grid)
    report.key_values.extend(scratch.key_values)  # "Avg"/"Sum" rows under the statistics
    for warning in (*found, *scratch.warnings):
        report.warnings.append(warning if re.search(r"\bline \d", warning) else f"line {grid.line}: {warning}")
    if raw.kind == "io":
        report.io_tables.append(result)
    elif raw.kind == "host":
        report.host_counters.extend(result)
    elif raw.kind == "backup":
        report.backup_rows.extend(result)
    elif raw.kind == "recovery":
        report.recovery_rows.extend(result)
    else:
        report.checksum_rows.extend(result)
