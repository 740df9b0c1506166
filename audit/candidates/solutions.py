"""Claim rules for what a solution is, rather than what one run did: disks, capacity, money, power.

Sizes carry their prefix base: usable capacity and database sizes are GB of 2^30 bytes (the
seeds' convention, from the Jetstress reports), raw capacity is the disks' own GB of 10^9 bytes.
A percentage of one over the other is judged in bytes first; dividing the two printed GB figures
as they stand (each in its own base) is a named convention, not a match.
"""

from __future__ import annotations

from ...schema.units import size_factor
from ...schema.vocabulary import other_basis
from ..gather import ClaimRow, SolutionInfo
from ..terms import CONVENTION, SOURCE, Candidate, decimals_words, fmt, rounded
from . import runs
from .context import ClaimContext, from_printed, other_run_candidates, sibling_figures, subject_run
from .runs import Unverifiable

# Judged after the figures they may be computed from, so those figures' verdicts are known.
DERIVED = {"formatted_percent_of_raw", "database_percent_of_formatted", "database_percent_of_raw"}


def solution_candidates(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo, metric: str) -> list[Candidate]:
    unit = claim.unit or ""
    if metric == "disk_count":
        return disk_count_candidates(solution, claim.disk_basis or "all")
    if metric == "list_price":
        amount = runs.price(solution)
        if unit and solution.currency and unit != solution.currency:
            raise Unverifiable(f"the price of {solution.key} is in {solution.currency}, the claim in {unit}")
        return [Candidate(amount, f"{solution.key} list price (manifest)", {"list_price": amount})]
    if metric == "usable_capacity":
        size = runs.usable_bytes(solution)
        return runs.size_candidates(size, unit, f"{solution.key} usable capacity {size:,} bytes",
                                      {"usable_capacity_bytes": size}, "binary")
    if metric == "raw_capacity":
        return raw_capacity_candidates(solution, unit)
    if metric in DERIVED:
        return percent_of_candidates(ctx, claim, solution, metric)
    if metric in ("iops_per_dollar", "perf_per_watt"):
        return ratio_candidates(ctx, claim, solution, metric)
    if metric == "mb_per_dollar":
        return mb_per_dollar_candidates(solution)
    if metric == "drives_active_power":
        return drives_power_candidates(ctx, claim, solution)
    if metric == "enclosure_idle_power":
        raise Unverifiable(f"nothing stored measures the empty enclosure of {solution.key} (only printed)")
    raise Unverifiable(f"no rule recomputes {metric}")


def disk_count_candidates(solution: SolutionInfo, basis: str) -> list[Candidate]:
    """A printed disk count against the manifest's; the other basis's count is a wrong statement."""
    other = other_basis(basis)
    count, other_count = solution.disk_count(basis), solution.disk_count(other)
    out = [Candidate(count, f"{solution.key} {basis} disks (manifest)", {"disk_basis": basis, "disk_count": count})]
    if other_count != count:
        out.append(Candidate(other_count, f"{solution.key} {other} disks (manifest)", {"disk_basis": other},
                             SOURCE, f"the {other} disk count, not the {basis} one"))
    return out


def raw_capacity_candidates(solution: SolutionInfo, unit: str) -> list[Candidate]:
    """Raw capacity is the disks' own (vendor, 10^9-byte) gigabytes; then the other conventions."""
    size = runs.raw_capacity_bytes(solution)
    count = solution.disk_count("all")
    out = runs.size_candidates(size, unit, f"{solution.key} raw capacity of {count} disks, {size:,} bytes,",
                                 {"raw_capacity_bytes": size, "disk_count": count}, "decimal")
    per_disk = {d.raw_capacity_bytes for d in solution.disks}
    if len(per_disk) == 1:
        each = per_disk.pop() / size_factor(unit, "binary")
        words = runs.base_words("binary", unit)
        how = f"{count} disks x {rounded(each, 0):g} {unit} ({words}, rounded per disk)"
        out.append(Candidate(rounded(each, 0) * count, how, {"per_disk": each, "disk_count": count}, CONVENTION,
                             f"from the per-disk capacity in {words}, rounded before multiplying"))
    active = solution.disk_count("active")
    if active != count:
        size_active = runs.raw_capacity_bytes(solution, "active")
        out.append(Candidate(size_active / size_factor(unit, "decimal"),
                             f"raw capacity of the {active} active disks",
                             {"raw_capacity_bytes": size_active, "disk_count": active}, SOURCE,
                             f"counting the {active} active disks, not all {count}"))  # another count: a mismatch
    return out


def percent_of_candidates(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo, metric: str) -> list[Candidate]:
    """Capacity utilisation percentages: bytes over bytes, then each figure in its own GB."""
    if metric == "formatted_percent_of_raw":
        top, top_words, top_metric = runs.usable_bytes(solution), "usable", "usable_capacity"
    else:
        run = runs.headline(ctx.data, solution)
        top = run.row.get("initial_database_bytes")
        top_words, top_metric = f"{run.name} initial database", "initial_database_size"
        if top is None:
            raise Unverifiable(f"no initial database size stored for {run.name} of {solution.key}"
                               + _printed_only(ctx, claim, solution, top_metric, metric))
    if metric == "database_percent_of_formatted":
        bottom, bottom_words, bottom_metric = runs.usable_bytes(solution), "usable", "usable_capacity"
    else:
        bottom, bottom_words, bottom_metric = runs.raw_capacity_bytes(solution), "raw", "raw_capacity"
    inputs = {f"{top_metric}_bytes": top, f"{bottom_metric}_bytes": bottom}
    out = [Candidate(top / bottom * 100, f"{top_words} {top:,} bytes / {bottom_words} {bottom:,} bytes x 100", inputs)]
    if bottom_metric == "raw_capacity":
        gb_top, gb_bottom = top / size_factor("GB", "binary"), bottom / size_factor("GB", "decimal")
        out.append(Candidate(gb_top / gb_bottom * 100,
                             f"{fmt(gb_top)} GB (2^30 bytes) / {fmt(gb_bottom)} GB (10^9 bytes) x 100", inputs,
                             CONVENTION, f"dividing {top_words} GB of 2^30 bytes by {bottom_words} GB of 10^9 bytes"))
    pairs = [(a, b) for a in sibling_figures(ctx, claim, top_metric, solution.id)
             for b in sibling_figures(ctx, claim, bottom_metric, solution.id)]
    return out + from_printed(claim, pairs, lambda a, b: a / b * 100, "the percentage")


def _printed_only(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo, top_metric: str, metric: str) -> str:
    """What the document's own printed figures give, to show beside a figure the data cannot check."""
    bottom_metric = "usable_capacity" if metric == "database_percent_of_formatted" else "raw_capacity"
    tops = sibling_figures(ctx, claim, top_metric, solution.id)
    bottoms = sibling_figures(ctx, claim, bottom_metric, solution.id)
    if not tops or not bottoms:
        return ""
    (a_claim, a, _), (b_claim, b, _) = tops[0], bottoms[0]
    return (f" (the document's own {a_claim.value_printed} (line {a_claim.line}) / {b_claim.value_printed} "
            f"(line {b_claim.line}) gives {fmt(a / b * 100, 0)}%)")


def mb_per_dollar_candidates(solution: SolutionInfo) -> list[Candidate]:
    size, amount = runs.usable_bytes(solution), runs.price(solution)
    inputs = {"usable_capacity_bytes": size, "list_price": amount}
    binary, decimal = size / size_factor("MB", "binary"), size / size_factor("MB", "decimal")
    return [Candidate(binary / amount, f"{solution.key} usable {fmt(binary)} MB (2^20 bytes) / price {fmt(amount)}",
                      inputs),
            Candidate(decimal / amount, f"usable {fmt(decimal)} MB (10^6 bytes) / price {fmt(amount)}",
                      inputs, CONVENTION, "with MB = 10^6 bytes instead of 2^20")]


def ratio_candidates(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo, metric: str) -> list[Candidate]:
    """Total IOPS per dollar or per active watt of the median run; then from rounded inputs."""
    run, is_headline = subject_run(ctx, claim)
    total = runs.rate_candidates(run, "total_iops")[0].value
    if metric == "iops_per_dollar":
        divisor, words = runs.price(solution), "list price"
    else:
        divisor, words = runs.power_candidates(run, solution, "active", is_headline)[0].value, "active power (W)"
    out = [Candidate(total / divisor, f"{run.name} total IOPS {fmt(total)} / {words} {fmt(divisor)}",
                     {"run": run.name, "total_iops": total, metric.split("_per_")[1]: divisor})]
    for places in (0, 1):
        a, b = rounded(total, places), rounded(divisor, places)
        out.append(Candidate(a / b, f"{fmt(a)} / {fmt(b)}", {"rounded_to_decimals": places}, CONVENTION,
                             f"from inputs already rounded to {decimals_words(places)}"))

    def per_other_run(other):
        other_total = runs.rate_candidates(other, "total_iops")[0].value
        return [Candidate(other_total / divisor, f"{other.name} total IOPS {fmt(other_total)} / {words}")]

    return out + other_run_candidates(ctx, run, is_headline, per_other_run, claim, ("ratio", metric, solution.id, divisor))


def drives_power_candidates(ctx: ClaimContext, claim: ClaimRow, solution: SolutionInfo) -> list[Candidate]:
    """Active power less the empty enclosure's idle power, which only the document prints."""
    run, is_headline = subject_run(ctx, claim)
    active = runs.power_candidates(run, solution, "active", is_headline)[0].value
    enclosure = sibling_figures(ctx, claim, "enclosure_idle_power", solution.id)
    if not enclosure:
        raise Unverifiable(f"no enclosure idle power for {solution.key}")
    idle_claim, idle, _ = enclosure[0]
    idle_text = idle_claim.value_printed
    inputs = {"run": run.name, "active_power_w": active, "enclosure_idle_power_w_printed": idle_text}
    how = f"{run.name} active {fmt(active)} W - the printed enclosure idle {idle_text} W"
    out = [Candidate(active - idle, how, inputs)]
    for places in (0, 1):
        out.append(Candidate(rounded(active, places) - idle, f"{fmt(rounded(active, places))} W - {idle_text} W",
                             {"rounded_to_decimals": places}, CONVENTION,
                             f"from the active power already rounded to {decimals_words(places)}"))
    return out
