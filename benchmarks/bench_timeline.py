"""Where one document's ingest spends its time: both processes' milestones, from the command's first line.

    python benchmarks/bench_timeline.py [--repeat 3] [--file PDF]

`esrpdb ingest FILE` runs on two paths at once: the worker forked to read the PDF (extract, parse,
draft) and the command itself (its imports, the catalogue opened), which then waits for the worker's
result and writes it. The slower path sets the pace, so a cut on the other gains nothing; this prints
both. Each run is the command as typed (`esrpdb --catalogue NAME ingest FILE`, a fresh catalogue on a
private embedded server started before the clock, as bench_one_document.py), run through this file
with `--as-command`, which wraps the milestones below (each function's start and end, each heavy
import's end) and writes one line per event to a log. The wrapping costs a little (~5%): read the
times as where the time goes, and bench_one_document.py for how long the command takes.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (module, function or None for the import alone, label): what the log records. tests/test_benchmarks.py
# checks that every function named exists.
MARKS = (
    ("typer", None, "command: typer imported"),
    ("esrpdb.ingest.reading", "reading_started", "command: worker forked"),
    ("rich.console", None, "command: rich imported"),
    ("psycopg", None, "command: psycopg imported"),
    ("sqlalchemy", None, "command: SQLAlchemy imported"),
    ("esrpdb.ingest.pdf.pdfium_library", "library", "worker: PDFium loaded"),
    ("esrpdb.ingest.pdf.layout", "extract_layout", "worker: PDF extracted"),
    ("esrpdb.ingest.formats.document.reader", "parse", "worker: parsed"),
    ("esrpdb.ingest.draft", "draft_document", "worker: drafted"),
    ("esrpdb.ingest.pipeline", None, "command: ingest pipeline imported"),
    ("esrpdb.db.quick", "owner_engine", "command: psycopg's engine opened"),
    ("esrpdb.db.catalog", "open_catalog", "command: catalogue opened (SQLAlchemy's engine)"),
    ("esrpdb.ingest.pipeline", "ingest_paths", "command: batch done"),
    ("esrpdb.ingest.pipeline", "_read", "command: result taken (from ready)"),
    ("esrpdb.ingest.pipeline", "_write", "command: written"),
    ("esrpdb.ingest.pipeline", "_after_batch", "command: links and ranks"),
    ("esrpdb.cli.ingest_command", "_summarise", "command: summary printed"),
)
_LOG_ENV = "ESRPDB_TIMELINE_LOG"


def _as_command(argv: list[str]) -> None:  # pragma: no cover - runs as the command's own process
    """Run `esrpdb ARGV` with the milestones wrapped, each event a line "pid seconds label" in the log."""
    started = time.perf_counter()
    log = os.open(os.environ[_LOG_ENV], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def mark(label: str) -> None:
        os.write(log, f"{os.getpid()} {time.perf_counter() - started:.4f} {label}\n".encode())

    def wrapped(function, label: str):
        def timed(*args, **kwargs):
            mark(f"> {label}")
            try:
                return function(*args, **kwargs)
            finally:
                mark(label)
        return timed

    marks: dict[str, list[tuple[str | None, str]]] = {}
    for module, function, label in MARKS:
        marks.setdefault(module, []).append((function, label))

    class Marking(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name not in marks:
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            execute = spec.loader.exec_module

            def exec_module(module):
                execute(module)
                for function, label in marks[name]:
                    if function is None:
                        mark(label)
                    else:
                        setattr(module, function, wrapped(getattr(module, function), label))
            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Marking())
    import atexit

    atexit.register(mark, "command: exit")  # the console script ends the process once the exit handlers ran
    from esrpdb.cli import console

    sys.argv = ["esrpdb", *argv]
    console.entry()


def _one_run(home: Path, document: Path, catalogue: str) -> dict[str, float]:
    """{label: seconds} of one run (a function's end; "> label" its start)."""
    from bench_archive import command_env

    env = command_env(home)
    with tempfile.NamedTemporaryFile("r", suffix=".log") as log:
        env[_LOG_ENV] = log.name
        subprocess.run([sys.executable, __file__, "--as-command", "--catalogue", catalogue, "ingest", str(document)],
                       check=True, stdout=subprocess.DEVNULL, env=env)
        events: dict[str, float] = {}
        for line in log.read().splitlines():
            _, seconds, label = line.split(" ", 2)
            events.setdefault(label, float(seconds))  # the first time (a worker's import, not a later one)
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs (the median of each milestone is printed)")
    parser.add_argument("--file", type=Path, help="the PDF to ingest (default: an archive copy of ~20 pages)")
    parser.add_argument("--as-command", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_command is not None:
        _as_command(args.as_command)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import shutil

    from bench_archive import fresh_catalogue
    from bench_one_document import compiled, default_document

    from esrpdb.db import embedded

    compiled()
    document = (args.file or default_document()).resolve()
    print(f"document: {document}", flush=True)
    home = Path(tempfile.mkdtemp(prefix="esrpdb-bench-timeline-"))
    os.chmod(home, 0o711)  # as root the server's own user must enter it
    server = embedded.start(home)
    runs = []
    try:
        fresh_catalogue(server, "archive_template")
        for n in range(args.repeat):
            fresh_catalogue(server, f"timeline_{n}")
            runs.append(_one_run(home, document, f"timeline_{n}"))
    finally:
        embedded.stop(home)
        shutil.rmtree(home, ignore_errors=True)
    labels = sorted({label for run in runs for label in run}, key=lambda label: statistics.median(
        run[label] for run in runs if label in run))
    print(f"seconds from the command's first line, median of {len(runs)} runs (min-max):")
    for label in labels:
        seen = [run[label] for run in runs if label in run]
        print(f"  {statistics.median(seen):6.3f}  ({min(seen):.3f}-{max(seen):.3f})  {label}")


if __name__ == "__main__":
    main()
