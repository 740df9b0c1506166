"""`esrpdb demo`: a fresh catalogue from the bundled fixtures, then what it holds."""

from __future__ import annotations

import typer

from esrpdb.cli.render import render
from esrpdb.db.demo import bundled_fixtures, demo_catalog
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import listings


def demo(ctx: typer.Context) -> None:
    """Ingest the bundled seed fixtures into a fresh `esrpdb_demo` database and print the catalogue."""
    catalog = demo_catalog(ctx.obj.database_url)
    outcomes = ingest_paths(catalog.engine, [bundled_fixtures()])
    loaded = [o for o in outcomes if o.status == "loaded"]
    failed = [o for o in outcomes if o.status == "failed"]
    typer.echo(f"ingested {len(loaded)} files from {bundled_fixtures()} ({len(failed)} failed)")
    for outcome in failed:
        typer.echo(f"  failed: {outcome.message}", err=True)
    result = listings.runs(catalog.engine)
    render(result.columns, result.rows, title="Runs in the demo catalogue")
    typer.echo(f"explore it: esrpdb --database-url '{catalog.url}' sql \"select * from runs\"")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
