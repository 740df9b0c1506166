"""The site's reads: bulk SQL over the canned views, one statement per kind of row.

A 10,000-solution catalogue must build in under a minute, so every page's data is read in a
few set-based statements and grouped in Python, never one query per solution. Each solution is
represented by one run, the one the view `representative_runs` names (the median run of its
largest trial, a Performance test first), as `esrpdb compare` and the mailbox classes take it.
"""

# The run that stands for each solution (the view representative_runs, as compare and the classes read it).
MEDIAN_RUNS = """
SELECT m.solution_id, m.run_id, m.trial_id, m.trial, m.run_label, m.achieved_iops, m.log_iops, m.total_iops,
       m.spread_percent, m.runs_in_trial, m.iops_source
FROM median_runs m JOIN representative_runs p ON p.run_id = m.run_id
"""

# The canned metrics of median runs, each view read once (joining the views to each other makes
# PostgreSQL recompute them per row: minutes for 10,000 solutions).
PER_DISK = """
SELECT run_id, disk_basis, disk_count, achieved_iops_per_disk, total_iops_per_disk
FROM per_disk_iops WHERE is_median_run
"""
IOPS_PER_DOLLAR = "SELECT run_id, total_iops_per_price_unit FROM iops_per_dollar WHERE is_median_run"
PERF_PER_WATT = """
SELECT run_id, total_iops_per_w, power_boundary, power_source, active_power_w FROM perf_per_watt WHERE is_median_run
"""
MB_PER_DOLLAR = "SELECT solution AS key, usable_mb_per_price_unit FROM mb_per_dollar"
DISK_COUNTS = "SELECT solution_id, disk_basis, disk_count FROM disk_counts"

# Identity and disks: one row per solution.
SOLUTIONS = """
SELECT s.id AS solution_id, s.key, s.vendor, s.model, s.label, s.connectivity, s.raid_level,
       s.list_price_currency, s.list_price_amount, s.usable_capacity_bytes, s.provisional,
       string_agg(DISTINCT d.media, ', ' ORDER BY d.media) AS media
FROM solutions s LEFT JOIN disks d ON d.solution_id = s.id
GROUP BY s.id ORDER BY s.key
"""

# What test each run is: the representative run's, else its trial's, else the solution's first.
RUN_TESTS = """
SELECT id AS run_id, solution_id, trial_id, jetstress_release, jetstress_version, report_type
FROM runs WHERE solution_id IS NOT NULL ORDER BY id
"""
# The test design (mailbox count from the document's printed figures or JetstressConfig.xml, and its class).
TEST_DESIGNS = """
SELECT solution_id, mailbox_count, mailbox_count_source, mailbox_size_mb, iops_per_mailbox, database_count,
       mailbox_class, mailbox_class_order
FROM test_designs
"""

# ESRP's other tests per solution, as compare and the mailbox classes read them (the view esrp_tests:
# a solution's runs of one test averaged; backup, not the checksum test, for the backup figures).
ESRP_TESTS = """
SELECT solution AS key, logs_per_s_per_server, backup_mb_per_s_per_database, backup_mb_per_s_per_server
FROM esrp_tests
"""

# ESRP's other tests run by run, as the canned queries backup-throughput and log-replay print them:
# the runs table shows them where a Performance run shows its IOPS.
BACKUP_RUNS = """
SELECT run_id, database_count, mb_per_s_per_database, mb_per_s_per_server, database_size_mb, elapsed_s
FROM backup_throughput
"""
LOG_REPLAY_RUNS = """
SELECT run_id, database_count, logs_replayed, elapsed_s, seconds_per_log, logs_per_s_per_server
FROM log_replay
"""

SOLUTION_DETAILS = """
SELECT id AS solution_id, usable_capacity_printed, list_price_year, list_price_type, list_price_includes,
       list_price_source, idle_power_w, active_power_w, power_boundary, power_source, notes
FROM solutions
"""

DISKS = """
SELECT solution_id, disk_count, model, media, speed_rpm, raw_capacity_bytes, interface, firmware, role
FROM disks ORDER BY solution_id, id
"""

# Every run of every solution, with its IOPS, trial rank and spread when it has them.
RUNS = """
SELECT r.solution_id, rs.run_id, rs.trial, rs.run_label, rs.report_type, rs.jetstress_release, rs.machine_name,
       rs.test_start, rs.verdict, rs.achieved_iops, rs.log_iops, rs.total_iops, rs.target_iops,
       rs.db_read_latency_ms, rs.log_write_latency_ms, rs.iops_source,
       m.is_median_run, m.rank_in_trial, m.runs_in_trial, m.trial_min_total_iops, m.trial_max_total_iops,
       m.spread_percent, f.file_name AS source_file, r.source_line,
       rp.active_power_w AS measured_active_power_w, rp.idle_power_w AS measured_idle_power_w
FROM run_summary rs
JOIN runs r ON r.id = rs.run_id
JOIN source_files f ON f.id = r.source_file_id
LEFT JOIN median_runs m ON m.run_id = rs.run_id
LEFT JOIN run_power rp ON rp.run_id = rs.run_id
WHERE r.solution_id IS NOT NULL
ORDER BY r.solution_id, rs.trial NULLS LAST, rs.run_label NULLS LAST, rs.run_id
"""

LATENCIES = """
SELECT r.solution_id, ls.run_id, ls.run_label, ls.scope, ls.instance_rows, ls.avg_db_read_latency_ms,
       ls.max_db_read_latency_ms, ls.avg_db_write_latency_ms, ls.avg_log_write_latency_ms,
       ls.max_log_write_latency_ms, ls.threshold_db_read_avg_ms, ls.threshold_log_write_avg_ms,
       ls.instances_over_read_threshold, ls.instances_over_log_threshold
FROM latency_summary ls
JOIN runs r ON r.id = ls.run_id
WHERE r.solution_id IS NOT NULL
ORDER BY r.solution_id, ls.run_id, ls.scope
"""

# Read latency against log-write latency of every run that has both (the site keeps median runs).
LATENCY_POINTS = """
SELECT run_id, db_read_latency_ms, log_write_latency_ms
FROM run_summary
WHERE db_read_latency_ms IS NOT NULL AND log_write_latency_ms IS NOT NULL
"""

# Pairs of solutions the documents compare (claims with another solution): static compare pages.
CLAIMED_PAIRS = """
SELECT DISTINCT a.key AS a, b.key AS b
FROM claims c JOIN solutions a ON a.id = c.solution_id JOIN solutions b ON b.id = c.other_solution_id
ORDER BY a.key, b.key
"""

# Ranks within mailbox classes (the canned view's own ranks and like-for-like flag), and the bounds.
MAILBOX_CLASS_RANKS = """
SELECT solution AS key, mailbox_class, mailbox_class_order, mailbox_count, jetstress_release, report_type,
       iops_per_mailbox, total_iops, total_iops_rank, db_read_latency_ms, db_read_latency_rank,
       logs_per_s_per_server, log_replay_rank, like_for_like
FROM mailbox_class_ranks ORDER BY mailbox_class_order, total_iops_rank NULLS LAST, solution
"""
MAILBOX_CLASSES = """
SELECT class_ordinal, label, min_mailbox_count, max_mailbox_count FROM mailbox_classes ORDER BY class_ordinal
"""
