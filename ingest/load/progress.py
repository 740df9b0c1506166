"""How far the file in hand has got (bytes read, rows written), for whoever shows it.

A context variable rather than a parameter threaded through every reader: progress is a display
concern, and a library caller who does not listen pays one lookup per few thousand rows.
"""

from __future__ import annotations

import contextlib
import os
from contextvars import ContextVar
from typing import BinaryIO, Callable, Iterator

Listener = Callable[[str, int, int, int], None]  # (file name, bytes read, file bytes, rows written)

_listener: ContextVar[Listener | None] = ContextVar("esrpdb_ingest_progress", default=None)

ROWS_BETWEEN_REPORTS = 4096


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def reporter(name: str, stream: BinaryIO) -> Callable[[int], None]:
    """`report(rows)`: tells the listener the stream's position; does nothing when nobody listens."""
    listener = _listener.get()
    if listener is None:
        return lambda rows: None
    try:
        size = os.fstat(stream.fileno()).st_size
    except (AttributeError, OSError, ValueError):
        size = 0

    def report(rows: int) -> None:
        try:
            position = stream.tell()
        except (OSError, ValueError):
            position = 0
        listener(name, position, size, rows)

    return report
