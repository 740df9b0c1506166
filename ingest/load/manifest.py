"""Write a solution manifest: the solution, its disks and trials, its runs, its claims.

The files a manifest names are ingested first (each in its own transaction, by the
pipeline); this module then attaches their runs to the solution, creates runs known only
from a document's result table, and records the claims. Everything here happens in the
manifest's own transaction, so a manifest that names a run it cannot find writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import cast

from sqlalchemy import CursorResult, delete, exists, insert, literal_column, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from ...schema import (
    Claim,
    DiskGroup,
    DocumentCell,
    DocumentTable,
    PerfCounter,
    PerfFile,
    PowerFile,
    PublishedValue,
    Run,
    RunSource,
    Solution,
    SolutionFact,
    SourceFile,
    Trial,
)
from ...schema.units import latency_ms
from ..errors import ParseError
from ..formats.manifest.records import LATENCY_ROW_FIELDS, RunSpec, SolutionManifest, TableRef
from .host_tests import host_test_run
from .rows import copy_dicts, index_below_reports, solution_id_for

_DASHES = re.compile(r"[\u2010-\u2015\u2212-]+")


def normalise_label(text: str) -> str:
    """Labels compare without case, dash style or spacing: "Total IOPS – Run 2" = "total iops - run 2"."""
    return " ".join(_DASHES.sub("-", text).replace(" - ", "-").replace("-", " - ").lower().split())


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


class _Catalogue:
    """What a manifest reads back from the catalogue, each fetched once per manifest.

    A manifest names the same document for many runs and claims; one query per file, table
    or solution (not per mention) keeps a manifest's transaction to a few round trips.
    """

    def __init__(self, session: Session, manifest: SolutionManifest, base: Path, sha_of,
                 known_sources: dict[str, int] | None = None, read_back: ReadBack | None = None) -> None:
        self.session, self.manifest = session, manifest
        sha_by_path = {written: sha_of(base / written) for _, written in manifest.referenced_paths()}
        found = dict(known_sources or {})  # a drafted system's document: its id is known, no query for it
        wanted = set(sha_by_path.values()) - found.keys()
        if wanted:
            found.update((sha, source_id) for sha, source_id in session.execute(
                select(SourceFile.sha256, SourceFile.id).where(SourceFile.sha256.in_(wanted))))
        self.source_ids = {written: found.get(sha) for written, sha in sha_by_path.items()}
        shared = read_back or ReadBack()
        self._runs, self._tables, self._cells, self._confirmed = shared.runs, shared.tables, shared.cells, shared.confirmed
        self._solutions: dict[str, int] = {}
        self._labelled_runs: dict[tuple[int, str], int | None] = {}

    def source_id(self, written: str, where: str) -> int:
        found = self.source_ids.get(written)
        if found is None:
            raise ParseError(self.manifest.source_name, "the file it names is not in the catalogue (it failed to load?)",
                             section=where)
        return found

    def report_runs(self, source_id: int) -> list:
        """(run, report index) of every report the file prints (a run may have another file as first source)."""
        if source_id not in self._runs:
            query = (select(Run, RunSource.report_index).join(RunSource, RunSource.run_id == Run.id)
                     .where(RunSource.source_file_id == source_id, Run.origin == "report")
                     .order_by(RunSource.report_index))
            self._runs[source_id] = [tuple(row) for row in self.session.execute(query).all()]
        return self._runs[source_id]

    def tables(self, source_id: int) -> list:
        if source_id not in self._tables:
            self._tables[source_id] = list(self.session.execute(
                select(DocumentTable).where(DocumentTable.source_file_id == source_id)
                .order_by(DocumentTable.ordinal)).scalars())
        return self._tables[source_id]

    def cells(self, table_id: int, column: int) -> dict:
        """The column's cells by normalised row label."""
        if (table_id, column) not in self._cells:
            self._cells[(table_id, column)] = {
                normalise_label(c.row_label): c
                for c in self.session.execute(select(DocumentCell).where(
                    DocumentCell.table_id == table_id, DocumentCell.column_ordinal == column)).scalars()
            }
        return self._cells[(table_id, column)]

    def confirmed_runs(self, source_id: int) -> set[int]:
        """The file's report runs a confirmed solution (a person's manifest) holds, fetched once: a drafted
        system's load (the only caller) attaches runs to provisional solutions alone, so the set cannot
        grow while it loads."""
        if source_id not in self._confirmed:
            self._confirmed[source_id] = set(self.session.execute(
                select(Run.id).join(RunSource, RunSource.run_id == Run.id).join(Solution, Solution.id == Run.solution_id)
                .where(RunSource.source_file_id == source_id, ~Solution.provisional)).scalars())
        return self._confirmed[source_id]

    def solution_id(self, key: str) -> int:
        if key not in self._solutions:
            self._solutions[key] = solution_id_for(self.session, key)
        return self._solutions[key]

    def labelled_run(self, solution_id: int, label: str) -> int | None:
        if (solution_id, label) not in self._labelled_runs:
            self._labelled_runs[(solution_id, label)] = self.session.execute(select(Run.id).where(
                Run.solution_id == solution_id, Run.run_label == label).order_by(Run.id)).scalars().first()
        return self._labelled_runs[(solution_id, label)]


def _upsert_solution(session: Session, manifest: SolutionManifest, provisional_source: int | None) -> tuple[int, bool]:
    """A manifest confirms the solution of its key (a provisional one drafted from a document included)."""
    capacity, price, power = manifest.capacity, manifest.price, manifest.power
    values = dict(
        provisional=provisional_source is not None, derived_from_source_file_id=provisional_source,
        vendor=manifest.vendor, model=manifest.model, label=manifest.label, connectivity=manifest.connectivity,
        raid_level=manifest.raid_level, notes=manifest.notes,
        usable_capacity_bytes=capacity.usable_bytes if capacity else None,
        usable_capacity_printed=f"{capacity.usable} {capacity.unit} ({capacity.base})" if capacity else None,
        list_price_amount=price.amount if price else None, list_price_currency=price.currency if price else None,
        list_price_year=price.year if price else None, list_price_type=price.type if price else None,
        list_price_includes=price.includes if price else None, list_price_source=price.source if price else None,
        idle_power_w=power.idle_w if power else None, active_power_w=power.active_w if power else None,
        power_boundary=power.boundary if power else None, power_source=power.source if power else None,
    )
    statement = pg_insert(Solution).values(key=manifest.key, **values)
    # (id, whether the row is new): a row the INSERT made has no deleting transaction yet (xmax 0); one the
    # ON CONFLICT branch updated has this one's. A new solution has no disks or claims to replace.
    upsert = statement.on_conflict_do_update(index_elements=["key"], set_=values)
    solution_id: int
    new: bool
    solution_id, new = session.execute(upsert.returning(Solution.id, literal_column("xmax = 0"))).one()
    return solution_id, bool(new)


def _find_report_run(catalogue: _Catalogue, source_id: int, run: RunSpec, where: str) -> int:
    """The run of the report the manifest means, among those the file prints."""
    found = catalogue.report_runs(source_id)
    candidates = [r for r, _ in found]
    match = run.match
    if match is not None:
        if match.report_index is not None:
            candidates = [r for r, index in found if index == match.report_index]
        if match.machine_name is not None:
            candidates = [r for r in candidates if (r.machine_name or "").lower() == match.machine_name.lower()]
        if match.report_type is not None:
            candidates = [r for r in candidates if r.report_type == match.report_type]
    if len(candidates) != 1:
        raise ParseError(catalogue.manifest.source_name, f"{len(candidates)} reports match (need exactly 1)",
                         section=where)
    return candidates[0].id


def _table_values(catalogue: _Catalogue, source_id: int, ref: TableRef, where: str):
    """(metric, value, printed, table id, labels) for each row field of a table reference."""
    name = catalogue.manifest.source_name
    tables = catalogue.tables(source_id)
    wanted = normalise_label(ref.title)
    matching = [t for t in tables if normalise_label(t.title).startswith(wanted) or t.kind == ref.title]
    if not matching:
        titles = "; ".join(sorted({t.title for t in tables})) or "none"
        raise ParseError(name, f"no table titled {ref.title!r}; tables: {titles}", section=f"{where}.title")
    column_wanted = normalise_label(ref.column)
    for table in matching:
        columns = [normalise_label(c) for c in table.columns]
        if column_wanted in columns:
            break
    else:
        found = "; ".join(c for t in matching for c in t.columns)
        raise ParseError(name, f"no column {ref.column!r}; columns: {found}", section=f"{where}.column")
    cells = catalogue.cells(table.id, columns.index(column_wanted))
    results = []
    for field, labels in ref.rows().items():
        picked = []
        for label in labels:
            cell = cells.get(normalise_label(label))
            if cell is None or cell.value_number is None:
                raise ParseError(name, f"row {label!r} has no number in column {ref.column!r}",
                                 section=f"{where}.{field}")
            picked.append(cell)
        value = sum(c.value_number for c in picked)
        metric = field
        if field in LATENCY_ROW_FIELDS:
            value, metric = latency_ms(value, ref.latency_unit or "ms"), f"{field}_ms"
        printed = " + ".join(c.value_printed for c in picked)
        results.append((metric, value, printed, table.id, [c.row_label for c in picked]))
    return results


def _name_once(name: str, named: dict[int, str], run_ids: list[int], where: str) -> None:
    """A report is one host of one test, or one run: never both, nor twice a host."""
    for run_id in run_ids:
        earlier = named.setdefault(run_id, where)
        if earlier != where and (earlier.endswith(".hosts") or where.endswith(".hosts")):
            raise ParseError(name, f"a report it names is already named by {earlier}", section=where)




def _drop_drafted_twins(session: Session, run_id: int, values) -> None:
    """A run a person's manifest reads from a table replaces the run ingest drafted from the same cells."""
    wanted = {(table_id, metric, float(value)) for metric, value, _, table_id, _ in values
              if metric in ("total_iops", "achieved_iops")}  # the figures that make a run that run
    if not wanted:
        return
    candidates = session.execute(
        select(PublishedValue.run_id, PublishedValue.document_table_id, PublishedValue.metric, PublishedValue.value)
        .join(Run, Run.id == PublishedValue.run_id).join(Solution, Solution.id == Run.solution_id)
        .where(Solution.provisional, Run.origin == "document_table", Run.id != run_id,
               PublishedValue.document_table_id.in_({t for t, _, _ in wanted}))).all()
    held: dict[int, set] = {}
    for other, table_id, metric, value in candidates:
        held.setdefault(other, set()).add((table_id, metric, float(value)))
    twins = [other for other, cells in held.items() if wanted & cells]
    if twins:
        session.execute(delete(Run).where(Run.id.in_(twins)))


def _published_rows(run_id: int, values) -> list[dict]:
    return [{"run_id": run_id, "metric": metric, "value": value, "value_printed": printed,
             "document_table_id": table_id, "row_labels": labels}
            for metric, value, printed, table_id, labels in values]


def _attach_evidence(session: Session, catalogue: _Catalogue, run_id: int, run: RunSpec, where: str) -> None:
    """The manifest says which perfmon exports and power log belong to the run: link them directly."""
    perf_sources = [catalogue.source_id(path, f"{where}.perfmon[{index}]") for index, path in enumerate(run.perfmon)]
    if perf_sources:
        session.execute(update(PerfFile).where(PerfFile.source_file_id.in_(perf_sources)).values(run_id=run_id))
        session.execute(update(PerfCounter).where(PerfCounter.source_file_id.in_(perf_sources)).values(run_id=run_id))
    if run.power_log:
        source_id = catalogue.source_id(run.power_log, f"{where}.power_log")
        session.execute(update(PowerFile).where(PowerFile.source_file_id == source_id).values(run_id=run_id))


def _table_run(session: Session, catalogue: _Catalogue, solution_id: int, run: RunSpec, attach: dict,
               where: str, *, replaces: bool = True) -> tuple[int, list]:
    """A run known only from a document's result table (replacing an earlier version's, unless the
    caller knows there is none: `replaces` False)."""
    assert run.table is not None
    source_id = catalogue.source_id(run.table.document, f"{where}.table.document")
    values = _table_values(catalogue, source_id, run.table, f"{where}.table")
    if replaces:
        session.execute(delete(Run).where(
            Run.source_file_id == source_id, Run.origin == "document_table",
            Run.solution_id == solution_id, Run.run_label == run.label))
    run_id = session.execute(insert(Run).values(
        source_file_id=source_id, report_index=index_below_reports(source_id), origin="document_table",
        report_type="Performance", achieved_iops=None, test_description=run.description, **attach,
    ).returning(Run.id)).scalar_one()
    return run_id, values


def load_manifest(session: Session, manifest_file_id: int, manifest: SolutionManifest, base: Path,
                  sha_of, *, provisional_source: int | None = None) -> list[str]:
    """Write the manifest; `sha_of(path)` gives the SHA-256 of a referenced file. Returns warnings.

    `provisional_source`: the manifest is a system drafted from that document at ingest (not one a
    person wrote): its solution is provisional, and it takes no run a confirmed solution already holds.
    """
    write_manifest(session, manifest_file_id, manifest, base, sha_of, provisional_source=provisional_source)
    return []


def write_manifest(session: Session, manifest_file_id: int, manifest: SolutionManifest, base: Path,
                   sha_of, *, provisional_source: int | None = None, known_sources: dict[str, int] | None = None,
                   read_back: ReadBack | None = None) -> int:
    """`load_manifest`, returning the id of the manifest's solution (a drafted system's writer stores its
    facts under it without asking for it again); `known_sources`: SHA-256 -> id of files the caller has
    just written (the document a system is drafted from); `read_back`: what the manifests of that
    document's other systems have read back already."""
    catalogue = _Catalogue(session, manifest, base, sha_of, known_sources, read_back)
    solution_id, new = _upsert_solution(session, manifest, provisional_source)
    if provisional_source is None and not new:  # a person's manifest confirms it: the document's reading goes
        session.execute(delete(SolutionFact).where(SolutionFact.solution_id == solution_id))
    if not new:
        session.execute(delete(DiskGroup).where(DiskGroup.solution_id == solution_id))
    copy_dicts(session, DiskGroup, [
        {"solution_id": solution_id, "disk_count": d.count, "model": d.model, "media": d.media,
         "speed_rpm": d.rpm, "raw_capacity_bytes": d.raw_capacity_bytes, "interface": d.interface,
         "firmware": d.firmware, "role": d.role}
        for d in manifest.disks
    ])
    trial_ids = {}
    for trial in manifest.trials:
        statement = pg_insert(Trial).values(solution_id=solution_id, label=trial.key, description=trial.description)
        upsert = statement.on_conflict_do_update(
            constraint="uq_trials_solution_label", set_={"description": trial.description}).returning(Trial.id)
        trial_ids[trial.key] = session.execute(upsert).scalar_one()

    run_ids: dict[str, int] = {}
    named: dict[int, str] = {}  # report run -> the manifest entry that names it
    attached: list[dict] = []
    published: list[dict] = []
    for index, run in enumerate(manifest.runs):
        where = f"runs[{index}]"
        attach = {"solution_id": solution_id, "trial_id": trial_ids.get(run.trial), "run_label": run.label,
                  "scenario": run.scenario}
        if run.table is None:
            source_id = catalogue.source_id(run.report or run.document or "", where)
            if run.hosts:  # one test on several hosts: a run of its own over their reports' runs
                held = catalogue.confirmed_runs(source_id) if provisional_source is not None else None
                confirmed = held.__contains__ if held is not None else None
                test = host_test_run(session, manifest.source_name, source_id, catalogue.report_runs(source_id),
                                     run, attach, where, confirmed)
                if test is None:
                    continue  # a manifest a person wrote holds its hosts already
                run_id, hosts = test
                _name_once(manifest.source_name, named, hosts, f"{where}.hosts")
            else:
                run_id = _find_report_run(catalogue, source_id, run, where)
                if provisional_source is not None and run_id in catalogue.confirmed_runs(source_id):
                    continue  # a manifest a person wrote holds it already
                _name_once(manifest.source_name, named, [run_id], where)
                attached.append({"id": run_id, **attach})
            _attach_evidence(session, catalogue, run_id, run, where)
            if run.figures is not None:
                figures_source = catalogue.source_id(run.figures.document, f"{where}.figures.document")
                values = _table_values(catalogue, figures_source, run.figures, f"{where}.figures")
                published += _published_rows(run_id, values)
        else:
            # a solution the upsert just made holds no run but those this manifest wrote before this one, and
            # no run of the document being drafted (written in this transaction) is another system's
            in_this_document = (provisional_source is not None
                                and catalogue.source_ids.get(run.table.document) == provisional_source)
            run_id, values = _table_run(session, catalogue, solution_id, run, attach, where,
                                        replaces=(not new and not in_this_document) or run.label in run_ids)
            if provisional_source is None:
                _drop_drafted_twins(session, run_id, values)
            published += _published_rows(run_id, values)
        run_ids[run.label] = run_id
    if attached:
        session.execute(update(Run), attached)  # by primary key, one executemany
    session.execute(delete(PublishedValue).where(PublishedValue.run_id.in_(list(run_ids.values()))))
    copy_dicts(session, PublishedValue, published)

    if provisional_source is None:
        take_over(session, {i for i in catalogue.source_ids.values() if i is not None})
    if not new:
        session.execute(delete(Claim).where(Claim.solution_id == solution_id))
    claims = []
    for index, claim in enumerate(manifest.claims):
        document_id = catalogue.source_id(claim.document, f"claims[{index}].document")
        other_solution = catalogue.solution_id(claim.versus) if claim.versus else None
        other_run = None
        if claim.versus_run and other_solution is not None:
            other_run = catalogue.labelled_run(other_solution, claim.versus_run)
        claims.append({
            "manifest_file_id": manifest_file_id, "source_file_id": document_id, "solution_id": solution_id,
            "subject": claim.subject, "run_id": run_ids.get(claim.run) if claim.run else None,
            "other_solution_id": other_solution, "other_run_id": other_run, "other_metric": claim.versus_metric,
            "metric": claim.metric, "value_printed": claim.value, "unit": claim.unit,
            "disk_basis": claim.disk_basis, "qualifier": claim.qualifier, "location": claim.location,
            "line": claim.line, "quote": claim.quote,
        })
    copy_dicts(session, Claim, claims)
    return solution_id


def take_over(session: Session, source_file_ids: Iterable[int]) -> int:
    """Remove the provisional solutions of these documents that no run belongs to any more; how many.

    What a manifest does once it has taken the runs of the documents it names (ingest/load/provisional.py).
    """
    ids = list(source_file_ids)
    if not ids:
        return 0
    orphaned = delete(Solution).where(
        Solution.provisional, Solution.derived_from_source_file_id.in_(ids),
        ~exists(select(Run.id).where(Run.solution_id == Solution.id)))
    return cast(CursorResult, session.execute(orphaned)).rowcount or 0
