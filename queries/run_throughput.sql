-- title: Run throughput
-- description: Disk throughput of each run: from the perfmon samples linked to the run when it
--   has them (LogicalDisk(_Total) counters averaged over the export), else as a document's result
--   table prints it. MB = 2^20 bytes.
-- column transfer_mb_per_s: disk read + write megabytes per second
-- column throughput_source: perfmon or document_table
-- Counter means and throughput are stored per run at ingest (run_figures, perf_counter_means).
CREATE OR REPLACE VIEW run_throughput AS
SELECT r.id AS run_id, s.key AS solution, r.run_label,
       f.disk_transfers_per_s, f.read_mb_per_s, f.write_mb_per_s, f.transfer_mb_per_s,
       f.read_latency_ms, f.write_latency_ms, f.throughput_source,
       r.solution_id
FROM run_figures f
JOIN runs r ON r.id = f.run_id
LEFT JOIN solutions s ON s.id = r.solution_id
WHERE f.throughput_source IS NOT NULL;
