"""What the site shows, read once from the catalogue: one function per page kind.

Everything comes from the canned views (`queries/*.sql`) and the audit, read in bulk (see
`sql.py`) and grouped by solution in Python, so the build cost grows with rows, not queries.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, text

from esrpdb.queries import compare as compare_lib
from esrpdb.queries.audit import audit
from esrpdb.queries.audit_judge import VERDICTS
from esrpdb.site import sql

Row = dict[str, Any]

# The four canned metrics the seeds chart, in the order analysts read them: the index row's
# column, the words `esrpdb compare` uses for it, and the column holding its basis or unit.
CHART_METRICS: dict[str, tuple[str, str]] = {
    "achieved_iops_per_disk": ("achieved_iops_per_disk", "achieved IOPS per disk"),
    "iops_per_dollar": ("total_iops_per_price_unit", "total IOPS per dollar"),
    "mb_per_dollar": ("usable_mb_per_price_unit", "usable MB per dollar"),
    "perf_per_watt": ("total_iops_per_w", "total IOPS per watt"),
}

# compare metric -> index column: the metrics the any-pair compare page computes in the browser.
COMPARE_COLUMNS: dict[str, str] = {
    "total_iops": "total_iops",
    "achieved_iops": "achieved_iops",
    "achieved_iops_per_disk": "achieved_iops_per_disk",
    "total_iops_per_disk": "total_iops_per_disk",
    "iops_per_dollar": "total_iops_per_price_unit",
    "mb_per_dollar": "usable_mb_per_price_unit",
    "perf_per_watt": "total_iops_per_w",
    "active_power_w": "active_power_w",
}

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def page_name(key: str) -> str:
    """A file name for a solution key: the key itself when it is safe, else a slug and the key's hash."""
    slug = _SAFE.sub("-", key).strip(".-") or "solution"
    if slug == key:
        return key
    return f"{slug}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def _rows(conn, statement: str) -> list[Row]:
    return [dict(r._mapping) for r in conn.execute(text(statement))]


def _floats(row: Row) -> Row:
    """Decimals as floats: the templates and charts format numbers, they do no arithmetic."""
    from decimal import Decimal

    return {k: float(v) if isinstance(v, Decimal) else v for k, v in row.items()}


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
    latency_points: list[Row] = field(default_factory=list)
    claimed_pairs: list[tuple[str, str]] = field(default_factory=list)
    verdicts: tuple[str, ...] = VERDICTS

    def solution(self, key: str) -> Row:
        return next(s for s in self.solutions if s["key"] == key)


def load_catalogue(engine: Engine) -> Catalogue:
    """Read every page's data in a handful of statements (the reader role suffices)."""
    cat = Catalogue()
    with engine.connect() as conn:
        solutions = [_floats(r) for r in _rows(conn, sql.SOLUTIONS)]
        keys = {r["solution_id"]: r["key"] for r in solutions}
        for row in solutions:
            row["page"] = page_name(row["key"])
            row["group"] = comparability(row)
        cat.solutions = solutions
        cat.details = {keys[r["solution_id"]]: _floats(r) for r in _rows(conn, sql.SOLUTION_DETAILS)}
        for name, statement in (("disks", sql.DISKS), ("runs", sql.RUNS), ("latencies", sql.LATENCIES)):
            target = getattr(cat, name)
            for row in _rows(conn, statement):
                target[keys[row["solution_id"]]].append(_floats(row))
        cat.latency_points = [_floats(r) for r in _rows(conn, sql.LATENCY_POINTS)]
        cat.claimed_pairs = [(r["a"], r["b"]) for r in _rows(conn, sql.CLAIMED_PAIRS)]
    report = audit(engine)
    for finding in report.findings:
        cat.findings[finding.solution].append(finding)
    for row in solutions:
        counted = {v: 0 for v in VERDICTS}
        for finding in cat.findings.get(row["key"], []):
            counted[finding.verdict] += 1
        row["verdict_counts"] = counted
    return cat


def index_filters(cat: Catalogue) -> dict[str, list[str]]:
    """The values each index filter offers, as they appear in the data."""
    def values(column: str) -> list[str]:
        return sorted({str(s[column]) for s in cat.solutions if s.get(column) is not None})

    media = sorted({m for s in cat.solutions for m in (s.get("media") or "").split(", ") if m})
    return {"jetstress_release": values("jetstress_release"), "media": media,
            "connectivity": values("connectivity"), "test_type": values("test_type")}


def compare_data(cat: Catalogue) -> dict[str, Any]:
    """The values the any-pair compare page needs, with `esrpdb compare`'s words for each metric."""
    metrics = {name: {"words": compare_lib.METRICS[name][1], "column": column}
               for name, column in COMPARE_COLUMNS.items()}
    solutions = {s["key"]: {"page": s["page"], "group": s["group"],
                            "values": {name: s.get(column) for name, column in COMPARE_COLUMNS.items()}}
                 for s in cat.solutions}
    return {"metrics": metrics, "solutions": solutions}


def compare_pair(a: str, b: str, cat: Catalogue) -> Row:
    """A static compare page: `esrpdb compare`'s rows and sentences, from the run the site shows for each."""
    left, right = cat.solution(a), cat.solution(b)
    rows = []
    for name, column in COMPARE_COLUMNS.items():
        va, vb = left.get(column), right.get(column)
        diff = compare_lib.percent_more(va, vb) if va is not None and vb not in (None, 0) else None
        rows.append(compare_lib.Comparison(name, va, vb, diff,
                                           compare_lib.sentence(a, b, compare_lib.METRICS[name][1], va, vb)))
    return {"a": left, "b": right, "rows": rows, "unlike": left["group"] != right["group"]}
