"""`esrpdb init` and `esrpdb db start|stop|status|url`."""

from __future__ import annotations

import typer

from .errors import friendly_errors
from .safe_text import echo

db_app = typer.Typer(help="Manage the embedded PostgreSQL server (data in ESRPDB_HOME).", no_args_is_help=True)


def init(ctx: typer.Context) -> None:
    """Create the catalogue schema, or upgrade it to the newest migration (safe to repeat)."""
    from ..db import catalog as catalog_lib

    with friendly_errors(ctx, Exception):
        catalog, revision, rebuilt = catalog_lib.init(ctx.obj.database_url)
        if ctx.obj.given_database_url is None:  # the embedded server: roles and lock-down as this esrpdb sets them
            from ..db import embedded

            embedded.refresh_roles()
        echo(f"catalogue at revision {revision} on PostgreSQL {catalog.server_version()}")
        if rebuilt is not None and rebuilt > 0:
            echo(f"stored class ranks were stale (a write no esrpdb command followed): {rebuilt} rows rebuilt")


@db_app.command("start")
def start() -> None:
    """Start the embedded server (initialising it the first time)."""
    from ..db import embedded

    server = embedded.start()
    echo(f"running (pid {server.pid}) in {server.home}")


@db_app.command("stop")
def stop() -> None:
    """Stop the embedded server."""
    from ..db import embedded

    echo("stopped" if embedded.stop() else "not running")


@db_app.command("status")
def status(every: bool = typer.Option(False, "--all", help="Every embedded server this user has started, "
                                                            "in any ESRPDB_HOME.")) -> None:
    """Say whether the embedded server is running, and where its data lives."""
    from ..db import embedded

    server = embedded.status()
    state = f"running (pid {server.pid})" if server.running else "not running"
    echo(f"{state}; data in {server.home}")
    others = [s for s in embedded.known_servers() if s.home != server.home]
    if every:
        for other in others:
            echo(f"{'running (pid ' + str(other.pid) + ')' if other.running else 'not running'}; data in {other.home}"
                 + ("  (stop it: ESRPDB_HOME=" + str(other.home) + " esrpdb db stop)" if other.running else ""))
    elif any(s.running for s in others):
        echo(f"{sum(s.running for s in others)} other embedded server(s) of yours are running; `esrpdb db status "
             "--all` lists them")


@db_app.command("url")
def url(
    ctx: typer.Context,
    reader: bool = typer.Option(False, "--reader", help="The read-only role's URL (what sql and query use)."),
    sqlalchemy: bool = typer.Option(False, "--sqlalchemy",
                                    help="SQLAlchemy's form (postgresql+psycopg://) instead of psql's."),
) -> None:
    """Print the catalogue's URL for psql, a notebook or a BI tool (starts the embedded server if needed);
    passwords masked."""
    from ..db.connection import libpq_url, redact, resolve_urls

    with friendly_errors(ctx, Exception):
        urls = resolve_urls(ctx.obj.database_url, ctx.obj.reader_url)
        chosen = urls.reader if reader else urls.owner
        if chosen is None:
            raise ValueError("no read-only role is configured for this server (set ESRPDB_READER_URL)")
        echo(redact(chosen if sqlalchemy else libpq_url(chosen)))


def register(app: typer.Typer) -> None:
    app.command("init")(init)
    app.add_typer(db_app, name="db")
