"""Values the shell completes (Typer's `autocompletion`): query names, solution keys, catalogue
names, verdicts and metrics, the values a user types most.

Each function answers within the shell's patience or not at all: it never starts the embedded
server (no server running, no keys offered), waits at most CONNECT_TIMEOUT_S for a connection, and
any failure offers nothing rather than printing an error into the user's command line.
"""

from __future__ import annotations

from typing import Any, Callable

import typer

CONNECT_TIMEOUT_S = 2
KEYS_SHOWN = 200  # a shell lists them all: more is noise


def _quietly(values: Callable[[], list[str]], incomplete: str) -> list[str]:
    try:
        return [v for v in values() if v.startswith(incomplete)]
    except Exception:  # noqa: BLE001 - completion offers nothing rather than fail in the shell
        return []


def _root_params(ctx: typer.Context) -> dict[str, Any]:
    return ctx.find_root().params or {}


def _reader_url(ctx: typer.Context) -> str | None:
    """The URL to read keys with: the one given, else the running embedded server's (never started)."""
    params = _root_params(ctx)
    given = params.get("reader_url") or params.get("database_url")
    if given:
        return given
    from ..db import embedded, roles

    server = embedded.status()
    if not server.running:
        return None
    catalogue = params.get("catalogue")
    database = roles.catalogue_database(catalogue) if catalogue else embedded.DATABASE_NAME
    return server.url_for(roles.READER_ROLE, database)


def solution_keys(ctx: typer.Context, incomplete: str) -> list[str]:
    """The catalogue's solution keys starting with what was typed."""
    def keys() -> list[str]:
        url = _reader_url(ctx)
        if url is None:
            return []
        import psycopg

        from ..db.connection import libpq_url

        pattern = incomplete.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with psycopg.connect(libpq_url(url), connect_timeout=CONNECT_TIMEOUT_S) as conn:
            return [row[0] for row in conn.execute(
                "SELECT key FROM solutions WHERE key LIKE %s ORDER BY key LIMIT %s", (pattern, KEYS_SHOWN))]

    return _quietly(keys, incomplete)


def catalogue_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The named catalogues on the running embedded server."""
    def names() -> list[str]:
        from ..db import catalogues, embedded

        server = embedded.status()
        return catalogues.names_on_server(server) if server.running else []

    return _quietly(names, incomplete)


def query_names(incomplete: str) -> list[str]:
    def names() -> list[str]:
        from ..queries import canned

        return list(canned.all_queries())

    return _quietly(names, incomplete)


def verdicts(incomplete: str) -> list[str]:
    """The audit's verdicts, worst first."""
    def names() -> list[str]:
        from ..audit.terms import VERDICTS

        return list(VERDICTS)

    return _quietly(names, incomplete)


def compare_metrics(incomplete: str) -> list[str]:
    def names() -> list[str]:
        from ..queries.compare_figures import METRICS

        return list(METRICS)

    return _quietly(names, incomplete)
