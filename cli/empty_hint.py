"""A listing of a catalogue with nothing in it says so, and what to run, in one line on standard error."""

from __future__ import annotations

from typing import Any

import typer

from .safe_text import echo


def nothing_ingested(ctx: typer.Context, source: Any) -> bool:
    """True, with the hint printed, when the catalogue read through `source` (an Engine or a psycopg
    connection) holds no file and no solution; the demo is named when it exists on the same server."""
    from ..db.roles import DEMO_CATALOGUE, catalogue_database
    from ..queries.emptiness import catalogue_state

    options = ctx.obj
    embedded = options.given_database_url is None and options.given_reader_url is None
    named = options.catalogue
    state = catalogue_state(source, catalogue_database(DEMO_CATALOGUE) if embedded and named != DEMO_CATALOGUE else "")
    if not state.empty:
        return False
    echo(hint(named, demo_exists=state.other_exists), err=True)
    return True


def hint(catalogue: str | None, *, demo_exists: bool) -> str:
    """One line: the catalogue is empty, how to fill it, and where the demo is (or how to make one)."""
    from ..db.roles import DEMO_CATALOGUE

    which = "the catalogue" if catalogue is None else f"catalogue '{catalogue}'"
    prefix = "esrpdb " if catalogue is None else f"esrpdb --catalogue {catalogue} "
    if catalogue == DEMO_CATALOGUE:
        other = "; `esrpdb demo` rebuilds it from the bundled examples"
    elif demo_exists:
        other = f", or read the demo with `esrpdb --catalogue {DEMO_CATALOGUE} solutions`"
    else:
        other = ", or try `esrpdb demo` (a catalogue of the bundled examples)"
    return f"{which[0].upper()}{which[1:]} is empty: nothing has been ingested; fill it with `{prefix}ingest FILES…`{other}."
