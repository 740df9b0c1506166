"""A figure printed under one metric's label whose value is another metric of the same run.

"DB Reads/sec = 579.22" where the host's report gives 408.9 reads/s and 579.218 achieved IOPS: the
figure is right, its label is wrong. Found by value alone: every rate and latency of the run the
label speaks of is tried, and the one the printed digits reproduce is named. Used by the checks
that judge a figure against a run (document tables, claims), never on its own.
"""

from __future__ import annotations

from ..candidates import runs
from ..candidates.runs import LATENCY_METRICS, RATE_METRICS, Unverifiable
from ..gather import RunInfo, SolutionInfo
from ..judge import judge
from ..terms import MATCH, Candidate, fmt

# The figures a Jetstress report prints for a run, one of which a mislabelled cell may hold.
PRINTED_METRICS = ("achieved_iops", "total_iops", "db_reads_per_s", "db_writes_per_s", "log_iops",
                   *LATENCY_METRICS)


def printed_as(run: RunInfo, printed: str, metric: str, unit: str | None,
               solution: SolutionInfo | None) -> tuple[str, Candidate] | None:
    """(the other metric, its value) when the printed digits are that metric of `run` and only that one."""
    found = []
    for other in PRINTED_METRICS:
        if other == metric or (metric in LATENCY_METRICS) != (other in LATENCY_METRICS):
            continue  # a rate is mistaken for a rate, a latency for a latency
        try:
            primary = runs.run_metric_candidates(run, other, unit if other in LATENCY_METRICS else None, solution,
                                                 False)[0]
        except (Unverifiable, KeyError, IndexError):
            continue
        if judge(printed, [primary]).verdict == MATCH:
            found.append((other, primary))
    return found[0] if len(found) == 1 else None


def words(metric: str) -> str:
    """How a person names the metric: "achieved IOPS", "database read latency"."""
    if metric in RATE_METRICS:
        return RATE_METRICS[metric][2]
    return LATENCY_METRICS[metric][1] if metric in LATENCY_METRICS else metric.replace("_", " ")


def mislabel_note(run: RunInfo, printed: str, metric: str, unit: str | None,
                  solution: SolutionInfo | None, whose: str = "the run's") -> str | None:
    """The words a finding adds when its figure is another metric of its run, else None."""
    other = printed_as(run, printed, metric, unit, solution)
    if other is None:
        return None
    return f"{printed} is {whose} {words(other[0])} ({fmt(other[1].value)}): a figure printed under another metric's label"
