"""`esrpdb audit`: every published figure recomputed from the data, findings worst first."""

from __future__ import annotations

import json
from typing import Optional

import typer

from . import completion
from .empty_hint import nothing_ingested
from .errors import friendly_errors
from .listing_commands import FORMAT_OPTION
from .render import OutputFormat, render
from .safe_text import echo

COLUMNS = ("verdict", "kind", "metric", "printed", "recomputed", "difference", "where", "explanation")
CAUSE_COLUMNS = ("cause", "verdict", "solution", "metric", "printed", "recomputed", "findings", "lines", "what")
CSV_COLUMNS = ("solution", "other_solution", "kind", "metric", "verdict", "printed", "unit", "recomputed",
               "relative_difference", "file", "sha256", "page", "place", "line", "explanation", "quote", "inputs")
QUOTE_CHARS = 160  # of the printed words shown under a cause's explanation (JSON, CSV and --verbose give them whole)


def audit(
    ctx: typer.Context,
    solution: Optional[str] = typer.Option(None, "--solution", help="Only this solution's findings (its key).",
                                           autocompletion=completion.solution_keys),
    verdict: Optional[str] = typer.Option(None, "--verdict", autocompletion=completion.verdicts,
                                          help="Only findings with this verdict: mismatch, "
                                                                  "rounding, doubt, unattributed, unverifiable or match."),
    fmt: OutputFormat = FORMAT_OPTION,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also every finding, by solution, worst first."),
) -> None:
    """Recompute every published claim from the stored data and list what does not add up: one line per
    cause (one error, however many findings it makes), worst first; --verbose adds every finding."""
    from ..audit import UnknownSolution, audit as audit_lib

    engine = ctx.obj.reader()
    empty = nothing_ingested(ctx, engine)
    with friendly_errors(ctx, UnknownSolution, ValueError):
        report = audit_lib(engine, solution=None if empty else solution, verdict=verdict)
    if empty and fmt is OutputFormat.table:
        return  # the hint says what to run; csv and json still print their empty report
    if fmt is OutputFormat.json:
        echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False, sort_keys=True))
    elif fmt is OutputFormat.csv:
        rows = [{**f.as_dict(), "inputs": json.dumps(f.as_dict()["inputs"], sort_keys=True)} for f in report.findings]
        render(CSV_COLUMNS, [[row[c] for c in CSV_COLUMNS] for row in rows], fmt)
    else:
        print_report(report, verbose=verbose)


def print_report(report, *, verbose: bool = False) -> None:
    """The causes, worst first; with `verbose`, one table of findings per solution; then the counts."""
    from ..audit import AuditReport

    causes = report.causes()
    if causes:
        render(CAUSE_COLUMNS, [_cause_row(c) for c in causes], title="What is wrong, one line per cause, worst first")
    for key, findings in (report.by_solution().items() if verbose else ()):
        counts = AuditReport(findings).counts()
        title = f"{key or '(no solution)'}: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
        render(COLUMNS, [_row(f) for f in findings], title=title)
    echo(report.summary())


def _cause_row(cause) -> tuple:
    head = cause.head
    what = _cut(head.explanation, 160) + _quoted(head.quote, QUOTE_CHARS)
    return (cause.number, cause.verdict, cause.solutions, head.metric, head.printed, head.recomputed,
            len(cause.findings), cause.where(), what)


def _row(f) -> tuple:
    difference = None if f.relative_difference is None else f"{f.relative_difference:+.2%}"
    where = f"{f.file} [{f.sha256_prefix}] {f.place}" if f.file else f.place
    if f.page is not None:
        where = f"{where} (page {f.page})"
    return (f.verdict, f.kind, f.metric, f.printed, f.recomputed, difference, where,
            f.explanation + _quoted(f.quote, None))


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars - 3] + "..."


def _quoted(quote: str | None, chars: int | None) -> str:
    """The printed words a finding judges, on a line of their own under its explanation, as the site shows them."""
    return f"\n“{_cut(quote, chars) if chars else quote}”" if quote else ""


def register(app: typer.Typer) -> None:
    app.command("audit")(audit)
