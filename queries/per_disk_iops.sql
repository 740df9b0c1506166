-- title: Per-disk IOPS
-- description: Achieved, log and total IOPS of each run divided by its solution's disk count, on
--   both disk bases (all physical disks, active disks only); the basis is always shown.
-- column disk_basis: all | active
-- column achieved_iops_per_disk: achieved IOPS per disk
-- column log_iops_per_disk: log writes per second per disk
-- column total_iops_per_disk: total IOPS per disk
-- Median runs and disk counts as stored at ingest (run_figures, solution_disk_counts).
CREATE OR REPLACE VIEW per_disk_iops AS
SELECT m.solution, m.trial, m.run_id, m.run_label, m.is_median_run, b.disk_basis, dc.disk_count,
       m.achieved_iops, m.log_iops, m.total_iops,
       m.achieved_iops / NULLIF(dc.disk_count, 0) AS achieved_iops_per_disk,
       m.log_iops / NULLIF(dc.disk_count, 0) AS log_iops_per_disk,
       m.total_iops / NULLIF(dc.disk_count, 0) AS total_iops_per_disk,
       CASE WHEN m.origin = 'report' THEN 'report' ELSE 'document_table' END AS iops_source
FROM run_figures m
JOIN solution_disk_counts c ON c.solution_id = m.solution_id
CROSS JOIN (VALUES ('all'), ('active')) AS b(disk_basis)
CROSS JOIN LATERAL (SELECT (CASE b.disk_basis WHEN 'all' THEN c.all_disk_count
                                             ELSE c.active_disk_count END)::int AS disk_count) AS dc
WHERE m.trial_rank_ordinal IS NOT NULL;
