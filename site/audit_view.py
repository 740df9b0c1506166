"""The audit as the site shows it: causes first, worst first, each with the findings it rests on.

`esrpdb audit` prints one line per cause (audit/causes.py); the pages show the same causes in the
same order, one row each, and a cause's findings on request. A cause can span systems (one
swapped block of a table is wrong for every system in it): a solution page shows the cause with
that system's findings and names the others. Findings about no catalogued system get a section
of their own, by document. Pure: it regroups an `AuditReport`, it computes nothing new.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..audit import AuditReport, Cause, Finding

NO_SOLUTION = None


@dataclass(frozen=True)
class CauseRow:
    """One cause as a table row: its worst finding's figures, where it shows up, every finding."""

    number: int  # the cause's number in `esrpdb audit` (worst first)
    head: Finding  # the finding the row reads from: the worst one (on a solution page, that system's worst)
    findings: list[Finding]  # shown on request, worst first
    where: str  # "file lines 12, 40; other file line 7"
    solutions: list[str | None]  # every system the cause concerns, the head's first
    elsewhere: int = 0  # findings of this cause about other systems (a solution page leaves them out)

    @property
    def verdict(self) -> str:
        return self.head.verdict


@dataclass(frozen=True)
class DocumentFindings:
    """The findings about no catalogued system that one document's figures make."""

    file: str | None
    sha256_prefix: str | None
    findings: list[Finding]


def _systems(cause: Cause) -> list[str | None]:
    return list(dict.fromkeys(f.solution for f in cause.findings))


def cause_rows(causes: list[Cause]) -> list[CauseRow]:
    """Every cause, in the audit's order (worst first)."""
    return [CauseRow(c.number, c.head, c.findings, c.where(), _systems(c)) for c in causes]


def causes_by_solution(causes: list[Cause]) -> dict[str | None, list[CauseRow]]:
    """Per system, the causes with a finding about it, in the audit's order; each row reads from that
    system's own findings (the worst first), so a page never shows another system's figures as its own."""
    rows: dict[str | None, list[CauseRow]] = {}
    for cause in causes:
        systems = _systems(cause)
        for key in systems:
            own = [f for f in cause.findings if f.solution == key]
            rows.setdefault(key, []).append(CauseRow(
                cause.number, own[0], own, Cause(cause.number, own).where(),
                [key] + [s for s in systems if s != key], len(cause.findings) - len(own)))
    return rows


def by_document(findings: list[Finding]) -> list[DocumentFindings]:
    """Findings grouped by the document they are printed in, documents by name, findings by line."""
    groups: dict[tuple[str | None, str | None], list[Finding]] = {}
    for finding in sorted(findings, key=lambda f: (f.file or "", f.line if f.line is not None else -1,
                                                   f.sort_key())):
        groups.setdefault((finding.file, finding.sha256_prefix), []).append(finding)
    return [DocumentFindings(file, sha, found) for (file, sha), found in groups.items()]


def unattributed(report: AuditReport) -> list[Finding]:
    """The findings no catalogued system is named for (unattributed figures, unattached runs)."""
    return [f for f in report.findings if f.solution is NO_SOLUTION]


def audit_page(cat: Any) -> dict[str, Any]:
    """What audit.html shows: the summary `esrpdb audit` ends with, every cause, the unattributed findings.
    `cat` is data.Catalogue (findings, causes, solutions, names), not imported: data.py imports this module."""
    report = AuditReport([f for found in cat.findings.values() for f in found])
    return {"summary": report.summary(), "counts": report.counts(), "causes": cause_rows(cat.causes),
            "unattributed": by_document(unattributed(report)), "pages": {s["key"]: s["page"] for s in cat.solutions},
            "names": cat.names}
