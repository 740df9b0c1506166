"""`esrpdb plot METRIC -o FILE.svg|png`: one chart of the site, for reports and slides."""

from __future__ import annotations

from pathlib import Path

import typer

from ..site.options import PLOT_METRICS, TOP_BARS
from .errors import friendly_errors
from .safe_text import echo


def plot(
    ctx: typer.Context,
    metric: str = typer.Argument(..., help=f"Chart: {', '.join(PLOT_METRICS)} (log_playback: logs replayed "
                                 "per second against read latency, by mailbox class; backup_throughput: backup "
                                 "MB/s per database)."),
    output: Path = typer.Option(..., "--output", "-o", help="File to write: .svg or .png."),
    top: int = typer.Option(TOP_BARS, "--top", help="Bars to draw, best first."),
) -> None:
    """Draw one chart with the same code as the site's index."""
    from ..schema.keys import UnknownKey, require
    from ..site.charts import write_chart
    from ..site.data import load_catalogue
    from ..site.plot import plot_chart

    with friendly_errors(ctx, UnknownKey, ValueError):
        require("chart", metric, PLOT_METRICS)  # before reading the catalogue: "did you mean …?"
        if output.suffix.lower() not in (".svg", ".png"):
            raise ValueError(f"unsupported chart format {output.suffix or '(none)'!r}: use .svg or .png")
        cat = load_catalogue(ctx.obj.reader())
        chart = plot_chart(metric, cat.solutions, cat.latency_points, top=top)
        write_chart(chart, output)
    echo(f"{chart.title}: {output} ({chart.caption})")


def register(app: typer.Typer) -> None:
    app.command("plot")(plot)
