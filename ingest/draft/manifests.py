"""Drafted systems -> the solution manifests they would be, as records (`SolutionManifest`).

Ingest loads these records as they are (provisional solutions); `esrpdb draft` prints the same
records as TOML (toml_text.py) for a person to confirm, each value with the line it comes from
(`DraftedManifest.notes`). One builder for both, so a draft loaded unchanged confirms exactly
what ingest believed. What the document does not print is left out rather than guessed (a
system without a disk count and media gets no disk group, and says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from ...schema.units import SIZE_UNITS
from ...schema.vocabulary import METRICS, split_metric
from ..formats.manifest.records import (
    KEY_PATTERN,
    LATENCY_ROW_FIELDS,
    Capacity,
    ClaimSpec,
    DiskGroup,
    Power,
    Price,
    ReportMatch,
    RunSpec,
    SolutionManifest,
    TableRef,
    TrialSpec,
    unit_allowed,
)
from .deferred import deferred
from .disk_roles import disk_counts
from .drafts import DraftClaim, DraftRun, DraftSolution
from .fact import Fact

MIN_PRICE = Decimal("0.01")  # a price column keeps cents (formats/manifest checks the same)
TRIAL_DESCRIPTION = "repeated runs of one configuration: the median run stands for them"
_RUN_LABEL = deferred(r"^run\s*\d+$", re.IGNORECASE)
_CAPTION = deferred(r"^((?:figure|table)\s+\d+[a-z]?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class DraftedManifest:
    """A system's manifest, and where each drafted value comes from (field path -> comment)."""

    manifest: SolutionManifest
    notes: dict[str, str] = field(default_factory=dict)


def _key_base(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.casefold()))[:56].strip("-") or "solution"


def slug(text: str, taken: set[str]) -> str:
    """A manifest key from a solution's name: lower-case words joined by dashes, unique in the draft."""
    base = _key_base(text)
    key, n = base, 2
    while key in taken or not KEY_PATTERN.fullmatch(key):
        key, n = f"{base[:50]}-{n}", n + 1
    taken.add(key)
    return key


def _first(facts: list[Fact], name: str) -> Fact | None:
    return next((f for f in facts if f.fact == name), None)


def _usable_total(facts: list[Fact]) -> Fact | None:
    """The usable capacity: a figure that is the sum of the others (the mailbox and log disks' tables, then
    "Total formatted capacity presented to the hosts"), else the first stated."""
    stated = [f for f in facts if f.fact == "usable_capacity" and f.number is not None]
    for total in stated:
        parts = {f.number for f in stated if f is not total and f.unit == total.unit and f.number != total.number}
        if len(parts) >= 2 and total.number is not None and abs(sum(p for p in parts if p) - total.number) <= 0.1:
            return total
    return stated[0] if stated else _first(facts, "usable_capacity")


def system_name(solution: DraftSolution) -> str:
    """What a system is called: its vendor and model as printed, else the document's name for it."""
    vendor, model = _first(solution.facts, "vendor"), _first(solution.facts, "model")
    if model is None:
        return solution.name
    if vendor is None or vendor.value.casefold() in model.value.casefold():
        return model.value
    return f"{vendor.value} {model.value}"


def system_keys(solutions: list[DraftSolution], taken: set[str]) -> list[str]:
    """One key per system from its vendor and model (never a hash), unique among `taken` (updated)."""
    return [slug(system_name(s)[:56], taken) for s in solutions]


def key_patterns(solutions: list[DraftSolution]) -> tuple[list[str], list[str]]:
    """(keys, LIKE patterns) matching every key `system_keys` could give these systems: the taken ones
    among them are all it needs to know, not every key of a catalogue of thousands of solutions. (A
    base holds only [a-z0-9-]: no LIKE wildcard to escape.)"""
    bases = [_key_base(system_name(s)[:56]) for s in solutions]
    return bases, [f"{base[:50]}-%" for base in bases]


def trials(solution: DraftSolution, types: list[str]) -> dict[int, str]:
    """Run index -> trial key: runs labelled "Run N" of one test type are repeats of one configuration."""
    groups: dict[str, list[int]] = {}
    for index, (run, kind) in enumerate(zip(solution.runs, types)):
        if _RUN_LABEL.match(run.label):
            groups.setdefault(kind, []).append(index)
    return {index: f"{kind.lower()}-runs" for kind, members in groups.items() if len(members) > 1 for index in members}


def _line(fact_or_claim) -> str:
    return f"source: line {fact_or_claim.line}" if fact_or_claim.line else ""


def _decimal(printed: str) -> Decimal | None:
    try:
        number = Decimal(printed.replace(",", ""))
    except InvalidOperation:
        return None
    return number if number.is_finite() and number > 0 else None


class _Builder:
    """One system's manifest, field by field, with a note for each drafted value."""

    def __init__(self, solution: DraftSolution, document: str) -> None:
        self.solution, self.document = solution, document
        self.notes: dict[str, str] = {}

    def note(self, path: str, text: str) -> None:
        if text:
            self.notes[path] = text

    def identity(self) -> dict:
        facts, values = self.solution.facts, {}
        for name in ("vendor", "model", "connectivity", "raid_level"):
            fact = _first(facts, name)
            if fact is not None:
                values[name] = fact.value
                self.note(f"solution.{name}", _line(fact))
        if "model" not in values:
            values["model"] = self.solution.name
            self.note("solution.model", "source: the document's column heading")
        values["label"] = system_name(self.solution) if _first(facts, "model") else self.solution.name
        return values

    def capacity(self) -> Capacity | None:
        usable = _usable_total(self.solution.facts)
        number = _decimal(usable.value) if usable is not None and usable.unit in SIZE_UNITS else None
        if usable is None or number is None:
            return None
        self.note("capacity.usable", _line(usable))
        self.note("capacity.base", "confirm: the seeds print GB of 2^30 bytes")
        return Capacity(number, usable.unit or "", "binary", f"line {usable.line}")

    def disks(self) -> tuple[DiskGroup, ...]:
        facts = self.solution.facts
        groups, media = disk_counts(facts), _first(facts, "media")
        if not groups or media is None:
            self.note("disks", "the document prints no disk count and media for this system: add [[disks]]")
            return ()
        size, rpm, interface = (_first(facts, name) for name in ("disk_capacity", "disk_rpm", "disk_interface"))
        capacity = _decimal(size.value) if size is not None and size.unit in SIZE_UNITS else None
        found = []
        for index, group in enumerate(groups):
            where = f"disks[{index}]"
            self.note(f"{where}.count", _line(group.fact))
            self.note(f"{where}.media", _line(media))
            if capacity is not None and size is not None:
                self.note(f"{where}.capacity", _line(size))
                self.note(f"{where}.capacity_base", "disk vendors' GB are 10^9 bytes")
            speed = int(rpm.number) if rpm is not None and rpm.number and media.value == "HDD" else None
            if speed:
                self.note(f"{where}.rpm", _line(rpm))
            link = interface.value if interface is not None and interface.value else None
            if link:
                self.note(f"{where}.interface", _line(interface))
            if group.role != "active":
                self.note(f"{where}.role", "confirm: spares and system disks are not told apart")
            found.append(DiskGroup(count=group.count, media=media.value, role=group.role, rpm=speed,
                                   capacity=capacity if size is not None else None,
                                   capacity_unit=size.unit if capacity is not None and size is not None else None,
                                   capacity_base="decimal" if capacity is not None else None, interface=link))
        return tuple(found)

    def price(self) -> Price | None:
        price = next((c for c, _, _ in self.solution.claims if c.metric == "list_price"), None)
        amount = _decimal(price.value) if price is not None else None
        if price is None or amount is None or amount < MIN_PRICE or amount.as_tuple().exponent < -2:  # type: ignore[operator]
            return None
        self.note("price.amount", _line(price))
        self.note("price.type", "confirm: list, reseller, street or quote")
        return Price(amount=amount, currency="USD", type="list", source=f"line {price.line}")

    def power(self) -> Power | None:
        claims = self.solution.claims
        idle = next((c for c, _, _ in claims if c.metric == "idle_power" and c.run is None), None)
        active = next((c for c, _, _ in claims if c.metric == "active_power" and c.run is None), None)
        watts = {name: _decimal(c.value) if c is not None else None for name, c in (("idle", idle), ("active", active))}
        if watts["idle"] is None and watts["active"] is None:
            return None
        for name, claim in (("idle_w", idle), ("active_w", active)):
            if claim is not None and watts[name[:-2]] is not None:
                self.note(f"power.{name}", _line(claim))
        self.note("power.boundary", "confirm from the document")
        return Power(boundary="enclosure_and_drives", idle_w=float(watts["idle"]) if watts["idle"] else None,
                     active_w=float(watts["active"]) if watts["active"] else None)

    def run(self, index: int, run: DraftRun, trial: str | None) -> RunSpec:
        where = f"runs[{index}]"
        values: dict = {"label": run.label, "trial": trial, "scenario": run.scenario, "description": run.description}
        if run.hosts:
            self.note(f"{where}.hosts", f"one test on several hosts; source: line {run.line}")
            return RunSpec(document=self.document, hosts=tuple(run.hosts), **values)
        if run.report_index is not None:
            self.note(f"{where}.match", f"source: line {run.line}")
            figures = None
            if run.figure_table is not None:
                figures = self.table_ref(run.figure_table, run.figure_column, run.figure_rows)
                self.note(f"{where}.figures", f"source: line {run.figure_table.line}")
            return RunSpec(document=self.document, match=ReportMatch(report_index=run.report_index), figures=figures,
                           **values)
        assert run.table is not None
        self.note(f"{where}.table", f"source: line {run.line}")
        return RunSpec(table=self.table_ref(run.table, run.column, run.rows, run.columns), **values)

    def table_ref(self, table, column: str | None, rows: dict[str, list[str]], columns: tuple[str, ...] = ()) -> TableRef:
        caption = _CAPTION.match(table.title)
        labels: dict[str, Any] = {metric: tuple([labels] if isinstance(labels, str) else labels)
                                  for metric, labels in sorted(rows.items())}
        latency = "ms" if any(m in labels for m in LATENCY_ROW_FIELDS) else None  # only ms rows are drafted
        return TableRef(document=self.document, title=caption[1] if caption else table.title, column=column or "",
                        columns=columns, latency_unit=latency, **labels)

    def claim(self, index: int, claim: DraftClaim, where: str, versus: str | None) -> ClaimSpec | None:
        kind, base = split_metric(claim.metric)
        metric = METRICS.get(base)
        if metric is None:
            return None
        unit = claim.unit if claim.unit and (metric.units or kind) else None
        if unit is not None and metric.units and not kind and not unit_allowed(unit, metric.units):
            return None
        path = f"claims[{index}]"
        self.note(f"{path}.value", _line(claim))
        if metric.per_disk:
            self.note(f"{path}.disk_basis", "as the words say" if claim.disk_basis else "confirm: all disks or active ones")
        subject = "comparison" if kind else "run" if claim.run else "solution"
        versus_value = claim.versus_value if kind and versus is None else None  # a design the document does not test
        if versus_value is not None:
            self.note(f"{path}.versus_value", "the other design's figure as printed in brackets after \"than\"")
        return ClaimSpec(metric=claim.metric, value=claim.value, subject=subject, document=self.document,
                         location=where, unit=unit, run=claim.run if subject == "run" or claim.versus_run else None,
                         host=claim.host if subject == "run" else None,
                         versus=(versus or "") if kind and versus_value is None else None,
                         versus_metric=claim.versus_metric if kind else None,
                         versus_run=claim.versus_run if kind and versus_value is None else None, versus_value=versus_value,
                         disk_basis=(claim.disk_basis or "all") if metric.per_disk else None,
                         qualifier=claim.qualifier, line=claim.line, quote=claim.quote[:400])


def drafted_manifest(solution: DraftSolution, key: str, keys: list[str], document: str, source_name: str,
                     report_types: list[str] | None = None) -> DraftedManifest:
    """One system's manifest: `document` is the document's path as the manifest names it, `keys` every
    system's key (comparisons name the other), `report_types` each embedded report's type."""
    build = _Builder(solution, document)
    identity = build.identity()
    types = [report_types[r.hosts[0] if r.hosts else r.report_index]
             if report_types and (r.hosts or r.report_index is not None) else "Performance" for r in solution.runs]
    trial_of = trials(solution, types)
    runs = tuple(build.run(index, run, trial_of.get(index)) for index, run in enumerate(solution.runs))
    claims: list[ClaimSpec] = []
    seen: set[tuple] = set()
    for claim, where, versus in solution.claims:
        if (claim.comparison and versus is None and claim.versus_value is None) or \
                (claim.metric, claim.value, claim.line, claim.run) in seen:
            continue
        seen.add((claim.metric, claim.value, claim.line, claim.run))
        spec = build.claim(len(claims), claim, where, keys[versus] if versus is not None else None)
        if spec is not None:
            claims.append(spec)
    manifest = SolutionManifest(
        source_name=f"{source_name} [system {key}]", schema=1, key=key, **identity, capacity=build.capacity(),
        disks=build.disks(), price=build.price(), power=build.power(),
        trials=tuple(TrialSpec(k, TRIAL_DESCRIPTION) for k in sorted(set(trial_of.values()))),
        runs=runs, claims=tuple(claims))
    return DraftedManifest(manifest, build.notes)


def drafted_manifests(solutions: list[DraftSolution], document: str, source_name: str, keys: list[str] | None = None,
                      report_types: list[str] | None = None) -> list[DraftedManifest]:
    """Every system's manifest (keys from their vendor and model when not given)."""
    keys = keys if keys is not None else system_keys(solutions, set())
    return [drafted_manifest(s, key, keys, document, source_name, report_types) for key, s in zip(keys, solutions)]


def rekeyed(drafted: list[DraftedManifest], keys: list[str]) -> list[DraftedManifest]:
    """The same manifests under other keys, one per manifest in order (the writer's, where the catalogue
    already holds a drafted key): the key, the source name that shows it and the comparisons naming it."""
    names = {d.manifest.key: key for d, key in zip(drafted, keys)}
    if all(old == new for old, new in names.items()):
        return drafted
    out = []
    for d in drafted:
        manifest = d.manifest
        source = manifest.source_name.removesuffix(f" [system {manifest.key}]")
        claims = tuple(replace(c, versus=names.get(c.versus, c.versus)) if c.versus else c for c in manifest.claims)
        out.append(DraftedManifest(replace(manifest, key=names[manifest.key], claims=claims,
                                           source_name=f"{source} [system {names[manifest.key]}]"), d.notes))
    return out
