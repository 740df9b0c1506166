"""The figures `esrpdb compare` puts side by side, read for two solutions or for a whole catalogue.

A solution stands for its representative run (the view representative_runs: the site and the
mailbox classes take the same run). Each metric gives that run's figure, per disk basis where the
metric has one, and the figures of every run of its trial (for the range across the runs); a
metric kept per solution (price per usable MB, ESRP's backup and replay tests) gives one figure.
Reading is one statement per view whatever the number of solutions, so the site reads every
solution the way `compare` reads two.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, text

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

FigureKey = tuple[str, "str | None"]  # (metric, disk basis; None for a metric without one)

# What makes two Jetstress runs comparable: the same release, test type, mailboxes, mailbox size, load
# per mailbox and condition (a drive failure, a rebuild), and a similar length. The design (mailboxes,
# their size, IOPS per mailbox) is the solution's test design as stored (view test_designs): the figure
# its document states first, else its runs' JetstressConfig.xml; the run's own configuration last.
_TESTS_SQL = """
SELECT r.id AS run_id, r.jetstress_release, r.report_type, r.scenario, d.mailbox_count, d.mailbox_size_mb,
       COALESCE(d.iops_per_mailbox,
                (SELECT c.iops_per_mailbox FROM test_configs c WHERE c.run_id = r.id ORDER BY c.source_file_id LIMIT 1))
           AS iops_per_mailbox,
       EXTRACT(EPOCH FROM (r.test_end - r.test_start)) / 3600.0 AS duration_h
FROM runs r LEFT JOIN test_designs d ON d.solution_id = r.solution_id
WHERE r.id = ANY(:runs)
"""
NUMBERS = ("iops_per_mailbox", "duration_h", "mailbox_size_mb")  # read as floats (mailbox_count stays whole)


@dataclass
class SolutionFigures:
    """One solution as compare sees it."""

    key: str
    run_id: int | None = None  # its representative run
    values: dict[FigureKey, float] = field(default_factory=dict)  # that run's figures (the solution's, per solution)
    trial_values: dict[FigureKey, list[float]] = field(default_factory=dict)  # every run of its trial with the figure
    test: dict[str, Any] = field(default_factory=dict)  # release, test type, design, scenario, duration_h

    def value(self, metric: str, basis: str | None = None) -> float | None:
        return self.values.get((metric, basis))


def figure_keys(metrics: Iterable[str], disk_basis: str | None = None) -> list[FigureKey]:
    """(metric, basis) in the order compare prints them: a per-disk metric on each basis (or the one named)."""
    return [(name, basis) for name in metrics
            for basis in (((disk_basis,) if disk_basis else DISK_BASES) if METRICS[name].per_disk else (None,))]


def _filter(keys: Sequence[str] | None, column: str = "solution") -> str:
    return f"{column} IS NOT NULL" if keys is None else f"{column} = ANY(:keys)"


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def read_figures(conn: Connection, keys: Sequence[str] | None = None,
                 metrics: Iterable[str] = tuple(METRICS)) -> dict[str, SolutionFigures]:
    """Figures of the named solutions (every solution when `keys` is None) that have a representative
    run or a per-solution figure; a solution with neither is left out."""
    params = {"keys": list(keys) if keys is not None else None}
    out: dict[str, SolutionFigures] = {}
    chosen = conn.execute(text(f"SELECT solution, run_id, trial FROM representative_runs WHERE {_filter(keys)}"),
                          params).all()
    trial_of = {key: (run_id, trial) for key, run_id, trial in chosen}
    runs_of: dict[str, set[int]] = {key: {run_id} for key, run_id, _ in chosen}
    for key, trial, run_id in conn.execute(text(
            f"SELECT solution, trial, run_id FROM median_runs WHERE trial IS NOT NULL AND {_filter(keys)}"), params):
        if key in trial_of and trial_of[key][1] == trial:
            runs_of[key].add(run_id)
    for key, (run_id, _) in trial_of.items():
        out[key] = SolutionFigures(key, run_id)
    by_view: dict[str, list[str]] = defaultdict(list)
    for name in metrics:
        by_view[METRICS[name].view].append(name)
    for view, names in by_view.items():
        _read_view(conn, view, names, keys, params, out, trial_of, runs_of)
    for figures in out.values():
        figures.values = {k: v for k, v in figures.values.items() if v is not None}
    chosen_runs = [f.run_id for f in out.values() if f.run_id is not None]
    key_of_run = {f.run_id: key for key, f in out.items() if f.run_id is not None}
    for row in conn.execute(text(_TESTS_SQL), {"runs": chosen_runs}).mappings():
        out[key_of_run[row["run_id"]]].test = {c: (_number(v) if c in NUMBERS else v)
                                               for c, v in row.items() if c != "run_id"}
    return out


def _read_view(conn: Connection, view: str, names: list[str], keys: Sequence[str] | None, params: dict,
               out: dict[str, SolutionFigures], trial_of: dict, runs_of: dict[str, set[int]]) -> None:
    """One view's metrics for every solution asked for: the representative run's row per disk basis,
    and the trial's runs; or, for a view kept per solution, its first row."""
    columns = ", ".join(METRICS[n].column for n in names)
    if not METRICS[names[0]].per_run:
        seen: set[str] = set()
        for row in conn.execute(text(f"SELECT solution, {columns} FROM {view} WHERE {_filter(keys)}"), params):
            key = row[0]
            if key in seen:
                continue
            seen.add(key)
            figures = out.setdefault(key, SolutionFigures(key))
            for name, value in zip(names, row[1:]):
                figures.values[(name, None)] = _number(value)
        return
    with_basis = any(METRICS[n].per_disk for n in names)
    basis_column = "disk_basis" if with_basis else "NULL"
    statement = f"SELECT solution, run_id, {basis_column}, {columns} FROM {view} WHERE {_filter(keys)}"
    by_run: dict[str, dict[FigureKey, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    for row in conn.execute(text(statement), params):
        key, run_id, basis = row[0], row[1], row[2]
        if key not in trial_of or run_id not in runs_of[key]:
            continue
        for name, value in zip(names, row[3:]):
            if value is not None:  # a figure without a basis is the same on each basis's row
                by_run[key][(name, basis if METRICS[name].per_disk else None)][run_id] = float(value)
    for key, figures_by_run in by_run.items():
        figures = out[key]
        for figure, values in figures_by_run.items():
            if figures.run_id in values:
                figures.values[figure] = values[figures.run_id]
            figures.trial_values[figure] = list(values.values())
