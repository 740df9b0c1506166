"""`esrpdb sql "select …"`: read-only ad-hoc SQL."""

from __future__ import annotations

import typer

from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render

DEFAULT_TIMEOUT_S = 30.0  # queries.adhoc.DEFAULT_TIMEOUT_S, without importing psycopg for --help


def sql(
    ctx: typer.Context,
    statement: str = typer.Argument(..., help="One SQL statement; it runs in a read-only transaction."),
    timeout_s: float = typer.Option(DEFAULT_TIMEOUT_S, "--timeout", help="Statement timeout in seconds."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Run one read-only SQL statement against the catalogue."""
    from ..db import quick
    from ..queries import adhoc

    with friendly_errors(ctx, adhoc.SqlRefused):
        conn = quick.reader_connection(ctx.obj.database_url, ctx.obj.reader_url)
        if conn is None:
            result = adhoc.sql(ctx.obj.reader(), statement, timeout_s=timeout_s)
        else:
            with conn:
                result = adhoc.run_statement(conn, statement, timeout_s=timeout_s)
    render(result.columns, result.rows, fmt)


def register(app: typer.Typer) -> None:
    app.command("sql")(sql)
