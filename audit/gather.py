"""Everything the audit reads, gathered once from the catalogue's tables and canned views.

The audit re-parses nothing: figures come from the same views the CLI and psql users see
(`run_iops`, `median_runs`, `run_summary`, `run_throughput`, `disk_counts`) and from the stored
rows behind them. A catalogue is small (a few thousand rows), so it is read into memory in a
handful of queries and the rules work on plain Python objects.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterable

from sqlalchemy import Engine, text

from ..schema.vocabulary import ACHIEVED_SCOPES, counts_on_basis


@dataclass
class DiskGroup:
    count: int
    media: str | None
    role: str
    raw_capacity_bytes: int | None


@dataclass
class SolutionInfo:
    id: int
    key: str
    label: str | None
    model: str | None
    usable_capacity_bytes: int | None
    list_price: float | None
    currency: str | None
    idle_power_w: float | None
    active_power_w: float | None
    disks: list[DiskGroup] = field(default_factory=list)
    manifest_file_id: int | None = None

    def disk_count(self, basis: str) -> int:
        return sum(d.count for d in self.disks if counts_on_basis(d.role, basis))

    @property
    def media(self) -> set[str]:
        return {d.media for d in self.disks if d.media}


@dataclass
class InstanceIo:
    name: str
    volume_role: str | None
    values: dict[str, float | None]  # latencies columns: db_reads_per_s, db_read_latency_ms, ...


@dataclass
class RunInfo:
    id: int
    solution_id: int | None
    trial_id: int | None
    label: str | None
    origin: str
    report_type: str
    release: int | None
    reported_verdict: str | None
    machine_name: str | None
    test_start: datetime | None
    source_file_id: int
    source_line: int | None
    row: dict[str, Any]  # the runs row (sizes, thresholds, thread count, ...)
    figures: dict[str, float | None] = field(default_factory=dict)  # from the views
    is_median: bool | None = None
    published: dict[str, dict[str, Any]] = field(default_factory=dict)  # metric -> run_published_values row
    instances: list[InstanceIo] = field(default_factory=list)
    latency_unit: str | None = None  # the unit the report printed latencies in
    counters: dict[str, float | None] = field(default_factory=dict)  # host counter name (lower) -> average
    # host counter name as printed -> (average, minimum, maximum, line)
    counter_ranges: dict[str, tuple[float | None, float | None, float | None, int | None]] = field(default_factory=dict)
    backup_mb_per_s: list[float] = field(default_factory=list)
    recovery: list[tuple[float, int]] = field(default_factory=list)  # (elapsed s, logs replayed)
    power: dict[str, float | None] = field(default_factory=dict)  # run_power: idle/active
    config: dict[str, Any] = field(default_factory=dict)  # linked JetstressConfig.xml
    verdict_line: int | None = None  # where "Overall Test Result" is printed (the report starts at source_line)

    @property
    def name(self) -> str:
        return self.label or f"run {self.id}"


@dataclass
class ClaimRow:
    id: int
    metric: str
    value_printed: str
    unit: str | None
    subject: str
    solution_id: int | None
    run_id: int | None
    other_solution_id: int | None
    other_run_id: int | None
    other_metric: str | None
    disk_basis: str | None
    qualifier: str | None
    location: str | None
    line: int | None
    quote: str | None
    source_file_id: int | None
    manifest_file_id: int | None
    other_value_printed: str | None = None  # the other side as printed: a design the catalogue does not hold


@dataclass
class Cell:
    row: int
    column: int
    row_label: str
    column_label: str | None
    printed: str
    number: float | None
    line: int | None


@dataclass
class DocTable:
    id: int
    source_file_id: int
    kind: str
    title: str
    columns: list[str]
    stub: str | None
    line: int | None
    cells: list[Cell] = field(default_factory=list)
    # The cells indexed by place and by value, made at the first look-up (the cells are loaded whole first):
    # a claim finds its cells in one step, not by a pass over a table of 10^6 rows (issue 49).
    _on_line: dict[int | None, list[Cell]] | None = field(default=None, init=False, repr=False, compare=False)
    _labelled: dict[tuple[str | None, str], list[Cell]] | None = field(default=None, init=False, repr=False,
                                                                        compare=False)

    def cells_on(self, line: int | None) -> list[Cell]:
        """The cells printed on `line`, in the table's order."""
        if self._on_line is None:
            self._on_line = defaultdict(list)
            for cell in self.cells:
                self._on_line[cell.line].append(cell)
        return self._on_line.get(line, [])

    def cells_labelled(self, row_label: str | None, printed: str) -> list[Cell]:
        """The cells of the row labelled `row_label` that print exactly `printed`, in the table's order."""
        if self._labelled is None:
            self._labelled = defaultdict(list)
            for cell in self.cells:
                self._labelled[(cell.row_label, cell.printed)].append(cell)
        return self._labelled.get((row_label, printed), [])


@dataclass
class SourceFile:
    id: int
    name: str
    sha256: str
    format: str
    page_start_lines: list[int] | None = None  # a PDF's: the line each page starts on (documents, 0028)

    def page_of(self, line: int | None) -> int | None:
        """The page `line` is printed on (the last page starting at or before it); None outside a PDF."""
        if not self.page_start_lines or line is None:
            return None
        return bisect_right(self.page_start_lines, line) or None


@dataclass
class AuditData:
    solutions: dict[int, SolutionInfo]
    runs: dict[int, RunInfo]
    claims: list[ClaimRow]
    files: dict[int, SourceFile]
    tables: dict[int, DocTable]
    warnings: list[dict[str, Any]]
    designs: dict[int, dict[str, Any]] = field(default_factory=dict)  # solution id -> its test_designs row
    facts: list[dict[str, Any]] = field(default_factory=list)  # solution_facts rows: what a document stated, where

    def solution_key(self, solution_id: int | None) -> str | None:
        return self.solutions[solution_id].key if solution_id in self.solutions else None

    def table_printing(self, source_file_id: int, line: int | None) -> DocTable | None:
        """The first table of the file with a cell on `line` (an index made once, not a pass a claim)."""
        def build() -> dict[tuple[int, int | None], DocTable]:
            index: dict[tuple[int, int | None], DocTable] = {}
            for table in self.tables.values():
                for cell in table.cells:
                    index.setdefault((table.source_file_id, cell.line), table)
            return index
        return self._index("_tables_by_line", build).get((source_file_id, line))

    def _index(self, name: str, build: Callable[[], Any]) -> Any:
        """An index of the rows made at its first look-up and kept (rows never change once loaded) (issue 49)."""
        if name not in self.__dict__:
            self.__dict__[name] = build()
        return self.__dict__[name]

    def runs_of(self, solution_id: int) -> list[RunInfo]:
        by_solution = self._index("_runs_by_solution", lambda: _grouped(
            sorted(self.runs.values(), key=lambda r: r.id), lambda r: r.solution_id))
        return list(by_solution.get(solution_id, ()))

    def claims_of(self, source_file_id: int | None, metric: str, solution_id: int | None) -> list[ClaimRow]:
        """The claims of one metric and side a file prints, in the claims' order."""
        return self._index("_claims_by_file_metric_side", lambda: _grouped(
            self.claims, lambda c: (c.source_file_id, c.metric, c.solution_id))).get(
            (source_file_id, metric, solution_id), [])

    def claims_on(self, source_file_id: int | None, line: int | None) -> list[ClaimRow]:
        """The claims printed on one line of a file, in the claims' order."""
        return self._index("_claims_by_line", lambda: _grouped(
            self.claims, lambda c: (c.source_file_id, c.line))).get((source_file_id, line), [])

    def sides_in(self, source_file_id: int | None) -> set[int]:
        """The solutions a file's claims or runs speak of."""
        def build() -> dict[int | None, set[int]]:
            index: dict[int | None, set[int]] = defaultdict(set)
            for side, file_id in [*((c.solution_id, c.source_file_id) for c in self.claims),
                                  *((r.solution_id, r.source_file_id) for r in self.runs.values())]:
                if side is not None:
                    index[file_id].add(side)
            return index
        return self._index("_sides_by_file", build).get(source_file_id, set())

    def trial_runs(self, run: RunInfo, whole: bool = False) -> list[RunInfo]:
        """The runs repeated with `run` (its trial), `run` first; a run outside a trial stands alone.
        `whole`: the trial in its order, `run` in its place (the same list for every run of the trial)."""
        if run.trial_id is None:
            return [run]
        by_trial = self._index("_runs_by_trial", lambda: _grouped(
            sorted(self.runs.values(), key=lambda r: (r.label or "", r.id)), lambda r: r.trial_id))
        return by_trial[run.trial_id] if whole else [run] + [r for r in by_trial[run.trial_id] if r.id != run.id]

    def headline_run(self, solution_id: int) -> RunInfo | None:
        """The run a solution's headline figures come from: its trial's median run.

        With several candidates (runs outside any trial are each their own median), prefer a normal
        test (no scenario), a trial's median, then a report (or a test over hosts' reports) over a
        table row, Performance over Stress, the earliest.
        """
        heads = self._index("_headline_runs", dict)
        if solution_id not in heads:
            medians = [r for r in self.runs_of(solution_id) if r.is_median and r.figures.get("total_iops") is not None]
            heads[solution_id] = min(medians, default=None, key=lambda r: (
                r.row.get("scenario") is not None, r.trial_id is None, r.origin == "document_table",
                r.report_type != "Performance", r.test_start or datetime.max, r.id))
        return heads[solution_id]

    def twin_solution(self, run: RunInfo) -> int | None:
        """A report embedded in a document is often also ingested as its own file: the same test."""
        if run.solution_id is not None or run.test_start is None:
            return run.solution_id
        for other in self.runs.values():
            same = (other.machine_name, other.test_start, other.row.get("achieved_iops")) == (
                run.machine_name, run.test_start, run.row.get("achieved_iops"))
            if other.solution_id is not None and same:
                return other.solution_id
        return None


def _grouped(items: Iterable[Any], key: Callable[[Any], Any]) -> dict[Any, list[Any]]:
    """The items by key, each list in the items' order."""
    index: dict[Any, list[Any]] = defaultdict(list)
    for item in items:
        index[key(item)].append(item)
    return index


def _rows(conn, sql: str, **params) -> list[dict[str, Any]]:
    return [dict(row._mapping) for row in conn.execute(text(sql), params)]


def load(engine: Engine) -> AuditData:
    with engine.connect() as conn:
        files = {r["id"]: SourceFile(r["id"], r["file_name"], r["sha256"], r["format"], r["page_start_lines"])
                 for r in _rows(conn, "SELECT f.id, f.file_name, f.sha256, f.format, d.page_start_lines "
                                      "FROM source_files f LEFT JOIN documents d ON d.source_file_id = f.id")}
        solutions = _load_solutions(conn)
        runs = _load_runs(conn)
        claims = [ClaimRow(**r) for r in _rows(conn, """
            SELECT id, metric, value_printed, unit, subject, solution_id, run_id, other_solution_id, other_run_id,
                   other_metric, disk_basis, qualifier, location, line, quote, source_file_id, manifest_file_id,
                   other_value_printed FROM claims ORDER BY id""")]
        for claim in claims:
            solution = solutions.get(claim.solution_id)
            if solution is not None and solution.manifest_file_id is None:
                solution.manifest_file_id = claim.manifest_file_id
        manifests = {f.name: f.id for f in files.values() if f.format == "solution_manifest"}
        for solution in solutions.values():  # a manifest is named <key>.toml (docs/manifests.md)
            solution.manifest_file_id = solution.manifest_file_id or manifests.get(f"{solution.key}.toml")
        tables = _load_tables(conn)
        warnings = _rows(conn, "SELECT source_file_id, run_id, check_name, message FROM ingest_warnings ORDER BY id")
        designs = {r["solution_id"]: r for r in _rows(conn, "SELECT * FROM test_designs")}
        facts = _rows(conn, "SELECT solution_id, fact, value_printed, value_number, unit, source_file_id, source_line, "
                            "quote FROM solution_facts ORDER BY solution_id, ordinal")
    return AuditData(solutions, runs, claims, files, tables, warnings, designs, facts)


def _load_solutions(conn) -> dict[int, SolutionInfo]:
    solutions = {r["id"]: SolutionInfo(
        r["id"], r["key"], r["label"], r["model"], r["usable_capacity_bytes"],
        None if r["list_price_amount"] is None else float(r["list_price_amount"]), r["list_price_currency"],
        r["idle_power_w"], r["active_power_w"])
        for r in _rows(conn, "SELECT * FROM solutions")}
    for r in _rows(conn, "SELECT solution_id, disk_count, media, role, raw_capacity_bytes FROM disks ORDER BY id"):
        group = DiskGroup(r["disk_count"], r["media"], r["role"], r["raw_capacity_bytes"])
        solutions[r["solution_id"]].disks.append(group)
    return solutions


def _load_runs(conn) -> dict[int, RunInfo]:
    runs: dict[int, RunInfo] = {}
    for r in _rows(conn, "SELECT * FROM runs"):
        runs[r["id"]] = RunInfo(
            r["id"], r["solution_id"], r["trial_id"], r["run_label"], r["origin"], r["report_type"],
            r["jetstress_release"], r["reported_verdict"], r["machine_name"], r["test_start"],
            r["source_file_id"], r["source_line"], r)
    for r in _rows(conn, "SELECT run_id, achieved_iops, log_iops, total_iops FROM run_iops"):
        runs[r.pop("run_id")].figures.update(r)
    for r in _rows(conn, "SELECT run_id, is_median_run FROM median_runs"):
        runs[r["run_id"]].is_median = r["is_median_run"]
    for r in _rows(conn, """SELECT run_id, database_instances, db_reads_per_s, db_writes_per_s, db_read_latency_ms,
                                   db_write_latency_ms, log_write_latency_ms FROM run_summary"""):
        runs[r.pop("run_id")].figures.update(r)
    for r in _rows(conn, """SELECT run_id, disk_transfers_per_s, read_mb_per_s, write_mb_per_s, transfer_mb_per_s,
                                   throughput_source, perfmon_sample_window FROM run_throughput"""):
        runs[r.pop("run_id")].figures.update(r)
    for r in _rows(conn, "SELECT * FROM run_published_values"):
        runs[r["run_id"]].published[r["metric"]] = r
    for r in _rows(conn, f"""
            SELECT l.*, i.name, i.volume_role FROM latencies l JOIN instances i ON i.id = l.instance_id
            WHERE l.scope IN {ACHIEVED_SCOPES} ORDER BY l.run_id, l.scope DESC, i.name"""):
        run = runs[r["run_id"]]
        if run.instances and run.latency_unit and run.instances[0].values.get("_scope") != r["scope"]:
            continue  # one scope per run: transactional (2010+) or disk subsystem (2007)
        run.latency_unit = r["source_latency_unit"]
        run.instances.append(InstanceIo(r["name"], r["volume_role"], {**r, "_scope": r["scope"]}))
    for r in _rows(conn, "SELECT run_id, counter_name, average, minimum, maximum, source_line FROM host_counters"):
        runs[r["run_id"]].counters[r["counter_name"].lower()] = r["average"]
        runs[r["run_id"]].counter_ranges[r["counter_name"]] = (r["average"], r["minimum"], r["maximum"], r["source_line"])
    for r in _rows(conn, "SELECT run_id, transfer_mb_per_s FROM backup_stats ORDER BY run_id, instance_id"):
        if r["transfer_mb_per_s"] is not None:
            runs[r["run_id"]].backup_mb_per_s.append(r["transfer_mb_per_s"])
    for r in _rows(conn, "SELECT run_id, elapsed_s, log_files_replayed FROM recovery_stats ORDER BY 1, instance_id"):
        if r["elapsed_s"] is not None and r["log_files_replayed"] is not None:
            runs[r["run_id"]].recovery.append((r["elapsed_s"], r["log_files_replayed"]))
    for r in _rows(conn, "SELECT run_id, idle_power_w, active_power_w FROM run_power"):
        runs[r["run_id"]].power = {"idle_power_w": r["idle_power_w"], "active_power_w": r["active_power_w"]}
    for r in _rows(conn, "SELECT run_id, mailbox_count, mailbox_quota_mb FROM test_configs WHERE run_id IS NOT NULL"):
        runs[r["run_id"]].config = r
    for r in _rows(conn, "SELECT run_id, source_line FROM report_fields WHERE lower(label) = 'overall test result'"):
        runs[r["run_id"]].verdict_line = r["source_line"]
    _hosts_plain_means(runs)
    return runs


HOST_LATENCIES = ("db_read_latency_ms", "db_write_latency_ms", "log_write_latency_ms")


def _hosts_plain_means(runs: dict[int, RunInfo]) -> None:
    """A test over several hosts: the plain average of its hosts' latencies beside the IOPS-weighted one
    (the ESRP template's "Aggregate Performance Across All Servers" averages the servers' figures)."""
    hosts: dict[int, list[RunInfo]] = {}
    for run in runs.values():
        if run.row.get("test_run_id") is not None and run.row["test_run_id"] in runs:
            hosts.setdefault(run.row["test_run_id"], []).append(run)
    for test_id, members in hosts.items():
        for column in HOST_LATENCIES:
            values = [m.figures.get(column) for m in members]
            if len(values) > 1 and all(v is not None for v in values):
                runs[test_id].figures[f"{column}_plain_mean"] = sum(values) / len(values)  # type: ignore[arg-type]


# A document seen again in another form or copy (same content fingerprint) is judged once: its tables
# are the first copy's, and its claims and runs are stored once already (ingest.load.provisional).
_FIRST_COPIES = """
SELECT t.* FROM document_tables t JOIN source_files f ON f.id = t.source_file_id
WHERE f.content_fingerprint IS NULL OR NOT EXISTS (
    SELECT 1 FROM source_files e WHERE e.content_fingerprint = f.content_fingerprint AND e.id < f.id)
ORDER BY t.id"""


def _load_tables(conn) -> dict[int, DocTable]:
    tables = {r["id"]: DocTable(r["id"], r["source_file_id"], r["kind"], r["title"], list(r["columns"] or []),
                                r["stub"], r["source_line"])
              for r in _rows(conn, _FIRST_COPIES)}
    cells: dict[int, list[Cell]] = defaultdict(list)
    for r in _rows(conn, "SELECT * FROM document_cells ORDER BY table_id, row_ordinal, column_ordinal"):
        cells[r["table_id"]].append(Cell(r["row_ordinal"], r["column_ordinal"], r["row_label"], r["column_label"],
                                         r["value_printed"], r["value_number"], r["source_line"]))
    for table_id, table_cells in cells.items():
        if table_id in tables:
            tables[table_id].cells = table_cells
    return tables
