"""Entry point: global options, then one thin command per library function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import typer

from esrpdb.cli import (
    audit_command,
    compare_command,
    db_commands,
    demo_command,
    ingest_command,
    listing_commands,
    parse_command,
    query_command,
    sql_command,
)
from esrpdb.db.catalog import Catalog, open_catalog

app = typer.Typer(
    help="Turn Exchange Jetstress results into a PostgreSQL comparison catalogue.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@dataclass
class Options:
    database_url: str | None
    reader_url: str | None
    debug: bool

    def catalog(self) -> Catalog:
        return open_catalog(self.database_url, reader_url=self.reader_url)

    def reader(self):
        """The engine for commands that read on the user's behalf: the read-only role."""
        return self.catalog().reader()


@app.callback()
def main(
    ctx: typer.Context,
    database_url: Optional[str] = typer.Option(
        None,
        "--database-url",
        envvar="ESRPDB_DATABASE_URL",
        help="PostgreSQL URL (13+). Default: the embedded server in ESRPDB_HOME.",
    ),
    reader_url: Optional[str] = typer.Option(
        None,
        "--reader-url",
        envvar="ESRPDB_READER_URL",
        help="URL of a read-only role for sql, query and listings. Default: the embedded server's reader.",
    ),
    debug: bool = typer.Option(False, "--debug", help="Show full tracebacks instead of one-line errors."),
) -> None:
    ctx.obj = Options(database_url=database_url, reader_url=reader_url, debug=debug)


audit_command.register(app)
compare_command.register(app)
db_commands.register(app)
demo_command.register(app)
ingest_command.register(app)
listing_commands.register(app)
parse_command.register(app)
query_command.register(app)
sql_command.register(app)
from esrpdb.cli import plot_command, site_command  # noqa: E402  (site: static catalogue)
plot_command.register(app); site_command.register(app)

if __name__ == "__main__":  # pragma: no cover
    app()
