"""Entry point: global options, then one thin command per library function.

Command modules import only typer at the top; each command imports the libraries it needs
(SQLAlchemy, psycopg, Alembic, lxml, rich) in its body, so `esrpdb --help` starts at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional

import typer

from . import (
    assign_command,
    audit_command,
    compare_command,
    completion,
    db_commands,
    delete_command,
    demo_command,
    draft_command,
    ingest_command,
    listing_commands,
    parse_command,
    plot_command,
    query_command,
    schema_command,
    site_command,
    sql_command,
    startup,
)
from .help_groups import GroupedCommands, plain_help

app = typer.Typer(
    help="Turn Exchange Jetstress results into a PostgreSQL comparison catalogue.",
    no_args_is_help=True,
    cls=GroupedCommands,  # commands grouped in help: ingest and catalogue, queries, site, server
    add_completion=True,  # `esrpdb --install-completion` / `--show-completion`
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help and errors: cheaper than rich, and `Error: …` on one line
)


@dataclass
class Options:
    given_database_url: str | None
    given_reader_url: str | None
    debug: bool
    catalogue: str | None = None  # a named catalogue on the embedded server (database esrpdb_<name>)
    creates: bool = False  # the command may make the named catalogue (init, ingest, demo); others need it to exist
    opened: Any = field(default=None, repr=False)  # the command's Catalog, once opened
    writing: Any = field(default=None, repr=False)  # ingest's engine on psycopg alone, once opened

    @cached_property  # a named catalogue's URL starts the server and checks the database: once a command
    def database_url(self) -> str | None:
        return self.given_database_url or self._catalogue_url("owner")

    @cached_property
    def reader_url(self) -> str | None:
        return self.given_reader_url or self._catalogue_url("reader")

    def _catalogue_url(self, role: str) -> str | None:
        if self.catalogue is None:
            return None
        from ..db import embedded, roles

        server = embedded.start()
        database = roles.catalogue_database(self.catalogue)
        if role == "owner":  # asked first: the catalogue is opened (and migrated) by its owner
            _named_catalogue(server, self.catalogue, create=self.creates)
        return server.url_for(roles.OWNER_ROLE if role == "owner" else roles.READER_ROLE, database)

    def server_disk_full(self) -> str | None:
        """Why the embedded server went down, when a full disk is why (None for another server)."""
        if self.given_database_url:
            return None
        from ..db import embedded

        return embedded.disk_full()

    def catalog(self):
        """One catalogue a command, closed when the command ends (main's ctx.call_on_close): its pooled
        connections are the reader's to count against its connection limit (db/roles.py)."""
        if self.opened is None:
            from ..db.catalog import open_catalog

            self.opened = open_catalog(self.database_url, reader_url=self.reader_url)
        return self.opened

    def writer(self):
        """The engine ingest writes with: psycopg alone when the catalogue is at head (db/quick.py: no
        SQLAlchemy imported for a document, issue 46), else the catalogue's (which migrates it first)."""
        if self.writing is None:
            from ..db.connection import resolve_url
            from ..db.quick import owner_engine

            url = self.given_database_url or self.database_url or resolve_url(None)  # the embedded server's
            self.writing = owner_engine(url, lambda: self.catalog().engine) or self.catalog().engine
        return self.writing

    def close(self) -> None:
        if self.writing is not None and self.writing is not getattr(self.opened, "engine", None):
            self.writing.dispose()
        self.writing = None
        if self.opened is not None:
            self.opened.close()
            self.opened = None

    def reader(self):
        """The engine for commands that read on the user's behalf: the read-only role."""
        return self.catalog().reader()


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"esrpdb {version('esrpdb')}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    database_url: Optional[str] = typer.Option(
        None,
        "--database-url",
        envvar="ESRPDB_DATABASE_URL",
        metavar="URL",
        help="PostgreSQL URL (13+). Default: the embedded server in ESRPDB_HOME.",
    ),
    reader_url: Optional[str] = typer.Option(
        None,
        "--reader-url",
        envvar="ESRPDB_READER_URL",
        metavar="URL",
        help="URL of a read-only role for sql, query and listings. Default: the embedded server's reader.",
    ),
    catalogue: Optional[str] = typer.Option(
        None, "--catalogue", envvar="ESRPDB_CATALOGUE", metavar="NAME", autocompletion=completion.catalogue_names,
        help="A named catalogue on the embedded server (`esrpdb demo` makes 'demo'). Default: the main one."),
    debug: bool = typer.Option(False, "--debug", help="Show full tracebacks instead of one-line errors."),
    version: bool = typer.Option(False, "--version", "-V", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if catalogue is not None:
        if database_url:
            _refuse("--catalogue names a catalogue on the embedded server; it cannot go with --database-url")
        if not CATALOGUE_NAME.fullmatch(catalogue):
            _refuse(f"--catalogue {catalogue!r}: use lower-case letters, digits and '_' (at most 40)")
    if ctx.invoked_subcommand not in LATE_COLLECTOR:
        startup.collector_on()
    ctx.obj = Options(given_database_url=database_url, given_reader_url=reader_url, debug=debug, catalogue=catalogue,
                      creates=ctx.invoked_subcommand in CREATING_COMMANDS)
    ctx.call_on_close(ctx.obj.close)


CATALOGUE_NAME = re.compile(r"[a-z0-9_]{1,40}")
# Commands that turn the cyclic collector back on themselves, once their start-up is over (cli/startup.py).
LATE_COLLECTOR = frozenset({"ingest"})
CREATING_COMMANDS = frozenset({"init", "ingest", "demo"})  # the commands that make a named catalogue on first use


def _named_catalogue(server, name: str, *, create: bool) -> None:
    """A named catalogue is made by init, ingest or demo; on any other command a name that names none
    is an error with the closest names (db.catalogues.UnknownCatalogue), never a new empty catalogue."""
    import psycopg

    from ..db.catalogues import UnknownCatalogue, open_named

    with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as conn:
        try:
            open_named(conn, name, create=create)
        except UnknownCatalogue as error:
            _refuse(str(error))


def _refuse(message: str) -> None:
    from .errors import fail

    fail(message)


assign_command.register(app)
audit_command.register(app)
compare_command.register(app)
db_commands.register(app)
delete_command.register(app)
demo_command.register(app)
draft_command.register(app)
ingest_command.register(app)
listing_commands.register(app)
parse_command.register(app)
plot_command.register(app)
query_command.register(app)
schema_command.register(app)
site_command.register(app)
sql_command.register(app)
plain_help(app)

def run() -> None:
    """The app, with one-line errors for whatever escapes a command; the cyclic collector off while the
    command starts (cli/startup.py), the code of dataclasses and of regular expressions read from the
    cache (kept_code.py). Ends with SystemExit, as any command: callable in a process that goes on."""
    from .. import kept_code
    from .unexpected import run as run_with_net

    startup.collector_off()
    kept_code.install()
    run_with_net(app)


if __name__ == "__main__":  # pragma: no cover
    run()
