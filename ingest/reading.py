"""The read stage of one file, and its start before the command has loaded anything else.

`read_hashed` is what reading a file means, whoever runs it (the batch's own process, a read-ahead
worker): bytes in, a record out, no database. It lives here, not in pipeline.py nor in the draft
package, so that a process can begin reading having imported nothing but this light module:
`esrpdb ingest FILE` forks the worker that reads its first PDF (`reading_started`) as soon as its
command line is recognised, before even the CLI framework loads (cli/console.py, `start_early`; the
ingest command takes that worker, `early_reading`), and each process then imports only its own side:
the worker the formats, PDFium and the drafting rules; the command SQLAlchemy, psycopg and the
catalogue's tables (on two cores the two overlap; loaded before the fork, the formats were a quarter of
a second on both paths). The worker is the read-ahead's own (read_ahead.py: the same function, the
same budget, the file's identity checked when its result is taken), so the catalogue is the same as
when the batch reads the file itself (tests/test_speed_equivalence.py).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import bounded_read, registry
from .parallel.read_ahead import ReadAhead


@dataclass(frozen=True)
class Read:
    """A file's record and the SHA-256 of the very bytes it was read from (None: streamed in the write)."""

    record: Any
    sha256: str | None


def read_hashed(path: Path, module=None) -> Read:
    """The read and draft stages for one file (pure: bytes in, a record out, outside any transaction):
    a document comes back with the systems drafted from it, and without its numbered lines (the
    writer loads none of them), so a file read ahead in a child sends back only what is written.
    The bytes read are hashed: the file is stored under the hash of what was read, never of what was
    stat'ed before (a file swapped meanwhile for one of the same size and time)."""
    from .draft import draft_document
    from .formats.document.records import ReportDocument

    module = module or registry.detect(path.name, bounded_read.read_head(path, registry.HEAD_BYTES))
    data = bounded_read.read_bounded(path, module)
    record = module.parse(str(path), data)
    if isinstance(record, ReportDocument):
        drafted = draft_document(record)
        record.lines = []
        return Read(drafted, hashlib.sha256(data).hexdigest())
    return Read(record, hashlib.sha256(data).hexdigest())


def read_ahead_of_batch(*, alone: bool = False) -> ReadAhead:
    """The batch's read-ahead: `read_hashed` in forked workers, each PDF within its budget (pdf/budget.py).
    Whether a file is still wanted (not in the catalogue yet) is the batch's to say once it has a
    database (ReadAhead.want). `alone`: the batch is one file, whose reading may take both cores
    (pdf/layout.py's reading_alone)."""
    from .pdf.budget import bound_this_process, pdf_clock, refusal_for

    return ReadAhead(read_hashed, setup=_bound_and_alone if alone else bound_this_process, clock=pdf_clock,
                     refusal=refusal_for)


def _bound_and_alone() -> None:
    from .pdf.budget import bound_this_process
    from .pdf.layout import reading_alone

    bound_this_process()
    reading_alone(meanwhile=_drafting_rules_imported)


def _drafting_rules_imported() -> None:
    """The drafting rules imported while a forked process reads the PDF's second half (layout.py's
    reading_alone): this process, done with its half first, waited idle for it, then imported them at the
    document's first drafting (draft/__init__.py), on the command's path. Their import is the same."""
    from .draft import facts, naming, systems  # noqa: F401


def _one_file(paths: Sequence[str | Path]) -> bool:
    """The command names one file (a folder, however small, is a batch that reads ahead)."""
    return len(paths) == 1 and Path(paths[0]).is_file()


def reading_started(paths: Iterable[str | Path]) -> ReadAhead | None:
    """The read-ahead with the batch's first file already being read when that file is a PDF worth a
    process (read_ahead.MIN_BYTES), else None; started before the database's side is even imported.
    The file may turn out to be in the catalogue already: its reading is then stopped (ReadAhead.drop),
    a fraction of a second of a core spent for nothing. Give it to `ingest_paths(ahead=...)`, which
    closes it; a caller that never gets there closes it itself."""
    from .parallel import forked
    from .walk import found_files

    if not forked.available():
        return None
    paths = list(paths)
    first = next((found for found in found_files(paths) if found.refused is None), None)
    if first is None:
        return None
    # Nothing more is loaded before the fork: the worker detects the file and loads the formats, PDFium
    # and the drafting rules while this process loads SQLAlchemy, psycopg and the catalogue (each loads
    # the formats it needs itself: a format loaded here would be on both processes' paths).
    ahead = read_ahead_of_batch(alone=_one_file(paths))
    try:
        ahead.start([first.path])
    except OSError:  # no process to be had: the batch reads the file itself, as it always could
        ahead.close()
        return None
    return ahead


_early: tuple[list[Path], ReadAhead] | None = None  # start_early's reading, until the ingest command takes it

# A command naming one file waits for its worker anyway: its own start-up (typer, psycopg, the catalogue's
# connection) has time to spare, and at a lower priority leaves the two cores to the worker and its split
# (pdf/layout.py reading_alone), whose reading sets the pace. Measured on the 19-page PDF (bench_timeline.py,
# 7 runs each): drafted 0.362 -> 0.343 s, the command's end 0.438 -> 0.422 s. The worker, forked first, keeps
# the usual priority; so does the server the command writes through.
ALONE_COMMAND_NICENESS = 5


def start_early(paths: list[str]) -> None:
    """`reading_started(paths)` before the command line has even been read by the CLI (cli/console.py):
    kept for the ingest command (`early_reading`); stopped at exit if the command never takes it (a
    usage error, say)."""
    global _early
    ahead = reading_started(paths)
    if ahead is not None:
        import atexit
        import os

        _early = ([Path(path) for path in paths], ahead)
        atexit.register(_stop_early)
        if _one_file(paths):
            with contextlib.suppress(OSError):  # a hint: the command runs as usual without it
                os.nice(ALONE_COMMAND_NICENESS)


def early_reading(paths: Iterable[str | Path]) -> ReadAhead | None:
    """start_early's reading when it was started for these very paths, else None (and it is stopped):
    the command line as the CLI read it is the one that counts."""
    global _early
    if _early is None:
        return None
    started_for, ahead = _early
    _early = None
    if started_for == [Path(path) for path in paths]:
        return ahead
    ahead.close()
    return None


def _stop_early() -> None:
    if _early is not None:
        early_reading([])  # no paths match: stopped

