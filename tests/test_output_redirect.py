"""Issue 26: a table written to a pipe or a file keeps every value: each canned query's redirected
table, cell by cell, against its JSON."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from esrpdb.queries import canned


def _esrpdb(url: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"} | {"COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _table_rows(shown: str) -> tuple[list[str], list[list[str]]]:
    """Header and body cells of a box-drawn table (one line a row: piped, nothing wraps), or of the
    record blocks a table too wide for a line is written as ("-- row N --", then `header  value` lines)."""
    if "\n-- row 1 --\n" in f"\n{shown}":
        return _record_rows(shown)
    header = next(line for line in shown.splitlines() if line.startswith("┃"))
    body = [line for line in shown.splitlines() if line.startswith("│")]
    cells = [[cell.strip() for cell in line.strip("│").split("│")] for line in body]
    return [cell.strip() for cell in header.strip("┃").split("┃")], cells


def _record_rows(shown: str) -> tuple[list[str], list[list[str]]]:
    blocks = [block.splitlines()[1:] for block in shown.split("-- row ")[1:]]
    width = max(len(line.split("  ", 1)[0]) for line in blocks[0])  # headers are padded to one width
    header = [line[:width].strip() for line in blocks[0]]
    return header, [[line[width + 2 :] for line in block] for block in blocks]


def test_piped_tables_keep_lines_readable(seed_catalog_url):
    """Piped, a table row fits a readable line (a wider table is written one record per block: a line
    is then one value, however long that value is), and no title is centred in a wide line."""
    from esrpdb.cli.terminal_table import PIPED_MAX_WIDTH

    for args in (("audit",), ("solutions",), ("query", "--list"), ("runs",)):
        lines = _esrpdb(seed_catalog_url, *args).splitlines()
        boxed = [line for line in lines if line[:1] in "┏┃┡│└"]
        assert all(len(line) <= PIPED_MAX_WIDTH for line in boxed), args
        assert boxed or "-- row 1 --" in lines, args
        assert not lines[0].startswith(" "), args


def _same(cell: str, value) -> bool:
    if value is None:
        return cell == ""
    if isinstance(value, bool):
        return cell == str(value)
    if isinstance(value, int):
        return cell == str(value)
    if isinstance(value, float):
        return math.isclose(float(cell), value, rel_tol=5e-6, abs_tol=5e-6)  # six significant digits shown
    return cell == value or cell.replace(" ", "T", 1) == value  # a timestamp: ISO in JSON, spaced in a table


@pytest.mark.parametrize("name", sorted(canned.all_queries()))
def test_every_value_of_a_canned_query_survives_redirection(seed_catalog_url, name):
    records = json.loads(_esrpdb(seed_catalog_url, "query", name, "--format", "json"))
    shown = _esrpdb(seed_catalog_url, "query", name)
    if not records:
        assert "(no rows)" in shown
        return
    header, rows = _table_rows(shown)
    assert len(header) == len(records[0]) and len(rows) == len(records)
    for row, record in zip(rows, records):
        assert len(row) == len(record), row
        for cell, (column, value) in zip(row, record.items()):
            assert _same(cell, value), (name, column, cell, value)
