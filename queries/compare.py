"""Side-by-side comparison of two solutions, with the sentence analysts write.

Each solution is represented by its median run (the whitepapers report every figure from
that run); percentages are computed from unrounded values: (a / b - 1) x 100.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, text

# metric -> (SQL over the views giving one value per solution, words for the sentence, higher is better)
METRICS: dict[str, tuple[str, str, bool]] = {
    "achieved_iops_per_disk": (
        "SELECT achieved_iops_per_disk FROM per_disk_iops WHERE solution = :s AND disk_basis = :basis AND is_median_run",
        "achieved IOPS per disk", True),
    "log_iops_per_disk": (
        "SELECT log_iops_per_disk FROM per_disk_iops WHERE solution = :s AND disk_basis = :basis AND is_median_run",
        "log IOPS per disk", True),
    "total_iops_per_disk": (
        "SELECT total_iops_per_disk FROM per_disk_iops WHERE solution = :s AND disk_basis = :basis AND is_median_run",
        "total IOPS per disk", True),
    "total_iops": (
        "SELECT total_iops FROM median_runs WHERE solution = :s AND is_median_run", "total IOPS", True),
    "achieved_iops": (
        "SELECT achieved_iops FROM median_runs WHERE solution = :s AND is_median_run", "achieved IOPS", True),
    "throughput_mb_per_s": (
        "SELECT transfer_mb_per_s FROM throughput_per_disk WHERE solution = :s AND disk_basis = :basis "
        "AND is_median_run IS NOT FALSE ORDER BY is_median_run DESC NULLS LAST LIMIT 1",
        "MB/s", True),
    "throughput_mb_per_s_per_disk": (
        "SELECT transfer_mb_per_s_per_disk FROM throughput_per_disk WHERE solution = :s AND disk_basis = :basis "
        "AND is_median_run IS NOT FALSE ORDER BY is_median_run DESC NULLS LAST LIMIT 1",
        "MB/s per disk", True),
    "iops_per_dollar": (
        "SELECT total_iops_per_price_unit FROM iops_per_dollar WHERE solution = :s AND is_median_run",
        "total IOPS per dollar", True),
    "mb_per_dollar": (
        "SELECT usable_mb_per_price_unit FROM mb_per_dollar WHERE solution = :s", "usable MB per dollar", True),
    "perf_per_watt": (
        "SELECT total_iops_per_w FROM perf_per_watt WHERE solution = :s AND is_median_run",
        "total IOPS per watt", True),
    "active_power_w": (
        "SELECT active_power_w FROM perf_per_watt WHERE solution = :s AND is_median_run", "active power", False),
}
DEFAULT_METRICS = ("total_iops", "achieved_iops_per_disk", "total_iops_per_disk", "throughput_mb_per_s_per_disk",
                   "iops_per_dollar", "mb_per_dollar", "perf_per_watt", "active_power_w")


class UnknownMetric(ValueError):
    pass


@dataclass
class Comparison:
    metric: str
    value_a: float | None
    value_b: float | None
    percent_difference: float | None  # (a / b - 1) x 100, unrounded
    sentence: str


def percent_more(a: float, b: float) -> float:
    return (a / b - 1) * 100


def sentence(a_key: str, b_key: str, words: str, a: float | None, b: float | None) -> str:
    if a is None or b is None:
        missing = a_key if a is None else b_key
        return f"no {words} figure for {missing}"
    if b == 0:
        return f"{b_key} has zero {words}; no percentage"
    difference = percent_more(a, b)
    if abs(difference) < 0.05:
        return f"{a_key} and {b_key} delivered the same {words}"
    direction = "more" if difference > 0 else "less"
    return f"{a_key} delivered {abs(difference):.0f}% {direction} {words} than {b_key}"


def compare(engine: Engine, a: str, b: str, metrics: tuple[str, ...] = DEFAULT_METRICS,
            *, disk_basis: str = "all") -> list[Comparison]:
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise UnknownMetric(f"unknown metric {', '.join(unknown)}; known: {', '.join(METRICS)}")
    results = []
    with engine.connect() as conn:
        for name in metrics:
            sql, words, _ = METRICS[name]
            values = []
            for key in (a, b):
                row = conn.execute(text(sql), {"s": key, "basis": disk_basis}).first()
                values.append(None if row is None or row[0] is None else float(row[0]))
            va, vb = values
            diff = percent_more(va, vb) if va is not None and vb not in (None, 0) else None
            results.append(Comparison(name, va, vb, diff, sentence(a, b, words, va, vb)))
    return results
