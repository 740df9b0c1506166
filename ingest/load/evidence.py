"""Write test configs, text logs, perfmon exports and power logs. Caller owns the transaction.

Perfmon samples go through PostgreSQL COPY straight from the streaming reader, so a 1 GB
export never sits in memory; a parse error mid-stream aborts the file's transaction.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from decimal import Decimal
from typing import Any, BinaryIO, Callable

from sqlalchemy import insert
from sqlalchemy.orm import Session

from ...db.sessions import driver_connection
from ...schema import (
    ConfigInstance,
    ConfigThreshold,
    PerfCounter,
    PerfFile,
    PowerFile,
    TestConfig,
    TestLog,
    TestLogEvent,
)
from ...schema.units import latency_ms
from ..formats.config.records import JetstressConfig
from ..formats.log import JetstressLog
from ..formats.perfmon import open_perfmon
from ..formats.power import PowerLog
from ..inspect import json_default
from . import progress
from .rows import copy_rows


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (datetime, date, Decimal)):
        return json_default(value)
    return value


def load_config(session: Session, source_file_id: int, config: JetstressConfig) -> list[str]:
    design, profile = config.test_design, config.profile
    session.execute(insert(TestConfig).values(
        source_file_id=source_file_id,
        jetstress_version=config.jetstress_version,
        ese_version=config.ese_version,
        test_type=design.test_type,
        description=design.description,
        duration_iso=design.duration_iso,
        duration_s=design.duration_s,
        thread_count=profile.thread_count,
        mailbox_count=profile.mailbox_count,
        mailbox_quota_mb=profile.mailbox_quota_mb,
        iops_per_mailbox=profile.iops_per_mailbox,
        iops_margin_percent=profile.iops_margin_fraction * 100 if profile.iops_margin_fraction is not None else None,
        database_copy_count=profile.database_copy_count,
        database_count=len(profile.ese_instances),
        target_iops=profile.target_iops,
        log_interval_ms=design.log_interval_ms,
        settings=_jsonable(config),
    ))
    instances = [
        {"source_file_id": source_file_id, "ordinal": n, "iops_bias": i.iops_bias,
         "database_paths": list(i.database_paths), "log_path": i.log_path,
         "database_backup_path": i.database_backup_path}
        for n, i in enumerate(profile.ese_instances, 1)
    ]
    if instances:
        session.execute(insert(ConfigInstance), instances)
    thresholds = [
        {"source_file_id": source_file_id, "name": t.name or f"unnamed {n}", "test_run_types": list(t.test_run_types),
         "db_read_avg_ms": t.db_read_avg_ms, "db_read_max_ms": t.db_read_max_ms,
         "log_write_avg_ms": t.log_write_avg_ms, "log_write_max_ms": t.log_write_max_ms}
        for n, t in enumerate(design.thresholds, 1)
    ]
    if thresholds:
        session.execute(insert(ConfigThreshold), thresholds)
    return []


def load_log(session: Session, source_file_id: int, log: JetstressLog) -> list[str]:
    stamps = [e.logged_at for e in log.events if e.logged_at is not None]
    t = log.thresholds
    unit = t.unit if t else "ms"
    session.execute(insert(TestLog).values(
        source_file_id=source_file_id,
        first_event_at=min(stamps) if stamps else None,
        last_event_at=max(stamps) if stamps else None,
        event_count=len(log.events),
        threshold_db_read_avg_ms=latency_ms(t.db_read_avg, unit) if t else None,
        threshold_db_read_max_ms=latency_ms(t.db_read_max, unit) if t else None,
        threshold_log_write_avg_ms=latency_ms(t.log_write_avg, unit) if t else None,
        threshold_log_write_max_ms=latency_ms(t.log_write_max, unit) if t else None,
    ))
    session.execute(insert(TestLogEvent), [
        {"source_file_id": source_file_id, "ordinal": n, "logged_at": e.logged_at, "message": e.message,
         "source_line": e.line}
        for n, e in enumerate(log.events, 1)
    ])
    return []


def load_power(session: Session, source_file_id: int, power: PowerLog) -> list[str]:
    samples = [s for s in power.samples]
    session.execute(insert(PowerFile).values(
        source_file_id=source_file_id, first_sample_at=power.start, last_sample_at=power.end,
        sample_count=len(samples),
    ))
    seen: set[datetime] = set()
    rows, duplicates = [], 0
    for sample in samples:
        stamp = sample.timestamp.replace(tzinfo=None)
        if stamp in seen:
            duplicates += 1
            continue
        seen.add(stamp)
        rows.append((source_file_id, stamp, sample.watts))
    copy_rows(session, "power_samples", ("source_file_id", "sampled_at", "power_w"), rows,
              binary_types=["int4", "timestamp", "float8"])
    return [f"{duplicates} samples repeat an earlier timestamp and were left out"] if duplicates else []


def load_perfmon(session: Session, source_file_id: int, name: str, stream: BinaryIO, *,
                 opener: Callable = open_perfmon) -> list[str]:
    """Stream a perfmon export (or, with perfmon_blg's opener, a .blg) into perf_counters / perf_samples (COPY)."""
    report = progress.reporter(name, stream)
    with opener(name, stream) as reader:
        counters = [
            {"source_file_id": source_file_id, "column_index": n, "machine": c.machine, "object_name": c.object,
             "instance_name": c.instance, "counter_name": c.counter, "counter_path": str(c)}
            for n, c in enumerate(reader.columns)
        ]
        counter_ids = ([cid for (cid,) in session.execute(insert(PerfCounter).returning(PerfCounter.id), counters)]
                       if counters else [])
        machines = {c.machine for c in reader.columns if c.machine}
        first = last = None
        rows = 0
        raw = driver_connection(session)
        with raw.cursor() as cursor:
            with cursor.copy(
                "COPY perf_samples (source_file_id, counter_id, sampled_at, value) FROM STDIN (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int4", "int4", "timestamptz", "float8"])
                for stamp, values in reader:
                    first = first or stamp
                    last = stamp
                    rows += 1
                    if rows % progress.ROWS_BETWEEN_REPORTS == 0:
                        report(rows)
                    for counter_id, value in zip(counter_ids, values):
                        copy.write_row((source_file_id, counter_id, stamp, value))
        header = reader.header
    report(rows)
    session.execute(insert(PerfFile).values(
        source_file_id=source_file_id,
        machine=next(iter(machines)) if len(machines) == 1 else None,
        time_zone_name=header.time_zone_name,
        bias_minutes=header.bias_minutes,
        assumed_utc=header.assumed_utc,
        first_sample_at=first,
        last_sample_at=last,
        row_count=rows,
    ))
    warnings = list(getattr(reader, "warnings", ()))
    if len(machines) > 1:
        warnings.append(f"counters from {len(machines)} machines ({', '.join(sorted(machines))}); not linked by machine")
    if header.assumed_utc:
        warnings.append("the banner gives no time zone; timestamps were taken as UTC")
    return warnings
