"""One value's size bounded as the rows are: measured on the server, so an oversized one is never sent.

A row cap alone does not bound memory: one `repeat('x', 300000000)` is 300 MB in one row, and many
times that once printed. A plain query is run inside a wrapper that measures every value as text
(`octet_length(value::text)`, what printing it takes) and sends a value only when it is within
MAX_VALUE_BYTES; the sizes come along in one extra column, so the reader can name the column of a
value over the limit, and stop when the rows read reach MAX_RESULT_BYTES, whatever --max-rows says.
Statements that cannot stand in a subquery (EXPLAIN, SHOW) are bounded by their text's loader instead.
"""

from __future__ import annotations

from typing import Any

MAX_VALUE_BYTES = 16 * 2**20  # a document's whole text fits; printed, a value takes several times this
MAX_RESULT_BYTES = 64 * 2**20  # all rows' values together: a few hundred MB once printed as a table
SIZES_COLUMN = "esrpdb value bytes"


class ValueTooWide(Exception):
    """A value over MAX_VALUE_BYTES; the message names its column and the limit."""


def mb(size: int) -> str:
    """Bytes as MB (2^20) with one decimal where it says something: '16 MB', '286.1 MB'."""
    return f"{size / 2**20:,.1f}".removesuffix(".0") + " MB"


def too_wide(column: str, row_number: int, size: int, limit: int = MAX_VALUE_BYTES) -> ValueTooWide:
    return ValueTooWide(
        f"column {column!r} holds a value of {mb(size)} in row {row_number:,}; `esrpdb sql` prints values up to "
        f"{mb(limit)}: select a part of it (left({column}, 1000)) or its size (octet_length({column}))")


def column_probe(text: str) -> str:
    """The statement's columns (names and count) without running it: LIMIT 0 reads no row."""
    return f"SELECT * FROM (\n{text}\n) AS esrpdb_q LIMIT 0"


def measured(text: str, columns: list[str], limit: int = MAX_VALUE_BYTES):
    """The statement with each value sent only within `limit`, and every value's size in a last column."""
    from psycopg import sql

    inner = [sql.Identifier(f"c{i}") for i in range(len(columns))]
    values = sql.SQL(", ").join(
        sql.SQL("CASE WHEN esrpdb_w.n[{}] <= {} THEN esrpdb_q.{} END AS {}").format(
            sql.Literal(i + 1), sql.Literal(limit), column, sql.Identifier(name))
        for i, (column, name) in enumerate(zip(inner, columns)))
    sizes = sql.SQL(", ").join(sql.SQL("octet_length(esrpdb_q.{}::text)").format(c) for c in inner)
    return sql.SQL("SELECT {values}, esrpdb_w.n AS {sizes_column}\nFROM (\n{statement}\n) AS esrpdb_q ({inner})\n"
                   "CROSS JOIN LATERAL (SELECT ARRAY[{sizes}] AS n) AS esrpdb_w").format(
        values=values, sizes_column=sql.Identifier(SIZES_COLUMN), statement=sql.SQL(text),  # noqa: S608 - the
        inner=sql.SQL(", ").join(inner), sizes=sizes)  # statement is the user's own, checked and read-only


def row_bytes(row: tuple[Any, ...], columns: list[str], row_number: int, limit: int = MAX_VALUE_BYTES) -> int:
    """The row's size as text (its last element, the sizes); ValueTooWide for a value over `limit`."""
    sizes = row[-1] or []
    for column, size in zip(columns, sizes):
        if size is not None and size > limit:
            raise too_wide(column, row_number, size, limit)
    return sum(size for size in sizes if size is not None)


def capped_text_loaders(conn_or_cursor, limit: int = MAX_VALUE_BYTES) -> None:
    """Text, JSON and XML values over `limit` raise ValueTooWide instead of being decoded (EXPLAIN, SHOW)."""
    from psycopg.types.string import TextLoader

    class Capped(TextLoader):
        def load(self, data):  # noqa: ANN001 - psycopg's Buffer
            if len(data) > limit:
                raise ValueTooWide(f"the statement's output holds a value of {mb(len(data))}; `esrpdb sql` prints "
                                   f"values up to {mb(limit)}")
            return super().load(data)

    for type_name in ("text", "json", "xml", "varchar"):
        conn_or_cursor.adapters.register_loader(type_name, Capped)
