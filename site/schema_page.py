"""schema.html: the tables and views an analyst queries, with their columns, types, keys to join on and
the catalogue's own comments — the same `queries.describe.schema` that `esrpdb schema` prints, read
as the role the site is built with, so the page shows what that role may select."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from ..queries.describe import schema


def schema_page(engine: Engine) -> dict[str, Any]:
    """The template's context: views first (the canned queries), then tables, each with its columns."""
    relations = schema(engine)
    return {"views": [r for r in relations if r.kind == "view"],
            "tables": [r for r in relations if r.kind == "table"]}
