-- title: Per-disk IOPS
-- description: Achieved, log and total IOPS of each run divided by its solution's disk count, on
--   both disk bases (all physical disks, active disks only); the basis is always shown.
--   A test run on several hosts at once is one run (its host reports' sums); its host reports have no row.
-- column disk_basis: all | active
-- column achieved_iops_per_disk: achieved IOPS per disk
-- column log_iops_per_disk: log writes per second per disk
-- column total_iops_per_disk: total IOPS per disk
-- Stored row for row at ingest (run_disk_figures, migration 0008).
CREATE OR REPLACE VIEW per_disk_iops AS
SELECT solution, trial, run_id, run_label, is_median_run, disk_basis, disk_count,
       achieved_iops, log_iops, total_iops,
       per_disk_achieved_iops AS achieved_iops_per_disk,
       per_disk_log_iops AS log_iops_per_disk,
       per_disk_total_iops AS total_iops_per_disk,
       iops_source
FROM run_disk_figures;
