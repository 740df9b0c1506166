"""Claim audit: every published figure recomputed from the data, and what does not add up.

The audit is a stage of its own, above the canned queries: it reads what the views and tables
hold and judges what vendors printed, where `queries` only answers questions. `audit(engine)`
judges every claim of the solution manifests (`findings.claims`) and runs the checks that need
no claim over everything ingested (`findings.consistency`, `findings.tables`). Each
finding says what was recomputed from what, and cites the file (SHA-256 prefix and name), the
place (line, table, figure) where the figure is printed, its page in a PDF and the printed words
it judges (`findings.citation`).

Verdicts, worst first: `mismatch` (the data does not give the printed figure), `rounding` (it
does only under another rounding order or unit convention, named), `unverifiable` (the data
needed is missing, named), `match` (equal within the rounding of the printed digits).

The package is one flow, each step importing only the steps before it (tests/test_layout.py):
  gather (the catalogue, read once) and terms (printed numbers, candidates, verdicts)
  -> candidates (what the data gives for a figure, and how else it could have been computed)
  -> judge (which candidate reproduces the printed digits; pure)
  -> findings (judged claims, table checks, consistency checks: each a `Finding` with its evidence)
  -> causes (the findings one error produces, grouped)
  -> this module (sorting and filtering the findings).
"""

from __future__ import annotations

import gc
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from ..schema.keys import unknown_message
from .causes import Cause, group
from .findings import consistency, document_checks, tables
from .findings.citation import cited
from .findings.claims import claim_findings
from .findings.finding import Finding
from .gather import AuditData, load
from .terms import VERDICTS

__all__ = ["AuditReport", "Cause", "Finding", "UnknownSolution", "audit"]


class UnknownSolution(LookupError):
    """`--solution` names no solution in the catalogue."""


@dataclass
class AuditReport:
    """The findings, sorted by solution, then worst verdict first, then metric and line."""

    findings: list[Finding] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counted = Counter(f.verdict for f in self.findings)
        return {verdict: counted.get(verdict, 0) for verdict in VERDICTS}

    def by_solution(self) -> dict[str | None, list[Finding]]:
        groups: dict[str | None, list[Finding]] = {}
        for finding in self.findings:
            groups.setdefault(finding.solution, []).append(finding)
        return groups

    def worst(self, limit: int = 5) -> list[Finding]:
        """The findings to read first: one per cause, mismatches with the largest relative difference."""
        heads = []
        for cause in self.causes():
            known = [f for f in cause.findings if f.verdict == "mismatch" and f.relative_difference is not None]
            if known:
                heads.append(max(known, key=lambda f: abs(f.relative_difference or 0.0)))
        return sorted(heads, key=lambda f: (-abs(f.relative_difference or 0.0), f.sort_key()))[:limit]

    def causes(self) -> list[Cause]:
        """What is wrong, one entry per error however many findings it makes (causes.py), worst first."""
        return group(self.findings)

    def as_json(self) -> list[dict[str, Any]]:
        """Every finding, each with the number of its cause (None: nothing wrong found)."""
        number = {id(f): cause.number for cause in self.causes() for f in cause.findings}
        return [{**f.as_dict(), "cause": number.get(id(f))} for f in self.findings]

    def summary(self) -> str:
        counts, causes = self.counts(), Counter(c.verdict for c in self.causes())
        return (f"{sum(causes.values())} causes ({causes.get('mismatch', 0)} mismatch, {causes.get('rounding', 0)} "
                f"rounding) in {len(self.findings)} findings: "
                + ", ".join(f"{n} {verdict}" for verdict, n in counts.items()))


def audit(engine: Engine, *, solution: str | None = None, verdict: str | None = None) -> AuditReport:
    """Judge every claim and run every claim-free check; optionally one solution's findings only."""
    data = load(engine)
    # What is loaded lives as long as the audit, and what the audit makes is freed by reference counts as each
    # claim is judged: the cyclic collector, walking all of it again and again, made the time per row grow with
    # the rows (issue 49: 200,000 claims audited in 64 s with it, 23 s without; 60,000 in 11.6 s, 5.0 s). It
    # waits until the audit ends; anything cyclic the audit left is collected then.
    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        return _audit(data, solution, verdict)
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _audit(data: AuditData, solution: str | None, verdict: str | None) -> AuditReport:
    known = {s.key for s in data.solutions.values()}
    if solution is not None and solution not in known:
        raise UnknownSolution(unknown_message("solution", solution, known))
    if verdict is not None and verdict not in VERDICTS:
        raise ValueError(unknown_message("verdict", verdict, VERDICTS))
    findings = claim_findings(data)
    covered = {(f.file, f.line, f.printed) for f in findings}
    findings += [f for f in consistency.run_checks(data) + tables.run_checks(data) + document_checks.run_checks(data)
                 if f.kind not in tables.DEDUPLICATED or (f.file, f.line, f.printed) not in covered]
    findings = [f for f in findings
                if (solution is None or f.solution == solution) and (verdict is None or f.verdict == verdict)]
    return AuditReport(sorted(cited(data, findings), key=Finding.sort_key))
