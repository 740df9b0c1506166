"""ESRP's own figures per solution: log playback (soft recovery) and backup throughput.

The published ESRP catalogue ranked systems by how fast their storage replays transaction logs
against database read latency, within classes of mailbox count. These functions put those figures
on each solution's index row, so the charts and the table read one row per solution.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]
NO_CLASS = "no mailbox count"  # the legend's entry for a solution whose test design has no mailbox count


def attach_esrp_figures(solutions: list[Row], runs: dict[str, list[Row]], esrp_tests: list[Row]) -> None:
    """Add log replay, backup and read latency figures (None where the solution has none) to each row."""
    tests = {row["key"]: row for row in esrp_tests}
    for s in solutions:
        figures = tests.get(s["key"], {})
        s.update({column: figures.get(column) for column in ESRP_COLUMNS})
        run = next((r for r in runs.get(s["key"], []) if r["run_id"] == s.get("median_run_id")), None)
        s["median_read_latency_ms"] = None if run is None else run.get("db_read_latency_ms")


def attach_run_tests(runs: dict[str, list[Row]], backups: list[Row], replays: list[Row]) -> None:
    """Give each backup or checksum run its MB/s and each soft-recovery run its replay figures (keys
    `backup` and `replay`), so the runs table shows what those tests measured instead of IOPS."""
    backup_of = {row["run_id"]: row for row in backups}
    replay_of = {row["run_id"]: row for row in replays}
    for solution_runs in runs.values():
        for run in solution_runs:
            run["backup"], run["replay"] = backup_of.get(run["run_id"]), replay_of.get(run["run_id"])


ESRP_COLUMNS = ("logs_per_s_per_server", "backup_mb_per_s_per_database", "backup_mb_per_s_per_server")


def mailbox_class_of(solution: Row) -> str:
    return solution.get("mailbox_class") or NO_CLASS


def mailbox_classes(solutions: list[Row]) -> list[tuple[int, str]]:
    """(order, label) of every class some solution falls in: the index filter's options."""
    return sorted({(s["mailbox_class_order"], s["mailbox_class"]) for s in solutions
                   if s.get("mailbox_class_order") is not None})


def class_order(solutions: list[Row]) -> list[str]:
    """The mailbox classes present, smallest first, "no mailbox count" last: the legend's order."""
    unclassed = any(s.get("mailbox_class_order") is None for s in solutions)
    return [label for _, label in mailbox_classes(solutions)] + ([NO_CLASS] if unclassed else [])
