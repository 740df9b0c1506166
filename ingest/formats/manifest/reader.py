"""The manifest format's reader: a manifest's bytes -> its `SolutionManifest`, or one `ManifestError`
listing every problem (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports tomllib and the checkers.
"""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from typing import Any

from ....schema.units import SIZE_BASES, SIZE_UNITS
from ....schema.vocabulary import DISK_MEDIA, DISK_ROLES, POWER_BOUNDARIES, REPORT_TYPES
from ...errors import ParseError
from .claims import ClaimChecker
from .records import (
    CURRENCY_PATTERN,
    FIGURE_ROW_FIELDS,
    KEY_PATTERN,
    PRICE_TYPES,
    SCHEMA_VERSION,
    TABLE_ROW_FIELDS,
    Capacity,
    DiskGroup,
    Power,
    Price,
    ReportMatch,
    RunSpec,
    SolutionManifest,
    TrialSpec,
)
from .table_refs import TableRefChecker
from .toml_checker import kind_of, show_value

MAX_LINE_CHARS = 10_000  # the longest real line is a quoted sentence

_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")

TOP_KEYS = ("schema", "solution", "capacity", "disks", "price", "power", "trials", "runs", "claims")
SOLUTION_KEYS = ("key", "vendor", "model", "label", "connectivity", "raid_level", "notes")
CAPACITY_KEYS = ("usable", "unit", "base", "source")
DISK_KEYS = ("count", "model", "media", "rpm", "capacity", "capacity_unit", "capacity_base", "interface",
             "firmware", "role", "notes")
PRICE_KEYS = ("amount", "currency", "year", "type", "includes", "source")
MIN_PRICE = Decimal("0.01")  # the column keeps cents: 1e-31 would be stored as 0
POWER_KEYS = ("idle_w", "active_w", "boundary", "source")
TRIAL_KEYS = ("key", "description")
RUN_KEYS = ("label", "trial", "report", "document", "match", "hosts", "table", "figures", "description",
            "scenario", "perfmon", "power_log")
MATCH_KEYS = ("machine_name", "report_index", "report_type", "test_start")
RUN_SOURCES = ("report", "document", "table")


class ManifestError(ParseError):
    """A manifest that does not validate; `problems` holds each ``key.path: problem`` line."""

    def __init__(self, file: str, problems: list[str]):
        self.problems = tuple(problems)
        count = len(problems)
        message = problems[0] if count == 1 else f"{count} problems:\n  " + "\n  ".join(problems)
        super().__init__(file, message, section="solution manifest")


def parse(name: str, data: bytes, *, max_bytes: int) -> SolutionManifest:
    document = _load_toml(name, _decode(name, data, max_bytes))
    checker = _Checker()
    manifest = checker.manifest(name, document)
    if checker.problems:
        raise ManifestError(name, checker.problems)
    assert manifest is not None
    return manifest


# --- bytes -> TOML document ---------------------------------------------------------------


def _decode(name: str, data: bytes, max_bytes: int) -> str:
    if len(data) > max_bytes:
        raise ParseError(name, f"file is {len(data):,} bytes; a manifest over {max_bytes:,} bytes is refused")
    if b"\x00" in data:
        offset = data.index(b"\x00")
        raise ParseError(name, f"binary data (NUL byte at offset {offset}), not a TOML manifest",
                         line=data.count(b"\n", 0, offset) + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ParseError(name, f"not UTF-8 text: byte 0x{data[error.start]:02x} at offset {error.start} cannot be "
                         "decoded (Latin-1 or Windows-1252?); TOML manifests must be saved as UTF-8",
                         line=data.count(b"\n", 0, error.start) + 1) from None
    if not text.strip():
        raise ParseError(name, "file is empty; a manifest needs at least schema = 1 and a [solution] table")
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise ParseError(name, f"line is {len(line):,} characters long; manifest lines are limited to "
                             f"{MAX_LINE_CHARS:,}", line=number)
    return text


def _load_toml(name: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = _TOML_POSITION.search(message)
        line = int(position.group(1)) if position else None
        raise ParseError(name, f"TOML syntax error: {message}", line=line) from None


# --- validation ---------------------------------------------------------------------------


class _Checker(ClaimChecker, TableRefChecker):
    """Builds the manifest records on top of the generic TOML reading."""

    def manifest(self, name: str, doc: dict[str, Any]) -> SolutionManifest | None:
        self.known_keys(doc, "", TOP_KEYS)
        schema = self.schema(doc)
        solution = self.table(doc, "solution", "solution", required=True) or {}
        self.known_keys(solution, "solution", SOLUTION_KEYS)
        key = self.string(solution, "key", "solution", required=True)
        if key is not None and not KEY_PATTERN.fullmatch(key):
            self.problem("solution.key", f"{show_value(key)} must match ^[a-z0-9][a-z0-9-]{{1,63}}$ "
                         "(lower-case letters, digits and hyphens)")
            key = None
        model = self.string(solution, "model", "solution", required=True)
        text = {field: self.string(solution, field, "solution") for field in SOLUTION_KEYS if field not in ("key", "model")}
        capacity = self.capacity(doc)
        disks = self.disks(doc)
        price = self.price(doc)
        power = self.power(doc)
        trials = self.trials(doc)
        runs = self.runs(doc, {trial.key for trial in trials})
        claims = self.claims(doc, key, {run.label for run in runs})
        if self.problems or key is None or model is None or schema is None:
            return None
        return SolutionManifest(
            source_name=name, schema=schema, key=key, model=model, vendor=text["vendor"], label=text["label"],
            connectivity=text["connectivity"], raid_level=text["raid_level"], notes=text["notes"],
            capacity=capacity, disks=tuple(disks), price=price, power=power, trials=tuple(trials),
            runs=tuple(runs), claims=tuple(claims),
        )

    def schema(self, doc: dict[str, Any]) -> int | None:
        value = doc.get("schema")
        if value is None:
            self.problem("schema", f"required; write schema = {SCHEMA_VERSION} at the top of the file")
        elif isinstance(value, bool) or value != SCHEMA_VERSION:
            self.problem("schema", f"{show_value(value)} is not a known manifest schema; this version reads {SCHEMA_VERSION}")
        else:
            return SCHEMA_VERSION
        return None

    def size(self, table: dict[str, Any], path: str, value_key: str, unit_key: str, base_key: str,
             *, required: bool) -> tuple[Decimal, str, str] | None:
        """A size as written (value, unit, prefix base); the base is required, never guessed, except for B."""
        present = value_key in table
        value = self.decimal(table, value_key, path, required=required)
        unit = self.string(table, unit_key, path, required=present, choices=tuple(SIZE_UNITS))
        base = self.string(table, base_key, path, choices=tuple(SIZE_BASES))
        if not present and not required and (unit_key in table or base_key in table):
            self.problem(f"{path}.{value_key}", f"required with {unit_key} and {base_key}")
        if present and unit not in (None, "B") and base_key not in table:
            self.problem(f"{path}.{base_key}", f"required with {unit_key} = {show_value(unit)}: binary (1 GB = 2^30 "
                         "bytes, the seeds' convention) or decimal (1 GB = 10^9 bytes)")
        if value is None or unit is None or (base is None and unit != "B"):
            return None
        return value, unit, base or "binary"

    def capacity(self, doc: dict[str, Any]) -> Capacity | None:
        table = self.table(doc, "capacity", "capacity")
        if table is None:
            return None
        self.known_keys(table, "capacity", CAPACITY_KEYS)
        size = self.size(table, "capacity", "usable", "unit", "base", required=True)
        source = self.string(table, "source", "capacity")
        return Capacity(size[0], size[1], size[2], source) if size else None

    def disks(self, doc: dict[str, Any]) -> list[DiskGroup]:
        groups = []
        items = self.array_of_tables(doc, "disks")
        if not items and "disks" not in doc:
            self.problem("disks", "at least one [[disks]] group is required")
        for path, table in items:
            self.known_keys(table, path, DISK_KEYS)
            count = self.integer(table, "count", path, required=True, minimum=1)
            media = self.string(table, "media", path, required=True, choices=DISK_MEDIA)
            role = self.string(table, "role", path, required=True, choices=DISK_ROLES)
            rpm = self.integer(table, "rpm", path, minimum=1)
            if media == "SSD" and "rpm" in table:
                self.problem(f"{path}.rpm", "an SSD has no rpm; leave it out")
            size = self.size(table, path, "capacity", "capacity_unit", "capacity_base", required=False)
            text = {key: self.string(table, key, path) for key in ("model", "interface", "firmware", "notes")}
            if count is None or media is None or role is None:
                continue
            groups.append(DiskGroup(count=count, media=media, role=role, rpm=rpm,
                                    capacity=size[0] if size else None, capacity_unit=size[1] if size else None,
                                    capacity_base=size[2] if size else None, **text))
        return groups

    def price(self, doc: dict[str, Any]) -> Price | None:
        table = self.table(doc, "price", "price")
        if table is None:
            return None
        self.known_keys(table, "price", PRICE_KEYS)
        amount = self.decimal(table, "amount", "price", required=True, strings=True)
        if amount is not None and (amount < MIN_PRICE or amount.as_tuple().exponent < -2):  # type: ignore[operator]
            self.problem("price.amount", f"{amount} cannot be stored as a price (numeric(14, 2): at least "
                                         f"{MIN_PRICE}, at most two decimals); a price that rounds is another price")
            amount = None
        currency = self.string(table, "currency", "price", required=True)
        if currency is not None and not CURRENCY_PATTERN.fullmatch(currency):
            self.problem("price.currency", f"{show_value(currency)} is not an ISO 4217 code (three capital letters)")
            currency = None
        kind = self.string(table, "type", "price", required=True, choices=PRICE_TYPES)
        year = self.integer(table, "year", "price", minimum=1980, maximum=2100)
        includes = self.string(table, "includes", "price")
        source = self.string(table, "source", "price")
        if amount is None or currency is None or kind is None:
            return None
        return Price(amount=amount, currency=currency, type=kind, year=year, includes=includes, source=source)

    def power(self, doc: dict[str, Any]) -> Power | None:
        table = self.table(doc, "power", "power")
        if table is None:
            return None
        self.known_keys(table, "power", POWER_KEYS)
        watts = {key: self.decimal(table, key, "power", positive=False) for key in ("idle_w", "active_w")}
        if "idle_w" not in table and "active_w" not in table:
            self.problem("power", "give idle_w, active_w or both")
        boundary = self.string(table, "boundary", "power", required=True, choices=POWER_BOUNDARIES)
        source = self.string(table, "source", "power")
        if boundary is None:
            return None
        idle, active = (float(watts[key]) if watts[key] is not None else None for key in ("idle_w", "active_w"))
        return Power(boundary=boundary, idle_w=idle, active_w=active, source=source)

    def trials(self, doc: dict[str, Any]) -> list[TrialSpec]:
        trials: list[TrialSpec] = []
        seen: dict[str, str] = {}
        for path, table in self.array_of_tables(doc, "trials"):
            self.known_keys(table, path, TRIAL_KEYS)
            key = self.string(table, "key", path, required=True)
            description = self.string(table, "description", path)
            if key is None:
                continue
            if not KEY_PATTERN.fullmatch(key):
                self.problem(f"{path}.key", f"{show_value(key)} must match ^[a-z0-9][a-z0-9-]{{1,63}}$")
            elif key in seen:
                self.problem(f"{path}.key", f"{show_value(key)} is already used by {seen[key]}")
            else:
                seen[key] = path
                trials.append(TrialSpec(key, description))
        return trials

    def runs(self, doc: dict[str, Any], trial_keys: set[str]) -> list[RunSpec]:
        runs: list[RunSpec] = []
        seen: dict[str, str] = {}
        for path, table in self.array_of_tables(doc, "runs"):
            self.known_keys(table, path, RUN_KEYS)
            label = self.string(table, "label", path, required=True)
            if label is not None and label in seen:
                self.problem(f"{path}.label", f"{show_value(label)} is already used by {seen[label]}")
                label = None
            elif label is not None:
                seen[label] = path
            trial = self.string(table, "trial", path)
            if trial is not None and trial not in trial_keys:
                known = ", ".join(sorted(trial_keys)) or "none (the manifest has no [[trials]])"
                self.problem(f"{path}.trial", f"{show_value(trial)} is not a [[trials]] key; known: {known}")
            given = [key for key in RUN_SOURCES if key in table]
            if len(given) != 1:
                extra = f" (found {', '.join(given)})" if given else ""
                self.problem(path, f"give exactly one of report, document, table{extra}")
            report = self.path(table, "report", path, suffixes=(".html", ".htm"))
            document = self.path(table, "document", path)
            match = self.match(table, path)
            if match is not None and "document" not in table:
                self.problem(f"{path}.match", "only with document = … (a report embedded in a document)")
            hosts = self.hosts(table, path)
            ref = self.table_ref(table, path, "table", TABLE_ROW_FIELDS)
            figures = self.table_ref(table, path, "figures", FIGURE_ROW_FIELDS)
            if figures is not None and "table" in table:
                self.problem(f"{path}.figures", "only with report or document; a table run reads every figure "
                             "from its [runs.table]")
            perfmon = self.perfmon(table, path)
            power_log = self.path(table, "power_log", path)
            description = self.string(table, "description", path)
            scenario = self.string(table, "scenario", path)
            if label is None:
                continue
            runs.append(RunSpec(label=label, trial=trial, report=report, document=document, match=match, hosts=hosts,
                                scenario=scenario, table=ref, figures=figures, description=description,
                                perfmon=perfmon, power_log=power_log))
        return runs

    def hosts(self, run: dict[str, Any], path: str) -> tuple[int, ...]:
        """`hosts = [0, 1, 2]`: the report indexes of one test's hosts in the run's document."""
        where = f"{path}.hosts"
        value = run.get("hosts")
        if value is None:
            return ()
        if "document" not in run:
            self.problem(where, "only with document = … (the hosts' reports are printed in one document)")
        if "match" in run:
            self.problem(where, "give match (one report) or hosts (the reports of one test's hosts), not both")
        if not isinstance(value, list) or len(value) < 2:
            self.problem(where, f"expected two or more report indexes (0-based, in document order), got "
                         f"{kind_of(value)} {show_value(value)}")
            return ()
        indexes = [self.integer({"hosts": item}, "hosts", path, minimum=0) for item in value]
        repeated = sorted({i for i in indexes if i is not None and indexes.count(i) > 1})
        if repeated:
            self.problem(where, f"report {', '.join(map(str, repeated))} is listed more than once")
        if None in indexes or repeated:
            return ()
        return tuple(i for i in indexes if i is not None)

    def match(self, run: dict[str, Any], path: str) -> ReportMatch | None:
        where = f"{path}.match"
        table = self.table(run, "match", where)
        if table is None:
            return None
        self.known_keys(table, where, MATCH_KEYS)
        if not any(key in table for key in MATCH_KEYS):
            self.problem(where, f"give at least one of {', '.join(MATCH_KEYS)}")
        return ReportMatch(
            machine_name=self.string(table, "machine_name", where),
            report_index=self.integer(table, "report_index", where, minimum=0),
            report_type=self.string(table, "report_type", where, choices=REPORT_TYPES),
            test_start=self.string(table, "test_start", where),
        )

    def perfmon(self, run: dict[str, Any], path: str) -> tuple[str, ...]:
        value = run.get("perfmon")
        if value is None:
            return ()
        if not isinstance(value, list) or not value:
            self.problem(f"{path}.perfmon", "expected a non-empty array of paths")
            return ()
        paths = [self.path({"perfmon": item}, "perfmon", path) for item in value]
        return tuple(p for p in paths if p is not None)
