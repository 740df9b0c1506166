"""A test run on several hosts at once: one run (origin "hosts") over the runs of its host reports.

Vendors run one Jetstress test on several hosts (one report per host). A manifest names those
reports (`hosts = [0, 1, 2]`, report indexes in its document); this module makes the test's own
run, which the database gives its host reports' sums (refresh_run_figures, revision 0019), and
points each host report at it (`runs.test_run_id`). What the hosts agree on (report type, versions)
is the test's; where they differ it is left empty, except the verdict, which fails if any host
fails. The test is made again on every load, so loading a manifest twice gives one test (load/batch.py
writes it; this module reads the hosts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...schema.tables import RunRow
from ..errors import ParseError
from ..formats.manifest.records import RunSpec

# Copied to the test when every host report says the same.
SHARED_FIELDS = ("report_type", "product_title", "jetstress_version", "jetstress_release", "ese_version")


def host_reports(name: str, found: Sequence[tuple[RunRow, int]], run: RunSpec, where: str) -> list[RunRow]:
    """The runs of the reports `run.hosts` names, among `found` (run, report index) of its document."""
    by_index = {index: report for report, index in found}
    missing = [index for index in run.hosts if index not in by_index]
    if missing:
        printed = f"indexes 0–{len(found) - 1}" if found else "none"
        raise ParseError(name, f"no report {', '.join(map(str, missing))} in {run.document} (its reports: "
                         f"{printed})", section=f"{where}.hosts")
    reports = [by_index[index] for index in run.hosts]
    if len({report.report_type for report in reports}) > 1:
        kinds = ", ".join(f"{index}: {report.report_type}" for index, report in zip(run.hosts, reports))
        raise ParseError(name, f"the reports are of different types ({kinds}); the hosts of one test run "
                         "one test type", section=f"{where}.hosts")
    return reports


def _shared(reports: list[RunRow], field: str) -> Any:
    values = {getattr(report, field) for report in reports}
    return values.pop() if len(values) == 1 else None


def _verdict(reports: list[RunRow]) -> str | None:
    verdicts = [report.reported_verdict for report in reports]
    if "Fail" in verdicts:
        return "Fail"
    return "Pass" if all(verdict == "Pass" for verdict in verdicts) else None


def test_columns(reports: list[RunRow], run: RunSpec) -> dict[str, Any]:
    """The test's own columns from its host reports (its figures are the database's sums)."""
    targets = [report.target_iops for report in reports]
    starts = [report.test_start for report in reports if report.test_start is not None]
    ends = [report.test_end for report in reports if report.test_end is not None]
    return {
        **{field: _shared(reports, field) for field in SHARED_FIELDS},
        "origin": "hosts", "machine_name": None, "test_description": run.description,
        "test_start": min(starts, default=None), "test_end": max(ends, default=None),
        "target_iops": sum(t for t in targets if t is not None) if None not in targets else None,
        "reported_verdict": _verdict(reports),
    }
