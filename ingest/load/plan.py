"""Plan a manifest's write: every read it needs and every ParseError it can raise, before anything is
written. A system that cannot be planned is skipped whole (no savepoint to roll back), and the planned
systems of a document are written together (load/batch.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...schema.tables import RunRow
from ...schema.units import latency_ms
from ..draft.fact import Fact
from ..errors import ParseError
from ..formats.manifest.records import LATENCY_ROW_FIELDS, ClaimSpec, RunSpec, SolutionManifest, TableRef
from .host_tests import host_reports, test_columns
from .readback import Catalogue, ReadBack, normalise_label


@dataclass
class HostTest:
    """A test over several hosts: its host reports' runs, their earlier test runs, the test's own columns."""

    reports: list[RunRow]
    earlier: set[int]
    columns: dict[str, Any]


@dataclass
class RunPlan:
    spec: RunSpec
    source_id: int
    report_run: int | None = None  # a report's run, to attach
    hosts: HostTest | None = None
    table_run: bool = False  # a run known only from a document's table
    in_this_document: bool = False  # that table is in the document the system is drafted from
    values: list = field(default_factory=list)  # published figures: (metric, value, printed, table id, labels)
    perf_sources: list[int] = field(default_factory=list)
    power_source: int | None = None


@dataclass
class ClaimPlan:
    spec: ClaimSpec
    document_id: int


@dataclass
class ManifestPlan:
    manifest_file_id: int
    manifest: SolutionManifest
    provisional_source: int | None
    runs: list[RunPlan]
    claims: list[ClaimPlan]
    source_ids: set[int]  # every file the manifest names (a person's manifest takes their documents over)
    facts: list[Fact] = field(default_factory=list)  # a drafted system's facts, with their lines


def plan_manifest(session, manifest_file_id: int, manifest: SolutionManifest, base: Path, sha_of, *,
                  provisional_source: int | None = None, known_sources: dict[str, int] | None = None,
                  read_back: ReadBack | None = None) -> ManifestPlan:
    """Read what the manifest needs; ParseError when it names what the catalogue does not hold.

    `provisional_source`: the manifest is a system drafted from that document at ingest (not one a
    person wrote): it takes no run a confirmed solution already holds. `known_sources`: SHA-256 -> id
    of files the caller has just written; `read_back`: what the document's other systems read already.
    """
    catalogue = Catalogue(session, manifest, base, sha_of, known_sources, read_back)
    name = manifest.source_name
    named: dict[int, str] = {}  # report run -> the manifest entry that names it
    runs: list[RunPlan] = []
    for index, run in enumerate(manifest.runs):
        where = f"runs[{index}]"
        if run.table is not None:
            source_id = catalogue.source_id(run.table.document, f"{where}.table.document")
            values = _table_values(catalogue, source_id, run.table, f"{where}.table")
            runs.append(RunPlan(run, source_id, table_run=True, values=values, in_this_document=(
                provisional_source is not None and catalogue.source_ids.get(run.table.document) == provisional_source)))
            continue
        source_id = catalogue.source_id(run.report or run.document or "", where)
        planned = RunPlan(run, source_id)
        if run.hosts:  # one test on several hosts: a run of its own over their reports' runs
            reports = host_reports(name, catalogue.report_runs(source_id), run, where)
            if provisional_source is not None and any(r.id in catalogue.confirmed_runs(source_id) for r in reports):
                continue  # a manifest a person wrote holds its hosts already (a test over some is not the test)
            planned.hosts = HostTest(reports, {r.test_run_id for r in reports if r.test_run_id is not None},
                                     test_columns(reports, run))
            _name_once(name, named, [r.id for r in reports], f"{where}.hosts")
        else:
            run_id = _find_report_run(catalogue, source_id, run, where)
            if provisional_source is not None and run_id in catalogue.confirmed_runs(source_id):
                continue  # a manifest a person wrote holds it already
            _name_once(name, named, [run_id], where)
            planned.report_run = run_id
        planned.perf_sources = [catalogue.source_id(path, f"{where}.perfmon[{i}]") for i, path in enumerate(run.perfmon)]
        if run.power_log:
            planned.power_source = catalogue.source_id(run.power_log, f"{where}.power_log")
        if run.figures is not None:
            figures_source = catalogue.source_id(run.figures.document, f"{where}.figures.document")
            planned.values = _table_values(catalogue, figures_source, run.figures, f"{where}.figures")
        runs.append(planned)
    claims = [ClaimPlan(claim, catalogue.source_id(claim.document, f"claims[{index}].document"))
              for index, claim in enumerate(manifest.claims)]
    return ManifestPlan(manifest_file_id, manifest, provisional_source, runs, claims,
                        {i for i in catalogue.source_ids.values() if i is not None})


def _find_report_run(catalogue: Catalogue, source_id: int, run: RunSpec, where: str) -> int:
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


def _table_values(catalogue: Catalogue, source_id: int, ref: TableRef, where: str):
    """(metric, value, printed, table id, labels) for each row field of a table reference: the cells of its
    rows in its column, added up; over the hosts' columns of one test (`columns`), each host's figure added
    up across them, a latency weighted as host_weights says. The labels of such a run name each row once:
    a host's column holds a part of the test, not the run's figure (the audit owns no column by it)."""
    name = catalogue.manifest.source_name
    tables = catalogue.tables(source_id)
    wanted = normalise_label(ref.title)
    matching = [t for t in tables if normalise_label(t.title).startswith(wanted) or t.kind == ref.title]
    if not matching:
        titles = "; ".join(sorted({t.title for t in tables})) or "none"
        raise ParseError(name, f"no table titled {ref.title!r}; tables: {titles}", section=f"{where}.title")
    headings = ref.headings()
    place = f"{where}.columns" if ref.columns else f"{where}.column"
    for table in matching:
        columns = [normalise_label(c) for c in table.columns]
        if all(normalise_label(h) in columns for h in headings):
            break
    else:
        found = "; ".join(c for t in matching for c in t.columns)
        missing = next(h for h in headings if all(normalise_label(h) not in [normalise_label(c) for c in t.columns]
                                                  for t in matching))
        raise ParseError(name, f"no column {missing!r}; columns: {found}", section=place)
    by_host = [catalogue.cells(table.id, columns.index(normalise_label(h))) for h in headings]
    picked: dict[str, list[list]] = {}  # field -> per host, the cells of its labels
    for field_name, labels in ref.rows().items():
        picked[field_name] = []
        for heading, cells in zip(headings, by_host):
            host = [cells.get(normalise_label(label)) for label in labels]
            for label, cell in zip(labels, host):
                if cell is None or cell.value_number is None:
                    raise ParseError(name, f"row {label!r} has no number in column {heading!r}",
                                     section=f"{where}.{field_name}")
            picked[field_name].append(host)
    sums = {field_name: [sum(c.value_number for c in host) for host in hosts] for field_name, hosts in picked.items()}
    results = []
    for field_name, hosts in picked.items():
        value = host_figure(field_name, sums)
        metric = field_name
        if field_name in LATENCY_ROW_FIELDS:
            value, metric = latency_ms(value, ref.latency_unit or "ms"), f"{field_name}_ms"
        printed = " + ".join(c.value_printed for host in hosts for c in host)
        named = [c.row_label for c in hosts[0]] if ref.columns else [c.row_label for host in hosts for c in host]
        results.append((metric, value, printed, table.id, named))
    return results


_LATENCY_WEIGHTS = {"db_read_latency": "achieved_iops", "db_write_latency": "achieved_iops",
                    "log_write_latency": "log_iops"}


def host_figure(field_name: str, sums: dict[str, list[float]]) -> float:
    """A figure of a test from its hosts' (one host: its own): a sum, but a latency is the hosts' average
    weighted by their achieved IOPS (log write latency: by their log IOPS), as a test over host reports is
    (migrations/run_figures_0019.sql); the plain average when the reference names no such row."""
    values = sums[field_name]
    if field_name not in LATENCY_ROW_FIELDS or len(values) == 1:
        return sum(values)
    weights = sums.get(_LATENCY_WEIGHTS[field_name])
    if weights is None or sum(weights) <= 0:
        return sum(values) / len(values)
    return sum(v * w for v, w in zip(values, weights)) / sum(weights)


def _name_once(name: str, named: dict[int, str], run_ids: list[int], where: str) -> None:
    """A report is one host of one test, or one run: never both, nor twice a host."""
    for run_id in run_ids:
        earlier = named.setdefault(run_id, where)
        if earlier != where and (earlier.endswith(".hosts") or where.endswith(".hosts")):
            raise ParseError(name, f"a report it names is already named by {earlier}", section=where)
