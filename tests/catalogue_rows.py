"""Every table's rows of a catalogue, ids and stamps aside: how the equivalence tests say two ingests wrote
the same catalogue (tests/test_speed_equivalence.py, tests/test_core_tables.py)."""

from __future__ import annotations

from sqlalchemy import text

from esrpdb.schema import Base
from tests.helpers import sort_key

IDS = ("id", "created_at", "ingested_at", "loaded_at")  # numbered or stamped by the database, not read


def catalogue_rows(engine) -> dict[str, list[tuple]]:
    """Every table's rows, without the columns the database numbers or stamps, in a stable order."""
    out = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            columns = [c.name for c in table.columns if c.name not in IDS and not c.name.endswith("_id")]
            rows = conn.execute(text(f'SELECT {", ".join(columns)} FROM "{table.name}"')) if columns else []
            out[table.name] = sorted((tuple(_stable(v) for v in r) for r in rows), key=sort_key)
    return out


def _stable(value):
    """A float to 12 significant digits: a stored average adds its rows in the order they were written, and
    the two paths write a report's instances in different orders (6.803 vs 6.802999999999999)."""
    return float(f"{value:.12g}") if isinstance(value, float) else value
