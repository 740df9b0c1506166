"""The next PDFs of a batch are read in other processes while the current file is written.

Reading a PDF (PDFium, the layout, the document reader) is the slow half of ingesting one, and
writing it is the other; `ingest_paths` starts reading the next PDF before it writes the current
file, so the two overlap on two cores. The readers are workers forked once and given one PDF after
another (workers.py). A reader runs the pipeline's own reading of the file (a pure
function of its bytes: read, then draft), exactly as the parent would, and sends the result back.
A file the child could not read (a ParseError: a PDF past its reader's limits, say) comes back as
that error, so a file that took a minute to refuse is not read a second time; so does a file whose
reading process its own clock stopped (`refusal`: one budget a document); when the child fails in
any other way, or the file changed meanwhile, the parent reads the file itself, so every error reads
as it always did.
"""

from __future__ import annotations

import contextlib
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from .. import bounded_read
from ..bounded_read import Identity
from ..errors import ParseError
from ..pdf import PDF_MAGIC
from . import forked
from .workers import Clock, Worker

MIN_BYTES = 128 * 1024  # smaller PDFs read faster than a fork pays for itself


def _identity(path: Path) -> Identity | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return bounded_read.identity_of(info)


# PDFs being read at once besides the writer's file: every core kept busy. A reading that has finished
# holds no core: its result is collected (a few megabytes) and its slot goes to the next PDF. A child
# reading a long PDF splits it again (pdf/layout.py): measured, forbidding that split made the batch slower
# (4.5x pdftotext against 3.6x), since the longest PDF then sets the pace on one core.
AHEAD = max(1, os.cpu_count() or 1)
READ_AHEAD_WINDOW = 8  # how far down the batch a PDF may be read ahead (each waiting result holds memory)
MUCH_LARGER = 4  # a PDF this many times larger than another sets the batch's end: the smaller one reads beside it


@dataclass(frozen=True)
class ReadFailed:
    """A ParseError met in the child, in parts (an exception with its own arguments does not pickle as itself)."""

    file: str
    message: str
    section: str | None
    line: int | None

    def error(self) -> ParseError:
        return ParseError(self.file, self.message, section=self.section, line=self.line)


def _reading(work: Callable[[Path], Any], path: Path) -> Any:  # pragma: no cover - runs in the child
    try:
        return work(path)
    except ParseError as error:
        return ReadFailed(error.file, error.message, error.section, error.line)


def _reading_on_its_clock(work: Callable[[Path], Any], clock: Clock, path: Path) -> Any:  # pragma: no cover
    with clock():
        return _reading(work, path)


class Reading(Protocol):
    """A PDF being read in another process: a worker's (workers.py) or a child's of its own (_Child)."""

    @property
    def reading(self) -> int: ...  # the descriptor that is readable once the result is there

    def finished(self) -> bool: ...

    def result(self) -> Any: ...  # forked.ForkFailed when the reading stopped

    def stop(self) -> None: ...


class _Child:
    """A reading at the lowest priority, in a process of its own (a worker's priority cannot be raised
    back once lowered)."""

    def __init__(self, child: forked.Forked) -> None:
        self.child, self.reading, self.pid = child, child.reading, child.pid

    def finished(self) -> bool:
        return forked.finished(self.child)

    def result(self) -> Any:
        return forked.result(self.child)

    def stop(self) -> None:
        forked.abandon(self.child)


class ReadAhead:
    """`work(path)` is what reading a file means (the pipeline's read and draft), run in a child."""

    def __init__(self, work: Callable[[Path], Any], setup: Callable[[], None] | None = None,
                 clock: Clock = contextlib.nullcontext,
                 wanted: Callable[[list[Path]], list[Path]] | None = None,
                 refusal: Callable[[str], str | None] = lambda reason: None) -> None:
        """`setup` runs first in each reading process (the pipeline's: pdf/budget.py's limits on it), and
        `clock()` around each file it reads (the budget's time limits for that PDF); `wanted` keeps, of the
        PDFs worth reading ahead, those still to be read (the pipeline's: not in the catalogue yet);
        `refusal` turns how a reading process stopped into the file's refusal (its clock ran out: the
        file's budget is spent), or None (the writer reads the file itself)."""
        self._work, self._setup, self._clock, self._wanted = work, setup, clock, wanted
        self._refusal = refusal
        self._reading: dict[Path, tuple[Identity, Reading]] = {}
        self._idle: list[Worker] = []  # workers whose result was collected: the next PDFs go to them
        self._read: dict[Path, tuple[Identity, object | None]] = {}  # collected: the document, or None (failed)
        self._passed: set[Path] = set()  # looked at once and not worth a process: never looked at again
        self._upcoming: list[Path] = []  # the PDFs the last start() was given, in the batch's order
        self._meanwhile: Callable[[], None] | None = None  # once, the first time the writer would wait

    def meanwhile(self, work: Callable[[], None]) -> None:
        """`work` runs once, the first time the writer waits for a reading: the writer's own preparation
        (psycopg's plans of the refreshes at commit, db/sessions.py), done in time it would sit idle."""
        self._meanwhile = work

    def want(self, wanted: Callable[[list[Path]], list[Path]]) -> None:
        """From now on, read ahead only the PDFs `wanted` keeps (see __init__); what is being read goes on."""
        self._wanted = wanted

    def start(self, upcoming: list[Path]) -> None:
        """Begin reading upcoming PDFs worth a process of their own, AHEAD being read at a time: the
        next one the writer will need first, then the largest. Files are written in order, so a writer
        that reaches a PDF nobody is reading reads it itself while the readers' cores go on with later
        ones (measured: 12 of 40 similar PDFs read by the writer, which then set the pace); among the
        rest the longest reading starts soonest, and the batch ends sooner. A reading started while a
        PDF MUCH_LARGER times its size is still being read runs at the lowest priority, in a process of
        its own: it takes what the longer one leaves idle instead of slowing it, since the batch ends
        when the longest reading ends (measured on benchmarks/bench_pdf_ingest.py, a 226-page volume
        among 20-page reports: 2.2 s against 2.45 s); PDFs of like sizes share the cores evenly. Readings that have finished are
        collected first, so a result waiting for its turn keeps no core idle."""
        if not forked.available():
            return
        self._upcoming = list(upcoming)
        self._collect_finished()
        candidates = {path: identity for path in upcoming
                      if path not in self._reading and path not in self._read and path not in self._passed
                      and (identity := self._worth_reading(path)) is not None}
        if self._wanted is not None and candidates:
            kept = set(self._wanted(list(candidates)))
            candidates = {path: identity for path, identity in candidates.items() if path in kept}
        free = AHEAD - len(self._reading)
        if free <= 0 or not candidates:
            return
        next_needed = next(iter(candidates))  # dicts keep the batch's order
        largest = sorted((p for p in candidates if p != next_needed), key=lambda p: -candidates[p][0])
        chosen = [next_needed, *largest[:free - 1]]
        for path in sorted(chosen, key=lambda p: -candidates[p][0]):  # the larger first: see the priority above
            size = candidates[path][0]
            # (never the PDF the writer needs next: it would wait on the lowest priority)
            behind_a_larger = path != next_needed and any(identity[0] >= MUCH_LARGER * size
                                                          for identity, _ in self._reading.values())
            self._reading[path] = (candidates[path], self._child(path) if behind_a_larger else self._worker(path))

    def _worker(self, path: Path) -> Worker:
        worker = self._idle.pop() if self._idle else Worker(functools.partial(_reading, self._work), self._setup,
                                                            self._clock)
        worker.send(path)
        return worker

    def _child(self, path: Path) -> _Child:
        return _Child(forked.start(_reading_on_its_clock, self._work, self._clock, path, setup=self._setup,
                                   lower_priority=True))

    def _collected(self, path: Path, reading: Reading):
        """The reading's document, the file's refusal when its reading spent its budget, or None when it
        failed otherwise (the writer then reads the file itself); a worker that can read on waits for the
        next PDF."""
        try:
            return reading.result()
        except forked.ForkFailed as error:
            refused = self._refusal(str(error))
            return ReadFailed(str(path), refused, None, None) if refused else None
        finally:
            if isinstance(reading, Worker) and reading.usable:
                self._idle.append(reading)

    def _collect_finished(self) -> None:
        for path, (identity, child) in list(self._reading.items()):
            if child.finished():
                del self._reading[path]
                self._read[path] = (identity, self._collected(path, child))

    def _worth_reading(self, path: Path) -> Identity | None:
        """The file's identity when it is a PDF large enough to read ahead, else None (and remembered)."""
        identity = _identity(path)
        try:
            if identity is not None and identity[0] >= MIN_BYTES and \
                    bounded_read.read_head(path, len(PDF_MAGIC)) == PDF_MAGIC:
                return identity
        except Exception:  # noqa: BLE001 - the file is read (and its error reported) in its turn
            pass
        self._passed.add(path)
        return None

    def take(self, path: Path):
        """See _take; a reading process that could not be waited for or reaped is no reading: None."""
        try:
            return self._take(path)
        except OSError:
            return None

    def _take(self, path: Path):
        """The parsed document (or the ReadFailed the reading met) when `path` was read ahead and is
        unchanged since, else None. While its reading goes on, a reading that ends meanwhile hands its
        slot to the next upcoming PDF, so no core waits with the writer; so does its own, once taken
        (else the PDF after it, not yet started, would be the writer's to read when it comes)."""
        while path in self._reading and not self._reading[path][1].finished():
            if self._meanwhile is not None:
                work, self._meanwhile = self._meanwhile, None
                work()
                continue
            forked.wait_any([child for _, child in self._reading.values()])
            self.start(self._upcoming)
        if path in self._read:
            identity, document = self._read.pop(path)
        elif path in self._reading:
            identity, child = self._reading.pop(path)
            document = self._collected(path, child)
        else:
            return None
        self.start([upcoming for upcoming in self._upcoming if upcoming != path])
        return document if _identity(path) == identity else None

    def drop(self, path: Path) -> None:
        """The file's turn has passed (written, skipped, failed): a reading it never took is stopped."""
        self._read.pop(path, None)
        reading = self._reading.pop(path, None)
        if reading is not None:
            reading[1].stop()

    def close(self) -> None:
        for _, child in self._reading.values():
            child.stop()
        for worker in self._idle:
            worker.stop()
        self._reading.clear()
        self._read.clear()
        self._idle.clear()
