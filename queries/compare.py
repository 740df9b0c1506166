"""Side-by-side comparison of two solutions, with the sentence analysts write and its spread.

Each solution is represented by its representative run, the median run of its largest trial
(the whitepapers report every figure from that run; compare_figures.py reads them); percentages
are computed from unrounded values: (a / b - 1) x 100. A trial of repeated runs also gives the
range the percentage takes across the runs: from A's weakest run against B's strongest to the
reverse, so "86% more (80–92% across the runs)" says how firm the 86 is. The comparison itself
(compare_figures) is pure: the site feeds it the figures it read once for every solution, and
the command line those of two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from ..schema.keys import UnknownKey, require_solutions, unknown_message
from ..schema.vocabulary import DISK_BASES
from .compare_figures import METRICS, SolutionFigures, figure_keys, read_figures

DEFAULT_METRICS = ("total_iops", "achieved_iops", "achieved_iops_per_disk", "total_iops_per_disk",
                   "throughput_mb_per_s", "throughput_mb_per_s_per_disk", "iops_per_dollar", "mb_per_dollar",
                   "perf_per_watt", "active_power_w")
# What the notes compare, in their words; a duration differing by more than this share is noted too.
LIKENESS = {"jetstress_release": "Jetstress", "report_type": "test type", "iops_per_mailbox": "IOPS per mailbox",
            "mailbox_count": "mailboxes", "mailbox_size_mb": "mailbox size (MB)", "scenario": "condition"}
DURATION_SHARE = 0.25


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


def _spread(values_a: list[float], values_b: list[float]) -> tuple[float, float] | None:
    if len(values_a) + len(values_b) <= 2 or not values_a or not values_b or min(values_b) <= 0:
        return None
    return percent_more(min(values_a), max(values_b)), percent_more(max(values_a), min(values_b))


def metric_words(metric: str, basis: str | None) -> str:
    """compare's words for a figure: "achieved IOPS per disk (active disks)"."""
    return METRICS[metric].words + (f" ({basis} disks)" if basis else "")


def unlike_value(value: Any) -> str:
    """A likeness value as the notes print it."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def unlike_notes(a: str, test_a: dict[str, Any], b: str, test_b: dict[str, Any]) -> list[str]:
    """Why two representative runs are not like tests (nothing is said where either side is not known)."""
    notes = []
    for column, label in LIKENESS.items():
        first, second = test_a.get(column), test_b.get(column)
        if first is not None and second is not None and first != second:
            notes.append(f"{label}: {unlike_value(first)} ({a}) vs {unlike_value(second)} ({b})")
    da, db = test_a.get("duration_h"), test_b.get("duration_h")
    if da and db and abs(da - db) > DURATION_SHARE * max(da, db):
        notes.append(f"duration: {da:.1f} h ({a}) vs {db:.1f} h ({b})")
    return notes


def compare_figures(first: SolutionFigures, second: SolutionFigures, metrics: tuple[str, ...] = DEFAULT_METRICS,
                    *, disk_basis: str | None = None, names: tuple[str, str] | None = None) -> ComparisonReport:
    """Two solutions' figures, metric by metric, in compare's sentences (`names` written for the keys)."""
    a, b = names or (first.key, second.key)
    rows = []
    for name, basis in figure_keys(metrics, disk_basis):
        va, vb = first.value(name, basis), second.value(name, basis)
        diff = percent_more(va, vb) if va is not None and vb not in (None, 0) else None
        spread = (_spread(first.trial_values.get((name, basis), []), second.trial_values.get((name, basis), []))
                  if diff is not None else None)
        rows.append(Comparison(name, basis, va, vb, diff, spread[0] if spread else None,
                               spread[1] if spread else None,
                               sentence(a, b, metric_words(name, basis), va, vb, spread)))
    unlike = (unlike_notes(a, first.test, b, second.test)
              if first.run_id is not None and second.run_id is not None else [])
    return ComparisonReport(first.key, second.key, rows, unlike)


def compare(engine: Engine, a: str, b: str, metrics: tuple[str, ...] = DEFAULT_METRICS,
            *, disk_basis: str | None = None) -> ComparisonReport:
    """Both solutions' representative runs, metric by metric; per-disk figures on both bases unless one is named."""
    for name in metrics:
        if name not in METRICS:
            raise UnknownMetric(unknown_message("metric", name, METRICS))
    if disk_basis is not None and disk_basis not in DISK_BASES:
        raise UnknownKey(unknown_message("disk basis", disk_basis, DISK_BASES))
    require_solutions(engine, a, b)
    if a == b:
        raise UnknownKey(f"compare needs two different solutions; {a!r} was given twice")
    with engine.connect() as conn:
        figures = read_figures(conn, [a, b], metrics)
    return compare_figures(figures.get(a, SolutionFigures(a)), figures.get(b, SolutionFigures(b)), metrics,
                           disk_basis=disk_basis)
