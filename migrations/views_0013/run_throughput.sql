-- title: Run throughput
-- description: Disk throughput of each run: from the perfmon samples linked to the run when it
--   has them (LogicalDisk(_Total) counters averaged over the samples inside the run's window
--   [test_start, test_end], or over the whole export when the run has no window or no sample in
--   it), else as a document's result table prints it. MB = 2^20 bytes.
-- column transfer_mb_per_s: disk read + write megabytes per second
-- column perfmon_sample_window: which samples the run's perfmon figures average, one value for
--   them all: run (inside the run's window), export (the whole export: the run has no window or
--   no sample in it) or mixed (some counters one way, some the other)
-- column throughput_source: where transfer_mb_per_s came from: perfmon (its Disk Bytes/sec, or read
--   + write), else document_table; perfmon too when perfmon gives only transfers or latencies
-- Counter means and throughput are stored per run at ingest (run_figures, perf_counter_means);
-- perf_counter_means.sample_window says which samples a counter's mean covers: run | export.
CREATE OR REPLACE VIEW run_throughput AS
SELECT f.run_id, f.solution, f.run_label,
       f.disk_transfers_per_s, f.read_mb_per_s, f.write_mb_per_s, f.transfer_mb_per_s,
       f.read_latency_ms, f.write_latency_ms, f.throughput_source,
       f.solution_id, f.perfmon_sample_window
FROM run_figures f
WHERE f.throughput_source IS NOT NULL;
