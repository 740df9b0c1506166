"""`esrpdb audit`: every published figure recomputed from the data, findings worst first."""

from __future__ import annotations

import json
from typing import Optional

import typer

from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo

COLUMNS = ("verdict", "kind", "metric", "printed", "recomputed", "difference", "where", "explanation")
CSV_COLUMNS = ("solution", "other_solution", "kind", "metric", "verdict", "printed", "unit", "recomputed",
               "relative_difference", "file", "sha256", "place", "line", "explanation", "quote", "inputs")


def audit(
    ctx: typer.Context,
    solution: Optional[str] = typer.Option(None, "--solution", help="Only this solution's findings (its key)."),
    verdict: Optional[str] = typer.Option(None, "--verdict", help="Only findings with this verdict: "
                                                                  "mismatch, rounding, unverifiable or match."),
    fmt: OutputFormat = FORMAT_OPTION,
) -> None:
    """Recompute every published claim from the stored data and list what does not add up."""
    from ..audit import UnknownSolution, audit as audit_lib

    with friendly_errors(ctx, UnknownSolution, ValueError):
        report = audit_lib(ctx.obj.reader(), solution=solution, verdict=verdict)
    if fmt is OutputFormat.json:
        echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False, sort_keys=True))
    elif fmt is OutputFormat.csv:
        rows = [{**f.as_dict(), "inputs": json.dumps(f.as_dict()["inputs"], sort_keys=True)} for f in report.findings]
        render(CSV_COLUMNS, [[row[c] for c in CSV_COLUMNS] for row in rows], fmt)
    else:
        print_report(report)


def print_report(report) -> None:
    """One table per solution, worst verdict first, then the counts."""
    from ..audit import AuditReport

    for key, findings in report.by_solution().items():
        counts = AuditReport(findings).counts()
        title = f"{key or '(no solution)'}: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
        render(COLUMNS, [_row(f) for f in findings], title=title)
    echo(report.summary())


def _row(f) -> tuple:
    difference = None if f.relative_difference is None else f"{f.relative_difference:+.2%}"
    where = f"{f.file} [{f.sha256_prefix}] {f.place}" if f.file else f.place
    return (f.verdict, f.kind, f.metric, f.printed, f.recomputed, difference, where, f.explanation)


def register(app: typer.Typer) -> None:
    app.command("audit")(audit)
