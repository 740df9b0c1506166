"""What the class-rank tests share (revisions 0024 and 0025): a query's rows in a stable order, one
solution's mailbox_class_ranks_of rows beside the view's, and a class written with ties, missing figures
and NaN."""

from __future__ import annotations

import math

from sqlalchemy import text

from tests.helpers import sort_key


def sorted_rows(conn, sql: str, **params) -> tuple[list[str], list[tuple]]:
    """Columns and rows in a stable order; a NaN as the word, so that two equal rows compare equal."""
    result = conn.execute(text(sql), params)
    rows = (tuple("NaN" if isinstance(v, float) and math.isnan(v) else v for v in row) for row in result)
    return list(result.keys()), sorted(rows, key=sort_key)


def one_solution_and_view(conn) -> dict[str, tuple[list, list]]:
    """For every solution: mailbox_class_ranks_of(key)'s rows, and the view's rows of that solution."""
    columns, everything = sorted_rows(conn, "SELECT * FROM mailbox_class_ranks")
    at = columns.index("solution")
    out = {}
    for (key,) in conn.execute(text("SELECT key FROM solutions ORDER BY key")).all():
        mine_columns, mine = sorted_rows(conn, "SELECT * FROM mailbox_class_ranks_of(:k)", k=key)
        assert mine_columns == columns
        out[key] = (mine, [row for row in everything if row[at] == key])
    return out


def write_ties_nulls_and_nan(conn) -> list[str]:
    """In one class: two solutions tied, one without a total and a NaN latency, one with a NaN total and
    neither latency nor report type; their keys, in that order (the caller rolls back)."""
    keys = [k for (k,) in conn.execute(text(
        "SELECT solution FROM solution_designs WHERE mailbox_count BETWEEN 5001 AND 10000 ORDER BY solution"))]
    assert len(keys) >= 4
    conn.execute(text("UPDATE solution_designs SET total_iops = 5000, db_read_latency_ms = 12.5 "
                      "WHERE solution = ANY(:k)"), {"k": keys[:2]})
    conn.execute(text("UPDATE solution_designs SET total_iops = NULL, db_read_latency_ms = 'NaN' "
                      "WHERE solution = :k"), {"k": keys[2]})
    conn.execute(text("UPDATE solution_designs SET total_iops = 'NaN', db_read_latency_ms = NULL, "
                      "report_type = NULL WHERE solution = :k"), {"k": keys[3]})
    return keys
