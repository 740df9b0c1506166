"""`esrpdb site OUT/`: the catalogue as a static site that opens from disk."""

from __future__ import annotations

from pathlib import Path

import typer

from ..site.options import STATIC_CHART_LIMIT
from .errors import friendly_errors, interruptible
from .safe_text import echo


def site(
    ctx: typer.Context,
    out: Path = typer.Argument(..., help="Folder to write the site to (refused if not empty, unless --force)."),
    force: bool = typer.Option(False, "--force", help="Replace the site in a non-empty OUT."),
    static_chart_limit: int = typer.Option(
        STATIC_CHART_LIMIT, "--static-chart-limit",
        help="Draw solution-page charts at build time up to this many solutions; above, the browser draws them."),
) -> None:
    """Write a static, self-contained catalogue: index, one page per solution, charts, compare."""
    from ..site.build import SiteExists, build_site

    with friendly_errors(ctx, SiteExists), interruptible(
            lambda: f"interrupted: no site written; {out} is as it was (the build is moved into place only when whole)"):
        report = build_site(ctx.obj.reader(), out, force=force, static_chart_limit=static_chart_limit)
    if report.interrupted_after_move:
        echo(f"interrupted: the site was already whole and is written to {report.out}", err=True)
        raise typer.Exit(130)
    where = "drawn in the browser" if report.client_charts else "inline SVG"
    echo(f"{report.pages} pages for {report.solutions} solutions written to {report.out} "
               f"in {report.seconds:.1f} s (solution-page charts: {where}); open {report.out / 'index.html'}")


def register(app: typer.Typer) -> None:
    app.command("site")(site)
