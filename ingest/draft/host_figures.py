"""Figures a sentence gives one host of a test: "MBX06 averaged 9.2 ms database read latency", "EXCH-B held
2,467 IOPS with one path pulled".

A document that drives one array from several hosts speaks of each host by the machine name its
report prints. Such a figure is that host's, judged on that host's own report (a claim's `host`), never
on the test's sum over the hosts and never on the system. The test is the one that host ran under the
condition the sentence names (a path pulled, a drive failed: the test of that scenario) or, when it
names none, under no abnormal condition; a host that ran several such tests leaves the figure unplaced.
Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..formats.document.records import DocumentTable, ReportDocument
from .deferred import deferred
from .drafts import DraftRun, DraftSolution
from .host_columns import host_table_run
from .host_tests import SCENARIO
from .iops_words import document_iops, paragraph_iops
from .prefilter import lowered, may
from .published import DraftClaim, Paragraphs, placed
from .run_rows import run_rows
from .table_claims import table_claims

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_FIGURE = deferred(
    rf"(?<![\w.,])(?P<value>{_NUMBER})\s*(?:ms|milliseconds?)\s+(?:of\s+)?(?:average\s+|mean\s+)?"
    rf"(?P<latency>(?:database|db)\s+(?:read|write)|logs?\s+write|read|write)\s+latency\b"
    rf"|(?<![\w.,])(?P<iops>{_NUMBER})\s+(?P<kind>achieved\s+|transactional\s+|total\s+)?IOPS\b(?!\s*(?:per|/|for\s+each))",
    re.IGNORECASE)
_COMPARES = deferred(r"\b(?:than|compared\s+(?:to|with)|versus|vs\.?)\b", re.IGNORECASE)
_SENTENCE_END = deferred(r"[.!?;](?:\s|$)")


@dataclass(frozen=True)
class HostRun:
    """One run a machine took part in: the system, the run's label, whether it is a test over hosts."""

    solution: int
    label: str
    over_hosts: bool
    scenario: str | None


def host_runs(solutions: list[DraftSolution], document: ReportDocument) -> dict[str, list[HostRun]]:
    """Each machine (case-folded) with the Performance runs whose reports it printed."""
    found: dict[str, list[HostRun]] = {}
    for index, solution in enumerate(solutions):
        for run in solution.runs:
            reports = run.hosts or ((run.report_index,) if run.report_index is not None else ())
            for report_index in reports:
                report = document.reports[report_index]
                if report.report_type == "Performance" and report.machine_name and report.machine_name.strip():
                    found.setdefault(report.machine_name.strip().casefold(), []).append(
                        HostRun(index, run.label, bool(run.hosts), run.scenario))
    return found


def host_claims(solutions: list[DraftSolution], document: ReportDocument, prose: Paragraphs,
                unattributed: list[str]) -> set[tuple[int, str]]:
    """Add each host's figures to its system's claims; returns the (line, value) of every figure placed,
    which no other prose rule places again."""
    runs = host_runs(solutions, document)
    if not runs:
        return set()
    names = re.compile(r"(?<![\w-])(" + "|".join(re.escape(m) for m in sorted(runs, key=len, reverse=True)) + r")(?![\w-])",
                       re.IGNORECASE)
    bare: str | None = None  # what a bare "IOPS" means in the document: worked out when a figure first needs it
    words = tuple(runs) if all(machine.isascii() for machine in runs) else ()  # a mention holds one (case aside)
    placed_at: set[tuple[int, str]] = set()
    for text, starts in prose:
        if words and not may(lowered(text), *words):
            continue
        mentions = [(m.start(), m[1].casefold()) for m in names.finditer(text)]
        if not mentions:
            continue
        for figure in _FIGURE.finditer(text):
            before = [(at, name) for at, name in mentions if at < figure.start()]
            if not before:
                continue
            at, machine = before[-1]
            between = text[at:figure.start()]
            if _SENTENCE_END.search(between) or _COMPARES.search(between):
                continue  # another sentence, or the other side of a comparison
            bare = bare or document_iops([text for text, _ in prose])
            claim = _claim(figure, text, bare)
            sentence_start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, figure.start())), default=0)
            scenario = SCENARIO.search(text, sentence_start, figure.end())
            chosen = [r for r in runs[machine] if (r.scenario is not None) == (scenario is not None)]
            claim = placed(claim, text, starts, figure.start())
            if len(chosen) != 1:
                unattributed.append(f'line {claim.line}: "{claim.value}" ({claim.metric.replace("_", " ")}) is '
                                    f"{machine.upper()}'s, which ran {len(chosen) or 'no'} such tests; not judged")
                placed_at.add((claim.line, claim.value))
                continue
            run = chosen[0]
            host = next(r.machine_name.strip() for r in document.reports
                        if r.machine_name and r.machine_name.strip().casefold() == machine)
            solutions[run.solution].claims.append(
                (DraftClaim(claim.metric, claim.value, claim.unit, claim.line, claim.quote, run=run.label,
                            host=host if run.over_hosts else None, offset=claim.offset), "text", None))
            placed_at.add((claim.line, claim.value))
    return placed_at


def host_table_claims(solutions: list[DraftSolution], document: ReportDocument, table: DocumentTable, where: str) -> bool:
    """A table whose columns are the machines of one test ("VLX-MBX1 | VLX-MBX2"): each column's figures
    judged on that machine's own report, in the test the caption names (a scenario) or else the one run under
    no abnormal condition. False when no column is a machine with one such test (nothing placed)."""
    runs = host_runs(solutions, document)
    scenario = SCENARIO.search(table.title or "") is not None
    placed_any = False
    for claim in table_claims(table):
        if claim.column is None or claim.column >= len(table.columns) or claim.run is not None:
            continue
        machine = " ".join(table.columns[claim.column].split()).casefold()
        chosen = [r for r in runs.get(machine, []) if (r.scenario is not None) == scenario]
        if len(chosen) != 1:
            continue
        run = chosen[0]
        host = table.columns[claim.column].strip()
        solutions[run.solution].claims.append(
            (DraftClaim(claim.metric, claim.value, claim.unit, claim.line, claim.quote, qualifier=claim.qualifier,
                        run=run.label, host=host if run.over_hosts else None), where, None))
        placed_any = True
    return placed_any


_TABLE_NUMBER = deferred(r"^\s*table\s+[\w.-]+\s*[.:\-–—]\s*", re.IGNORECASE)
_LATENCIES = ("db_read_latency", "db_write_latency", "log_write_latency")


def scenario_host_runs(solutions: list[DraftSolution], document: ReportDocument, table: DocumentTable,
                       where: str) -> bool:
    """A table of its hosts' columns whose title names an abnormal state ("Scenario 2, controller failover:
    results per VM") that no report of those hosts was printed for: the test under that state exists only in
    the table, so each column is that host's run in it, and the columns added up the test over the hosts.
    The column's figures are judged on its own run. False (nothing added) when the title names no such
    state, or a report of one of its hosts already gives it (host_table_claims judges the table then)."""
    if SCENARIO.search(table.title or "") is None:
        return False
    runs = host_runs(solutions, document)
    machines = [" ".join(c.split()).casefold() for c in table.columns]
    if any(r.scenario is not None for m in machines for r in runs.get(m, [])):
        return False
    solution = solutions[0]
    scenario = _TABLE_NUMBER.sub("", " ".join(table.title.split())) or table.title
    taken = {run.label for run in solution.runs}
    claims = [c for c in table_claims(table) if c.column is not None and c.run is None]
    added = []
    for index, heading in enumerate(table.columns):
        own = [c for c in claims if c.column == index]
        rows = run_rows(table, index, None)
        for claim in own:  # its latencies too, as printed in milliseconds
            if claim.metric in _LATENCIES and claim.unit == "ms" and claim.metric not in rows:
                rows[claim.metric] = [next(r.label for r in table.rows if r.line == claim.line)]
        if not heading.strip() or ("achieved_iops" not in rows and "total_iops" not in rows):
            continue
        label = f"{heading.strip()}, {scenario}"
        if label in taken:
            continue
        taken.add(label)
        added.append(DraftRun(label, line=table.line, table=table, column=heading, rows=rows, scenario=scenario,
                              description=f"{heading.strip()}'s column of {where}, under the state its title names"))
        solution.claims.extend((replace(c, run=label), where, None) for c in own)
    if not added:
        return False
    solution.runs.extend(added)
    over_hosts = host_table_run(table, where, taken)
    if over_hosts is not None:
        over_hosts.scenario = scenario
        solution.runs.append(over_hosts)
    return True


def _claim(figure: re.Match[str], text: str, bare: str) -> DraftClaim:
    if figure["latency"]:
        words = " ".join(figure["latency"].casefold().split())
        metric = "log_write_latency" if words.startswith("log") else \
            "db_write_latency" if words.endswith("write") else "db_read_latency"
        return DraftClaim(metric, figure["value"], "ms", 0, text)
    kind = (figure["kind"] or "").strip().casefold()
    iops = "total" if kind == "total" else "achieved" if kind in ("achieved", "transactional") else \
        paragraph_iops(text, figure.start(), bare)
    return DraftClaim(f"{iops}_iops", figure["iops"], "IOPS", 0, text)
