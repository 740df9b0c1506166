"""Write a solution manifest: the solution, its disks and trials, its runs, its claims.

The files a manifest names are ingested first (each in its own transaction, by the
pipeline); this module then attaches their runs to the solution, creates runs known only
from a document's result table, and records the claims. Everything here happens in the
manifest's own transaction, so a manifest that names a run it cannot find writes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import delete, insert, select, update
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
    SourceFile,
    Trial,
)
from ...schema.units import latency_ms
from ..errors import ParseError
from ..formats.manifest.records import LATENCY_ROW_FIELDS, RunSpec, SolutionManifest, TableRef
from . import provisional, solution_id_for

_DASHES = re.compile(r"[\u2010-\u2015\u2212-]+")


def normalise_label(text: str) -> str:
    """Labels compare without case, dash style or spacing: "Total IOPS – Run 2" = "total iops - run 2"."""
    return " ".join(_DASHES.sub("-", text).replace(" - ", "-").replace("-", " - ").lower().split())


def _source_id(session: Session, sha256: str, manifest: SolutionManifest, where: str) -> int:
    found = session.execute(select(SourceFile.id).where(SourceFile.sha256 == sha256)).scalar_one_or_none()
    if found is None:
        raise ParseError(manifest.source_name, "the file it names is not in the catalogue (it failed to load?)",
                         section=where)
    return found


def _upsert_solution(session: Session, manifest: SolutionManifest) -> int:
    capacity, price, power = manifest.capacity, manifest.price, manifest.power
    values = dict(
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
    upsert = statement.on_conflict_do_update(index_elements=["key"], set_=values).returning(Solution.id)
    return session.execute(upsert).scalar_one()


def _find_report_run(session: Session, source_id: int, run: RunSpec, manifest: SolutionManifest, where: str) -> int:
    """The run of a report the file prints (the run may have another file as its first source)."""
    query = (select(Run, RunSource.report_index).join(RunSource, RunSource.run_id == Run.id)
             .where(RunSource.source_file_id == source_id, Run.origin == "report").order_by(RunSource.report_index))
    found = [(r, i) for r, i in session.execute(query).all()]
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
        raise ParseError(manifest.source_name, f"{len(candidates)} reports match (need exactly 1)", section=where)
    return candidates[0].id


def _table_values(session: Session, source_id: int, ref: TableRef, manifest: SolutionManifest, where: str):
    """(metric, value, printed, table id, labels) for each row field of a table reference."""
    tables = list(session.execute(select(DocumentTable).where(DocumentTable.source_file_id == source_id)).scalars())
    wanted = normalise_label(ref.title)
    matching = [t for t in tables if normalise_label(t.title).startswith(wanted) or t.kind == ref.title]
    if not matching:
        titles = "; ".join(sorted({t.title for t in tables})) or "none"
        raise ParseError(manifest.source_name, f"no table titled {ref.title!r}; tables: {titles}", section=f"{where}.title")
    column_wanted = normalise_label(ref.column)
    for table in matching:
        columns = [normalise_label(c) for c in table.columns]
        if column_wanted in columns:
            break
    else:
        found = "; ".join(c for t in matching for c in t.columns)
        raise ParseError(manifest.source_name, f"no column {ref.column!r}; columns: {found}", section=f"{where}.column")
    column = columns.index(column_wanted)
    cells = {
        normalise_label(c.row_label): c
        for c in session.execute(select(DocumentCell).where(
            DocumentCell.table_id == table.id, DocumentCell.column_ordinal == column)).scalars()
    }
    results = []
    for field, labels in ref.rows().items():
        picked = []
        for label in labels:
            cell = cells.get(normalise_label(label))
            if cell is None or cell.value_number is None:
                raise ParseError(manifest.source_name, f"row {label!r} has no number in column {ref.column!r}",
                                 section=f"{where}.{field}")
            picked.append(cell)
        value = sum(c.value_number for c in picked)
        metric = field
        if field in LATENCY_ROW_FIELDS:
            value, metric = latency_ms(value, ref.latency_unit or "ms"), f"{field}_ms"
        printed = " + ".join(c.value_printed for c in picked)
        results.append((metric, value, printed, table.id, [c.row_label for c in picked]))
    return results


def _publish(session: Session, run_id: int, values) -> None:
    """Store a run's figures as a document table prints them (replacing an earlier version's)."""
    session.execute(delete(PublishedValue).where(PublishedValue.run_id == run_id))
    if values:
        session.execute(insert(PublishedValue), [
            {"run_id": run_id, "metric": metric, "value": value, "value_printed": printed,
             "document_table_id": table_id, "row_labels": labels}
            for metric, value, printed, table_id, labels in values
        ])


def _attach_evidence(session: Session, run_id: int, run: RunSpec, manifest: SolutionManifest, base: Path,
                     sha_of, where: str) -> None:
    """The manifest says which perfmon exports and power log belong to the run: link them directly."""
    for index, path in enumerate(run.perfmon):
        source_id = _source_id(session, sha_of(base / path), manifest, f"{where}.perfmon[{index}]")
        session.execute(update(PerfFile).where(PerfFile.source_file_id == source_id).values(run_id=run_id))
        session.execute(update(PerfCounter).where(PerfCounter.source_file_id == source_id).values(run_id=run_id))
    if run.power_log:
        source_id = _source_id(session, sha_of(base / run.power_log), manifest, f"{where}.power_log")
        session.execute(update(PowerFile).where(PowerFile.source_file_id == source_id).values(run_id=run_id))


def load_manifest(session: Session, manifest_file_id: int, manifest: SolutionManifest, base: Path,
                  sha_of) -> list[str]:
    """Write the manifest; `sha_of(path)` gives the SHA-256 of a referenced file. Returns warnings."""
    solution_id = _upsert_solution(session, manifest)
    session.execute(delete(DiskGroup).where(DiskGroup.solution_id == solution_id))
    if manifest.disks:
        session.execute(insert(DiskGroup), [
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
    for index, run in enumerate(manifest.runs):
        where = f"runs[{index}]"
        attach = {"solution_id": solution_id, "trial_id": trial_ids.get(run.trial), "run_label": run.label}
        if run.table is None:
            path = base / (run.report or run.document)
            source_id = _source_id(session, sha_of(path), manifest, where)
            run_id = _find_report_run(session, source_id, run, manifest, where)
            session.execute(update(Run).where(Run.id == run_id).values(**attach))
            _attach_evidence(session, run_id, run, manifest, base, sha_of, where)
            if run.figures is not None:
                figures_source = _source_id(session, sha_of(base / run.figures.document), manifest,
                                            f"{where}.figures.document")
                _publish(session, run_id, _table_values(session, figures_source, run.figures, manifest,
                                                        f"{where}.figures"))
        else:
            source_id = _source_id(session, sha_of(base / run.table.document), manifest, f"{where}.table.document")
            values = _table_values(session, source_id, run.table, manifest, f"{where}.table")
            existing = session.execute(select(Run.id).where(
                Run.source_file_id == source_id, Run.origin == "document_table",
                Run.solution_id == solution_id, Run.run_label == run.label)).scalar_one_or_none()
            if existing is not None:
                session.execute(delete(Run).where(Run.id == existing))
            lowest = session.execute(select(Run.report_index).where(Run.source_file_id == source_id)
                                     .order_by(Run.report_index).limit(1)).scalar_one_or_none()
            run_id = session.execute(insert(Run).values(
                source_file_id=source_id, report_index=min(lowest or 0, 0) - 1, origin="document_table",
                report_type="Performance", achieved_iops=None, test_description=run.description, **attach,
            ).returning(Run.id)).scalar_one()
            _publish(session, run_id, values)
        run_ids[run.label] = run_id

    referenced = {sha_of(base / written) for _, written in manifest.referenced_paths()}
    provisional.take_over(session, session.execute(
        select(SourceFile.id).where(SourceFile.sha256.in_(referenced))).scalars())
    session.execute(delete(Claim).where(Claim.solution_id == solution_id))
    claims = []
    for index, claim in enumerate(manifest.claims):
        document_id = _source_id(session, sha_of(base / claim.document), manifest, f"claims[{index}].document")
        other_solution = solution_id_for(session, claim.versus) if claim.versus else None
        other_run = None
        if claim.versus_run and other_solution is not None:
            other_run = session.execute(select(Run.id).where(
                Run.solution_id == other_solution, Run.run_label == claim.versus_run)).scalars().first()
        claims.append({
            "manifest_file_id": manifest_file_id, "source_file_id": document_id, "solution_id": solution_id,
            "subject": claim.subject, "run_id": run_ids.get(claim.run) if claim.run else None,
            "other_solution_id": other_solution, "other_run_id": other_run, "other_metric": claim.versus_metric,
            "metric": claim.metric, "value_printed": claim.value, "unit": claim.unit,
            "disk_basis": claim.disk_basis, "qualifier": claim.qualifier, "location": claim.location,
            "line": claim.line, "quote": claim.quote,
        })
    if claims:
        session.execute(insert(Claim), claims)
    return []
