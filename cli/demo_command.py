"""`esrpdb demo`: a fresh catalogue from the bundled solution manifests, then the four metrics."""

from __future__ import annotations

import typer

from esrpdb.cli.render import render
from esrpdb.db.demo import demo, DEMO_METRICS


def demo_command(ctx: typer.Context) -> None:
    """Build a fresh `esrpdb_demo` catalogue from the bundled seed manifests and print its metrics."""
    result = demo(ctx.obj.database_url)
    typer.echo(f"loaded {result.loaded_files} files ({result.failed_files} failed) from {result.catalog_dir}")
    for failure in result.failures:
        typer.echo(f"  failed: {failure}", err=True)
    for (title, _, _), table in zip(DEMO_METRICS, result.tables):
        render(table.columns, table.rows, title=title)
    typer.echo(f"explore it: esrpdb --database-url '{result.url}' query --list")
    if result.failed_files:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_command)
