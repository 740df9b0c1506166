"""Which rows of a results table hold a run's figures, whatever the table's shape.

Whitepapers print runs two ways: a column per run ("Run 1 | Run 2 (median run) | Run 3") under a
caption naming the system, or a column per system with the run in the row label ("Total IOPS –
Run 2", "VM 3 Achieved IOPS - Run 2"). Rows split by an entity ("VM 1" … "VM 4", "Server 2") are
parts of the run's figure and are added up, unless the table prints the total itself. A row is
read by the meaning of its label (its words, without units in parentheses, dashes or "higher is
better"), never by its position. Pure.
"""

from __future__ import annotations

import functools
import re

from ..formats.document.records import DocumentTable
from .deferred import deferred

RUN = deferred(r"\brun\s*#?\s*(\d+)\b", re.IGNORECASE)
_ENTITY = deferred(r"^(?:vm|server|host|node|instance|database|db|storage group|sg|client)\s*\d+\s+",
                   re.IGNORECASE)
_PARENTHESES = deferred(r"\([^)]*\)")
_NOT_A_RUN_FIGURE = deferred(r"\bper\s+(?:disk|drive|spindle|dollar|watt|mailbox|user)\b|/\s*(?:disk|watt|\$)",
                             re.IGNORECASE)

# (metric, label starts) in the order they are tried: the first match wins.
_ROW_METRICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("achieved_iops", ("achieved iops", "achieved i/o", "achieved transactional")),
    ("log_iops", ("log iops", "log writes/s", "log disk writes/s", "log writes per s", "logs writes/s",
                  "log write iops", "log writes iops", "log i/o")),
    ("db_reads_per_s", ("database disk reads/s", "database reads/s", "db reads/s", "db disk reads/s")),
    ("db_writes_per_s", ("database disk writes/s", "database writes/s", "db writes/s", "db disk writes/s")),
    ("throughput_mb_per_s", ("average disk transfers mb/s", "disk transfers mb/s", "throughput mb/s", "mb/s")),
    ("idle_power_w", ("idle power",)),
    ("active_power_w", ("active power",)),
    ("total_iops", ("total iops", "iops", "total i/o")),
)


def clean_label(label: str) -> str:
    """"VM 1 Achieved IOPS - Run 2 (higher is better)" -> "achieved iops"; the entity is kept apart."""
    text = _PARENTHESES.sub(" ", RUN.sub(" ", label)).casefold()
    text = re.sub(r"[\u2010-\u2015\u2212-]", " ", text)
    text = re.sub(r"\s*/\s*sec(?:ond)?\b|\s+per\s+sec(?:ond)?\b", "/s", text)
    return " ".join(text.split())


@functools.lru_cache(maxsize=4096)  # pure, and asked of the same row labels once per column and run
def row_metric(label: str) -> tuple[str | None, bool]:
    """(the run figure a row holds, whether it is one entity's part of it) — (None, False) for other rows."""
    if _NOT_A_RUN_FIGURE.search(label):
        return None, False
    text = clean_label(label)
    entity = _ENTITY.match(text)
    rest = text[entity.end():] if entity else text
    for metric, starts in _ROW_METRICS:
        if any(rest == start or rest.startswith((start + " ", start + "/")) or (start.endswith("/s") and rest.startswith(start))
               for start in starts):
            if metric == "total_iops" and rest not in ("iops", "total iops", "total i/o") and \
                    not rest.startswith(("total iops ", "iops ")):
                return None, False
            return metric, entity is not None
    return None, False


def run_columns(table: DocumentTable) -> dict[int, str]:
    """Column index -> run number, for a table with a column per run."""
    return {i: m[1] for i, c in enumerate(table.columns) if (m := RUN.search(c))}


def row_runs(table: DocumentTable) -> list[str]:
    """The run numbers a table's row labels name, in order."""
    found: dict[str, None] = {}
    for row in table.rows:
        match = RUN.search(row.label)
        if match and match[1] not in found and row_metric(row.label)[0] is not None:
            found[match[1]] = None
    return list(found)


def run_rows(table: DocumentTable, column: int, run: str | None) -> dict[str, list[str]]:
    """Metric -> the row labels holding run `run`'s figure in `column` (None: the column is the run).

    Only rows with a number in the column count; a printed total wins over the sum of its parts.
    """
    return rows_of_runs(table, column).get(run, {})


_A_DIGIT = re.compile(r"\d")

def rows_of_runs(table: DocumentTable, column: int) -> dict[str | None, dict[str, list[str]]]:
    """`run_rows` for every run the row labels name (and None: the rows that name none), in one pass over
    the rows: a table of 10^6 "Run k" rows is read once, not once a run (issue 49)."""
    whole: dict[str | None, dict[str, dict[str, None]]] = {}
    parts: dict[str | None, dict[str, dict[str, None]]] = {}
    for row in table.rows:
        if column >= len(row.values) or not _A_DIGIT.search(row.values[column]):
            continue
        metric, is_part = row_metric(row.label)
        if metric is None:
            continue
        named = RUN.search(row.label)  # (searched only for a row that counts)
        target = (parts if is_part else whole).setdefault(named[1] if named else None, {})
        target.setdefault(metric, {}).setdefault(row.label, None)
    found: dict[str | None, dict[str, list[str]]] = {}
    for run in [*whole, *(run for run in parts if run not in whole)]:
        rows = {metric: list(labels)[:1] for metric, labels in whole.get(run, {}).items()}
        for metric, labels in parts.get(run, {}).items():
            rows.setdefault(metric, list(labels))
        found[run] = rows
    return found


def printed_equals(cell: str, value: float, *, min_decimals: int = 0) -> bool:
    """The cell prints `value` within the rounding of its own digits ("6,667.51" for 6667.510)."""
    match = re.search(r"\d[\d,]*(?:\.(\d+))?", cell)
    if not match:
        return False
    decimals = len(match[1] or "")
    return decimals >= min_decimals and abs(float(match[0].replace(",", "")) - value) <= 0.5 * 10 ** -decimals


def _number(cell: str) -> float | None:
    match = re.search(r"\d[\d,]*(?:\.\d+)?", cell)
    return float(match[0].replace(",", "")) if match else None


def run_total(table: DocumentTable, column: int, rows: dict[str, list[str]],
              places: dict[str, list[int]] | None = None) -> float | None:
    """The run's total IOPS (else achieved) in `column`: its row, or the sum of its parts. `places`: each row
    label's row indexes (label_places), for a caller asking of many runs."""
    labels = rows.get("total_iops") or rows.get("achieved_iops")
    if not labels:
        return None
    places = places if places is not None else label_places(table)
    found = sorted({index for label in labels for index in places.get(label, ())})
    values = [_number(table.rows[i].values[column]) for i in found if column < len(table.rows[i].values)]
    return sum(v for v in values if v is not None) if values and None not in values else None


def label_places(table: DocumentTable) -> dict[str, list[int]]:
    """Row label -> the indexes of the rows printing it, in order."""
    places: dict[str, list[int]] = {}
    for index, row in enumerate(table.rows):
        places.setdefault(row.label, []).append(index)
    return places


def median_rows(table: DocumentTable, column: int) -> tuple[str | None, dict[str, list[str]]]:
    """(the median run, figures printed for it by no run name) in a table with runs in its row labels.

    "Results from median run" rows name no run: the median is found from the table's own totals
    (an odd number of runs), so a wrong or missing statement of which run it was changes nothing.
    """
    runs, by_run, places = row_runs(table), rows_of_runs(table, column), label_places(table)
    totals = {n: run_total(table, column, by_run.get(n, {}), places) for n in runs}
    if len(runs) < 3 or len(runs) % 2 == 0 or None in totals.values():
        return None, {}
    ordered = sorted(runs, key=lambda n: totals[n] or 0.0)
    median = ordered[len(ordered) // 2]
    rows: dict[str, list[str]] = {}
    after_marker = False
    for row in table.rows:
        if RUN.search(row.label):
            after_marker = False
            continue
        if "median" in row.label.casefold():
            after_marker = True
        metric, is_part = row_metric(row.label)
        if after_marker and metric and not is_part and column < len(row.values) and _number(row.values[column]):
            rows.setdefault(metric, [row.label])
    return median, rows
