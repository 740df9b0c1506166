"""The catalogue described in itself: a PostgreSQL COMMENT for every table, view and column.

An analyst in psql (`\\d+ runs`), a BI tool or `esrpdb schema` reads what a column holds, its
unit, its basis and the key to join on, from the database. The models take their comments from
here when they are declared (base.py), so the no-drift test holds the tables to these words;
revision 0020 wrote them from a frozen copy (migrations/comments_0020.py), and a change here is a
new revision, as a view's SQL is. Column words shared across tables live in column_words.py; a
column whose table gives its name another sense is in COLUMNS below.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .column_words import WORDS

if TYPE_CHECKING:
    from sqlalchemy import Table

TABLES: dict[str, str] = {
    "alembic_version": "The Alembic revision the schema is at (one row; esrpdb init migrates it to the newest).",
    "source_files": "Every ingested file, one row per SHA-256: loading a file twice changes nothing.",
    "solutions": "A tested storage solution (one per system a document tests, or per manifest): "
                 "capacity, list price, power. Join on solutions.id; the CLI takes solutions.key.",
    "disks": "A solution's disk groups: count, media, speed and role; per-disk figures divide by their sum on a basis.",
    "trials": "Repeated runs of one configuration (Run 1..3); the median run is chosen within one.",
    "run_assignments": "Runs moved to another solution after ingest (esrpdb assign): from, to, when and why.",
    "runs": "One Jetstress test execution: its solution, file, type, version, verdict, achieved and target IOPS, "
            "design and thresholds. Join on runs.id (run_id elsewhere).",
    "instances": "A run's ESE instances (2010+) or LogicalDisk volumes (2007), with their paths.",
    "latencies": "The I/O table: per run, instance and scope, latencies in ms, rates per second, sizes in bytes.",
    "host_counters": "A run's host counters as the report prints them (average, minimum, maximum in perfmon's own units).",
    "test_issues": "A 2013+ report's 'Test Issues' lines: one failed criterion each.",
    "log_events": "The test log lines a report prints, in order, with local times.",
    "report_fields": "Every label/value row of a report exactly as printed, so nothing it says is lost.",
    "ingest_warnings": "Something a file said that does not add up, or could not be read but was not needed.",
    "backup_stats": "DatabaseBackup and DBChecksum reports: per database, size (MB), seconds and MB per second.",
    "recovery_stats": "SoftRecovery reports: per database, logs replayed and seconds.",
    "run_published_values": "A run's figure as a document's result table prints it (its report may be unpublished).",
    "documents": "What a document says about itself: title, ESRP program version and tested date, each with its line.",
    "document_tables": "Tables a document prints outside its Jetstress reports, with caption and column headers.",
    "document_cells": "Every cell of a document table as printed, with its number where it is one.",
    "test_configs": "A JetstressConfig.xml: what the tester asked for (the report says what happened).",
    "config_instances": "The instances a JetstressConfig.xml defines, with their paths.",
    "config_thresholds": "The latency thresholds a JetstressConfig.xml sets per test type, ms.",
    "test_logs": "A Jetstress .log file: its span, event count and the thresholds it announced (ms).",
    "test_log_events": "Every event line of a Jetstress .log file.",
    "perf_files": "One perfmon export (relog CSV/TSV): machine, time zone and time span.",
    "perf_counters": "One column of a perfmon export: machine, object, instance and counter.",
    "perf_samples": "One perfmon sample: a counter's value at a time (UTC), in the counter's own unit.",
    "power_files": "A power analyser log: its run and time span.",
    "power_samples": "One power reading, watts, at the test machine's local time.",
    "run_power": "Idle and active power of a run, watts, from a power log or a manifest.",
    "claims": "A vendor's published figure, kept as printed with its place, for the audit to check against the data.",
    "mailbox_classes": "Classes of mailbox count that group like-sized systems (the owner may change the bounds).",
    "run_sources": "Every file that prints a run's report: one report is one run however often it is seen.",
    "solution_facts": "Facts read from a document for a provisional solution, each with its file and line.",
    "run_figures": "Per-run figures the canned views read, kept at commit: IOPS, median-run choice, I/O summary, "
                   "throughput.",
    "run_disk_figures": "Per-disk IOPS of each ranked run on both disk bases (what per_disk_iops shows).",
    "run_scope_latencies": "A run's instances aggregated per I/O scope, latencies in ms (what latency_summary shows).",
    "perf_counter_means": "Sum and counts of one linked perfmon counter's samples over its run's window.",
    "solution_disk_counts": "A solution's disk count on both bases: all disks and active disks only.",
    "run_figures_stale": "Runs written in the current transaction whose figures are recomputed at commit.",
    "solution_designs": "Each solution's test design and representative run, kept at commit: what test_designs, "
                        "representative_runs and mailbox_class_ranks read.",
    "solution_designs_stale": "Solutions written in the current transaction whose design is recomputed at commit.",
    "run_value_figures": "Each ranked run of a solution with a list price or a power figure, kept as it is written: "
                         "what iops_per_dollar, dollars_per_kiops and perf_per_watt read.",
    "mailbox_class_rank_rows": "The rows of mailbox_class_ranks, rebuilt once after a batch of writes: what the view "
                               "reads while mailbox_class_ranks_freshness says they are fresh.",
    "mailbox_class_ranks_freshness": "One row: writes that may change a class rank, counted, and the count "
                                     "mailbox_class_rank_rows was built at (equal: fresh).",
}

VIEWS: dict[str, str] = {
    "run_iops": "Achieved, log and total IOPS of every Performance or Stress run (total = achieved + log).",
    "median_runs": "Each trial's runs ranked by total IOPS, the median run marked, with the trial's range and spread.",
    "disk_counts": "Each solution's disk count on both bases: all physical disks and active disks only.",
    "per_disk_iops": "Achieved, log and total IOPS of each run per disk, on both disk bases (the basis always shown).",
    "run_throughput": "Disk throughput of each run, MB/s (2^20 bytes): from perfmon in the run's window, else a "
                      "document's table.",
    "throughput_per_disk": "Each run's disk throughput, MB/s, per disk on both disk bases.",
    "iops_per_dollar": "Total IOPS of each ranked run per unit of its solution's list price, and the price per "
                       "1,000 IOPS.",
    "dollars_per_kiops": "List price per 1,000 total IOPS of each ranked run, in the price's currency (lower is "
                         "better).",
    "mb_per_dollar": "Usable capacity in MB (2^20 bytes) per unit of list price.",
    "perf_per_watt": "Total IOPS of each ranked run per watt of average active power, with the power's boundary and "
                     "source.",
    "run_summary": "One line per run: what was tested, the verdict, IOPS, rates and latencies (ESRP 'Storage "
                   "Performance Results').",
    "latency_summary": "Per run and I/O scope: average, minimum and maximum latency over instances (ms) against "
                       "the thresholds.",
    "backup_throughput": "Database backup and checksum tests: MB/s read per database and per server, per run.",
    "log_replay": "Soft-recovery (log replay) tests: logs replayed per second per database and per server, per run.",
    "test_designs": "Each solution's test design: mailboxes, mailbox size, IOPS per mailbox, databases, ESRP version, "
                    "mailbox class.",
    "esrp_tests": "One line per solution: backup and checksum MB/s and log replay rates (averaged over its runs).",
    "representative_runs": "The one run that stands for each solution wherever one figure per solution is shown.",
    "mailbox_class_ranks": "Solutions ranked within their mailbox class by total IOPS, read latency and log replay.",
}

# Columns whose table gives their name another sense than column_words.py's.
COLUMNS: dict[str, dict[str, str]] = {
    "alembic_version": {"version_num": "The revision the schema is at (migrations/versions/)."},
    "source_files": {"id": "The file's id: join source_file_id elsewhere."},
    "solutions": {"id": "The solution's id: join solution_id elsewhere.",
                  "label": "The solution's name as its documents print it.",
                  "idle_power_w": "The solution's idle power, watts, as the manifest or its document states it.",
                  "active_power_w": "The solution's active power, watts, as the manifest or its document states "
                                    "it (perf_per_watt prefers a run's power log).",
                  "power_source": "Where the solution's power figures come from, as stated."},
    "disks": {"disk_count": "Disks in this group (all of one model and role).",
              "model": "The disk model."},
    "trials": {"id": "The trial's id: join trial_id elsewhere.", "label": "The trial's name.",
               "description": "What the trial's runs have in common."},
    "run_assignments": {"assigned_at": "When the run was moved (with time zone).",
                        "reason": "What was named to move it: a file or a run."},
    "runs": {"id": "The run's id: join run_id elsewhere.",
             "source_file_id": "The first file that prints the run (join source_files.id); run_sources lists all.",
             "source_line": "Line of its file where the report starts.",
             "solution_id": "The solution the run belongs to (join solutions.id).",
             "target_iops": "The report's target IOPS."},
    "instances": {"id": "The instance's id: join instance_id (with run_id) elsewhere.",
                  "name": "Instance or volume name as printed."},
    "host_counters": {"counter_name": "The host counter's name as printed (its unit is perfmon's)."},
    "test_issues": {"message": "The failed criterion as printed."},
    "report_fields": {"label": "The field's label as printed.", "value": "The field's value as printed."},
    "ingest_warnings": {"id": "The warning's id.", "message": "What does not add up, in words."},
    "backup_stats": {"database_size_mb": "The database's size, MB.", "elapsed_s": "Seconds the database took.",
                     "transfer_mb_per_s": "MB per second read from the database."},
    "recovery_stats": {"elapsed_s": "Seconds the database took to replay its logs."},
    "run_published_values": {"metric": "Which figure: achieved_iops, log_iops, total_iops, throughput_mb_per_s, "
                                       "rates, latencies or power.",
                             "value": "The figure as a number; unit by metric: IOPS, MB/s (2^20 bytes), ms or W.",
                             "row_labels": "The table rows it was read from (several when rows are added up)."},
    "documents": {"title": "The document's title as printed.", "title_line": "Line the title is printed on.",
                  "esrp_version_line": "Line the ESRP version is printed on.",
                  "tested_on_line": "Line the tested date is printed on.",
                  "page_start_lines": "Line each page of a PDF starts on, page 1 first (a line's page: the last "
                                      "start at or before it); NULL: not a PDF."},
    "document_tables": {"id": "The table's id: join table_id elsewhere.",
                        "kind": "A stable machine name for what the table holds, e.g. results_by_run.",
                        "title": "The table's caption or heading as printed.",
                        "columns": "The column headers as printed.",
                        "stub": "The header row's label cell, when printed.",
                        "source_line": "Line of its file where the table starts."},
    "document_cells": {"row_ordinal": "The cell's row, in printed order.",
                       "column_ordinal": "The cell's column, in printed order.",
                       "row_label": "The row's label cell as printed.",
                       "column_label": "The column's header as printed."},
    "test_configs": {"run_id": "The run it configured (join runs.id); NULL until linked.",
                     "test_type": "The test type asked for.", "duration_iso": "Test duration as written (ISO 8601).",
                     "duration_s": "Test duration, seconds.", "mailbox_quota_mb": "Mailbox size (quota), MB.",
                     "iops_margin_percent": "How far below target achieved IOPS may fall, percent (2013+).",
                     "database_copy_count": "Copies of each database.", "target_iops": "The target IOPS asked for.",
                     "log_interval_ms": "Counter logging interval, ms.",
                     "settings": "Every element of the file, as parsed (JSON)."},
    "config_instances": {"source_file_id": "The JetstressConfig.xml (join test_configs.source_file_id).",
                         "iops_bias": "The instance's IOPS bias.",
                         "database_backup_path": "Database backup path."},
    "config_thresholds": {"source_file_id": "The JetstressConfig.xml (join test_configs.source_file_id).",
                          "name": "The threshold set's name, e.g. Strict or Lenient.",
                          "test_run_types": "The test types the set applies to.",
                          "db_read_avg_ms": "Average database read latency limit, ms.",
                          "db_read_max_ms": "Maximum database read latency limit, ms.",
                          "log_write_avg_ms": "Average log write latency limit, ms.",
                          "log_write_max_ms": "Maximum log write latency limit, ms."},
    "test_logs": {"run_id": "The run it logged (join runs.id); NULL until linked.",
                  "first_event_at": "First event: local time, as printed.", "last_event_at": "Last event: local time.",
                  "event_count": "Events in the log.",
                  "threshold_db_read_avg_ms": "Average database read latency limit the log announced, ms.",
                  "threshold_db_read_max_ms": "Maximum database read latency limit the log announced, ms.",
                  "threshold_log_write_avg_ms": "Average log write latency limit the log announced, ms.",
                  "threshold_log_write_max_ms": "Maximum log write latency limit the log announced, ms."},
    "test_log_events": {"source_file_id": "The .log file (join test_logs.source_file_id)."},
    "perf_files": {"run_id": "The run the export belongs to (join runs.id); NULL until linked.",
                   "machine": "The machine the counters were collected on.",
                   "time_zone_name": "The export's time zone as its banner names it.",
                   "bias_minutes": "The zone's bias, minutes: UTC = local + bias.",
                   "assumed_utc": "True: the banner names no zone and UTC was assumed.",
                   "first_sample_at": "First sample, UTC.", "last_sample_at": "Last sample, UTC.",
                   "row_count": "Sample rows in the export."},
    "perf_counters": {"id": "The counter's id: join counter_id elsewhere.",
                      "run_id": "The run its export belongs to (join runs.id); NULL until linked.",
                      "column_index": "The counter's column in the export.",
                      "machine": "The machine of the counter path.", "object_name": "Perfmon object, e.g. LogicalDisk.",
                      "instance_name": "Perfmon instance, e.g. _Total.", "counter_name": "Perfmon counter name.",
                      "counter_path": "The full counter path as printed in the header."},
    "perf_samples": {"source_file_id": "The export (join perf_files.source_file_id); no foreign key, for load speed.",
                     "sampled_at": "Sample time, UTC.",
                     "value": "The counter's value in its own unit; NULL where perfmon wrote a blank sample."},
    "power_files": {"run_id": "The run it measured (join runs.id); NULL until linked.",
                    "first_sample_at": "First reading: local time.", "last_sample_at": "Last reading: local time.",
                    "sample_count": "Readings in the log."},
    "power_samples": {"source_file_id": "The power log (join power_files.source_file_id); no foreign key, for load "
                                        "speed.",
                      "sampled_at": "Reading time: local wall-clock time, like the report beside it.",
                      "power_w": "Power, watts."},
    "run_power": {"source_file_id": "The power log it was measured from (join source_files.id); NULL: a manifest.",
                  "idle_power_w": "Average power in the idle window before the run, watts.",
                  "active_power_w": "Average power during the run, watts.",
                  "boundary": "What the power covers: enclosure_and_drives, drives_only or system."},
    "claims": {"id": "The claim's id.", "source_file_id": "The document the figure is printed in (join source_files.id).",
               "solution_id": "The solution the figure is about (join solutions.id).",
               "run_id": "The run the figure is about, when it names one (join runs.id).",
               "subject": "What the figure is about: solution, run or comparison.",
               "metric": "What the figure measures (schema/vocabulary.py METRICS), or percent_more:<metric> for a "
                         "comparison.",
               "other_metric": "For a comparison between two metrics: the other one.",
               "other_value_printed": "The other side of a comparison as the document prints it, for a design the "
                                      "catalogue does not hold; NULL: the other side is a solution of the catalogue.",
               "disk_basis": "For a per-disk figure: the disks the document divides by, all or active.",
               "qualifier": "A word that bounds the figure: approximately, nearly, up_to, over, under."},
    "mailbox_classes": {"class_ordinal": "The class's order, smallest first.",
                        "label": "The class's name, e.g. 'up to 1,000 mailboxes'.",
                        "min_mailbox_count": "Lowest mailbox count in the class.",
                        "max_mailbox_count": "Highest mailbox count in the class; NULL: no upper bound."},
    "run_sources": {"source_file_id": "A file that prints the run's report (join source_files.id).",
                    "report_index": "Which report of that file it is (0 for the first).",
                    "source_line": "Line of that file where the report starts."},
    "solution_facts": {"fact": "Which fact: disk_count, media, usable_capacity, raid_level, mailboxes, ...",
                       "value_number": "The printed value as a number, in unit.",
                       "source_file_id": "The document it was read from (join source_files.id)."},
    "run_figures": {"solution_id": "The run's solution (join solutions.id), copied so views read one table.",
                    "reported_verdict": "The report's own verdict: Pass or Fail."},
    "run_disk_figures": {"disk_count": "Disks on disk_basis the figures divide by."},
    "perf_counter_means": {"sample_window": "Which samples the sums cover: run (inside the run's window) or export "
                                            "(all: the run has no window or no sample in it).",
                           "run_window_start_at": "The run's window start in UTC the sums were computed against.",
                           "run_window_end_at": "The run's window end in UTC.",
                           "sample_count": "Samples in sample_window, blank ones included.",
                           "value_count": "Non-blank samples in sample_window.",
                           "value_sum": "Sum of the values, in the counter's own unit (mean = value_sum / value_count)."},
    "run_figures_stale": {"run_id": "A run to refresh at commit (no foreign key: the run may be gone)."},
    "solution_designs": {
        "solution": "The solution's key (solutions.key), copied so that a filter by key reads this table alone.",
        "mailbox_count_source": "File and line the count is printed on (or the JetstressConfig.xml).",
        "mailbox_size_mb": "Mailbox size (quota), MB.",
        "database_count": "Databases in the test.",
        "database_copy_count": "Copies of each database: the most any of the solution's runs reports.",
        "esrp_version_source": "File and line the ESRP version is printed on.",
        "representative_run_id": "The run that stands for the solution (join runs.id; representative_runs); NULL: "
                                 "no ranked run.",
        "run_label": "The representative run's name as printed.",
        "trial": "The representative run's trial label; NULL: a run outside any trial.",
        "trial_run_count": "Runs in the representative run's trial.",
        "jetstress_release": "The representative run's Jetstress release year.",
        "report_type": "The representative run's test type: Performance or Stress.",
        "total_iops": "The representative run's total IOPS (achieved + log).",
        "db_read_latency_ms": "The representative run's average database read latency, ms."},
    "solution_designs_stale": {"xact_id": "The transaction that wrote it (pg_current_xact_id()): the one that "
                                          "refreshes it at commit.",
                               "solution_id": "A solution to refresh at commit (no foreign key: it may be gone)."},
    "run_value_figures": {
        "solution": "The solution's key (solutions.key), copied so that a filter by key reads this table alone.",
        "is_median_run": "True for the run whose total IOPS is its trial's median.",
        "list_price_amount": "The solution's list price, in list_price_currency; NULL: no price (a per-watt row).",
        "list_price_currency": "ISO 4217 currency of the solution's price (e.g. USD).",
        "list_price_type": "What kind of price the solution's is: list, reseller or street.",
        "active_power_w": "Average active power, watts: the run's power log's, else its document table's, else the "
                          "solution's; NULL: no power figure (a per-dollar row).",
        "idle_power_w": "Average idle power, watts, from the same place as active_power_w where it gives one.",
        "power_boundary": "What the power covers: the power log's boundary, else the solution's.",
        "power_source": "Where active_power_w comes from: power_log, document_table or manifest."},
    "mailbox_class_rank_rows": {"solution": "The solution's key (solutions.key)."},  # the view's other words below
    "mailbox_class_ranks_freshness": {
        "one_row": "Always true: the table has one row.",
        "write_count": "Transactions so far that wrote what a class rank reads (designs, class bounds, log replay).",
        "built_write_count": "write_count when mailbox_class_rank_rows was last rebuilt; equal to it: the rows are "
                             "fresh."},
    # views
    "disk_counts": {"disk_count": "Disks on disk_basis."},
    "per_disk_iops": {"disk_count": "Disks on disk_basis the figures divide by."},
    "throughput_per_disk": {"disk_count": "Disks on disk_basis the throughput divides by.",
                            "trial": "The trial's label, for a ranked run; NULL otherwise."},
    "perf_per_watt": {"active_power_w": "Average active power, watts: the run's power log, else its document's "
                                        "table, else the solution's.",
                      "idle_power_w": "Average idle power, watts, from the same source.",
                      "power_source": "power_log, document_table or manifest."},
    "backup_throughput": {"database_count": "Databases (instances) the report lists.",
                          "database_size_mb": "The databases' sizes added up, MB.",
                          "elapsed_s": "The longest database's elapsed seconds."},
    "log_replay": {"database_count": "Databases that replayed logs.",
                   "elapsed_s": "The databases' replay seconds added up."},
    "test_designs": {"mailbox_count_source": "File and line the count is printed on (or the JetstressConfig.xml).",
                     "mailbox_size_mb": "Mailbox size (quota), MB.",
                     "database_count": "Databases in the test.",
                     "implied_target_iops": "mailbox_count x iops_per_mailbox: the Jetstress target.",
                     "database_copies": "Copies of each database (the reports' 'Number of Copies per Database').",
                     "esrp_version_source": "File and line the ESRP version is printed on."},
    "representative_runs": {"run_id": "The run that stands for the solution (join runs.id).",
                            "trial": "Its trial's label; NULL: a run outside any trial."},
    "mailbox_class_ranks": {"run_id": "The solution's representative run (join runs.id).",
                            "total_iops": "The representative run's total IOPS.",
                            "total_iops_rank": "Rank in the class by total IOPS, highest first (1 = best).",
                            "db_read_latency_ms": "The representative run's average database read latency, ms.",
                            "db_read_latency_rank": "Rank in the class by read latency, lowest first.",
                            "logs_per_s_per_server": "Log replay rate, logs per second per server (esrp_tests).",
                            "log_replay_rank": "Rank in the class by log replay rate, highest first.",
                            "like_for_like": "True when every solution in the class ran the same release, test type "
                                             "and IOPS per mailbox."},
    "run_summary": {"log_writes_per_s": "Log writes per second (= log_iops).",
                    "db_read_latency_ms": "Average over database instances (volumes in 2007) of the read latency, ms."},
}


QUERIES = Path(__file__).resolve().parents[1] / "queries"
_META = re.compile(r"^--\s*(title|description|column\s+(\w+))\s*:\s*(.*)$")


def view_header_words(name: str, folder: Path = QUERIES) -> tuple[str | None, dict[str, str]] | None:
    """A canned view newer than VIEWS: (its description, else its title; each column's note) from its
    file's comment block, as the revision that created it wrote them (migrations/view_words.py reads
    the frozen copy the same way); None when `name` is described above or has no such file."""
    path = folder / f"{name}.sql"
    if name in TABLES or name in VIEWS or not path.is_file():
        return None
    return header_words(path)


def header_words(path: Path) -> tuple[str | None, dict[str, str]] | None:
    """(description, else title; each column's note) of a canned view's file; None: no title or description."""
    title = description = current = None
    columns: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("--"):
            break
        match = _META.match(line)
        if match:
            key, column, value = match.groups()
            current = None
            if column:
                columns[column] = value.strip()
            elif key == "title":
                title = value.strip()
            else:
                description, current = value.strip(), "description"
        elif current == "description" and description is not None:
            description += " " + line.lstrip("- ").strip()
    return (description or title, columns) if description or title else None


def relation_comment(name: str) -> str | None:
    """The one-line comment of a table or view; None for one this module does not describe. A canned view
    VIEWS does not name has its file's own words (view_header_words)."""
    header = view_header_words(name)
    return TABLES.get(name) or VIEWS.get(name) or (header[0] if header else None)


def column_comment(relation: str, column: str) -> str | None:
    """What `relation.column` holds, its unit and basis; None for a column no word describes."""
    header = view_header_words(relation)
    if header is not None:  # a newer canned view: its file's notes alone, as its revision wrote them
        return header[1].get(column)
    found = COLUMNS.get(relation, {}).get(column)
    if found is None and relation == "mailbox_class_rank_rows":  # the view's rows: the view's words
        found = COLUMNS["mailbox_class_ranks"].get(column)
    return found or WORDS.get(column)


def describe(table: Table) -> None:
    """Give a model's table and columns their comments (Base calls it as each model is declared)."""
    table.comment = relation_comment(table.name)
    for column in table.columns:
        column.comment = column_comment(table.name, column.name)
