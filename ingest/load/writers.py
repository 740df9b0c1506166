"""Which writer a read record needs: chosen by the record's type, never by a format's name.

The read stage gives one record per file (a report, a drafted document, a test configuration, a
log, a power log) or, for exports too large to hold, a `StreamedFile` read inside the transaction.
A writer writes it inside the caller's transaction and returns (runs written, warnings).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import bounded_read
from ..bounded_read import Identity
from ..draft import DraftedDocument
from ..errors import ParseError
from ..formats.config.records import JetstressConfig
from ..formats.log import JetstressLog
from ..formats.power import PowerLog
from ..jetstress.records import JetstressReport
from . import load_document, load_report
from .hashed_stream import HashedReader

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

# Writes one read file inside the caller's transaction; returns (runs written, warnings).
Writer = Callable[["Session", int, "int | None"], tuple[int, list[str]]]


@dataclass(frozen=True)
class StreamedFile:
    """A file read while it is written (a perfmon export): its rows stream into COPY."""

    path: Path
    name: str
    opener: Callable[..., Any]  # the format's reader of the open stream
    sha256: str | None = None  # the hash the file is stored under: the bytes streamed must have it
    identity: Identity | None = None  # the file stat'ed: the file opened must be it


def _report(report: JetstressReport) -> Writer:
    def write(session: Session, source_id: int, solution_id: int | None) -> tuple[int, list[str]]:
        _, findings = load_report(session, source_id, report, solution_id=solution_id)
        return 1, [f.message for f in findings]
    return write


def _document(drafted: DraftedDocument) -> Writer:
    return lambda session, source_id, solution_id: load_document(session, source_id, drafted, solution_id=solution_id)


def _stream(streamed: StreamedFile) -> Writer:
    def write(session: Session, source_id: int, solution_id: int | None) -> tuple[int, list[str]]:
        from . import evidence  # its models: only a batch with evidence files declares them

        with HashedReader(bounded_read.open_as(streamed.path, streamed.identity)) as hashed, \
                io.BufferedReader(hashed, buffer_size=1 << 16) as stream:
            warnings = evidence.load_perfmon(session, source_id, streamed.name, stream, opener=streamed.opener)
            if streamed.sha256 is not None and hashed.sha256() != streamed.sha256:  # inside the transaction: undone
                raise ParseError(streamed.name, bounded_read.CHANGED_WHILE_READ)
        return 0, warnings
    return write


def _evidence(load: Callable[[Session, int, Any], list[str]], record: Any) -> Writer:
    return lambda session, source_id, solution_id: (0, load(session, source_id, record))


def psycopg_writes(record: Any) -> bool:
    """Whether the record's writer runs fixed statements alone (db/statements.py), so psycopg's session
    writes it without SQLAlchemy: a report and a document do; evidence files, streamed or whole, build
    theirs with SQLAlchemy (and a report seen twice does: the pipeline writes it again on SQLAlchemy's)."""
    return isinstance(record, (JetstressReport, DraftedDocument))


def writer_for(record: Any) -> Writer:
    """The writer of a read record (see the module docstring); TypeError for a record no writer takes."""
    if isinstance(record, JetstressReport):
        return _report(record)
    if isinstance(record, DraftedDocument):
        return _document(record)
    if isinstance(record, StreamedFile):
        return _stream(record)
    from . import evidence  # its models: only a batch with evidence files declares them

    for kind, load in ((JetstressConfig, evidence.load_config), (JetstressLog, evidence.load_log),
                       (PowerLog, evidence.load_power)):
        if isinstance(record, kind):
            return _evidence(load, record)
    raise TypeError(f"no writer for a {type(record).__name__}")
