"""Every PDF is read within a budget, in a child process of its own that can be stopped.

A 1 MB PDF can inflate to gigabytes in PDFium, and 2,000 pages sharing one content stream of
150,000 objects keep a core busy for many minutes. So a PDF is read in a forked child with its own
limits, and a document over any of them is that file's one-line failure naming the limit; the
rest of the batch goes on, and nothing of the file is written:
- MAX_DECOMPRESSED_BYTES: what its non-image streams inflate to, counted before PDFium opens it;
- MAX_PAGES (text.py): pages read, the rest said in a warning; MAX_OBJECTS (page.py): objects on a page;
- MAX_READ_SECONDS: wall time, after which the child (and any helper it forked) is killed;
- MAX_READ_MEMORY_BYTES: memory the child may take beyond what it shares with its parent (RLIMIT_DATA).
"""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Callable, Iterator, cast

from ..errors import ParseError
from ..parallel import forked
from ..parallel.workers import data_bytes
from . import streams
from .text import PdfText

MAX_DECOMPRESSED_BYTES = 256 * 2**20  # seed documents inflate to 3 MB or less; a volume of hundreds of pages to tens
MAX_READ_SECONDS = 120.0  # a 300-page PDF reads in a few seconds on one core
MAX_READ_MEMORY_BYTES = 448 * 2**20  # beyond the parent's (a 226-page PDF's ingest peaks near 100 MB); a batch stays < 600 MB
_CPU_SPARE_S = 5  # CPU seconds past the wall-time limit: a child orphaned by a killed parent still stops

Reader = Callable[[str, bytes], PdfText]

_bounded_here = False  # this process reads PDFs within the budget itself (bound_this_process)


def bound_this_process() -> None:  # pragma: no cover - runs in a reading process
    """Put this process, forked to read PDFs (parallel/read_ahead.py), within the budget itself, so
    each PDF is read here rather than in a child of its own: the second fork a PDF cost system time
    (40 PDFs, paired runs: 1.64-1.73 s against 1.20-1.33 s without it). Each PDF is then read inside
    `pdf_clock()`. A document past its time limit stops this process and is refused (refusal_for): its
    budget is spent, and no other process reads it again. One past another limit (PDFium ending the
    process) is read by the batch's own process the usual way, in a bounded child, and its error names
    the limit as it always did."""
    global _bounded_here
    _quiet_and_limit_memory()
    _bounded_here = True


@contextlib.contextmanager
def pdf_clock() -> Iterator[None]:  # pragma: no cover - runs in a reading process
    """One PDF's time limits in a process that reads many: its wall time (SIGALRM's default action
    ends the process) and its processor time (RLIMIT_CPU, counted from what the process has used so
    far). The alarm ends with the PDF's reading (read_within_budget), at the latest here."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    _limit_cpu(int(usage.ru_utime + usage.ru_stime) + 1)
    signal.alarm(int(MAX_READ_SECONDS) + 1)
    try:
        yield
    finally:
        signal.alarm(0)


def _limit_memory_and_cpu() -> None:  # pragma: no cover - runs in the child
    _quiet_and_limit_memory()
    _limit_cpu(0)


def _quiet_and_limit_memory() -> None:  # pragma: no cover - runs in the child
    import faulthandler
    import resource

    # A child PDFium ends for want of memory would print its stack (faulthandler, PDFium's own
    # message) under the batch's table; the parent says what happened, in one line.
    faulthandler.disable()
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    os.close(quiet)

    data = data_bytes()
    if data is not None:
        soft = data + MAX_READ_MEMORY_BYTES
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        resource.setrlimit(resource.RLIMIT_DATA, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _limit_cpu(used_s: int) -> None:  # pragma: no cover - runs in the child
    import resource

    cpu = used_s + int(MAX_READ_SECONDS) + _CPU_SPARE_S
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard == resource.RLIM_INFINITY else min(cpu, hard), hard))


def _read_in_child(read: Reader, name: str, data: bytes) -> tuple[str, object]:  # pragma: no cover - in the child
    """("text", PdfText) or ("refused", ParseError's parts): a ParseError does not pickle as itself."""
    try:
        inflated = streams.decompressed_bytes(data, MAX_DECOMPRESSED_BYTES)
        if inflated > MAX_DECOMPRESSED_BYTES:
            return "refused", (f"its compressed streams inflate to more than {MAX_DECOMPRESSED_BYTES // 2**20:,} MiB "
                               "(the decompressed-bytes limit, MAX_DECOMPRESSED_BYTES); refused", None, None)
        return "text", read(name, data)
    except ParseError as error:
        return "refused", (error.message, error.section, error.line)
    except MemoryError:
        return "refused", (_over_memory(), None, None)


def _over_time() -> str:
    return (f"reading it took longer than {MAX_READ_SECONDS:,.0f} s (the time limit per document, MAX_READ_SECONDS); "
            "stopped and refused")


def _over_cpu() -> str:
    return (f"reading it used more than {MAX_READ_SECONDS:,.0f} s of processor time (the time limit per document, "
            "MAX_READ_SECONDS); stopped and refused")


def refusal_for(reason: str) -> str | None:
    """The refusal for a PDF whose reading process was stopped by the PDF's own clock (pdf_clock: SIGALRM,
    SIGXCPU), else None. One budget a document, whatever process reads it: a PDF that spent its time in a
    reading process is refused, not read again by the batch (a 120 s PDF cost 324 s)."""
    if "SIGALRM" in reason:
        return _over_time()
    if "SIGXCPU" in reason:
        return _over_cpu()
    return None


def _over_memory() -> str:
    return (f"reading it needed more than {MAX_READ_MEMORY_BYTES // 2**20:,} MiB of memory (the memory limit per "
            "document, MAX_READ_MEMORY_BYTES); stopped and refused")


# The limits and their refusals, for a text document read within the same budget (ingest/parallel/document_budget.py).
limit_memory_and_cpu, over_time, over_cpu, over_memory = _limit_memory_and_cpu, _over_time, _over_cpu, _over_memory


def read_within_budget(read: Reader, name: str, data: bytes) -> PdfText:
    """`read(name, data)` run in a bounded child; a ParseError naming the limit when it passes one."""
    if not forked.can_fork():  # no fork here: the byte, page and object caps still hold
        return read(name, data)
    if _bounded_here:
        try:
            kind, value = _read_in_child(read, name, data)
        finally:
            signal.alarm(0)  # the time limit is the PDF's: a result waiting for its turn is not stopped
    else:
        kind, value = _read_in_bounded_child(read, name, data)
    if kind == "refused":
        message, section, line = cast(tuple[str, "str | None", "int | None"], value)
        raise ParseError(name, message, section=section, line=line)
    return cast(PdfText, value)


def _read_in_bounded_child(read: Reader, name: str, data: bytes) -> tuple[str, object]:
    child = forked.start(_read_in_child, read, name, data, setup=_limit_memory_and_cpu, own_group=True)
    try:
        if not forked.finished(child, MAX_READ_SECONDS):
            raise ParseError(name, _over_time())
        try:
            kind, value = forked.result(child)
        except forked.ForkFailed as error:
            reason = str(error)
            if "SIGXCPU" in reason:
                raise ParseError(name, _over_cpu()) from None
            if "MemoryError" in reason or "stopped" in reason:  # PDFium ends the process when an allocation fails
                raise ParseError(name, f"{_over_memory()} ({reason})") from None
            raise ParseError(name, f"PDFium could not read it: {reason}") from None
    finally:
        forked.abandon(child)  # the child and any helper it forked, if still there
    return kind, value
