"""`esrpdb sql "select …"`: read-only ad-hoc SQL."""

from __future__ import annotations

import typer

from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo

DEFAULT_TIMEOUT_S = 30.0  # queries.adhoc.DEFAULT_TIMEOUT_S, without importing psycopg for --help
DEFAULT_MAX_ROWS = 200_000  # queries.adhoc.DEFAULT_MAX_ROWS


def sql(
    ctx: typer.Context,
    statement: str = typer.Argument(..., help="One SQL statement; it runs in a read-only transaction. \"-\" reads "
                                    "it from standard input (`esrpdb sql - < query.sql`); one that starts with a "
                                    "comment goes after \"--\": esrpdb sql -- \"-- …\""),
    timeout_s: float = typer.Option(DEFAULT_TIMEOUT_S, "--timeout", help="Statement timeout in seconds."),
    fmt: OutputFormat = FORMAT_OPTION,
    max_rows: int = typer.Option(DEFAULT_MAX_ROWS, "--max-rows", min=1, metavar="N",
                                 help="Stop reading after N rows (and say so), so memory stays bounded."),
) -> None:
    """Run one read-only SQL statement against the catalogue."""
    from ..db import quick
    from ..db.roles import READER_ROLE
    from ..queries import adhoc

    with friendly_errors(ctx, adhoc.SqlRefused):
        if statement == "-":
            statement = _from_stdin(adhoc.SqlRefused)
        conn = quick.reader_connection(ctx.obj.database_url, ctx.obj.reader_url)
        if conn is None:
            result = adhoc.sql(ctx.obj.reader(), statement, timeout_s=timeout_s, max_rows=max_rows,
                               reader_role=READER_ROLE)
        else:
            with conn:
                result = adhoc.run_statement(conn, statement, timeout_s=timeout_s, max_rows=max_rows,
                                             reader_role=READER_ROLE)
    render(result.columns, result.rows, fmt)
    stopped = result.stopped_line()
    if stopped:
        echo(stopped, err=True)


MAX_STDIN_CHARS = 1_000_000  # a statement, not a dump: more is refused before anything runs


def _from_stdin(refused: type[Exception]) -> str:
    """The statement piped in (`esrpdb sql - < query.sql`): comments, newlines and all."""
    import sys

    text = sys.stdin.read(MAX_STDIN_CHARS + 1)
    if len(text) > MAX_STDIN_CHARS:
        raise refused(f"standard input holds more than {MAX_STDIN_CHARS:,} characters; one statement is read")
    if not text.strip():
        raise refused("standard input is empty: pipe one SQL statement in (esrpdb sql - < query.sql)")
    return text


def register(app: typer.Typer) -> None:
    app.command("sql")(sql)
