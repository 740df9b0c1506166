"""Candidates for one claim: the rule its metric calls for, and the alternatives every rule shares.

A claim names a metric, a subject (a solution, one of its runs, or two sides compared) and the
value as printed. `claim_candidates` picks the run the figure must come from (`context`), asks
`runs` (run figures) or `solutions` (solution figures) for candidates, and adds the general
alternatives (the other runs of the trial, the other disk basis, the disk count that reproduces a
per-disk figure, printed figures used as inputs). Judging them is the next step (`judge`), so
nothing here imports it. Nothing names a solution, a document or a value.
"""

from __future__ import annotations

from dataclasses import replace

from ...schema.vocabulary import DISK_BASES, METRICS, PER_DISK_BASE, other_basis, split_metric
from ..gather import ClaimRow, RunInfo, SolutionInfo
from ..terms import MATCH, PRIMARY, SOURCE, Candidate, fmt, parse_printed, percent_change
from . import runs
from .context import (
    ClaimContext,
    from_printed,
    other_run_candidates,
    printed_disk_count,
    sibling_figures,
    subject_run,
)
from .runs import RUN_LEVEL, Unverifiable
from .solutions import solution_candidates
from .trial_figures import trial_figures


def claim_candidates(ctx: ClaimContext, claim: ClaimRow) -> list[Candidate]:
    """Primary computation first, then conventions, then other sources, for one metric."""
    metric = split_metric(claim.metric)[1]
    solution = ctx.solution(claim.solution_id)
    if metric in PER_DISK_BASE:
        return per_disk_candidates(ctx, claim, solution)
    if metric in RUN_LEVEL:
        run, is_headline = _test_of_its_own(ctx, claim, metric, *subject_run(ctx, claim))
        def compute(r: RunInfo, headline: bool = False) -> list[Candidate]:
            return runs.run_metric_candidates(r, metric, claim.unit, solution, headline)

        return compute(run, is_headline) + other_run_candidates(ctx, run, is_headline, compute, claim,
                                                                ("run", metric, claim.unit, solution.id))
    return solution_candidates(ctx, claim, solution, metric)


_OWN_TEST = {"backup_mb_per_s_per_database": "backup_mb_per_s", "backup_mb_per_s_per_server": "backup_mb_per_s",
             "log_replay_time_per_log": "recovery"}  # a figure only its own test's report holds


def _test_of_its_own(ctx: ClaimContext, claim: ClaimRow, metric: str, run: RunInfo,
                     is_headline: bool) -> tuple[RunInfo, bool]:
    """A backup rate or a log's replay time is its own test's figure (the backup or soft-recovery report),
    wherever the document prints it and whatever the report's number: when the run the claim was placed on
    holds none, the one report of the system that does (on the run's server, where there are several)."""
    held = _OWN_TEST.get(metric)
    if held is None or getattr(run, held):
        return run, is_headline
    holders = [r for r in ctx.data.runs.values() if r.solution_id == run.solution_id and getattr(r, held)]
    same_server = [r for r in holders if r.machine_name and r.machine_name == run.machine_name]
    chosen = same_server if len(same_server) == 1 else holders
    return (chosen[0], False) if len(chosen) == 1 else (run, is_headline)


def per_disk_candidates(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo) -> list[Candidate]:
    """A per-disk figure: the run's figure over the claim's disk basis; then the other basis, the
    trial's other runs, and any whole disk count that reproduces the printed value."""
    base = PER_DISK_BASE[split_metric(claim.metric)[1]]
    basis = claim.disk_basis or "all"
    other = other_basis(basis)
    counts = {b: solution.disk_count(b) for b in DISK_BASES}
    if not counts["all"]:
        raise Unverifiable(f"no disks recorded for {solution.key}")
    run, is_headline = subject_run(ctx, claim)
    trial = ctx.data.trial_runs(run, whole=True)
    totals = {r.id: primary for _, _, _, r, primary in  # the trial's figures, computed once a trial (issue 49)
              trial_figures(ctx.figures, trial, (run.trial_id, "total", base), lambda r: runs.rate_candidates(r, base)
                            ).entries} if run.trial_id is not None else {}
    if run.id not in totals:
        totals[run.id] = runs.rate_candidates(run, base)[0]  # Unverifiable: the claim's own run has no figure

    def per_disk(r: RunInfo, count: int, kind: str = PRIMARY, note: str = "") -> Candidate:
        total = totals[r.id]
        words = next((b for b in (basis, other) if count == counts[b]), "implied")
        return Candidate(total.value / count, f"{total.how} {fmt(total.value)} / {count} disks ({words})",
                         {**total.inputs, "disk_count": count, "disk_basis": basis}, kind, note)

    out = [per_disk(run, counts[basis])]
    if counts[other] != counts[basis]:
        def named(b: str) -> str:
            return f"all {counts[b]} disks" if b == "all" else f"the {counts[b]} {b} disks"

        note = f"divided by {named(other)} instead of {named(basis)}"
        out.append(per_disk(run, counts[other], SOURCE, note))  # another divisor: a mismatch that names it
    def on_basis(r: RunInfo) -> list[Candidate]:
        if r.id not in totals:
            raise Unverifiable(f"no {base} stored for {r.name}")
        return [per_disk(r, counts[basis])]

    out += other_run_candidates(ctx, run, is_headline, on_basis, claim, ("per disk", base, solution.id, basis, counts[basis]))
    printed = parse_printed(claim.value_printed)
    implied_from = [run] + ([r for r in trial if r.id in totals and r.id != run.id] if len(trial) <= IMPLIED_TRIAL
                            else [])
    for r in implied_from:
        implied = round(totals[r.id].value / printed.value) if printed.value else 0
        if implied <= 0 or implied in counts.values():
            continue
        which = "divided" if r is run else f"{r.name}'s figure divided"
        out.append(per_disk(r, implied, SOURCE,
                            f"{which} by {implied} disks, neither the {counts['all']} disks nor the {counts['active']} "
                            f"active disks the solution has{printed_disk_count(ctx, claim, implied)}"))
    return out


# A per-disk figure from another run of the trial divided by a disk count of its own: tried in a trial of
# at most this many runs (Jetstress trials are three to five). Every run of a longer trial gives such a
# figure near the printed one by construction, so no index by value finds fewer (issue 49).
IMPLIED_TRIAL = 16


def side_value(ctx: ClaimContext, metric: str, solution_id: int | None, run_id: int | None,
               disk_basis: str | None, unit: str | None) -> Candidate:
    """One side of a comparison: the primary value of `metric` for a solution or run."""
    meta = METRICS[metric]
    side_unit = unit or (meta.units[0] if meta.units else None)
    if side_unit and "{currency}" in side_unit:
        side_unit = side_unit.replace("{currency}", ctx.solution(solution_id).currency or "USD")
    pseudo = ClaimRow(-1, metric, "0", side_unit, "run" if run_id else "solution", solution_id, run_id,
                      None, None, None, disk_basis, None, None, None, None, None, None)
    return claim_candidates(ctx, pseudo)[0]


def comparison_candidates(ctx: ClaimContext, claim: ClaimRow, kind: str, base: str) -> list[Candidate]:
    """'X percent more/less': both sides from unrounded data, then from the printed side figures; the other
    side of a design the catalogue does not hold is the figure the document prints for it."""
    other_metric = claim.other_metric or base
    other_solution = claim.other_solution_id or claim.solution_id
    unit = "ms" if base in runs.LATENCY_METRICS else None
    a = side_value(ctx, base, claim.solution_id, claim.run_id, claim.disk_basis, unit)
    printed_b = parse_printed(claim.other_value_printed) if claim.other_value_printed is not None else None
    if claim.other_value_printed is not None and printed_b is None:
        raise Unverifiable(f"the other design's {other_metric} is printed as {claim.other_value_printed!r}")
    b = side_value(ctx, other_metric, other_solution, claim.other_run_id, claim.disk_basis, unit) \
        if printed_b is None else Candidate(printed_b.value, f"the document's printed figure for the other design, "
                                                             f"line {claim.line}", uncertainty=printed_b.half_unit)
    if not b.value:
        raise Unverifiable(f"the other side's {other_metric} is zero")
    a_name = f"{ctx.data.solution_key(claim.solution_id)} {base}"
    b_name = f"{ctx.data.solution_key(other_solution)} {other_metric}" if printed_b is None else \
        f"the other design's {other_metric} {printed_b.text}"
    formula = "(a / b - 1) x 100" if kind == "percent_more" else "(1 - a / b) x 100"
    b_shown = f"{fmt(b.value)} ({b.how})" if printed_b is None else f"({b.how})"
    # how far a printed b's precision (and a's own) can move the percentage: d(a/b) = da/b + a db/b^2
    slack = 0.0 if printed_b is None else 100 * (a.uncertainty / abs(b.value) + abs(a.value) * b.uncertainty / b.value ** 2)
    out = [Candidate(percent_change(kind, a.value, b.value),
                     f"{formula} with a = {a_name} {fmt(a.value)} ({a.how}), b = {b_name} {b_shown}",
                     {"a": a.value, "b": b.value, "a_inputs": a.inputs, "b_inputs": b.inputs}, uncertainty=slack)]
    a_run, b_run = ctx.data.runs.get(claim.run_id), ctx.data.runs.get(claim.other_run_id)
    b_figures = sibling_figures(ctx, claim, other_metric, other_solution, b_run) if printed_b is None else \
        [(replace(claim, value_printed=printed_b.text), printed_b.value, MATCH)]  # the other side is that figure
    pairs = [(x, y) for x in sibling_figures(ctx, claim, base, claim.solution_id, a_run) for y in b_figures]
    return out + from_printed(claim, pairs, lambda x, y: percent_change(kind, x, y), "the percentage")
