"""The schema keeps its promises: units in measure names, non-negative measures, SHA-256 keys."""

from __future__ import annotations

import pytest
from sqlalchemy import BigInteger, Float, Integer, Numeric, text
from sqlalchemy.exc import IntegrityError

from esrpdb.schema import Base
from esrpdb.schema.units import UNIT_SUFFIXES

# Numeric columns that are identifiers, counts or ordinals rather than measures.
NOT_MEASURES = {
    "id", "ordinal", "report_index", "source_line", "line", "column_index", "list_price_year",
    "thread_count", "log_buffers", "database_file_count", "copies_per_database", "disk_count",
    "jetstress_release", "log_files_replayed", "iops_bias",
}
# Measures whose unit is named by their table (host counters keep perfmon's own units).
UNIT_BY_CONTEXT = {("host_counters", "average"), ("host_counters", "minimum"), ("host_counters", "maximum"),
                   ("perf_samples", "value"), ("document_cells", "value_number"),
                   ("run_published_values", "value"), ("solution_facts", "value_number"),
                   ("perf_counter_means", "value_sum")}
# Tables that store a view's rows keep the view's column names (revision 0025: mailbox_class_ranks).
VIEW_ROWS = {"mailbox_class_rank_rows"}


def test_every_measure_column_names_its_unit():
    offenders = []
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            if table.name in VIEW_ROWS or not isinstance(column.type, (Float, Integer, Numeric, BigInteger)):
                continue
            if column.name in NOT_MEASURES or column.name.endswith(("_id", "_ordinal", "_count", "_line")) or (table.name, column.name) in UNIT_BY_CONTEXT:
                continue
            if not any(column.name.endswith(suffix) for suffix in UNIT_SUFFIXES):
                offenders.append(f"{table.name}.{column.name}")
    assert offenders == [], f"measure columns without a unit suffix: {offenders}"


def test_negative_iops_is_refused(catalog):
    with catalog.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
            "VALUES (repeat('a', 64), 'x', 'x', 'jetstress_html', '1', 1)"))
    with pytest.raises(IntegrityError, match="achieved_iops_non_negative"):
        with catalog.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO runs (source_file_id, report_type, achieved_iops) "
                "SELECT id, 'Performance', -1 FROM source_files"))


def test_sha256_is_unique_and_hex(catalog):
    insert = text(
        "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
        "VALUES (:sha, 'x', 'x', 'jetstress_html', '1', 1)")
    with catalog.engine.begin() as conn:
        conn.execute(insert, {"sha": "b" * 64})
    with pytest.raises(IntegrityError, match="uq_source_files_sha256"):
        with catalog.engine.begin() as conn:
            conn.execute(insert, {"sha": "b" * 64})
    with pytest.raises(IntegrityError, match="sha256_hex"):
        with catalog.engine.begin() as conn:
            conn.execute(insert, {"sha": "not-a-digest"})
