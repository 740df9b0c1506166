"""`esrpdb solutions` and `esrpdb runs`."""

from __future__ import annotations

from typing import List, Optional

import typer

from . import completion
from .empty_hint import nothing_ingested
from .errors import friendly_errors
from .render import OutputFormat, render

FORMAT_OPTION = typer.Option(OutputFormat.table, "--format", "-f", help="table, csv or json.")
COLUMNS_OPTION = typer.Option(None, "--columns", "-c", metavar="NAME,…",
                              help="Only these columns, in this order (names as in csv; comma-separated or repeated).")


def solutions(ctx: typer.Context, fmt: OutputFormat = FORMAT_OPTION,
              columns: Optional[List[str]] = COLUMNS_OPTION) -> None:
    """List solutions with their disk counts, capacity and price."""
    from ..queries import listings

    engine = ctx.obj.reader()
    result = listings.solutions(engine)
    if not result.rows and nothing_ingested(ctx, engine) and fmt is OutputFormat.table:
        return  # the hint says what to run; csv and json still print their empty document
    render(result.columns, result.rows, fmt, title="Solutions", chosen=columns)


def runs(
    ctx: typer.Context,
    solution: Optional[str] = typer.Option(None, "--solution", help="Only this solution's runs (its key).",
                                           autocompletion=completion.solution_keys),
    fmt: OutputFormat = FORMAT_OPTION,
    columns: Optional[List[str]] = COLUMNS_OPTION,
) -> None:
    """List Jetstress runs with verdict, achieved IOPS and instance count."""
    from ..queries import listings
    from ..schema.keys import UnknownKey

    engine = ctx.obj.reader()
    empty = nothing_ingested(ctx, engine)  # before the key check: no key names anything yet
    with friendly_errors(ctx, UnknownKey):
        result = listings.runs(engine, solution=None if empty else solution)
    if empty and fmt is OutputFormat.table:
        return
    render(result.columns, result.rows, fmt, title="Runs", chosen=columns)


def register(app: typer.Typer) -> None:
    app.command("solutions")(solutions)
    app.command("runs")(runs)
