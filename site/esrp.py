"""ESRP's own figures per solution: log playback (soft recovery) and backup throughput.

The published ESRP catalogue ranked systems by how fast their storage replays transaction logs
against database read latency, within classes of mailbox count. These functions put those figures
on each solution's index row, so the charts and the table read one row per solution.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]
NO_CLASS = "no mailbox count"  # the legend's entry for a solution whose test design has no mailbox count


def first_per_solution(rows: list[Row]) -> dict[int, Row]:
    """The first row per solution_id (rows come ordered by run id: a solution's first such test)."""
    out: dict[int, Row] = {}
    for row in rows:
        out.setdefault(row["solution_id"], row)
    return out


def median_read_latency_ms(solution: Row, runs: list[Row]) -> float | None:
    """Database read latency of the run the site shows for the solution (its median Performance run)."""
    run = next((r for r in runs if r["run_id"] == solution.get("median_run_id")), None)
    return None if run is None else run.get("db_read_latency_ms")


def attach_esrp_figures(solutions: list[Row], runs: dict[str, list[Row]], log_replay: list[Row],
                        backup: list[Row]) -> None:
    """Add log replay, backup and read latency figures (None where the solution has none) to each row."""
    replay, backed = first_per_solution(log_replay), first_per_solution(backup)
    for s in solutions:
        r, b = replay.get(s["solution_id"], {}), backed.get(s["solution_id"], {})
        s.update(logs_per_s_per_server=r.get("logs_per_s_per_server"), log_replay_run_label=r.get("run_label"),
                 log_replay_database_count=r.get("database_count"),
                 backup_mb_per_s_per_database=b.get("mb_per_s_per_database"),
                 backup_mb_per_s_per_server=b.get("mb_per_s_per_server"), backup_run_label=b.get("run_label"),
                 backup_database_count=b.get("database_count"),
                 median_read_latency_ms=median_read_latency_ms(s, runs.get(s["key"], [])))


def mailbox_class_of(solution: Row) -> str:
    return solution.get("mailbox_class") or NO_CLASS


def class_order(solutions: list[Row]) -> list[str]:
    """The mailbox classes present, smallest first, "no mailbox count" last: the legend's order."""
    present = {(s.get("mailbox_class_order") or 10**6, mailbox_class_of(s)) for s in solutions}
    return [label for _, label in sorted(present)]


def mailbox_classes(solutions: list[Row]) -> list[tuple[int, str]]:
    """(order, label) of every class some solution falls in: the index filter's options."""
    return sorted({(s["mailbox_class_order"], s["mailbox_class"]) for s in solutions
                   if s.get("mailbox_class_order") is not None})
