"""Claim-free checks over runs and solutions: verdicts, ingest-time warnings, capacities.

These need no manifest claim: every report run's Pass/Fail is recomputed from its stored
instances under the thresholds of its Jetstress version (the rules of `ingest.jetstress.rules`), the
ingest-time consistency warnings are carried into the audit, and a solution's usable capacity is
checked against the raw capacity of its disks.
"""

from __future__ import annotations

import re

from ...ingest.jetstress.rules import DEFAULT_THRESHOLDS_MS, IOPS_MARGIN, MAX_AVERAGE_PAGE_FAULT_STALLS
from ...schema.units import size_factor
from ...schema.vocabulary import (
    REPORT_CHECKS as WARNING_CHECKS,
    REPORT_SEEN_TWICE as SEEN_TWICE,
    TRANSACTIONAL_REPORT_TYPES,
    UNATTRIBUTED_CLAIM as UNATTRIBUTED,
    VERDICT_VS_THRESHOLDS,
)
from ..gather import AuditData, RunInfo
from ..terms import MATCH, MISMATCH, UNATTRIBUTED as UNATTRIBUTED_VERDICT, fmt
from .finding import Finding, evidence
from .naming import naming_findings
from .stated_twice import stated_twice_findings
from .table_ranges import table_range_findings

_LINE = re.compile(r"^line (\d+):")
GB = size_factor("GB", "binary")  # usable capacity is stated in GB of 2^30 bytes
VENDOR_GB = size_factor("GB", "decimal")  # disk vendors' GB, which raw capacity is printed in


def _finding(data: AuditData, **fields) -> Finding:
    file_id = fields.pop("file_id")
    fields.setdefault("other_solution", None)
    fields.setdefault("relative_difference", None)
    fields.setdefault("quote", None)
    return Finding(**fields, **evidence(data, file_id))


def run_checks(data: AuditData) -> list:
    return (verdict_findings(data) + warning_findings(data) + capacity_findings(data) + unattributed_findings(data)
            + naming_findings(data) + stated_twice_findings(data) + table_range_findings(data))


_PRINTED = re.compile(r'^line \d+: "([^"]*)"')
_SENTENCE = re.compile(r' in "(.+)"; not judged$')  # the words the figure is printed in (ingest/draft/systems.py)


def unattributed_findings(data: AuditData) -> list:
    """Published figures a document's words give to no system it tests (or compare with none): listed as
    unattributed, with why, never judged against a system they might not be about."""
    out = []
    for warning in data.warnings:
        if warning["check_name"] != UNATTRIBUTED:
            continue
        line, printed = _LINE.match(warning["message"]), _PRINTED.match(warning["message"])
        sentence = _SENTENCE.search(warning["message"])
        out.append(_finding(data, solution=None, kind="unattributed", metric="claim",
                            verdict=UNATTRIBUTED_VERDICT,
                            printed=printed.group(1) if printed else None, recomputed=None,
                            explanation=f"Not attributed: {warning['message']}.", inputs={},
                            file_id=warning["source_file_id"], place="text",
                            line=int(line.group(1)) if line else None, quote=sentence.group(1) if sentence else None))
    return out


def report_runs(data: AuditData) -> list[tuple[RunInfo, int | None]]:
    """Report runs with the solution they belong to; a document's copy of a report counts once."""
    out = []
    for run in sorted(data.runs.values(), key=lambda r: r.id):
        if run.origin != "report":
            continue
        solution_id = data.twin_solution(run)
        if run.solution_id is None and solution_id is not None:
            continue  # the same test, ingested as its own report file, is checked there
        out.append((run, solution_id))
    return out


def recompute_verdict(run: RunInfo) -> tuple[str, list[str], dict] | None:
    """Pass/Fail from the run's own instances and its version's thresholds (DESIGN: Pass and fail)."""
    if run.report_type not in TRANSACTIONAL_REPORT_TYPES or run.release is None or not run.instances:
        return None
    limits = dict(DEFAULT_THRESHOLDS_MS.get(run.release, DEFAULT_THRESHOLDS_MS[2013]))
    for key, column in (("db_read_avg", "threshold_db_read_avg_ms"), ("log_write_avg", "threshold_log_write_avg_ms")):
        if run.row.get(column) is not None:
            limits[key] = run.row[column]
    reads = [(i.name, i.values["db_read_latency_ms"]) for i in run.instances
             if i.volume_role in (None, "database") and i.values.get("db_read_latency_ms") is not None]
    writes = [(i.name, i.values["log_write_latency_ms"]) for i in run.instances
              if i.volume_role in (None, "log") and i.values.get("log_write_latency_ms") is not None]
    reasons = [f"{name} database read latency {fmt(v)} ms > {fmt(limits['db_read_avg'])} ms" for name, v in reads
               if v > limits["db_read_avg"]]
    reasons += [f"{name} log write latency {fmt(v)} ms > {fmt(limits['log_write_avg'])} ms" for name, v in writes
                if v > limits["log_write_avg"]]
    achieved, target = run.row.get("achieved_iops"), run.row.get("target_iops")
    margin = (achieved / target - 1) * 100 if achieved is not None and target else None
    stalls = next((v for k, v in run.counters.items() if "page fault stalls" in k), None)
    if run.release >= 2013:
        if margin is not None and margin < -IOPS_MARGIN * 100:
            reasons.append(f"achieved {fmt(achieved)} IOPS is {fmt(-margin)}% below the target {fmt(target)} "
                           f"(at most {IOPS_MARGIN:.0%} allowed)")
        if stalls is not None and stalls > MAX_AVERAGE_PAGE_FAULT_STALLS:
            reasons.append(f"average database page fault stalls/sec {fmt(stalls)} > {MAX_AVERAGE_PAGE_FAULT_STALLS:g}")
    inputs = {"jetstress_release": run.release, "db_read_avg_limit_ms": limits["db_read_avg"],
              "log_write_avg_limit_ms": limits["log_write_avg"],
              "max_db_read_latency_ms": max((v for _, v in reads), default=None),
              "max_log_write_latency_ms": max((v for _, v in writes), default=None),
              "achieved_iops": achieved, "target_iops": target, "iops_margin_percent": margin}
    return ("Fail" if reasons else "Pass"), reasons, inputs


def verdict_findings(data: AuditData) -> list:
    ingest = {(w["run_id"], w["check_name"]): w["message"] for w in data.warnings}
    out = []
    for run, solution_id in report_runs(data):
        result = recompute_verdict(run)
        if result is None or run.reported_verdict is None:
            continue
        verdict, reasons, inputs = result
        explanation = (f"The report says {run.reported_verdict}; under {_rules(run, inputs)} its own numbers give "
                       f"{verdict} ({_seen(inputs)}; {'; '.join(reasons) if reasons else 'every limit is met'})")
        warned = ingest.get((run.id, VERDICT_VS_THRESHOLDS))
        agree = verdict == run.reported_verdict and warned is None
        explanation += f"; at ingest: {warned}." if warned else "."
        out.append(_finding(data, solution=data.solution_key(solution_id), kind=VERDICT_VS_THRESHOLDS,
                            metric="verdict", verdict=MATCH if agree else MISMATCH, printed=run.reported_verdict,
                            recomputed=None, explanation=explanation,
                            inputs={"run": run.name, "recomputed_verdict": verdict, **inputs},
                            file_id=run.source_file_id, place=f"{run.report_type} report, Test Summary ({run.name})",
                            line=run.verdict_line or run.source_line))
    return out


def _rules(run: RunInfo, inputs: dict) -> str:
    iops = f", achieved IOPS at most {IOPS_MARGIN:.0%} below target" if run.release >= 2013 else ""
    return (f"Jetstress {run.release} thresholds (average database read <= {fmt(inputs['db_read_avg_limit_ms'])} ms, "
            f"log write <= {fmt(inputs['log_write_avg_limit_ms'])} ms{iops})")


def _seen(inputs: dict) -> str:
    seen = (f"highest read {fmt(inputs['max_db_read_latency_ms'] or 0)} ms, "
            f"log write {fmt(inputs['max_log_write_latency_ms'] or 0)} ms")
    if inputs["iops_margin_percent"] is not None:
        seen += (f", achieved {fmt(inputs['achieved_iops'])} vs target {fmt(inputs['target_iops'])} IOPS "
                 f"(IOPS margin {inputs['iops_margin_percent']:+.1f}%)")
    return seen


def warning_findings(data: AuditData) -> list:
    """Ingest-time checks that found a report disagreeing with itself (verdicts are handled above)."""
    out, seen = [], set()
    for warning in data.warnings:
        if warning["check_name"] not in (*WARNING_CHECKS[:2], SEEN_TWICE):
            continue
        run = data.runs.get(warning["run_id"])
        solution_id = data.twin_solution(run) if run else None
        key = (solution_id, warning["check_name"], warning["message"])
        if key in seen:
            continue
        seen.add(key)
        line = _LINE.match(warning["message"])
        out.append(_finding(data, solution=data.solution_key(solution_id), kind=warning["check_name"],
                            metric=warning["check_name"].split("_vs_")[0], verdict=MISMATCH, printed=None,
                            recomputed=None, explanation=f"At ingest: {warning['message']}.",
                            inputs={"run": run.name if run else None},
                            file_id=warning["source_file_id"], place=f"report of {run.name}" if run else "report",
                            line=int(line.group(1)) if line else (run.source_line if run else None)))
    return out


def capacity_findings(data: AuditData) -> list:
    """Usable capacity cannot exceed the raw capacity of the disks it is formatted on."""
    out = []
    for solution in sorted(data.solutions.values(), key=lambda s: s.key):
        groups = solution.disks
        if solution.usable_capacity_bytes is None or not groups or any(d.raw_capacity_bytes is None for d in groups):
            continue
        raw = sum(d.count * d.raw_capacity_bytes for d in groups)
        usable = solution.usable_capacity_bytes
        if usable <= raw:
            continue
        out.append(_finding(data, solution=solution.key, kind="usable_vs_raw_capacity", metric="usable_capacity",
                            verdict=MISMATCH, printed=fmt(usable / GB), recomputed=raw / GB,
                            relative_difference=(usable - raw) / raw, unit="GB",
                            explanation=(f"Usable capacity {usable:,} bytes ({fmt(usable / GB)} GB of 2^30 bytes) "
                                         f"exceeds the raw capacity of all {solution.disk_count('all')} disks, "
                                         f"{raw:,} bytes ({fmt(raw / VENDOR_GB)} GB of 10^9 bytes): the two figures use "
                                         f"different GB."),
                            inputs={"usable_capacity_bytes": usable, "raw_capacity_bytes": raw},
                            file_id=solution.manifest_file_id, place="solution manifest: [capacity] vs [[disks]]",
                            line=None))
    return out
