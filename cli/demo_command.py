"""`esrpdb demo`: a fresh catalogue from the bundled solution manifests, then the four metrics."""

from __future__ import annotations

import typer

from .errors import friendly_errors
from .render import render
from .safe_text import echo


def demo_command(ctx: typer.Context) -> None:
    """Build a catalogue from the bundled seed manifests and print its metrics.

    On the embedded server it is the catalogue named 'demo' (rebuilt each time; read it with
    `--catalogue demo`); with --database-url, the given database, which must be empty."""
    from ..db.connection import redact
    from ..db.roles import DEMO_CATALOGUE
    from ..workflows.demo import DEMO_METRICS, DemoRefused, demo

    on_embedded = ctx.obj.given_database_url is None and ctx.obj.catalogue in (None, DEMO_CATALOGUE)
    with friendly_errors(ctx, DemoRefused):
        result = demo(None if on_embedded else ctx.obj.database_url)
    echo(f"loaded {result.loaded_files} files ({result.failed_files} failed) from {result.catalog_dir}")
    for failure in result.failures:
        echo(f"  failed: {failure}", err=True)
    for (title, _, _, blank_reason), table in zip(DEMO_METRICS, result.tables):
        render(table.columns, table.rows, title=title)
        if any(value is None for row in table.rows for value in row[1:]):
            echo(f"  blank cells: {blank_reason}")
    if result.audit is not None:
        echo(f"audit: {result.audit.summary()}")
        for f in result.audit.worst():
            data = "" if f.recomputed is None else f", data {f.recomputed:.6g} ({f.relative_difference:+.1%})"
            where = f"[{f.file} {f.sha256_prefix}, {f.place}]"
            echo(f"  {f.verdict} {f.solution} {f.metric}: printed {f.printed}{data} {where}")
    if on_embedded:  # the named catalogue, read as the read-only role like every other reading command
        echo(f"explore it: esrpdb --catalogue {DEMO_CATALOGUE} solutions    (or: export ESRPDB_CATALOGUE={DEMO_CATALOGUE})")
        echo(f"            esrpdb --catalogue {DEMO_CATALOGUE} query --list")
        echo(f"            esrpdb --catalogue {DEMO_CATALOGUE} site demo-site/")
    else:
        url = redact(result.url)  # a password never reaches the terminal
        echo(f"explore it: esrpdb --database-url '{url}' query --list")
        echo(f"audit it:   esrpdb --database-url '{url}' audit")
    if result.failed_files:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_command)
