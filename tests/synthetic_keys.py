"""How much of a synthetic document's answer key a catalogue built from that document alone holds.

The documents and keys are fixtures/synthetic_documents/ (made up, see fixtures/README.md). A key
says what the document states: its systems (hardware, capacity, price, power, test design), its
runs (every Jetstress report and every run a results table prints) and the figures computed from
them. The catalogue is what `ingest_paths(engine, [document])` makes of the document with no
manifest. Four counts, as tests/unattended.py scores the seeds:

- systems: each key system matched to a solution by its runs (test type and achieved IOPS to the
  unit), never by names unless no run tells (then every word of the key's `names` must be in the
  solution's key, label or model), one solution per system;
- facts: each hardware and design field the key gives against the solution's columns, its disks
  (`disks`, `solution_disk_counts`) and its test design (`test_designs`);
- runs: each key run found among the solution's runs (test type, achieved IOPS to 0.01);
- figures: each key figure against what `esrpdb.queries.compare` gives for the solution's
  representative run, as `unattended.system_figures` takes them.

Text compares case-insensitively with spaces, hyphens and underscores ignored ("RAID 6" = "raid-6");
numbers within 0.5 % relative. Every miss keeps what the catalogue held, for the reader's work.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from esrpdb.queries import compare
from esrpdb.schema.vocabulary import DISK_BASES

RELATIVE_TOLERANCE = 0.005  # 0.5 %
RUN_TOLERANCE = 0.01  # achieved IOPS of one run, as printed to three decimals
KINDS = ("systems", "facts", "runs", "figures")

# key field -> what the catalogue holds for it (a name for the reader of the table of misses)
FACTS: dict[str, str] = {
    "vendor": "solutions.vendor",
    "model": "solutions.model",
    "disks_total": "solution_disk_counts.all_disk_count",
    "disks_active": "solution_disk_counts.active_disk_count",
    "spares": "disks (role hot_spare)",
    "disk_size_gb": "disks.raw_capacity_bytes / 1e9",
    "disk_rpm": "disks.speed_rpm",
    "disk_interface": "disks.interface",
    "media": "disks.media",
    "raid": "solutions.raid_level",
    "usable_capacity_gb": "solutions.usable_capacity_bytes / 2^30",
    "price_usd": "solutions.list_price_amount (USD)",
    "power_w": "solutions.active_power_w",
    "idle_power_w": "solutions.idle_power_w",
    "mailboxes": "test_designs.mailbox_count",
    "iops_per_mailbox": "test_designs.iops_per_mailbox",
    "mailbox_size_mb": "test_designs.mailbox_size_mb",
    "databases": "test_designs.database_count",
    "copies": "test_designs.database_copies",
    "connectivity": "solutions.connectivity",
}
TEXT_FACTS = {"vendor", "model", "disk_interface", "media", "raid", "connectivity"}
# key figure metric -> compare's metric
FIGURE_METRICS = {
    "achieved_iops": "achieved_iops", "total_iops": "total_iops",
    "achieved_iops_per_disk": "achieved_iops_per_disk", "total_iops_per_disk": "total_iops_per_disk",
    "iops_per_dollar": "iops_per_dollar", "mb_per_dollar": "mb_per_dollar", "iops_per_watt": "perf_per_watt",
}

_SOLUTIONS = text("""
SELECT id, key, vendor, model, label, raid_level, connectivity, usable_capacity_bytes,
       list_price_amount, list_price_currency, active_power_w, idle_power_w
FROM solutions ORDER BY key
""")
_DISKS = text("""
SELECT solution_id, disk_count, role, raw_capacity_bytes, speed_rpm, interface, media
FROM disks ORDER BY solution_id, id
""")
_DISK_COUNTS = text("SELECT solution_id, all_disk_count, active_disk_count FROM solution_disk_counts")
_DESIGNS = text("""
SELECT solution_id, mailbox_count, iops_per_mailbox, mailbox_size_mb, database_count, database_copies
FROM test_designs
""")
_RUNS = text("""
SELECT r.id, r.solution_id, r.report_type, coalesce(f.achieved_iops, r.achieved_iops) AS achieved_iops
FROM runs r LEFT JOIN run_figures f ON f.run_id = r.id
WHERE r.solution_id IS NOT NULL ORDER BY r.id
""")
_RUN_ACHIEVED = text("SELECT achieved_iops FROM run_figures WHERE run_id = :run")


# --- comparing ------------------------------------------------------------------------------


def plain(value: Any) -> str:
    """Text as compared: case-folded, spaces, hyphens and underscores dropped ("RAID 6" = "raid-6")."""
    return re.sub(r"[\s\-_]+", "", str(value)).casefold()


def near(expected: float, seen: Any, tolerance: float = 0.0) -> bool:
    if seen is None:
        return False
    expected, seen = float(expected), float(seen)
    return abs(expected - seen) <= max(tolerance, RELATIVE_TOLERANCE * max(abs(expected), abs(seen)))


def _unit(value: float) -> int:
    """Rounded to the unit, halves up (as PostgreSQL's round of a numeric)."""
    return int(math.floor(value + 0.5))


def _words(*texts: str | None) -> set[str]:
    return {w for t in texts if t for w in re.findall(r"[a-z0-9]+", t.casefold())}


# --- the catalogue --------------------------------------------------------------------------


@dataclass
class Solution:
    id: int
    key: str
    row: dict[str, Any]
    disks: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, Any] | None = None
    design: dict[str, Any] | None = None
    runs: list[tuple[int, str, float | None]] = field(default_factory=list)  # (run id, report type, achieved IOPS)

    @property
    def signature(self) -> set[tuple[str, int]]:
        return {(kind, _unit(iops)) for _, kind, iops in self.runs if iops is not None}


def read_catalogue(conn: Connection) -> dict[str, Solution]:
    solutions = {row.id: Solution(row.id, row.key, dict(row._mapping)) for row in conn.execute(_SOLUTIONS)}
    for row in conn.execute(_DISKS):
        solutions[row.solution_id].disks.append(dict(row._mapping))
    for row in conn.execute(_DISK_COUNTS):
        solutions[row.solution_id].counts = dict(row._mapping)
    for row in conn.execute(_DESIGNS):
        solutions[row.solution_id].design = dict(row._mapping)
    for run_id, solution_id, kind, iops in conn.execute(_RUNS):
        solutions[solution_id].runs.append((run_id, kind, None if iops is None else float(iops)))
    return {s.key: s for s in solutions.values()}


def _disk_values(solution: Solution, column: str, scale: float = 1.0) -> list[Any]:
    values = []
    for disk in solution.disks:
        value = disk[column]
        if value is not None:
            value = float(value) / scale if scale != 1.0 else value
            if value not in values:
                values.append(value)
    return values


def catalogue_fact(solution: Solution, name: str) -> Any:
    """What the catalogue holds for one key field: a value, a list (one per disk group) or None."""
    row, design, counts = solution.row, solution.design or {}, solution.counts or {}
    if name in ("vendor", "model", "connectivity"):
        return row[name]
    if name == "raid":
        return row["raid_level"]
    if name == "usable_capacity_gb":
        return None if row["usable_capacity_bytes"] is None else row["usable_capacity_bytes"] / 2**30
    if name == "price_usd":
        return None if row["list_price_amount"] is None else (float(row["list_price_amount"]), row["list_price_currency"])
    if name == "power_w":
        return row["active_power_w"]
    if name == "idle_power_w":
        return row["idle_power_w"]
    if name == "disks_total":
        return counts.get("all_disk_count")
    if name == "disks_active":
        return counts.get("active_disk_count")
    if name == "spares":
        return sum(d["disk_count"] for d in solution.disks if d["role"] == "hot_spare") if solution.disks else None
    if name == "disk_size_gb":
        return _disk_values(solution, "raw_capacity_bytes", 1e9)
    if name == "disk_rpm":
        return _disk_values(solution, "speed_rpm")
    if name == "disk_interface":
        return _disk_values(solution, "interface")
    if name == "media":
        return _disk_values(solution, "media")
    column = {"mailboxes": "mailbox_count", "databases": "database_count", "copies": "database_copies"}.get(name, name)
    return design.get(column)


# Words a company's name may carry or drop ("Veltrix Storage" is "Veltrix"); not its distinctive words.
_COMPANY_WORDS = frozenset({"systems", "storage", "networks", "technologies", "technology", "data", "inc", "corp",
                            "corporation", "ltd", "llc", "co", "company", "labs", "solutions", "computing", "group"})


def company(name: str) -> str:
    words = re.findall(r"[a-z0-9]+", name.casefold())
    while len(words) > 1 and words[-1] in _COMPANY_WORDS:
        words.pop()
    return " ".join(words)


def fact_found(name: str, expected: Any, seen: Any, system: dict[str, Any], solution: Solution) -> bool:
    if seen is None or seen == []:
        return False
    if name == "model":
        vendor = solution.row["vendor"] or ""
        return plain(seen) == plain(expected) or plain(vendor + str(seen)) == plain(f"{system.get('vendor') or ''}{expected}")
    if name == "vendor":  # the keys' authors write the company either way: "Corvane" or "Corvane Systems"
        return company(str(seen)) == company(str(expected))
    if name == "price_usd":
        amount, currency = seen
        return currency in (None, "USD") and near(expected, amount)
    candidates = seen if isinstance(seen, list) else [seen]
    if name in TEXT_FACTS:
        return any(plain(c) == plain(expected) for c in candidates)
    return any(near(expected, c) for c in candidates)


def representative_figures(conn: Connection, key: str) -> dict[str, float | None]:
    """The solution's figures as `compare` chooses and computes them (tests/unattended.py's system_figures)."""
    figures = compare.read_figures(conn, [key]).get(key, compare.SolutionFigures(key))
    median = figures.run_id
    values: dict[str, float | None] = {}
    for metric, ours in FIGURE_METRICS.items():
        for basis in DISK_BASES if metric.endswith("_per_disk") else (None,):
            name = f"{metric}:{basis}" if basis else metric
            if ours in compare.METRICS:
                values[name] = figures.value(ours, basis if compare.METRICS[ours].per_disk else None)
            elif metric == "achieved_iops":  # compare without an achieved IOPS metric: the run's own figure
                values[name] = conn.execute(_RUN_ACHIEVED, {"run": median}).scalar() if median else None
            else:
                values[name] = None
    return {k: (None if v is None else float(v)) for k, v in values.items()}


# --- the score ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    kind: str  # systems | facts | runs | figures
    system: str  # the key's system id (S1, S2, ...)
    name: str
    expected: Any
    seen: Any
    found: bool
    note: str = ""


def _show(value: Any) -> str:
    if value is None or value == []:
        return "nothing"
    if isinstance(value, tuple):
        return " ".join(_show(v) for v in value if v is not None)
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e6 else f"{value:.0f}"
    return repr(value) if isinstance(value, str) else str(value)


@dataclass
class Score:
    document: str
    items: list[Item]
    matched: dict[str, tuple[str | None, str]]  # key system id -> (solution key, how: runs | names | none)
    systems: dict[str, str] = field(default_factory=dict)  # key system id -> "(vendor model)"
    extra: list[str] = field(default_factory=list)  # the catalogue's solutions no key system matched

    def count(self, kind: str) -> tuple[int, int]:
        items = [i for i in self.items if i.kind == kind]
        return sum(1 for i in items if i.found), len(items)

    def counts(self) -> dict[str, tuple[int, int]]:
        return {kind: self.count(kind) for kind in KINDS}

    def line(self) -> str:
        return f"{self.document}: " + ", ".join(f"{kind} {f}/{t}" for kind, (f, t) in self.counts().items())

    def misses(self) -> list[Item]:
        return [i for i in self.items if not i.found]

    def table(self) -> str:
        out = [self.line()]
        for system, (solution, how) in self.matched.items():
            out.append(f"  {system} {self.systems.get(system, '')} -> "
                       + (f"{solution} (by {how})" if solution else "(not found)"))
        if self.extra:
            out.append(f"  solutions no key system matched: {', '.join(self.extra)}")
        for item in self.misses():
            out.append(f"  missed {item.kind:<7} {item.system} {item.name}: expected {_show(item.expected)}, "
                       f"seen {_show(item.seen)}" + (f" ({item.note})" if item.note else ""))
        return "\n".join(out)


def totals(scores: Iterable[Score]) -> dict[str, tuple[int, int]]:
    found = {kind: [0, 0] for kind in KINDS}
    for score in scores:
        for kind, (f, t) in score.counts().items():
            found[kind][0] += f
            found[kind][1] += t
    return {kind: (f, t) for kind, (f, t) in found.items()}


def totals_line(scores: Iterable[Score], label: str = "total") -> str:
    return f"{label}: " + ", ".join(f"{kind} {f}/{t}" for kind, (f, t) in totals(scores).items())


def summary(scores: list[Score]) -> str:
    """Every document's table of misses, then the totals over the documents."""
    return "\n".join([*(s.table() for s in scores), totals_line(scores)])


# --- scoring --------------------------------------------------------------------------------


def load_key(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _key_signature(key: dict[str, Any], system: str) -> set[tuple[str, int]]:
    return {(r["test_type"], _unit(r["achieved_iops"])) for r in key["runs"]
            if r["system"] == system and r.get("achieved_iops") is not None}


def match_systems(key: dict[str, Any], solutions: dict[str, Solution]) -> dict[str, tuple[str | None, str]]:
    """Key system -> (solution, how): by most shared runs, one solution each; else by all of its names."""
    systems = [s["id"] for s in key["systems"]]
    pairs = []
    for system in systems:
        ours = _key_signature(key, system)
        for solution in solutions.values():
            shared = len(ours & solution.signature)
            if shared:
                pairs.append((-shared, len(ours ^ solution.signature), system, solution.key))
    matched: dict[str, tuple[str | None, str]] = {}
    used: set[str] = set()
    for _, _, system, solution_key in sorted(pairs):
        if system not in matched and solution_key not in used:
            matched[system] = (solution_key, "runs")
            used.add(solution_key)
    for system in key["systems"]:
        if system["id"] in matched:
            continue
        names = _words(*system.get("names", []))
        candidates = [s for s in solutions.values() if s.key not in used and names
                      and names <= _words(s.key, s.row["label"], s.row["model"])]
        candidates.sort(key=lambda s: (-len(s.runs), s.key))
        if candidates:
            matched[system["id"]] = (candidates[0].key, "names")
            used.add(candidates[0].key)
        else:
            matched[system["id"]] = (None, "none")
    return {s: matched[s] for s in systems}


def _run_name(run: dict[str, Any]) -> str:
    where = run.get("server") or "table"
    label = f" {run['label']!r}" if run.get("label") else ""
    return f"{run['test_type']} {where}{label} line {run.get('line')}"


def score(engine: Engine, key: dict[str, Any], document: str | None = None) -> Score:
    """The catalogue in `engine` (built from the key's document alone) against the key."""
    with engine.connect() as conn:
        solutions = read_catalogue(conn)
        matched = match_systems(key, solutions)
        figures = {solution: representative_figures(conn, solution) for solution, _ in matched.values() if solution}
    items: list[Item] = []
    described = {s["id"]: f"({s.get('vendor') or ''} {s.get('model') or ''})".replace("( ", "(") for s in key["systems"]}
    for system in key["systems"]:
        sid = system["id"]
        solution_key, how = matched[sid]
        solution = solutions.get(solution_key) if solution_key else None
        items.append(Item("systems", sid, "system", system.get("names"), solution_key, solution is not None,
                          f"by {how}" if solution else ""))
        for name in FACTS:
            expected = system.get(name)
            if expected is None:
                continue
            seen = catalogue_fact(solution, name) if solution else None
            found = solution is not None and fact_found(name, expected, seen, system, solution)
            items.append(Item("facts", sid, name, expected, seen, found, FACTS[name]))
    used: set[int] = set()
    for run in key["runs"]:
        solution_key, _ = matched.get(run["system"], (None, "none"))
        solution = solutions.get(solution_key) if solution_key else None
        expected = run.get("achieved_iops")
        same_type = [r for r in (solution.runs if solution else []) if r[1] == run["test_type"]]
        if expected is None:  # a report with no IOPS (backup, recovery): a run of its type with none
            chosen = next((r for r in same_type if r[0] not in used and r[2] is None), None)
        else:
            chosen = next((r for r in same_type if r[0] not in used and r[2] is not None
                           and abs(r[2] - expected) <= RUN_TOLERANCE), None)
        if chosen:
            used.add(chosen[0])
        seen = [r[2] for r in same_type]
        items.append(Item("runs", run["system"], _run_name(run), expected if expected is not None else run["test_type"],
                          seen if expected is not None else len(same_type), chosen is not None,
                          "" if expected is not None else f"{run['test_type']} runs seen"))
    for figure in key["figures"]:
        metric = figure["metric"]
        name = f"{metric}:{figure['disk_basis']}" if figure.get("disk_basis") else metric
        solution_key, _ = matched.get(figure["system"], (None, "none"))
        seen = figures.get(solution_key, {}).get(name) if solution_key else None
        found = near(figure["value"], seen, float(figure.get("tolerance") or 0.0))
        items.append(Item("figures", figure["system"], name, figure["value"], seen, found, figure.get("basis", "")))
    taken = {solution for solution, _ in matched.values()}
    return Score(document or Path(key["document"]).stem, items, matched, described,
                 sorted(k for k in solutions if k not in taken))


# --- renamed copies -------------------------------------------------------------------------


def _cased(new: str, old: str) -> str:
    if old.isupper():
        return new.upper()
    return new.lower() if old.islower() else new


def rename_text(value: str, renames: Iterable[tuple[str, str]]) -> str:
    """Each name replaced where it is a whole word, in any case, the new name in the old one's case
    ("HUAWEI" -> "KESTREL", "huawei" -> "kestrel")."""
    for old, new in renames:
        value = re.sub(rf"(?<![\w]){re.escape(old)}(?![\w])", lambda m, new=new: _cased(new, m[0]), value,
                       flags=re.IGNORECASE)
    return value


def rename_key(key: dict[str, Any], renames: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """A copy of the key with the same renames in what names a system (vendor, model, names)."""
    renames = list(renames)
    copy = json.loads(json.dumps(key))
    for system in copy["systems"]:
        for name in ("vendor", "model"):
            if system.get(name):
                system[name] = rename_text(system[name], renames)
        system["names"] = [rename_text(word, renames).lower() for word in system.get("names", [])]
    return copy
