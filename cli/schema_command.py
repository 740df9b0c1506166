"""`esrpdb schema [NAME]`: the tables and views with what they hold; NAME's columns, types, keys and units."""

from __future__ import annotations

from typing import Optional

import typer

from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo


def schema(
    ctx: typer.Context,
    name: Optional[str] = typer.Argument(None, help="A table or view (runs, per_disk_iops or per-disk-iops)."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """List the tables and views with what each holds; with NAME, its columns, types, keys and comments."""
    from ..db import quick
    from ..queries import describe

    with friendly_errors(ctx, describe.UnknownRelation):
        conn = quick.reader_connection(ctx.obj.database_url, ctx.obj.reader_url)
        if conn is None:
            relations = describe.schema(ctx.obj.reader(), name)
        else:
            with conn:
                relations = describe.schema_on(conn, name)
    if name is None:
        render(["name", "kind", "comment"], [(r.name, r.kind, r.comment) for r in relations], fmt,
               title="Tables and views (esrpdb schema NAME for the columns)")
        return
    relation = relations[0]
    rows = [(c.name, c.type, c.key, c.comment) for c in relation.columns]
    if fmt is OutputFormat.table:
        echo(f"{relation.kind} {relation.name}: {relation.comment or '(no comment)'}")
    render(["column", "type", "key", "comment"], rows, fmt)


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)
