"""Checks an auditor makes by hand on any document, with no manifest and no claim:

- `average_outside_range`: a report's host counter whose average lies outside its own minimum and
  maximum (an average above its maximum is a misprint, whatever the counter);
- `host_row_vs_report`: a table whose rows are hosts (named as the document's reports name their
  machines) and whose columns are metrics, each cell against that host's report: a summary figure
  that differs from the report it summarises; `mislabelled_metric` when the figure is another
  metric of that report (mislabel.py);
- `total_row`: a table's "Total" row against its other rows, column by column: a sum for rates and
  IOPS, an average for latencies; the finding says what the printed total does equal, if anything.

Each finding cites the line the figure is printed on.
"""

from __future__ import annotations

import re

from ..candidates import runs
from ..candidates.runs import Unverifiable
from ..gather import AuditData, DocTable, RunInfo
from ..judge import judge
from ..terms import MATCH, MISMATCH, Candidate, fmt, parse_printed
from .finding import Finding, evidence
from .mislabel import mislabel_note
from .profile import profile_findings
from .table_rows import classify, latency_unit

# "Total", "Totals:", "Total / average", "Total (3 hosts)", "Sum", "All hosts": a row of a table whose
# rows are parts; never "Total IOPS per disk", a metric's own name.
_TOTAL = re.compile(r"^\s*(?:grand\s+)?(?:totals?|sum|all\s+(?:hosts|servers|vms|nodes))\s*(?:$|[:(]|[/,&-]\s*\w+\s*$|"
                    r"(?:and|or)\s+average)", re.IGNORECASE)
_AVERAGED = re.compile(r"latenc|\(ms\)|\bmsec\b|percent|%", re.IGNORECASE)
_TARGET = re.compile(r"\btarget\b", re.IGNORECASE)
RANGE_SLACK = 1e-6  # a printed average may equal its maximum


def run_checks(data: AuditData) -> list[Finding]:
    out = counter_findings(data) + profile_findings(data)
    for table in sorted(data.tables.values(), key=lambda t: t.id):
        out += host_row_findings(data, table) + total_row_findings(data, table)
    return out


def _finding(data: AuditData, file_id: int | None, **fields) -> Finding:
    for name in ("other_solution", "quote", "unit", "relative_difference", "recomputed"):
        fields.setdefault(name, None)
    return Finding(**fields, **evidence(data, file_id))


def _solution_of_file(data: AuditData, file_id: int) -> int | None:
    """The one solution a document's report runs belong to; None when it tests several or none."""
    owners = {data.twin_solution(r) for r in data.runs.values() if r.source_file_id == file_id and r.origin == "report"}
    owners.discard(None)
    return owners.pop() if len(owners) == 1 else None


def counter_findings(data: AuditData) -> list[Finding]:
    out = []
    for run in sorted(data.runs.values(), key=lambda r: r.id):
        for name, (average, low, high, line) in sorted(run.counter_ranges.items()):
            if average is None or low is None or high is None or low - RANGE_SLACK <= average <= high + RANGE_SLACK:
                continue
            side = f"above its maximum {fmt(high)}" if average > high else f"below its minimum {fmt(low)}"
            out.append(_finding(
                data, run.source_file_id, solution=data.solution_key(data.twin_solution(run)),
                kind="average_outside_range", metric="host_counter", verdict=MISMATCH, printed=fmt(average),
                explanation=f"'{name}' averages {fmt(average)}, {side}: an average lies between its minimum "
                            f"{fmt(low)} and maximum {fmt(high)}, so one of the three is misprinted",
                inputs={"run": run.name, "counter": name, "minimum": low, "maximum": high},
                place=f"{run.report_type} report ({run.name}), Host System Performance", line=line or run.source_line))
    return out


# A column that is not the host's Jetstress figure: an extreme ("Max"), or the array's own measurement
# ("Array read latency Avg", from the array's manager): never judged against the host's report.
_NOT_THE_HOSTS = re.compile(r"\b(?:min|max|minimum|maximum|peak|array|controller)\b|array-side", re.IGNORECASE)


def _column_metrics(table: DocTable) -> dict[int, tuple[str, str | None]]:
    """Column -> (run metric, latency unit) for a table whose columns are metrics ("Achieved IOPS", "DB read
    latency (ms)", "Log writes/sec", "Target IOPS")."""
    found: dict[int, tuple[str, str | None]] = {}
    for index, label in enumerate(table.columns):
        if _NOT_THE_HOSTS.search(label):
            continue
        if _TARGET.search(label):
            found[index] = ("target_iops", None)
            continue
        metric, per_disk = classify(label)
        if metric is not None and not per_disk:
            found[index] = (metric, latency_unit(label) if metric.endswith("latency") else None)
    return found


def _host_run(data: AuditData, table: DocTable, label: str, achieved: float | None,
              cells: list, metrics: dict[int, tuple[str, str | None]]) -> RunInfo | None:
    """The report of the host a row names, in the table's document: the one whose achieved IOPS the row
    prints, else (a host tested more than once, a row without achieved IOPS) the one most of its cells match."""
    named = [r for r in data.runs.values() if r.source_file_id == table.source_file_id and r.origin == "report"
             and r.machine_name and r.machine_name.casefold() == label.strip().casefold()
             and r.report_type == "Performance"]
    if achieved is not None and len(named) > 1:
        named = [r for r in named if r.figures.get("achieved_iops") is not None
                 and abs(r.figures["achieved_iops"] - achieved) <= 0.005 * max(achieved, 1)]
    if len(named) > 1:
        scores = {r.id: sum(_matches(data, r, cell, metrics) for cell in cells) for r in named}
        best = max(scores.values())
        named = [r for r in named if scores[r.id] == best] if best else []
    return named[0] if len(named) == 1 else None


def _matches(data: AuditData, run: RunInfo, cell, metrics: dict[int, tuple[str, str | None]]) -> bool:
    if cell.column not in metrics or cell.number is None or parse_printed(cell.printed) is None:
        return False
    metric, unit = metrics[cell.column]
    try:
        candidates = runs.run_metric_candidates(run, metric, unit, data.solutions.get(data.twin_solution(run)), False)
    except (Unverifiable, KeyError):
        return False
    return judge(cell.printed, candidates).verdict == MATCH


def host_row_findings(data: AuditData, table: DocTable) -> list[Finding]:
    metrics = _column_metrics(table)
    if len(metrics) < 2:
        return []
    out = []
    for row_cells in _rows(table).values():
        label = row_cells[0].row_label
        achieved_column = next((c for c, (m, _) in metrics.items() if m == "achieved_iops"), None)
        achieved = next((c.number for c in row_cells if c.column == achieved_column), None)
        run = _host_run(data, table, label, achieved, row_cells, metrics)
        if run is None:
            continue
        solution_id = data.twin_solution(run)
        for cell in row_cells:
            if cell.column not in metrics or cell.number is None or parse_printed(cell.printed) is None:
                continue
            metric, unit = metrics[cell.column]
            try:
                candidates = runs.run_metric_candidates(run, metric, unit, data.solutions.get(solution_id), False)
            except (Unverifiable, KeyError):
                continue
            j = judge(cell.printed, candidates)
            if j.verdict == MATCH:
                continue
            explanation = (f"'{table.title}' prints {cell.printed} for {label}'s {table.columns[cell.column]}; "
                           f"its report at line {run.source_line}: {j.explanation.rstrip('.')}")
            mislabel = mislabel_note(run, cell.printed, metric, unit, data.solutions.get(solution_id), "the report's")
            if mislabel:
                explanation += f"; {mislabel}"
            out.append(_finding(
                data, table.source_file_id, solution=data.solution_key(solution_id),
                kind="mislabelled_metric" if mislabel else "host_row_vs_report",
                metric=metric, verdict=j.verdict, printed=cell.printed, recomputed=j.recomputed,
                relative_difference=j.relative_difference, unit=unit, explanation=explanation,
                inputs=j.inputs, place=f"{table.title}, row {label}", line=cell.line))
    return out


def _rows(table: DocTable) -> dict[int, list]:
    rows: dict[int, list] = {}
    for cell in table.cells:
        rows.setdefault(cell.row, []).append(cell)
    return rows


def total_row_findings(data: AuditData, table: DocTable) -> list[Finding]:
    rows = _rows(table)
    totals = [r for r in rows.values() if _TOTAL.search(r[0].row_label)]
    if len(totals) != 1 or not table.columns:
        return []
    total = totals[0]
    parts = [r for r in rows.values() if r is not total]
    out = []
    for cell in total:
        values = [next((c.number for c in r if c.column == cell.column), None) for r in parts]
        if cell.number is None or len(values) < 2 or None in values or parse_printed(cell.printed) is None:
            continue
        header = table.columns[cell.column] if cell.column < len(table.columns) else ""
        numbers = [v for v in values if v is not None]
        summed, mean = sum(numbers), sum(numbers) / len(numbers)
        averaged = bool(_AVERAGED.search(header))
        expected, other = (mean, summed) if averaged else (summed, mean)
        words = ("the average", "the sum") if averaged else ("the sum", "the average")
        slack = sum(0.5 * 10.0 ** -(p.decimals - p.trailing_zeros) for c in parts for p in
                    [parse_printed(next(x.printed for x in c if x.column == cell.column))] if p is not None)
        j = judge(cell.printed, [Candidate(expected, f"{words[0]} of its {len(numbers)} rows", {},
                                           uncertainty=slack / (len(numbers) if averaged else 1))])
        if j.verdict == MATCH:
            continue
        alternative = judge(cell.printed, [Candidate(other, words[1], {}, uncertainty=slack)])
        also = (f"; it is {words[1]} of the rows ({fmt(other)}), printed under a {words[0].split()[1]} row"
                if alternative.verdict == MATCH else f"; nor {words[1]} ({fmt(other)})")
        out.append(_finding(
            data, table.source_file_id, solution=data.solution_key(_solution_of_file(data, table.source_file_id)),
            kind="total_row", metric=header or "total", verdict=MISMATCH, printed=cell.printed, recomputed=expected,
            relative_difference=j.relative_difference,
            explanation=f"'{total[0].row_label}' of '{table.title}' prints {cell.printed} for {header}: "
                        f"{words[0]} of its rows is {fmt(expected)}{also}",
            inputs={r[0].row_label: v for r, v in zip(parts, values)}, place=f"{table.title}, row {total[0].row_label}",
            line=cell.line))
    return out
