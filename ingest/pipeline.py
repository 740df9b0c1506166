"""`ingest_paths`: files and folders in, one transaction per file, a line of outcome per file.

A file that fails writes nothing and the batch goes on; a file already in the catalogue
(same SHA-256) is skipped without being parsed again. Whole-file formats are parsed before
the transaction opens; perfmon exports stream into COPY inside it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import psycopg

from ..db.sessions import NeedsSqlAlchemy, PsycopgEngine, reading, sqlalchemy_engine, transaction
from ..db.statements import Sql
from ..schema.vocabulary import REPORT_TYPES
from . import bounded_read, load, registry, sanity
from .draft import DraftedDocument
from .errors import ParseError, UnknownFormat, caused_by_interrupt
from .formats.manifest.records import SolutionManifest
from .load.known_files import KnownFiles, sha256_of
from .load.link import link_evidence
from .load.manifest import load_manifest
from .load.writers import StreamedFile, Writer, psycopg_writes, writer_for
from .parallel import document_budget
from .parallel.read_ahead import READ_AHEAD_WINDOW, ReadAhead, ReadFailed
from .reading import Read as Read, read_ahead_of_batch, read_hashed as read_hashed
from .walk import found_files

if TYPE_CHECKING:
    from ..db.sessions import AnyEngine as Engine  # SQLAlchemy's, or psycopg's alone (`esrpdb ingest`)

PARSER_VERSION = "1"


@dataclass
class FileOutcome:
    path: str
    status: str  # loaded | skipped | failed | ignored
    format: str | None = None
    runs: int = 0
    message: str = ""
    warnings: list[str] = field(default_factory=list)
    sha256: str | None = None  # set once the file is read, so callers need not hash it again
    referenced: list["FileOutcome"] = field(default_factory=list)  # a manifest's files, each with its status
    pages: int | None = None  # a PDF's pages once read (progress: pages per second and the time left)


def iter_files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named_explicitly) for each path; folders are walked in sorted order (ingest/walk.py: links
    out of a folder and folders past MAX_FOLDER_DEPTH come too, each to be its own outcome line)."""
    for found in found_files(paths):
        yield found.path, found.explicit


# Fixed text (db/statements.py): `esrpdb ingest FILE` runs it on psycopg alone.
_LOADED = Sql("SELECT id FROM source_files WHERE sha256 = CAST(:sha256 AS varchar)")


def _already_loaded(engine: Engine, sha256: str) -> bool:
    with reading(engine) as session:
        return session.execute(_LOADED, {"sha256": sha256}).first() is not None


def read_file(path: Path, module=None) -> Any:
    """read_hashed's record alone."""
    return read_hashed(path, module).record


def _read(module, name: str, path: Path, ahead: ReadAhead | None = None) -> Read:
    """Read now (a PDF read ahead is taken as read) and sanity-check the record; a perfmon export,
    too large to hold, is a `StreamedFile` read into COPY inside the transaction."""
    opener = getattr(module, "open_perfmon", None)
    if opener is not None:
        return Read(StreamedFile(path, name, opener), None)
    read = ahead.take(path) if ahead is not None else None
    if isinstance(read, ReadFailed):
        raise read.error()
    if read is None:  # a large text document within its own budget, as a PDF is (document_budget.py)
        read = document_budget.read_within_budget(read_hashed, path, module) if document_budget.bounded(module, path) \
            else read_hashed(path, module)
    record = read.record
    sanity.check(name, record.document if isinstance(record, DraftedDocument) else record)  # before any SQL
    return read


def ingest_file(engine: Engine, path: Path, *, explicit: bool = True, solution_key: str | None = None,
                modules=None, ahead: ReadAhead | None = None, known: KnownFiles | None = None,
                walked: tuple[int, int] | None = None) -> FileOutcome:
    """`modules` replaces the registry's format modules (a library user's own importers); `walked` is the
    (device, inode) a folder's walk found at `path`: another file there since is not read.

    One file, one outcome: whatever goes wrong while reading it (a file nested past Python's
    recursion limit, a value no parser expected, memory) is that file's `failed` line, and the
    batch goes on; only an interrupt stops it.
    """
    name = str(path)
    try:
        return _ingest_file(engine, path, explicit=explicit, solution_key=solution_key, modules=modules,
                            ahead=ahead, known=known, walked=walked)
    except RecursionError:
        return FileOutcome(name, "failed", message=f"{name}: nested too deeply to read (past Python's recursion "
                                                   "limit); refused")
    except MemoryError:
        return FileOutcome(name, "failed", message=f"{name}: too large to read within memory; refused")
    except Exception as error:  # noqa: BLE001 - a parser's bug must not stop the other files
        _reraise_interrupt(error)
        detail = (str(error).strip().splitlines() or [""])[0][:200]
        return FileOutcome(name, "failed", message=f"{name}: could not be read: {type(error).__name__}: {detail}")


def _reraise_interrupt(error: BaseException) -> None:
    """An interrupt is not this file's failure: it stops the batch (see caused_by_interrupt)."""
    if caused_by_interrupt(error):
        raise KeyboardInterrupt from error


# Names Jetstress gives its files: empty, one of these is a report that was not saved or copied whole.
JETSTRESS_NAMES = re.compile(rf"^(?:(?:{'|'.join(REPORT_TYPES)})_.*|JetstressConfig.*\.xml|XmlConfig_.*\.xml|.*\.blg)$",
                             re.IGNORECASE)


def _ingest_file(engine: Engine, path: Path, *, explicit: bool, solution_key: str | None, modules,
                 ahead: ReadAhead | None = None, known: KnownFiles | None = None,
                 walked: tuple[int, int] | None = None) -> FileOutcome:
    name = str(path)
    try:
        info = bounded_read.regular_file(path)
        identity = bounded_read.identity_of(info)
        if walked is not None and (info.st_dev, info.st_ino) != walked:
            return FileOutcome(name, "failed", message=f"{name}: {REPLACED_SINCE_LISTED}")
        if info.st_size == 0 and (explicit or JETSTRESS_NAMES.match(path.name)):
            return FileOutcome(name, "failed", message=f"{name}: the file is empty (0 bytes); a report that was "
                                                       "not saved or not copied whole?")
        module = registry.detect(path.name, bounded_read.read_head(path, registry.HEAD_BYTES), modules,
                                 rest=bounded_read.chunks(path))
        bounded_read.check_size(path, info.st_size, module)
    except UnknownFormat as error:
        if explicit:
            return FileOutcome(name, "failed", message=f"{name}: {error.message}")
        return FileOutcome(name, "ignored", message="not a recognised format")
    except ParseError as error:
        return FileOutcome(name, "failed", message=str(error))
    try:
        sha256 = known.sha256(path, identity) if known is not None else sha256_of(path, identity)
    except ParseError as error:
        return FileOutcome(name, "failed", module.FORMAT, message=str(error))
    if _changed(path, identity):
        return FileOutcome(name, "failed", module.FORMAT, message=f"{name}: {CHANGED_WHILE_READ}")
    held = known.held(sha256) if known is not None else None  # asked already when it was read ahead
    if held if held is not None else _already_loaded(engine, sha256):
        return FileOutcome(name, "skipped", module.FORMAT, message="already ingested", sha256=sha256)
    try:
        read = _read(module, name, path, ahead)
    except ParseError as error:
        return FileOutcome(name, "failed", module.FORMAT, message=str(error), sha256=sha256)
    if read.sha256 is not None and read.sha256 != sha256:  # swapped between its hash and its read
        return FileOutcome(name, "failed", module.FORMAT, message=f"{name}: {CHANGED_WHILE_READ}")
    record = read.record
    if isinstance(record, StreamedFile):  # hashed as it streams: the bytes written must be the bytes hashed
        record = dataclasses.replace(record, sha256=sha256, identity=identity)
    if isinstance(record, SolutionManifest):  # it names other files: those first, each on its own
        return _ingest_manifest(engine, module, path, sha256, record)
    outcome = _write(engine if psycopg_writes(record) else sqlalchemy_engine(engine), module, path, sha256,
                     writer_for(record), solution_key=solution_key, identity=identity)
    if isinstance(record, DraftedDocument):
        outcome.pages = record.document.pages
    return outcome


# A file still being written (or replaced) while it is read would be stored under the hash of one
# version with the figures of another, and load again as "new" next time: it is refused whole.
CHANGED_WHILE_READ = bounded_read.CHANGED_WHILE_READ
REPLACED_SINCE_LISTED = ("not the file its folder held when the batch listed it (a link pointed elsewhere, or the file "
                         "replaced since); not read: ingest it again")


def _changed(path: Path, identity: bounded_read.Identity) -> bool:
    try:
        now = path.stat()
    except OSError:
        return True
    return bounded_read.identity_of(now) != identity


def _write(engine: Engine, module, path: Path, sha256: str, write: Writer, *,
           solution_key: str | None = None, message: str = "", identity: bounded_read.Identity | None = None) -> FileOutcome:
    """Claim the file's SHA-256 and write it in one transaction; any refusal leaves nothing behind. A statement
    only SQLAlchemy runs, met on psycopg's session, writes the file again on SQLAlchemy's engine: the first
    transaction was rolled back (db/sessions.py)."""
    try:
        return _write_once(engine, module, path, sha256, write, solution_key=solution_key, message=message,
                           identity=identity)
    except NeedsSqlAlchemy:
        return _write_once(sqlalchemy_engine(engine), module, path, sha256, write, solution_key=solution_key,
                           message=message, identity=identity)


def _database_errors() -> tuple[type[BaseException], ...]:
    """psycopg's errors, and SQLAlchemy's once it is imported (nothing else can have raised one)."""
    import sys

    sqlalchemy_errors = sys.modules.get("sqlalchemy.exc")
    return (psycopg.Error,) if sqlalchemy_errors is None else (psycopg.Error, sqlalchemy_errors.SQLAlchemyError)


def _write_once(engine: Engine, module, path: Path, sha256: str, write: Writer, *, solution_key: str | None,
                message: str, identity: bounded_read.Identity | None) -> FileOutcome:
    name = str(path)
    source = load.SourceInfo(sha256, name, path.name, module.FORMAT, f"{module.FORMAT}/{PARSER_VERSION}",
                             path.stat().st_size)
    try:
        with transaction(engine) as session:
            source_id = load.claim_source_file(session, source)
            if source_id is None:
                return FileOutcome(name, "skipped", module.FORMAT, message="already ingested", sha256=sha256)
            solution_id = load.solution_id_for(session, solution_key) if solution_key else None
            runs, warnings = write(session, source_id, solution_id)
            if identity is not None and _changed(path, identity):  # read (a perfmon export: streamed) since hashed
                raise ParseError(name, CHANGED_WHILE_READ)
    except ParseError as error:
        return FileOutcome(name, "failed", module.FORMAT, message=str(error), sha256=sha256)
    except _database_errors() as error:
        _reraise_interrupt(error)
        original = getattr(error, "orig", None) or error
        detail = str(original).strip().splitlines()[0]
        why = ("the database server has no space left on device"  # 53100: disk_full
               if getattr(original, "sqlstate", None) == "53100" else "database refused the data")
        return FileOutcome(name, "failed", module.FORMAT, message=f"{name}: {why}: {detail}", sha256=sha256)
    return FileOutcome(name, "loaded", module.FORMAT, runs=runs, warnings=warnings, message=message, sha256=sha256)


def _ingest_manifest(engine: Engine, module, path: Path, sha256: str, manifest: SolutionManifest) -> FileOutcome:
    """Load the files a manifest names (each on its own), then the manifest in one transaction."""
    name = str(path)
    hashes: dict[Path, str] = {}
    referenced: list[FileOutcome] = []
    root = path.parent.parent.resolve()  # the catalogue folder: manifests sit one level below it

    def failed(message: str) -> FileOutcome:
        return FileOutcome(name, "failed", module.FORMAT, message=message, sha256=sha256, referenced=referenced)

    for where, written in manifest.referenced_paths():
        if "\x00" in written:
            return failed(f"{name} › {where}: the path holds a NUL character; no file can have that name")
        if Path(written).is_absolute():
            return failed(f"{name} › {where}: {written!r} is absolute; name files relative to the manifest")
        target = (path.parent / written).resolve()
        if not target.is_relative_to(root):
            return failed(f"{name} › {where}: {written!r} leads outside the catalogue folder {root}")
        if target in hashes:
            continue
        if not target.is_file():
            return failed(f"{name} › {where}: no such file {written!r}")
        outcome = ingest_file(engine, target)
        referenced.append(outcome)
        if outcome.status == "failed":
            return failed(f"{name} › {where}: {outcome.message}")
        hashes[target] = outcome.sha256
    newly_loaded = sum(o.status == "loaded" for o in referenced)

    def write_manifest(session, source_id, solution_id):
        warnings = load_manifest(session, source_id, manifest, path.parent, lambda p: hashes[p.resolve()])
        return len(manifest.runs), warnings

    outcome = _write(sqlalchemy_engine(engine), module, path, sha256, write_manifest,
                     message=f"{len(hashes)} referenced files ({newly_loaded} newly loaded)")
    outcome.referenced = referenced
    return outcome


def ingest_paths(
    engine: Engine,
    paths: Iterable[str | Path],
    *,
    solution_key: str | None = None,
    failfast: bool = False,
    on_outcome: Callable[[FileOutcome], None] | None = None,
    modules=None,
    new_solution: bool = False,
    ahead: ReadAhead | None = None,
) -> list[FileOutcome]:
    """Load every file; `solution_key` must name a solution unless `new_solution` creates it. `ahead`: the
    read-ahead ingest/reading.py's reading_started began before the database was at hand (its reading of the first
    file is taken as the batch's own); closed here whatever happens."""
    try:
        if solution_key is not None:
            _require_solution(engine, solution_key, create=new_solution)
        files = list(found_files(paths))
    except BaseException:
        if ahead is not None:
            ahead.close()
        raise
    outcomes = []
    # A PDF read ahead is read within the budget by its reading child itself (pdf/budget.py); a library
    # caller's own importers parse as they parse, nothing read ahead.
    known = KnownFiles(engine)
    if modules is not None and ahead is not None:
        ahead.close()
        ahead = None
    elif modules is None:
        ahead = ahead or read_ahead_of_batch()
        ahead.want(known.not_held)
        if isinstance(engine, PsycopgEngine):
            ahead.meanwhile(engine.warm_up)
    try:
        for n, found in enumerate(files):
            path = found.path
            if ahead is not None:  # the next PDFs not in the catalogue yet are read while this file is written
                ahead = _or_give_up(ahead, ahead.start, [upcoming.path for upcoming in files[n + 1:n + 1 + READ_AHEAD_WINDOW]
                                                        if upcoming.refused is None])
            if found.refused is not None:
                outcome = FileOutcome(str(path), found.status, message=found.refused)
            elif not path.exists() and not path.is_symlink():
                outcome = FileOutcome(str(path), "failed", message=f"{path}: no such file or folder")
            else:
                outcome = ingest_file(engine, path, explicit=found.explicit, solution_key=solution_key, modules=modules,
                                      ahead=ahead, known=known, walked=found.inode)
            if ahead is not None:  # read ahead for a file that was skipped or failed before its parse
                ahead = _or_give_up(ahead, ahead.drop, path)
            outcomes.append(outcome)
            if on_outcome:
                on_outcome(outcome)
            if failfast and outcome.status == "failed":
                break
    except BaseException:
        if any(o.status == "loaded" for o in outcomes):  # Ctrl-C, a crash: the files that committed are finished
            with contextlib.suppress(Exception):  # as a whole batch's are; the interrupt itself goes on up
                _after_batch(engine)
        raise
    finally:
        if ahead is not None:
            with contextlib.suppress(OSError):  # never in place of the batch's own outcome
                ahead.close()
    if any(o.status == "loaded" for o in outcomes):
        _after_batch(engine)
    return outcomes


def _or_give_up(ahead: ReadAhead, step: Callable[[Any], None], argument: Any) -> ReadAhead | None:
    """The read-ahead, or None once a step of it failed (a process it could not start or reap): the batch
    goes on reading each file itself, and ends with its per-file table as always."""
    try:
        step(argument)
        return ahead
    except OSError:
        with contextlib.suppress(OSError):
            ahead.close()
        return None


def _after_batch(engine: Engine) -> None:
    """Once a batch, after its commits: evidence files linked to their runs, and the class ranks stored
    again (while stale, reads compute them: slower, never wrong)."""
    with transaction(engine) as session:
        link_evidence(session)
    from ..db.class_ranks import rebuild_class_ranks

    rebuild_class_ranks(engine)


def _require_solution(engine: Engine, key: str, *, create: bool) -> None:
    """A mistyped --solution must not quietly become an empty solution of its own."""
    from ..schema.keys import require_solutions

    if create:
        with transaction(engine) as session:
            load.solution_id_for(session, key)
        return
    require_solutions(sqlalchemy_engine(engine), key)
