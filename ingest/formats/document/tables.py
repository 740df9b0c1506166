"""Tables of ESRP submissions and whitepapers outside the Jetstress reports -> `DocumentTable`.

A table is a run of row lines (tab, pipe or wide-space separated) that survives blank lines,
page furniture and a header repeated on the next page. Its title is its figure caption
("Figure 7: Results for the storage arrays." — whitepapers print it under the table), else the
heading above it ("Simulated Exchange Configuration" in an ESRP submission). Its kind is a
stable machine name from the title and row labels, so later steps can find "the results_by_run
table" or "the esrp_primary_storage_hardware table". Cells stay as printed.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ...jetstress.values import cell_number
from . import orientation
from .lines import Line
from .named_header import named_headers
from .records import DocumentRow, DocumentTable
from .spaced_rows import respaced

# "Table 3: …", "Figure 4 - …", and "Table 1  Arrays under test" (a capital after the number: never "Table 1 shows")
CAPTION = re.compile(r"(?:figure|fig\.|table|exhibit)\s+(\d+[a-z]?)(?:\s*[:.–-]|\s+(?-i:[A-Z]))", re.IGNORECASE)
_TABLE_CAPTION = re.compile(r"table\s", re.IGNORECASE)  # of the captions CAPTION matches, a table's
_REFERENCE = re.compile(r"(?:figure|table)\s+(\d+[a-z]?)\s+(?!\s*[:.])", re.IGNORECASE)
_LIST_ITEM = re.compile(r"(?:[-*•o]\s|\d+[.)]\s|[a-z][.)]\s)")
_RUN = re.compile(r"\brun\s*\d+\b", re.IGNORECASE)
_ESRP = re.compile(r"tested with\s*:?\s*esrp", re.IGNORECASE)
HEADER_STUBS = frozenset({"system", "systems", "item", "items", "component", "components", "system components",
                          "counter", "parameter", "parameters", "metric", "setting", "configuration", "server"})
LOOKBACK_LINES = 8  # non-blank lines above a table searched for its heading

# (pattern on the title, kind, kind in an ESRP submission); first match wins.
TITLE_KINDS: tuple[tuple[re.Pattern[str], str, str | None], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind, esrp_kind) for pattern, kind, esrp_kind in (
        (r"simulated exchange.*(calculation|parameter)", "simulated_exchange_parameters", None),
        (r"simulated exchange", "simulated_exchange_configuration", "esrp_simulated_exchange_configuration"),
        (r"\b(?:exchange|mailbox|user|workload) profile\b|\bprofiles? (?:tested|simulated)\b",
         "simulated_exchange_configuration", None),
        (r"replication configuration", "replication_configuration", "esrp_replication_configuration"),
        (r"(disk|drive) configuration", "disk_configuration", "esrp_primary_storage_disk_configuration"),
        (r"storage hardware", "storage_hardware", "esrp_primary_storage_hardware"),
        (r"storage software", "storage_software", "esrp_primary_storage_software"),
        (r"storage performance results|test result summary", "storage_performance_results",
         "esrp_storage_performance_results"),
        (r"read-only performance|backup performance", "backup_performance", "esrp_database_read_only_performance"),
        (r"recovery/replay|replay performance|log recovery", "log_replay_performance",
         "esrp_transaction_log_replay_performance"),
        (r"\bpric|\bcosts?\b", "pricing", None),
        (r"\bpower\b|\bwatts?\b", "power", None),
        (r"\bsans? we tested|storage systems?\b|storage arrays?\b|(drives|disks|systems) we tested|"
         r"\bstorage (?:and|&) (?:server|host)|\bstorage configuration|\b(?:systems?|arrays?) under test|"
         r"configuration of the (?:\w+ )?(?:systems|arrays)", "storage_systems", None),
        (r"\bswitch\b", "switch_configuration", None),
        (r"^(?!.*\b(?:results?|performance|iops|latenc))(?=.*\bserver\b)", "server_configuration", None),
        (r"\blayout\b", "disk_layout", None),
        (r"result|performance|comparison", "results", None),
    ))
# Kinds named by the standard ESRP/whitepaper section headings: such a heading names the table below it.
SECTION_KINDS = frozenset({kind for _, kind, _ in TITLE_KINDS[:10]} | {k for _, _, k in TITLE_KINDS if k})
LABEL_KINDS = ((re.compile(r"\bprice\b|\bcost\b|\$\s?\d|\busd\b", re.IGNORECASE), "pricing"),
               (re.compile(r"\bpower\b|\bwatts?\b", re.IGNORECASE), "power"),
               (re.compile(r"\bdisks?\b|\bdrives?\b|\bcapacity\b", re.IGNORECASE), "storage_systems"))


def _is_number(text: str) -> bool:
    """A number, with its unit in the cell or not ("2,153.9 IOPS", "$74,000", "11.2 ms", "60%")."""
    return cell_number(text) is not None


def _is_row(line: Line) -> bool:
    return line.separated and not line.rule and not line.furniture and sum(1 for c in line.cells if c) >= 2


def is_esrp_submission(lines: list[Line]) -> bool:
    """An ESRP submission says "Tested with: ESRP – Storage Version …" near its top."""
    return any(_ESRP.match(line.text) for line in lines[:300])


@functools.lru_cache(maxsize=4096)  # pure; a document asks it of the same headings above each of its tables
def _title_kind(title: str, esrp: bool) -> str | None:
    text = re.sub(r"\s*-\s*", "-", title)
    for pattern, kind, esrp_kind in TITLE_KINDS:
        if pattern.search(text):
            return esrp_kind if esrp and esrp_kind else kind
    return None


def classify(titles: list[str], labels: list[str], columns: list[str], esrp: bool) -> str:
    if sum(1 for text in [*labels, *columns] if _RUN.search(text)) >= 2:
        return "results_by_run"
    for title in titles:
        kind = _title_kind(title, esrp)
        if kind is not None:
            return kind
    # the kind most of its rows speak of (a configuration table's one "Power" row among its disks and capacities
    # does not make it a power table); a tie goes to the kind listed first
    votes = [sum(1 for label in labels if pattern.search(label)) for pattern, _ in LABEL_KINDS]
    best = max(votes, default=0)
    return LABEL_KINDS[votes.index(best)][1] if best else "other"


def _heading_like(line: Line) -> bool:
    text = line.text
    if line.separated or not text or line.furniture or len(text) > 100 or len(text.split()) > 14:
        return False
    if _LIST_ITEM.match(text) or CAPTION.match(text):
        return False
    return bool(line.heading) or not text.endswith((".", ",", ";"))


_SENTENCE_INSIDE = re.compile(r"[a-z0-9)][.;]\s+[A-Z]")


def _wrapped_prose(line: Line, above: Line | None) -> bool:
    """A short line of a wrapped paragraph is no heading: it starts in lower case, ends one sentence and starts
    the next, or carries on a long line directly above it that ends mid-sentence."""
    text = line.text
    if text[:1].islower() or _SENTENCE_INSIDE.search(text):
        return True
    return (above is not None and above.number == line.number - 1 and not above.separated and not above.heading
            and len(above.text.split()) >= 8 and not above.text.endswith((".", ":", "!", "?")))


def _opens_table(lines: list[Line], index: int, consumed: set[int]) -> bool:
    """A one-cell row ("Test server⇥", "Database I/O⇥") opens a table when rows follow it."""
    line = lines[index]
    if not line.separated or line.rule or line.furniture or not line.first:
        return False
    following = next((i for i in range(index + 1, min(len(lines), index + 4)) if not lines[i].blank), None)
    return following is not None and following not in consumed and _is_row(lines[following])


def _blocks(lines: list[Line], consumed: set[int]) -> list[tuple[int, int, list[Line]]]:
    """(first index, last index, row lines) of each table; a row label printed alone is joined to its cells."""
    blocks, index = [], 0
    while index < len(lines):
        if index in consumed or not (_is_row(lines[index]) or _opens_table(lines, index, consumed)):
            index += 1
            continue
        rows, last, cursor = [], index, index
        while cursor < len(lines) and cursor not in consumed:
            line = lines[cursor]
            if line.furniture or line.blank or line.rule:
                cursor += 1
                continue
            if line.separated:
                rows.append(line)
                last, cursor = cursor, cursor + 1
                continue
            if rows and CAPTION.match(line.text):
                break  # "Table 5. …" between two tables: the next one's caption, never a row of this one
            following = lines[cursor + 1] if cursor + 1 < len(lines) else None
            if following is not None and following.separated and not following.first and cursor + 1 not in consumed:
                rows.append(Line(line.number, (line.text, *following.cells[1:]), True))
                last, cursor = cursor + 1, cursor + 2
                continue
            resumed = _resumes(lines, cursor, consumed)
            if rows and resumed is not None:
                # A label alone between rows ("Test workload"): a tab-separated table prints it with empty
                # cells, a space-aligned one (pdftotext -layout) as a line of its own.
                rows.append(Line(line.number, (line.text, *[""] * (len(resumed.cells) - 1)), True))
                last, cursor = cursor, cursor + 1
                continue
            break
        blocks.append((index, last, rows))
        index = last + 1
    return blocks


SECTION_ROW_CHARS = 80  # a label alone inside a table is short; a longer line is prose


def _resumes(lines: list[Line], index: int, consumed: set[int]) -> Line | None:
    """The table row that follows line `index` when that line is a section label inside the table:
    short, no caption, and set between two rows with no blank line (a heading between two tables
    stands apart from both)."""
    line = lines[index]
    if len(line.text) > SECTION_ROW_CHARS or CAPTION.match(line.text) or line.text.endswith((".", ":")):
        return None
    if index == 0 or index + 1 >= len(lines) or index + 1 in consumed:
        return None
    before, after = lines[index - 1], lines[index + 1]
    return after if before.separated and not before.blank and _is_row(after) else None


def _header(rows: list[Line]) -> tuple[str, ...] | None:
    first = rows[0].cells
    values = [cell for cell in first[1:] if cell]
    if not values:
        return None
    stub = first[0].casefold().rstrip(":")
    if not stub or stub in HEADER_STUBS or sum(bool(_RUN.search(value)) for value in values) >= 2:
        return first
    if len(values) >= 2 and not any(_is_number(v) for v in values):
        numeric = sum(1 for row in rows[1:] if any(_is_number(c) for c in row.cells[1:] if c))
        if numeric * 2 >= len(rows) - 1 > 0:
            return first
    return None


def _header_continued(header: tuple[str, ...] | None, rows: list[Line]) -> tuple[str, ...] | None:
    """A header printed over two rows ("Achieved" above "IOPS"): the second row has no label of its own
    (or a stub word), words in every cell it fills, and numbers in the rows below it."""
    if header is None or len(rows) < 3:
        return None
    second = rows[1].cells
    if len(second) > 1 and not second[1] and re.fullmatch(r"\(.+\)", second[0].strip()):
        # "(USD, as tested)" printed wider than "Price" above it, so a PDF's layout set it under the stub:
        # the bracketed words qualify the first column's heading
        second = ("", second[0], *second[2:])
    values = [cell for cell in second[1:] if cell]
    label = second[0].strip().casefold().rstrip(":") if second else ""
    if not values or any(_is_number(v) for v in values) or (label and label not in HEADER_STUBS):
        return None
    below = sum(1 for row in rows[2:] if any(_is_number(c) for c in row.cells[1:] if c))
    return second if below * 2 >= len(rows) - 2 else None


def _values(cells: tuple[str, ...], width: int) -> tuple[str, ...]:
    """The cells after the label, without empty cells trailing past the header (a row keeps one cell it printed)."""
    values = list(cells[1:])
    while len(values) > max(width, 1) and not values[-1]:
        values.pop()
    return tuple(values)


def _caption_after(lines: list[Line], last: int, consumed: set[int]) -> int | None:
    """Index of the caption printed under the table: the next line, or the one after "Figure N shows …"."""
    reference = None
    for index in range(last + 1, min(len(lines), last + 12)):
        line = lines[index]
        if index in consumed or _is_row(line):
            return None
        if line.blank or line.furniture:
            continue
        caption = CAPTION.match(line.text)
        if caption:
            return index if reference in (None, caption[1]) else None
        mention = _REFERENCE.match(line.text)
        if reference is not None or mention is None:
            return None
        reference = mention[1]
    return None


def captions_above(lines: list[Line], consumed: set[int]) -> bool:
    """Whether the document prints its table captions above its tables: a vote of the captions that stand
    against a table on one side only (a caption between two tables tells nothing). Where the document captions
    tables as tables, only those vote: a figure's caption stands under its figure, which a text has lost, so
    it stands under whatever table came before the figure ("Figure 3: IOPS across four VMs")."""
    captions = [index for index, line in enumerate(lines)
                if index not in consumed and not line.separated and CAPTION.match(line.text)]
    tables_captioned = [index for index in captions if _TABLE_CAPTION.match(lines[index].text)]
    above = below = 0
    for index in tables_captioned or captions:
        before = next((j for j in range(index - 1, max(-1, index - 4), -1) if not lines[j].blank), None)
        after = next((j for j in range(index + 1, min(len(lines), index + 4)) if not lines[j].blank), None)
        table_before = before is not None and before not in consumed and _is_row(lines[before])
        table_after = after is not None and after not in consumed and (_is_row(lines[after])
                                                                       or _opens_table(lines, after, consumed))
        above += table_after and not table_before
        below += table_before and not table_after
    return above > below


def _lines_above(lines: list[Line], first: int, stop: int, consumed: set[int]) -> list[Line]:
    """Non-blank prose lines above a table, nearest first, back to the previous table or report."""
    found = []
    for index in range(first - 1, stop, -1):
        line = lines[index]
        if index in consumed or _is_row(line):
            break
        if not line.blank and not line.furniture:
            found.append(line)
            if len(found) >= LOOKBACK_LINES:
                break
    return found


def _row(cells: tuple[str, ...], width: int, number: int, warnings: list[str]) -> DocumentRow:
    """A row; a section heading whose words ran on into the value cells ("…disk write⇥e, and log write IOPS.")
    gets its words back and empty value cells."""
    if width > 1:  # figures a PDF's layout set off by a column: one a column, where that fits the header exactly
        cells = tuple(respaced(list(cells), [number] * len(cells), width + 1, lead=False)[0])
    values = _values(cells, width)
    texts = [value for value in values if value]
    if (width and texts and len(cells[0].split()) >= 6 and cells[0][-1].isalnum() and texts[0][0].islower()
            and " " in texts[0] and not any(ch.isdigit() for t in texts for ch in t)):
        warnings.append(f"line {number}: the row label runs on into the value cells (extraction damage); "
                        "read as a heading row with empty cells")
        return DocumentRow(" ".join([cells[0], *texts]), ("",) * width, number)
    return DocumentRow(cells[0], values, number)


def _wrapped_values(body: list[Line]) -> list[Line]:
    """A label/value table whose long values wrap onto a line of their own under the value column ("…, 6 hot"
    then "spares"): each such line is the end of the value above it, not a row of its own."""
    joined: list[Line] = []
    for line in body:
        previous = joined[-1] if joined else None
        if (previous is not None and len(line.cells) == 2 and not line.cells[0] and line.cells[1]
                and len(previous.cells) == 2 and all(previous.cells)):
            joined[-1] = replace(previous, cells=(previous.cells[0], f"{previous.cells[1]} {line.cells[1]}"))
            continue
        joined.append(line)
    return joined


def _grouped_header(rows: list[Line]) -> list[Line]:
    """A header of groups over sub-columns ("Array read latency" over "Avg  Min  Max"): one header row
    whose cells name both ("Array read latency Avg"), each sub-column under the group whose heading
    starts at or before its last character (a group's heading stands over its first columns)."""
    if len(rows) < 3:
        return rows
    groups, header, data = rows[0], rows[1], rows[2]
    named = [c for c in groups.cells if c]
    # a grid's cells (a PDF's ruled table): each group heading in its first column, the rows cell for cell
    grid = not groups.cells[0] and len(groups.cells) == len(header.cells) == len(data.cells) and not groups.starts
    aligned = grid or (not groups.cells[0] and groups.starts == header.starts[:len(groups.starts)])  # set in the columns
    if not grid and not (groups.starts and header.starts and data.starts) \
            or not (aligned or groups.starts[0] > header.starts[0]) \
            or len(header.cells) != len(data.cells) or not 1 <= len(named) < len(header.cells) - 1 \
            or not header.cells[0] or any(_is_number(c) for c in (*groups.cells, *header.cells) if c):
        return rows
    cells = [header.cells[0]]
    for column, cell in enumerate(header.cells[1:], start=1):
        if aligned:
            group = max((i for i in range(min(column + 1, len(groups.cells))) if groups.cells[i]), default=None)
        else:
            start = header.starts[column]
            group = max((i for i, at in enumerate(groups.starts)
                         if groups.cells[i] and at <= start + max(len(cell) - 1, 0)), default=None)
        cells.append(f"{groups.cells[group]} {cell}".strip() if group is not None else cell)
    return [Line(header.number, tuple(cells), True, starts=header.starts), *rows[2:]]


def read_tables(lines: list[Line], consumed: set[int], warnings: list[str],
                machines: frozenset[str] = frozenset()) -> list[DocumentTable]:
    """Every table outside the reports, in document order; `machines`: the reports' machine names, case-folded."""
    esrp = is_esrp_submission(lines)
    captions_on_top = captions_above(lines, consumed)
    tables, previous_end, used = [], -1, set()  # used: line numbers of captions already given to a table
    for first, last, rows in _blocks(lines, consumed):
        rows = _grouped_header(rows)
        header = _header(rows)
        columns = tuple(cell for cell in header[1:]) if header else ()
        continued = _header_continued(header, rows)
        if header is not None and continued is not None:  # one label from both rows, the row not data
            width = max(len(header), len(continued))
            padded = [(header + ("",) * width)[:width], (continued + ("",) * width)[:width]]
            header = tuple(" ".join(c for c in pair if c) for pair in zip(*padded))
            columns = header[1:]
            rows = [rows[0], *rows[2:]]
        while columns and not columns[-1]:
            columns = columns[:-1]
        body = [row for row in (rows[1:] if header else rows) if not (header and row.cells == header)]
        body = [row for row in body if any(row.cells)]
        if header is None:
            body = _wrapped_values(body)
        if not body:
            previous_end = last
            continue
        above = [line for line in _lines_above(lines, first, previous_end, consumed) if line.number not in used]
        after = None if captions_on_top else _caption_after(lines, last, consumed)
        # the caption right above, or above a short group heading over the columns ("Mailbox VM")
        near = above[:2] if above and len(above[0].text.split()) <= 4 and not CAPTION.match(above[0].text) else above[:1]
        caption = lines[after] if after is not None else next((ln for ln in near if CAPTION.match(ln.text)), None)
        headings = [line.text.rstrip(":").strip() for at, line in enumerate(above)
                    if _heading_like(line) and not _wrapped_prose(line, above[at + 1] if at + 1 < len(above) else None)]
        known = next((h for h in headings if classify([h], [], [], esrp) in SECTION_KINDS), None)
        nearest = headings[0] if headings else None
        title = caption.text if caption else known or nearest or (header[0] if header else "")
        titles = [text for text in (caption.text if caption else None, known, nearest) if text]
        document_rows = tuple(_row(row.cells, len(columns), row.number, warnings) for row in body)
        columns = orientation.captioned_quantity(title, columns, document_rows, machines)
        if orientation.quantities_as_columns(columns, document_rows, machines):
            columns, document_rows = orientation.turned(columns, document_rows)
        document_rows = orientation.grouped_runs(orientation.captioned_runs(title, document_rows))
        kind = classify(titles, [row.label for row in document_rows], list(columns), esrp)
        stub = header[0].strip() if header and header[0].strip() else None
        tables.append(DocumentTable(kind, title, columns, document_rows, rows[0].number, stub=stub))
        if caption is not None:
            used.add(caption.number)
        previous_end = max(last, after or last)
    return orientation.one_table_per_quantity(named_headers(tables, lines, CAPTION))
