"""The same figure from a trial's other runs, found by value: an index a trial and rule, not a pass a claim.

A figure may be another run's of the same trial ("the median run's" figure from Run 3): every claim of a
run offers the judge the trial's other runs' figures as alternatives (context.other_run_candidates). A
trial of 10^6 runs (a document's table of "Achieved IOPS - Run k" rows) made that a pass over the trial
for each of its claims (issue 49). The judge weighs an alternative only when it reproduces the printed
digits (judge._search), so only the figures within reach of the printed value can matter: the trial's
figures are computed once for a rule (`key`) and sorted by value, and a claim takes those within reach
(and, for a bound the words print, 'over' or 'under', the nearest on its open side), in the trial's order.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Callable, Hashable

from ..gather import RunInfo
from ..terms import Candidate, Printed
from .runs import Unverifiable


@dataclass
class Figures:
    """A trial's figures for one rule, by value: (value, rank, place in the trial's order, run, primary)."""

    entries: list[tuple[float, float, int, RunInfo, Candidate]]
    values: list[float]
    slack: float  # the largest uncertainty of any of them
    ranks: set[float]


def trial_figures(cache: dict, members: list[RunInfo], key: Hashable,
                  compute: Callable[[RunInfo], list[Candidate]]) -> Figures:
    """The figures of `members` (a trial, in its order) by `compute`'s primary, made once for `key`."""
    if key not in cache:
        entries = []
        for place, run in enumerate(members):
            try:
                primary = compute(run)[0]
            except Unverifiable:
                continue
            entries.append((primary.value, primary.rank, place, run, primary))
        entries.sort(key=lambda e: (e[0], e[2]))
        cache[key] = Figures(entries, [e[0] for e in entries], max((e[4].uncertainty for e in entries), default=0.0),
                             {e[1] for e in entries})
    return cache[key]


def reach(printed: Printed, qualifier: str | None, slack: float) -> float:
    """How far from the printed value a figure that reproduces its digits can be (judge.py's widest reading:
    a coarser rounding, a truncation, 'approximately', 'nearly'), with room to spare."""
    p = printed.value
    widest = 10.0 ** -(printed.decimals - printed.trailing_zeros) + 4 * printed.half_unit
    if qualifier == "nearly":
        widest += 0.05 * abs(p)
    return widest + slack + 1e-6 * max(1.0, abs(p))


def within_reach(figures: Figures, printed: Printed, qualifier: str | None,
                 leave_out: int) -> list[tuple[RunInfo, Candidate]]:
    """The figures that may reproduce the printed digits (all but run `leave_out`), in the trial's order."""
    width = reach(printed, qualifier, figures.slack)
    low, high = bisect_left(figures.values, printed.value - width), bisect_right(figures.values, printed.value + width)
    chosen = figures.entries[low:high]
    if qualifier == "over":  # every figure above is 'over': the nearest of each rank is the best of them
        chosen += _nearest(figures, range(high, len(figures.entries)), leave_out)
    elif qualifier == "under":
        chosen += _nearest(figures, range(low - 1, -1, -1), leave_out)
    return [(run, primary) for _, _, _, run, primary in sorted(chosen, key=lambda e: e[2]) if run.id != leave_out]


def _nearest(figures: Figures, outward: range, leave_out: int) -> list[tuple[float, float, int, RunInfo, Candidate]]:
    """Past the reach on a bound's open side: for each rank, the figures at its nearest value."""
    nearest: dict[float, float] = {}
    found = []
    for index in outward:  # values grow farther from the printed one, entry by entry
        entry = figures.entries[index]
        if len(nearest) == len(figures.ranks) and entry[0] not in nearest.values():
            break  # every rank has its nearest value, ties taken whole; the rest are farther
        if entry[3].id != leave_out and nearest.setdefault(entry[1], entry[0]) == entry[0]:
            found.append(entry)
    return found
