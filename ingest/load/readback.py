"""What a manifest reads back from the catalogue before it writes: its files' ids, their report runs,
tables and cells. Planning (load/plan.py) does every read here, so writing needs none."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ...db.sessions import as_writer
from ...db.statements import Sql
from ..errors import ParseError
from ..formats.manifest.records import SolutionManifest

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

_DASHES = re.compile(r"[\u2010-\u2015\u2212-]+")


def normalise_label(text: str) -> str:
    """Labels compare without case, dash style or spacing: "Total IOPS – Run 2" = "total iops - run 2"."""
    return " ".join(_DASHES.sub("-", text).replace(" - ", "-").replace("-", " - ").lower().split())


# Every column of runs, by name (rows are read by attribute), then the file's report index and whether a
# provisional solution holds the run. The columns are the catalogue's own: a run as the writer of its
# document reads it back, whatever revision added a column.
_RUNS_OF_FILE = Sql(
    "SELECT runs.*, run_sources.report_index AS sighted_index, solutions.provisional AS held_provisional "
    "FROM runs JOIN run_sources ON run_sources.run_id = runs.id LEFT OUTER JOIN solutions ON solutions.id = runs.solution_id "
    "WHERE run_sources.source_file_id = CAST(:source_file_id AS integer) ORDER BY run_sources.report_index")


class TableRead(NamedTuple):
    """A document table as the writer of its document knows it (the columns a manifest reads)."""

    id: int
    title: str
    kind: str
    columns: list[str]


# A written cell's row (load_document_tables): its document_cells columns, in this order.
CELL_COLUMNS = ("table_id", "row_ordinal", "column_ordinal", "row_label", "column_label", "value_printed",
                "value_number", "source_line")
_COLUMN_AT, _LABEL_AT, _PRINTED_AT, _NUMBER_AT = (CELL_COLUMNS.index(name) for name in (
    "column_ordinal", "row_label", "value_printed", "value_number"))  # where cells() reads a written row


class CellRead(NamedTuple):
    row_label: str
    value_printed: str
    value_number: float | None


class ReadBack:
    """A file's report runs, tables and cells, and the runs confirmed solutions hold of it, as read
    back: shared by the manifests of one document's drafted systems (its tables do not change while
    they load, and their solutions are provisional), which read the same ones (a document of five
    systems read its tables and a column's cells five times)."""

    def __init__(self) -> None:
        self.runs: dict[int, list] = {}
        self.tables: dict[int, list] = {}
        self.cells: dict[tuple[int, int], dict] = {}
        self.confirmed: dict[int, set[int]] = {}
        self.written_cells: dict[int, list[tuple]] = {}  # table id -> its cell rows (CELL_COLUMNS), as just written

    def seed_tables(self, source_id: int, tables: list[TableRead], cells: list[tuple]) -> None:
        """The tables and cells the caller has just written for `source_id`: no query reads them back."""
        self.tables[source_id] = tables
        for table in tables:
            self.written_cells[table.id] = []
        for cell in cells:
            self.written_cells.setdefault(cell[0], []).append(cell)


class Catalogue:
    """What one manifest reads back, each fetched once: a manifest names the same document for many
    runs and claims; one query per file or table (not per mention) keeps it to a few round trips."""

    def __init__(self, session: Session, manifest: SolutionManifest, base: Path, sha_of,
                 known_sources: dict[str, int] | None = None, read_back: ReadBack | None = None) -> None:
        self.session, self.manifest = as_writer(session), manifest
        sha_by_path = {written: sha_of(base / written) for _, written in manifest.referenced_paths()}
        found = dict(known_sources or {})  # a drafted system's document: its id is known, no query for it
        wanted = set(sha_by_path.values()) - found.keys()
        if wanted:
            from sqlalchemy import select  # a person's manifest alone: a document's systems know their file

            from ...schema.tables import SourceFile

            found.update((sha, source_id) for sha, source_id in session.execute(
                select(SourceFile.sha256, SourceFile.id).where(SourceFile.sha256.in_(wanted))))
        self.source_ids = {written: found.get(sha) for written, sha in sha_by_path.items()}
        self.shared = read_back or ReadBack()

    def source_id(self, written: str, where: str) -> int:
        found = self.source_ids.get(written)
        if found is None:
            raise ParseError(self.manifest.source_name, "the file it names is not in the catalogue (it failed to load?)",
                             section=where)
        return found

    def _read_runs(self, source_id: int) -> None:
        """The file's runs (through run_sources) with whether a confirmed solution holds each: one query
        for both report_runs and confirmed_runs."""
        rows = self.session.execute(_RUNS_OF_FILE, {"source_file_id": source_id}).all()  # the run's columns, then two
        self.shared.runs[source_id] = [(run, run.sighted_index) for run in rows if run.origin == "report"]
        self.shared.confirmed[source_id] = {run.id for run in rows if run.held_provisional is False}

    def report_runs(self, source_id: int) -> list:
        """(run, report index) of every report the file prints (a run may have another file as first source)."""
        if source_id not in self.shared.runs:
            self._read_runs(source_id)
        return self.shared.runs[source_id]

    def confirmed_runs(self, source_id: int) -> set[int]:
        """The file's runs a confirmed solution (a person's manifest) holds: a drafted system's load (the
        only caller) attaches runs to provisional solutions alone, so the set cannot grow while it loads."""
        if source_id not in self.shared.confirmed:
            self._read_runs(source_id)
        return self.shared.confirmed[source_id]

    def tables(self, source_id: int) -> list:
        shared = self.shared
        if source_id not in shared.tables:
            from sqlalchemy import select  # a person's manifest alone: a document's systems have theirs as written

            from ...schema.tables import DocumentTable

            shared.tables[source_id] = list(self.session.execute(
                select(DocumentTable).where(DocumentTable.source_file_id == source_id)
                .order_by(DocumentTable.ordinal)).all())
        return shared.tables[source_id]

    def cells(self, table_id: int, column: int) -> dict:
        """The column's cells by normalised row label."""
        shared = self.shared
        if (table_id, column) not in shared.cells:
            written = shared.written_cells.get(table_id)
            if written is not None:
                cells: Any = (CellRead(c[_LABEL_AT], c[_PRINTED_AT], c[_NUMBER_AT]) for c in written
                              if c[_COLUMN_AT] == column)
            else:
                from sqlalchemy import select  # a person's manifest alone, as tables()

                from ...schema.tables import DocumentCell

                cells = self.session.execute(select(DocumentCell).where(
                    DocumentCell.table_id == table_id, DocumentCell.column_ordinal == column)).all()
            shared.cells[(table_id, column)] = {normalise_label(c.row_label): c for c in cells}
        return shared.cells[(table_id, column)]
