-- title: Throughput per disk
-- description: Disk throughput of each run (MB/s, MB = 2^20 bytes) divided by its solution's
--   disk count on both bases. The row says whether the throughput comes from perfmon samples
--   (averaged over the run's window, as in run-throughput) or from the document's own table.
-- column transfer_mb_per_s_per_disk: MB per second per disk
-- Throughput and disk counts as stored at ingest (run_figures, solution_disk_counts).
CREATE OR REPLACE VIEW throughput_per_disk AS
SELECT t.solution, CASE WHEN t.trial_rank_ordinal IS NOT NULL THEN t.trial END AS trial, t.run_id, t.run_label,
       t.is_median_run, b.disk_basis, dc.disk_count,
       t.transfer_mb_per_s, t.transfer_mb_per_s / NULLIF(dc.disk_count, 0) AS transfer_mb_per_s_per_disk,
       t.read_mb_per_s, t.write_mb_per_s, t.disk_transfers_per_s, t.throughput_source
FROM run_figures t
JOIN solution_disk_counts c ON c.solution_id = t.solution_id
CROSS JOIN (VALUES ('all'), ('active')) AS b(disk_basis)
CROSS JOIN LATERAL (SELECT (CASE b.disk_basis WHEN 'all' THEN c.all_disk_count
                                             ELSE c.active_disk_count END)::int AS disk_count) AS dc
WHERE t.throughput_source IS NOT NULL;
