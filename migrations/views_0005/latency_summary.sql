-- title: Latency summary
-- description: Per run and scope, the average, minimum and maximum latency over instances (ms),
--   with the thresholds the run's log announced and how many instances exceed the average limits.
-- column avg_db_read_latency_ms: average over instances of the instance averages
-- column instances_over_read_threshold: instances whose average read latency exceeds the threshold
CREATE OR REPLACE VIEW latency_summary AS
SELECT r.id AS run_id, s.key AS solution, r.run_label, l.scope,
       count(*) AS instance_rows,
       avg(l.db_read_latency_ms) AS avg_db_read_latency_ms,
       min(l.db_read_latency_ms) AS min_db_read_latency_ms,
       max(l.db_read_latency_ms) AS max_db_read_latency_ms,
       avg(l.db_write_latency_ms) AS avg_db_write_latency_ms,
       avg(l.log_write_latency_ms) AS avg_log_write_latency_ms,
       max(l.log_write_latency_ms) AS max_log_write_latency_ms,
       r.threshold_db_read_avg_ms, r.threshold_log_write_avg_ms,
       count(*) FILTER (WHERE l.db_read_latency_ms > r.threshold_db_read_avg_ms) AS instances_over_read_threshold,
       count(*) FILTER (WHERE l.log_write_latency_ms > r.threshold_log_write_avg_ms) AS instances_over_log_threshold
FROM latencies l
JOIN runs r ON r.id = l.run_id
LEFT JOIN solutions s ON s.id = r.solution_id
GROUP BY r.id, s.key, r.run_label, l.scope, r.threshold_db_read_avg_ms, r.threshold_log_write_avg_ms;
