"""What every claim rule shares: the run a figure must come from, and the figures printed beside it.

A figure comes from the run its claim names, or from the solution's median run (the whitepapers
report every figure from it). The alternatives the judge weighs come from here too: the same
figure from the trial's other runs, and the same document's other printed figures used as inputs
(sound only if those figures are themselves borne out by the data).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Hashable

from ..gather import AuditData, ClaimRow, RunInfo, SolutionInfo
from ..terms import CONVENTION, MATCH, ROUNDING, SOURCE, UNVERIFIABLE, Candidate, Judgement, parse_printed
from . import runs
from .runs import Unverifiable
from .trial_figures import trial_figures, within_reach


@dataclass
class ClaimContext:
    data: AuditData
    judged: dict[int, Judgement] = field(default_factory=dict)  # claim id -> verdict, as they are judged
    figures: dict = field(default_factory=dict)  # (trial, rule) -> the trial's figures by value (trial_figures.py)

    def solution(self, solution_id: int | None) -> SolutionInfo:
        if solution_id not in self.data.solutions:
            raise Unverifiable("the claim names no solution in the catalogue")
        return self.data.solutions[solution_id]


def subject_run(ctx: ClaimContext, claim: ClaimRow) -> tuple[RunInfo, bool]:
    """The run a figure must come from, and whether it is the solution's headline (median) run."""
    solution = ctx.solution(claim.solution_id)
    median = ctx.data.headline_run(solution.id)
    if claim.run_id is not None:
        run = ctx.data.runs[claim.run_id]
        return run, median is not None and run.id == median.id
    return runs.headline(ctx.data, solution), True


def other_run_candidates(ctx: ClaimContext, run: RunInfo, is_headline: bool,
                         compute: Callable[[RunInfo], list[Candidate]], claim: ClaimRow | None = None,
                         key: Hashable = None) -> list[Candidate]:
    """The same figure from the other runs of the trial: a 'median run' figure from another run. With the
    claim and a `key` naming the rule `compute` is (its metric, unit, side), only the runs whose figure may
    reproduce the claim's printed digits, found by value (trial_figures.py): the judge weighs no other."""
    printed = parse_printed(claim.value_printed) if claim is not None else None
    if printed is not None and key is not None and run.trial_id is not None:
        figures = trial_figures(ctx.figures, ctx.data.trial_runs(run, whole=True), (run.trial_id, key), compute)
        return [replace(primary, kind=SOURCE, note=other_run_note(other, run, is_headline))
                for other, primary in within_reach(figures, printed, claim.qualifier, run.id)]  # type: ignore[union-attr]
    out = []
    for other in ctx.data.trial_runs(run)[1:]:
        try:
            primary = compute(other)[0]
        except Unverifiable:
            continue
        out.append(replace(primary, kind=SOURCE, note=other_run_note(other, run, is_headline)))
    return out


def other_run_note(other: RunInfo, run: RunInfo, is_headline: bool) -> str:
    return f"{other.name}'s figure (same trial), not {'the median ' if is_headline else ''}{run.name}'s"


def sibling_figures(ctx: ClaimContext, claim: ClaimRow, metric: str, solution_id: int | None,
                    run: RunInfo | None = None) -> list[tuple[ClaimRow, float, str]]:
    """Figures of `metric` the same document prints for the same side: (claim, value, its verdict)."""
    headline = ctx.data.headline_run(solution_id) if solution_id in ctx.data.solutions else None
    wanted = run.id if run is not None else (headline.id if headline else None)
    out = []
    for other in ctx.data.claims_of(claim.source_file_id, metric, solution_id):
        if other.id == claim.id:
            continue
        if claim.disk_basis and other.disk_basis and other.disk_basis != claim.disk_basis:
            continue
        other_run = other.run_id if other.subject == "run" else (headline.id if headline else None)
        printed = parse_printed(other.value_printed)
        if printed is None or other_run != wanted:
            continue
        verdict = ctx.judged[other.id].verdict if other.id in ctx.judged else UNVERIFIABLE
        out.append((other, printed.value, verdict))
    return out


def from_printed(claim: ClaimRow, pairs, formula: Callable[[float, float], float], words: str) -> list[Candidate]:
    """Candidates computed from figures the document prints; sound only if those figures are.

    Figures printed nearest the claim rank first: a sentence's own numbers explain it best.
    """
    out = []
    for (a_claim, a, a_verdict), (b_claim, b, b_verdict) in pairs:
        if not b:
            continue
        sound = a_verdict in (MATCH, ROUNDING) and b_verdict in (MATCH, ROUNDING)
        note = (f"computed from the printed {a_claim.value_printed} (line {a_claim.line}) and "
                f"{b_claim.value_printed} (line {b_claim.line})")
        note += "" if sound else ", which the data does not bear out"
        distance = sum(abs((c.line or 0) - (claim.line or 0)) for c in (a_claim, b_claim))
        out.append(Candidate(formula(a, b), f"{words} from {a_claim.value_printed} and {b_claim.value_printed}",
                             {"printed_inputs": [a_claim.value_printed, b_claim.value_printed]},
                             CONVENTION if sound else SOURCE, note, rank=1 + distance))
    return out


def printed_disk_count(ctx: ClaimContext, claim: ClaimRow, count: int) -> str:
    """Where the same document prints this disk count for the solution, if it does."""
    lines = sorted({c.line for c in ctx.data.claims_of(claim.source_file_id, "disk_count", claim.solution_id)
                    if c.line and (p := parse_printed(c.value_printed)) is not None and p.value == count})
    return f" (the document prints {count} disks at line {', '.join(map(str, lines))})" if lines else ""
