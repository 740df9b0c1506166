"""`esrpdb demo`: a fresh catalogue from the bundled solution manifests, then the four metrics."""

from __future__ import annotations

import typer

from esrpdb.cli.render import render


def demo_command(ctx: typer.Context) -> None:
    """Build a fresh `esrpdb_demo` catalogue from the bundled seed manifests and print its metrics."""
    from esrpdb.db.demo import DEMO_METRICS, demo

    result = demo(ctx.obj.database_url)
    typer.echo(f"loaded {result.loaded_files} files ({result.failed_files} failed) from {result.catalog_dir}")
    for failure in result.failures:
        typer.echo(f"  failed: {failure}", err=True)
    for (title, _, _), table in zip(DEMO_METRICS, result.tables):
        render(table.columns, table.rows, title=title)
    if result.audit is not None:
        typer.echo(f"audit: {result.audit.summary()}")
        for f in result.audit.worst():
            data = "" if f.recomputed is None else f", data {f.recomputed:.6g} ({f.relative_difference:+.1%})"
            where = f"[{f.file} {f.sha256}, {f.place}]"
            typer.echo(f"  {f.verdict} {f.solution} {f.metric}: printed {f.printed}{data} {where}")
    typer.echo(f"explore it: esrpdb --database-url '{result.url}' query --list")
    typer.echo(f"audit it:   esrpdb --database-url '{result.url}' audit")
    if result.failed_files:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_command)
