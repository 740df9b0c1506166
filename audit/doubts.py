"""The reader's doubt before the vendor's error.

A mismatch accuses a vendor, so it stands only when nothing the catalogue holds explains the printed
figure better than a vendor's slip. When the figure equals, to its printed digits, what the catalogue
holds under another system, server, test, disk group or unit, the likelier story is that the reader
(ingest) placed it wrong: the finding is the reader's doubt, listed apart with both candidates, and
never counted among the mismatches. A figure printed for one group of disks ("Storage Disk
Configuration (Transactional Log Disks)") is judged with the other groups it adds up with. Only a
basis the document's words state ("per active disk") keeps a mismatch on that basis: that is the
vendor's own statement. Pure: audit data and a judgement in, a judgement out.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from ..schema.vocabulary import split_metric
from .candidates.context import ClaimContext, subject_run
from .candidates.runs import LATENCY_METRICS, RATE_METRICS, Unverifiable
from .gather import ClaimRow, RunInfo, SolutionInfo
from .terms import DOUBT, MATCH, MISMATCH, ROUNDING, Judgement, Printed, fmt, parse_printed, percent_change

# A table of one group of disks: the ESRP template's mailbox store and log disk tables, "Database LUNs".
_DISK_GROUP = re.compile(r"\b(?:log|logs|transaction(?:al)? logs?|database|databases|db|mailbox stores?|data)\b"
                         r"[^()]*\b(?:disks?|drives?|luns?|volumes?)\b", re.IGNORECASE)
DISK_GROUP_METRICS = frozenset({"disk_count", "raw_capacity", "usable_capacity"})  # a ratio holds for any group
_PER_DISK = ("achieved_iops_per_disk", "total_iops_per_disk")


# Ratios whose printed label states no formula ("Storage capacity utilization"): formatted over raw is one
# reading; a document may mean the share of formatted space Exchange uses. The reading stands in a document
# only where one of its own figures bears it out.
# "Database capacity utilization" is database size over raw capacity in ESRP's template, but a document may
# divide by its formatted capacity (its own "1186/1916 = 62%" elsewhere): the template's reading, too, stands
# only where a figure of the document bears it out or the label names raw capacity.
UNSTATED_FORMULA = frozenset({"formatted_percent_of_raw", "database_percent_of_raw"})
_READINGS = {"formatted_percent_of_raw": ("formatted capacity over raw capacity", "the formatted space Exchange uses"),
             "database_percent_of_raw": ("database size over raw capacity", "a share of the formatted capacity")}


def definitions_confirmed(claims: Iterable[ClaimRow], judged: dict[int, Judgement]) -> set[tuple[int | None, str]]:
    """(file, metric) of each ratio of UNSTATED_FORMULA that at least one figure of the file matches."""
    return {(c.source_file_id, c.metric) for c in claims
            if c.metric in UNSTATED_FORMULA and c.id in judged and judged[c.id].verdict in (MATCH, ROUNDING)}


_FORMULA_STATED = {  # "formatted capacity/total raw capacity", "Database size/total raw capacity"
    "formatted_percent_of_raw": re.compile(r"formatted[^/]{0,40}/[^/]{0,40}\braw\b", re.IGNORECASE),
    "database_percent_of_raw": re.compile(r"\braw\b", re.IGNORECASE)}


def reconsidered(ctx: ClaimContext, claim: ClaimRow, judgement: Judgement,
                 confirmed: set[tuple[int | None, str]] | None = None) -> Judgement:
    """The judgement, or the reader's doubt (or a match over disk groups) where a mismatch has a likelier story."""
    if judgement.verdict != MISMATCH:
        return judgement
    if claim.metric in UNSTATED_FORMULA and confirmed is not None and (claim.source_file_id, claim.metric) not in confirmed \
            and not _FORMULA_STATED[claim.metric].search(claim.quote or ""):
        reading, other = _READINGS[claim.metric]
        return _doubt(judgement, f"no {claim.metric.replace('_', ' ')} figure of this document is {reading}, the "
                                 "reading that makes this one a mismatch: its label states no formula, and the "
                                 f"document may mean another share ({other}).", {"unconfirmed_reading": claim.metric})
    printed = parse_printed(claim.value_printed)
    if printed is None:
        return judgement
    kind = split_metric(claim.metric)[0]
    if kind is not None:
        return _sides_swapped(kind, judgement, printed) or judgement
    return (_disk_groups(ctx, claim, judgement, printed) or _held_elsewhere(ctx, claim, judgement, printed)
            or _other_unit(claim, judgement, printed) or judgement)


def _doubt(judgement: Judgement, why: str, inputs: dict) -> Judgement:
    return Judgement(DOUBT, judgement.recomputed, judgement.relative_difference,
                     f"Reader's doubt, not the vendor's error: {why} The reading that makes it a mismatch: "
                     f"{judgement.explanation}", {**judgement.inputs, "doubt": inputs})


def _equals(printed: Printed, value: float | None) -> bool:
    return value is not None and abs(value - printed.value) <= printed.half_unit * 1.0001 + 1e-12


_LOG_WORD = re.compile(r"\blogs?\b", re.IGNORECASE)
_DATA_WORD = re.compile(r"\b(?:database|databases|db|mailbox stores?|data)\b", re.IGNORECASE)


def is_disk_group(location: str | None) -> bool:
    """A table of one group of disks; "Mailbox Store and Transactional Log Disks" is every group: the system."""
    if not location or not _DISK_GROUP.search(location):
        return False
    return not (_LOG_WORD.search(location) and _DATA_WORD.search(location))


def table_title(ctx: ClaimContext, claim: ClaimRow) -> str | None:
    """The title of the table that prints the claim (its cell on the claim's line), else its location."""
    table = ctx.data.table_printing(claim.source_file_id, claim.line)
    return table.title if table is not None else claim.location


def _disk_groups(ctx: ClaimContext, claim: ClaimRow, judgement: Judgement, printed: Printed) -> Judgement | None:
    """A figure of one group of disks: the groups' figures added up against the system's, else a doubt."""
    where = table_title(ctx, claim)
    if not is_disk_group(where) or judgement.recomputed is None:
        return None
    if len(_group_tables(ctx, claim.source_file_id, claim.solution_id)) < 2:
        return None  # the one disk table the document prints is the system's, whatever its title says
    if claim.metric == "formatted_percent_of_raw":  # the group's ratio is the system's when its sizes are
        sizes = [ctx.judged.get(c.id) for metric in ("usable_capacity", "raw_capacity")
                 for c in _claims_of_metric(ctx, claim.source_file_id, metric) if table_title(ctx, c) == where]
        if sizes and all(j is not None and j.verdict == MATCH for j in sizes):
            return None
        return _doubt(judgement, f"{claim.value_printed} is printed for one group of disks ({where}), whose capacities "
                                 "the catalogue does not hold apart from the system's.", {})
    if claim.metric not in DISK_GROUP_METRICS:
        return None
    groups, total, slack, inputs = _groups(ctx, claim)
    if total is not None:
        listing = " + ".join(c.value_printed for c in groups[:GROUPS_LISTED]) + (
            f" + … ({len(groups)} figures)" if len(groups) > GROUPS_LISTED else "")
        for basis, whole in _system_figures(ctx, claim, judgement.recomputed):
            if abs(total - whole) <= slack:
                return Judgement(MATCH, whole, 0.0,
                                 f"{claim.value_printed} is one group of the system's disks ({where}); the groups add "
                                 f"up to the system's figure on its {basis}: {listing} = {fmt(total)}.", inputs)
        return _doubt(judgement, f"{claim.value_printed} is printed for one group of disks ({where}); the groups add up "
                                 f"to {listing} = {fmt(total)}, which is not the catalogue's figure for the system on any "
                                 "disk basis: the reader's disk counts or sizes, or the groups it found, may be wrong.",
                      inputs)
    return _doubt(judgement, f"{claim.value_printed} is printed for one group of disks ({where}), and the "
                             "catalogue holds the system's disks as a whole.", inputs)


GROUPS_LISTED = 12  # a finding lists this many groups' figures at most: a table of 10^6 is not 10^6 groups


def _group_tables(ctx: ClaimContext, file_id: int | None, solution_id: int | None) -> set[str | None]:
    """The titles of the disk group tables a file prints a solution's claims in (made once a file and side)."""
    def build() -> dict:
        index: dict = {}
        for c in ctx.data.claims:
            if is_disk_group(title := table_title(ctx, c)):
                index.setdefault((c.source_file_id, c.solution_id), set()).add(title)
        return index
    return ctx.data._index("_disk_group_tables", build).get((file_id, solution_id), set())


def _claims_of_metric(ctx: ClaimContext, file_id: int | None, metric: str) -> list[ClaimRow]:
    def build() -> dict:
        index: dict = {}
        for c in ctx.data.claims:
            index.setdefault((c.source_file_id, c.metric), []).append(c)
        return index
    return ctx.data._index("_claims_by_file_metric", build).get((file_id, metric), [])


def _groups(ctx: ClaimContext, claim: ClaimRow) -> tuple[list[ClaimRow], float | None, float, dict]:
    """The claims of the metric and side printed in disk group tables, their sum (None unless two or more,
    all numbers) and its slack, and the inputs a finding shows: once a file, metric and side (issue 49)."""
    key = (claim.source_file_id, claim.metric, claim.solution_id)
    cache = ctx.data._index("_disk_group_sums", dict)
    if key not in cache:
        groups = [c for c in ctx.data.claims_of(*key) if is_disk_group(table_title(ctx, c))]
        values = [parse_printed(c.value_printed) for c in groups]
        inputs = {table_title(ctx, c) or str(c.line): c.value_printed for c in groups}
        total, slack = None, 0.0
        if len(groups) > 1 and all(values):
            total = sum(v.value for v in values if v)
            slack = sum(v.half_unit for v in values if v) * 1.0001 + 1e-9 * abs(total)
        cache[key] = (groups, total, slack, inputs)
    return cache[key]


def _disk_counts(solution: SolutionInfo) -> tuple[int, int]:
    """(all its disks, its active disks): spares are the disks of role hot_spare."""
    return sum(d.count for d in solution.disks), sum(d.count for d in solution.disks if d.role != "hot_spare")


def _system_figures(ctx: ClaimContext, claim: ClaimRow, recomputed: float) -> list[tuple[str, float]]:
    """The system's figure over all its disks (the judged one) and over its active disks (spares left out)."""
    figures = [("disks, spares included", recomputed)]
    solution = ctx.data.solutions.get(claim.solution_id) if claim.solution_id else None
    if solution is not None and claim.metric in ("disk_count", "raw_capacity"):
        every, active = _disk_counts(solution)
        if every and active and active != every:
            figures.append(("active disks", recomputed * active / every))
    return figures


def _run_name(ctx: ClaimContext, run: RunInfo) -> str:
    who = ctx.data.solution_key(run.solution_id) or "no solution"
    what = " ".join(part for part in (run.machine_name, run.label, run.report_type) if part)
    return f"{who}: {what or f'run {run.id}'}"


def _run_values(run: RunInfo, metric: str, unit: str | None) -> Iterable[tuple[float, str]]:
    """The run's figure for a claim's metric, in the claim's unit, with how it is had (per disk: each count)."""
    if metric in RATE_METRICS:
        value = run.figures.get(RATE_METRICS[metric][0])
        if value is not None:
            yield value, ""
    elif metric in LATENCY_METRICS:
        value = run.figures.get(LATENCY_METRICS[metric][0])
        if value is not None:
            yield (value / 1000.0 if unit == "s" else value), ""


def _held_elsewhere(ctx: ClaimContext, claim: ClaimRow, judgement: Judgement, printed: Printed) -> Judgement | None:
    """The printed figure is another run's: another system's, server's or test's."""
    try:
        own, _ = subject_run(ctx, claim)
    except Unverifiable:
        own = None
    per_disk = claim.metric in _PER_DISK
    metric = claim.metric.removesuffix("_per_disk") if per_disk else claim.metric
    if per_disk and claim.disk_basis:  # the words state the basis: a figure on another is the vendor's
        return None
    found = [f"{_run_name(ctx, run)} ({hit})" for run, hit in _held_by(ctx, claim, metric, per_disk, printed)
             if own is None or not (run.id == own.id or (own.trial_id is not None and run.trial_id == own.trial_id))]
    if not found:
        return None
    shown = "; ".join(found[:3]) + ("; …" if len(found) > 3 else "")
    return _doubt(judgement, f"the printed {claim.value_printed} is what the catalogue holds for another run: {shown}. "
                             "The document reader may have placed this figure under the wrong system, server or "
                             f"test ({claim.location or 'text'}).", {"elsewhere": found})


def _sides_swapped(kind: str, judgement: Judgement, printed: Printed) -> Judgement | None:
    """A comparison whose printed percentage holds with its two sides the other way round: the reader took
    the system the sentence compares against for the one it speaks of."""
    a, b = judgement.inputs.get("a"), judgement.inputs.get("b")
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or not a:
        return None
    swapped = percent_change(kind, b, a)
    if not _equals(printed, swapped):
        return None
    return _doubt(judgement, f"the printed {printed.text}% is "
                             f"{fmt(swapped)}% with the two sides the other way round: the reader may have taken the "
                             "system compared against for the one the sentence speaks of.", {"swapped": swapped})


def _held_by(ctx: ClaimContext, claim: ClaimRow, metric: str, per_disk: bool,
             printed: Printed) -> list[tuple[RunInfo, str]]:
    """(run, how) for each run whose figure (per disk: over a disk count of its system or the claim's) is the
    printed one, in the runs' order: found by value in an index of the runs' figures made once a metric and
    unit, not a pass over every run a claim (issue 49)."""
    def build() -> tuple[list[float], list[tuple[float, int, RunInfo]]]:
        entries = sorted(((value, order, run) for order, run in enumerate(ctx.data.runs.values())
                          for value, _ in _run_values(run, metric, claim.unit)), key=lambda e: (e[0], e[1]))
        return [e[0] for e in entries], entries
    values, entries = ctx.data._index(f"_run_values {metric} {claim.unit}", build)

    def near(target: float, scale: float = 1.0) -> list[tuple[float, int, RunInfo]]:
        width = (printed.half_unit * 1.0001 + 1e-12) * scale * 1.001 + 1e-9 * max(1.0, abs(target))
        return entries[bisect_left(values, target - width):bisect_right(values, target + width)]

    if not per_disk:
        return [(run, fmt(value)) for value, _, run in sorted(near(printed.value), key=lambda e: e[1])
                if _equals(printed, value)]
    solutions = ctx.data.solutions
    claim_counts = _disk_counts(solutions[claim.solution_id]) if claim.solution_id in solutions else ()
    candidates = {(order, id(run)): (value, run) for n in [*claim_counts, *_all_counts(ctx)] if n
                  for value, order, run in near(printed.value * n, n)}  # the value over each count near the printed
    hits = []
    for (order, _), (value, run) in sorted(candidates.items()):
        counts = sorted({n for sid in {run.solution_id, claim.solution_id} if sid in solutions
                         for n in _disk_counts(solutions[sid])})
        hits += [(run, f"{fmt(value)} / {n} disks") for n in counts if n and _equals(printed, value / n)]
    return hits


def _all_counts(ctx: ClaimContext) -> list[int]:
    """Every disk count any solution has (all, active): the divisors a run's own system may give its figure."""
    return ctx.data._index("_all_disk_counts", lambda: sorted({n for s in ctx.data.solutions.values()
                                                               for n in _disk_counts(s)}))


def _other_unit(claim: ClaimRow, judgement: Judgement, printed: Printed) -> Judgement | None:
    """A latency a thousand times its recomputed value or a thousandth of it: printed in the other unit."""
    if claim.metric not in LATENCY_METRICS or not judgement.recomputed:
        return None
    for factor, unit in ((1000.0, "milliseconds"), (0.001, "seconds")):
        if _equals(printed, judgement.recomputed * factor):
            return _doubt(judgement, f"the printed {claim.value_printed} is the recomputed {fmt(judgement.recomputed)} "
                                     f"in {unit}: the reader took the printed unit for another.", {"factor": factor})
    return None
