-- title: Per-disk IOPS
-- description: Achieved, log and total IOPS of each run divided by its solution's disk count, on
--   both disk bases (all physical disks, active disks only); the basis is always shown.
-- column disk_basis: all | active
-- column achieved_iops_per_disk: achieved IOPS per disk
-- column log_iops_per_disk: log writes per second per disk
-- column total_iops_per_disk: total IOPS per disk
CREATE OR REPLACE VIEW per_disk_iops AS
SELECT m.solution, m.trial, m.run_id, m.run_label, m.is_median_run, dc.disk_basis, dc.disk_count,
       m.achieved_iops, m.log_iops, m.total_iops,
       m.achieved_iops / NULLIF(dc.disk_count, 0) AS achieved_iops_per_disk,
       m.log_iops / NULLIF(dc.disk_count, 0) AS log_iops_per_disk,
       m.total_iops / NULLIF(dc.disk_count, 0) AS total_iops_per_disk,
       m.iops_source
FROM median_runs m
JOIN disk_counts dc ON dc.solution_id = m.solution_id;
