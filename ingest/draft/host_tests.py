"""Reports of one test run on several hosts at once: one test, never several one-run trials.

Vendors drive one array from several Jetstress hosts (or virtual machines) at the same time, and
print one report per host. A test is the set of reports of one type whose time windows overlap on
different machines; its system figures are the hosts' sums (the loader and `refresh_run_figures`
add them up), and a median is taken across repeated tests, never across hosts. A test run under an
abnormal condition (a drive pulled, a rebuild, a degraded array) is a scenario of its own, named
by the words the document prints over its reports or in their test description. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..formats.document.lines import Line
from ..formats.document.records import ReportDocument
from ..jetstress.records import JetstressReport
from .deferred import deferred
from .drafts import DraftRun, DraftSolution

SCENARIO = deferred(r"\bfail(?:ure|ed|ing|over)?\b|\bfail-over\b|\bdegraded\b|\brebuil(?:d|t|ding)\b|\bfault\w*|"
                    r"\bpulled\b|\bremoved\b|\boutage\b|\bdisabled\b|\bcopyback\b|\bresync\w*|\boffline\b|"
                    r"\b(?:node|controller|path|link)s?[\s-]+down\b", re.IGNORECASE)
_PRODUCT_LINE = deferred(r"jetstress|test result report|test summary", re.IGNORECASE)
_DASHES = deferred(r"^[\s\-–—:|]+|[\s\-–—:|]+$")


@dataclass(frozen=True)
class HostTest:
    """One test over several hosts: the indexes of its reports, how the document names it."""

    label: str
    report_indexes: tuple[int, ...]
    scenario: str | None
    line: int | None


def caption(lines: list[Line], report: JetstressReport) -> str | None:
    """The short line printed right above a report (its appendix heading), without the machine name."""
    if report.source_line is None:
        return None
    by_number = {line.number: line for line in lines}
    number = report.source_line - 1
    while number > 0 and report.source_line - number <= 6:
        line = by_number.get(number)
        number -= 1
        if line is None or line.blank or line.furniture:
            continue
        if line.separated or len(line.text) > 80 or _PRODUCT_LINE.search(line.text):
            return None if line.separated or len(line.text) > 80 else _next_caption(by_number, number, report)
        return _without_machine(line.text, report.machine_name)
    return None


def _next_caption(by_number: dict[int, Line], number: int, report: JetstressReport) -> str | None:
    """Above the report's product line ("Microsoft Exchange Jetstress 2013"): the heading over it."""
    while number > 0 and (report.source_line or 0) - number <= 6:
        line = by_number.get(number)
        number -= 1
        if line is None or line.blank or line.furniture:
            continue
        if line.separated or len(line.text) > 80 or _PRODUCT_LINE.search(line.text):
            return None
        return _without_machine(line.text, report.machine_name)
    return None


def _without_machine(text: str, machine: str | None) -> str | None:
    if machine:
        text = re.sub(re.escape(machine), " ", text, flags=re.IGNORECASE)
    text = _DASHES.sub("", " ".join(text.split()))
    return text or None


def scenario_of(*texts: str | None) -> str | None:
    """The abnormal condition the words name ("Drive failure", "rebuilding"), else None."""
    for text in texts:
        if text and SCENARIO.search(text):
            return text
    return None


def _overlap(a: JetstressReport, b: JetstressReport) -> bool:
    if None in (a.test_start, a.test_end, b.test_start, b.test_end):
        return False
    return a.test_start <= b.test_end and b.test_start <= a.test_end  # type: ignore[operator]


def host_tests(reports: list[JetstressReport], indexes: list[int], lines: list[Line]) -> list[HostTest]:
    """The tests over several hosts among one system's reports (`indexes` into `reports`)."""
    groups: list[list[int]] = []
    for index in indexes:
        report = reports[index]
        home = next((g for g in groups if all(
            reports[o].report_type == report.report_type and (reports[o].machine_name or "").casefold()
            != (report.machine_name or "").casefold() for o in g) and any(_overlap(reports[o], report) for o in g)), None)
        if home is None:
            groups.append([index])
        else:
            home.append(index)
    tests = []
    for number, group in enumerate((g for g in groups if len(g) > 1), 1):
        captions = {caption(lines, reports[i]) for i in group}
        descriptions = {_without_machine(reports[i].test_description or "", reports[i].machine_name) for i in group}
        named = next(iter(captions)) if len(captions) == 1 and None not in captions else None
        described = next(iter(descriptions)) if len(descriptions) == 1 else \
            min(descriptions) if all(SCENARIO.search(d) for d in descriptions) else None  # each host's own words
        first = reports[group[0]]
        label = named or f"{first.report_type} test {number}"
        tests.append(HostTest(label, tuple(group), scenario_of(named, described), first.source_line))
    return tests


def group_hosts(solution: DraftSolution, document: ReportDocument) -> None:
    """A system's reports of one test on several hosts become one run over those hosts (this module);
    a report under an abnormal condition keeps it as its scenario."""
    reports = document.reports
    indexes = [run.report_index for run in solution.runs if run.report_index is not None]
    tests = host_tests(reports, indexes, document.lines)
    grouped = {i for test in tests for i in test.report_indexes}
    kept = [run for run in solution.runs if run.report_index not in grouped]
    for run in kept:
        if run.report_index is not None:
            report = reports[run.report_index]
            run.scenario = scenario_of(caption(document.lines, report), report.test_description)
    labels = {run.label for run in kept}
    for test in tests:
        label, n = test.label, 2
        while label in labels:
            label, n = f"{test.label} ({n})", n + 1
        labels.add(label)
        lines = ", ".join(str(reports[i].source_line) for i in test.report_indexes)
        kept.append(DraftRun(label, line=test.line, hosts=test.report_indexes, scenario=test.scenario,
                             description=f"one {reports[test.report_indexes[0]].report_type} test on "
                                         f"{len(test.report_indexes)} hosts: reports at lines {lines}"))
    solution.runs = kept
