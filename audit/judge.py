"""Pure judging: a printed figure against the values the data gives for it.

No database here. The audit's rules build `Candidate` values (what the stored data says, and
how else the figure could have been computed); `judge` decides which one reproduces the printed
digits and what that makes the verdict:

1. the primary value rounds to the printed digits, read with the claim's qualifier -> match;
2. it does only against the qualifier ("nearly 60" for 60.3), or only truncated or rounded to
   fewer digits than printed (trailing zeros), or a `convention` candidate does (inputs already
   rounded, another prefix base, the other disk basis) -> rounding, saying which;
3. a `source` candidate does (another run of the trial, a disk count the solution does not have,
   printed figures that are themselves wrong) -> mismatch, saying what the figure really is;
4. nothing does -> mismatch, with the relative difference.
"""

from __future__ import annotations

from typing import Sequence

from .terms import (
    CONVENTION,
    MATCH,
    MISMATCH,
    PRIMARY,
    ROUNDING,
    Candidate,
    Judgement,
    Printed,
    decimals_words,
    fmt,
    parse_printed,
)

_EPS = 1e-9


def relative_difference(printed: float, recomputed: float | None) -> float | None:
    if recomputed is None or recomputed == 0:
        return None
    return (printed - recomputed) / recomputed


def _rounds_to(value: float, printed: Printed, slack: float = 0.0, decimals: int | None = None) -> bool:
    places = printed.decimals if decimals is None else decimals
    half = 0.5 * 10.0 ** -places
    return abs(value - printed.value) <= half + slack + _EPS * max(1.0, abs(value))


def _truncates_to(value: float, printed: Printed, slack: float = 0.0) -> bool:
    unit = 10.0 ** -printed.decimals
    gap = (value - printed.value) if printed.value >= 0 else (printed.value - value)
    return -slack - _EPS * max(1.0, abs(value)) <= gap < unit + slack - _EPS


def qualified(value: float, printed: Printed, qualifier: str | None, slack: float = 0.0) -> tuple[bool, str]:
    """Does `value` bear out the printed figure read with its qualifier? (ok, why not).

    'up to' names the best result measured, so it must round like an unqualified figure;
    'over' and 'under' are bounds; 'approximately' allows one unit of the last digit; 'nearly'
    says just below.
    """
    half = printed.half_unit + slack + _EPS * max(1.0, abs(value))
    p = printed.value
    if qualifier == "approximately":
        # "about 1,800": the zeros a round figure ends in are no digits of it; one unit of its last other digit
        whole = printed.text.replace(",", "").split(".")[0]
        zeros = len(whole) - len(whole.rstrip("0")) if printed.decimals == 0 and p else 0
        return abs(value - p) <= max(2 * half, 10.0 ** zeros + slack), "it is not within one unit of the last printed digit"
    if qualifier == "over":
        return value >= p - half, f"it is not over {printed.text}"
    if qualifier == "under":
        return value <= p + half, f"it exceeds the bound {printed.text}"
    if qualifier == "nearly":
        below = p - max(4 * half, 0.05 * abs(p)) <= value <= p + _EPS * max(1.0, abs(p))
        return below, f"'nearly' says just below {printed.text}"
    return abs(value - p) <= half, "it does not round to the printed digits"


def printing_convention(value: float, printed: Printed, slack: float = 0.0) -> str | None:
    """How the printed digits come from `value` other than by rounding to them, if they do."""
    for coarser in range(printed.decimals - 1, printed.decimals - printed.trailing_zeros - 1, -1):
        if _rounds_to(value, printed, slack, decimals=coarser):
            return f"rounded to {decimals_words(coarser)} and printed with trailing zeros"
    if _truncates_to(value, printed, slack) and not _rounds_to(value, printed, slack):
        return f"truncated, not rounded, to {decimals_words(printed.decimals)}"
    return None


def _search(printed: Printed, candidates: Sequence[Candidate], qualifier: str | None):
    """The best (tier, candidate, printing) that reproduces the printed digits, or None.

    Tiers: 0 the primary as printed; 1 the primary by plain rounding against the qualifier;
    2 a convention as printed; 3 the primary truncated or with trailing zeros; 4 a convention
    truncated or with trailing zeros; 5-6 the same for other sources. Within a tier the lower
    `rank`, then the closer value wins.
    """
    hits: list[tuple[int, Candidate, str | None]] = []
    for candidate in candidates:
        slack = candidate.uncertainty
        if candidate.kind == PRIMARY:
            if qualified(candidate.value, printed, qualifier, slack)[0]:
                hits.append((0, candidate, None))
            elif qualifier and _rounds_to(candidate.value, printed, slack):
                hits.append((1, candidate, None))
            elif (how := printing_convention(candidate.value, printed, slack)):
                hits.append((3, candidate, how))
            continue
        base = 2 if candidate.kind == CONVENTION else 5
        if qualified(candidate.value, printed, qualifier, slack)[0] or _rounds_to(candidate.value, printed, slack):
            hits.append((base, candidate, None))
        elif (how := printing_convention(candidate.value, printed, slack)):
            hits.append((base + (2 if base == 2 else 1), candidate, how))
    if not hits:
        return None
    return min(hits, key=lambda hit: (hit[0], hit[1].rank, abs(hit[1].value - printed.value), candidates.index(hit[1])))


def judge(printed_text: str, candidates: Sequence[Candidate], qualifier: str | None = None) -> Judgement:
    """The verdict on one printed figure; `candidates[0]` must be the primary computation."""
    printed = parse_printed(printed_text)
    if printed is None:
        raise ValueError(f"not a printed number: {printed_text!r}")
    primary = candidates[0]
    r = primary.value
    rel = relative_difference(printed.value, r)
    inputs = dict(primary.inputs)
    words = f"{primary.how} = {fmt(r, printed.decimals)}"
    hit = _search(printed, candidates, qualifier)
    tier, candidate, printing = hit if hit else (None, None, None)
    if tier == 0 and candidate is not None and candidate.how != primary.how and \
            not qualified(r, printed, qualifier, primary.uncertainty)[0]:  # not the primary but another computation
        primary, r = candidate, candidate.value  # of the same figure is printed (a plain average, not a weighted one)
        rel, inputs = relative_difference(printed.value, r), dict(candidate.inputs)
        words = f"{primary.how} = {fmt(r, printed.decimals)}"
    if tier == 0:
        extra = ""
        if primary.uncertainty and not qualified(r, printed, qualifier)[0]:
            extra = f", within the precision of its inputs (±{fmt(primary.uncertainty, printed.decimals)})"
        if qualifier in ("over", "under") and not _rounds_to(r, printed):
            extra += f"; the bound '{qualifier.replace('_', ' ')} {printed.text}' holds"
        return Judgement(MATCH, r, rel, f"{words}; matches the printed {printed.text}{extra}.", inputs)
    if tier == 1:
        why_not = qualified(r, printed, qualifier, primary.uncertainty)[1]
        return Judgement(ROUNDING, r, rel, f"{words}; reproduces {printed.text} only by rounding: {why_not}.", inputs)
    if tier == 3:
        return Judgement(ROUNDING, r, rel, f"{words}; reproduces {printed.text} only {printing}.", inputs)
    if candidate is not None:
        alt = f"{candidate.how} = {fmt(candidate.value, printed.decimals)}" + (f", {printing}" if printing else "")
        alt_inputs = {**inputs, "reproduced_by": candidate.inputs}
        if candidate.kind == CONVENTION:
            why = f"{words}; {printed.text} reproduces only {candidate.note}: {alt}."
            return Judgement(ROUNDING, r, rel, why, alt_inputs)
        diff = f" ({rel:+.2%})" if rel is not None else ""
        why = f"{words}, not {printed.text}{diff}; the printed figure is {candidate.note}: {alt}."
        return Judgement(MISMATCH, r, rel, why, alt_inputs)
    diff = f"; the printed {printed.text} differs by {rel:+.2%}" if rel is not None else f"; printed {printed.text}"
    return Judgement(MISMATCH, r, rel, f"{words}{diff}.", inputs)
