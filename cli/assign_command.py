"""`esrpdb assign FILE|RUN --solution KEY`: move ingested runs to the solution they belong to."""

from __future__ import annotations

import typer

from . import completion
from .errors import friendly_errors
from .safe_text import echo


def assign(
    ctx: typer.Context,
    target: str = typer.Argument(..., help="An ingested file (its path, or a copy of it) or a run id."),
    solution: str = typer.Option(..., "--solution", help="The solution key the runs belong to.",
                                 autocompletion=completion.solution_keys),
    new_solution: bool = typer.Option(False, "--new-solution", help="Create the solution key if it does not exist."),
) -> None:
    """Move already-ingested runs to a solution (the fix for a wrong --solution); the move is kept as evidence."""
    from ..ingest.load.assign import NothingToAssign, assign as assign_runs
    from ..schema.keys import UnknownKey

    with friendly_errors(ctx, UnknownKey, NothingToAssign):
        result = assign_runs(ctx.obj.catalog().engine, target, solution, new_solution=new_solution)
    if not result.run_ids:
        echo(f"nothing to move: every run of {target} already belongs to {solution}")
        return
    for run_id, previous in result.moved_from.items():
        echo(f"run {run_id}: {previous or '(no solution)'} -> {solution}")


def register(app: typer.Typer) -> None:
    app.command("assign")(assign)
