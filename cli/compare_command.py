"""`esrpdb compare A B`: two solutions side by side, with "A delivered N% more X than B"."""

from __future__ import annotations

from typing import List, Optional

import typer

from esrpdb.cli.errors import friendly_errors
from esrpdb.cli.listing_commands import FORMAT_OPTION
from esrpdb.cli.render import OutputFormat, render


def compare(
    ctx: typer.Context,
    a: str = typer.Argument(..., help="First solution key."),
    b: str = typer.Argument(..., help="Second solution key."),
    metric: Optional[List[str]] = typer.Option(None, "--metric", "-m", help="Metric (repeatable); default: all."),
    disk_basis: str = typer.Option("all", "--disk-basis", help="Per-disk figures divide by all or active disks."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Compare two solutions' median runs, metric by metric."""
    from esrpdb.queries import compare as compare_lib

    metrics = tuple(metric) if metric else compare_lib.DEFAULT_METRICS
    with friendly_errors(ctx, compare_lib.UnknownMetric):
        rows = compare_lib.compare(ctx.obj.reader(), a, b, metrics, disk_basis=disk_basis)
    render(["metric", a, b, "percent_difference", "sentence"],
           [(r.metric, r.value_a, r.value_b, r.percent_difference, r.sentence) for r in rows], fmt,
           title=f"{a} vs {b} (median runs, disk basis: {disk_basis})")


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
