"""`esrpdb solutions` and `esrpdb runs`."""

from __future__ import annotations

from typing import Optional

import typer

from .errors import friendly_errors
from .render import OutputFormat, render

FORMAT_OPTION = typer.Option(OutputFormat.table, "--format", "-f", help="table, csv or json.")


def solutions(ctx: typer.Context, fmt: OutputFormat = FORMAT_OPTION) -> None:
    """List solutions with their disk counts, capacity and price."""
    from ..queries import listings

    result = listings.solutions(ctx.obj.reader())
    render(result.columns, result.rows, fmt, title="Solutions")


def runs(
    ctx: typer.Context,
    solution: Optional[str] = typer.Option(None, "--solution", help="Only this solution's runs (its key)."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """List Jetstress runs with verdict, achieved IOPS and instance count."""
    from ..queries import listings
    from ..schema.keys import UnknownKey

    with friendly_errors(ctx, UnknownKey):
        result = listings.runs(ctx.obj.reader(), solution=solution)
    render(result.columns, result.rows, fmt, title="Runs")


def register(app: typer.Typer) -> None:
    app.command("solutions")(solutions)
    app.command("runs")(runs)
