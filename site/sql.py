"""The site's reads: bulk SQL over the canned views, one statement per kind of row.

A 10,000-solution catalogue must build in under a minute, so every page's data is read in a
few set-based statements and grouped in Python, never one query per solution. Each solution is
represented by one median run: the median run of its first trial, or, for a solution whose runs
stand outside any trial (each its own trial of one), its first run. `esrpdb compare` takes the
first row a view returns instead, which for such a solution can be another run per metric (see
docs/site.md); the site shows one run per solution throughout.
"""

MEDIAN_RUN = """
SELECT DISTINCT ON (m.solution_id) m.solution_id, m.run_id, m.trial_id
FROM median_runs m
WHERE m.is_median_run AND m.solution_id IS NOT NULL
ORDER BY m.solution_id, m.trial_id IS NULL, m.trial_id, m.run_id
"""

# One row per solution: identity, disks, the median run's figures and the test it comes from.
SOLUTIONS = f"""
WITH med AS ({MEDIAN_RUN}),
media AS (
    SELECT solution_id, string_agg(DISTINCT media, ', ' ORDER BY media) AS media FROM disks GROUP BY solution_id
),
ver AS (
    SELECT DISTINCT ON (r.solution_id) r.solution_id, r.jetstress_release, r.jetstress_version
    FROM runs r
    LEFT JOIN med ON med.solution_id = r.solution_id
    WHERE r.jetstress_release IS NOT NULL AND r.solution_id IS NOT NULL
    ORDER BY r.solution_id, r.id = med.run_id DESC NULLS LAST,
             r.trial_id IS NOT DISTINCT FROM med.trial_id DESC, r.id
),
cfg AS (
    SELECT DISTINCT ON (r.solution_id) r.solution_id, c.mailbox_count, c.iops_per_mailbox
    FROM test_configs c
    JOIN runs r ON r.id = c.run_id
    LEFT JOIN med ON med.solution_id = r.solution_id
    ORDER BY r.solution_id, r.id = med.run_id DESC NULLS LAST, r.id
)
SELECT s.id AS solution_id, s.key, s.vendor, s.model, s.label, s.connectivity, s.raid_level,
       media.media, dca.disk_count AS disk_count_all, dcx.disk_count AS disk_count_active,
       ver.jetstress_release, ver.jetstress_version, mr.report_type AS test_type,
       cfg.mailbox_count, cfg.iops_per_mailbox,
       med.run_id AS median_run_id, m.trial AS median_trial, m.run_label AS median_run_label,
       m.achieved_iops, m.log_iops, m.total_iops, m.spread_percent, m.runs_in_trial, m.iops_source,
       pa.achieved_iops_per_disk, pa.total_iops_per_disk, px.achieved_iops_per_disk AS achieved_iops_per_active_disk,
       ipd.total_iops_per_price_unit, s.list_price_currency, s.list_price_amount,
       mpd.usable_mb_per_price_unit, s.usable_capacity_bytes,
       ppw.total_iops_per_w, ppw.power_boundary, ppw.power_source, ppw.active_power_w
FROM solutions s
LEFT JOIN med ON med.solution_id = s.id
LEFT JOIN median_runs m ON m.run_id = med.run_id
LEFT JOIN runs mr ON mr.id = med.run_id
LEFT JOIN media ON media.solution_id = s.id
LEFT JOIN disk_counts dca ON dca.solution_id = s.id AND dca.disk_basis = 'all'
LEFT JOIN disk_counts dcx ON dcx.solution_id = s.id AND dcx.disk_basis = 'active'
LEFT JOIN ver ON ver.solution_id = s.id
LEFT JOIN cfg ON cfg.solution_id = s.id
LEFT JOIN per_disk_iops pa ON pa.run_id = med.run_id AND pa.disk_basis = 'all'
LEFT JOIN per_disk_iops px ON px.run_id = med.run_id AND px.disk_basis = 'active'
LEFT JOIN iops_per_dollar ipd ON ipd.run_id = med.run_id
LEFT JOIN mb_per_dollar mpd ON mpd.solution = s.key
LEFT JOIN perf_per_watt ppw ON ppw.run_id = med.run_id
ORDER BY s.key
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

# Read latency against log-write latency: each solution's median run, when its report has both.
LATENCY_POINTS = f"""
WITH med AS ({MEDIAN_RUN})
SELECT s.key, rs.run_id, rs.run_label, rs.db_read_latency_ms, rs.log_write_latency_ms, rs.jetstress_release,
       rs.report_type
FROM med
JOIN solutions s ON s.id = med.solution_id
JOIN run_summary rs ON rs.run_id = med.run_id
WHERE rs.db_read_latency_ms IS NOT NULL AND rs.log_write_latency_ms IS NOT NULL
ORDER BY s.key
"""

# Pairs of solutions the documents compare (claims with another solution): static compare pages.
CLAIMED_PAIRS = """
SELECT DISTINCT a.key AS a, b.key AS b
FROM claims c JOIN solutions a ON a.id = c.solution_id JOIN solutions b ON b.id = c.other_solution_id
ORDER BY a.key, b.key
"""
