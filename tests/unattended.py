"""How much of the hand-written catalogue the documents alone give, system by system.

The reference is the catalogue of the hand-checked manifests (fixtures/catalog/); the unattended
catalogue is what `esrpdb ingest` makes of the seed documents with no manifest. Systems are
matched by their runs (test type and total IOPS, to the unit), never by names, so a renamed copy
of a document scores the same. Every figure is computed by the code on both sides (the views and
`compare`), none is typed here: per-disk IOPS on both bases, MB/s per disk, total IOPS, database
read latency, IOPS per dollar, dollars per thousand IOPS, MB per dollar, IOPS per watt, and the
"N% more" of every comparison the reference's claims make.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.engine import Engine

from esrpdb.queries import compare

# (compare metric, disk basis) per system: the figures of docs/ and the yardstick.
FIGURES: tuple[tuple[str, str | None], ...] = (
    ("total_iops", None),
    ("achieved_iops_per_disk", "all"), ("achieved_iops_per_disk", "active"),
    ("total_iops_per_disk", "all"), ("total_iops_per_disk", "active"),
    ("throughput_mb_per_s_per_disk", "all"), ("throughput_mb_per_s_per_disk", "active"),
    ("iops_per_dollar", None), ("mb_per_dollar", None), ("perf_per_watt", None),
)
EXTRA = ("db_read_latency_ms", "price_per_kiops")
RELATIVE_TOLERANCE = 0.005  # 0.5 %: a table prints 26.8 MB/s where perfmon averages 26.87; not a near figure

_RUN_SIGNATURES = text("""
SELECT f.solution, f.report_type, round(f.total_iops::numeric) AS iops
FROM run_figures f WHERE f.total_iops IS NOT NULL AND f.solution IS NOT NULL
""")
_LATENCY = text("""
SELECT l.avg_db_read_latency_ms FROM run_scope_latencies l
WHERE l.run_id = :run AND l.scope = 'transactional'
""")
_PRICE_PER_KIOPS = text("SELECT price_per_kiops_amount FROM dollars_per_kiops WHERE run_id = :run")
_COMPARISONS = text("""
SELECT DISTINCT s.key, o.key, c.metric, coalesce(c.disk_basis, '')
FROM claims c JOIN solutions s ON s.id = c.solution_id JOIN solutions o ON o.id = c.other_solution_id
WHERE c.subject = 'comparison'
""")


def signatures(engine: Engine) -> dict[str, set[tuple[str, int]]]:
    found: dict[str, set[tuple[str, int]]] = {}
    with engine.connect() as conn:
        for key, report_type, iops in conn.execute(_RUN_SIGNATURES):
            found.setdefault(key, set()).add((report_type, int(iops)))
    return found


def match_systems(reference: Engine, unattended: Engine) -> dict[str, str | None]:
    """Reference key -> the unattended solution sharing most of its runs (None: no shared run)."""
    ours, theirs = signatures(reference), signatures(unattended)
    matched: dict[str, str | None] = {}
    for key, runs in sorted(ours.items()):
        best = max(theirs.items(), key=lambda item: (len(item[1] & runs), -len(item[1] ^ runs)), default=None)
        matched[key] = best[0] if best and best[1] & runs else None
    return matched


def system_figures(engine: Engine, key: str) -> dict[str, float | None]:
    """A solution's representative figures, as `compare` chooses and computes them."""
    values: dict[str, float | None] = {}
    with engine.connect() as conn:
        figures = compare.read_figures(conn, [key]).get(key, compare.SolutionFigures(key))
        median = figures.run_id
        for metric, basis in FIGURES:
            values[f"{metric}:{basis}" if basis else metric] = figures.value(metric, basis)
        values["db_read_latency_ms"] = conn.execute(_LATENCY, {"run": median}).scalar() if median else None
        values["price_per_kiops"] = conn.execute(_PRICE_PER_KIOPS, {"run": median}).scalar() if median else None
    return {k: (float(v) if v is not None else None) for k, v in values.items()}


def same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= RELATIVE_TOLERANCE * max(abs(a), abs(b), 1e-12)


@dataclass
class SystemScore:
    key: str
    matched: str | None
    found: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


@dataclass
class Score:
    systems: list[SystemScore]

    @property
    def systems_found(self) -> int:
        return sum(1 for s in self.systems if s.matched)

    @property
    def figures(self) -> tuple[int, int]:
        return (sum(len(s.found) for s in self.systems), sum(len(s.found) + len(s.missed) for s in self.systems))

    def line(self) -> str:
        found, total = self.figures
        return f"unattended catalogue: {self.systems_found}/{len(self.systems)} systems, {found}/{total} figures"

    def table(self) -> str:
        out = [self.line()]
        for s in self.systems:
            out.append(f"  {s.key} -> {s.matched or '(not found)'}: {len(s.found)}/{len(s.found) + len(s.missed)}"
                       + (f"; missed {', '.join(s.missed)}" if s.missed else ""))
        return "\n".join(out)


def _percent(engine: Engine, a: str, b: str, metric: str, basis: str | None) -> float | None:
    va, vb = system_figures(engine, a).get(_name(metric, basis)), system_figures(engine, b).get(_name(metric, basis))
    return compare.percent_more(va, vb) if va is not None and vb else None


def _name(metric: str, basis: str | None) -> str:
    return f"{metric}:{basis}" if compare.METRICS[metric].per_disk else metric


def score(reference: Engine, unattended: Engine) -> Score:
    matched = match_systems(reference, unattended)
    systems = {key: SystemScore(key, other) for key, other in matched.items()}
    for key, system in systems.items():
        expected = system_figures(reference, key)
        got = system_figures(unattended, system.matched) if system.matched else {}
        for name, value in expected.items():
            if value is None:
                continue
            (system.found if same(value, got.get(name)) else system.missed).append(name)
    with reference.connect() as conn:
        comparisons = conn.execute(_COMPARISONS).all()
    for a, b, metric, basis in comparisons:
        base = metric.split(":", 1)[1]
        if base not in compare.METRICS or a not in systems:
            continue
        expected = _percent(reference, a, b, base, basis or "all")
        if expected is None:
            continue
        name = f"{base} vs {b}" + (f" ({basis})" if basis else "")
        ours_a, ours_b = matched.get(a), matched.get(b)
        got = _percent(unattended, ours_a, ours_b, base, basis or "all") if ours_a and ours_b else None
        (systems[a].found if got is not None and abs(got - expected) < 0.5 else systems[a].missed).append(name)
    return Score(list(systems.values()))
