"""`esrpdb parse FILE`: what a parser reads from a file (stage one), without touching a database."""

from __future__ import annotations

from pathlib import Path

import typer

from .errors import fail, friendly_errors
from .safe_text import echo


def parse(
    ctx: typer.Context,
    path: Path = typer.Argument(..., help="A file esrpdb can ingest."),
    raw: bool = typer.Option(True, "--raw/--normalised", help="Stage one as printed, or the catalogue's rows."),
) -> None:
    """Show what esrpdb reads from a file, as JSON (nothing is written)."""
    from ..ingest.errors import ParseError
    from ..ingest.inspect import parse_file

    with friendly_errors(ctx, ParseError, OSError):
        try:
            shown = parse_file(path, normalised=not raw)
        except RecursionError:  # as ingest says it (pipeline.ingest_file)
            fail(f"{path}: nested too deeply to read (past Python's recursion limit); refused")
        echo(shown)


def register(app: typer.Typer) -> None:
    app.command("parse")(parse)
