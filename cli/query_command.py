"""`esrpdb query NAME`: run a canned query (a view); `--list` shows them all."""

from __future__ import annotations

from typing import List, Optional

import typer

from . import completion
from .empty_hint import nothing_ingested
from .errors import fail, friendly_errors
from .listing_commands import COLUMNS_OPTION, FORMAT_OPTION
from .render import OutputFormat, render


def query(
    ctx: typer.Context,
    name: Optional[str] = typer.Argument(None, help="Canned query name, e.g. per-disk-iops.",
                                         autocompletion=completion.query_names),
    list_queries: bool = typer.Option(False, "--list", help="List the canned queries and exit."),
    param: List[str] = typer.Option([], "--param", "-p", help="Filter: column=value (repeatable)."),
    fmt: OutputFormat = FORMAT_OPTION,
    columns: Optional[List[str]] = COLUMNS_OPTION,
) -> None:
    """Run a canned query: per-disk IOPS, IOPS per dollar, MB per dollar, performance per watt, …"""
    from ..queries import canned

    if list_queries or name is None:
        rows = [(q.name, q.title, q.description) for q in canned.all_queries().values()]
        render(["name", "title", "description"], rows, fmt, title="Canned queries")
        return
    params = {}
    for item in param:
        if "=" not in item:
            fail(f"--param takes column=value, got {item!r}")
        key, value = item.split("=", 1)
        params[key.strip()] = value
    from ..db import quick

    with friendly_errors(ctx, canned.UnknownQuery, canned.BadParameter):
        canned.get(name)  # an unknown name fails before any connection
        conn = quick.reader_connection(ctx.obj.database_url, ctx.obj.reader_url)
        if conn is None:
            engine = ctx.obj.reader()
            empty = nothing_ingested(ctx, engine)
            result = canned.query(engine, name, {} if empty else params)
        else:
            with conn:
                empty = nothing_ingested(ctx, conn)
                result = canned.query_on(conn, name, {} if empty else params)
    if empty and fmt is OutputFormat.table:
        return  # the hint says what to run; csv and json still print their empty document
    render(result.columns, result.rows, fmt, title=canned.get(name).title, chosen=columns)


def register(app: typer.Typer) -> None:
    app.command("query")(query)
