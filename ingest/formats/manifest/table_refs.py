"""The `[runs.table]` and `[runs.figures]` half of manifest validation: a run's figures read from a
document table, by its caption, its column (or its hosts' columns) and its rows' labels.

Split from the manifest checker as the claims are: a table reference has rules of its own (which
row fields a report run may take, a latency row's unit, one column or the hosts' columns).
"""

from __future__ import annotations

from typing import Any

from ....schema.units import LATENCY_UNITS
from .records import FIGURE_ROW_FIELDS, LATENCY_ROW_FIELDS, TABLE_ROW_FIELDS, TableRef
from .toml_checker import TomlChecker

TABLE_KEYS = ("document", "title", "column", "columns", *TABLE_ROW_FIELDS, "latency_unit")
FIGURES_KEYS = ("document", "title", "column", *FIGURE_ROW_FIELDS)


class TableRefChecker(TomlChecker):
    """Reads a run's table reference into a `TableRef`; the manifest checker builds on it."""

    def table_ref(self, run: dict[str, Any], path: str, key: str, row_fields: tuple[str, ...]) -> TableRef | None:
        """`[runs.table]` (a run's figures) or `[runs.figures]` (what its report cannot hold) from a document table."""
        where = f"{path}.{key}"
        table = self.table(run, key, where)
        if table is None:
            return None
        if row_fields is FIGURE_ROW_FIELDS:
            for field in TABLE_ROW_FIELDS:
                if field in table and field not in row_fields:
                    self.problem(f"{where}.{field}", "the run's report gives this; record the table's value as a "
                                 f"claim on the run (figures take only {', '.join(row_fields)})")
            self.known_keys(table, where, FIGURES_KEYS + tuple(f for f in TABLE_ROW_FIELDS if f not in row_fields))
        else:
            self.known_keys(table, where, TABLE_KEYS)
        document = self.path(table, "document", where, required=True)
        title = self.string(table, "title", where, required=True)
        columns = self.host_columns(table, where) if key == "table" else ()
        column = "" if columns else self.string(table, "column", where, required="columns" not in table)
        rows = {field: self.labels(table, field, where) for field in row_fields}
        if not any(field in table for field in row_fields):
            self.problem(where, f"name at least one row: {', '.join(row_fields)}")
        latency_unit = self.string(table, "latency_unit", where, choices=LATENCY_UNITS) if key == "table" else None
        if key == "table" and "latency_unit" not in table and any(field in table for field in LATENCY_ROW_FIELDS):
            self.problem(f"{where}.latency_unit", f"required with a latency row: {', '.join(LATENCY_UNITS)}, as printed")
        if document is None or title is None or column is None or (column == "" and not columns):
            return None
        return TableRef(document=document, title=title, column=column, columns=columns, latency_unit=latency_unit,
                        **rows)

    def host_columns(self, table: dict[str, Any], where: str) -> tuple[str, ...]:
        """`columns`: two or more distinct column headings, the hosts of one test; never with `column`."""
        if "columns" not in table:
            return ()
        if "column" in table:
            self.problem(f"{where}.columns", "give `column` (one run's column) or `columns` (the hosts' columns of "
                                             "one test, added up), not both")
            return ()
        value = table["columns"]
        if not isinstance(value, list) or len(value) < 2 or not all(isinstance(c, str) and c.strip() for c in value):
            self.problem(f"{where}.columns", "expected an array of two or more column headings, as printed")
            return ()
        if len(set(value)) != len(value):
            self.problem(f"{where}.columns", "a column is named twice")
            return ()
        return tuple(value)

