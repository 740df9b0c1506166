"""`esrpdb compare A B`: two solutions side by side, with "A delivered N% more X than B" and its spread."""

from __future__ import annotations

from enum import Enum
from typing import List, Optional

import typer

from . import completion
from .empty_hint import nothing_ingested
from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo


class DiskBasis(str, Enum):
    """schema.vocabulary.DISK_BASES as the Enum typer takes for a choice (tests/test_cli_keys.py holds them equal)."""

    all = "all"
    active = "active"


COLUMNS = ("metric", "disk_basis", "value_a", "value_b", "percent_more", "percent_more_min", "percent_more_max",
           "sentence", "unlike_tests")  # unlike_tests: the notes the table prints under it, "; "-joined (null: alike)


def compare(
    ctx: typer.Context,
    a: str = typer.Argument(..., help="First solution key.", autocompletion=completion.solution_keys),
    b: str = typer.Argument(..., help="Second solution key.", autocompletion=completion.solution_keys),
    metric: Optional[List[str]] = typer.Option(
        None, "--metric", "-m", autocompletion=completion.compare_metrics,
        help="Metric (repeatable), e.g. total_iops, throughput_mb_per_s, perf_per_watt; "
                                     "default: all."),
    disk_basis: Optional[DiskBasis] = typer.Option(None, "--disk-basis",
                                                   help="Per-disk figures on all or active disks; default: both."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Compare two solutions' median runs, metric by metric, with the spread across each trial's runs."""
    from ..queries import compare as compare_lib

    metrics = tuple(metric) if metric else compare_lib.DEFAULT_METRICS
    engine = ctx.obj.reader()
    if nothing_ingested(ctx, engine):  # no key names anything yet: the hint, not "unknown solution"
        if fmt is not OutputFormat.table:
            render(COLUMNS, [], fmt)
        return
    with friendly_errors(ctx, compare_lib.UnknownKey):
        report = compare_lib.compare(engine, a, b, metrics,
                                     disk_basis=disk_basis.value if disk_basis else None)
    unlike = "; ".join(report.unlike) or None  # a script sees what a person sees: on every row, as the table's notes
    rows = [(r.metric, r.disk_basis, r.value_a, r.value_b, r.percent_more, r.percent_more_min, r.percent_more_max,
             r.sentence, unlike) for r in report.rows]
    if fmt is OutputFormat.table:
        shown = [(m, basis, va, vb, text) for m, basis, va, vb, _, _, _, text, _ in rows]
        render(["metric", "disk_basis", a, b, "sentence"], shown, fmt, title=f"{a} vs {b} (median runs)")
        for note in report.unlike:
            echo(f"note: unlike tests — {note}")
    else:
        render(COLUMNS, rows, fmt)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
