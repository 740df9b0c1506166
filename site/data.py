"""What the site shows, read once from the catalogue: one function per page kind.

Everything comes from the canned views (`queries/*.sql`) and the audit, read in bulk (see
`sql.py`) and grouped by solution in Python, so the build cost grows with rows, not queries.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, text

from ..audit import audit
from ..audit.terms import VERDICTS
from . import esrp, sql
from .audit_view import causes_by_solution
from .names import display_names

Row = dict[str, Any]

# The four canned metrics the seeds chart, in the order analysts read them: the index row's
# column, the words `esrpdb compare` uses for it, and the column holding its basis or unit.
CHART_METRICS: dict[str, tuple[str, str]] = {
    "achieved_iops_per_disk": ("achieved_iops_per_disk", "achieved IOPS per disk"),
    "iops_per_dollar": ("total_iops_per_price_unit", "total IOPS per dollar"),
    "mb_per_dollar": ("usable_mb_per_price_unit", "usable MB per dollar"),
    "perf_per_watt": ("total_iops_per_w", "total IOPS per watt"),
}

# test_designs columns each index row carries (the mailbox count from the document or JetstressConfig.xml).
DESIGN_COLUMNS = ("mailbox_count", "mailbox_count_source", "mailbox_size_mb", "iops_per_mailbox", "database_count",
                  "mailbox_class", "mailbox_class_order")

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def page_name(key: str) -> str:
    """A file name for a solution key: the key itself when it is safe, else a slug and the key's hash."""
    slug = _SAFE.sub("-", key).strip(".-") or "solution"
    if slug == key:
        return key
    return f"{slug}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def _rows(conn, statement: str) -> list[Row]:
    """Rows as dicts, Decimals as floats: the templates and charts format numbers, they do no arithmetic."""
    result = conn.execute(text(statement))
    columns = list(result.keys())
    return [dict(zip(columns, [float(v) if type(v) is Decimal else v for v in row])) for row in result.fetchall()]


def comparability(row: Row) -> str:
    """The test a figure comes from: figures of unlike tests are marked, never mixed silently."""
    release = f"Jetstress {row['jetstress_release']}" if row.get("jetstress_release") else "Jetstress version unknown"
    test = row.get("test_type") or "test type unknown"
    per_mailbox = row.get("iops_per_mailbox")
    mailbox = f"{per_mailbox:g} IOPS/mailbox" if per_mailbox is not None else "IOPS/mailbox not stored"
    return f"{release} · {test} · {mailbox}"


@dataclass
class Catalogue:
    """Everything the site shows, grouped by solution key."""

    solutions: list[Row] = field(default_factory=list)
    details: dict[str, Row] = field(default_factory=dict)
    disks: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    runs: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    latencies: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    findings: dict[str | None, list] = field(default_factory=lambda: defaultdict(list))
    causes: list = field(default_factory=list)  # the audit's causes, worst first (audit/causes.py)
    cause_rows: dict[str | None, list] = field(default_factory=dict)  # per solution key (audit_view.py)
    latency_points: list[Row] = field(default_factory=list)
    claimed_pairs: list[tuple[str, str]] = field(default_factory=list)
    class_ranks: list[Row] = field(default_factory=list)  # view mailbox_class_ranks, in rank order per class
    mailbox_classes: list[Row] = field(default_factory=list)  # table mailbox_classes: the bounds
    verdicts: tuple[str, ...] = VERDICTS
    _by_key: dict[str, Row] = field(default_factory=dict, repr=False)

    @property
    def by_key(self) -> dict[str, Row]:
        """Solutions by key (built once, on first use, after load_catalogue filled the list)."""
        if len(self._by_key) != len(self.solutions):
            self._by_key = {s["key"]: s for s in self.solutions}
        return self._by_key

    @property
    def names(self) -> dict[str, str]:
        """Solution key -> the name the site shows for it."""
        return {key: s["name"] for key, s in self.by_key.items()}

    def solution(self, key: str) -> Row:
        return self.by_key[key]


def _first(rows: list[Row], key) -> dict:
    """The first row per key, in the order the rows come."""
    out: dict = {}
    for row in rows:
        out.setdefault(key(row), row)
    return out


def _test_of(solution_id: int, run: Row | None, tests: list[Row]) -> Row:
    """The Jetstress release and test type: the run's own, else its trial's, else the solution's first run's."""
    run_id, trial_id = (run["run_id"], run["trial_id"]) if run else (None, None)
    own = [t for t in tests if t["run_id"] == run_id]
    dated = sorted((t for t in tests if t["jetstress_release"] is not None),
                   key=lambda t: (t["run_id"] != run_id, t["trial_id"] != trial_id or trial_id is None, t["run_id"]))
    first = dated[0] if dated else {}
    return {"jetstress_release": first.get("jetstress_release"), "jetstress_version": first.get("jetstress_version"),
            "test_type": (own or tests or [{}])[0].get("report_type")}


def load_catalogue(engine: Engine) -> Catalogue:
    """Read every page's data in a handful of statements (the reader role suffices)."""
    cat = Catalogue()
    with engine.connect() as conn:
        read = {name: _rows(conn, getattr(sql, name)) for name in (
            "SOLUTIONS", "MEDIAN_RUNS", "PER_DISK", "IOPS_PER_DOLLAR", "PERF_PER_WATT", "MB_PER_DOLLAR",
            "DISK_COUNTS", "RUN_TESTS", "TEST_DESIGNS", "SOLUTION_DETAILS", "DISKS", "RUNS", "LATENCIES",
            "LATENCY_POINTS", "CLAIMED_PAIRS", "ESRP_TESTS", "BACKUP_RUNS", "LOG_REPLAY_RUNS",
            "MAILBOX_CLASS_RANKS", "MAILBOX_CLASSES")}
    keys = {r["solution_id"]: r["key"] for r in read["SOLUTIONS"]}
    chosen = {r["solution_id"]: r for r in read["MEDIAN_RUNS"]}  # one a solution: read through representative_runs
    per_disk = {(r["run_id"], r["disk_basis"]): r for r in read["PER_DISK"]}
    per_dollar = _first(read["IOPS_PER_DOLLAR"], lambda r: r["run_id"])
    per_watt = _first(read["PERF_PER_WATT"], lambda r: r["run_id"])
    mb = _first(read["MB_PER_DOLLAR"], lambda r: r["key"])
    counts = {(r["solution_id"], r["disk_basis"]): r["disk_count"] for r in read["DISK_COUNTS"]}
    tests: dict[int, list[Row]] = defaultdict(list)
    for row in read["RUN_TESTS"]:
        tests[row["solution_id"]].append(row)
    designs = {r["solution_id"]: r for r in read["TEST_DESIGNS"]}
    names = display_names(read["SOLUTIONS"])
    for row in read["SOLUTIONS"]:
        sid, run = row["solution_id"], chosen.get(row["solution_id"])
        run_id = run["run_id"] if run else None
        row.update(_test_of(sid, run, tests[sid]))
        row.update({c: designs.get(sid, {}).get(c) for c in DESIGN_COLUMNS})
        row.update(
            name=names[row["key"]], disk_count_all=counts.get((sid, "all")), disk_count_active=counts.get((sid, "active")),
            median_run_id=run_id, median_trial=run and run["trial"], median_run_label=run and run["run_label"],
            achieved_iops_per_disk=per_disk.get((run_id, "all"), {}).get("achieved_iops_per_disk"),
            total_iops_per_disk=per_disk.get((run_id, "all"), {}).get("total_iops_per_disk"),
            achieved_iops_per_active_disk=per_disk.get((run_id, "active"), {}).get("achieved_iops_per_disk"),
            total_iops_per_price_unit=per_dollar.get(run_id, {}).get("total_iops_per_price_unit"),
            usable_mb_per_price_unit=mb.get(row["key"], {}).get("usable_mb_per_price_unit"),
            **{c: (run or {}).get(c) for c in ("achieved_iops", "log_iops", "total_iops", "spread_percent",
                                               "runs_in_trial", "iops_source")},
            **{c: per_watt.get(run_id, {}).get(c) for c in ("total_iops_per_w", "power_boundary", "power_source",
                                                            "active_power_w")})
        row["page"] = page_name(row["key"])
        row["group"] = comparability(row)
    cat.solutions = read["SOLUTIONS"]
    cat.details = {keys[r["solution_id"]]: r for r in read["SOLUTION_DETAILS"]}
    for name in ("disks", "runs", "latencies"):
        target = getattr(cat, name)
        for row in read[name.upper()]:
            target[keys[row["solution_id"]]].append(row)
    chosen_runs = {r["run_id"]: keys[sid] for sid, r in chosen.items()}
    cat.latency_points = sorted(({**p, "key": chosen_runs[p["run_id"]]} for p in read["LATENCY_POINTS"]
                                 if p["run_id"] in chosen_runs), key=lambda p: p["key"])
    cat.claimed_pairs = [(r["a"], r["b"]) for r in read["CLAIMED_PAIRS"]]
    cat.class_ranks, cat.mailbox_classes = read["MAILBOX_CLASS_RANKS"], read["MAILBOX_CLASSES"]
    esrp.attach_esrp_figures(cat.solutions, cat.runs, read["ESRP_TESTS"])
    esrp.attach_run_tests(cat.runs, read["BACKUP_RUNS"], read["LOG_REPLAY_RUNS"])
    report = audit(engine)
    for finding in report.findings:
        cat.findings[finding.solution].append(finding)
    cat.causes = report.causes()
    cat.cause_rows = causes_by_solution(cat.causes)
    for row in cat.solutions:
        counted = {v: 0 for v in VERDICTS}
        for finding in cat.findings.get(row["key"], []):
            counted[finding.verdict] += 1
        row["verdict_counts"] = counted
    return cat


def index_filters(cat: Catalogue) -> dict[str, list]:
    """The values each index filter offers, as they appear in the data."""
    def values(column: str) -> list[str]:
        return sorted({str(s[column]) for s in cat.solutions if s.get(column) is not None})

    media = sorted({m for s in cat.solutions for m in (s.get("media") or "").split(", ") if m})
    return {"jetstress_release": values("jetstress_release"), "media": media,
            "connectivity": values("connectivity"), "test_type": values("test_type"),
            "mailbox_class": esrp.mailbox_classes(cat.solutions)}
