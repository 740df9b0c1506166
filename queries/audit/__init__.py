"""Claim audit: every published figure recomputed from the data, and what does not add up.

`audit(engine)` judges every claim of the solution manifests (`claims`) and runs the
checks that need no claim over everything ingested (`checks`, `tables`). Each
finding says what was recomputed from what, and cites the file (SHA-256 prefix and name) and
the place (line, table, figure) where the figure is printed.

Verdicts, worst first: `mismatch` (the data does not give the printed figure), `rounding` (it
does only under another rounding order or unit convention, named), `unverifiable` (the data
needed is missing, named), `match` (equal within the rounding of the printed digits).

The modules form one flow, each importing only those before it:
  data (the catalogue, read once) and figures (candidates, verdicts, printed numbers)
  -> values, context, capacity (candidate values for a figure; rows: a document table's rows)
  -> judge (which candidate reproduces the printed digits)
  -> claims, tables, checks (judged claims, table checks, claim-free checks; finding: the result)
  -> this module (sorting and filtering the findings).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from ...schema.keys import unknown_message
from . import checks as audit_checks, tables as audit_tables
from .claims import judge_claims
from .data import AuditData, load
from .figures import VERDICTS
from .finding import Finding, evidence

__all__ = ["AuditReport", "Finding", "UnknownSolution", "audit"]


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
        """The findings to read first: mismatches with the largest relative difference."""
        bad = [f for f in self.findings if f.verdict == "mismatch" and f.relative_difference is not None]
        return sorted(bad, key=lambda f: (-abs(f.relative_difference), f.sort_key()))[:limit]

    def as_json(self) -> list[dict[str, Any]]:
        return [f.as_dict() for f in self.findings]

    def summary(self) -> str:
        counts = self.counts()
        return f"{len(self.findings)} findings: " + ", ".join(f"{n} {verdict}" for verdict, n in counts.items())


def audit(engine: Engine, *, solution: str | None = None, verdict: str | None = None) -> AuditReport:
    """Judge every claim and run every claim-free check; optionally one solution's findings only."""
    data = load(engine)
    known = {s.key for s in data.solutions.values()}
    if solution is not None and solution not in known:
        raise UnknownSolution(unknown_message("solution", solution, known))
    if verdict is not None and verdict not in VERDICTS:
        raise ValueError(unknown_message("verdict", verdict, VERDICTS))
    findings = claim_findings(data)
    covered = {(f.file, f.line, f.printed) for f in findings}
    findings += [f for f in audit_checks.run_checks(data) + audit_tables.run_checks(data)
                 if f.kind not in audit_tables.DEDUPLICATED or (f.file, f.line, f.printed) not in covered]
    findings = [f for f in findings
                if (solution is None or f.solution == solution) and (verdict is None or f.verdict == verdict)]
    return AuditReport(sorted(findings, key=Finding.sort_key))


def claim_findings(data: AuditData) -> list[Finding]:
    """One finding per manifest claim, citing the document it is printed in (else the manifest)."""
    judged = judge_claims(data)
    out = []
    for claim in data.claims:
        j = judged[claim.id]
        place = claim.location or "manifest claim"
        if claim.line is not None:
            place += f", line {claim.line}"
        out.append(Finding(
            solution=data.solution_key(claim.solution_id), other_solution=data.solution_key(claim.other_solution_id),
            kind="claim", metric=claim.metric, verdict=j.verdict, printed=claim.value_printed,
            recomputed=j.recomputed, relative_difference=j.relative_difference, explanation=j.explanation,
            inputs=j.inputs, place=place, line=claim.line, quote=claim.quote, unit=claim.unit,
            **evidence(data, claim.source_file_id or claim.manifest_file_id)))
    return out
