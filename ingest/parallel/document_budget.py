"""One budget a text document, as a PDF has one (ingest/pdf/budget.py): its time and its memory, wherever it is read.

A text document of 10^6 table rows (34 MB, under the 64 MB cap) took the writer itself to 2.7 GB and minutes
of one core to read and draft, and a batch with it did not end. A text document of BOUNDED_FROM_BYTES or
more is therefore read (parsed and drafted: the pure stages) in a forked child of its own with the PDF's
limits (the same constants, MAX_READ_SECONDS and MAX_READ_MEMORY_BYTES, one budget a document whatever
its format); one past a limit is that file's one-line failure naming the file and the limit, nothing of
it is written, and the batch goes on. A smaller one is read in the writer (a fork costs more than it
saves). Text documents are never read ahead (read_ahead.py reads PDFs), so the writer's child is
the only process that reads one; a PDF keeps its own budget (read in a bounded child by pdf/layout.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, cast

from .. import bounded_read
from ..errors import ParseError
from ..formats.document import FORMAT as DOCUMENT_FORMAT, PDF_MAGIC
from ..pdf import budget
from . import forked

BOUNDED_FROM_BYTES = 1 * 2**20  # the seed documents are under 100 kB; a 200-page volume as text is a few MB


def bounded(module: Any, path: Path) -> bool:
    """Whether `path`, read by `module`, is a text document read within a budget of its own."""
    if getattr(module, "FORMAT", None) != DOCUMENT_FORMAT or not forked.can_fork():
        return False
    try:
        return path.stat().st_size >= BOUNDED_FROM_BYTES and bounded_read.read_head(path, len(PDF_MAGIC)) != PDF_MAGIC
    except (OSError, ParseError):
        return False  # read (and its error said) in the writer, as any file


def read_within_budget(read: Callable[[Path, Any], Any], path: Path, module: Any) -> Any:
    """`read(path, module)` in a bounded child; a ParseError naming the file and the limit it passed."""
    name = str(path)
    child = forked.start(_read_in_child, read, path, module, setup=budget.limit_memory_and_cpu, own_group=True)
    try:
        if not forked.finished(child, budget.MAX_READ_SECONDS):
            raise ParseError(name, budget.over_time())
        try:
            kind, value = forked.result(child)
        except forked.ForkFailed as error:
            reason = str(error)
            if "SIGXCPU" in reason:
                raise ParseError(name, budget.over_cpu()) from None
            if "MemoryError" in reason or "stopped" in reason:
                raise ParseError(name, f"{budget.over_memory()} ({reason})") from None
            raise ParseError(name, f"could not be read: {reason}") from None
    finally:
        forked.abandon(child)  # the child, if still there
    if kind == "refused":
        message, section, line = cast(tuple[str, "str | None", "int | None"], value)
        raise ParseError(name, message, section=section, line=line)
    return value


def _read_in_child(read: Callable[[Path, Any], Any], path: Path, module: Any) -> tuple[str, object]:  # pragma: no cover
    """("read", what `read` gives) or ("refused", a ParseError's parts): a ParseError does not pickle as itself."""
    try:
        return "read", read(path, module)
    except ParseError as error:
        return "refused", (error.message, error.section, error.line)
    except MemoryError:
        return "refused", (budget.over_memory(), None, None)
