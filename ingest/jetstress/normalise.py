"""Stage two: records as printed -> rows in the catalogue's fixed units (ms, bytes, MB).

Pure functions; the loader only writes what these return.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ...schema.units import latency_ms
from .records import IoRow, IoTable, JetstressReport
from .vocabulary import release_from_title, release_from_version

_LATENCY_FIELDS = ("db_read_latency", "db_write_latency", "log_read_latency", "log_write_latency")
_PLAIN_FIELDS = tuple(
    f.name
    for f in fields(IoRow)
    if f.name not in _LATENCY_FIELDS and f.name not in ("instance", "volume_role", "line")
)


def jetstress_release(version: str | None, title: str | None = None) -> int | None:
    """The release analysts name a run by (2007, 2010, 2013, 2016): from the version, else the title."""
    release = release_from_version(version) or release_from_title(title)
    return int(release) if release else None


def run_values(report: JetstressReport) -> dict:
    """Columns of `runs` for one report (thresholds converted to milliseconds)."""
    thresholds = report.thresholds
    unit = thresholds.unit if thresholds else "ms"
    return {
        "report_type": report.report_type,
        "product_title": report.product_title,
        "source_line": report.source_line,
        "jetstress_version": report.jetstress_version,
        "jetstress_release": jetstress_release(report.jetstress_version, report.product_title),
        "ese_version": report.ese_version,
        "machine_name": report.machine_name,
        "test_description": report.test_description,
        "operating_system": report.operating_system,
        "test_start": report.test_start,
        "test_end": report.test_end,
        "collection_start": report.collection_start,
        "collection_end": report.collection_end,
        "performance_logs": list(report.performance_logs) or None,
        "reported_verdict": report.overall_result,
        "achieved_iops": report.achieved_iops,
        "target_iops": report.target_iops,
        "initial_database_bytes": report.initial_database_bytes,
        "final_database_bytes": report.final_database_bytes,
        "database_file_count": report.database_file_count,
        "thread_count": report.thread_count,
        "thread_scope": report.thread_scope,
        "log_buffers": report.log_buffers,
        "min_database_cache_mb": report.min_database_cache_mb,
        "max_database_cache_mb": report.max_database_cache_mb,
        "insert_percent": report.insert_percent,
        "delete_percent": report.delete_percent,
        "replace_percent": report.replace_percent,
        "read_percent": report.read_percent,
        "lazy_commit_percent": report.lazy_commit_percent,
        "background_maintenance": report.background_maintenance,
        "copies_per_database": report.copies_per_database,
        "threshold_db_read_avg_ms": latency_ms(thresholds.db_read_avg, unit) if thresholds else None,
        "threshold_db_read_max_ms": latency_ms(thresholds.db_read_max, unit) if thresholds else None,
        "threshold_log_write_avg_ms": latency_ms(thresholds.log_write_avg, unit) if thresholds else None,
        "threshold_log_write_max_ms": latency_ms(thresholds.log_write_max, unit) if thresholds else None,
    }


def latency_values(table: IoTable, row: IoRow) -> dict:
    """Columns of `latencies` for one row, latencies in ms, the printed unit kept as provenance."""
    values: dict[str, Any] = {f"{name}_ms": latency_ms(getattr(row, name), table.latency_unit) for name in _LATENCY_FIELDS}
    values.update({name: getattr(row, name) for name in _PLAIN_FIELDS})
    values["scope"] = table.scope
    values["source_latency_unit"] = table.latency_unit
    values["source_line"] = row.line
    return values


def instance_names(report: JetstressReport) -> list[str]:
    """Every instance or volume the report mentions, in first-seen order."""
    seen: dict[str, None] = {}
    for instance in report.instances:
        seen.setdefault(instance.name, None)
    for table in report.io_tables:
        for row in table.rows:
            seen.setdefault(row.instance, None)
    entry: Any
    for entry in (*report.backup_rows, *report.recovery_rows, *report.checksum_rows):
        seen.setdefault(entry.instance, None)
    return list(seen)
