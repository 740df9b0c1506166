"""Claim findings: each manifest claim judged against its candidates, then cited where it is printed.

Claims are judged in an order, figures first and then what may be computed from them (percentages
of capacities, comparisons), so a rule that uses a sibling printed figure knows whether the data
bears that figure out (`ClaimContext.judged`).
"""

from __future__ import annotations

from ...schema.vocabulary import split_metric
from .. import doubts
from ..candidates.claims import claim_candidates, comparison_candidates
from ..candidates.context import ClaimContext, subject_run
from ..candidates.runs import Unverifiable
from ..candidates.solutions import DERIVED
from ..gather import AuditData, ClaimRow
from ..judge import judge
from ..terms import MATCH, MISMATCH, UNVERIFIABLE, Judgement, fmt, parse_printed
from . import prose_verdicts
from .finding import Finding, evidence
from .mislabel import PRINTED_METRICS, mislabel_note


def judge_claims(data: AuditData) -> dict[int, Judgement]:
    """Every claim's judgement by claim id; figures first, then what may be computed from them."""
    ctx = ClaimContext(data)
    order = sorted(data.claims, key=lambda c: (split_metric(c.metric)[0] is not None, c.metric in DERIVED, c.id))
    for claim in order:
        try:
            ctx.judged[claim.id] = judge_claim(ctx, claim)
        except Unverifiable as missing:
            ctx.judged[claim.id] = Judgement(UNVERIFIABLE, None, None, f"Not recomputable: {missing}.", {})
    return ctx.judged


def judge_claim(ctx: ClaimContext, claim: ClaimRow) -> Judgement:
    kind, base = split_metric(claim.metric)
    if kind:
        return judge(claim.value_printed, comparison_candidates(ctx, claim, kind, base), claim.qualifier)
    if base == "median_run":
        return judge_median_run(ctx, claim)
    if parse_printed(claim.value_printed) is None:
        raise Unverifiable(f"the printed value {claim.value_printed!r} is not a number")
    return judge(claim.value_printed, claim_candidates(ctx, claim), claim.qualifier)


def judge_median_run(ctx: ClaimContext, claim: ClaimRow) -> Judgement:
    """The run a document names as its median: the trial's median by total IOPS (DESIGN)."""
    run, _ = subject_run(ctx, claim)
    trial = sorted((r for r in ctx.data.trial_runs(run) if r.figures.get("total_iops") is not None),
                   key=lambda r: r.name)
    listing = ", ".join(f"{r.name} {fmt(r.figures['total_iops'])}" for r in trial)
    inputs = {r.name: r.figures["total_iops"] for r in trial}
    said = " ".join(claim.value_printed.split()).lower()
    if said == run.name.lower():
        return Judgement(MATCH, None, None, f"The median of the trial by total IOPS ({listing}) is {run.name}.", inputs)
    why = f"The median of the trial by total IOPS ({listing}) is {run.name}, not {claim.value_printed}."
    return Judgement(MISMATCH, None, None, why, inputs)


def claim_findings(data: AuditData) -> list[Finding]:
    """One finding per manifest claim, citing the document it is printed in (else the manifest); verdicts
    stated in prose, and the rule they are judged by, are judged by prose_verdicts (a kind of their own)."""
    data, verdicts = prose_verdicts.split(data)
    judged = judge_claims(data)
    ctx = ClaimContext(data)
    out = []
    confirmed = doubts.definitions_confirmed(data.claims, judged)
    for claim in data.claims:
        j = doubts.reconsidered(ctx, claim, judged[claim.id], confirmed)
        place = claim.location or "manifest claim"
        if claim.line is not None:
            place += f", line {claim.line}"
        mislabel = _mislabelled(ctx, claim) if j.verdict == MISMATCH else None
        explanation = f"{j.explanation.rstrip('.')}; {mislabel}" if mislabel else j.explanation
        out.append(Finding(
            solution=data.solution_key(claim.solution_id), other_solution=data.solution_key(claim.other_solution_id),
            kind="mislabelled_metric" if mislabel else "claim", metric=claim.metric, verdict=j.verdict,
            printed=claim.value_printed, recomputed=j.recomputed, relative_difference=j.relative_difference,
            explanation=explanation,
            inputs=j.inputs, place=place, line=claim.line, quote=claim.quote, unit=claim.unit,
            **evidence(data, claim.source_file_id or claim.manifest_file_id)))
    return out + verdicts


def _mislabelled(ctx: ClaimContext, claim: ClaimRow) -> str | None:
    """The other metric of the claim's run its printed digits are, for a run figure that does not add up."""
    if claim.metric not in PRINTED_METRICS or parse_printed(claim.value_printed) is None:
        return None
    try:
        run, _ = subject_run(ctx, claim)
        return mislabel_note(run, claim.value_printed, claim.metric, claim.unit, ctx.solution(claim.solution_id))
    except Unverifiable:
        return None
