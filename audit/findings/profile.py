"""`profile_vs_target`: the mailbox profile a document states against the target its reports test.

Jetstress sets a test's target from the profile it is given: mailboxes x IOPS per mailbox. A
document that states "12,000 mailboxes at 0.2 IOPS each" and embeds reports whose targets add up to
another figure tested another profile than the one it describes (or misprints one of the two). The
target compared is the test's own: the sum over its hosts for a test on several hosts; one report
is one server of possibly several, so a target that is the design's divided by a whole number of
servers is no disagreement. One finding per system, naming every test that disagrees.
"""

from __future__ import annotations

import re

from ..gather import AuditData, RunInfo
from ..terms import MISMATCH, fmt
from .finding import Finding, evidence

_HEADROOM = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent)\s+(?:of\s+)?(?:headroom|growth|overhead|buffer)", re.IGNORECASE)
MAX_SERVERS = 64  # a report may be one server of up to this many
TOLERANCE_IOPS = 1.0  # Jetstress rounds its target to a whole IOPS


def _tests(data: AuditData, solution_id: int) -> list[RunInfo]:
    """The solution's Performance tests with a target: tests over hosts, and reports that are no host of one."""
    return [r for r in data.runs_of(solution_id) if r.report_type == "Performance"
            and r.row.get("target_iops") is not None and r.origin in ("hosts", "report")
            and r.row.get("test_run_id") is None]


def _agrees(target: float, implied: float, hosts: bool) -> bool:
    servers = [1] if hosts else range(1, MAX_SERVERS + 1)
    return any(abs(target * n - implied) <= TOLERANCE_IOPS * n for n in servers)


def _line(source: str | None, file_name: str | None) -> int | None:
    """The line the profile is stated on, when it is stated in the same file ("doc.txt line 33")."""
    match = re.fullmatch(r"(.*) line (\d+)", source or "")
    return int(match[2]) if match and file_name and match[1] == file_name else None


def _other_statement_agrees(data: AuditData, solution_id: int, design: dict, wrong: list[tuple[RunInfo, float]]) -> bool:
    """The document states the IOPS per mailbox twice and its other figure is the one the tests ran (the
    finding is that quantity stated twice, stated_twice.py), or the words add the headroom the tests ran."""
    mailboxes = design.get("mailbox_count")
    facts = [f for f in data.facts if f["solution_id"] == solution_id and f["fact"] == "iops_per_mailbox"
             and f["value_number"] is not None]
    stated = {float(f["value_number"]) for f in facts}
    stated.discard(float(design["iops_per_mailbox"]))
    # "0.10 IOPS per mailbox plus 20% headroom": the tests ran the profile with the headroom its words add
    stated |= {float(design["iops_per_mailbox"]) * (1 + float(m[1]) / 100) for f in facts
               for m in _HEADROOM.finditer(f["quote"] or "")}
    return bool(mailboxes) and any(all(_agrees(target, mailboxes * other, run.origin == "hosts") for run, target in wrong)
                                   for other in stated)


def profile_findings(data: AuditData) -> list[Finding]:
    """One finding per solution whose tests' targets disagree with its stated profile, naming each test."""
    out = []
    for solution_id, design in sorted(data.designs.items()):
        implied = design.get("implied_target_iops")
        if implied is None or solution_id not in data.solutions:
            continue
        wrong = [(run, float(run.row["target_iops"])) for run in _tests(data, solution_id)
                 if not _agrees(float(run.row["target_iops"]), float(implied), run.origin == "hosts")]
        if not wrong or _other_statement_agrees(data, solution_id, design, wrong):
            continue
        profile = (f"{design['mailbox_count']:,} mailboxes x {fmt(design['iops_per_mailbox'])} IOPS per mailbox "
                   f"= {fmt(implied)} IOPS")
        tested = "; ".join(
            f"{run.name}: its hosts' reports add up to a target of {fmt(target)} IOPS" if run.origin == "hosts" else
            f"{run.name}: its report's target is {fmt(target)} IOPS, no whole number of servers' share of that"
            for run, target in wrong)
        run, target = wrong[0]
        file = data.files.get(run.source_file_id)
        line = _line(design.get("mailbox_count_source"), file.name if file else None)
        out.append(Finding(
            solution=data.solutions[solution_id].key, other_solution=None, kind="profile_vs_target",
            metric="target_iops", verdict=MISMATCH, printed=fmt(target), recomputed=float(implied),
            relative_difference=(target - implied) / implied if implied else None,
            explanation=f"The document's profile ({design['mailbox_count_source']}) gives {profile}; {tested}: "
                        f"the tests ran another profile than the one stated, or one of the two is misprinted",
            inputs={"mailbox_count": design["mailbox_count"], "iops_per_mailbox": design["iops_per_mailbox"],
                    "targets": {r.name: t for r, t in wrong}},
            place="the stated mailbox profile" if line else f"{run.report_type} report ({run.name}), Test Summary",
            line=line or run.source_line, **evidence(data, run.source_file_id)))
    return out
