"""The contract between reading and writing: what a file can become, and what a format must provide.

A format package beside this module is one of two kinds, each a `typing.Protocol` the package (a module)
satisfies as it is: a whole-file format (`WholeFileFormat`: `FORMAT`, `MAX_BYTES`, `identify`,
`parse`), whose `parse` returns one of `RECORDS` below, or a streamed one (`StreamedFormat`: `FORMAT`,
`MAX_BYTES` None, `identify`, `open_perfmon`), whose rows stream into COPY inside the write
transaction. A format that may print what identifies it late (documents) is also `LateIdentified`
(`identify_rest`). `ingest.registry.format_modules` holds each package typed as its protocol, so mypy checks
every format against it; tests/test_contract.py checks the same at run time, and that every `parse`
returns a record named here.

Read stage (here, under formats/, so the formats' own tests and mypy see it beside them): this module
imports records only, never a database, a draft or a writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO, Iterable, Iterator, Protocol, Union, runtime_checkable

from ..jetstress.records import JetstressReport
from .config.records import JetstressConfig
from .document.records import ReportDocument
from .log import JetstressLog
from .manifest.records import SolutionManifest
from .perfmon import CounterPath, Row
from .power import PowerLog

# What a whole-file format's `parse` returns: exactly the types in RECORDS.
ReadRecord = Union[JetstressReport, ReportDocument, JetstressConfig, JetstressLog, PowerLog, SolutionManifest]


@dataclass(frozen=True)
class RecordKind:
    """One kind of record a file can become: which formats give it, what it carries, who writes it."""

    type: type
    formats: tuple[str, ...]  # the FORMATs whose parse returns it (a streamed format: its reader's rows)
    carries: str
    written_by: str  # the write stage's entry for it


RECORDS: tuple[RecordKind, ...] = (
    RecordKind(JetstressReport, ("jetstress_html",),
               "one Jetstress run as printed: type, times, machine, instances, I/O and latency tables, host "
               "counters, test log, thresholds, backup/recovery/checksum rows; values with their units",
               "load.writers.writer_for -> load.load_report"),
    RecordKind(ReportDocument, ("document_text",),
               "an ESRP submission or whitepaper: its title, the Jetstress reports it prints (each a "
               "JetstressReport), its other tables cell by cell with their lines, its reading warnings",
               "draft.draft_document first (a DraftedDocument), then load.writers.writer_for -> load.load_document"),
    RecordKind(JetstressConfig, ("jetstress_config",),
               "a JetstressConfig.xml: the test design, operation mix, thresholds, ESE instances and their paths",
               "load.writers.writer_for -> load.evidence.load_config"),
    RecordKind(JetstressLog, ("jetstress_log",),
               "a Jetstress test log: its timed events and the thresholds it states",
               "load.writers.writer_for -> load.evidence.load_log"),
    RecordKind(PowerLog, ("power_log",),
               "a power analyser's CSV: timestamps and watts as printed",
               "load.writers.writer_for -> load.evidence.load_power"),
    RecordKind(SolutionManifest, ("solution_manifest",),
               "a person's manifest: one solution's key, model, capacity, disks, price, power, trials, runs "
               "(each naming its report, document or table) and claims",
               "load.manifest.load_manifest"),
)
# What crosses from a reading worker to the writer: a ReadRecord, with a ReportDocument drafted into a
# DraftedDocument (ingest.draft) and its numbered lines dropped; a streamed file crosses as its path.


@runtime_checkable
class Format(Protocol):
    """What every format provides: its name, the largest file it reads whole, and a claim on a file's head."""

    @property
    def FORMAT(self) -> str: ...  # noqa: N802 (the module constant's name)

    @property
    def MAX_BYTES(self) -> int | None: ...  # noqa: N802

    def identify(self, name: str, head: bytes) -> bool:
        """True when the file's first `registry.HEAD_BYTES` bytes are this format's; never raises."""
        ...


@runtime_checkable
class WholeFileFormat(Format, Protocol):
    """A format read whole, before the transaction: bytes in, one record out (pure)."""

    def parse(self, name: str, data: bytes) -> ReadRecord:
        """The file's record; `ParseError(name, message, line=...)` for what it cannot read."""
        ...


class StreamedRows(Protocol):
    """A streamed export opened: its header and columns read, iterated once for (timestamp, values) rows."""

    @property
    def header(self) -> object: ...

    @property
    def columns(self) -> tuple[CounterPath, ...]: ...

    def __iter__(self) -> Iterator[Row]: ...

    def __enter__(self) -> StreamedRows: ...

    def __exit__(self, *exc: object) -> None: ...


@runtime_checkable
class StreamedFormat(Format, Protocol):
    """A format too large to hold (perfmon exports): read while it is written, rows into COPY."""

    def open_perfmon(self, name: str, stream: BinaryIO) -> StreamedRows: ...


@runtime_checkable
class LateIdentified(Protocol):
    """A format that may claim a file only from the whole of it (a whitepaper's first report after pages)."""

    def identify_rest(self, name: str, head: bytes, chunks: Iterable[bytes]) -> bool: ...
