"""Typed records of a solution manifest, and the closed vocabularies a manifest is checked against.

A solution manifest (TOML, one per solution; see docs/manifests.md) says what no Jetstress report
holds: vendor, model, disks and their roles, usable capacity, price, power, which report files or
document tables belong to the solution, and the figures the vendor published about it (claims).

Stage one, as everywhere in `esrpdb.ingest`: values stay as written, with their unit and prefix
base beside them (``usable = 2089``, ``unit = "GB"``, ``base = "binary"``); the few computed
properties (`Capacity.usable_bytes`, `DiskGroup.raw_capacity_bytes`) say their unit in their name.
Paths stay as written, relative to the manifest; the loader resolves them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

# The stored vocabularies a manifest is checked against, and the claim metrics, are the schema's
# (schema/vocabulary.py, schema/units.py); the names stay importable from here for the manifest's readers.
from ....schema.units import SIZE_UNITS as SIZE_UNITS, size_in_bytes
from ....schema.vocabulary import (
    CURRENCY_SLOT,
    METRICS,
    Metric as Metric,
    counts_on_basis,
    split_metric,
)

SCHEMA_VERSION = 1

KEY_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{1,63}")
CURRENCY_PATTERN = re.compile(r"[A-Z]{3}")
# A number exactly as a document prints it: 1234, 1,234.567, 0.05, .5, -3 (thousands commas allowed).
PRINTED_NUMBER = re.compile(r"[+-]?(?=\.?\d)(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")

PRICE_TYPES = ("list", "reseller", "street", "quote")


def unit_allowed(unit: str, allowed: tuple[str, ...]) -> bool:
    for pattern in allowed:
        if CURRENCY_SLOT in pattern:
            head, tail = pattern.split(CURRENCY_SLOT)
            middle = unit[len(head) : len(unit) - len(tail)]
            if unit.startswith(head) and unit.endswith(tail) and CURRENCY_PATTERN.fullmatch(middle):
                return True
        elif unit == pattern:
            return True
    return False


# --- records --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Capacity:
    """Usable capacity as the source prints it, with the unit base it counts in."""

    usable: Decimal  # as the source prints it
    unit: str  # B | KB | MB | GB | TB
    base: str  # binary (2^10 steps, the seeds' GB) | decimal (10^3 steps)
    source: str | None = None

    @property
    def usable_bytes(self) -> int:
        return size_in_bytes(self.usable, self.unit, self.base)


@dataclass(frozen=True)
class DiskGroup:
    """A set of identical disks in one role; per-disk figures divide by a sum of these counts."""

    count: int
    media: str  # HDD | SSD
    role: str  # active | hot_spare | system
    model: str | None = None
    rpm: int | None = None
    capacity: Decimal | None = None  # per disk, as the vendor prints it
    capacity_unit: str | None = None
    capacity_base: str | None = None
    interface: str | None = None
    firmware: str | None = None
    notes: str | None = None

    @property
    def raw_capacity_bytes(self) -> int | None:
        """Per disk, in bytes; None when the manifest gives no capacity."""
        if self.capacity is None or self.capacity_unit is None or self.capacity_base is None:
            return None
        return size_in_bytes(self.capacity, self.capacity_unit, self.capacity_base)


@dataclass(frozen=True)
class Price:
    """A price of the solution, of one kind, as the source states it."""

    amount: Decimal
    currency: str  # ISO 4217
    type: str  # list | reseller | street | quote
    year: int | None = None
    includes: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class Power:
    """Power draw idle and active, within the boundary the source measured."""

    boundary: str  # enclosure_and_drives | drives_only | system
    idle_w: float | None = None
    active_w: float | None = None
    source: str | None = None


@dataclass(frozen=True)
class TrialSpec:
    """Repeated runs of one configuration (Run 1..3); the median run is chosen within it."""

    key: str
    description: str | None = None


@dataclass(frozen=True)
class ReportMatch:
    """Which of the reports embedded in a document is the run's; every given field must match."""

    machine_name: str | None = None
    report_index: int | None = None  # 0-based, in document order
    report_type: str | None = None
    test_start: str | None = None  # as printed, e.g. "9/18/2008 10:13:13 AM"


# TableRef fields that name rows (each a tuple of row labels, added up), in documentation order.
TABLE_ROW_FIELDS = (
    "achieved_iops", "log_iops", "total_iops", "db_reads_per_s", "db_writes_per_s", "throughput_mb_per_s",
    "db_read_latency", "db_write_latency", "log_write_latency", "idle_power_w", "active_power_w",
)
LATENCY_ROW_FIELDS = ("db_read_latency", "db_write_latency", "log_write_latency")
# Rows a run with a report may take from a table: what no Jetstress report holds.
FIGURE_ROW_FIELDS = ("throughput_mb_per_s", "idle_power_w", "active_power_w")


@dataclass(frozen=True)
class TableRef:
    """A run's figures read from a document table, for a run whose Jetstress report is not published.

    `title` matches the start of the table's caption or heading (case-insensitive); `column` is the
    header cell of the column holding this run's values, as printed. Each row field is a tuple of
    row labels as printed; several labels are added up (seed 003 sums four VMs). A table whose
    columns are the hosts of one test ("Server 1 | Server 2 | …", no report printed) names them in
    `columns` instead: the test's figures are the hosts' sums, its latencies their average weighted
    by the hosts' IOPS (see `headings`).
    """

    document: str
    title: str
    column: str
    achieved_iops: tuple[str, ...] = ()
    log_iops: tuple[str, ...] = ()
    total_iops: tuple[str, ...] = ()
    db_reads_per_s: tuple[str, ...] = ()
    db_writes_per_s: tuple[str, ...] = ()
    throughput_mb_per_s: tuple[str, ...] = ()
    db_read_latency: tuple[str, ...] = ()
    db_write_latency: tuple[str, ...] = ()
    log_write_latency: tuple[str, ...] = ()
    idle_power_w: tuple[str, ...] = ()
    active_power_w: tuple[str, ...] = ()
    latency_unit: str | None = None  # ms | s, required with a latency row
    columns: tuple[str, ...] = ()  # the hosts' columns of one test, added up (then `column` is "")

    def headings(self) -> tuple[str, ...]:
        """The columns read: the run's one column, or the hosts' columns of one test."""
        return self.columns or (self.column,)

    def rows(self) -> dict[str, tuple[str, ...]]:
        """The row fields this reference gives, field name -> row labels."""
        return {name: getattr(self, name) for name in TABLE_ROW_FIELDS if getattr(self, name)}


@dataclass(frozen=True)
class RunSpec:
    """One Jetstress run of the solution; exactly one of `report`, `document`, `table` is set.

    With `hosts`, the run is one test run on several hosts at once, each printing its own report in
    `document`: the test's figures are those reports' sums (runs.origin = "hosts").
    """

    label: str
    trial: str | None = None
    report: str | None = None  # a Jetstress report file, relative to the manifest
    document: str | None = None  # a document holding the report, relative to the manifest
    match: ReportMatch | None = None  # with `document`
    hosts: tuple[int, ...] = ()  # with `document`: the report indexes (0-based) of the test's hosts, two or more
    scenario: str | None = None  # a test under an abnormal condition, as the document calls it ("Drive failure")
    table: TableRef | None = None
    figures: TableRef | None = None  # with report/document: FIGURE_ROW_FIELDS read from a document table
    description: str | None = None
    perfmon: tuple[str, ...] = ()  # perfmon exports recorded during the run
    power_log: str | None = None  # power-analyser log covering the run

    @property
    def source_kind(self) -> str:
        return "report" if self.report else "document" if self.document else "table"


@dataclass(frozen=True)
class ClaimSpec:
    """A figure the vendor published, kept exactly as printed so its precision is known."""

    metric: str  # a METRICS name, or percent_more:<name> / percent_less:<name>
    value: str  # as printed: "12.5", "1,234.567", "40", or a run label for median_run
    subject: str  # solution | run | comparison
    document: str
    location: str  # figure, table, page or section
    unit: str | None = None
    run: str | None = None  # a [[runs]] label of this manifest
    host: str | None = None  # with a run over several hosts: the machine whose own report the figure is
    versus: str | None = None  # comparison: the other solution's key (this one's own for run vs run)
    versus_run: str | None = None  # comparison: a run label of the other side
    versus_metric: str | None = None  # comparison: the other side's metric when it differs
    versus_value: str | None = None  # comparison with a design the catalogue lacks: its figure as printed
    disk_basis: str | None = None  # all | active, for per-disk metrics
    qualifier: str | None = None  # approximately | nearly | up_to | over | under
    line: int | None = None  # 1-based line of the document where the value is printed
    quote: str | None = None  # the sentence or table row, for the audit's evidence

    @property
    def comparison(self) -> str | None:
        """``percent_more`` / ``percent_less`` for a comparative claim, else None."""
        return split_metric(self.metric)[0]

    @property
    def base_metric(self) -> str:
        return split_metric(self.metric)[1]

    @property
    def number(self) -> Decimal | None:
        """The printed value as a Decimal (thousands separators dropped); None for a run label."""
        if not METRICS[self.base_metric].numeric or not PRINTED_NUMBER.fullmatch(self.value):
            return None
        return Decimal(self.value.replace(",", ""))

    @property
    def decimals(self) -> int | None:
        """Digits after the decimal point as printed: the claim's precision."""
        if self.number is None:
            return None
        return len(self.value.partition(".")[2])


@dataclass(frozen=True)
class SolutionManifest:
    """A solution manifest: the system tested, its hardware, capacity, price and power."""

    source_name: str
    schema: int
    key: str
    model: str
    vendor: str | None = None
    label: str | None = None
    connectivity: str | None = None
    raid_level: str | None = None
    notes: str | None = None
    capacity: Capacity | None = None
    disks: tuple[DiskGroup, ...] = ()
    price: Price | None = None
    power: Power | None = None
    trials: tuple[TrialSpec, ...] = ()
    runs: tuple[RunSpec, ...] = ()
    claims: tuple[ClaimSpec, ...] = ()

    def disk_count(self, basis: str = "all") -> int:
        """All physical disks, or the active ones only (hot spares and system disks left out)."""
        return sum(group.count for group in self.disks if counts_on_basis(group.role, basis))

    def run(self, label: str) -> RunSpec | None:
        return next((run for run in self.runs if run.label == label), None)

    def referenced_paths(self) -> list[tuple[str, str]]:
        """(key path, path as written) for every file the manifest names, in manifest order."""
        paths: list[tuple[str, str]] = []
        for index, run in enumerate(self.runs):
            where = f"runs[{index}]"
            if run.report:
                paths.append((f"{where}.report", run.report))
            if run.document:
                paths.append((f"{where}.document", run.document))
            if run.table:
                paths.append((f"{where}.table.document", run.table.document))
            if run.figures:
                paths.append((f"{where}.figures.document", run.figures.document))
            paths.extend((f"{where}.perfmon[{i}]", path) for i, path in enumerate(run.perfmon))
            if run.power_log:
                paths.append((f"{where}.power_log", run.power_log))
        paths.extend((f"claims[{i}].document", claim.document) for i, claim in enumerate(self.claims))
        return paths
