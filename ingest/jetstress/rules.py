"""Jetstress's own rules for a report: its pass thresholds by release, and the sums it must add up to.

Pure functions over a parsed report, run by the loader as each report is written (`check_report`)
and read again by the audit (the thresholds and margins). A disagreement is not an error (vendors
publish such reports); it is stored as a warning (`ingest_warnings`) and picked up by the audit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...schema.units import latency_ms
from ...schema.vocabulary import (
    ACHIEVED_IOPS_VS_INSTANCES,
    ACHIEVED_SCOPES,
    INSTANCE_COUNT_VS_DATABASE_FILES,
    PARSER_WARNING,
    TRANSACTIONAL_REPORT_TYPES,
    VERDICT_VS_THRESHOLDS,
    IngestCheck,
)
from .normalise import jetstress_release
from .records import IoRow, JetstressReport

# Average-latency pass thresholds by release, in ms (DESIGN: Pass and fail).
DEFAULT_THRESHOLDS_MS = {
    2007: {"db_read_avg": 20.0, "log_write_avg": 10.0},
    2010: {"db_read_avg": 20.0, "log_write_avg": 10.0},
    2013: {"db_read_avg": 20.0, "log_write_avg": 10.0},
    2016: {"db_read_avg": 20.0, "log_write_avg": 10.0},
}
IOPS_MARGIN = 0.05  # 2013+: achieved may fall this far below target
MAX_AVERAGE_PAGE_FAULT_STALLS = 1.0  # 2013+


@dataclass(frozen=True)
class Finding:
    check_name: IngestCheck
    message: str


def _printed_tolerance(values_count: int, decimals: int = 3) -> float:
    """How far a sum of `values_count` numbers printed to `decimals` places can drift."""
    return values_count * 0.5 * 10 ** (-decimals)


def _database_rows(report: JetstressReport) -> list[IoRow]:
    for scope in ACHIEVED_SCOPES:
        tables = [t for t in report.io_tables if t.scope == scope]
        if tables:
            rows = [r for t in tables for r in t.rows]
            return [r for r in rows if r.volume_role in (None, "database")]
    return []


def achieved_iops_vs_instances(report: JetstressReport) -> list[Finding]:
    rows = _database_rows(report)
    if report.achieved_iops is None or not rows:
        return []
    parts = [v for r in rows for v in (r.db_reads_per_s, r.db_writes_per_s) if v is not None]
    total = sum(parts)
    tolerance = _printed_tolerance(len(parts)) + 0.01 + report.achieved_iops * 1e-4
    if abs(total - report.achieved_iops) <= tolerance:
        return []
    return [Finding(
        ACHIEVED_IOPS_VS_INSTANCES,
        f"achieved I/O per second {report.achieved_iops:g} but the {len(rows)} database rows "
        f"sum to {total:.3f} reads+writes/s (difference {total - report.achieved_iops:+.3f})",
    )]


def instance_count_vs_database_files(report: JetstressReport) -> list[Finding]:
    rows = _database_rows(report)
    names = {r.instance for r in rows} or {i.name for i in report.instances}
    if report.database_file_count is None or not names or report.report_type not in TRANSACTIONAL_REPORT_TYPES:
        return []
    if len(names) == report.database_file_count:
        return []
    return [Finding(
        INSTANCE_COUNT_VS_DATABASE_FILES,
        f"report says {report.database_file_count} database files but lists {len(names)} database instances/volumes",
    )]


def recomputed_verdict(report: JetstressReport) -> tuple[str | None, list[str]]:
    """The verdict the report's own numbers give under its version's rules, with reasons."""
    release = jetstress_release(report.jetstress_version, report.product_title)
    rows = _database_rows(report)
    if release is None or not rows or report.report_type not in TRANSACTIONAL_REPORT_TYPES:
        return None, []
    limits = dict(DEFAULT_THRESHOLDS_MS.get(release, DEFAULT_THRESHOLDS_MS[2013]))
    if report.thresholds is not None:
        announced = {
            "db_read_avg": latency_ms(report.thresholds.db_read_avg, report.thresholds.unit),
            "log_write_avg": latency_ms(report.thresholds.log_write_avg, report.thresholds.unit),
        }
        limits.update({k: v for k, v in announced.items() if v is not None})
    unit = next((t.latency_unit for t in report.io_tables if t.scope in ACHIEVED_SCOPES), "ms")
    reasons = []
    for row in rows:
        read_ms = latency_ms(row.db_read_latency, unit)
        if read_ms is not None and read_ms > limits["db_read_avg"]:
            reasons.append(f"{row.instance} database read latency {read_ms:g} ms > {limits['db_read_avg']:g} ms")
    log_rows = [r for t in report.io_tables if t.scope in ACHIEVED_SCOPES for r in t.rows
                if r.volume_role in (None, "log")]
    for row in log_rows:
        write_ms = latency_ms(row.log_write_latency, unit)
        if write_ms is not None and write_ms > limits["log_write_avg"]:
            reasons.append(f"{row.instance} log write latency {write_ms:g} ms > {limits['log_write_avg']:g} ms")
    if release >= 2013:
        if report.achieved_iops is not None and report.target_iops:
            floor = report.target_iops * (1 - IOPS_MARGIN)
            if report.achieved_iops < floor:
                reasons.append(f"achieved {report.achieved_iops:g} IOPS < target {report.target_iops:g} less {IOPS_MARGIN:.0%}")
        stalls = next((c.average for c in report.host_counters if "page fault stalls" in c.name.lower()), None)
        if stalls is not None and stalls > MAX_AVERAGE_PAGE_FAULT_STALLS:
            reasons.append(f"average database page fault stalls/sec {stalls:g} > {MAX_AVERAGE_PAGE_FAULT_STALLS:g}")
    return ("Fail" if reasons else "Pass"), reasons


def verdict_vs_thresholds(report: JetstressReport) -> list[Finding]:
    verdict, reasons = recomputed_verdict(report)
    if verdict is None or report.overall_result is None or verdict == report.overall_result:
        return []
    why = "; ".join(reasons) if reasons else "every average latency is within its threshold"
    return [Finding(
        VERDICT_VS_THRESHOLDS,
        f"report says {report.overall_result} but its own numbers give {verdict}: {why}",
    )]


CHECKS = (achieved_iops_vs_instances, instance_count_vs_database_files, verdict_vs_thresholds)


def check_report(report: JetstressReport) -> list[Finding]:
    findings = [Finding(PARSER_WARNING, w) for w in report.warnings]
    for check in CHECKS:
        findings.extend(check(report))
    return findings
