"""Side-by-side comparison of two solutions, with the sentence analysts write and its spread.

Each solution is represented by its median run (the whitepapers report every figure from that
run); percentages are computed from unrounded values: (a / b - 1) x 100. A trial of repeated
runs also gives the range the percentage takes across the runs: from A's weakest run against
B's strongest to the reverse, so "86% more (80–92% across the runs)" says how firm the 86 is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, text

from ..schema.keys import UnknownKey, require_solutions, unknown_message
from ..schema.vocabulary import DISK_BASES


@dataclass(frozen=True)
class Metric:
    view: str
    column: str
    words: str
    per_disk: bool = False  # one figure per disk basis
    per_run: bool = True  # the view has a row per run (else one per solution)


METRICS: dict[str, Metric] = {
    "total_iops": Metric("median_runs", "total_iops", "total IOPS"),
    "achieved_iops": Metric("median_runs", "achieved_iops", "achieved IOPS"),
    "log_iops": Metric("median_runs", "log_iops", "log IOPS"),
    "achieved_iops_per_disk": Metric("per_disk_iops", "achieved_iops_per_disk", "achieved IOPS per disk", True),
    "log_iops_per_disk": Metric("per_disk_iops", "log_iops_per_disk", "log IOPS per disk", True),
    "total_iops_per_disk": Metric("per_disk_iops", "total_iops_per_disk", "total IOPS per disk", True),
    "throughput_mb_per_s": Metric("throughput_per_disk", "transfer_mb_per_s", "MB/s"),
    "throughput_mb_per_s_per_disk": Metric("throughput_per_disk", "transfer_mb_per_s_per_disk", "MB/s per disk", True),
    "iops_per_dollar": Metric("iops_per_dollar", "total_iops_per_price_unit", "total IOPS per dollar"),
    "mb_per_dollar": Metric("mb_per_dollar", "usable_mb_per_price_unit", "usable MB per dollar", per_run=False),
    "perf_per_watt": Metric("perf_per_watt", "total_iops_per_w", "total IOPS per watt"),
    "active_power_w": Metric("perf_per_watt", "active_power_w", "active power"),
    # ESRP's other tests (esrp_tests: one line per solution, its runs of that test averaged)
    "backup_mb_per_s_per_database": Metric("esrp_tests", "backup_mb_per_s_per_database",
                                           "backup MB/s per database", per_run=False),
    "backup_mb_per_s_per_server": Metric("esrp_tests", "backup_mb_per_s_per_server", "backup MB/s per server",
                                         per_run=False),
    "checksum_mb_per_s_per_database": Metric("esrp_tests", "checksum_mb_per_s_per_database",
                                             "checksum MB/s per database", per_run=False),
    "checksum_mb_per_s_per_server": Metric("esrp_tests", "checksum_mb_per_s_per_server",
                                           "checksum MB/s per server", per_run=False),
    "logs_per_s_per_server": Metric("esrp_tests", "logs_per_s_per_server", "logs replayed per second",
                                    per_run=False),
}
DEFAULT_METRICS = ("total_iops", "achieved_iops", "achieved_iops_per_disk", "total_iops_per_disk",
                   "throughput_mb_per_s", "throughput_mb_per_s_per_disk", "iops_per_dollar", "mb_per_dollar",
                   "perf_per_watt", "active_power_w")

# What makes two Jetstress runs comparable: the same release, test type and load per mailbox.
_LIKENESS_SQL = text("""
SELECT r.jetstress_release, r.report_type,
       (SELECT c.iops_per_mailbox FROM test_configs c WHERE c.run_id = r.id ORDER BY c.source_file_id LIMIT 1)
           AS iops_per_mailbox,
       EXTRACT(EPOCH FROM (r.test_end - r.test_start)) / 3600.0 AS duration_h
FROM runs r WHERE r.id = :run_id
""")

# The run that stands for a solution (the view representative_runs: the site and the classes use it too).
_REPRESENTATIVE_SQL = text("SELECT run_id, trial FROM representative_runs WHERE solution = :s")


class UnknownMetric(UnknownKey):
    pass


@dataclass
class Comparison:
    metric: str
    disk_basis: str | None
    value_a: float | None
    value_b: float | None
    percent_more: float | None  # (a / b - 1) x 100, unrounded
    percent_more_min: float | None  # across the two trials' runs
    percent_more_max: float | None
    sentence: str


@dataclass
class ComparisonReport:
    a: str
    b: str
    rows: list[Comparison]
    unlike: list[str] = field(default_factory=list)  # why the two median runs are not like tests


def percent_more(a: float, b: float) -> float:
    return (a / b - 1) * 100


def _percent(value: float) -> str:
    return f"{abs(value):.0f}% {'more' if value >= 0 else 'less'}"


def sentence(a_key: str, b_key: str, words: str, a: float | None, b: float | None,
             spread: tuple[float, float] | None = None) -> str:
    if a is None or b is None:
        missing = a_key if a is None else b_key
        return f"no {words} figure for {missing}"
    if b == 0:
        return f"{b_key} has zero {words}; no percentage"
    difference = percent_more(a, b)
    if abs(difference) < 0.05:
        said = f"{a_key} and {b_key} delivered the same {words}"
    else:
        said = f"{a_key} delivered {_percent(difference)} {words} than {b_key}"
    if spread is not None and round(spread[0]) != round(spread[1]):
        low, high = spread
        if low >= 0:
            said += f" ({low:.0f}–{high:.0f}% across the runs)"
        elif high < 0:  # "N% less": the range in the same words, smallest shortfall first
            said += f" ({-high:.0f}–{-low:.0f}% across the runs)"
        else:
            said += f" (from {_percent(low)} to {_percent(high)} across the runs)"
    return said


def _trial_runs(conn: Connection, key: str) -> tuple[int | None, list[int]]:
    row = conn.execute(_REPRESENTATIVE_SQL, {"s": key}).first()
    if row is None:
        return None, []
    run_id, trial = row
    if trial is None:
        return run_id, [run_id]
    runs = conn.execute(text("SELECT run_id FROM median_runs WHERE solution = :s AND trial = :t"),
                        {"s": key, "t": trial}).scalars()
    return run_id, list(runs)


def _values(conn: Connection, metric: Metric, key: str, median_run: int | None, runs: list[int],
            basis: str | None) -> tuple[float | None, list[float]]:
    """(the median run's figure, the figures of its trial's runs)."""
    where = "solution = :s" + (" AND disk_basis = :basis" if basis else "")
    if not metric.per_run:
        value = conn.execute(text(f"SELECT {metric.column} FROM {metric.view} WHERE {where}"),
                             {"s": key, "basis": basis}).scalar()
        return (None if value is None else float(value)), []
    if not runs:
        return None, []
    rows = conn.execute(text(f"SELECT run_id, {metric.column} FROM {metric.view} WHERE {where} "
                             "AND run_id = ANY(:runs)"), {"s": key, "basis": basis, "runs": runs}).all()
    by_run = {run: float(v) for run, v in rows if v is not None}
    return by_run.get(median_run), list(by_run.values())


def _spread(values_a: list[float], values_b: list[float]) -> tuple[float, float] | None:
    if len(values_a) + len(values_b) <= 2 or not values_a or not values_b or min(values_b) <= 0:
        return None
    return percent_more(min(values_a), max(values_b)), percent_more(max(values_a), min(values_b))


def _unlike(conn: Connection, a: str, run_a: int | None, b: str, run_b: int | None) -> list[str]:
    if run_a is None or run_b is None:
        return []
    first = conn.execute(_LIKENESS_SQL, {"run_id": run_a}).mappings().first()
    second = conn.execute(_LIKENESS_SQL, {"run_id": run_b}).mappings().first()
    notes = []
    labels = {"jetstress_release": "Jetstress", "report_type": "test type", "iops_per_mailbox": "IOPS per mailbox"}
    for column, label in labels.items():
        if first[column] is not None and second[column] is not None and first[column] != second[column]:
            notes.append(f"{label}: {first[column]} ({a}) vs {second[column]} ({b})")
    da, db = first["duration_h"], second["duration_h"]
    if da and db and abs(float(da) - float(db)) > 0.25 * max(float(da), float(db)):
        notes.append(f"duration: {float(da):.1f} h ({a}) vs {float(db):.1f} h ({b})")
    return notes


def compare(engine: Engine, a: str, b: str, metrics: tuple[str, ...] = DEFAULT_METRICS,
            *, disk_basis: str | None = None) -> ComparisonReport:
    """Both solutions' median runs, metric by metric; per-disk figures on both bases unless one is named."""
    for name in metrics:
        if name not in METRICS:
            raise UnknownMetric(unknown_message("metric", name, METRICS))
    if disk_basis is not None and disk_basis not in DISK_BASES:
        raise UnknownKey(unknown_message("disk basis", disk_basis, DISK_BASES))
    require_solutions(engine, a, b)
    if a == b:
        raise UnknownKey(f"compare needs two different solutions; {a!r} was given twice")
    rows = []
    with engine.connect() as conn:
        (run_a, runs_a), (run_b, runs_b) = _trial_runs(conn, a), _trial_runs(conn, b)
        for name in metrics:
            metric = METRICS[name]
            for basis in ((disk_basis,) if disk_basis else DISK_BASES) if metric.per_disk else (None,):
                va, all_a = _values(conn, metric, a, run_a, runs_a, basis)
                vb, all_b = _values(conn, metric, b, run_b, runs_b, basis)
                diff = percent_more(va, vb) if va is not None and vb not in (None, 0) else None
                spread = _spread(all_a, all_b) if diff is not None else None
                words = metric.words + (f" ({basis} disks)" if basis else "")
                rows.append(Comparison(name, basis, va, vb, diff, spread[0] if spread else None,
                                       spread[1] if spread else None, sentence(a, b, words, va, vb, spread)))
        unlike = _unlike(conn, a, run_a, b, run_b)
    return ComparisonReport(a, b, rows, unlike)
