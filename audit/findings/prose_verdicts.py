"""Verdicts stated in prose ("every host passed", "the results were adequate") against the tests they speak of.

A `stated_verdict` claim (ingest/draft/verdicts.py) is judged against each test it is about: the
Jetstress verdict every report of the test prints, those reports' own numbers under the thresholds
of their Jetstress release (`consistency.recompute_verdict`), and the document's own rule, its
`pass_limit_*` claims ("under 15 ms", "within 5% of target"). A verdict whose sentence states its
own limit ("inside the 20 ms that Exchange requires") is judged by that limit alone. A claim on a
test (a run) is judged on that test; a claim on a system, whose sentence named no test, on every
test of each system the same sentence was given to: judged when they all give one answer, else
`unattributed` (with the tests and how they differ), never judged against a test it may not be about. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ...ingest.draft.verdicts import LIMIT_METRICS, STATED_VERDICT, STRICT
from ...schema.vocabulary import TRANSACTIONAL_REPORT_TYPES
from ..gather import AuditData, ClaimRow, RunInfo
from ..terms import MATCH, MISMATCH, UNATTRIBUTED, UNVERIFIABLE, fmt
from .consistency import recompute_verdict
from .finding import Finding, evidence

KIND = "verdict_in_prose"
JUDGED_HERE = frozenset({STATED_VERDICT, *LIMIT_METRICS.values()})
_BOUNDS = {metric: bounds for bounds, metric in LIMIT_METRICS.items()}
# What a latency limit bounds -> (the instances' column, the volumes it is read on, words).
_LATENCIES = {"db_read_latency": ("db_read_latency_ms", "database", "database read latency"),
              "db_write_latency": ("db_write_latency_ms", "database", "database write latency"),
              "log_write_latency": ("log_write_latency_ms", "log", "log write latency")}


@dataclass
class Outcome:
    """One test judged: passed (None: nothing to judge it by), what breaks and what holds, citing lines."""

    test: str
    passed: bool | None
    broken: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)


def split(data: AuditData) -> tuple[AuditData, list[Finding]]:
    """The catalogue without the claims judged here (for the figure checks), and the findings of those claims."""
    mine = [c for c in data.claims if c.metric in JUDGED_HERE]
    rest = replace(data, claims=[c for c in data.claims if c.metric not in JUDGED_HERE])
    return rest, [_finding(data, claim, mine) for claim in mine if claim.metric == STATED_VERDICT]


def _finding(data: AuditData, claim: ClaimRow, mine: list[ClaimRow]) -> Finding:
    verdict, explanation, inputs = judge(data, claim, mine)
    place = f"{claim.location or 'text'}, line {claim.line}" if claim.line is not None else claim.location
    return Finding(solution=data.solution_key(claim.solution_id), other_solution=None, kind=KIND, metric=claim.metric,
                   verdict=verdict, printed=claim.value_printed, recomputed=None, relative_difference=None,
                   explanation=explanation, inputs=inputs, place=place, line=claim.line, quote=claim.quote,
                   **evidence(data, claim.source_file_id or claim.manifest_file_id))


def judge(data: AuditData, claim: ClaimRow, mine: list[ClaimRow]) -> tuple[str, str, dict]:
    """(verdict, explanation, inputs) for one stated verdict."""
    said = f"'{claim.value_printed}'"
    if claim.subject == "run" and claim.run_id in data.runs:
        tests = [_test_of(data, data.runs[claim.run_id])]
        scope = f"said of {_name(tests[0][0])}"
    else:
        sharing = {c.solution_id for c in mine if (c.metric, c.subject, c.source_file_id, c.line, c.value_printed)
                   == (STATED_VERDICT, "solution", claim.source_file_id, claim.line, claim.value_printed)}
        tests = [t for solution_id in sorted(s for s in sharing if s is not None) for t in _tests(data, solution_id)]
        scope = f"{_name(tests[0][0])}, its only test" if len(tests) == 1 else "naming no test"
    outcomes = [_judge_test(run, hosts, *_limits(claim, run, mine)) for run, hosts in tests]
    inputs = {"tests": {o.test: _word(o.passed) for o in outcomes},
              "rules": [_rule_words(c) for c in _limits(claim, None, mine)[0]]}
    if not outcomes:
        return UNVERIFIABLE, f"{said} ({scope}): no Jetstress report of a Performance or Stress test to judge it by.", inputs
    known = {o.passed for o in outcomes}
    if None in known:
        missing = "; ".join(f"{o.test}: {', '.join(o.broken)}" for o in outcomes if o.passed is None)
        return UNVERIFIABLE, f"{said} ({scope}): {missing}.", inputs
    if len(outcomes) == 1:
        one = outcomes[0]
        if one.passed:
            return MATCH, f"{said} ({scope}): {'; '.join(one.held)}.", inputs
        return MISMATCH, f"{said} ({scope}), but {'; '.join(one.broken)}.", inputs
    listing = "; ".join(f"{o.test} {'passes' if o.passed else 'fails: ' + ', '.join(o.broken)}" for o in outcomes)
    if known == {True}:
        return MATCH, f"{said} ({scope}): every test it may be about passes ({listing}).", inputs
    if known == {False}:
        return MISMATCH, f"{said} ({scope}), but every test it may be about fails ({listing}).", inputs
    return UNATTRIBUTED, (f"Unattributed: {said} names no test, and the {len(outcomes)} tests it may be about differ "
                          f"({listing}); not judged against one it may not be about."), inputs


def _word(passed: bool | None) -> str | None:
    return None if passed is None else "Pass" if passed else "Fail"


def _test_of(data: AuditData, run: RunInfo) -> tuple[RunInfo, list[RunInfo]]:
    """A run as the test it belongs to, with the reports of that test (one per host)."""
    test_id = run.row.get("test_run_id")
    if test_id in data.runs:
        run = data.runs[test_id]
    if run.origin == "hosts":
        return run, sorted((r for r in data.runs.values() if r.row.get("test_run_id") == run.id), key=lambda r: r.id)
    return run, [run] if run.origin == "report" else []


def _tests(data: AuditData, solution_id: int) -> list[tuple[RunInfo, list[RunInfo]]]:
    """A system's tests with a Jetstress verdict: tests over hosts, and Performance and Stress reports."""
    return [_test_of(data, run) for run in data.runs_of(solution_id) if run.row.get("test_run_id") is None and (
        run.origin == "hosts" or (run.origin == "report" and run.report_type in TRANSACTIONAL_REPORT_TYPES))]


def _limits(claim: ClaimRow, test: RunInfo | None, mine: list[ClaimRow]) -> tuple[list[ClaimRow], bool]:
    """The limits a verdict is judged by, and whether they are its own: those its sentence states with
    the verdict ("inside the 20 ms": the verdict's words hold the number), judged alone; else the
    document's rule (for `test`: its limits on the whole system and those on that test)."""
    rules = [c for c in mine if c.metric in _BOUNDS and c.solution_id == claim.solution_id
             and c.source_file_id == claim.source_file_id]
    own = [c for c in rules if _own(c, claim)]
    if own:
        return own, True
    verdicts = [c for c in mine if c.metric == STATED_VERDICT]
    return [c for c in rules if not any(_own(c, v) for v in verdicts)
            and (c.subject != "run" or test is None or c.run_id == test.id)], False


def _own(rule: ClaimRow, verdict: ClaimRow) -> bool:
    """A limit stated with a verdict, in its words ("inside the 20 ms"): that verdict's yardstick alone."""
    near = rule.line is not None and verdict.line is not None and abs(rule.line - verdict.line) <= 1  # may wrap
    return near and (rule.quote, rule.run_id) == (verdict.quote, verdict.run_id) and \
        re.search(rf"(?<![\d.]){re.escape(rule.value_printed)}(?![\d.])", verdict.value_printed) is not None


def _rule_words(rule: ClaimRow) -> str:
    bounds = _BOUNDS[rule.metric]
    if bounds == "iops_margin":
        return f"line {rule.line}: achieved IOPS at most {rule.value_printed}% below its target"
    if bounds == "iops_minimum":
        return f"line {rule.line}: achieved IOPS at least {rule.value_printed}"
    relation = "under" if rule.qualifier == STRICT else "at most"
    return f"line {rule.line}: {_LATENCIES[bounds][2]} {relation} {rule.value_printed} {rule.unit or 'ms'}"


def _judge_test(test: RunInfo, hosts: list[RunInfo], limits: list[ClaimRow], own_only: bool) -> Outcome:
    """One test against its reports' verdicts, Jetstress's thresholds and `limits` (alone when the
    verdict's own sentence states them)."""
    name = _name(test)
    if not hosts:
        return Outcome(name, None, ["no Jetstress report of it is stored"])
    broken: list[str] = []
    printed = []
    for report in hosts:
        who, at = _who(report, len(hosts)), _at(report)
        if not own_only:
            result = recompute_verdict(report)
            if report.reported_verdict == "Fail":
                why = result[1] if result is not None and result[0] == "Fail" else []
                broken.append(f"{who}report prints Fail{at}" + (f" ({'; '.join(why)})" if why else ""))
            elif result is not None and result[0] == "Fail":
                broken.append(f"{who}report prints {report.reported_verdict or 'no verdict'}{at} but its numbers "
                              f"fail Jetstress {report.release}'s thresholds ({'; '.join(result[1])})")
            elif report.reported_verdict is None and result is None:
                return Outcome(name, None, [f"{who}report{at} prints no verdict and no latencies"])
            printed.append(report.reported_verdict or "no verdict")
        for rule in limits:
            breaks = _breaks(report, rule)
            if breaks is None:
                return Outcome(name, None, [f"{who}report{at} holds no figure for {_rule_words(rule)}"])
            if breaks:
                broken.append(f"{'its own limit' if own_only else 'the document rule'} ({_rule_words(rule)}) is "
                              f"broken: {who}{', '.join(breaks)}{at}")
    if broken:
        return Outcome(name, False, broken)
    held = []
    if not own_only:
        lines = [str(r.source_line) for r in hosts if r.source_line is not None]
        where = f" (line{'s' if len(lines) > 1 else ''} {', '.join(lines)})" if lines else ""
        releases = "/".join(sorted({str(r.release) for r in hosts if r.release is not None}))
        held.append(f"its {len(hosts)} host reports print {'/'.join(sorted(set(printed)))}{where}, within Jetstress "
                    f"{releases}'s thresholds" if len(hosts) > 1 else
                    f"its report prints {printed[0]}{where}, within Jetstress {releases}'s thresholds")
    held += [f"it keeps {'its own limit' if own_only else 'the document rule'} ({_rule_words(rule)})" for rule in limits]
    return Outcome(name, True, [], held)


def _who(report: RunInfo, hosts: int) -> str:
    return f"{report.machine_name or report.name}'s " if hosts > 1 else ""


def _at(report: RunInfo) -> str:
    return f" (report at line {report.source_line})" if report.source_line is not None else ""


def _name(test: RunInfo) -> str:
    """A test as a reader finds it: its label, with its report type when the label does not say it."""
    kind = test.report_type if test.origin == "report" else None
    return f"{test.name} ({kind})" if kind and kind.casefold() not in test.name.casefold() else test.name


def _breaks(report: RunInfo, rule: ClaimRow) -> list[str] | None:
    """What in a report breaks one limit of a rule; None when the report holds no figure for it."""
    bounds = _BOUNDS[rule.metric]
    limit = float(rule.value_printed.replace(",", ""))
    if bounds == "iops_margin":
        achieved, target = report.row.get("achieved_iops"), report.row.get("target_iops")
        if achieved is None or not target:
            return None
        short = (1 - achieved / target) * 100
        return [f"achieved {fmt(achieved)} IOPS is {fmt(short)}% below its target {fmt(target)}"] if short > limit else []
    if bounds == "iops_minimum":
        achieved = report.row.get("achieved_iops")
        if achieved is None:
            return None
        return [f"achieved {fmt(achieved)} IOPS, below {rule.value_printed}"] if achieved < limit else []
    column, role, _ = _LATENCIES[bounds]
    limit_ms = limit * (1000 if rule.unit == "s" else 1)
    values = [(i.name, i.values[column]) for i in report.instances
              if i.volume_role in (None, role) and i.values.get(column) is not None]
    if not values:
        return None
    strict = rule.qualifier == STRICT
    return [f"{name} {fmt(v)} ms" for name, v in values if v > limit_ms or (strict and v >= limit_ms)]
