"""`esrpdb delete FILE|SHA256` and `esrpdb delete --solution KEY`: remove what came from it."""

from __future__ import annotations

from typing import Optional

import typer

from . import completion
from .errors import fail, friendly_errors, interruptible
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo


def delete(
    ctx: typer.Context,
    source: Optional[str] = typer.Argument(None, help="A source file: its SHA-256 (or 8+ leading digits), "
                                                      "its path as ingested, or its file name."),
    solution: Optional[str] = typer.Option(None, "--solution", autocompletion=completion.solution_keys,
                                            help="A solution key: the solution, its runs "
                                                                    "and the files only about it."),
    dry_run: bool = typer.Option(False, "--dry-run", help="List what would go, and delete nothing."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Delete a source file (report, export, document, manifest) or a solution, in one transaction."""
    from ..workflows.delete import NothingToDelete, delete as delete_lib

    if (source is None) == (solution is None):
        fail("name either a source file or --solution KEY")
    engine = ctx.obj.catalog().engine
    target = f"--solution {solution}" if solution is not None else source
    with friendly_errors(ctx, NothingToDelete), interruptible(
            lambda: f"interrupted: nothing deleted ({target} is as it was: the delete is one transaction)"):
        report = delete_lib(engine, source=source, solution=solution, dry_run=dry_run)
    verb = "would delete" if dry_run else "deleted"
    render(["table", "rows"], sorted(report.rows_by_table.items()), fmt, title=f"{verb}: {report.target}")
    if fmt is OutputFormat.table:
        for sha256, path in report.source_files:
            echo(f"{verb} {sha256} {path}")
        if report.kept_runs:
            keep = "would keep" if dry_run else "kept"
            echo(f"{keep} {report.kept_runs} run(s) another file also prints, now sourced from that file")


def register(app: typer.Typer) -> None:
    app.command("delete")(delete)
