"""`esrpdb init` and `esrpdb db start|stop|status|url`."""

from __future__ import annotations

import typer

from .errors import friendly_errors
from .render import OutputFormat, render
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
    if server.running:
        from ..db.catalogues import on_server

        for line in catalogue_lines(on_server(server)):
            echo(line)
    others = [s for s in embedded.known_servers() if s.home != server.home]
    if every:
        for other in others:
            echo(f"{'running (pid ' + str(other.pid) + ')' if other.running else 'not running'}; data in {other.home}"
                 + ("  (stop it: ESRPDB_HOME=" + str(other.home) + " esrpdb db stop)" if other.running else ""))
    elif any(s.running for s in others):
        echo(f"{sum(s.running for s in others)} other embedded server(s) of yours are running; `esrpdb db status "
             "--all` lists them")


def catalogue_lines(summaries) -> list[str]:
    """`db status`'s lines on the catalogues: name (as --catalogue takes it), size, files, last ingest."""
    lines = []
    for item in summaries:
        size_mb = item.size_bytes / 2**20
        if item.files is None:
            held = f"not initialised (esrpdb --catalogue {item.name} init)"
        elif item.files == 0:
            held = "nothing ingested"
        else:
            plural = "s" if item.files != 1 else ""
            held = f"{item.files} file{plural}, last ingest {item.last_ingest_at:%Y-%m-%d %H:%M %Z}".rstrip()
        lines.append(f"  catalogue {item.name}: {size_mb:.1f} MB, {held}")
    return lines


@db_app.command("catalogues")
def catalogues(ctx: typer.Context, fmt: OutputFormat = typer.Option(OutputFormat.table, "--format", "-f",
                                                                     help="table, csv or json.")) -> None:
    """List the catalogues on the embedded server (or the one --database-url names): size, files, last ingest."""
    from ..db import catalogues as catalogues_lib, embedded

    with friendly_errors(ctx, Exception):
        if ctx.obj.given_database_url:  # one database, not a server's catalogues
            listed = catalogues_lib.at_url(ctx.obj.database_url)
        else:
            listed = catalogues_lib.on_server(embedded.start())
    render(["catalogue", "database", "size_mb", "files", "last_ingest_at"],
           [(c.name, c.database, round(c.size_bytes / 2**20, 1), c.files, c.last_ingest_at) for c in listed],
           fmt, title="Catalogues")


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
