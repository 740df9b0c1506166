"""Claim-free checks over the tables documents print: do they agree with themselves and the data?

- `table_sum`: a "Total ... Run k" row against the sum of its per-part rows ("VM 1 ... Run k");
- `table_identity`: rows that must add up (achieved = reads + writes, total = achieved + log);
- `median_run_figures`: figures printed under a "median run" heading come from the trial's median;
- `median_run_label`: a column or caption naming the median run names the trial's median;
- `per_disk_count`: which disk count a table's per-disk rows divide by, against the table's own
  stated count and the solution's all/active disks;
- `caption_vs_table`: a caption naming one disk medium over a table whose stub and values belong
  to a solution of the other;
- `summary_vs_report`: a document's one-column summary table against the one Performance report
  embedded in it (skipped where a manifest claim already covers the same printed figure).
"""

from __future__ import annotations

import re
from collections import defaultdict

from ...schema.vocabulary import DISK_BASES
from ..candidates import runs
from ..candidates.runs import Unverifiable
from ..gather import AuditData, DocTable, RunInfo
from ..judge import judge
from ..terms import MATCH, MISMATCH, ROUNDING, Candidate, fmt, parse_printed
from .column_sums import column_sum_findings
from .finding import Finding, evidence
from .mislabel import mislabel_note
from .table_rows import DISK_COUNT, SUMMABLE, Row, column_owners, latency_unit, media_named, place, rows_of, short_title

DEDUPLICATED = {"summary_vs_report"}  # cell-for-cell the same statement as a claim on that cell
IDENTITIES = (("achieved_iops", ("db_reads_per_s", "db_writes_per_s")), ("total_iops", ("achieved_iops", "log_iops")))


def run_checks(data: AuditData) -> list[Finding]:
    out: list[Finding] = []
    for table in sorted(data.tables.values(), key=lambda t: t.id):
        rows = rows_of(table)
        owners = column_owners(data, table)
        out += sum_findings(data, table, rows, owners) + identity_findings(data, table, rows, owners)
        out += column_sum_findings(data, table, rows, owners, _addition)
        out += median_figure_findings(data, table, rows, owners) + median_label_findings(data, table, owners)
        out += per_disk_findings(data, table, rows, owners) + caption_findings(data, table, owners)
        out += summary_findings(data, table, rows)
    return out


def _finding(data: AuditData, table: DocTable, **fields) -> Finding:
    fields.setdefault("other_solution", None)
    fields.setdefault("quote", None)
    fields.setdefault("unit", None)
    return Finding(**fields, **evidence(data, table.source_file_id))


def _slack(printed_texts: list[str]) -> float:
    """How far a sum of printed figures can drift from the sum of the unrounded ones."""
    total = 0.0
    for text in printed_texts:
        printed = parse_printed(text)
        if printed is not None:
            total += 0.5 * 10.0 ** -(printed.decimals - printed.trailing_zeros)
    return total


def _addition(data, table, row: Row, column: int, owners, parts: list[Row], kind: str, words: str) -> Finding | None:
    cell = row.cells[column]
    texts = [p.cells[column].printed for p in parts]
    total = sum(p.number(column) for p in parts)
    how = " + ".join(f"'{p.label}' {p.cells[column].printed}" for p in parts)
    j = judge(cell.printed, [Candidate(total, f"{words}: {how}", {p.label: p.number(column) for p in parts},
                                       uncertainty=_slack(texts))])
    if j.verdict == MATCH:
        return None
    owner = owners.get(column, (None, None))[0]
    return _finding(data, table, solution=data.solution_key(owner), kind=kind, metric=row.metric, verdict=j.verdict,
                    printed=cell.printed, recomputed=total, relative_difference=j.relative_difference,
                    explanation=f"The table's '{row.label}' does not add up: {j.explanation}",
                    inputs=j.inputs, place=place(table, row, column), line=cell.line)


def sum_findings(data: AuditData, table: DocTable, rows: list[Row], owners) -> list[Finding]:
    """A row without a part label, beside two or more part rows of the same metric and run."""
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        if row.metric in SUMMABLE:
            groups[(row.section, row.run, row.metric, row.per_disk)].append(row)
    out = []
    for group in groups.values():
        totals = [r for r in group if r.part is None]
        parts = [r for r in group if r.part is not None]
        if len(totals) != 1 or len(parts) < 2:
            continue
        for column in sorted(totals[0].cells):
            if totals[0].number(column) is None or any(p.number(column) is None for p in parts):
                continue
            words = f"the sum of its {len(parts)} part rows"
            found = _addition(data, table, totals[0], column, owners, parts, "table_sum", words)
            out += [found] if found else []
    return out


def identity_findings(data: AuditData, table: DocTable, rows: list[Row], owners) -> list[Finding]:
    groups: dict[tuple, dict[str, Row]] = defaultdict(dict)
    for row in rows:
        if row.metric in SUMMABLE:
            groups[(row.section, row.part, row.run, row.per_disk)].setdefault(row.metric, row)
    out = []
    for group in groups.values():
        for result, addends in IDENTITIES:
            if result not in group or any(a not in group for a in addends):
                continue
            for column in sorted(group[result].cells):
                parts = [group[a] for a in addends]
                if group[result].number(column) is None or any(p.number(column) is None for p in parts):
                    continue
                words = "achieved = reads + writes" if result == "achieved_iops" else "total = achieved + log"
                found = _addition(data, table, group[result], column, owners, parts, "table_identity", words)
                out += [found] if found else []
    return out


def _own(run: RunInfo, metric: str) -> float | None:
    try:
        return runs.rate_candidates(run, metric)[0].value
    except Unverifiable:
        return None


def _gives(value: float, printed: str) -> bool:
    return judge(printed, [Candidate(value, "")]).verdict in (MATCH, ROUNDING)


def median_figure_findings(data: AuditData, table: DocTable, rows: list[Row], owners) -> list[Finding]:
    """Rows under a heading that says 'median': whose run do their figures come from?"""
    section_rows = [r for r in rows if r.heading and "median" in r.heading.lower() and r.metric in SUMMABLE
                    and not r.per_disk and r.run is None and r.part is None]
    out = []
    for column, (solution_id, _) in sorted(owners.items()):
        median = data.headline_run(solution_id)
        cells = [(r, r.cells[column]) for r in section_rows if column in r.cells and r.cells[column].number is not None]
        if median is None or not cells or median.trial_id is None:
            continue
        trial = data.trial_runs(median)
        evaluable, foreign = [], defaultdict(list)
        for row, cell in cells:
            own = {run.name: _own(run, row.metric) for run in trial}
            if all(v is None for v in own.values()):
                continue
            from_runs = {name: v for name, v in own.items() if v is not None and _gives(v, cell.printed)}
            evaluable.append((row, cell, from_runs))
            if median.name not in from_runs:
                for name, value in from_runs.items():
                    foreign[name].append((row, cell, value))
        if not evaluable:
            continue
        heading = cells[0][0].heading
        listing = ", ".join(f"{r.name} {fmt(r.figures['total_iops'])}" for r in sorted(trial, key=lambda r: r.name)
                            if r.figures.get("total_iops") is not None)
        printed = "; ".join(f"{row.label} {cell.printed}" for row, cell, _ in evaluable)
        if not foreign and all(median.name in names for _, _, names in evaluable):
            verdict, why = MATCH, f"every figure is {median.name}'s, the trial's median by total IOPS ({listing})"
        elif foreign:
            name, hits = max(foreign.items(), key=lambda kv: (len(kv[1]), kv[0]))
            theirs = "; ".join(f"'{row.label}' {cell.printed} = {name}'s {fmt(v)}" for row, cell, v in hits)
            mine = "; ".join(fmt(v) for row, _, _ in evaluable if (v := _own(median, row.metric)) is not None)
            verdict, why = MISMATCH, (f"{theirs}; the trial's median by total IOPS is {median.name} ({listing}), "
                                      f"whose figures are {mine}")
        else:
            verdict, why = MISMATCH, f"no run of the trial gives every figure; the median is {median.name} ({listing})"
        out.append(_finding(data, table, solution=data.solution_key(solution_id), kind="median_run_figures",
                            metric="median_run", verdict=verdict, printed=printed, recomputed=None,
                            relative_difference=None, explanation=f"Under '{heading}': {why}.",
                            inputs={r.name: r.figures.get("total_iops") for r in trial},
                            place=place(table, None, column) + f", section '{heading}'", line=cells[0][1].line))
    return out


def _claimed_median(data: AuditData, solution_id: int, file_id: int) -> bool:
    return bool(data.claims_of(file_id, "median_run", solution_id))


def median_label_findings(data: AuditData, table: DocTable, owners) -> list[Finding]:
    """'Run 2 (median run)' in a header, or 'Run 2 was the median run' in the caption."""
    solutions = {s for s, _ in owners.values()}
    if len(solutions) != 1:
        return []
    solution_id = solutions.pop()
    median = data.headline_run(solution_id)
    if median is None or median.trial_id is None or _claimed_median(data, solution_id, table.source_file_id):
        return []
    named = [(f"column '{c}'", m.group(1)) for c in table.columns
             if "median" in c.lower() and (m := re.search(r"\b(run\s*\d+)\b", c, re.I))]
    if (m := re.search(r"\b(run\s*\d+)\b[^.]*\bmedian\b", table.title, re.I)):
        named.append(("caption", m.group(1)))
    out = []
    for where, label in named:
        ok = re.sub(r"\s+", " ", label).lower() == median.name.lower()
        out.append(_finding(data, table, solution=data.solution_key(solution_id), kind="median_run_label",
                            metric="median_run", verdict=MATCH if ok else MISMATCH, printed=label, recomputed=None,
                            relative_difference=None,
                            inputs={r.name: r.figures.get("total_iops") for r in data.trial_runs(median)},
                            explanation=f"The {where} names {label} as the median run; by total IOPS it is "
                                        f"{median.name}.",
                            place=f"{short_title(table)}, {where}", line=table.line))
    return out


def per_disk_findings(data: AuditData, table: DocTable, rows: list[Row], owners) -> list[Finding]:
    """The disk count each per-disk row divides by, from the row it is the per-disk form of."""
    out = []
    for column, (solution_id, _) in sorted(owners.items()):
        solution = data.solutions[solution_id]
        counts = {b: solution.disk_count(b) for b in DISK_BASES}
        stated_row = next((r for r in rows if DISK_COUNT.search(r.label) and r.number(column) is not None), None)
        implied = []
        bases = _base_rows(rows, column)
        for row in rows:
            cell = row.cells.get(column)
            if not row.per_disk or row.metric is None or row.part or row.run or cell is None or not cell.number:
                continue
            first, in_section = bases.get(row.metric, (None, {}))
            base_row = in_section.get(row.section, first)  # the row's own section's first, else the table's
            if base_row is None:
                continue
            total = base_row.number(column)
            n = round(total / cell.number)
            if n > 0 and judge(cell.printed, [Candidate(total / n, "")]).verdict in (MATCH, ROUNDING):
                implied.append((row, cell, base_row, n))
        if not implied:
            continue
        stated = int(stated_row.number(column)) if stated_row else None
        found = sorted({n for *_, n in implied})
        detail = "; ".join(f"'{row.label}' {cell.printed} = '{b.label}' {b.cells[column].printed} / {n}"
                           for row, cell, b, n in implied)
        bad = [n for n in found if (stated is not None and n != stated) or n not in counts.values()]
        where = f"the table states {stated} ('{stated_row.label}')" if stated_row else "the table states no count"
        verdict = MISMATCH if bad else MATCH
        explanation = (f"The per-disk rows divide by {', '.join(map(str, found))} disk{'s' if found != [1] else ''} "
                       f"({detail}); {where}, and {solution.key} has {counts['all']} disks, {counts['active']} active.")
        out.append(_finding(data, table, solution=solution.key, kind="per_disk_count", metric="disk_count",
                            verdict=verdict, printed=None if stated is None else str(stated),
                            recomputed=float(bad[0] if bad else found[0]),
                            relative_difference=None if stated is None or not bad else (stated - bad[0]) / bad[0],
                            explanation=explanation, inputs={"implied_counts": found, "stated_count": stated, **counts},
                            place=place(table, None, column), line=implied[0][1].line))
    return out


def _base_rows(rows: list[Row], column: int) -> dict[str, tuple[Row, dict[int, Row]]]:
    """Metric -> (its first whole-system row with a number in `column`, the first of each section): what a
    per-disk row is the per-disk form of, found by metric and place in one pass, not a pass a row (issue 49)."""
    bases: dict[str, tuple[Row, dict[int, Row]]] = {}
    for r in rows:
        if r.metric is None or r.per_disk or r.part or r.run or r.number(column) is None:
            continue
        first, in_section = bases.setdefault(r.metric, (r, {}))
        in_section.setdefault(r.section, r)
    return bases


def caption_findings(data: AuditData, table: DocTable, owners) -> list[Finding]:
    """A caption that names SSDs over a table of HDDs (or the reverse), where the data decides."""
    caption = media_named(table.title)
    header = media_named(table.stub) or media_named(" ".join(table.columns))
    owner_ids = {s for s, _ in owners.values()}
    owner_media = set().union(*(data.solutions[s].media for s in owner_ids)) if owner_ids else set()
    if len(caption) != 1 or (not header and not owner_media):
        return []
    (named,) = caption
    against = []
    if header and named not in header:
        against.append(f"its stub '{table.stub}' names {'/'.join(sorted(header))}")
    if owner_ids and named not in owner_media:
        keys = ", ".join(sorted(data.solutions[s].key for s in owner_ids))
        against.append(f"its values are the runs of {keys} ({'/'.join(sorted(owner_media))} disks)")
    if not against:
        return []
    fits = sorted(s.key for s in data.solutions.values() if named in s.media and s.id not in owner_ids
                  and _in_document(data, s.id, table.source_file_id))
    other = fits[0] if len(fits) == 1 else None
    explanation = f"The caption '{table.title}' names {named}, but " + " and ".join(against)
    if other:
        explanation += f"; the medium it names is {other}'s"
    owner_id = owner_ids.pop() if len(owner_ids) == 1 else None
    if other and owner_id is not None and (m := re.search(r"\b(run\s*\d+)\b[^.]*\bmedian\b", table.title, re.I)):
        other_id = next(s.id for s in data.solutions.values() if s.key == other)
        medians = {data.solution_key(sid): data.headline_run(sid) for sid in (owner_id, other_id)}
        said = " ".join(m.group(1).split()).lower()
        fits_owner = [k for k, run in medians.items() if run is not None and run.name.lower() == said]
        if fits_owner:
            explanation += (f"; its '{m.group(1)} was the median run' is true of {', '.join(fits_owner)} (median runs: "
                            + ", ".join(f"{k} {run.name}" for k, run in medians.items() if run is not None) + ")")
    owner = data.solution_key(owner_id)
    return [_finding(data, table, solution=owner, other_solution=other, kind="caption_vs_table", metric="caption",
                     verdict=MISMATCH, printed=short_title(table), recomputed=None, relative_difference=None,
                     explanation=explanation + ".", inputs={"caption_media": named, "stub_media": sorted(header),
                                                            "data_media": sorted(owner_media)},
                     place=f"{short_title(table)} (caption vs table)", line=table.line, quote=table.title)]


def _in_document(data: AuditData, solution_id: int, file_id: int) -> bool:
    return solution_id in data.sides_in(file_id)


def summary_findings(data: AuditData, table: DocTable, rows: list[Row]) -> list[Finding]:
    """A one-column summary table against the single Performance report its document embeds."""
    if table.columns or any(c.column_label for c in table.cells):
        return []
    reports = [r for r in data.runs.values() if r.source_file_id == table.source_file_id and r.origin == "report"
               and r.report_type == "Performance"]
    if len(reports) != 1:
        return []
    run = reports[0]
    solution_id = data.twin_solution(run)
    solution = data.solutions.get(solution_id)
    out = []
    for row in rows:
        cell = row.cells.get(0)
        if row.metric is None or row.per_disk or cell is None or cell.number is None:
            continue
        unit = latency_unit(row.label) if row.metric.endswith("latency") else None
        try:
            candidates = runs.run_metric_candidates(run, row.metric, unit, solution, True)
        except Unverifiable:
            continue
        j = judge(cell.printed, candidates)
        why = f"Against the report embedded at line {run.source_line}: {j.explanation}"
        mislabel = mislabel_note(run, cell.printed, row.metric, unit, solution, "the report's") \
            if j.verdict == MISMATCH else None
        out.append(_finding(data, table, solution=data.solution_key(solution_id),
                            kind="mislabelled_metric" if mislabel else "summary_vs_report",
                            metric=row.metric, verdict=j.verdict, printed=cell.printed, recomputed=j.recomputed,
                            relative_difference=j.relative_difference, unit=unit,
                            explanation=f"{why.rstrip('.')}; {mislabel}" if mislabel else why,
                            inputs=j.inputs, place=place(table, row), line=cell.line))
    return out
