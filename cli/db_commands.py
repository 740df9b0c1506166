"""`esrpdb init` and `esrpdb db start|stop|status|url`."""

from __future__ import annotations

import typer

from ..db import catalog as catalog_lib, embedded
from .errors import friendly_errors

db_app = typer.Typer(help="Manage the embedded PostgreSQL server (data in ESRPDB_HOME).", no_args_is_help=True)


def init(ctx: typer.Context) -> None:
    """Create the catalogue schema, or upgrade it to the newest migration (safe to repeat)."""
    with friendly_errors(ctx, Exception):
        catalog, revision = catalog_lib.init(ctx.obj.database_url)
        typer.echo(f"catalogue at revision {revision} on PostgreSQL {catalog.server_version()}")


@db_app.command("start")
def start() -> None:
    """Start the embedded server (initialising it the first time)."""
    server = embedded.start()
    typer.echo(f"running (pid {server.pid}) in {server.home}")


@db_app.command("stop")
def stop() -> None:
    """Stop the embedded server."""
    typer.echo("stopped" if embedded.stop() else "not running")


@db_app.command("status")
def status() -> None:
    """Say whether the embedded server is running, and where its data lives."""
    server = embedded.status()
    state = f"running (pid {server.pid})" if server.running else "not running"
    typer.echo(f"{state}; data in {server.home}")


@db_app.command("url")
def url(ctx: typer.Context) -> None:
    """Print the SQLAlchemy URL esrpdb uses (starts the embedded server if needed)."""
    from ..db.connection import resolve_url

    typer.echo(resolve_url(ctx.obj.database_url))


def register(app: typer.Typer) -> None:
    app.command("init")(init)
    app.add_typer(db_app, name="db")
