-- title: Latency summary
-- description: Per run and scope, the average, minimum and maximum latency over instances (ms),
--   with the thresholds the run's log announced and how many instances exceed the average limits.
-- column avg_db_read_latency_ms: average over instances of the instance averages
-- column instances_over_read_threshold: instances whose average read latency exceeds the threshold
-- Aggregates stored per run and scope at ingest (run_scope_latencies, migration 0008).
CREATE OR REPLACE VIEW latency_summary AS
SELECT l.run_id, l.solution, l.run_label, l.scope, l.instance_row_count AS instance_rows,
       l.avg_db_read_latency_ms, l.min_db_read_latency_ms, l.max_db_read_latency_ms,
       l.avg_db_write_latency_ms, l.avg_log_write_latency_ms, l.max_log_write_latency_ms,
       l.threshold_db_read_avg_ms, l.threshold_log_write_avg_ms,
       l.over_read_threshold_count AS instances_over_read_threshold,
       l.over_log_threshold_count AS instances_over_log_threshold
FROM run_scope_latencies l;
