"""Reading a document table's rows generally: what each row measures, for which part and run.

Row labels are parsed by shape, not by name: a trailing "- Run k" (any dash) is the run; a
leading word-and-number ("VM 1", "Node 2") is the part of the system the row is for; a row whose
cells are all empty is a heading that opens a section; the metric comes from the words left
(achieved, log, reads, writes, IOPS, per disk). Columns are attributed to solutions and runs
from the data itself: the cells that runs' published values and manifest claims were read from.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..gather import AuditData, Cell, DocTable, RunInfo

RUN_SUFFIX = re.compile(r"\s*[-\u2013\u2014]\s*run\s*(\d+)\s*$", re.I)
PART_PREFIX = re.compile(r"^([A-Za-z]+\s*\d{1,3})\s+(\S.*)$")
# Run figures a whole is the sum of its parts of (hosts, VMs): a total row or column adds them up.
SUMMABLE = ("achieved_iops", "log_iops", "total_iops", "db_reads_per_s", "db_writes_per_s")
PER_DISK = re.compile(r"\bper\s+(?:active\s+)?disk\b|/\s*(?:active\s+)?disk\b", re.I)
DISK_COUNT = re.compile(r"\bnumber of (?:active |physical )?disks\b|\bdisks tested\b", re.I)
PARENTHESES = re.compile(r"\([^)]*\)")
REQUIREMENT = re.compile(r"\b(?:target(?:ed)?|required|requirements?|goal|expected|planned|needed)\b")
MEDIA_WORDS = {
    "SSD": re.compile(r"\bssds?\b|solid[- ]state|\bflash\b", re.I),
    "HDD": re.compile(r"\bhdds?\b|hard[- ]disk|hard[- ]drive", re.I),
}


_LATENCY = re.compile(r"latenc|\blat\b|response\s+time|\((?:ms|msec|milliseconds)\)", re.I)


def classify(label: str) -> tuple[str | None, bool]:
    """(run metric, per disk) a row label speaks of, or (None, _) when it is none of them."""
    per_disk = bool(PER_DISK.search(label))
    words = PARENTHESES.sub(" ", PER_DISK.sub(" ", label)).lower()
    if _LATENCY.search(label):  # "DB read lat. (ms)": a time, whatever else its words say
        metric = ("log_write_latency" if "log" in words else "db_read_latency" if "read" in words
                  else "db_write_latency" if "write" in words else None)
        return metric, per_disk
    if re.search(r"\bmb\b|bytes|power|watt|size|capacity|utili[sz]ation|mailbox|thread", words):
        return None, per_disk
    if REQUIREMENT.search(words):
        return None, per_disk  # "Target IOPS", "IOPS required": what the test had to reach, not what it did
    if "achieved" in words or ("database" in words and ("transfers" in words or "iops" in words)):
        return "achieved_iops", per_disk
    if "transfers" in words:
        return None, per_disk  # perfmon disk transfers: not a Jetstress figure
    if re.search(r"\btotal\b", words) and "iops" in words:
        return "total_iops", per_disk  # "Total IOPS incl. log", "Total IOPS (DB + log)": the total, log included
    if "log" in words and ("write" in words or "iops" in words):
        return "log_iops", per_disk
    if "read" in words:
        return "db_reads_per_s", per_disk
    if "write" in words:
        return "db_writes_per_s", per_disk
    if "iops" in words:
        return "total_iops", per_disk
    return None, per_disk


def latency_unit(label: str) -> str:
    return "s" if re.search(r"\((?:s|sec|seconds)\)", label, re.I) else "ms"


@dataclass
class Row:
    ordinal: int
    label: str
    section: int
    heading: str | None  # the label of the heading row that opened the section
    part: str | None  # "VM 1"
    run: int | None  # "Run 3" -> 3
    metric: str | None
    per_disk: bool
    cells: dict[int, Cell] = field(default_factory=dict)  # column ordinal -> cell

    def number(self, column: int) -> float | None:
        cell = self.cells.get(column)
        return cell.number if cell is not None else None


def rows_of(table: DocTable) -> list[Row]:
    by_row: dict[int, list[Cell]] = defaultdict(list)
    for cell in table.cells:
        by_row[cell.row].append(cell)
    rows, section, heading = [], 0, None
    for ordinal in sorted(by_row):
        cells = by_row[ordinal]
        label = cells[0].row_label
        if all(not c.printed.strip() for c in cells):
            section, heading = section + 1, label
            continue
        rest, run = label, None
        if (match := RUN_SUFFIX.search(rest)):
            rest, run = rest[: match.start()], int(match.group(1))
        part = None
        if (match := PART_PREFIX.match(rest)) and not rest.lower().startswith("total"):
            part, rest = match.group(1), match.group(2)
        metric, per_disk = classify(rest)
        rows.append(Row(ordinal, label, section, heading, part, run, metric, per_disk, {c.column: c for c in cells}))
    return rows


def column_label(table: DocTable, column: int) -> str:
    if column < len(table.columns):
        return table.columns[column]
    return next((c.column_label for c in table.cells if c.column == column and c.column_label), f"column {column + 1}")


def short_title(table: DocTable) -> str:
    head = table.title.split(":", 1)[0] if re.match(r"(figure|table)\s+\d+", table.title, re.I) else table.title
    return head if len(head) <= 60 else head[:57] + "..."


def column_owners(data: AuditData, table: DocTable) -> dict[int, tuple[int, int | None]]:
    """Column -> (solution, run or None), from the cells runs and claims were read from."""
    votes: dict[int, set[tuple[int, int | None]]] = defaultdict(set)
    for run, published in _published_in(data).get(table.id, ()):
        if run.solution_id is not None:
            labels = published["row_labels"]
            terms = published["value_printed"].split(" + ") if len(labels) > 1 else [published["value_printed"]]
            for label, term in zip(labels, terms):
                for cell in table.cells_labelled(label, term):
                    votes[cell.column].add((run.solution_id, run.id))
    for line in dict.fromkeys(c.line for c in table.cells):  # the claims on the table's lines, not every claim
        claims = [c for c in data.claims_on(table.source_file_id, line) if c.solution_id is not None]
        columns: dict[str, set[int]] = defaultdict(set)  # a value printed on the line -> its columns
        for cell in table.cells_on(line) if claims else ():
            columns[cell.printed.rstrip("%").strip()].add(cell.column)
        for claim in claims:
            if len(hit := columns.get(claim.value_printed, set())) == 1:
                votes[next(iter(hit))].add((claim.solution_id, claim.run_id if claim.subject == "run" else None))
    owners = {}
    for column, pairs in votes.items():
        solutions = {s for s, _ in pairs}
        runs = {r for _, r in pairs if r is not None}
        if len(solutions) == 1:
            owners[column] = (solutions.pop(), runs.pop() if len(runs) == 1 else None)
    return owners


def _published_in(data: AuditData) -> dict[int, list[tuple[RunInfo, dict]]]:
    """Document table id -> the runs' published values read from it (an index made once, not a pass a table)."""
    def build() -> dict[int, list[tuple[RunInfo, dict]]]:
        index: dict[int, list[tuple[RunInfo, dict]]] = defaultdict(list)
        for run in data.runs.values():
            for published in run.published.values():
                index[published["document_table_id"]].append((run, published))
        return index
    return data._index("_published_by_table", build)


def media_named(text: str | None) -> set[str]:
    return {media for media, pattern in MEDIA_WORDS.items() if text and pattern.search(text)}


def place(table: DocTable, row: Row | None = None, column: int | None = None) -> str:
    where = short_title(table)
    if row is not None:
        where += f", row '{row.label}'"
    if column is not None:
        where += f", column '{column_label(table, column)}'"
    return where
