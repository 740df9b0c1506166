"""`esrpdb ingest PATH…`: load files and folders, one line of outcome per file, exit 1 on any failure."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional

import typer

from .errors import fail, friendly_errors, interruptible
from .render import OutputFormat, render
from .safe_text import echo

PROGRESS_THRESHOLD = 5  # show a bar (piped: a line per file) when there are more files than this
LOG_EVERY_S = 10.0  # piped: a line on a long file in hand at most this often


def ingest(
    ctx: typer.Context,
    paths: List[Path] = typer.Argument(..., help="Files or folders (searched recursively)."),
    solution: Optional[str] = typer.Option(None, "--solution", help="Attach the runs to this existing solution key."),
    new_solution: bool = typer.Option(False, "--new-solution",
                                      help="Create the --solution key if it does not exist yet."),
    failfast: bool = typer.Option(False, "--failfast", help="Stop at the first file that fails."),
    fmt: OutputFormat = typer.Option(OutputFormat.table, "--format", "-f", help="Summary as table, csv or json."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also list the files no format recognised."),
) -> None:
    """Load Jetstress reports (and other recognised files) into the catalogue."""
    from ..ingest.reading import early_reading, reading_started

    if new_solution and not solution:
        fail("--new-solution needs --solution KEY")
    # The first PDF is read in a worker while this process loads the database's side and opens the
    # catalogue (ingest/reading.py): one new document is mostly that start-up. The console script may
    # have forked it already, before the command line was read here (cli/console.py).
    ahead = early_reading(paths) or reading_started(paths)
    try:
        outcomes = _ingest(ctx, paths, ahead, {"solution_key": solution, "new_solution": new_solution,
                                               "failfast": failfast})
    finally:
        if ahead is not None:  # closed by ingest_paths already, unless the catalogue could not be opened
            ahead.close()
    _summarise(outcomes, fmt, verbose)
    if any(o.status == "failed" for o in outcomes):
        reason = ctx.obj.server_disk_full()
        if reason:
            echo(f"Error: {reason}", err=True)
        raise typer.Exit(1)


def _ingest(ctx: typer.Context, paths: List[Path], ahead, options: dict[str, Any]) -> list:
    from rich.console import Console

    from ..ingest.pipeline import ingest_paths, iter_files
    from ..schema.keys import UnknownKey
    from .startup import collector_on

    engine = ctx.obj.writer()
    collector_on()  # the start-up is over: what is imported and opened lives to the end (cli/startup.py)
    sizes = {str(path): _size(path) for path, _ in iter_files(paths)}
    total = len(sizes)
    err = Console(stderr=True)
    done: list = []  # outcomes as they come, so an interrupt can say what was committed
    options = {**options, "ahead": ahead}
    with friendly_errors(ctx, UnknownKey), interruptible(lambda: _interrupted(done, total)):
        if not err.is_terminal:
            with _logged(sizes, done) as record:
                outcomes = ingest_paths(engine, paths, on_outcome=record, **options)
        else:
            from rich.progress import BarColumn, Progress, TextColumn  # a terminal's bar alone needs it

            with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[detail]}"),
                          console=err, transient=True) as bar, _shown(bar, sizes, done) as record:
                outcomes = ingest_paths(engine, paths, on_outcome=record, **options)
    return outcomes


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


@contextlib.contextmanager
def _shown(bar, sizes: dict[str, int], done: list) -> Iterator[Callable[[Any], None]]:
    """On a terminal: a bar of a batch's bytes with its files and pages done, pages per second and the
    time left (ingest_progress.py), and one of bytes and rows for a long file in hand."""
    import time

    from ..ingest.load import progress
    from .ingest_progress import IngestProgress, progress_line

    total = len(sizes)
    counts = IngestProgress(total, sum(sizes.values()))
    started = time.monotonic()
    files = bar.add_task("ingesting", total=counts.bytes_total or None, detail=f"0/{total} files",
                         visible=total > PROGRESS_THRESHOLD)
    in_hand = bar.add_task("", total=None, detail="", visible=False)

    def read(name: str, position: int, size: int, rows: int) -> None:
        bar.update(in_hand, description=os.path.basename(name), completed=position, total=size or None,
                   detail=f"{position / 1e6:,.0f}/{size / 1e6:,.0f} MB, {rows:,} rows", visible=True)

    def record(outcome) -> None:
        done.append(outcome)
        counts.record(sizes.get(outcome.path, 0), outcome.pages)
        bar.update(files, completed=counts.bytes_done, detail=progress_line(counts, time.monotonic() - started))
        bar.update(in_hand, visible=False)

    with progress.listening(read):
        yield record


@contextlib.contextmanager
def _logged(sizes: dict[str, int], done: list) -> Iterator[Callable[[Any], None]]:
    """Piped or redirected: a line on standard error as each file ends (more than PROGRESS_THRESHOLD
    files), and one every LOG_EVERY_S for a long file in hand, so a log shows the ingest moving long
    before its final table."""
    import time

    from ..ingest.load import progress

    total = len(sizes)
    last_line_at = [time.monotonic()]

    def read(name: str, position: int, size: int, rows: int) -> None:
        if time.monotonic() - last_line_at[0] >= LOG_EVERY_S:
            last_line_at[0] = time.monotonic()
            echo(f"ingest: {_display_path(name)}: {position / 1e6:,.0f}/{size / 1e6:,.0f} MB read, {rows:,} rows",
                 err=True)

    def record(outcome) -> None:
        done.append(outcome)
        if total > PROGRESS_THRESHOLD and outcome.status != "ignored":
            last_line_at[0] = time.monotonic()
            failed = f": {outcome.message}" if outcome.status == "failed" and outcome.message else ""
            echo(f"ingest: {len(done)}/{total} files, {outcome.status} {_display_path(outcome.path)}{failed}", err=True)

    with progress.listening(read):
        yield record


def _interrupted(done: list, total: int) -> str:
    """One line: what an interrupted ingest committed (each file is its own transaction) and what not."""
    loaded = sum(1 for o in done if o.status == "loaded")
    other = len(done) - loaded
    in_hand = 1 if len(done) < total else 0
    return (f"interrupted: {loaded} loaded, {other} skipped, failed or ignored, "
            f"{max(total - len(done) - in_hand, 0)} not started; the file in hand was committed whole or not at "
            "all; run again to continue")


def _display_path(path: str) -> str:
    """Relative to the working folder when that is shorter: tables stay readable in a terminal."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if len(relative) < len(path) else path


def _rows(outcomes: list, path, named_by: str | None = None, verbose: bool = False):
    """One row per file, a manifest's referenced files right after it (each with its own status)."""
    for o in outcomes:
        if o.status == "ignored" and not verbose:
            continue
        shown = path(o.path) if named_by is None else f"  ↳ {path(o.path)}"
        yield (shown, o.status, o.format, o.runs, len(o.warnings), o.message, named_by)
        yield from _rows(o.referenced, path, named_by=path(o.path), verbose=verbose)


def _summarise(outcomes: list, fmt: OutputFormat, verbose: bool = False) -> None:
    path = _display_path if fmt is OutputFormat.table else str
    rows = [row if fmt is not OutputFormat.table else row[:-1] for row in _rows(outcomes, path, verbose=verbose)]
    columns = ["file", "status", "format", "runs", "warnings", "message", "named_by"]
    render(columns if fmt is not OutputFormat.table else columns[:-1], rows, fmt, title="Ingest")
    if fmt is OutputFormat.table:
        counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("loaded", "skipped", "failed", "ignored")}
        echo(", ".join(f"{n} {s}" for s, n in counts.items())
             + (" (--verbose lists the ignored files)" if counts["ignored"] and not verbose else ""))


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
