-- title: Throughput per disk
-- description: Disk throughput of each run (MB/s, MB = 2^20 bytes) divided by its solution's
--   disk count on both bases. The row says whether the throughput comes from perfmon samples or
--   from the document's own table.
-- column transfer_mb_per_s_per_disk: MB per second per disk
CREATE OR REPLACE VIEW throughput_per_disk AS
SELECT t.solution, m.trial, t.run_id, t.run_label, m.is_median_run, dc.disk_basis, dc.disk_count,
       t.transfer_mb_per_s, t.transfer_mb_per_s / NULLIF(dc.disk_count, 0) AS transfer_mb_per_s_per_disk,
       t.read_mb_per_s, t.write_mb_per_s, t.disk_transfers_per_s, t.throughput_source
FROM run_throughput t
JOIN disk_counts dc ON dc.solution_id = t.solution_id
LEFT JOIN median_runs m ON m.run_id = t.run_id;
